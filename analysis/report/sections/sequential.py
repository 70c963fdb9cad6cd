"""How long each question played: the runs of a study that played until decided
(``analysis.study.sequential_study``), each with its stopping rule, the look it stopped at, the games it
played out of its budget and each question's decision at every look it took, read from the ``sequence.json``
beside the runs (``analysis.questions.stops.sequences``).  Every number is also a finding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from analysis.data.runs import Run, Runs
from analysis.data.sequence import STRENGTH, said
from analysis.present.blocks import Section, Table, interval, num, pct, table
from analysis.present.findings import Finding
from analysis.questions.stops import sequences
from analysis.stats.decide.core import OUTCOMES
from analysis.stats.sequential import describe

TITLE = "How long each question played"
QUESTION = "How many games did each run play before its questions were decided, and what did each look say?"
#: the questions a look decides, by their records' position column, as the page names them
LABELS = {"seat": "seat", "start_position": "start position", STRENGTH: "rung strength"}
#: a seat question's outcomes in the words of a difference (a cell's strength findings)
AS_DIFFERENCE = dict(zip(OUTCOMES["seats"], OUTCOMES["difference"], strict=True))
NAMES = {"obrien-fleming": "O'Brien-Fleming-type", "pocock": "Pocock-type", "bonferroni": "Bonferroni"}
NOTE = (
    "Each run played in looks, its blocks doubling up to its budget, and stopped at the first look that "
    "decided every question (fair within the margin or unfair), or at its last. A skill matrix's cell asks"
    " one question instead: whether its two rungs are even (the one rung's win share within the margin of "
    "its even share) or uneven. Look j decides at its own "
    "level α_j of the alpha-spending function over the planned looks; the levels sum to α = 5%, so by the "
    "union bound a false 'fair' or a false 'unfair' has chance at most 5% whichever look a run stopped at. "
    "The seat verdicts of these runs elsewhere on the page are made at the look each stopped at: their "
    "intervals are that look's (1 − α_j) and (1 − 2α_j) ones and their p values are on α's scale "
    "(p · α / α_j). Comparisons between runs (rule variants, stronger play) are made at the sizes the runs "
    "stopped at, as fixed samples."
)


def section(runs: Runs, sid: str) -> Section | None:
    """The section for ``runs`` (one game's), or None where none of them played until decided."""
    entries = sequences(runs)
    played = [(run, entries[run.label]) for run in runs if run.label in entries]
    if not played:
        return None
    stops = pl.DataFrame([_stop_row(run, entry) for run, entry in played], infer_schema_length=None)
    looks = pl.DataFrame(
        [_look_row(run, entry, doc) for run, entry in played for doc in entry["looks"]],
        infer_schema_length=None,
    )
    questions = [q for q in LABELS if any(q in doc["questions"] for _, e in played for doc in e["looks"])]
    return Section(
        sid,
        TITLE,
        QUESTION,
        " ".join(_stop_words(run, entry, questions) for run, entry in played),
        tables=[_stops_table(stops, questions), _looks_table(looks, questions)],
        notes=[NOTE],
        findings=_findings(played, sid),
    )


def _question(doc: dict[str, Any], question: str) -> dict[str, Any] | None:
    """A look's decision of ``question`` as ``sequence.json`` records it (None where it was not posed)."""
    found = doc["questions"].get(question)
    return found if isinstance(found, dict) else None


def _stopped(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry's look it stopped at."""
    return entry["looks"][entry["stopped_at"] - 1]


def _rule(entry: dict[str, Any]) -> str:
    """The stopping rule and the look it stopped at, in words."""
    return describe(entry["plan"], entry["stopped_at"] - 1, entry["spending"])


def _decision_words(found: dict[str, Any] | None, margin: float | None, question: str = "seat") -> str:
    """``fair within 5 points``, ``unfair``, ``undecided`` (or ``-`` where the look could not pose it); a
    skill matrix cell's strength is ``even within 5 points`` or ``uneven``."""
    if found is None:
        return "-"
    decision = said(question, str(found["decision"]))
    if found["decision"] == "fair" and margin is not None:
        return f"{decision} within {num(100 * margin, 1)} points"
    return decision


def _base(run: Run) -> dict[str, Any]:
    """The columns naming a run in the section's frames."""
    return {"game": run.game, "run": run.label, "players": run.players, "variant": run.variant}


def _stop_row(run: Run, entry: dict[str, Any]) -> dict[str, Any]:
    """One run's row: where it stopped, why, and each question's decision there."""
    last = _stopped(entry)
    sizes = ", ".join(str(n) for n in entry["plan"])
    row = {
        **_base(run),
        "rule": f"{NAMES[entry['spending']]} alpha spending, looks at blocks {sizes}",
        "stopped_at": entry["stopped_at"],
        "looks": len(entry["plan"]),
        "why": "every question decided" if entry.get("stopped") == "decided" else "budget spent",
        "games": entry["games"],
        "budget": entry["budget"],
        "blocks": last["blocks"],
    }
    for question in LABELS:
        row[question] = _decision_words(_question(last, question), entry.get("margin"), question)
    return row


def _look_row(run: Run, entry: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    """One look of one run: its size, level and each question's decision, with its decisive position's
    win share and interval in words."""
    row: dict[str, Any] = {
        **_base(run),
        "look": doc["look"],
        "blocks": doc["blocks"],
        "games": doc["games"],
        "level": doc["level"],
    }
    for question in LABELS:
        found = _question(doc, question)
        row[question] = _decision_words(found, entry.get("margin"), question)
        row[f"{question}_share"] = _share_words(found)
    return row


def _share_words(found: dict[str, Any] | None) -> str:
    """``2: 31.2% [24.0, 39.1]%``: a decision's decisive position, its win share and interval."""
    if found is None or found["share"] is None:
        return "-"
    return f"{found['position']}: {pct(found['share'])} {interval(found['low'], found['high'], as_pct=True)}"


def _text(key: str) -> Callable[[dict[str, Any]], str]:
    """A table cell: the row's ``key`` as text."""
    return lambda r: str(r[key])


def _stops_table(frame: pl.DataFrame, questions: list[str]) -> Table:
    """The table of where each run stopped, with each question's decision there."""
    columns = [
        ("run", lambda r: str(r["run"])),
        ("players", lambda r: num(r["players"])),
        ("variant", lambda r: str(r["variant"])),
        ("stopping rule", lambda r: str(r["rule"])),
        ("stopped at", lambda r: f"look {r['stopped_at']} of {r['looks']} ({r['why']})"),
        ("games played of the budget", lambda r: f"{num(r['games'])} of {num(r['budget'])}"),
        ("blocks", lambda r: num(r["blocks"])),
    ]
    columns += [(f"{LABELS[q]}s", _text(q)) for q in questions]
    return table("Where each run stopped", frame, columns)


def _looks_table(frame: pl.DataFrame, questions: list[str]) -> Table:
    """The table of every look taken: its size, level and each question's decision."""
    columns = [
        ("run", lambda r: str(r["run"])),
        ("look", lambda r: num(r["look"])),
        ("blocks", lambda r: num(r["blocks"])),
        ("games", lambda r: num(r["games"])),
        ("level α_j", lambda r: num(r["level"], 4)),
    ]
    for q in questions:
        columns.append((f"{LABELS[q]}s", _text(q)))
        columns.append((f"least settled {LABELS[q]}: win share", _text(f"{q}_share")))
    return table("Each look taken: its level and each question's decision", frame, columns)


def _stop_words(run: Run, entry: dict[str, Any], questions: list[str]) -> str:
    """One run's sentence."""
    last = _stopped(entry)
    told = "; ".join(
        f"{LABELS[q]}s {_decision_words(_question(last, q), entry.get('margin'), q)}"
        for q in questions
        if _question(last, q) is not None
    )
    why = "with every question decided" if entry.get("stopped") == "decided" else "its budget spent"
    return (
        f"{run.label} ({run.players} players, {run.variant}) stopped at look {entry['stopped_at']} of"
        f" {len(entry['plan'])}, {why}: {num(entry['games'])} of {num(entry['budget'])} games"
        f"{'; ' + told if told else ''}."
    )


def _findings(played: list[tuple[Run, dict[str, Any]]], sid: str) -> list[Finding]:
    """Per run: the look it stopped at, the looks planned, the games played and the budget; per look taken:
    its blocks, its level and each question's decision there."""
    found = []
    for run, entry in played:
        groups = {"run": run.label, "players": run.players, "variant": run.variant}
        rule = _rule(entry)
        blocks = _stopped(entry)["blocks"]

        def count(metric: str, value: Any, test: str, groups: dict[str, Any] = groups) -> Finding:
            """A count of the run (the look, the looks, games), as a finding."""
            return Finding(
                game=run.game,
                section=sid,
                metric=metric,
                groups=groups,
                estimate=value,
                test=test,
                games=entry["games"],
                clusters=blocks,
                unit="count",
            )

        why = (
            "stopped: every question decided"
            if entry.get("stopped") == "decided"
            else "stopped: budget spent"
        )
        found += [
            count("stopping look", entry["stopped_at"], rule),
            count("looks planned", len(entry["plan"]), rule),
            count("games played until decided", entry["games"], why),
            count("games budget", entry["budget"], "the most games the run could play"),
        ]
        for doc in entry["looks"]:
            at = {**groups, "look": doc["look"]}
            spent = f"{NAMES[entry['spending']]} alpha spending, union bound"
            for metric, value, unit, test in (
                ("blocks at a look", doc["blocks"], "count", "blocks planned for the look"),
                ("level of a look", doc["level"], "share", spent),
            ):
                found.append(
                    Finding(
                        game=run.game,
                        section=sid,
                        metric=metric,
                        groups=at,
                        estimate=value,
                        games=doc["games"],
                        clusters=doc["blocks"],
                        unit=unit,
                        test=test,
                    )
                )
            found += [
                _decision(run, sid, at, q, d, entry.get("margin")) for q in LABELS if (d := _question(doc, q))
            ]
    return found


def _decision(
    run: Run, sid: str, groups: dict[str, Any], question: str, doc: dict[str, Any], margin: float | None
) -> Finding:
    """One question's decision at one look, as a finding."""
    return Finding(
        game=run.game,
        section=sid,
        metric=f"{LABELS[question]} decision at a look",
        groups=groups,
        estimate=doc["share"],
        low=doc["low"],
        high=doc["high"],
        p_value=doc["p_value"],
        test=doc.get("stopping"),
        games=doc["games"],
        clusters=doc["blocks"],
        unit="share",
        expected=doc["expected"],
        # a cell's strength is decided as two positions are: its findings use the words of a difference
        decision=AS_DIFFERENCE.get(doc["decision"], doc["decision"])
        if question == STRENGTH
        else doc["decision"],
        margin=margin,
        position=doc["position"],
        half_width=doc["half_width"],
        games_needed=doc["games_needed"],
    )

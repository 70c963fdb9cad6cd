"""The tune's report section, written as a standalone ``tune.html`` with the report's building blocks
(``analysis.present.blocks``: a ``Section`` of charts and tables; charts by ``analysis.present.charts``).

The same section (``section``) makes the standalone page and joins ``skald report`` for a folder holding a
``tune.json`` (``analysis.report.report``), with its numbers as findings (``findings``) for ``report.json``
and the verdict page (``analysis.report.verdicts.tune_verdicts``).  The section: the objective against games
spent (every estimate of every rung, and each rung's best), the finalists' confirmed values with intervals and
the corrected tests, what the winner changes, the tuned player (a runnable spec and its confirmed win share,
for a tune with a player) and the one-step check of the winner (each neighbour one parameter step away:
worse, not clearly worse, better or not measured).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from analysis.present.blocks import Chart, Section, Table
from analysis.present.charts import WIDTH, plt, png
from analysis.present.findings import TUNE_CHANGE, TUNE_OBJECTIVE, TUNE_SPENT, Finding
from sim.manifest import write_text_atomic
from sim.outputs import GENERATOR


def _chart(doc: dict[str, Any]) -> Chart:
    fig, ax = plt.subplots(figsize=(WIDTH, 3.6))
    spent, rung_best = [], []
    for rung in doc["rungs"]:
        at = _rung_spent(doc, rung)
        ax.scatter([at] * len(rung["objective"]), rung["objective"], s=10, alpha=0.5, color="tab:blue")
        spent.append(at)
        rung_best.append(min(rung["objective"]))
    ax.plot(spent, rung_best, marker="o", color="tab:orange", label="best of the rung")
    final = doc["confirmation"]["finalists"]
    total = doc["games_spent"]
    for row in final:
        ax.errorbar(
            [total],
            [row["objective"]],
            yerr=[[row["objective"] - row["low"]], [row["high"] - row["objective"]]],
            fmt="s",
            capsize=3,
            color="tab:green" if row["candidate"] == doc["winner"] else "tab:grey",
        )
    ax.set_xlabel("games spent")
    ax.set_ylabel("objective (lower is better)")
    ax.set_title(
        "Objective against games spent (squares: the finalists confirmed on fresh seeds)", fontsize=10
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return Chart("tune-objective", png(fig), "objective estimates of every candidate against games spent")


def _rung_spent(doc: dict[str, Any], rung: dict[str, Any]) -> int:
    """Games spent when the rung's estimates were taken (read from the history, in rung order)."""
    index = doc["rungs"].index(rung)
    sizes = [len(r["candidates"]) for r in doc["rungs"]]
    position = sum(sizes[: index + 1]) - 1
    return int(doc["history"][position]["games_spent"]) if position < len(doc["history"]) else 0


def _label(doc: dict[str, Any], cand: int) -> str:
    values = next(c["values"] for c in doc["candidates"] if c["candidate"] == cand)
    return f"#{cand}: " + "; ".join(f"{k} = {v}" for k, v in values.items())


def _p(value: float | None) -> str:
    return "-" if value is None else (f"{value:.3g}" if value >= 1e-4 else "<1e-4")


def section(doc: dict[str, Any]) -> Section:
    conf = doc["confirmation"]
    finalists = Table(
        f"Finalists re-measured on fresh seeds ({conf['games_per_run']:,} games per run,"
        f" seed {conf['seed']})",
        ["candidate", "objective (95% CI)", "p winner better (Holm)", "seat shares per population (p, Holm)"],
        [
            [
                _label(doc, row["candidate"]) + (" (winner)" if row["candidate"] == doc["winner"] else ""),
                f"{row['objective']:.4f} ({row['low']:.4f} to {row['high']:.4f})",
                f"{_p(row['p_winner_better'])} ({_p(row['p_holm'])})",
                "; ".join(
                    f"{'/'.join(run['strategies'])}: "
                    + "/".join(f"{x:.3f}" for x in run["seat_share"])
                    + f" (p {_p(run['equal_chances_p_holm'])})"
                    for run in row["runs"]
                ),
            ]
            for row in conf["finalists"]
        ],
    )
    changed = Table(
        "What the winner changes",
        ["parameter", "target", "before", "after"],
        [[c["parameter"], c["target"], _short(c["before"]), _short(c["after"])] for c in doc["changes"]],
    )
    ranked = sorted(
        (c for c in doc["candidates"] if c["objective"] is not None),
        key=lambda c: (-(c["games_per_run"] or 0), c["objective"]),
    )
    every = Table(
        "Every candidate: games spent and last estimate",
        ["candidate", "games", "games per run", "objective"],
        [
            [_label(doc, c["candidate"]), f"{c['games']:,}", str(c["games_per_run"]), f"{c['objective']:.4f}"]
            for c in ranked
        ],
    )
    moved = [c["parameter"] for c in doc["changes"] if c["changed"]]
    reading = (
        f"{len(doc['candidates'])} candidates, {doc['games_spent']:,} games; the winner"
        f" {_label(doc, doc['winner'])} changes {', '.join(moved) if moved else 'nothing'}"
        " against the base data and rules."
    )
    step = doc.get("one_step") or {}
    if "player" in doc:
        reading += f" {_player_words(doc['player'], doc['players'])}"
    if step:
        reading += f" One-step check: {step['summary']}."
    tables = [finalists, changed, every]
    tables[1:1] = [t for t in (_player_table(doc), _step_table(step)) if t is not None]
    return Section(
        section_id(doc),
        doc["title"],
        "Which configuration best meets the objective?",
        reading,
        charts=[_chart(doc)],
        tables=tables,
        notes=[conf["test"], conf["seat_test"]] + ([step["method"]] if step else []),
        findings=findings(doc),
    )


def share_words(share: dict[str, Any], players: int) -> str:
    """A confirmed win share in words: ``win share 0.290 [0.250, 0.330] in one seat against greedy, 4
    players, 600 games: above parity 1/4``."""
    if share["share"] is None:
        return f"win share not measured against {share['field']} (no completed game)"
    parity = f"parity 1/{players}"
    verdict = {
        "above parity": f"above {parity}",
        "below parity": f"below {parity}",
        "includes parity": f"the interval includes {parity}: not shown stronger than the field",
    }[share["verdict"]]
    return (
        f"win share {share['share']:.3f} [{share['low']:.3f}, {share['high']:.3f}] in one seat against"
        f" {share['field']}, {players} players, {share['games']:,} games: {verdict}"
    )


def _player_words(player: dict[str, Any], players: int) -> str:
    shares = "; ".join(share_words(s, players) for s in player["win_share"])
    return f"The tuned player is {player['spec']}" + (f": {shares}." if shares else ".")


def _player_table(doc: dict[str, Any]) -> Table | None:
    """The winner's player: its spec and its confirmed win share against each field."""
    player = doc.get("player")
    if player is None:
        return None
    rows = [["spec (skald run ... --strategies)", player["spec"]], ["tuned from", player["base"]]]
    for share in player["win_share"]:
        rows.append(
            [f"against {share['field']}", f"{share_words(share, doc['players'])} ({share['interval']})"]
        )
    return Table("The tuned player (confirmed on fresh seeds)", ["", "value"], rows)


def _step_table(step: dict[str, Any]) -> Table | None:
    """The one-step check: each neighbour's verdict and figures."""
    if not step or not step.get("neighbours"):
        return None
    rows = []
    for row in step["neighbours"]:
        measured = row["verdict"] != "not measured"
        rows.append(
            [
                f"{row['parameter']}: {row['winner_value']} -> {row['neighbour_value']}",
                row["verdict"] + ("" if measured else f" ({row['reason']})"),
                f"{row['games_per_run']:,}" if measured else "-",
                f"{row['difference']:+.4f} ({row['low']:+.4f} to {row['high']:+.4f})" if measured else "-",
            ]
        )
    return Table(
        "One-step check: the winner against each neighbour one parameter step away",
        ["change", "verdict", "games per run", "neighbour - winner (95% CI)"],
        rows,
    )


def section_id(doc: dict[str, Any]) -> str:
    """``tune-<name>``: the section's anchor on the page and its findings' section."""
    return "tune-" + "".join(c if c.isalnum() else "-" for c in str(doc["tune"]).lower())


def objective_words(doc: dict[str, Any]) -> str:
    """The objective in a few words: ``worst seat gap``, ``mean seat chi-square``, ``length off 6
    decisions``, ``win-matrix distance``; several terms: ``weighted objective``."""
    terms = doc["objective"]
    if len(terms) != 1:
        return "weighted objective"
    (t,) = terms
    if t["kind"] == "even_seats":
        combine = "worst" if t.get("combine", "max") == "max" else "mean"
        return f"{combine} seat {'gap' if t.get('measure', 'gap') == 'gap' else 'chi-square'}"
    if t["kind"] == "game_length":
        return f"length off {t['target']:g} decisions"
    return "win-matrix distance"


def findings(doc: dict[str, Any]) -> list[Finding]:
    """The tune's numbers (``report.json``): the games spent, each finalist's confirmed objective (the
    winner's ``test`` is ``winner``; the others carry the one-sided p of the winner being better, Holm over
    the finalists - 1 comparisons), their seat shares and seat tests, every candidate's last estimate and
    each parameter the winner changes."""
    conf, sid = doc["confirmation"], section_id(doc)
    tune = {"tune": doc["title"]}
    runs = len(doc["runs"])

    def found(metric: str, groups: dict[str, Any], **numbers: Any) -> Finding:
        return Finding(game=doc["game"], section=sid, metric=metric, groups={**tune, **groups}, **numbers)

    spent = doc["games_spent"]
    out = [found("games spent", {}, estimate=spent, games=spent, unit="count", question=TUNE_SPENT)]
    family, words = len(conf["finalists"]) - 1, objective_words(doc)
    for row in conf["finalists"]:
        cand = {"candidate": row["candidate"]}
        winner = row["candidate"] == doc["winner"]
        out.append(
            found(f"confirmed objective: {words}", cand, estimate=row["objective"],
                  low=row["low"], high=row["high"], p_value=row["p_winner_better"], p_adjusted=row["p_holm"],
                  test="winner" if winner else "paired bootstrap", correction=None if winner else "Holm",
                  family=None if winner else family, games=conf["games_per_run"] * runs,
                  question=TUNE_OBJECTIVE, subject=words)
        )  # fmt: skip
        for run in row["runs"]:
            table = {**cand, "strategies": "/".join(run["strategies"])}
            for seat, share in enumerate(run["seat_share"]):
                out.append(found("confirmed seat share", {**table, "seat": seat}, estimate=share,
                                 low=run["seat_low"][seat], high=run["seat_high"][seat], games=run["games"],
                                 unit="share", expected=1 / doc["players"]))  # fmt: skip
            out.append(found("confirmed seat test", table, p_value=run["equal_chances_p"],
                             p_adjusted=run["equal_chances_p_holm"], test="chi-square", correction="Holm",
                             family=runs * len(conf["finalists"]), games=run["games"]))  # fmt: skip
    for c in doc["candidates"]:
        out.append(found("search objective", {"candidate": c["candidate"]}, estimate=c["objective"],
                         games=c["games"]))  # fmt: skip
    for c in doc["changes"]:
        moved = {"parameter": c["parameter"], "before": _short(c["before"], 60)}
        moved["after"] = _short(c["after"], 60)
        changed = "changed" if c["changed"] else "unchanged"
        out.append(found("winner changes", moved, test=changed, question=TUNE_CHANGE))
    return out


def _short(value: Any, room: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= room else text[: room - 1] + "…"


def write_html(doc: dict[str, Any], path: Path) -> None:
    footer = f"Run the winner: <code>{html.escape(doc['command'])}</code>"
    write_text_atomic(standalone(section(doc), footer), path)


def standalone(s: Section, footer: str = "") -> str:
    """A section as a standalone HTML page (charts embedded; ``footer``: HTML, already escaped)."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'>{GENERATOR}<title>{html.escape(s.title)}</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 6px;font-size:90%;vertical-align:top}</style></head><body>",
        f"<h1>{html.escape(s.title)}</h1><p><b>{html.escape(s.question)}</b> {html.escape(s.reading)}</p>",
    ]
    for chart in s.charts:
        parts.append(f"<img alt='{html.escape(chart.alt)}' src='{chart.data_uri}'>")
    for table in s.tables:
        parts.append(
            f"<h2>{html.escape(table.title)}</h2><table><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
            + "</tr>"
        )
        for row in table.rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>")
        parts.append("</table>")
    parts += [f"<p><small>{html.escape(n)}</small></p>" for n in s.notes]
    parts.append(f"<p><small>{footer}</small></p></body></html>")
    return "\n".join(parts) + "\n"

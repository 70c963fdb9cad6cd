"""The skill section (any game whose records hold a skill matrix: ``analysis.questions.skill``): the win
rate of each rung against each other rung with its interval and the first seat's rate, the seat verdict
at each rung, whether the first seat's advantage grows, shrinks or holds with skill, and the share of
the outcome the deal decides at each rung."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from analysis.data.runs import Runs
from analysis.present.blocks import Section, col, interval, pct, unavailable, variant_words
from analysis.present.findings import LUCK_SHARE, SEAT_BY_SKILL, SKILL_MATRIX, Finding
from analysis.present.tables import findings_for, share_with_interval, stats_table
from analysis.questions import skill
from analysis.questions.balance import seat_margin

QUESTION = (
    "How much stronger is each player than the others, is the game fair at every level of play, does the "
    "first seat's edge grow as the players get better, and how much of the outcome does the deal decide?"
)
NOTE = (
    "The rungs are strategies that each played a mirror match (the strategy in every seat) and, in the "
    "cells of the matrix, one seat against another rung in every other seat, seats rotated so it held "
    "every seat of every deal. A cell's win share counts decided games (ties split fractionally); its 95%"
    " interval is Wilson's at the blocks' effective size with a t quantile on blocks - 1 df, the block "
    "being one deal played with the seats rotated; truncated and errored games are left out and counted. "
    "The rungs are ordered by measured strength: the mean of their cells' win shares over the even share."
    " Each rung's seat verdict decides its mirror match against the margin, as the seat section does. The"
    " first seat's advantage (its win share minus the even share) is fitted along the rungs by weighted "
    "least squares, and its change from the weakest rung to the strongest is decided against the same "
    "margin: it holds where the change's interval lies within the margin, grows or shrinks where a change"
    " is shown, and is undecided otherwise. The deal's share (Goodman, Perez-Liebana and Lucas's seed "
    "effect) is read from a rung's mirror match played with replicates, each deal played again with the "
    "same chance and fresh choices of the players' own: the intra-class correlation of a seat's win share"
    " by deal and seat, each seat's mean removed, with a percentile bootstrap interval over the deals (400"
    " resamples, seeded from the data). 100% means the deal alone decides who wins (a player with no "
    "chance of its own replays the same game); 0% means the players' own chance does. A rung whose mirror"
    " played each deal once has no deal's share (give its study entry replicates = 2 or more). In a study"
    " that plays until decided, each cell stops once its two rungs are shown even (within the margin of the"
    " even share) or uneven, each mirror once its seat verdict is decided; the cells' intervals are those"
    " of the games they played."
)


def skill_sections(runs: Runs, sid: str = "skill-matrix") -> list[Section]:
    """The skill section of ``runs`` (one game's), none where the records hold no matrix, or a section
    saying why where the records cannot answer, so the rest of the report stands."""
    if not skill.matrix_runs(runs):
        return []
    try:
        tables = skill.skill_tables(runs, seat_margin())
        return [skill_section(tables, sid)] if tables and not tables["cells"].is_empty() else []
    except Exception as exc:
        return [unavailable(sid, "Skill", QUESTION, exc)]


def _groups(cells: pl.DataFrame) -> list[tuple[Any, ...]]:
    return [tuple(k) for k in cells.select(skill.KEYS).unique(maintain_order=True).iter_rows()]


def _where(frame: pl.DataFrame, key: tuple[Any, ...]) -> pl.DataFrame:
    if frame.is_empty():
        return frame
    return frame.filter(pl.all_horizontal([pl.col(k) == v for k, v in zip(skill.KEYS, key, strict=True)]))


def _reading(tables: dict[str, Any]) -> str:
    sentences = []
    for key in _groups(tables["cells"]):
        game, players, variant = key
        order = tables["order"].get(key, [])
        balanced = _where(tables["balance"], key)
        verdicts = ", ".join(
            f"{r['rung']} {r['decision'] or 'not decided'}" for r in balanced.iter_rows(named=True)
        )
        trend = tables["trends"].get(key)
        where = f"{players} players{variant_words(variant)}"
        sentences.append(
            f"At {where}, the rungs from weakest to strongest are {', '.join(order)}."
            + (f" Seats by rung: {verdicts}." if verdicts else "")
        )
        if trend is not None:
            d = trend.decision
            low, high = d.interval
            change = f"{100 * d.estimate:+.1f} points"
            if math.isfinite(low) and math.isfinite(high):
                change += f" {interval(100 * low, 100 * high)}"
            more = f"; about {d.games_needed:,} more games would decide it" if d.games_needed else ""
            sentences.append(
                f"From the weakest rung to the strongest the first seat's advantage "
                f"{'is undecided' if trend.words == 'undecided' else trend.words} "
                f"({change} against a margin of {100 * d.margin:.0f} points{more})."
            )
    return " ".join(sentences)


def _cell_table(cells: pl.DataFrame) -> Any:
    return stats_table(
        "Each rung in one seat against another rung in the others",
        cells,
        [
            "players",
            "variant",
            ("one seat", "one"),
            ("other seats", "field"),
            ("decided games", "games"),
            "blocks",
            ("excluded", "excluded"),
            ("win share [95%]", share_with_interval("win_rate", "ci_low", "ci_high")),
            ("even share", col("expected", pct)),
            ("first seat's win rate [95%]", share_with_interval("first_rate", "first_low", "first_high")),
        ],
    )


def _rung_table(balanced: pl.DataFrame, luck: pl.DataFrame) -> Any:
    luck_cols = (
        luck.select(*skill.KEYS, "rung", "luck", "luck_low", "luck_high") if not luck.is_empty() else None
    )
    frame = (
        balanced.join(luck_cols, on=[*skill.KEYS, "rung"], how="left") if luck_cols is not None else balanced
    )
    if "luck" not in frame.columns:
        frame = frame.with_columns(
            pl.lit(None, pl.Float64).alias(c) for c in ("luck", "luck_low", "luck_high")
        )
    return stats_table(
        "Each rung's mirror match: its seat verdict, the first seat's advantage and the deal's share",
        frame,
        [
            "players",
            "variant",
            "rung",
            ("decided games", "decided"),
            ("seat verdict", col("decision", lambda x: x or "not decided")),
            ("first seat's advantage [95%]", _advantage),
            ("deal's share of the outcome [95%]", _luck),
        ],
    )


def _advantage(row: dict[str, Any]) -> str:
    if row.get("first_advantage") is None:
        return "-"
    low, high = row.get("first_adv_low"), row.get("first_adv_high")
    shown = f"{100 * row['first_advantage']:+.1f} pts"
    return shown if low is None or high is None else f"{shown} {interval(100 * low, 100 * high)}"


def _luck(row: dict[str, Any]) -> str:
    value = row.get("luck")
    if value is None or not math.isfinite(value):
        return "-"
    low, high = row.get("luck_low"), row.get("luck_high")
    if low is None or high is None or not math.isfinite(low):
        return pct(value)
    return f"{pct(value)} {interval(low, high, as_pct=True)}"


def _findings(sid: str, tables: dict[str, Any]) -> list[Finding]:
    cells, luck = tables["cells"], tables["luck"]
    groups = ("players", "variant", "one", "field")
    found = findings_for(section=sid, clusters="blocks")(
        cells.with_columns((pl.col("one") + " against " + pl.col("field")).alias("subject")),
        metric="skill matrix win share",
        groups=groups,
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        games="games",
        excluded="excluded",
        unit="share",
        expected="expected",
        question=SKILL_MATRIX,
        subject="subject",
    )
    found += findings_for(section=sid, clusters="blocks")(
        cells,
        metric="skill matrix first seat's win rate",
        groups=groups,
        estimate="first_rate",
        low="first_low",
        high="first_high",
        games="games",
        excluded="excluded",
        unit="share",
    )
    if not luck.is_empty():
        found += findings_for(section=sid, clusters="blocks")(
            luck,
            metric="deal's share of the outcome",
            groups=("players", "variant", "rung"),
            estimate="luck",
            low="luck_low",
            high="luck_high",
            games="games",
            unit="share",
            question=LUCK_SHARE,
            subject="rung",
        )
    for (game, players, variant), trend in tables["trends"].items():
        row = trend.decision.to_finding()
        found.append(
            Finding(
                game,
                sid,
                "first seat's advantage by skill",
                {"players": players, "variant": variant},
                row["estimate"],
                row["low"],
                row["high"],
                p_value=row["p_value"],
                test=trend.method,
                games=row.get("games"),
                clusters=trend.rungs,
                unit="difference",
                expected=0.0,
                decision=trend.words,
                margin=trend.decision.margin,
                half_width=row.get("half_width"),
                games_needed=trend.decision.games_needed,
                question=SEAT_BY_SKILL,
                subject="first seat",
            )
        )
    return found


def skill_section(tables: dict[str, Any], sid: str = "skill-matrix") -> Section:
    """The section of ``skill.skill_tables``."""
    shown = [_cell_table(tables["cells"])]
    if not tables["balance"].is_empty():
        shown.append(_rung_table(tables["balance"], tables["luck"]))
    return Section(
        sid,
        "Skill",
        QUESTION,
        _reading(tables),
        tables=shown,
        findings=_findings(sid, tables),
        notes=[NOTE],
    )

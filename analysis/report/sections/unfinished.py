"""Runs, variants and groups none of whose games finished (every one cut at the decision cap or stopped
by an error): they have no winner, score or length to count, so the report names them, counts their
games, and leaves them out of every estimate and comparison."""

from __future__ import annotations

from typing import Any

import polars as pl

from analysis.data.runs import Run, Runs
from analysis.present.blocks import Section, Table
from analysis.present.findings import UNFINISHED, Finding, from_frame
from analysis.present.tables import stats_table

#: the metric of the findings that name what finished no game (their estimate is 0; question ``UNFINISHED``)
METRIC = "finished games"
SID = "unfinished"
TITLE = "Runs with no finished game"
QUESTION = "Which runs have no finished game to analyse?"


def outcome_words(games: int, truncated: int, errored: int, cap: Any = None) -> str:
    """``12 games: 12 cut at the decision cap (--max-decisions 3), none errored``."""
    at = f" (--max-decisions {cap})" if cap is not None and truncated else ""
    cut = f"{truncated:,} cut at the decision cap{at}" if truncated else "none cut at the decision cap"
    broke = f"{errored:,} stopped by an error" if errored else "none stopped by an error"
    return f"{games:,} game{'' if games == 1 else 's'}: {cut}, {broke}"


def _run_words(run: Run, counts: dict[str, int]) -> str:
    words = outcome_words(
        counts["games"], counts["truncated"], counts["errored"], run.config.get("max_decisions")
    )
    return f"{run.label} ({run.players} players, {run.variant}; {words})"


def section(runs: Runs, dead: list[tuple[Run, dict[str, int]]], sid: str) -> Section:
    """One game's runs (``runs``) with no finished game (``dead``, from ``Runs.unfinished``): named and
    counted, with one finding each (metric ``finished games``, estimate 0, the games left out)."""
    rest = len(runs) - len(dead)
    names = "; ".join(_run_words(run, counts) for run, counts in dead)
    if rest:
        one = len(dead) == 1
        reading = (
            f"No game of {'run' if one else f'{len(dead)} runs'} {names} finished, so "
            f"{'it has' if one else 'they have'} no winner, score or length to count: "
            f"{'it is' if one else 'they are'} left out of every section below, which read "
            + ("the other run." if rest == 1 else f"the other {rest} runs.")
        )
    else:
        reading = (
            f"No game finished in {'run' if len(dead) == 1 else f'any of the {len(dead)} runs'} {names}, "
            "so there is nothing to analyse: no winner, score or game length. Raise --max-decisions or "
            "mend the strategy that fails, and run again."
        )
    frame = _frame(dead)
    table = stats_table(
        "Runs with no finished game",
        frame,
        ["run", "players", "variant", "strategies", "games", "truncated", "errored", ("decision cap", "cap")],
    )
    return Section(sid, TITLE, QUESTION, reading, tables=[table], findings=_findings(frame, sid))


def _frame(dead: list[tuple[Run, dict[str, int]]]) -> pl.DataFrame:
    rows = [
        {
            "game": run.game,
            "run": run.label,
            "players": run.players,
            "variant": run.variant,
            "strategies": ", ".join(run.config.get("strategies", [])),
            **counts,
            "excluded": counts["games"],
            "cap": str(run.config.get("max_decisions", "-")),
        }
        for run, counts in dead
    ]
    return pl.DataFrame(rows, infer_schema_length=None)


def _findings(
    frame: pl.DataFrame, sid: str, groups: tuple[str, ...] = ("run", "players", "variant")
) -> list[Finding]:
    return from_frame(
        frame.with_columns(pl.lit(0.0).alias("none")),
        section=sid,
        metric=METRIC,
        question=UNFINISHED,
        groups=groups,
        estimate="none",
        games="games",
        excluded="excluded",
        test="no game finished: not analysed",
        unit="count",
    )


def left_out(dead: pl.DataFrame, what: str, sid: str) -> tuple[str, list[Table], list[Finding]]:
    """What a comparison leaves out (``balance.unfinished_values``): a sentence, a table and one finding
    per value (metric ``finished games``, estimate 0); ``what`` names the values (``run``, ``variant``).
    Empty for an empty frame."""
    if dead.is_empty():
        return "", [], []
    sentences = []
    for row in dead.iter_rows(named=True):
        words = outcome_words(row["games"], row["truncated"], row["errored"])
        if row["value"] == row["base"]:
            tail = f"so nothing is compared with it at {row['players']} players"
        else:
            tail = "so it is not compared"
        sentences.append(f"No game of {what} {row['value']} finished ({words}), {tail}.")
    frame = dead.with_columns(pl.col("games").alias("excluded"))
    table = stats_table(
        "Left out of the comparison: no game finished",
        frame,
        [
            *(c for c in ("game", "players", "mix") if c in frame.columns),
            (what, "value"),
            ("baseline", "base"),
            "games",
            "truncated",
            "errored",
        ],  # fmt: skip
    )
    groups = tuple(c for c in ("players", "mix", "base", "value") if c in frame.columns)
    return " ".join(sentences), [table], _findings(frame, sid, groups)

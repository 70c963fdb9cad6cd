"""The game's own report section: how often the first mover wins, the second wins, or the game is drawn."""

from __future__ import annotations

from typing import Any

import polars as pl

from analysis.findings import Finding
from analysis.runs import Runs
from analysis.sections.blocks import Section, Table, interval, pct
from analysis.stats import wilson_interval

OUTCOMES = ("first mover wins", "second mover wins", "draw")
HEADERS = ["variant", "outcome", "games", "share", "95% interval"]


def _counts(runs: Runs) -> list[dict[str, Any]]:
    """Per rule variant: games finished and how many ended each way (R2: seat 0 moves first)."""
    games = runs.games().filter(~pl.col("truncated")).select("variant", "winner").collect()
    out = []
    for variant in sorted(set(games["variant"].to_list())):
        winners = games.filter(pl.col("variant") == variant)["winner"].to_list()
        counts = (winners.count(0), winners.count(1), sum(w is None for w in winners))
        out.append({"variant": variant, "games": len(winners), "counts": counts})
    return out


def outcome_section(runs: Runs) -> Section:
    """First-mover advantage (R2, R4-R5), one row per rule variant and outcome."""
    rows, findings = [], []
    for group in _counts(runs):
        for outcome, count in zip(OUTCOMES, group["counts"], strict=True):
            low, high = wilson_interval(count, group["games"])
            share = count / group["games"] if group["games"] else float("nan")
            shown = interval(float(low), float(high), as_pct=True)
            rows.append([group["variant"], outcome, f"{count:,}", pct(share), shown])
            findings.append(
                Finding(
                    game="tictactoe",
                    section="tictactoe-outcomes",
                    metric=outcome,
                    groups={"variant": group["variant"]},
                    estimate=share,
                    low=float(low),
                    high=float(high),
                    games=group["games"],
                    unit="share",
                )
            )
    first = next((r for r in rows if r[1] == OUTCOMES[0]), None)
    reading = (
        f"The first mover wins {first[3]} of the finished games ({first[4]}, 95% interval)."
        if first
        else "No finished games."
    )
    return Section(
        "tictactoe-outcomes",
        "Who wins: first mover, second mover or nobody",
        "How large is the first mover's advantage?",
        reading,
        tables=[Table("Outcomes of the finished games", HEADERS, rows)],
        findings=findings,
    )


def sections(runs: Runs) -> list[Any]:
    """The sections the plug-in names: only when the records hold tic-tac-toe runs."""
    own = runs.only(game="tictactoe")
    return [outcome_section(own)] if len(own) else []

"""The game's own report section: how often the first player wins, and how often a game is drawn."""

from __future__ import annotations

from typing import Any

import polars as pl
from scipy.stats import binomtest

from analysis.api import Section, Table, pct


def tictactoe_sections(runs: Any) -> list[Section]:
    """One section over every tic-tac-toe run in the records."""
    mine = runs.only(game="tictactoe")
    if not len(mine):
        return []
    games = mine.games().filter(~pl.col("truncated")).collect()
    n = games.height
    first = int((games["winner"] == 0).sum())
    draws = int(games["winner"].is_null().sum())
    rows = []
    for what, k in (("the first player (X) wins", first), ("a draw", draws)):
        ci = binomtest(k, n).proportion_ci(method="wilson") if n else None
        rows.append([what, f"{k:,} of {n:,}", pct(k / n if n else None),
                     "-" if ci is None else f"{pct(ci.low)} to {pct(ci.high)}"])
    return [Section(
        id="tictactoe-first-player",
        title="Tic-tac-toe: the first player",
        question="How often does X, who moves first, win, and how often is the game drawn?",
        reading=f"X won {pct(first / n if n else None)} of {n:,} games;"
        f" {pct(draws / n if n else None)} were drawn.",
        tables=[Table("Outcomes (Wilson 95% intervals, games taken as independent)",
                      ["outcome", "games", "share", "95% interval"], rows)],
        notes=["An example section: a real game's section also writes its findings"
               " (analysis.present.findings)."],
    )]

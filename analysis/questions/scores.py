"""Score spreads: distributions by seat, strategy and player count, and the winner's margin (a game's own
score questions live in its room, ``analysis.games.<game>``).

All functions take ``analysis.data.runs.Runs`` and return tidy polars DataFrames in which every mean
carries a 95% interval clustered on the design's blocks (``low``, ``high``; ``summarize``), ``n`` (the
rows it rests on) and ``blocks`` (the independent units).  Truncated and errored games are left out
(their scores are not final).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Runs
from analysis.stats import inference


def summarize(frame: pl.LazyFrame | pl.DataFrame, value: str | pl.Expr, by: Sequence[str]) -> pl.DataFrame:
    """Per group of ``by``: n, mean, low, high (95% interval of the mean), blocks, sd, min, p10, median,
    p90, max.

    The mean's interval knows the design: where ``frame`` has a ``block`` column
    (``analysis.data.design.design_seats``/``design_games``: a rotation block replays one deal) it is
    ``inference.cluster_mean``'s, the block-total standard error with t on blocks - 1 degrees of freedom;
    without one every row is its own block (the plain t interval, right only for independent rows).
    No interval (nan) where the values do not vary: a zero width would claim too much.  ``n`` counts the
    rows, the mean and interval the rows with a value."""
    v = pl.col(value) if isinstance(value, str) else value
    lazy = frame.lazy() if isinstance(frame, pl.DataFrame) else frame
    keys = list(by)
    out = (
        lazy.group_by(keys)
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            v.std().alias("sd"),
            v.min().alias("min"),
            v.quantile(0.1, "linear").alias("p10"),
            v.median().alias("median"),
            v.quantile(0.9, "linear").alias("p90"),
            v.max().alias("max"),
        )
        .sort(keys)
        .collect()
    )
    blocks = lazy if "block" in lazy.collect_schema().names() else lazy.with_row_index("block")
    values = blocks.select(*keys, "block", v.cast(pl.Float64).alias("_value")).filter(
        pl.col("_value").is_not_null()
    )
    means = inference.means_by(values, keys, "_value").select(*keys, "mean", "low", "high", "blocks")
    return out.join(means, on=keys, how="left", nulls_equal=True, maintain_order="left").select(
        *by, "n", "mean", "low", "high", "blocks", "sd", "min", "p10", "median", "p90", "max"
    )


def final_seats(runs: Runs) -> pl.LazyFrame:
    """Seats of games that ended normally (not truncated or errored), with their ``block``."""
    return design_seats(runs).filter(~pl.col("excluded"))


def score_distribution(runs: Runs, by: Sequence[str] = ("game", "players", "strategy")) -> pl.DataFrame:
    """Final score summarised per group (e.g. ``("game", "players", "seat")`` or ``("game", "players",
    "strategy")``)."""
    return summarize(final_seats(runs), "score", by)


def margins(runs: Runs) -> pl.DataFrame:
    """Per game (with its ``block``): the winner's score, the runner-up's and the winner's ``margin`` (0 on
    a tie)."""
    return (
        final_seats(runs)
        .group_by("run", "game_id", "block", "game", "players", "variant", "mix")
        .agg(
            pl.col("score").sort(descending=True).first().alias("winner_score"),
            pl.col("score").sort(descending=True).slice(1, 1).first().alias("runner_up_score"),
        )
        .with_columns((pl.col("winner_score") - pl.col("runner_up_score")).alias("margin"))
        .sort("run", "game_id")
        .collect()
    )


def winner_margin(runs: Runs, by: Sequence[str] = ("game", "players")) -> pl.DataFrame:
    """The winner's margin over the runner-up, summarised per group, with ``close`` = share of games won
    by at most 2 points (ties count as margin 0)."""
    frame = margins(runs)
    table = summarize(frame, "margin", by)
    close = frame.group_by(list(by)).agg((pl.col("margin") <= 2).mean().alias("close"))
    return table.join(close, on=list(by), how="left")

"""Score spreads: distributions by seat, strategy and player count, winner's margin, and for
Mainland the Mainland size, the share of points from each source, passes and clan gatherings.

All functions take ``analysis.runs.Runs`` and return tidy polars DataFrames in which every mean
carries a 95% interval clustered on the design's blocks (``low``, ``high``; ``summarize``), ``n`` (the
rows it rests on) and ``blocks`` (the independent units).  Truncated and errored games are left out
(their scores are not final).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis import inference
from analysis.runs import Runs
from sim.errors import SkaldError

#: Mainland's score sources (seat part columns) and how the report names them.  score = their sum.
MAINLAND_SOURCES: dict[str, str] = {
    "mainland_tiles": "Mainland tiles (1 point each)",
    "mainland_items": "items inside the Mainland",
    "minor_items": "items in minor territories",
}
#: Mainland play statistics (seat part columns), counted per seat over a game.
MAINLAND_STATS: dict[str, str] = {
    "passes": "passes (chosen)",
    "forced_passes": "passes (forced)",
    "gatherings": "clan gatherings",
    "replaces": "card replacements",
    "placements": "cards placed",
}


def summarize(frame: pl.LazyFrame | pl.DataFrame, value: str | pl.Expr, by: Sequence[str]) -> pl.DataFrame:
    """Per group of ``by``: n, mean, low, high (95% interval of the mean), blocks, sd, min, p10, median,
    p90, max.

    The mean's interval knows the design: where ``frame`` has a ``block`` column
    (``inference.design_seats``/``design_games``: a rotation block replays one deal) it is
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
    return inference.design_seats(runs).filter(~pl.col("excluded"))


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


def _need(runs: Runs, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if not runs.has_column("seats", c)]
    if missing:
        raise SkaldError(f"{what} needs seat columns {', '.join(missing)} (Mainland records have them)")


def mainland_size(runs: Runs, by: Sequence[str] = ("players", "strategy")) -> pl.DataFrame:
    """Mainland size (tiles in the largest territory, ``mainland_tiles``) summarised per group."""
    mainland = runs.only(game="mainland")
    _need(mainland, ["mainland_tiles"], "Mainland size")
    return summarize(final_seats(mainland), "mainland_tiles", by)


def point_sources(runs: Runs, by: Sequence[str] = ("players", "strategy")) -> pl.DataFrame:
    """Per group and source: mean points with interval and ``share`` (the source's sum / the score sum).

    The three sources (``MAINLAND_SOURCES``) add up to the score, so shares in a group sum to 1.
    """
    mainland = runs.only(game="mainland")
    _need(mainland, list(MAINLAND_SOURCES), "Point sources")
    seats = final_seats(mainland)
    tables = []
    totals = seats.group_by(list(by)).agg(pl.col("score").sum().alias("_total")).collect()
    for column, label in MAINLAND_SOURCES.items():
        part = summarize(seats, column, by)
        sums = seats.group_by(list(by)).agg(pl.col(column).sum().alias("_sum")).collect()
        part = (
            part.join(sums, on=list(by))
            .join(totals, on=list(by))
            .with_columns((pl.col("_sum") / pl.col("_total")).alias("share"))
            .drop("_sum", "_total")
            .with_columns(pl.lit(column).alias("source"), pl.lit(label).alias("label"))
        )
        tables.append(part)
    return pl.concat(tables).select(
        *by, "source", "label", "share", pl.exclude(*by, "source", "label", "share")
    )


def play_stats(runs: Runs, by: Sequence[str] = ("players", "strategy")) -> pl.DataFrame:
    """Passes (chosen and forced), clan gatherings, replacements and placements per seat and game, per
    group."""
    mainland = runs.only(game="mainland")
    _need(mainland, list(MAINLAND_STATS), "Play statistics")
    seats = final_seats(mainland)
    tables = [
        summarize(seats, column, by).with_columns(pl.lit(column).alias("stat"), pl.lit(label).alias("label"))
        for column, label in MAINLAND_STATS.items()
    ]
    return pl.concat(tables).select(*by, "stat", "label", pl.exclude(*by, "stat", "label"))

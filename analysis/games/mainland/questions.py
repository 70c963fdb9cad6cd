"""Mainland's own score questions: the Mainland size, the share of points from each source, passes and
clan gatherings (seat columns only Mainland's records have), each mean with its block-aware interval
(``analysis.questions.scores.summarize``)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis.data.runs import Runs
from analysis.questions.scores import final_seats, summarize
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

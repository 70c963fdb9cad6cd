"""What the Greenland report sections share: the score-spread names, the headline population
(the rulebook's runs), the groups that name a finding, and the bars, columns and words they draw with."""

from __future__ import annotations

import polars as pl

from analysis.games.greenland import questions as greenland
from analysis.present.blocks import mix_words, variant_column
from analysis.present.tables import Spec

SPREADS = {
    "first_minus_second": "winner minus runner-up",
    "first_minus_last": "winner minus last",
    "winning_score": "winning score",
}
#: the same measures on a chart's axis, on two lines each: three panels side by side leave each tick
#: label little room, and one-line labels ran together ("over lastwin score")
SPREAD_AXIS = {
    "first_minus_second": "over\n2nd",
    "first_minus_last": "over\nlast",
    "winning_score": "winning\nscore",
}
RULEBOOK = "the rulebook's conversion rule"
GAME = greenland.GAME
KEYS = ("players", "variant", "mix")
TRIBE_TEST = "Wald chi-square given each game's seated tribes (Rao-Scott on blocks)"


def groups_of(frame: pl.DataFrame, *extra: str) -> list[str]:
    """The groups that name a row of ``frame`` in its findings: players, variant, mix and ``extra``, and
    the run first where two runs share them."""
    keys = [k for k in (*KEYS, *extra) if k in frame.columns]
    if frame.height and bool(frame.select(keys).is_duplicated().any()):
        keys.insert(0, "run")
    return keys


def rulebook(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the runs with every switch at its default (else the rulebook's conversion rule, else
    all): the headline population of a reading."""
    if frame.is_empty():
        return frame
    for keep in (pl.col("variant") == "defaults", pl.col("conversion") == greenland.CONVERSION_TEXT):
        part = frame.filter(keep)
        if part.height:
            return part
    return frame


def variant_name(frame: pl.DataFrame) -> str:
    variants = frame["variant"].unique().to_list()
    return "" if variants == ["defaults"] else f" ({', '.join(map(str, variants))})"


def chart_tribes(frame: pl.DataFrame) -> pl.DataFrame:
    """Tribe names short enough for a chart's axis ("Sea Sámi" as "Sámi")."""
    return frame.with_columns(pl.col("tribe").str.replace("^Sea ", ""))


def bars(frame: pl.DataFrame, group: str, series: str, order: list[str] | None = None) -> pl.DataFrame:
    """Every (players, ``group``, ``series``) combination of ``frame`` (mean, low, high), the series in one
    order in every panel (``order``, else "defaults" first), so that a colour means the same series
    everywhere; a missing combination is an empty bar.  Where two rows share a bar, the series is named
    by its mix too, and where two runs share variant and mix, those runs' series by the run's label in
    front (a legend cuts long names at their end): one bar a row, whatever order the records came in."""
    frame = frame.with_columns(pl.col(series).alias("_plain"))
    if "mix" in frame.columns and _repeated(frame, group, series):
        frame = frame.with_columns((pl.col(series) + ", " + mix_words(pl.col("mix"))).alias(series))
        order = None
    if "run" in frame.columns and _repeated(frame, group, series):
        shared = pl.struct("players", group, series).is_duplicated()
        frame = frame.with_columns(
            pl.when(shared)
            .then(pl.col("run") + ": " + pl.col(series))
            .otherwise(pl.col(series))
            .alias(series)
        )
        order = None
    named = frame.select(series, "_plain").unique().rows()
    names = order or [n for n, _ in sorted(named, key=lambda r: (not r[1].startswith("defaults"), r[0]))]
    rank = {v: i for i, v in enumerate(names)}
    grid = (
        frame.select("players")
        .unique()
        .join(frame.select(group).unique(), how="cross")
        .join(pl.DataFrame({series: names}), how="cross")
    )
    out = grid.join(
        frame.select("players", group, series, "mean", "low", "high"),
        on=["players", group, series],
        how="left",
    )
    return (
        out.with_columns(pl.col(series).replace_strict(rank, return_dtype=pl.Int64).alias("_order"))
        .sort("players", "_order", group)
        .drop("_order")
        .with_columns(pl.col("mean", "low", "high").cast(pl.Float64).fill_null(float("nan")))
    )


def _repeated(frame: pl.DataFrame, group: str, series: str) -> bool:
    """Whether two rows of ``frame`` would draw the same bar (players, ``group`` and ``series``)."""
    return frame.height > 0 and bool(frame.select("players", group, series).is_duplicated().any())


def run_columns(frame: pl.DataFrame) -> list[Spec]:
    return ["players", *variant_column(frame)]


def count_words(counts: list) -> str:
    return words_list([str(c) for c in sorted(int(c) for c in counts)])


def words_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def names(rows: list[dict]) -> str:
    names = [r["tribe"] for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

"""Per-group tables of the block estimates: ``proportions_by`` (rates) and ``means_by`` (means), from
``block_totals`` (reference/analysis-methods.md section 2)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis.stats.estimates import cluster_mean, cluster_proportion

#: the columns ``proportions_by`` adds after its keys
RATE_COLUMNS: dict[str, pl.DataType] = {
    "games": pl.Int64(),
    "wins": pl.Float64(),
    "win_rate": pl.Float64(),
    "ci_low": pl.Float64(),
    "ci_high": pl.Float64(),
    "se": pl.Float64(),
    "deff": pl.Float64(),
    "n_eff": pl.Float64(),
    "blocks": pl.Int64(),
    "interval_note": pl.String(),
}


def block_totals(frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str) -> pl.DataFrame:
    """Per ``keys`` and ``block``: ``y`` (sum of ``value``), ``m`` (rows) and ``q`` (sum of squares)."""
    return (
        frame.lazy()
        .group_by([*keys, "block"])
        .agg(
            pl.col(value).cast(pl.Float64).sum().alias("y"),
            pl.len().cast(pl.Float64).alias("m"),
            (pl.col(value).cast(pl.Float64) ** 2).sum().alias("q"),
        )
        .sort([*keys, "block"])
        .collect()
    )


def proportions_by(
    frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str = "win_share"
) -> pl.DataFrame:
    """Per ``keys``: ``cluster_proportion`` of ``value`` over the rows of ``frame`` (which must carry a
    ``block`` column and hold only decided games): games (rows), wins, win_rate, ci_low, ci_high, se,
    deff, n_eff, blocks and ``interval_note`` (empty unless a rule of ``cluster_proportion`` applied)."""
    totals = block_totals(frame, keys, value)
    rows = []
    for key, group in totals.group_by(list(keys), maintain_order=True):
        est = cluster_proportion(group["y"].to_numpy(), group["m"].to_numpy())
        p = float(est.estimate)
        note = ""
        if bool(est.fallback):
            note = "all or none: n_eff = blocks" if p in (0.0, 1.0) else "no block differs: DEFF taken as 1/m"
        rows.append(
            (
                *key,
                int(est.games),
                float(group["y"].sum()),
                p,
                float(est.low),
                float(est.high),
                float(est.se),
                float(est.deff),
                float(est.n_eff),
                int(est.clusters),
                note,
            )
        )
    schema = {**{k: totals.schema[k] for k in keys}, **RATE_COLUMNS}
    return pl.DataFrame(rows, schema=schema, orient="row")



#: the columns ``means_by`` adds after its keys
MEAN_COLUMNS: dict[str, pl.DataType] = {
    "games": pl.Int64(),
    "mean": pl.Float64(),
    "low": pl.Float64(),
    "high": pl.Float64(),
    "se": pl.Float64(),
    "deff": pl.Float64(),
    "blocks": pl.Int64(),
}


def means_by(frame: pl.DataFrame | pl.LazyFrame, keys: Sequence[str], value: str) -> pl.DataFrame:
    """Per ``keys``: ``cluster_mean`` of ``value`` over the rows of ``frame`` (which must carry a
    ``block`` column): games (rows), mean, low, high (t on blocks - 1 df; nan where undefined), se,
    deff and blocks."""
    totals = block_totals(frame, keys, value)
    rows = []
    for key, group in totals.group_by(list(keys), maintain_order=True):
        est = cluster_mean(group["y"].to_numpy(), group["m"].to_numpy(), group["q"].to_numpy())
        rows.append(
            (
                *key,
                int(est.games),
                float(est.estimate),
                float(est.low),
                float(est.high),
                float(est.se),
                float(est.deff),
                int(est.clusters),
            )
        )
    return pl.DataFrame(rows, schema={**{k: totals.schema[k] for k in keys}, **MEAN_COLUMNS}, orient="row")

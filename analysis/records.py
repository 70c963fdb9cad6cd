"""Read a run's records (``OUT/<table>/part-*.parquet``) and summarise win rates with polars.

    from analysis.records import scan, strategy_win_rates
    seats = scan("results/mainland-demo", "seats").collect()
    print(strategy_win_rates("results/mainland-demo"))

Win rates are mean win shares over decided games (a k-way tie gives each winner 1/k); truncated
and errored games have no winner and are left out, as everywhere in ``analysis`` (their count is
the ``excluded`` column).  The 95% interval knows the design: Wilson's at n_eff = n / DEFF over the
run's blocks (``analysis.inference.cluster_proportion``); ``wilson`` is the plain formula.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis import inference
from sim.errors import SkaldError

TABLES: tuple[str, ...] = ("games", "seats", "turns")
Z95 = 1.959963984540054


def scan(results_dir: str | Path, table: str) -> pl.LazyFrame:
    """A lazy frame over every Parquet part of ``table`` in ``results_dir``."""
    if table not in TABLES:
        raise SkaldError(f"unknown table {table!r} (allowed: {', '.join(TABLES)})")
    folder = Path(results_dir) / table
    parts = sorted(folder.glob("*.parquet"))
    if not parts:
        raise SkaldError(
            f"no {table} records in {str(folder)!r} (expected part-*.parquet written by `skald run`)"
        )
    return pl.scan_parquet(parts)


def wilson(rate: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Lower and upper bounds of the Wilson score interval for a proportion ``rate`` of ``n``."""
    z2 = z * z
    denom = 1 + z2 / n
    centre = (rate + z2 / (2 * n)) / denom
    half = z * ((rate * (1 - rate) / n + z2 / (4 * n * n)).sqrt()) / denom
    return (centre - half).clip(0.0, 1.0), (centre + half).clip(0.0, 1.0)


def _rates(results_dir: str | Path, by: str) -> pl.DataFrame:
    """Per ``by`` value: ``inference.proportions_by`` of the win shares of decided games, and
    ``excluded`` (seat rows of truncated or errored games left out)."""
    from analysis.runs import open_runs  # analysis.runs reads its parts with ``scan``, above

    design = inference.design_seats(open_runs(results_dir))
    rates = inference.proportions_by(design.filter(~pl.col("excluded")), [by])
    excluded = design.group_by(by).agg(pl.col("excluded").sum().cast(pl.Int64)).collect()
    # a value seen only in excluded games keeps its row, with null rates
    return excluded.join(rates, on=by, how="left").select(*rates.columns, "excluded").sort(by)


def seat_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per seat: games (decided), wins (summed win share), win_rate, ci_low, ci_high, excluded
    (truncated or errored games left out), blocks, se, deff, n_eff and interval_note."""
    return _rates(results_dir, "seat")


def strategy_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per strategy spec: decided seat-games (``games``), wins, win_rate, ci_low, ci_high, excluded
    (seat-games of truncated or errored games), blocks, se, deff, n_eff and interval_note."""
    return _rates(results_dir, "strategy")

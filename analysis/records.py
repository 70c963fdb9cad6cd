"""Read a run's records (``OUT/<table>/part-*.parquet``) and summarise win rates with polars.

    from analysis.records import scan, strategy_win_rates
    seats = scan("results/mainland-demo", "seats").collect()
    print(strategy_win_rates("results/mainland-demo"))

Win rates are mean win shares (a k-way tie gives each winner 1/k; truncated games give 0)
with a 95% Wilson score interval computed by formula.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

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


def _rates(frame: pl.LazyFrame, by: str) -> pl.DataFrame:
    grouped = frame.group_by(by).agg(
        pl.len().cast(pl.Int64).alias("games"),
        pl.col("win_share").sum().alias("wins"),
        pl.col("win_share").mean().alias("win_rate"),
    )
    low, high = wilson(pl.col("win_rate"), pl.col("games").cast(pl.Float64))
    return grouped.with_columns(low.alias("ci_low"), high.alias("ci_high")).sort(by).collect()


def seat_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per seat: games, wins (summed win share), win_rate, ci_low, ci_high."""
    return _rates(scan(results_dir, "seats"), "seat")


def strategy_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per strategy spec: seat-games (``games``), wins, win_rate, ci_low, ci_high."""
    return _rates(scan(results_dir, "seats"), "strategy")

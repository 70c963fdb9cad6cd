"""Read a run's records (``OUT/<table>/part-*.parquet``) with polars.

    from analysis.data.records import scan
    seats = scan("results/mainland-demo", "seats").collect()

``wilson`` is the plain Wilson interval as polars expressions; the win rates with the interval that
knows the design are ``analysis.questions.win_rates``.
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

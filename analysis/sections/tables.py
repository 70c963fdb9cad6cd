"""The statistics tables the report sections repeat, in one place (one helper the sections share): the
cells of an estimate with its 95% interval, the columns of a win rate against equal chances and of a mean
with its interval, the strategy-mix column where a table needs it, and the shared fields of a section's
findings.

A column is ``(header, formatter of a row dict)``, as ``blocks.table`` takes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from analysis.findings import Finding, from_frame
from analysis.sections.blocks import Table, col, interval, num, pct, several, table

Column = tuple[str, Callable[[dict], str]]

INTERVAL = "95% interval"


def share_interval(low: str = "ci_low", high: str = "ci_high", header: str = INTERVAL) -> Column:
    """The interval of a share, in percent: ``[20.2, 42.1]%``."""
    return header, lambda r: interval(r[low], r[high], as_pct=True)


def mean_interval(low: str = "low", high: str = "high", header: str = INTERVAL, digits: int = 1) -> Column:
    """The interval of a mean or count: ``[40.9, 62.3]``."""
    return header, lambda r: interval(r[low], r[high], digits=digits)


def with_interval(
    value: str,
    low: str,
    high: str,
    shown: Callable[[Any], str] = lambda x: num(x, 1),
    *,
    as_pct: bool = False,
    digits: int = 1,
) -> Callable[[dict], str]:
    """One cell holding an estimate and its interval: ``51.6 [40.9, 62.3]`` (``shown`` formats the value)."""
    return lambda r: f"{shown(r[value])} " + interval(r[low], r[high], as_pct=as_pct, digits=digits)


def share_with_interval(value: str, low: str, high: str) -> Callable[[dict], str]:
    """One cell holding a share and its interval: ``30.0% [20.2, 42.1]%``."""
    return with_interval(value, low, high, pct, as_pct=True)


def mean_columns(
    mean: str = "mean",
    low: str = "low",
    high: str = "high",
    *,
    header: str = "mean",
    digits: int = 1,
    interval_header: str = INTERVAL,
) -> list[Column]:
    """A mean and its interval as two columns, both to ``digits`` places."""
    return [
        (header, col(mean, lambda x: num(x, digits))),
        mean_interval(low, high, interval_header, digits=digits),
    ]


def sample_columns(games: str = "games") -> list[Column]:
    """The sample behind a clustered estimate: decided games, blocks, and the games left out."""
    return [
        ("decided games", col(games)),
        ("blocks", col("blocks")),
        ("excluded (truncated or errored)", col("excluded")),
    ]


def win_rate_columns(wins: Callable[[dict], str] | None = None, *, expected: bool = True) -> list[Column]:
    """Wins (where ``wins`` formats them), the win rate, its interval and the even share (``expected``)."""
    return [
        *([("wins", wins)] if wins is not None else []),
        ("win rate", col("win_rate", pct)),
        share_interval(),
        *([("equal chances", col("expected", pct))] if expected else []),
    ]


def mix_column(frame: pl.DataFrame, within: Sequence[str] = ("players", "variant")) -> list[Column]:
    """The strategy-mix column, where the mix varies within some group of ``within`` (else none)."""
    return [("strategy mix", col("mix"))] if several(frame, "mix", within) else []


def bounds(estimate: str, low: str | None = None, high: str | None = None) -> dict[str, str]:
    """A finding's estimate and interval columns: ``low`` and ``high`` default to ``<estimate>_low`` and
    ``<estimate>_high``."""
    return {"estimate": estimate, "low": low or f"{estimate}_low", "high": high or f"{estimate}_high"}


#: the bounds of a win rate (``balance``'s and ``graenaland``'s rate tables)
WIN_RATE = bounds("win_rate", "ci_low", "ci_high")


def findings_for(**shared: Any) -> Callable[..., list[Finding]]:
    """``analysis.findings.from_frame`` with the fields every finding of a section shares (its section,
    game, clusters...) given once; a call may still override one."""
    return functools.partial(from_frame, **shared)


#: a column as ``stats_table`` takes it: a full ``Column``; ``"games"`` for the column ``games`` under its
#: own name; or ``("decided games", "games")`` for a column under another header, shown by ``blocks.num``
Spec = Column | str | tuple[str, str]


def column(spec: Spec) -> Column:
    """The ``Column`` a ``Spec`` names."""
    if isinstance(spec, str):
        return spec, col(spec)
    header, shown = spec
    return (header, col(shown)) if isinstance(shown, str) else (header, shown)


def stats_table(title: str, frame: pl.DataFrame, specs: Sequence[Spec]) -> Table:
    """A display table of ``frame`` (``blocks.table``), its columns given as ``Spec`` s."""
    return table(title, frame, [column(spec) for spec in specs])

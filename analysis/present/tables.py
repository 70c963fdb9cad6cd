"""The statistics tables the report sections repeat, in one place (one helper the sections share): the
cells of an estimate with its 95% interval, the columns of a win rate against equal chances and of a mean
with its interval, the strategy-mix column where a table needs it, the shared fields of a section's
findings, and the findings and words of two sides compared (``comparison_findings``, ``change_reading``).

A column is ``(header, formatter of a row dict)``, as ``blocks.table`` takes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from analysis.present import charts
from analysis.present.blocks import (
    Table,
    col,
    fairness_change_findings,
    interval,
    num,
    pct,
    several,
    table,
)
from analysis.present.decision_words import change_words
from analysis.present.findings import DIFFERENCE, FAIRNESS_CHANGE, Finding, from_frame

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
    """``analysis.present.findings.from_frame`` with the fields every finding of a section shares (its
    section, game, clusters...) given once; a call may still override one."""
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


def comparison_findings(sid: str, comp: pl.DataFrame) -> list[Finding]:
    """One finding per compared metric of ``balance.compare_variants`` (question ``DIFFERENCE``, its subject
    the measure's name): the difference (compared minus baseline) with its interval, its p and the
    Holm-adjusted p over the comparison's metrics."""
    named = comp.with_columns(
        pl.col("metric")
        .map_elements(lambda m: charts.METRIC_LABELS.get(m.split(" (")[0], m), pl.String)
        .alias("what"),
        pl.col("metric")
        .map_elements(lambda m: m.split(" (")[1].rstrip(")") if " (" in m else "difference", pl.String)
        .alias("unit"),
    )
    found = []
    for (what, unit), rows in named.group_by("what", "unit", maintain_order=True):
        found += from_frame(
            rows,
            section=sid,
            metric=f"{what} difference",
            question=DIFFERENCE,
            subject=str(what),
            groups=("players", "mix", "base", "value"),
            estimate="diff",
            low="diff_low",
            high="diff_high",
            p_value="p_value",
            p_adjusted="p_adjusted",
            test="test",
            games="games",
            clusters="blocks",
            correction="correction",
            family="family",
            unit=str(unit),
            expected=0.0,
        )
    return found


def change_reading(changes: pl.DataFrame, label: str) -> str:
    """``fairness_change.fairness_changes`` in words, one sentence per comparison: whether the positions'
    fairness changes between the two sides by more than the margin (``decision_words.change_words``);
    empty without comparisons."""
    found = fairness_change_findings("", changes, label)
    sentences = []
    for f in found:
        if f.question != FAIRNESS_CHANGE:
            continue
        where = f"{f.groups.get('value')} against {f.groups.get('base')}"
        if "players" in f.groups:
            where += f" at {f.groups['players']} players"
        text = change_words(f, label)
        sentences.append(f"{where[:1].upper()}{where[1:]}, the change in {label} fairness: {text}.")
    return " ".join(sentences) + (" " if sentences else "")

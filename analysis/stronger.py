"""Verdicts under stronger play: each game's seat (or start-position) verdict from its
scripted mirror match set beside the same test with a search strategy in every seat.

A *mirror* run plays one strategy spec in every seat; it is a *search* mirror where that strategy
declares that it searches (``Strategy.searches``), else a *scripted* one.  Both are tested the same way
(``analysis.balance.balance_tests``: the design-aware test of equal chances on the blocks, Holm-corrected
over its own family: the scripted groups, or the search groups), and ``compare`` says whether the
scripted verdict holds:

* HOLDS: both find a seat effect favouring the same position; or neither does and the search sample
  could detect gaps as small as the scripted one could (its smallest detectable gap is no larger).
* CHANGES: a seat effect appears (only the search test finds one), goes (only the scripted test finds
  one, and the search sample could detect a gap the size the scripted match showed), or moves to
  another position.
* CANNOT BE TOLD: the search test finds nothing, and its sample could not detect the gap that matters
  (the scripted gap where there is one, else gaps as small as the scripted sample could detect).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis import balance
from analysis.runs import Run, Runs

HOLDS, CHANGES, UNTOLD = "HOLDS", "CHANGES", "CANNOT BE TOLD"
OUTCOMES = (HOLDS, CHANGES, UNTOLD)
START_POSITION = "start_position"


@dataclass(frozen=True)
class Side:
    """One side of a comparison: whether its test rejects (on the adjusted p), the observed largest gap
    between two positions' win rates, the smallest gap it detects with 80% power, its best position."""

    significant: bool
    gap: float
    detectable: float
    best: str


def compare(scripted: Side, search: Side) -> tuple[str, str]:
    """The outcome (``HOLDS``, ``CHANGES`` or ``CANNOT BE TOLD``) and why, in a few words."""
    detect = search.detectable if math.isfinite(search.detectable) else math.inf
    if scripted.significant and search.significant:
        if scripted.best == search.best:
            return HOLDS, f"both favour position {search.best}"
        return CHANGES, f"the favoured position moves from {scripted.best} to {search.best}"
    if search.significant:
        return CHANGES, "a seat effect appears under stronger play"
    if scripted.significant:
        if detect <= scripted.gap:
            return CHANGES, (
                f"the seat effect goes: the search sample would detect the scripted "
                f"{_points(scripted.gap)}-point gap but finds none"
            )
        return UNTOLD, f"the search sample {_reach(detect)}, the scripted gap is {_points(scripted.gap)}"
    if detect <= scripted.detectable:
        return HOLDS, f"neither finds a seat effect; gaps above {_points(detect)} points would show"
    return UNTOLD, (
        f"neither finds a seat effect, but the search sample {_reach(detect)} (the scripted one: gaps above "
        f"{_points(scripted.detectable)})"
    )


def _points(gap: float) -> str:
    return "100" if not math.isfinite(gap) or gap >= 1 else f"{math.ceil(100 * gap - 1e-9):.0f}"


def _reach(detect: float) -> str:
    """What a sample with this smallest detectable gap can see, in words."""
    if not math.isfinite(detect) or detect >= 1:
        return "could not detect even a 100-point gap"
    return f"detects only gaps above {_points(detect)} points"


def mirror_spec(run: Run) -> str | None:
    """The one strategy spec a run plays in every seat, or None."""
    specs = set(str(s) for s in run.config.get("strategies", []))
    return specs.pop() if len(specs) == 1 else None


def searches(spec: str, game: str) -> bool:
    """Whether a spec's strategy declares that it searches (``Strategy.searches``)."""
    from strategies.registry import parse_spec

    try:
        return bool(getattr(parse_spec(spec, game).cls, "searches", False))
    except Exception:
        return False


def mirrors(runs: Runs) -> tuple[Runs, Runs]:
    """(scripted mirror runs, search mirror runs) among ``runs``."""
    scripted, search = [], []
    for run in runs:
        spec = mirror_spec(run)
        if spec is not None:
            (search if searches(spec, run.game) else scripted).append(run)
    return Runs(scripted), Runs(search)


def position_of(runs: Runs) -> str:
    """The column a seat verdict is about: ``start_position`` where the records hold it, else ``seat``."""
    return START_POSITION if runs.has_column("seats", START_POSITION) else "seat"


def side(row: dict[str, Any]) -> Side:
    """A ``balance.balance_tests`` row as one side of a comparison."""
    return Side(
        bool(row["p_adjusted"] < 0.05), float(row["max_gap"]), float(row["detectable_gap"]), str(row["best"])
    )


def comparison(runs: Runs) -> tuple[pl.DataFrame, pl.DataFrame, str]:
    """(pairs, rates, position) for one game's runs: each search mirror group (players, variant, mix)
    beside every scripted mirror group at its players and variant, with both tests (``s_`` the scripted
    side's columns, ``x_`` the search side's) and the ``outcome`` and ``why`` of ``compare``; and the
    positions' win rates of both (``balance.seat_balance``, with ``side``).  Empty frames where the runs
    lack a search or a scripted mirror."""
    scripted, search = mirrors(runs)
    if not len(scripted) or not len(search):
        return pl.DataFrame(), pl.DataFrame(), "seat"
    position = position_of(Runs([*scripted, *search]))
    tests = {
        "s": balance.balance_tests(scripted, position=position),
        "x": balance.balance_tests(search, position=position),
    }
    rows = []
    for x in tests["x"].iter_rows(named=True):
        for s in tests["s"].iter_rows(named=True):
            if (s["game"], s["players"], s["variant"]) != (x["game"], x["players"], x["variant"]):
                continue
            outcome, why = compare(side(s), side(x))
            row = {k: x[k] for k in ("game", "players", "variant")}
            row.update({f"s_{k}": v for k, v in s.items() if k not in row})
            row.update({f"x_{k}": v for k, v in x.items() if k not in row})
            rows.append({**row, "outcome": outcome, "why": why})
    rates = pl.concat(
        [
            balance.seat_balance(scripted, position=position).with_columns(pl.lit("scripted").alias("side")),
            balance.seat_balance(search, position=position).with_columns(pl.lit("search").alias("side")),
        ],
        how="diagonal_relaxed",
    )
    return pl.DataFrame(rows), rates, position

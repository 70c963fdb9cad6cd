"""Verdicts under stronger play: does each game's seat (or start-position) effect change when a search
strategy plays every seat instead of the scripted one?

A *mirror* run plays one strategy spec in every seat; it is a *search* mirror where that strategy
declares that it searches (``Strategy.searches``), else a *scripted* one.  Each search mirror group
(game, players, variant, mix) is set beside each scripted mirror group of the same game, players and
variant, and the change is decided against the report's margin δ (``analysis.questions.balance.seat_margin``)
by ``analysis.stats.decide.change_decision`` on the two sides' block matrices (each block's summed win shares
per position and its decided games, built as ``analysis.questions.balance.balance_tests`` builds them;
docs/decisions.md):

* HOLDS within δ: every position's change in win share (search minus scripted, each a deviation from its
  even share) has its (1 − 2α) interval inside ±δ: equivalence on the changes, intersection-union over
  the positions;
* CHANGES: a change is shown (Holm over the positions rejects "no change"), with whether its
  simultaneous interval lies beyond δ;
* UNDECIDED: neither; the widest half-width and about how many more games would decide it.

Which position tops either side plays no part: two positions truly tied swap places at random.  Each
side's own seat test and seat decision (``balance_tests``) are kept beside the change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from analysis.data.runs import Run, Runs
from analysis.questions import balance
from analysis.stats import decide as decisions
from analysis.stats.decide import Decision, change_decision
from sim.specs import parse_spec

HOLDS, CHANGES, UNDECIDED = "HOLDS", "CHANGES", "UNDECIDED"
OUTCOMES = (HOLDS, CHANGES, UNDECIDED)
#: the outcome of each ``change_decision`` result
OUTCOME_OF = {decisions.HOLDS: HOLDS, decisions.CHANGES: CHANGES, decisions.UNDECIDED: UNDECIDED}
START_POSITION = "start_position"
#: the columns ``change_fields`` adds to a pair of ``comparison``
CHANGE_COLUMNS = (
    "outcome",
    "decision",
    "margin",
    "decisive",
    "estimate",
    "low",
    "high",
    "p_value",
    "test",
    "correction",
    "family",
    "games",
    "blocks",
    "beyond_margin",
    "half_width",
    "games_needed",
    "why",
)


@dataclass(frozen=True)
class Blocks:
    """One side's block matrix: ``wins[b, i]`` position i's summed win shares in block b (ties split),
    ``games[b]`` the block's decided games, ``positions`` the positions in column order."""

    wins: np.ndarray
    games: np.ndarray
    positions: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    """``comparison``'s frames: ``pairs`` (one row per search group beside a scripted group: both
    sides' ``balance_tests`` columns, ``s_`` scripted and ``x_`` search, and the change decided:
    ``CHANGE_COLUMNS``), ``changes`` (per pair and position: both sides' win shares and the change with
    its intervals and p values), ``rates`` (``balance.seat_balance`` of both sides, with ``side``) and
    the ``position`` column the verdict is about."""

    pairs: pl.DataFrame
    changes: pl.DataFrame
    rates: pl.DataFrame
    position: str


def mirror_spec(run: Run) -> str | None:
    """The one strategy spec a run plays in every seat, or None."""
    specs = set(str(s) for s in run.config.get("strategies", []))
    return specs.pop() if len(specs) == 1 else None


def searches(spec: str, game: str) -> bool:
    """Whether a spec's strategy declares that it searches (``Strategy.searches``)."""
    try:
        return bool(getattr(parse_spec(spec, game).cls, "searches", False))
    except Exception:
        return False


def mirrors(runs: Runs) -> tuple[Runs, Runs]:
    """(scripted mirror runs, search mirror runs) among ``runs``."""
    scripted: list[Run] = []
    search: list[Run] = []
    for run in runs:
        spec = mirror_spec(run)
        if spec is not None:
            (search if searches(spec, run.game) else scripted).append(run)
    return Runs(scripted), Runs(search)


def position_of(runs: Runs) -> str:
    """The column a seat verdict is about: ``start_position`` where the records hold it, else ``seat``."""
    return START_POSITION if runs.has_column("seats", START_POSITION) else "seat"


def side_blocks(runs: Runs, position: str = "seat") -> dict[tuple[Any, ...], Blocks]:
    """Each group's (``balance.GROUP``: game, players, variant, mix) block matrix of decided games, as
    ``balance.balance_tests`` builds it (truncated and errored games left out, ties split)."""
    design = balance._decided_seats(runs, position).collect()
    out = {}
    for key, frame in design.group_by(list(balance.GROUP), maintain_order=True):
        if frame.height:
            wins, games, positions = balance._block_matrix(frame, position)
            out[tuple(key)] = Blocks(wins, games, tuple(str(p) for p in positions))
    return out


def change_of(scripted: Blocks, search: Blocks, margin: float | None = None) -> Decision | None:
    """The change of the seat effect from the scripted side to the search side, decided at ``margin``
    (default: the report's, ``balance.seat_margin``) by ``change_decision``; None where the two sides do
    not hold the same two or more positions, or either has no decided game."""
    if scripted.positions != search.positions or len(scripted.positions) < 2:
        return None
    if not (scripted.games > 0).any() or not (search.games > 0).any():
        return None
    return change_decision(
        scripted.wins,
        search.wins,
        balance.seat_margin() if margin is None else margin,
        labels=scripted.positions,
        games_a=scripted.games,
        games_b=search.games,
    )


def outcome_of(decision: Decision | None) -> str:
    """``HOLDS``, ``CHANGES`` or ``UNDECIDED`` (also where nothing could be decided)."""
    return UNDECIDED if decision is None else OUTCOME_OF[decision.decision]


def _points(x: float | None, sign: bool = False) -> str:
    """A share in percentage points, one decimal (``+1.2``; ``-`` for none); never ``-0.0``."""
    if x is None or not math.isfinite(x):
        return "-"
    value = round(100 * x, 1) + 0.0  # -0.0 + 0.0 is 0.0
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def why(decision: Decision | None, label: str = "position") -> str:
    """The outcome's reason in a few words, on the statistic the decision rests on."""
    if decision is None:
        return f"the two sides do not hold the same {label}s with decided games"
    m = f"{100 * decision.margin:.4g}"
    if decision.decision == decisions.HOLDS:
        return f"every {label}'s change in win share is within ±{m} points"
    name = f"{label} {decision.labels[decision.decisive]}"
    if decision.decision == decisions.CHANGES:
        beyond = {True: "beyond", False: "inside", None: "not shown beyond"}[decision.beyond_margin]
        return f"{name}'s share moves {_points(decision.estimate, sign=True)} points, {beyond} the margin"
    more = (
        f"about {decision.games_needed:,} more games would decide it"
        if decision.games_needed is not None
        else "the estimates do not say how many more games would decide it"
    )
    return f"changes known to ±{_points(decision.half_width)} points; {more}"


def change_fields(decision: Decision | None, label: str = "position") -> dict[str, Any]:
    """The change decided (``CHANGE_COLUMNS``): the outcome, the decision and its margin, the decisive
    position with its change and the interval and p of the statistic the decision rests on (the
    simultaneous interval and Holm's p for CHANGES, else the widest (1 − 2α) interval and the
    intersection-union p), the test and correction, both sides' games and blocks together, whether a
    change shown lies beyond the margin, the half-width, the games that would decide an undecided one
    and ``why`` in words."""
    if decision is None:
        return dict.fromkeys(CHANGE_COLUMNS) | {"outcome": UNDECIDED, "why": why(None, label)}
    found = decision.to_finding()
    return {
        "outcome": outcome_of(decision),
        "decision": decision.decision,
        "margin": decision.margin,
        "decisive": found["position"],
        "estimate": found["estimate"],
        "low": found["low"],
        "high": found["high"],
        "p_value": found["p_value"],
        "test": decision.test,
        "correction": found["correction"],
        "family": found["family"],
        "games": found["games"],
        "blocks": decision.blocks,
        "beyond_margin": decision.beyond_margin,
        "half_width": found["half_width"],
        "games_needed": decision.games_needed,
        "why": why(decision, label),
    }


def change_rows(decision: Decision, scripted: Blocks, search: Blocks) -> list[dict[str, Any]]:
    """One row per position: both sides' win shares (summed shares over decided games) and the change
    with its (1 − 2α) interval and TOST p (``eq_low``, ``eq_high``, ``p_equivalence``) and its
    simultaneous interval and Holm p (``low``, ``high``, ``p_adjusted``)."""
    shares = [side.wins.sum(axis=0) / side.games.sum() for side in (scripted, search)]
    return [
        {**row, "scripted_share": float(shares[0][i]), "search_share": float(shares[1][i])}
        for i, row in enumerate(decision.rows())
    ]


def comparison(runs: Runs) -> Comparison:
    """One game's comparison: each search mirror group beside every scripted mirror group at its players
    and variant, with both sides' ``balance.balance_tests`` rows (``s_`` the scripted side's columns,
    ``x_`` the search side's) and the change decided at the report's margin (``change_fields``); each
    position's change (``change_rows``); and the positions' win rates of both sides
    (``balance.seat_balance``, with ``side``).  Empty frames where the runs lack a search or a scripted
    mirror."""
    scripted, search = mirrors(runs)
    if not len(scripted) or not len(search):
        return Comparison(pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), "seat")
    position = position_of(Runs([*scripted, *search]))
    label = position.replace("_", " ")
    tests = {
        "s": balance.balance_tests(scripted, position=position),
        "x": balance.balance_tests(search, position=position),
    }
    blocks = {"s": side_blocks(scripted, position), "x": side_blocks(search, position)}
    keys = ("game", "players", "variant")
    rows, changes = [], []
    for x in tests["x"].iter_rows(named=True):
        for s in tests["s"].iter_rows(named=True):
            if tuple(s[k] for k in keys) != tuple(x[k] for k in keys):
                continue
            side_s, side_x = (
                blocks[p].get(tuple(r[k] for k in balance.GROUP)) for p, r in (("s", s), ("x", x))
            )
            decision = None if side_s is None or side_x is None else change_of(side_s, side_x)
            row = {k: x[k] for k in keys}
            row.update({f"s_{k}": v for k, v in s.items() if k not in row})
            row.update({f"x_{k}": v for k, v in x.items() if k not in row})
            rows.append({**row, **change_fields(decision, label)})
            if decision is not None and side_s is not None and side_x is not None:
                pair = {**{k: x[k] for k in keys}, "scripted": s["mix"], "search": x["mix"]}
                changes += [{**pair, **r} for r in change_rows(decision, side_s, side_x)]
    rates = pl.concat(
        [
            balance.seat_balance(scripted, position=position).with_columns(pl.lit("scripted").alias("side")),
            balance.seat_balance(search, position=position).with_columns(pl.lit("search").alias("side")),
        ],
        how="diagonal_relaxed",
    )
    return Comparison(
        pl.DataFrame(rows, infer_schema_length=None),
        pl.DataFrame(changes, infer_schema_length=None),
        rates,
        position,
    )

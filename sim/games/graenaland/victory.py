"""The five goals (graenaland.txt:223-231; three players 249) and victory point cards (283-295)."""

from __future__ import annotations

from collections.abc import Iterable

from sim.games.graenaland.data import GOALS, GraenalandData
from sim.games.graenaland.state import GraenalandState
from sim.games.graenaland.votes import settlements_on


def goal_values(state: GraenalandState, data: GraenalandData, seat: int) -> tuple[int, int, int, int, int]:
    """(settlements on the board, territories with >= 2 own settlements, settlements on the largest own
    territory, buildings counted for the Buildings goal, army strength). With the three-player
    adjustments the first building does not count for Buildings (line 249)."""
    per = [settlements_on(state, t, seat) for t in range(len(state.villages))]
    owned = sum(1 for row in state.buildings for owner in row if owner == seat)
    counted = max(0, owned - 1) if state.three else owned
    size = data.goals["territory_size"]
    return (sum(per), sum(1 for x in per if x >= size), max(per), counted, state.army[seat])


def goals_met(state: GraenalandState, data: GraenalandData, seat: int) -> tuple[bool, ...]:
    values = goal_values(state, data, seat)
    return tuple(v >= data.goals[name] for v, name in zip(values, GOALS, strict=True))


def goals_by_seat(state: GraenalandState, data: GraenalandData) -> tuple[tuple[bool, ...], ...]:
    """``goals_met`` for every seat. The records ask for them on every decision, and what they read
    (villages, buildings, army) changes only when something is built: they are remembered on the state,
    and a seat's are worked out again after ``board_changed`` names it."""
    return _memo(state, data)[1]


def goal_values_by_seat(state: GraenalandState, data: GraenalandData) -> tuple[tuple[int, ...], ...]:
    """``goal_values`` for every seat, remembered like ``goals_by_seat``."""
    return _memo(state, data)[0]


def goal_counts(state: GraenalandState, data: GraenalandData) -> tuple[int, ...]:
    """How many goals each seat meets, remembered like ``goals_by_seat``."""
    return _memo(state, data)[2]


def _memo(state: GraenalandState, data: GraenalandData) -> tuple:
    memo = state.goals_memo
    if memo is None:
        seats: Iterable[int] = range(state.n_players)
        values: list[tuple[int, ...]] = [()] * state.n_players
        met: list[tuple[bool, ...]] = [()] * state.n_players
        counts: list[int] = [0] * state.n_players
    elif state.goals_stale:
        seats = state.goals_stale
        values, met, counts = (list(x) for x in memo)
    else:
        return memo
    needed = tuple(data.goals[name] for name in GOALS)
    for p in seats:
        values[p] = goal_values(state, data, p)
        met[p] = tuple(v >= n for v, n in zip(values[p], needed, strict=True))
        counts[p] = sum(met[p])
    memo = state.goals_memo = (tuple(values), tuple(met), tuple(counts))
    state.goals_stale = frozenset()
    return memo


def can_announce(state: GraenalandState, data: GraenalandData, seat: int) -> bool:
    """At least three of five goals (line 225)."""
    return sum(goals_met(state, data, seat)) >= data.goals["needed"]


def victory_points(state: GraenalandState, data: GraenalandData, seat: int, card: int) -> int:
    """One point per level fulfilled on the seat's victory point card (line 286); 0 without a card."""
    if card < 0:
        return 0
    values = goal_values_by_seat(state, data)[seat]
    levels = data.victory_cards[card].levels
    return sum(1 for v, lv in zip(values, levels, strict=True) for x in lv if v >= x)

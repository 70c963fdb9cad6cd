"""Votes on a territory (graenaland.txt:92-98, 139, 155, 202; three players 247-248).

``tally`` works on plain sequences, so strategies can count votes from their view (and try
hypothetical hero positions) with the same code the rules use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sim.games.graenaland.state import PALISADE, PRIEST, WARRIOR, GraenalandState

Rows = tuple[tuple[int, ...], ...]


def settlements_on(state: GraenalandState, t: int, seat: int) -> int:
    """Villages and buildings of ``seat`` on ``t``: one vote each (lines 94, 139, 146, 155)."""
    return state.villages[t][seat] + state.buildings[t].count(seat)


def tally(t: int, villages: Sequence[int], buildings: Sequence[int], palisade: bool,
          heroes: Sequence[Sequence[int]], army: Sequence[int], three: bool) -> list[int]:
    """Every seat's votes on territory ``t``.

    ``villages[p]`` are p's villages on t, ``buildings`` the owners of t's buildings,
    ``heroes[p]`` p's hero positions (warrior, priest, skald; -1 when not in play).
    Warrior: army strength (line 95); a priest on ``t`` cancels all warriors there (line 96);
    a skald: one per other hero there (line 97); heroes count without settlements (line 98);
    a palisade takes one vote from the warrior of a seat without a settlement there (line 202).
    Three-player adjustments (lines 247-248): every hero one more vote, a priest gives one vote
    and cuts each warrior to one, the palisade takes one from every hero of a seat without a
    settlement there.
    """
    here = [(p, h) for p, mine in enumerate(heroes) if t in mine for h, pos in enumerate(mine) if pos == t]
    return _count(villages, buildings, palisade, here, army, three)


def _count(villages: Sequence[int], buildings: Sequence[int], palisade: bool, here: Sequence[tuple[int, int]],
           army: Sequence[int], three: bool) -> list[int]:
    """``tally`` with the heroes on the territory given as (seat, hero) pairs, in seat and hero order."""
    settled = list(villages)
    for owner in buildings:
        if owner >= 0:
            settled[owner] += 1
    out = list(settled)
    if not here:
        return out
    priest = any(h == PRIEST for _, h in here)
    for p, h in here:
        if h == WARRIOR:
            if three:
                v = 1 if priest else army[p] + 1
            else:
                v = 0 if priest else army[p]
        elif h == PRIEST:
            v = 1 if three else 0
        else:
            v = (1 if three else 0) + len(here) - 1
        if palisade and settled[p] == 0 and (three or h == WARRIOR):
            v = max(0, v - 1)
        out[p] += v
    return out


def votes_on(state: GraenalandState, t: int) -> list[int]:
    """Every seat's votes on territory ``t`` now."""
    return tally(t, state.villages[t], state.buildings[t], state.public[t][PALISADE], state.heroes,
                 state.army,
                 state.three)


def votes_by_territory(state: GraenalandState) -> Rows:
    """``votes_on`` for every territory (``votes_from``)."""
    return votes_from(state.three, tuple(map(tuple, state.villages)), tuple(map(tuple, state.buildings)),
                      tuple(row[PALISADE] for row in state.public), tuple(map(tuple, state.heroes)),
                      tuple(state.army))


@lru_cache(maxsize=4096)
def votes_from(three: bool, villages: Rows, buildings: Rows, palisades: tuple[bool, ...], heroes: Rows,
               army: tuple[int, ...]) -> Rows:
    """``tally`` for every territory, remembered by all that it reads (settlements, palisades, heroes,
    armies and the three-player adjustments: they change only with hero moves and builds)."""
    at: dict[int, list[tuple[int, int]]] = {}  # territory -> the (seat, hero) pairs standing there
    for p, mine in enumerate(heroes):
        for h, pos in enumerate(mine):
            if pos >= 0:
                at.setdefault(pos, []).append((p, h))
    return tuple(tuple(_count(villages[t], buildings[t], palisades[t], at.get(t, ()), army, three))
                 for t in range(len(villages)))

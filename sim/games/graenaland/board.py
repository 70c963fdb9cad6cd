"""The island for n players: territories, adjacency and the compass directions of hero moves.

Territories are numbered coast row first, west to east (0..n-1), then the inland row
(n..2n-2); inland piece j lies between coastal pieces j and j+1 (a pyramid, graenaland.txt:29,
reference 1.2). North is inland.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sim.games.graenaland.data import MOUNTAINS, GraenalandData

#: compass directions on the compass tile (graenaland.txt:75-76); WW/EE = two pieces along the coast
DIRECTIONS = ("W", "E", "WW", "EE", "NW", "NE", "SW", "SE")
W, E, WW, EE, NW, NE, SW, SE = range(8)


@dataclass(frozen=True)
class Board:
    """Static facts of one layout (never changes during a game)."""

    n_players: int
    pieces: tuple[str, ...]  # piece id per territory
    terrain: tuple[int, ...]
    coastal: tuple[bool, ...]
    yield_resource: tuple[int, ...]
    village_cost: tuple[tuple[int, int, int, int], ...]
    adjacent: tuple[frozenset[int], ...]
    #: moves[t][d] = destination of direction d from t, or -1 where the move is invalid (line 78)
    moves: tuple[tuple[int, ...], ...]
    start: tuple[tuple[int, int], ...]  # per settling order: (warrior + settlement, second settlement)

    @property
    def n(self) -> int:
        return len(self.pieces)

    def allows_buildings(self, t: int) -> bool:
        """graenaland.txt:153 'Buildings cannot be built in the mountains.'"""
        return self.terrain[t] != MOUNTAINS


def _moves(n_players: int) -> tuple[tuple[int, ...], ...]:
    """Adjacent pieces in any direction; two along the coast only from the coast (lines 76, 78)."""
    c = n_players
    inland = c - 1

    def coast(k: int) -> int:
        return k if 0 <= k < c else -1

    def land(j: int) -> int:
        return c + j if 0 <= j < inland else -1

    table = []
    for t in range(c + inland):
        row = [-1] * len(DIRECTIONS)
        if t < c:
            k = t
            row[W], row[E], row[WW], row[EE] = coast(k - 1), coast(k + 1), coast(k - 2), coast(k + 2)
            row[NW], row[NE] = land(k - 1), land(k)
        else:
            j = t - c
            row[W], row[E] = land(j - 1), land(j + 1)
            row[SW], row[SE] = coast(j), coast(j + 1)
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=16)
def build_board(data: GraenalandData, n_players: int) -> Board:
    """The layout for ``n_players`` from the data file (graenaland.txt:29-32, 47-48)."""
    coast, inland, start = data.layouts[n_players]
    ids = coast + inland
    pieces = [data.pieces[i] for i in ids]
    moves = _moves(n_players)
    adjacent = []
    for t in range(len(ids)):
        one_step = {moves[t][d] for d in (W, E, NW, NE, SW, SE)} - {-1}
        adjacent.append(frozenset(one_step))
    return Board(
        n_players=n_players,
        pieces=ids,
        terrain=tuple(p.terrain for p in pieces),
        coastal=tuple(p.coastal for p in pieces),
        yield_resource=tuple(p.yield_resource for p in pieces),
        village_cost=tuple(p.village_cost for p in pieces),
        adjacent=tuple(adjacent),
        moves=moves,
        start=tuple((ids.index(a), ids.index(b)) for a, b in start),
    )

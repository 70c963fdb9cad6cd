"""What one Mainland seat may see: the board and public counts, its own hand; no deck order.

Line 77: "You can look at the cards you have in hand, but you must not look at your
opponent's cards." Line 79: "At no time is it permitted to look at the cards in your deck."
Discard piles are face up (ruling R9), so they are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from sim.games.mainland.data import MainlandData
from sim.games.mainland.state import MainlandState


def _frozen(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class MainlandView(NamedTuple):
    """A read-only snapshot for one seat (a NamedTuple: cheap to build on every decision)."""

    seat: int
    n_players: int
    phase: int  # state.CAMP / START / PLACE
    round: int
    items: np.ndarray  # read-only board
    owner: np.ndarray  # read-only board colours
    counts: np.ndarray  # read-only visible items per seat
    scores: np.ndarray  # read-only (n_players, 4): total, mainland tiles, mainland items, minor items
    hand: tuple[int, ...]  # own card ids
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    tokens: tuple[int, ...]
    rules: Mapping[str, Any]  # read-only
    data: MainlandData  # printed/reconstructed components: public knowledge


def view_of(state: MainlandState, data: MainlandData, seat: int) -> MainlandView:
    public = state.public_arrays
    if public is None or public[0].base is not state.items:
        public = state.public_arrays = (_frozen(state.items), _frozen(state.owner), _frozen(state.counts))
    scores = state.scores
    scores.flags.writeable = False  # a fresh array after every placement; nobody writes to it
    return MainlandView(
        seat=seat,
        n_players=state.n_players,
        phase=state.phase,
        round=state.round,
        items=public[0],
        owner=public[1],
        counts=public[2],
        scores=scores,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(map(len, state.hands)),
        deck_sizes=tuple(map(len, state.decks)),
        discards=tuple(map(tuple, state.discards)),
        tokens=tuple(state.tokens),
        rules=state.public_rules,
        data=data,
    )

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
    """The view of ``seat``: fields in ``MainlandView`` order, built positionally (this runs on
    every decision, and keyword construction of a NamedTuple costs twice as much)."""
    public = state.public_arrays
    if public is None or public[0].base is not state.items:
        public = state.public_arrays = (_frozen(state.items), _frozen(state.owner), _frozen(state.counts))
    return _new_view(
        MainlandView,
        (
            seat,
            state.n_players,
            state.phase,
            state.round,
            public[0],
            public[1],
            public[2],
            state.scores,  # read-only (rules.set_scores)
            tuple(state.hands[seat]),
            tuple(map(len, state.hands)),
            tuple(map(len, state.decks)),
            tuple(map(tuple, state.discards)),
            tuple(state.tokens),
            state.public_rules,
            data,
        ),
    )


_new_view = tuple.__new__

"""Seeded random Greenland games for the tests that need states all through them (picture, determinize).

Rulebook lines are greenland-third-edition.txt's: the trade-ship auction (line 22), set-up (line 13), the
Sun Stone (line 54) and a bribe awaiting its answer (line 59) are the rarer moments these tests keep more of.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from sim.games import get_game
from sim.games.greenland.state import BID, SETUP, SUNSTONE, GreenlandState

GAME: Any = get_game("greenland")
#: a rule set: (rules, seeds, whether the auction is always bid high)
RuleSet = tuple[dict[str, Any], Any, bool]


def choices(state: GreenlandState, rng: np.random.Generator, bid_high: bool = False) -> dict[int, Any]:
    """A random option for every seat to move, or in the auction the highest bid when ``bid_high``."""
    out = {}
    for seat in GAME.to_move(state):
        options = GAME.legal_options(state, seat)
        high = bid_high and state.phase == BID
        out[seat] = options[-1] if high else options[int(rng.integers(len(options)))]
    return out


def seeded_games(
    rule_sets: tuple[RuleSet, ...],
) -> Iterator[tuple[GreenlandState, np.random.Generator, bool]]:
    """A new game, its generator and its ``bid_high`` for 2, 3 and 4 players, each rule set and seed."""
    data = GAME.load_data(None)
    for n in (2, 3, 4):
        for r, (rules, seeds, bid_high) in enumerate(rule_sets):
            for seed in seeds:
                state = GAME.new_state(n, rules, data, 100 * n + 10 * r + seed if not bid_high else seed)
                yield state, np.random.default_rng(seed), bid_high


def rare(state: GreenlandState) -> bool:
    """Set-up, the auction, the Sun Stone, or a bribe pending (lines 13, 22, 54, 59)."""
    return state.phase in (SETUP, BID, SUNSTONE) or state.bribe >= 0

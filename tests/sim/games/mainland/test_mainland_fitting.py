"""The placement enumeration (``sim.games.mainland.fitting``, every window tested for every layout at once)
lists exactly the placements that ``kernels.check_placement`` accepts, in the order the records depend on.

Rules checked by ``check_placement`` (../shared/rules/mainland.txt): board limits (line 57), camps on empty
space only (67-69), rule 1 overlap (99), rule 2 empty space (100), castles exempt from rule 2 (129; ruling R4
switch), rule 3 overlay table (163-175), requirements (115-123, 243-249; ruling R3b switch).  The order:
by hand card, rotation (distinct ones), then the partly covered windows row-major, then the castle-only
windows (fully covered, or empty when castles need no overlap) row-major; for camps the empty windows.
States: every decision of seeded random playouts, under all four combinations of the two rule switches.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.mainland import kernels, rules
from sim.games.mainland.game import GAME
from sim.games.mainland.state import CAMP, PLACE, START

DATA = GAME.load_data(None)


def reference(items, owner, counts, seat, cards, castle_needs_overlap, camp, card_meets_own) -> list[tuple]:
    """Legal placements from ``check_placement`` over every window, in the documented order."""
    rows, cols = items.shape
    out = []
    for h, card in enumerate(cards.tolist()):
        castle = bool(DATA.is_castle_card[card])
        for rot in range(4):
            if not DATA.unique_rotation[card, rot]:
                continue
            partial, castle_only = [], []
            for r in range(rows - 1):
                for c in range(cols - 1):
                    why = kernels.check_placement(items, owner, counts, seat, DATA.rotations[card, rot],
                                                  castle, r, c, rules.ALLOWED, rules.REQ_PAIRS,
                                                  castle_needs_overlap, camp, card_meets_own)
                    if why == kernels.OK:
                        occupied = int((items[r:r + 2, c:c + 2] != 0).sum())
                        (partial if camp or 0 < occupied < 4 else castle_only).append((h, rot, r, c))
            out += partial + castle_only
    return out


def decisions(n_players: int, seed: int, switches: dict):
    """(state, seat to move, its options) at every decision of a seeded random game."""
    state = GAME.new_state(n_players, switches, DATA, seed)
    pick = np.random.default_rng(seed)
    while not GAME.is_terminal(state):
        seat = GAME.to_move(state)[0]
        options = GAME.legal_options(state, seat)
        yield state, seat, options
        GAME.apply(state, {seat: options[int(pick.integers(len(options)))]})


@pytest.mark.parametrize("castle_needs_overlap", [True, False])
@pytest.mark.parametrize("card_meets_own", [False, True])
def test_placements_are_the_checked_ones_in_order(castle_needs_overlap: bool, card_meets_own: bool) -> None:
    """Lines 57-69, 99-100, 115-129, 163-175, 243-249: every decision of a 3- and a 4-player game."""
    switches = {"castle_needs_overlap": castle_needs_overlap, "card_meets_own_requirements": card_meets_own}
    checked = dead = 0
    for n_players, seed in ((3, 7), (4, 8)):
        for k, (state, seat, _) in enumerate(decisions(n_players, seed, switches)):
            if state.phase not in (CAMP, START, PLACE) or k % 3:
                continue
            camp = state.phase == CAMP
            cards = np.array([DATA.camp_card] if camp else state.hands[seat], dtype=np.int64)
            args = (state.items, state.owner, state.counts, seat, cards, DATA.rotations,
                    DATA.unique_rotation, DATA.is_castle_card, rules.COVER, rules.REQ_PAIRS,
                    castle_needs_overlap, camp, card_meets_own)
            want = reference(*args[:5], castle_needs_overlap, camp, card_meets_own)
            got = kernels.legal_placements(*args)
            assert [tuple(row) for row in got.tolist()] == want
            playable = np.zeros(len(cards), dtype=bool)
            playable[[h for h, *_ in want]] = True
            assert np.array_equal(kernels.playable_cards(*args), playable)
            checked += 1
            dead += not playable.all()
    assert checked > 60 and dead > 3


def test_more_than_sixteen_cards_take_several_passes() -> None:
    """The layouts go 16 cards at a time (64 bits): a hand of 40 cards lists as the reference does."""
    state = next(s for i, (s, _, _) in enumerate(decisions(4, 3, {})) if i == 60)
    cards = np.random.default_rng(1).integers(0, len(DATA.rotations), 40)
    seat = state.current
    args = (state.items, state.owner, state.counts, seat, cards, DATA.rotations, DATA.unique_rotation,
            DATA.is_castle_card, rules.COVER, rules.REQ_PAIRS, True, False, False)
    want = reference(*args[:5], True, False, False)
    assert len(want) > 100
    assert [tuple(row) for row in kernels.legal_placements(*args).tolist()] == want

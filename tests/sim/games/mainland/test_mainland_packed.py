"""The packed compiled calls (``sim.games.mainland.packed``) and greedy's compiled choice
(``lookahead.greedy_candidates``) give what the unpacked kernels and the Python selection give.

Rules served (../shared/rules/mainland.txt): the placement options (lines 57-69, 99-100, 115-129, 137,
163-175, 243-249; rulings R3b and R4 switches), the checked placement and rescoring (lines 197-227), and
greedy's choice (the best own gain, then the opponents lowest: ``strategies.mainland``).
States: decisions of seeded random playouts under all four combinations of the two rule switches.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.mainland import kernels, packed, rules
from sim.games.mainland.evaluate import best_gains, evaluate
from sim.games.mainland.game import GAME
from sim.games.mainland.lookahead import ties
from sim.games.mainland.state import CAMP, PASS, PLACE, PLACE_CAMP, PLACE_CARD
from tests.sim.games.mainland.test_mainland_fitting import decisions

DATA = GAME.load_data(None)
SWITCHES = [{"castle_needs_overlap": a, "card_meets_own_requirements": b} for a in (True, False)
            for b in (False, True)]


def test_unpack_gives_the_data_back() -> None:
    """The packed array holds the data's own values, in their shapes."""
    spec = packed.spec(DATA, rules.COVER, rules.REQ_PAIRS, rules.ALLOWED, SWITCHES[1])
    rotations, unique, castle, cover, req_pairs, allowed, points, needs_overlap, own = packed.unpack(spec)
    assert np.array_equal(rotations, DATA.rotations) and rotations.shape == DATA.rotations.shape
    assert np.array_equal(unique, DATA.unique_rotation) and np.array_equal(castle, DATA.is_castle_card)
    assert np.array_equal(cover.view(np.uint64), rules.COVER) and np.array_equal(req_pairs, rules.REQ_PAIRS)
    assert np.array_equal(allowed, rules.ALLOWED) and np.array_equal(points, DATA.points)
    assert needs_overlap and own
    assert not spec.flags.writeable


@pytest.mark.parametrize("switches", SWITCHES)
def test_packed_calls_match_the_kernels(switches: dict) -> None:
    """Options as ``kernels.placement_options`` lists them; a placement as ``kernels.checked_place`` lays
    and scores it, an illegal one refused with the same reason."""
    needs, own = switches["castle_needs_overlap"], switches["card_meets_own_requirements"]
    spec = packed.spec(DATA, rules.COVER, rules.REQ_PAIRS, rules.ALLOWED, switches)
    checked = refused = 0
    for k, (state, seat, options) in enumerate(decisions(4, 11, switches)):
        if state.phase not in (CAMP, PLACE):
            continue
        camp = state.phase == CAMP
        cards = np.array([DATA.camp_card] if camp else state.hands[seat], dtype=np.int64)
        kind = PLACE_CAMP if camp else PLACE_CARD
        want = kernels.placement_options(state.items, state.owner, state.counts, seat, cards, DATA.rotations,
                                         DATA.unique_rotation, DATA.is_castle_card, rules.COVER,
                                         rules.REQ_PAIRS, needs, camp, own, kind, -1 if camp else PASS)
        got = packed.options_rows(state.items, state.owner, state.counts, seat, cards, spec, camp)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        tried = [(int(cards[0]), 0, 3, 4), (int(cards[0]), 1, 0, 0), (int(cards[-1]), 2, 5, 5)]
        tried += [(int(cards[h]), rot, r, c) for _, h, rot, r, c in want[:2].tolist() if _ == kind]
        for card, rot, r, c in tried:
            if not DATA.unique_rotation[card, rot]:
                assert packed.place_checked(state.items.copy(), state.owner.copy(), state.counts.copy(),
                                            seat, card, rot, r, c, spec, camp)[0] == packed.BAD_ROTATION
                continue
            boards = [(state.items.copy(), state.owner.copy(), state.counts.copy()) for _ in range(2)]
            why, scores = kernels.checked_place(*boards[0], seat, DATA.rotations[card, rot],
                                                DATA.is_castle_card[card], r, c, rules.ALLOWED,
                                                rules.REQ_PAIRS, needs, camp, own, 4, DATA.points)
            why2, scores2 = packed.place_checked(*boards[1], seat, card, rot, r, c, spec, camp)
            assert why == why2 and np.array_equal(scores, scores2)
            assert all(np.array_equal(a, b) for a, b in zip(*boards))
            checked += 1
            refused += why != 0
    assert checked > 150 and 0 < refused < checked - 50


@pytest.mark.parametrize("switches", SWITCHES[:2])
def test_greedy_candidates_are_the_ties_of_the_gains(switches: dict) -> None:
    """``best_gains`` lists the rows that ``ties`` picks from ``evaluate``'s own gains, in order."""
    compared = several = 0
    for state, seat, options in decisions(4, 5, switches):
        if state.phase not in (CAMP, PLACE):
            continue
        view = GAME.view(state, seat)
        ev = evaluate(view, options)
        want = [] if len(ev.rows) == 0 else ev.rows[ties(ev.gain[:, seat], ev.scores_after, seat)].tolist()
        assert best_gains(view, options) == want
        compared += 1
        several += len(want) > 1
    assert compared > 50 and several > 3

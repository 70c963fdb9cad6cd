"""Mainland's faster look-ahead gives exactly what it gave before, over states of seeded games:

* ``evaluate_placements`` scores again only the mover and the seats whose tiles the card covers
  (line 197: a territory is 'orthogonally connected tiles of one colour', so another seat's territories
  stay as they were); the reference below lays every option and scores the whole board;
* ``playable_cards`` stops at each card's first legal placement; the reference is the set of cards in
  ``hand_placements``;
* scores are whole numbers, so the strategies' sums over seats give the same floats in any order.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.mainland import kernels
from sim.games.mainland.evaluate import hand_placements, playable_cards
from sim.games.mainland.game import GAME
from sim.games.mainland.state import CAMP, PLACE, PLACE_CAMP, PLACE_CARD, START

pytestmark = pytest.mark.slow


def old_scores_after(view, options: np.ndarray) -> np.ndarray:
    """Every seat's total after each placement row of ``options``: laid on a copy, whole board scored."""
    rows = np.flatnonzero((options[:, 0] == PLACE_CARD) | (options[:, 0] == PLACE_CAMP))
    cards = [view.data.camp_card] if view.phase == CAMP else list(view.hand)
    out = np.empty((len(rows), view.n_players))
    for i, row in enumerate(rows):
        _, index, rot, r, c = options[row].tolist()
        items, owner = view.items.copy(), view.owner.copy()
        layout = view.data.rotations[cards[index], rot]
        for j in range(4):
            items[r + j // 2, c + j % 2] = layout[j]
            owner[r + j // 2, c + j % 2] = view.seat
        out[i] = kernels.score_board(items, owner, view.n_players, view.data.points)[:, 0]
    return out


def states(players: int, seed: int):
    """(view, options) at every decision point of a seeded game with random choices."""
    data = GAME.load_data(None)
    state = GAME.new_state(players, {}, data, seed)
    pick = np.random.default_rng(seed)
    while not GAME.is_terminal(state):
        seat = GAME.to_move(state)[0]
        options = GAME.legal_options(state, seat)
        yield GAME.view(state, seat), options
        GAME.apply(state, {seat: options[int(pick.integers(len(options)))]})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scores_after_each_placement_equal_the_whole_board_rescored(players: int) -> None:
    """Line 197 'Territories are orthogonally connected tiles of one colour': every placement of 6 games."""
    checked = 0
    for seed in range(6):
        for view, options in states(players, seed):
            if view.phase not in (CAMP, PLACE) or len(options) < 2:
                continue
            rows = np.flatnonzero((options[:, 0] == PLACE_CARD) | (options[:, 0] == PLACE_CAMP))
            cards = np.array([view.data.camp_card] if view.phase == CAMP else view.hand, dtype=np.int64)
            after, *_ = kernels.evaluate_placements(
                view.items.copy(), view.owner.copy(), view.n_players, view.seat, cards, view.data.rotations,
                options[rows, 1:5].astype(np.int64), view.data.points,
            )
            assert np.array_equal(after, old_scores_after(view, options))
            assert np.array_equal(after, np.round(after))  # whole numbers: strategies sum them in any order
            checked += len(rows)
    assert checked > 5000


@pytest.mark.parametrize("players", [2, 4])
def test_playable_cards_are_the_cards_with_a_legal_placement(players: int) -> None:
    """Line 89 (step 1: a card that cannot be placed may be replaced): at every turn start of 8 games."""
    starts = some_dead = 0
    for seed in range(8):
        for view, _ in states(players, seed):
            if view.phase != START:
                continue
            old = np.zeros(len(view.hand), dtype=bool)
            old[np.unique(hand_placements(view)[:, 0])] = True
            new = playable_cards(view)
            assert new.dtype == bool and np.array_equal(new, old)
            starts += 1
            some_dead += not old.all()
    assert starts > 200 and some_dead > 10

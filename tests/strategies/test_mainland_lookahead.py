"""The incremental look-ahead (``sim.games.mainland.lookahead``) equals laying the card and scoring the whole
board again, for every option of many states.

The scoring rules it must keep (../shared/rules/mainland.txt): territories are "orthogonally connected
tiles of one colour" (line 197); the Mainland is the largest, ties to the higher value (lines 199-201,
ruling R12 for the last tie); Mainland items score the first column plus 1 per tile (205-217), other
territories the second column (219-227).  The reference is ``kernels.score_board`` on a copy of the board
with the card laid (an independent flood of every seat).  States come from seeded random playouts and from
random boards (dense boards of few colours, where covered territories fall apart most often); options are
every window of the board with random cards and rotations, legal or not (scoring does not ask).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.mainland import kernels, lookahead
from sim.games.mainland.game import GAME
from sim.games.mainland.state import CAMP, PLACE, PLACE_CAMP, PLACE_CARD

DATA = GAME.load_data(None)


def rescored(items, owner, n_players, seat, cards, places) -> np.ndarray:
    """Every seat's total after each ``(hand_index, rotation, row, col)``: laid on a copy, all scored."""
    out = np.empty((len(places), n_players))
    for i, (index, rot, r, c) in enumerate(places.tolist()):
        board, colours = items.copy(), owner.copy()
        board[r:r + 2, c:c + 2] = DATA.rotations[cards[index], rot].reshape(2, 2)
        colours[r:r + 2, c:c + 2] = seat
        out[i] = kernels.score_board(board, colours, n_players, DATA.points)[:, 0]
    return out


def covered_and_placed(items, owner, seat, cards, places):
    """The items each option covers (the mover's, the others') and lays, counted in plain Python."""
    own, other, laid = (np.zeros((len(places), len(DATA.points)), dtype=np.int64) for _ in range(3))
    for i, (index, rot, r, c) in enumerate(places.tolist()):
        for j, item in enumerate(DATA.rotations[cards[index], rot].tolist()):
            under = int(items[r + j // 2, c + j % 2])
            if under:
                (own if owner[r + j // 2, c + j % 2] == seat else other)[i, under] += 1
            laid[i, item] += 1
    return own, other, laid


def random_board(rng, rows, cols, n_players, fill, colours):
    """A board with about ``fill`` of its tiles covered by items of the data's cards, in ``colours`` of the
    seats (few colours make large territories that a card can cut)."""
    items = np.zeros((rows, cols), dtype=np.int8)
    owner = np.full((rows, cols), -1, dtype=np.int8)
    taken = rng.random((rows, cols)) < fill
    items[taken] = rng.choice(DATA.rotations.reshape(-1), size=int(taken.sum()))
    owner[taken] = rng.choice(colours, size=int(taken.sum()))
    return items, owner


def random_places(rng, rows, cols, n_cards, count):
    columns = [rng.integers(0, n_cards, count), rng.integers(0, 4, count), rng.integers(0, rows - 1, count),
               rng.integers(0, cols - 1, count)]
    return np.stack(columns, axis=1).astype(np.int64)


def check(items, owner, n_players, seat, cards, places) -> None:
    after, own, other, laid = kernels.evaluate_placements(items, owner, n_players, seat, cards,
                                                          DATA.rotations, places, DATA.points)
    assert np.array_equal(after, rescored(items, owner, n_players, seat, cards, places))
    for got, want in zip((own, other, laid), covered_and_placed(items, owner, seat, cards, places)):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(8))
def test_random_boards_every_window(seed: int) -> None:
    """Lines 197-227 on 40 random boards a seed: every window with a random card, all seats rescored."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n_players = int(rng.integers(2, 5))
        rows, cols = DATA.board[n_players]
        colours = rng.choice(n_players, size=int(rng.integers(1, n_players + 1)), replace=False)
        items, owner = random_board(rng, rows, cols, n_players, rng.uniform(0.2, 0.95), colours)
        cards = rng.integers(0, len(DATA.rotations), 5)
        windows = np.array([(r, c) for r in range(rows - 1) for c in range(cols - 1)])
        places = np.concatenate([random_places(rng, rows, cols, 5, len(windows))[:, :2], windows], axis=1)
        check(items, owner, n_players, int(rng.integers(n_players)), cards, places)


def playout_states(n_players: int, seed: int):
    """(view, options) at every placement decision of a seeded random game."""
    state = GAME.new_state(n_players, {}, DATA, seed)
    pick = np.random.default_rng(seed)
    while not GAME.is_terminal(state):
        seat = GAME.to_move(state)[0]
        options = GAME.legal_options(state, seat)
        if state.phase in (CAMP, PLACE):
            yield GAME.view(state, seat), options
        GAME.apply(state, {seat: options[int(pick.integers(len(options)))]})


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_playouts_legal_and_random_options(n_players: int) -> None:
    """Lines 197-227 at every placement decision of 3 random games: the legal options as the one-ply
    strategies see them (``evaluate_options`` on option rows, camp rows included), and random windows."""
    rng = np.random.default_rng(n_players)
    checked = 0
    for seed in range(3):
        for view, options in playout_states(n_players, 100 + seed):
            cards = np.array([DATA.camp_card] if view.phase == CAMP else view.hand, dtype=np.int64)
            rows, after, own, other, laid = lookahead.evaluate_options(
                view.items, view.owner, n_players, view.seat, cards, DATA.rotations, options, DATA.points,
                PLACE_CARD, PLACE_CAMP)
            places = options[rows, 1:5].astype(np.int64)
            assert np.array_equal(rows, np.flatnonzero(np.isin(options[:, 0], (PLACE_CARD, PLACE_CAMP))))
            want = rescored(view.items, view.owner, n_players, view.seat, cards, places)
            assert np.array_equal(after, want)
            want = covered_and_placed(view.items, view.owner, view.seat, cards, places)
            assert all(np.array_equal(a, b) for a, b in zip((own, other, laid), want))
            check(view.items, view.owner, n_players, view.seat, cards,
                  random_places(rng, *view.items.shape, len(cards), 20))
            checked += len(rows)
    assert checked > 2000


def test_ties_are_the_best_value_then_the_lowest_opponents() -> None:
    """``ties`` gives what the one-ply strategies' numpy selection gave (their tie rule)."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        m, n = int(rng.integers(1, 30)), int(rng.integers(2, 5))
        after = rng.integers(0, 6, (m, n)).astype(np.float64)
        value = rng.integers(-2, 3, m).astype(np.float64)
        seat = int(rng.integers(n))
        others = after.sum(axis=1) - after[:, seat]
        best = np.flatnonzero(value >= value.max() - 1e-9)
        best = best[others[best] <= others[best].min() + 1e-9]
        assert np.array_equal(lookahead.ties(value, after, seat), best)

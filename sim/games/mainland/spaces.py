"""Mainland's fixed action and observation encodings for reinforcement learning (``sim.rl.codec``).

Actions (``Discrete(ACTIONS)``, factored: every legal option has its own number, the same in every state):

- 0 keep, 1..5 replace hand card 0..4 (mainland.txt:91), 6 gather (line 143), 7 pass (line 135);
- 8 + rot*R*C + row*C + col: place the camp card (line 67), ``R`` x ``C`` the largest board
  (14 x 14, 4 players; smaller boards use its top-left corner);
- 8 + 4*R*C + hand*4*R*C + rot*R*C + row*C + col: place hand card ``hand`` (0..4) with ``rot`` quarter turns
  with its top-left tile at (row, col).

ACTIONS = 8 + 4*R*C + 5*4*R*C = 4712 for the packaged data (a data file with a larger board or hand is
refused with a ``SkaldError`` naming the limit).  The largest option list seen over 5 random games
per player count (not yet measured over hundreds): 324 (2 players), 484 (3), 676 (4).

Observation (float32, ``SHAPE``), from the seat's ``MainlandView`` only; seats beyond the player count -1:
"""

from __future__ import annotations

import numpy as np

from sim.errors import SkaldError
from sim.games.mainland.game import GAME
from sim.games.mainland.state import GATHER, KEEP, PASS, PLACE_CAMP, PLACE_CARD, REPLACE
from sim.games.mainland.view import MainlandView
from sim.rl.codec import Layout, Part, counts, distinct, padded, seat_onehot

_DATA = GAME.load_data(None)
ROWS = max(rows for rows, _ in _DATA.board.values())
COLS = max(cols for _, cols in _DATA.board.values())
HAND = _DATA.hand_size
CARDS = len(_DATA.card_ids)
ITEMS = _DATA.points.shape[0]
P = GAME.max_players
_CELLS = ROWS * COLS
_CAMP = 8
_PLACE = _CAMP + 4 * _CELLS
ACTIONS = _PLACE + HAND * 4 * _CELLS

LAYOUT = Layout("mainland", [
    Part("seat", P, "1 at the observing seat"),
    Part("header", 3, "player count, phase (0 camp, 1 start of turn, 2 placing), round"),
    Part("items", _CELLS, "board item per tile, row-major (0 empty; -1 off a smaller board)"),
    Part("owner", _CELLS, "board owner per tile, row-major (-1 nobody or off the board)"),
    Part("counts", P * ITEMS, "visible items per seat and item kind"),
    Part("scores", P * 4, "per seat: total, mainland tiles, mainland items, minor items"),
    Part("hand", HAND, "own card ids in hand order (-1 empty)"),
    Part("sizes", 3 * P, "hand sizes, deck sizes, chieftain tokens left, per seat"),
    Part("discards", P * CARDS, "face-up discards per seat and card id (counts)"),
])
SHAPE = LAYOUT.shape
__doc__ = (__doc__ or "") + "\n" + LAYOUT.doc()


def observe(view: MainlandView) -> np.ndarray:
    """The observation of ``view`` (layout in the module docstring)."""
    n = view.n_players
    scores = np.zeros((n, 4)) if view.scores is None else view.scores
    discards = np.full((P, CARDS), -1, dtype=np.float32)
    for s, pile in enumerate(view.discards):
        discards[s] = counts("mainland", pile, CARDS)
    return LAYOUT.pack({
        "seat": seat_onehot(view.seat, P),
        "header": (n, view.phase, view.round),
        "items": padded("mainland", view.items.tolist(), (ROWS, COLS)),
        "owner": padded("mainland", view.owner.tolist(), (ROWS, COLS)),
        "counts": padded("mainland", view.counts.tolist(), (P, ITEMS)),
        "scores": padded("mainland", np.asarray(scores).tolist(), (P, 4)),
        "hand": padded("mainland", view.hand, (HAND,)),
        "sizes": padded("mainland", [view.hand_sizes, view.deck_sizes, view.tokens], (3, P)),
        "discards": discards,
    })


def encode(options: np.ndarray, view: MainlandView) -> np.ndarray:
    """The action number of each option row (kind, hand_index, rotation, row, col), vectorised."""
    rows = np.asarray(options, dtype=np.int64).reshape(-1, 5)
    kind, index, rot, r, c = rows.T
    spot = rot * _CELLS + r * COLS + c
    in_board = (rot >= 0) & (rot < 4) & (r >= 0) & (r < ROWS) & (c >= 0) & (c < COLS)
    codes = np.select(
        [kind == KEEP, kind == REPLACE, kind == GATHER, kind == PASS, kind == PLACE_CAMP, kind == PLACE_CARD],
        [0, 1 + index, 6, 7, _CAMP + spot, _PLACE + index * 4 * _CELLS + spot],
        -1,
    )
    placing = (kind == PLACE_CAMP) | (kind == PLACE_CARD)
    bad = (codes < 0) | (codes >= ACTIONS) | (placing & ~in_board) | ((kind == PLACE_CARD) & (index >= HAND))
    bad |= (kind == REPLACE) & ((index < 0) | (index >= HAND))
    if bad.any():
        row = rows[int(np.argmax(bad))].tolist()
        raise SkaldError(f"mainland: option {row} lies outside the {ROWS}x{COLS} board or {HAND}-card hand")
    return distinct("mainland", codes)

"""One int64 array holding what the rules' compiled calls read besides the board: the component data and
the rule switches, made once per game (``spec``) and unpacked inside the kernels (``unpack``).

A compiled call pays for every argument it is handed (numba types and unboxes each one): the placement
options and the checked placement took 15 arguments each, about a third of a random decision's kernel
time.  Packed, they take the board (``items``, ``owner``, ``counts``), the seat, the hand and this array.
The values are the data's own (``MainlandData``, ``rules.COVER``, ``rules.REQ_PAIRS``, ``rules.ALLOWED``):
the rules they serve are cited where the kernels use them (``kernels``, ``fitting``, ``requirements``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.mainland.kernels import check_placement, place, placement_options, score_board
from sim.games.mainland.state import PASS, PLACE_CAMP, PLACE_CARD

#: header fields: cards, items, requirement pairs, the two rule switches (R4, R3b)
N_CARDS, N_ITEMS, N_PAIRS, NEEDS_OVERLAP, OWN_COUNTS = range(5)
HEADER = 5
#: ``place_checked``'s reason for a rotation that is not one of the card's distinct rotations
BAD_ROTATION = -1


def spec(data, cover: np.ndarray, req_pairs: np.ndarray, allowed: np.ndarray, rules: dict) -> np.ndarray:
    """The packed array (read-only): header, then rotations, unique rotations, castle cards, cover masks,
    requirement pairs, the overlay table and the points, each flattened in C order."""
    n_cards = data.rotations.shape[0]
    header = [n_cards, cover.shape[0], req_pairs.shape[0], bool(rules["castle_needs_overlap"]),
              bool(rules["card_meets_own_requirements"])]
    parts = [np.asarray(header, dtype=np.int64), data.rotations.ravel(), data.unique_rotation.ravel(),
             data.is_castle_card.ravel(), cover.view(np.int64), req_pairs.ravel(), allowed.ravel(),
             data.points.ravel()]
    out = np.concatenate([np.asarray(p).astype(np.int64) for p in parts])
    out.flags.writeable = False
    return out


@njit(cache=True)
def unpack(spec):
    """``(rotations, unique_rotation, is_castle_card, cover, req_pairs, allowed, points, castle_needs_overlap,
    card_meets_own)`` as views of ``spec`` (no copies)."""
    n_cards, n_items, n_pairs = spec[N_CARDS], spec[N_ITEMS], spec[N_PAIRS]
    o = HEADER
    rotations = spec[o:o + 16 * n_cards].reshape((n_cards, 4, 4))
    o += 16 * n_cards
    unique = spec[o:o + 4 * n_cards].reshape((n_cards, 4))
    o += 4 * n_cards
    castle = spec[o:o + n_cards]
    o += n_cards
    cover = spec[o:o + n_items]
    o += n_items
    req_pairs = spec[o:o + 2 * n_pairs].reshape((n_pairs, 2))
    o += 2 * n_pairs
    allowed = spec[o:o + n_items * n_items].reshape((n_items, n_items))
    o += n_items * n_items
    points = spec[o:o + 2 * n_items].reshape((n_items, 2))
    return (rotations, unique, castle, cover, req_pairs, allowed, points, spec[NEEDS_OVERLAP] != 0,
            spec[OWN_COUNTS] != 0)


@njit(cache=True)
def options_rows(items, owner, counts, player, hand, spec, camp):
    """The placement step's option rows (``kernels.placement_options``): the camp card's placements in
    the camp phase (line 67), else the hand's placements then a pass (line 137)."""
    rotations, unique, castle, cover, req_pairs, _, _, needs_overlap, own = unpack(spec)
    return placement_options(items, owner, counts, player, hand, rotations, unique, castle, cover, req_pairs,
                             needs_overlap, camp, own, PLACE_CAMP if camp else PLACE_CARD,
                             -1 if camp else PASS)


@njit(cache=True)
def place_checked(items, owner, counts, player, card, rot, r, c, spec, camp):
    """``kernels.checked_place`` of ``card`` turned ``rot`` times: (reason, scores), the reason
    ``BAD_ROTATION`` when ``rot`` is not one of the card's distinct rotations; scores are empty unless
    legal (the card then lies and the board is scored again)."""
    rotations, unique, castle, _, req_pairs, allowed, points, needs_overlap, own = unpack(spec)
    if not (0 <= rot < 4 and unique[card, rot]):
        return BAD_ROTATION, np.zeros((0, 4), dtype=np.float64)
    layout = rotations[card, rot]
    why = check_placement(items, owner, counts, player, layout, castle[card], r, c, allowed, req_pairs,
                          needs_overlap, camp, own)
    if why != 0:
        return why, np.zeros((0, 4), dtype=np.float64)
    place(items, owner, counts, player, layout, r, c)
    return why, score_board(items, owner, counts.shape[0], points)

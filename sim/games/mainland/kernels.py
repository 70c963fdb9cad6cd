"""Compiled hot paths of Mainland: placement legality, placing, scoring (candidate evaluation: ``lookahead``).

Pure functions over plain arrays (``items``/``owner`` are the board, ``counts[seat, item]``
the seat's visible items), compiled with numba (``cache=True``: compiled once per machine).
Placement options are rows ``(hand_index, rotation, row, col)``; cells of a card are
visited in the order top-left, top-right, bottom-left, bottom-right.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.mainland.fitting import placement_rows, playable
from sim.games.mainland.items import VILLAGE
from sim.games.mainland.lookahead import evaluate_placements  # noqa: F401  (the look-ahead, re-exported)
from sim.games.mainland.requirements import requirements_met, requirements_met_uncovered  # noqa: F401

# Reasons returned by check_placement (0 = legal); see REASONS for their texts.
OK, OFF_BOARD, NO_OVERLAP, NO_EMPTY, OVERLAY, REQUIREMENT, CAMP_OVERLAP = range(7)
REASONS = (
    "legal",
    "the card must lie inside the board limits (mainland.txt:57)",
    "the card must overlap one or more cards in play (rule 1, mainland.txt:99)",
    "the card must overlap the empty space of the board (rule 2, mainland.txt:100)",
    "an item may not be placed over the item below it (rule 3, overlay table, mainland.txt:163-175)",
    "the player lacks the requirements for an advanced item (mainland.txt:115-123, 243-249)",
    "starting cards must not overlap (mainland.txt:69)",
)


@njit(cache=True)
def check_placement(items, owner, counts, player, layout, is_castle, r, c, allowed, req_pairs,
                    castle_needs_overlap, camp, card_meets_own=False) -> int:
    """0 if the card ``layout`` may be placed at (r, c), else the reason code."""
    rows, cols = items.shape
    if r < 0 or c < 0 or r + 1 >= rows or c + 1 >= cols:
        return OFF_BOARD
    occupied = 0
    for j in range(4):
        if items[r + j // 2, c + j % 2] != 0:
            occupied += 1
    if camp:
        return OK if occupied == 0 else CAMP_OVERLAP
    if occupied == 0 and (castle_needs_overlap or not is_castle):
        return NO_OVERLAP
    if occupied == 4 and not is_castle:
        return NO_EMPTY
    for j in range(4):
        if not allowed[layout[j], items[r + j // 2, c + j % 2]]:
            return OVERLAY
    has_advanced = False
    for j in range(4):
        if layout[j] >= VILLAGE:
            has_advanced = True
    if has_advanced and not requirements_met(items, owner, counts, player, layout, r, c, req_pairs,
                                             card_meets_own):
        return REQUIREMENT
    return OK


@njit(cache=True)
def cover_masks(allowed):
    """Rule 3 as bit masks: ``cover[covered]`` has bit ``p`` set when item ``p`` may be placed on
    ``covered`` (``allowed[placed, covered]``, the overlay table).  Made once, passed to the kernels."""
    n_items = allowed.shape[0]
    cover = np.zeros(n_items, dtype=np.uint64)
    for covered in range(n_items):
        for placed in range(n_items):
            if allowed[placed, covered]:
                cover[covered] |= np.uint64(1) << np.uint64(placed)
    return cover


@njit(cache=True)
def legal_placements(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card,
                     cover, req_pairs, castle_needs_overlap, camp, card_meets_own=False):
    """All legal ``(hand_index, rotation, row, col)`` for the cards in ``hand`` (card ids)."""
    return placement_rows(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card,
                          cover, req_pairs, castle_needs_overlap, camp, card_meets_own, 0, 4, 0)


@njit(cache=True)
def playable_cards(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card,
                   cover, req_pairs, castle_needs_overlap, camp, card_meets_own=False):
    """For each card of ``hand``: has it a legal placement (``legal_placements`` non-empty for it)?"""
    return playable(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card, cover,
                    req_pairs, castle_needs_overlap, camp, card_meets_own)


@njit(cache=True)
def place(items, owner, counts, player, layout, r, c) -> None:
    """Lay the card: covered items stop counting for their owner, new items count for ``player``."""
    for j in range(4):
        rr = r + j // 2
        cc = c + j % 2
        if items[rr, cc] != 0:
            counts[owner[rr, cc], items[rr, cc]] -= 1
        items[rr, cc] = layout[j]
        owner[rr, cc] = player
        counts[player, layout[j]] += 1


@njit(cache=True)
def score_board(items, owner, n_players, points):
    """Score every seat: rows (total, mainland_tiles, mainland_items, minor_items).

    Territories are orthogonally connected visible tiles of one colour (line 197); the
    Mainland is the largest, ties going to the higher value (line 201: "If your 2 largest
    territories have the same number of tiles, your Mainland will be the one with the highest
    value"); Mainland items score the first points column plus 1 per tile (205-217), other
    territories the second (219-227).  When size and value both tie, the Mainland is the one
    with the lower minor-territory value, which gives the seat the higher total (ruling R12):
    the choice is the greatest (size, value, -minor value), whatever order the scan meets the
    territories in, so the score does not depend on where they lie.
    """
    rows, cols = items.shape
    out = np.zeros((n_players, 4), dtype=np.float64)
    _score_seats(items, owner, n_players, points, np.ones(n_players, dtype=np.bool_),
                 np.zeros((rows, cols), dtype=np.bool_), np.empty(rows * cols, dtype=np.int64),
                 np.empty((4, n_players), dtype=np.int64), out)
    return out


@njit(cache=True)
def _score_seats(items, owner, n_players, points, scored, seen, stack, best, out):
    """``score_board`` into ``out`` for the seats with ``scored[p]`` only (the other rows are left as
    they are): only their tiles are flooded.  ``seen`` (rows, cols), ``stack`` (rows * cols) and ``best``
    (4, n_players) are work space, cleared here."""
    rows, cols = items.shape
    seen[:, :] = False
    best_size, best_items, best_minor, minor_total = best[0], best[1], best[2], best[3]
    for p in range(n_players):
        best_size[p] = 0
        best_items[p] = -1
        best_minor[p] = 0
        minor_total[p] = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if seen[r0, c0] or items[r0, c0] == 0 or not scored[owner[r0, c0]]:
                continue
            p = owner[r0, c0]
            seen[r0, c0] = True
            stack[0] = r0 * cols + c0
            top = 1
            size = 0
            inside = 0
            minor = 0
            while top > 0:
                top -= 1
                cell = stack[top]
                r = cell // cols
                c = cell % cols
                size += 1
                inside += points[items[r, c], 0]
                minor += points[items[r, c], 1]
                for d in range(4):
                    rr = r + (d == 0) - (d == 1)
                    cc = c + (d == 2) - (d == 3)
                    if 0 <= rr < rows and 0 <= cc < cols and not seen[rr, cc] and items[rr, cc] != 0 \
                            and owner[rr, cc] == p:
                        seen[rr, cc] = True
                        stack[top] = rr * cols + cc
                        top += 1
            minor_total[p] += minor
            if size > best_size[p] or (size == best_size[p] and (
                    inside > best_items[p] or (inside == best_items[p] and minor < best_minor[p]))):
                best_size[p] = size
                best_items[p] = inside
                best_minor[p] = minor
    for p in range(n_players):
        if not scored[p]:
            continue
        if best_items[p] < 0:
            out[p, 0] = out[p, 1] = out[p, 2] = out[p, 3] = 0.0
            continue
        out[p, 1] = best_size[p]
        out[p, 2] = best_items[p]
        out[p, 3] = minor_total[p] - best_minor[p]
        out[p, 0] = out[p, 1] + out[p, 2] + out[p, 3]


@njit(cache=True)
def placement_options(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card, cover,
                      req_pairs, castle_needs_overlap, camp, card_meets_own, kind, pass_kind):
    """``legal_placements`` as option rows ``(kind, hand_index, rotation, row, col)``.

    With ``pass_kind >= 0`` a final pass row is appended (one call, one allocation: the
    placement step's options on the hot path).
    """
    extra = 1 if pass_kind >= 0 else 0
    out = placement_rows(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card,
                         cover, req_pairs, castle_needs_overlap, camp, card_meets_own, 1, 5, extra)
    m = out.shape[0] - extra
    for i in range(m):
        out[i, 0] = kind
    if extra:
        out[m, 0] = pass_kind
        for j in range(1, 5):
            out[m, j] = 0
    return out


@njit(cache=True)
def checked_place(items, owner, counts, player, layout, is_castle, r, c, allowed, req_pairs,
                  castle_needs_overlap, camp, card_meets_own, n_players, points):
    """Validate, lay the card and rescore in one call: (reason, scores); scores are empty unless legal."""
    why = check_placement(items, owner, counts, player, layout, is_castle, r, c, allowed, req_pairs,
                          castle_needs_overlap, camp, card_meets_own)
    if why != OK:
        return why, np.zeros((0, 4), dtype=np.float64)
    place(items, owner, counts, player, layout, r, c)
    return OK, score_board(items, owner, n_players, points)

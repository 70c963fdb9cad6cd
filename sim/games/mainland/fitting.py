"""Compiled enumeration of Mainland's legal placements: every 2x2 window tested for every layout at once.

A layout is a card of the hand in one of its distinct rotations, numbered ``l = 4 * h + rotation`` (up
to 16 cards at a time: 64 layouts, one bit each).  Rule 3 (the overlay table, mainland.txt:163-175) is a
table ``fit[j, x]``: the layouts whose item ``j`` (top-left, top-right, bottom-left, bottom-right) may
lie on item ``x``; a window's fitting layouts are the AND of its four tiles' entries.  Rules 1 and 2
(lines 99-100) pick the windows by how many of their tiles are covered: partly covered windows serve
every card, fully covered ones castle cards only (line 129; empty ones too when castles need no overlap,
ruling R4); for the camps (line 67-69) empty windows only, with no overlay or requirement test.  The
requirements of advanced items (lines 115-123, 243-249) are tested per window only where it covers the
player's own items, and once per layout elsewhere.

Placements come out as ``legal_placements`` always gave them: by card, rotation, then the partly covered
windows in row-major order, then the castle-only windows in row-major order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.mainland.items import VILLAGE

ONE = np.uint64(1)
ZERO = np.uint64(0)
#: the layouts of one pass (16 cards of 4 rotations: one bit each of a uint64)
CARDS_PER_PASS = 16
#: ``BIT_INDEX[b % 67]`` is k for the single bit ``b = 2**k`` (2**k mod 67 differs for every k < 64)
BIT_INDEX = np.zeros(67, dtype=np.int64)
for _k in range(64):
    BIT_INDEX[(1 << _k) % 67] = _k


@njit(cache=True)
def _low_bit(bits):
    """The lowest set bit of ``bits`` (non-zero), and its index."""
    low = bits & (~bits + ONE)
    return low, BIT_INDEX[np.int64(low % np.uint64(67))]


@njit(cache=True)
def layout_masks(hand, h0, h1, rotations, unique_rotation, is_castle_card, cover, counts, player, req_pairs,
                 card_meets_own, camp):
    """For the layouts of ``hand[h0:h1]`` (bit ``4 * (h - h0) + rotation``, distinct rotations only):
    ``(fit, castle, advanced, blocked, slack)``.  ``fit[j, x]``: those whose item j may lie on item x
    (every layout in the camp phase); ``castle``: those of castle cards; ``advanced``: those with an
    advanced item (none in the camp phase); ``slack[l, k]``: for requirement pair k of an advanced item
    that layout l lays, the player's requirement items less its advanced items once l lies on none of its
    own (``requirements_met``: negative fails; a large number for pairs l has no part in); ``blocked``:
    the advanced layouts with a negative slack."""
    n_items = cover.shape[0]
    by_item = np.zeros((4, n_items), dtype=np.uint64)  # layouts with item x at position j
    slack = np.empty((4 * CARDS_PER_PASS, req_pairs.shape[0], 3), dtype=np.int64)
    n_pairs = np.zeros(4 * CARDS_PER_PASS, dtype=np.int64)
    every = castle = advanced = blocked = ZERO
    for h in range(h0, h1):
        card = hand[h]
        for rot in range(4):
            if not unique_rotation[card, rot]:
                continue
            k = 4 * (h - h0) + rot
            bit = ONE << np.uint64(k)
            layout = rotations[card, rot]
            every |= bit
            has_advanced = False
            for j in range(4):
                by_item[j, layout[j]] |= bit
                has_advanced = has_advanced or layout[j] >= VILLAGE
            if is_castle_card[card]:
                castle |= bit
            if has_advanced and not camp:
                advanced |= bit
                n_pairs[k] = _pair_slack(slack[k], counts, player, layout, req_pairs, card_meets_own)
                if n_pairs[k] < 0:
                    n_pairs[k] = -n_pairs[k]
                    blocked |= bit
    fit = np.empty((4, n_items), dtype=np.uint64)
    for x in range(n_items):
        if camp:
            fit[0, x] = fit[1, x] = fit[2, x] = fit[3, x] = every
            continue
        f0 = f1 = f2 = f3 = ZERO
        bits = np.uint64(cover[x])
        while bits:  # the items that may lie on x, one set bit each (rule 3)
            low, placed = _low_bit(bits)
            bits ^= low
            f0 |= by_item[0, placed]
            f1 |= by_item[1, placed]
            f2 |= by_item[2, placed]
            f3 |= by_item[3, placed]
        fit[0, x], fit[1, x], fit[2, x], fit[3, x] = f0, f1, f2, f3
    return fit, castle, advanced, blocked, slack, n_pairs


@njit(cache=True)
def _pair_slack(slack, counts, player, layout, req_pairs, card_meets_own) -> int:
    """``slack[i] = (advanced item, required item, slack)`` for the requirement pairs of the layout's
    advanced items (lines 115-123, 247), the slack being the required items after the card less the
    advanced items after it, as ``requirements_met`` counts them; returns how many, negated when one of
    them is negative (``requirements_met_uncovered`` false)."""
    negative = False
    n = 0
    for k in range(req_pairs.shape[0]):
        adv, req = req_pairs[k, 0], req_pairs[k, 1]
        new_adv = new_req = 0
        for j in range(4):
            new_adv += layout[j] == adv
            new_req += layout[j] == req and card_meets_own
        if new_adv:
            slack[n, 0], slack[n, 1] = adv, req
            slack[n, 2] = counts[player, req] + new_req - counts[player, adv] - new_adv
            negative = negative or slack[n, 2] < 0
            n += 1
    return -n if negative else n


@njit(cache=True)
def _requirements_kept(items, owner, player, r, c, bits, advanced, slack, n_pairs, covered):
    """``bits`` less the advanced layouts that lack their requirements at window (r, c), which covers some
    of the player's items: those stop counting (line 243), ``slack + covered[adv] - covered[req]`` per
    pair."""
    for j in range(4):
        rr, cc = r + j // 2, c + j % 2
        if items[rr, cc] != 0 and owner[rr, cc] == player:
            covered[items[rr, cc]] += 1
    check = bits & advanced
    while check:
        low, k = _low_bit(check)
        check ^= low
        for i in range(n_pairs[k]):
            if slack[k, i, 2] + covered[slack[k, i, 0]] - covered[slack[k, i, 1]] < 0:
                bits ^= low
                break
    for j in range(4):
        covered[items[r + j // 2, c + j % 2]] = 0
    return bits


@njit(cache=True)
def fitting_windows(items, owner, counts, player, hand, h0, rotations, req_pairs, card_meets_own,
                    castle_needs_overlap, camp, masks, windows, fits):
    """The windows where some layout of ``masks`` (``layout_masks``) is legal, into ``windows`` (row-major
    index ``r * (cols - 1) + c``) and ``fits`` (the legal layouts there): the partly covered ones (or,
    for camps, the empty ones) from the front, the castle-only ones from the back, each group in
    row-major order read from its end; returns (number at the front, number at the back)."""
    fit, castle, advanced, blocked, slack, n_pairs = masks
    covered = np.zeros(fit.shape[1], dtype=np.int64)  # the player's items under the window
    rows, cols = items.shape
    front = back = 0
    size = windows.shape[0]
    for r in range(rows - 1):
        for c in range(cols - 1):
            a, b, d, e = items[r, c], items[r, c + 1], items[r + 1, c], items[r + 1, c + 1]
            o = (a != 0) + (b != 0) + (d != 0) + (e != 0)
            if camp or 0 < o < 4:
                if camp and o != 0:
                    continue
                bits = fit[0, a] & fit[1, b] & fit[2, d] & fit[3, e]
            elif o == 4 or not castle_needs_overlap:
                bits = fit[0, a] & fit[1, b] & fit[2, d] & fit[3, e] & castle
            else:
                continue
            if bits & advanced:  # requirements: per window only where it covers the player's items
                if (a != 0 and owner[r, c] == player) or (b != 0 and owner[r, c + 1] == player) or (
                        d != 0 and owner[r + 1, c] == player) or (e != 0 and owner[r + 1, c + 1] == player):
                    bits = _requirements_kept(items, owner, player, r, c, bits, advanced, slack, n_pairs,
                                              covered)
                else:
                    bits &= ~blocked
            if not bits:
                continue
            if camp or 0 < o < 4:
                windows[front] = r * (cols - 1) + c
                fits[front] = bits
                front += 1
            else:
                back += 1
                windows[size - back] = r * (cols - 1) + c
                fits[size - back] = bits
    return front, back


@njit(cache=True)
def placement_rows(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card, cover,
                   req_pairs, castle_needs_overlap, camp, card_meets_own, col, width, spare):
    """Every legal ``(hand_index, rotation, row, col)``, in the order of the module's docstring, in
    columns ``col`` to ``col + 3`` of a new int16 array of ``width`` columns, with ``spare`` rows left
    at its end (unset).  Counted first, so the array has just the rows it needs."""
    rows, cols = items.shape
    size = (rows - 1) * (cols - 1)
    passes = (hand.shape[0] + CARDS_PER_PASS - 1) // CARDS_PER_PASS
    windows = np.empty((passes, size), dtype=np.int64)
    fits = np.empty((passes, size), dtype=np.uint64)
    ends = np.empty((passes, 2), dtype=np.int64)
    n = 0
    for pass_ in range(passes):
        h0 = pass_ * CARDS_PER_PASS
        h1 = min(h0 + CARDS_PER_PASS, hand.shape[0])
        masks = layout_masks(hand, h0, h1, rotations, unique_rotation, is_castle_card, cover, counts, player,
                             req_pairs, card_meets_own, camp)
        front, back = fitting_windows(items, owner, counts, player, hand, h0, rotations, req_pairs,
                                      card_meets_own, castle_needs_overlap, camp, masks, windows[pass_],
                                      fits[pass_])
        ends[pass_, 0], ends[pass_, 1] = front, back
        for w in range(front):
            n += _bit_count(fits[pass_, w])
        for w in range(size - back, size):
            n += _bit_count(fits[pass_, w])
    out = np.empty((n + spare, width), dtype=np.int16)
    start = np.empty(4 * CARDS_PER_PASS, dtype=np.int64)
    n = 0
    for pass_ in range(passes):
        n = _emit(out, col, n, pass_ * CARDS_PER_PASS, windows[pass_], fits[pass_], ends[pass_, 0],
                  ends[pass_, 1], cols, start)
    return out


@njit(cache=True)
def _bit_count(bits) -> int:
    n = 0
    while bits:
        bits &= bits - ONE
        n += 1
    return n


@njit(cache=True)
def _emit(out, col, n, h0, windows, fits, front, back, cols, start):
    """Rows ``n, n + 1, ...`` of ``out``: each layout's windows (``fitting_windows``), layout by layout (a
    counting sort: ``start`` counts the rows of each layout, then says where its next row goes); returns
    the count of rows so far.  Loops only, no calls: a call per window costs as much as its work."""
    size = windows.shape[0]
    start[:] = 0
    for i in range(front + back):
        bits = fits[i] if i < front else fits[size - 1 - (i - front)]
        while bits:
            low = bits & (~bits + ONE)
            bits ^= low
            start[BIT_INDEX[np.int64(low % np.uint64(67))]] += 1
    for k in range(start.shape[0]):
        n, start[k] = n + start[k], n
    for i in range(front + back):
        w = i if i < front else size - 1 - (i - front)
        bits = fits[w]
        while bits:
            low = bits & (~bits + ONE)
            bits ^= low
            k = BIT_INDEX[np.int64(low % np.uint64(67))]
            row = start[k]
            start[k] += 1
            out[row, col] = h0 + k // 4
            out[row, col + 1] = k % 4
            out[row, col + 2] = windows[w] // (cols - 1)
            out[row, col + 3] = windows[w] % (cols - 1)
    return n


@njit(cache=True)
def playable(items, owner, counts, player, hand, rotations, unique_rotation, is_castle_card, cover,
             req_pairs, castle_needs_overlap, camp, card_meets_own):
    """For each card of ``hand``: has it a legal placement (is any of its layouts legal somewhere)?"""
    rows, cols = items.shape
    size = (rows - 1) * (cols - 1)
    windows = np.empty(size, dtype=np.int64)
    fits = np.empty(size, dtype=np.uint64)
    out = np.zeros(hand.shape[0], dtype=np.bool_)
    for h0 in range(0, hand.shape[0], CARDS_PER_PASS):
        h1 = min(h0 + CARDS_PER_PASS, hand.shape[0])
        masks = layout_masks(hand, h0, h1, rotations, unique_rotation, is_castle_card, cover, counts, player,
                             req_pairs, card_meets_own, camp)
        front, back = fitting_windows(items, owner, counts, player, hand, h0, rotations, req_pairs,
                                      card_meets_own, castle_needs_overlap, camp, masks, windows, fits)
        seen = ZERO
        for w in range(front):
            seen |= fits[w]
        for w in range(size - back, size):
            seen |= fits[w]
        for h in range(h0, h1):
            out[h] = (seen >> np.uint64(4 * (h - h0))) & np.uint64(15) != ZERO
    return out

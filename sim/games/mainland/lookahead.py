"""Compiled one-ply look-ahead of Mainland: every seat's score after each placement option, incrementally.

The board's territories are flooded once per call (``label_territories``); an option then changes only
the territories that touch its 2x2 window.  A territory is "orthogonally connected tiles of one colour"
(mainland.txt:197), so after the card lies:

* the mover's territories that have a tile in the window or next to it join the card's four tiles into
  one (the mover's tiles only grow: nothing of theirs splits), the mover's other territories stay;
* a seat whose tiles the card covers loses those tiles: each of its territories that had one may fall
  apart, and only those are flooded again (from their tiles next to the window); its others stay;
* every other seat's territories, and so its score, stay as they were.

The seat's Mainland is then its largest territory, ties to the higher value and then to the lower
minor value (lines 199-201, ruling R12), scored as ``kernels.score_board`` scores it (lines 205-227):
tiles plus Mainland items plus the items of the other territories.
``tests/strategies/test_mainland_lookahead.py`` checks every option against laying the card and scoring
the whole board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Columns of the territory table made by ``label_territories``.
SEAT, SIZE, INSIDE, MINOR = range(4)


@njit(cache=True)
def label_territories(items, owner, points, label, comps, stack):
    """Flood every territory once: ``label[r, c]`` its territory (-1 on empty space), ``comps[k]`` its
    (seat, tiles, Mainland value, minor value); returns the number of territories (line 197)."""
    rows, cols = items.shape
    label[:, :] = -1
    n = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if label[r0, c0] >= 0 or items[r0, c0] == 0:
                continue
            p = owner[r0, c0]
            label[r0, c0] = n
            stack[0] = r0 * cols + c0
            top = 1
            size = inside = minor = 0
            while top > 0:
                top -= 1
                r = stack[top] // cols
                c = stack[top] % cols
                size += 1
                inside += points[items[r, c], 0]
                minor += points[items[r, c], 1]
                for d in range(4):
                    rr = r + (d == 0) - (d == 1)
                    cc = c + (d == 2) - (d == 3)
                    if 0 <= rr < rows and 0 <= cc < cols and label[rr, cc] < 0 and items[rr, cc] != 0 \
                            and owner[rr, cc] == p:
                        label[rr, cc] = n
                        stack[top] = rr * cols + cc
                        top += 1
            comps[n, SEAT] = p
            comps[n, SIZE] = size
            comps[n, INSIDE] = inside
            comps[n, MINOR] = minor
            n += 1
    return n


@njit(cache=True)
def _better(size, inside, minor, size2, inside2, minor2) -> bool:
    """Is territory (size, inside, minor) a better Mainland than the second one?  More tiles, then the
    higher value (line 201), then the lower minor value (ruling R12)."""
    if size != size2:
        return size > size2
    if inside != inside2:
        return inside > inside2
    return minor < minor2


@njit(cache=True)
def rank_territories(comps, n, n_players):
    """Each seat's territories, best Mainland first: ``order[p, :count[p]]`` (insertion sort: a seat
    has a few dozen territories at most)."""
    order = np.empty((n_players, max(n, 1)), dtype=np.int64)
    count = np.zeros(n_players, dtype=np.int64)
    for k in range(n):
        p = comps[k, SEAT]
        j = count[p]
        while j > 0 and _better(comps[k, SIZE], comps[k, INSIDE], comps[k, MINOR],
                                comps[order[p, j - 1], SIZE], comps[order[p, j - 1], INSIDE],
                                comps[order[p, j - 1], MINOR]):
            order[p, j] = order[p, j - 1]
            j -= 1
        order[p, j] = k
        count[p] += 1
    return order, count


@njit(cache=True)
def total(size, inside, minor, minor_total) -> float:
    """A seat's total from its Mainland and the minor value of all its territories, as
    ``kernels.score_board`` gives it (no territory, ``size == 0``: nothing)."""
    if size == 0 or inside < 0:
        return 0.0
    return float(size) + float(inside) + float(minor_total - minor)


@njit(cache=True)
def _best_untouched(comps, order, count, p, hit, stamp):
    """The seat's best territory whose ``hit`` is not ``stamp``: (size, inside, minor); size 0 if none."""
    for j in range(count[p]):
        k = order[p, j]
        if hit[k] != stamp:
            return comps[k, SIZE], comps[k, INSIDE], comps[k, MINOR]
    return 0, 0, 0


#: the twelve tiles around a 2x2 window at (r, c), as offsets from (r, c), in order round it (each next to
#: the one before and the last next to the first); those at positions 0, 3, 6 and 9 are its corners, the
#: others lie orthogonally next to the window
_BORDER = np.array([(-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (2, -1),
                    (1, -1), (0, -1)], dtype=np.int64)


@njit(cache=True)
def _fill_ring(cells, near, r, c, border, items, label):
    """``cells``: the window's four tiles (top-left, top-right, bottom-left, bottom-right), then the
    twelve of ``border``; ``near[t]`` the territory of tile t, -1 for empty space or off the board."""
    rows, cols = items.shape
    for j in range(4):
        cells[j, 0] = r + j // 2
        cells[j, 1] = c + j % 2
    for j in range(12):
        cells[4 + j, 0] = r + border[j, 0]
        cells[4 + j, 1] = c + border[j, 1]
    for t in range(16):
        rr, cc = cells[t, 0], cells[t, 1]
        near[t] = label[rr, cc] if 0 <= rr < rows and 0 <= cc < cols and items[rr, cc] != 0 else -1


@njit(cache=True)
def window_mover(items, points, comps, order, count, minor_total, p, cells, near, hit, stamp):
    """What the mover's total after a card on the window ``cells[:4]`` needs, whatever the card:
    ``(size, inside, minor, minors, size2, inside2, minor2)``.  Its territories with a tile in the window or
    orthogonally next to it join the card's tiles into one (line 197; ``hit[k] = stamp`` marks them):
    tiles ``size``, value ``inside`` and minor value ``minor`` without the card's items; ``minors`` the
    minor value of its other territories; ``size2, inside2, minor2`` the best of those (size 0: none)."""
    size = inside = minor = lost_minor = 0  # the joined territory; the minor value it replaces
    for t in range(16):
        k = near[t]
        if k >= 0 and (t < 4 or t % 3 != 1) and comps[k, SEAT] == p and hit[k] != stamp:  # no corner
            hit[k] = stamp
            size += comps[k, SIZE]
            inside += comps[k, INSIDE]
            minor += comps[k, MINOR]
            lost_minor += comps[k, MINOR]
    for j in range(4):
        old = items[cells[j, 0], cells[j, 1]]
        if near[j] >= 0 and comps[near[j], SEAT] == p:  # already counted in a joined territory
            inside -= points[old, 0]
            minor -= points[old, 1]
        else:
            size += 1
    size2, inside2, minor2 = _best_untouched(comps, order, count, p, hit, stamp)
    return size, inside, minor, minor_total[p] - lost_minor, size2, inside2, minor2


@njit(cache=True)
def _runs_with_seeds(near, k):
    """In how many runs of territory ``k``'s tiles, going round the window's border, lie tiles next to
    the window (its seeds)?  One run: the territory stays in one piece; more: it may fall apart."""
    start = -1
    for t in range(12):
        if near[4 + t] != k:
            start = t
    if start < 0:
        return 1
    runs = 0
    seeded = False
    for step in range(1, 13):
        t = (start + step) % 12
        if near[4 + t] == k:
            seeded = seeded or t % 3 != 0
        else:
            runs += seeded
            seeded = False
    return runs


@njit(cache=True)
def _flood_piece(items, points, label, k, r, c, r0, c0, seen, stamp, stack):
    """Tiles, Mainland value and minor value of the piece, from (r0, c0), of territory ``k`` that is
    left outside the window at (r, c) (``seen`` marks its tiles with ``stamp``)."""
    rows, cols = items.shape
    seen[r0, c0] = stamp
    stack[0] = r0 * cols + c0
    top = 1
    size = inside = minor = 0
    while top > 0:
        top -= 1
        rr = stack[top] // cols
        cc = stack[top] % cols
        size += 1
        inside += points[items[rr, cc], 0]
        minor += points[items[rr, cc], 1]
        for d in range(4):
            r2 = rr + (d == 0) - (d == 1)
            c2 = cc + (d == 2) - (d == 3)
            if 0 <= r2 < rows and 0 <= c2 < cols and seen[r2, c2] != stamp and label[r2, c2] == k \
                    and items[r2, c2] != 0 and not (r <= r2 <= r + 1 and c <= c2 <= c + 1):
                seen[r2, c2] = stamp
                stack[top] = r2 * cols + c2
                top += 1
    return size, inside, minor


@njit(cache=True)
def covered_total(items, points, label, comps, order, count, minor_total, q, cells, near, hit, stamp, seen,
                  stack):
    """The total of seat ``q``, whose tiles in the window ``cells[:4]`` the card covers.  Each territory
    of ``q`` with a tile there loses it (line 197): what is left stays one piece when its tiles next to
    the window join round the window's border, and is flooded again from them otherwise; ``q``'s other
    territories stay."""
    lost_minor = pieces_minor = best_size = best_inside = best_minor = 0
    for j in range(4):
        k = near[j]
        if k < 0 or comps[k, SEAT] != q or hit[k] == stamp:
            continue
        hit[k] = stamp
        lost_minor += comps[k, MINOR]
        runs = _runs_with_seeds(near, k)
        if runs == 1:
            size, inside, minor = comps[k, SIZE], comps[k, INSIDE], comps[k, MINOR]
            for j2 in range(4):
                if near[j2] == k:
                    old = items[cells[j2, 0], cells[j2, 1]]
                    size, inside, minor = size - 1, inside - points[old, 0], minor - points[old, 1]
            pieces_minor += minor
            if best_size == 0 or _better(size, inside, minor, best_size, best_inside, best_minor):
                best_size, best_inside, best_minor = size, inside, minor
            continue
        for t in range(4, 16):
            rr, cc = cells[t, 0], cells[t, 1]
            if runs and near[t] == k and t % 3 != 1 and seen[rr, cc] != stamp:
                size, inside, minor = _flood_piece(items, points, label, k, cells[0, 0], cells[0, 1], rr, cc,
                                                   seen, stamp, stack)
                pieces_minor += minor
                if best_size == 0 or _better(size, inside, minor, best_size, best_inside, best_minor):
                    best_size, best_inside, best_minor = size, inside, minor
    minors = minor_total[q] - lost_minor + pieces_minor
    size2, inside2, minor2 = _best_untouched(comps, order, count, q, hit, stamp)
    if size2 > 0 and (best_size == 0 or _better(size2, inside2, minor2, best_size, best_inside, best_minor)):
        return total(size2, inside2, minor2, minors)
    return total(best_size, best_inside, best_minor, minors)


@njit(cache=True)
def _territory_table(items, owner, points, n_players):
    """The board's territories, flooded once: (label, comps, order, count, minor_total, base, n) with
    ``base[p]`` each seat's total now (``label_territories``, ``rank_territories``)."""
    rows, cols = items.shape
    label = np.empty((rows, cols), dtype=np.int64)
    comps = np.empty((rows * cols, 4), dtype=np.int64)
    n = label_territories(items, owner, points, label, comps, np.empty(rows * cols, dtype=np.int64))
    order, count = rank_territories(comps, n, n_players)
    minor_total = np.zeros(n_players, dtype=np.int64)
    for k in range(n):
        minor_total[comps[k, SEAT]] += comps[k, MINOR]
    base = np.zeros(n_players, dtype=np.float64)
    for p in range(n_players):
        if count[p]:
            k = order[p, 0]
            base[p] = total(comps[k, SIZE], comps[k, INSIDE], comps[k, MINOR], minor_total[p])
    return label, comps, order, count, minor_total, base, n


@njit(cache=True)
def _window(items, owner, points, n_players, player, table, w, cells, near, hit, seen, stack, mover, known):
    """Work out window ``w`` (its row-major index) for every card: ``mover[w]`` from ``window_mover``,
    ``known[q, w]`` every other seat's total after a card there (``covered_total`` for the seats it
    covers, the total now for the others)."""
    label, comps, order, count, minor_total, base, _ = table
    cols = items.shape[1]
    _fill_ring(cells, near, w // cols, w % cols, _BORDER, items, label)
    found = window_mover(items, points, comps, order, count, minor_total, player, cells, near, hit, w)
    for f in range(7):
        mover[w, f] = found[f]
    for q in range(n_players):
        known[q, w] = base[q]
        for j in range(4):
            if q != player and near[j] >= 0 and comps[near[j], SEAT] == q:
                known[q, w] = covered_total(items, points, label, comps, order, count, minor_total, q, cells,
                                            near, hit, w, seen, stack)
                break


@njit(cache=True)
def _evaluate(items, owner, n_players, player, hand, rotations, options, picked, col, points, full=True):
    """``evaluate_placements`` over the rows ``picked`` of ``options``, whose columns from ``col`` on are
    ``(hand_index, rotation, row, col)``; with ``full`` false only ``scores_after`` (the items covered
    and laid come back with no rows).  Each window is worked out once (``_window``), each option then
    adds its card's items in this loop (no call per option: in compiled code a call with array arguments
    costs about as much as the option's own work)."""
    m = picked.shape[0]
    n_items = points.shape[0]
    rows, cols = items.shape
    scores_after = np.empty((m, n_players), dtype=np.float64)
    counted = m if full else 0
    covered_own = np.zeros((counted, n_items), dtype=np.int64)
    covered_other = np.zeros((counted, n_items), dtype=np.int64)
    placed = np.zeros((counted, n_items), dtype=np.int64)
    table = _territory_table(items, owner, points, n_players)
    hit = np.full(max(table[6], 1), -1, dtype=np.int64)
    seen = np.full((rows, cols), -1, dtype=np.int64)
    stack = np.empty(rows * cols, dtype=np.int64)
    cells = np.empty((16, 2), dtype=np.int64)
    near = np.empty(16, dtype=np.int64)
    mover = np.empty((rows * cols, 7), dtype=np.int64)
    done = np.zeros(rows * cols, dtype=np.bool_)
    known = np.empty((n_players, rows * cols), dtype=np.float64)
    for i in range(m):
        o = picked[i]
        r, c = options[o, col + 2], options[o, col + 3]
        w = r * cols + c
        if not done[w]:
            _window(items, owner, points, n_players, player, table, w, cells, near, hit, seen, stack, mover,
                    known)
            done[w] = True
        layout = rotations[hand[options[o, col]], options[o, col + 1]]
        size, inside, minor = mover[w, 0], mover[w, 1], mover[w, 2]
        for j in range(4):
            if full:
                old = items[r + j // 2, c + j % 2]
                if old != 0:
                    if owner[r + j // 2, c + j % 2] == player:
                        covered_own[i, old] += 1
                    else:
                        covered_other[i, old] += 1
                placed[i, layout[j]] += 1
            inside += points[layout[j], 0]
            minor += points[layout[j], 1]
        minors = mover[w, 3] + minor
        if mover[w, 4] > 0 and _better(mover[w, 4], mover[w, 5], mover[w, 6], size, inside, minor):
            size, inside, minor = mover[w, 4], mover[w, 5], mover[w, 6]
        for q in range(n_players):
            scores_after[i, q] = known[q, w]
        scores_after[i, player] = total(size, inside, minor, minors)
    return scores_after, covered_own, covered_other, placed


@njit(cache=True)
def evaluate_placements(items, owner, n_players, player, hand, rotations, options, points):
    """For each option ``(hand_index, rotation, row, col)``: every seat's total after it, and the items
    it covers and lays.

    Returns ``scores_after (m, n_players)``, ``covered_own (m, n_items)``, ``covered_other (m, n_items)``
    (items of the mover's / other seats' colours covered) and ``placed (m, n_items)``.  The board is
    only read.  Cards lay four items (no empty space), as every card of the data does.
    """
    picked = np.arange(options.shape[0])
    return _evaluate(items, owner, n_players, player, hand, rotations, options, picked, 0, points)


@njit(cache=True)
def _rows_of_kind(options, kind, camp_kind):
    """The indices of the option rows of kind ``kind`` or ``camp_kind`` (the placements), in order."""
    picked = np.empty(options.shape[0], dtype=np.int64)
    m = 0
    for i in range(options.shape[0]):
        if options[i, 0] == kind or options[i, 0] == camp_kind:
            picked[m] = i
            m += 1
    return picked[:m]


@njit(cache=True)
def evaluate_options(items, owner, n_players, player, hand, rotations, options, points, kind, camp_kind):
    """``evaluate_placements`` of the placement rows of option rows ``(kind, hand_index, rotation, row,
    col)``, those of kind ``kind`` or ``camp_kind``: ``(rows, scores_after, covered_own, covered_other,
    placed)``, ``rows`` their indices in ``options``."""
    picked = _rows_of_kind(options, kind, camp_kind)
    after, own, other, placed = _evaluate(items, owner, n_players, player, hand, rotations, options, picked,
                                          1, points)
    return picked, after, own, other, placed


@njit(cache=True)
def ties(value, after, seat):
    """Indices of the options whose ``value`` is the highest (within 1e-9), and among them those whose
    opponents' total ``after`` (the other seats' scores summed) is the lowest (within 1e-9): the
    one-ply strategies' candidates, in order.  Scores are whole numbers, so the sums are exact."""
    m = value.shape[0]
    top = value.max() - 1e-9
    others = np.empty(m, dtype=np.float64)
    best = np.empty(m, dtype=np.int64)
    n = 0
    low = np.inf
    for i in range(m):
        if value[i] >= top:
            s = 0.0
            for p in range(after.shape[1]):
                s += after[i, p]
            others[n] = s - after[i, seat]
            best[n] = i
            low = min(low, others[n])
            n += 1
    k = 0
    for j in range(n):
        if others[j] <= low + 1e-9:
            best[k] = best[j]
            k += 1
    return best[:k]


@njit(cache=True)
def greedy_candidates(items, owner, n_players, player, hand, rotations, options, points, kind, camp_kind,
                      now):
    """The greedy strategy's candidates in one call: the indices into ``options`` of the placement rows
    (``evaluate_options``) whose own gain ``scores_after[:, player] - now`` is the highest, and among them
    those that leave the opponents lowest (``ties``), in order; empty when no row places a card."""
    picked = _rows_of_kind(options, kind, camp_kind)
    m = picked.shape[0]
    if m == 0:
        return picked
    after = _evaluate(items, owner, n_players, player, hand, rotations, options, picked, 1, points, False)[0]
    value = np.empty(m, dtype=np.float64)
    for i in range(m):
        value[i] = after[i, player] - now
    best = ties(value, after, player)
    out = np.empty(best.shape[0], dtype=np.int64)
    for k in range(best.shape[0]):
        out[k] = picked[best[k]]
    return out

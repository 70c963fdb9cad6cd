"""Compiled requirement checks of Mainland's advanced items (mainland.txt:115-123, 243-249).

Pure functions over plain arrays, compiled with numba (``cache=True``), shared by the placement kernels
(``kernels``, ``fitting``).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def requirements_met(items, owner, counts, player, layout, r, c, req_pairs, card_meets_own=False) -> bool:
    """After the card lies at (r, c), does ``player`` hold one requirement per advanced item?

    Counts are over the player's visible items after the placement: covered items no
    longer count (line 243), so an advanced item cannot take its own last requirement
    (line 246); each requirement serves one advanced item (line 247); only the pairs of
    the advanced items this card adds are checked, one level deep (line 249).  The card's
    own items serve as requirements only with ``card_meets_own`` (ruling R3b: by default
    you must "have" them before playing the card, line 115).
    """
    for k in range(req_pairs.shape[0]):
        adv = req_pairs[k, 0]
        req = req_pairs[k, 1]
        new_adv = 0
        for j in range(4):
            if layout[j] == adv:
                new_adv += 1
        if new_adv == 0:
            continue
        adv_after = counts[player, adv] + new_adv
        req_after = counts[player, req]
        for j in range(4):
            rr = r + j // 2
            cc = c + j % 2
            if layout[j] == req and card_meets_own:
                req_after += 1
            if items[rr, cc] != 0 and owner[rr, cc] == player:
                if items[rr, cc] == adv:
                    adv_after -= 1
                elif items[rr, cc] == req:
                    req_after -= 1
        if adv_after > req_after:
            return False
    return True


@njit(cache=True)
def requirements_met_uncovered(counts, player, layout, req_pairs, card_meets_own=False) -> bool:
    """``requirements_met`` for a placement that covers none of the player's own items."""
    for k in range(req_pairs.shape[0]):
        adv = req_pairs[k, 0]
        req = req_pairs[k, 1]
        new_adv = 0
        new_req = 0
        for j in range(4):
            if layout[j] == adv:
                new_adv += 1
            elif layout[j] == req and card_meets_own:
                new_req += 1
        if new_adv and counts[player, adv] + new_adv > counts[player, req] + new_req:
            return False
    return True

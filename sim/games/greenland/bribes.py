"""Bargains on a contested card (line 59): what a tribe may offer another to leave, and the deal done."""

from __future__ import annotations

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.order import raid_places
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import CARD, MARRY, TPLACE, GreenlandState, Option
from sim.games.greenland.table import marry, present, return_hunters

DISCS = ("energy", "ivory", "iron")


def bribe_options(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> list[Option]:
    """Line 59: ask a tribe on the card to leave peacefully for 1 or 2 discs, a daughter in marriage (line 61
    Exogamy 'if agreed upon during negotiations'), a hand card or an Invention or Domestic Animal card of the
    tableau; at most ``offers_per_card`` offers per tribe and card (ruling G23)."""
    if not state.rules.get("bribes", True) or state.offers[seat] >= int(data.setup["offers_per_card"]):
        return []
    return [
        Option("bribe", card, t, c)
        for t in state.order
        if t != seat and present(state, t, card)
        for c in offer_items(state, data, seat, t, card)
    ]


def offer_items(
    state: GreenlandState, data: GreenlandData, giver: int, taker: int, card: int, public: bool = False
) -> list[int]:
    """What ``giver`` can hand ``taker`` for leaving ``card`` (line 59), as Option.c codes. ``public``: only
    what ``taker`` can see (a counter-offer cannot name a card hidden in the giver's hand)."""
    out = []
    for d, name in enumerate(DISCS):
        have = getattr(state, name)[giver]
        out += [10 * d + k for k in (1, 2) if have >= k]
    if present(state, taker, card):  # one of the taker's tribesmen there marries (line 61)
        married = {c for h in state.husbands for c in h}
        out += [
            MARRY + c for c in state.tableau[giver] if data.tcards[c].kind == "daughter" and c not in married
        ]
    busy = {c - TPLACE for c in raid_places(state)}
    out += [
        CARD + c
        for c in state.tableau[giver]
        if data.tcards[c].kind in ("invention", "animal") and c not in busy and TPLACE + c != card
    ]
    if not public:
        out += [CARD + c for c in state.hands[giver]]
    return out


def accept_bribe(
    state: GreenlandState, data: GreenlandData, briber: int, target: int, card: int, offer: int
) -> None:
    """The target takes the discs, the card (a hand card into its hand, a tableau card into its tableau) or
    the bride (one of its tribesmen on the card becomes her Husband), and all its tribesmen leave the card."""
    if offer >= CARD:
        tcard = offer - CARD
        if tcard in state.hands[briber]:
            state.hands[briber].remove(tcard)
            state.hands[target].append(tcard)  # over the hand size it is discarded at once (G19)
        else:
            state.tableau[briber].remove(tcard)
            state.tableau[target].append(tcard)
            rescore(state)
    elif offer >= MARRY:
        marry(state, target, card, offer - MARRY)
    else:
        name, k = DISCS[offer // 10], offer % 10
        getattr(state, name)[briber] -= k
        getattr(state, name)[target] += k
        rescore(state)
    return_hunters(state, data, target, card)
    state.placed[target].pop(card, None)
    state.stats["bribes"][briber] += 1
    state.stats["bribes_taken"][target] += 1
    if target in state.queue:
        state.queue.remove(target)

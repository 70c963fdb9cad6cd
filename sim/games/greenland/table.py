"""The tribes on the table: where a tribe's tribesmen are, and how they come and go.

Tribesmen only move between their places (unassigned, Hunters, Guards, Raiders, colonists, Husbands, elders,
the Alpha) and Valhalla (line 14): babies come from Valhalla (line 25, ruling G7), the dead go back there.
Also the rows of cards (lines 4, 11), whose tableau holds a card, and the hand limit (reference B.2).
"""

from __future__ import annotations

from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import (
    ALPHA_DEAD,
    ALPHA_HUSBAND,
    ALPHA_POOL,
    TPLACE,
    GreenlandState,
    alpha_bride,
    alpha_rank,
)

#: the elder ranks, rows of the Placard (line 46; elders.toml)
CHIEF, SHAMAN, CRAFTER, WAR_CHIEF, TRACKER, MARINER = range(N_RANKS)


def population(state: GreenlandState, seat: int) -> int:
    """Living tribesmen: unassigned, Hunters (Guards, Raiders), colonists, husbands, elders and the Alpha.

    Tribesmen only move between those places and Valhalla (line 14; the playout tests check it after
    every decision), so the living ones are the tribe's pieces less those in Valhalla, plus the Alpha."""
    return state.pieces[seat] - state.valhalla[seat] + (state.alpha[seat] != ALPHA_DEAD)


def home(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    return data.tribes[state.tribe[seat]].home


def row_of(state: GreenlandState, card: int) -> tuple[int, bool]:
    """(row, cold) of a visible card; (-1, False) if it is not in a row."""
    for row in (0, 1):
        if card in state.warm[row]:
            return row, False
        if card in state.cold[row]:
            return row, True
    return -1, False


def visible(state: GreenlandState) -> list[int]:
    """Cards in the rows, North then South, warm side then cold, nearest the deck first."""
    return state.warm[0] + state.cold[0] + state.warm[1] + state.cold[1]


def has(state: GreenlandState, data: GreenlandData, seat: int, attr: str) -> int:
    """How many ``attr`` icons (sled, transport, vp, ...) the seat's tableau shows."""
    count = data.icons[attr]
    return sum([count[c] for c in state.tableau[seat]])


def mariners(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """Mariners (rank 6, line 46) plus boat icons in the tableau (reference B.2)."""
    return state.elders[seat][MARINER] + has(state, data, seat, "transport")


def owner(state: GreenlandState, tcard: int) -> int:
    """The seat whose tableau holds ``tcard`` (-1 none)."""
    for seat, cards in enumerate(state.tableau):
        if tcard in cards:
            return seat
    return -1


def guarding(state: GreenlandState, seat: int, place: int) -> bool:
    """Line 53: a tribe guards its own daughters and livestock, and daughters it is married to."""
    tcard = place - TPLACE
    return owner(state, tcard) == seat or state.husbands[seat].get(tcard, 0) > 0


def present(state: GreenlandState, seat: int, card: int) -> int:
    return state.hunters[seat].get(card, 0) + state.colonists[seat].get(card, 0) + (state.alpha[seat] == card)


def colony(data: GreenlandData, card: int) -> bool:
    """A New World card: tribesmen sent there are colonists for good (line 50)."""
    return card < TPLACE and data.biomes[card].new_world


def living(state: GreenlandState) -> list[int]:
    return [s for s in range(state.n_players) if state.alive[s]]


def to_valhalla(state: GreenlandState, seat: int, k: int) -> None:
    if k:
        state.valhalla[seat] += k
        rescore(state)


def babies(state: GreenlandState, data: GreenlandData, seat: int, k: int) -> int:
    """New unassigned tribesmen (line 25), the tribe's own pieces from Valhalla (ruling G7)."""
    if data.hunt["babies_from_valhalla"]:
        k = min(k, state.valhalla[seat])
        state.valhalla[seat] -= k
    else:
        state.pieces[seat] += k  # new pieces, beyond the box's
    if k:
        rescore(state)
    state.pool[seat] += k
    state.stats["babies"][seat] += k
    return k


def kill_elder(state: GreenlandState, seat: int, rank: int = -1, alpha: bool = True) -> bool:
    """An elder dies (to Valhalla): the given rank, else the highest rank number present (ruling G11); in
    the rank of a promoted Alpha an ordinary elder dies first, the Alpha only when it is alone there (G20),
    and never with ``alpha`` false. False if no elder died."""
    ranks = [rank] if rank >= 0 else list(range(N_RANKS - 1, -1, -1))
    for r in ranks:
        if state.elders[seat][r] > 0:
            if state.elders[seat][r] == 1 and alpha_rank(state.alpha[seat]) == r:
                if not alpha:
                    continue
                kill_alpha(state, seat)
            else:
                state.elders[seat][r] -= 1
                to_valhalla(state, seat, 1)
            return True
    return False


def kill_alpha(state: GreenlandState, seat: int) -> None:
    """The Alpha dies, wherever it is (a promoted or married Alpha leaves its rank or its daughter's
    exogamy box); it is not one of the tribesmen in Valhalla that babies come from (ruling G7)."""
    a = state.alpha[seat]
    if alpha_rank(a) >= 0:
        state.elders[seat][alpha_rank(a)] -= 1
    elif alpha_bride(a) >= 0:
        take_one(state.husbands[seat], alpha_bride(a))
    state.alpha[seat] = ALPHA_DEAD
    rescore(state)


def take_one(where: dict[int, int], key: int) -> None:
    """One tribesman fewer in ``where[key]`` (the key goes with the last one)."""
    where[key] -= 1
    if not where[key]:
        del where[key]


def lose_hunters(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, k: int, alpha_first: bool = False
) -> int:
    """Casualties on a card: Hunters, then colonists, the Alpha last, unless the chooser took the Alpha
    (line 62 'of the victim's choice'; ruling G10: the Alpha is the only tribesman who differs)."""
    lost = 0
    if alpha_first and k > 0 and state.alpha[seat] == card:
        kill_alpha(state, seat)
        lost += 1
    for where in (state.hunters[seat], state.colonists[seat]):
        take = min(k - lost, where.get(card, 0))
        if take:
            where[card] -= take
            if not where[card]:
                del where[card]
            to_valhalla(state, seat, take)
            lost += take
    if lost < k and state.alpha[seat] == card:
        kill_alpha(state, seat)
        lost += 1
    return lost


def return_hunters(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """Line 68: surviving Hunters (not colonists, the Alpha among them) go back to the unassigned pool."""
    state.pool[seat] += state.hunters[seat].pop(card, 0)
    if state.alpha[seat] == card and not colony(data, card):
        state.alpha[seat] = ALPHA_POOL


def marry(state: GreenlandState, seat: int, place: int, daughter: int) -> None:
    """Line 61: one of the tribe's tribesmen on ``place`` becomes a Husband in the exogamy box of
    ``daughter``, for good: an ordinary one, the Alpha (a tribesman, line 55) only when it is there alone."""
    if state.hunters[seat].get(place, 0):
        take_one(state.hunters[seat], place)
    else:
        state.alpha[seat] = ALPHA_HUSBAND - daughter
    state.husbands[seat][daughter] = state.husbands[seat].get(daughter, 0) + 1


def wives(state: GreenlandState) -> set[int]:
    """The daughter cards with a Husband in their exogamy box (line 61)."""
    return {c for h in state.husbands for c in h}


def end_marriage(state: GreenlandState, daughter: int) -> None:
    """A Sabine raid took ``daughter`` from the tribe she was married to (ruling G22): its Husbands in her
    exogamy box, the Alpha among them, go home to its unassigned tribesmen."""
    for seat, husbands in enumerate(state.husbands):
        k = husbands.pop(daughter, 0)
        if k and alpha_bride(state.alpha[seat]) == daughter:
            state.alpha[seat] = ALPHA_POOL
            k -= 1
        state.pool[seat] += k


def check_alive(state: GreenlandState) -> None:
    for seat in range(state.n_players):
        if state.alive[seat] and population(state, seat) == 0:
            state.alive[seat] = False
            rescore(state)
            state.stats["generation_died"][seat] = state.generation


def hand_size(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """Reference B.2: 'Maximum hand size is normally 0! but various cards in the tableau can raise that
    size' (setup.hand_size, tableau cards' ``hand``); the Crafter rank 'raises hand size' (elders.toml)."""
    ranks = sum(1 for r, rank in enumerate(data.ranks) if "hand" in rank.passive and state.elders[seat][r])
    return int(data.setup["hand_size"]) + ranks + has(state, data, seat, "hand")


def check_hands(state: GreenlandState, data: GreenlandData) -> None:
    for seat in range(state.n_players):
        if state.hands[seat]:
            check_hand(state, data, seat)


def check_hand(state: GreenlandState, data: GreenlandData, seat: int) -> None:
    """Reference B.2: 'Should your hand ever go above this maximum size, cards must be immediately
    discarded' (ruling G19: the cards drawn last go first; with the packaged data the size only ever drops to
    0, so there is nothing to choose)."""
    limit = hand_size(state, data, seat)
    while len(state.hands[seat]) > limit:
        state.discards.append(state.hands[seat].pop())
        state.stats["discarded"][seat] += 1

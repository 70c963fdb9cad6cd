"""Player order (lines 29-34) and the seat (or, in an auction or the set-up, seats) to move now."""

from __future__ import annotations

from sim.games.greenland.data import COLOURS, GreenlandData
from sim.games.greenland.state import (
    ASSIGN,
    BID,
    DOMESTIC,
    ELDER,
    HUNT,
    MONO,
    NEGOTIATE,
    OVER,
    POLY,
    SETUP,
    SUNSTONE,
    TPLACE,
    GreenlandState,
)
from sim.games.greenland.table import guarding, owner, present, visible


def player_order(state: GreenlandState, data: GreenlandData, colour: str) -> list[int]:
    """Line 31: the event's colour first, then the next colour in line (ruling G1 for absent colours)."""
    line = list(data.setup["colour_line"])
    start = line.index(colour)
    seats_by_colour = {COLOURS[t]: seat for seat, t in enumerate(state.tribe)}
    order = []
    for k in range(len(line)):
        c = line[(start + k) % len(line)]
        if c in seats_by_colour and state.alive[seats_by_colour[c]]:
            order.append(seats_by_colour[c])
    return order


def iron_order(state: GreenlandState, seats: list[int]) -> list[int]:
    """Line 32: most iron first; ties in the order of phases 1, 2 and 5."""
    pos = {s: i for i, s in enumerate(state.order)}
    return sorted(seats, key=lambda s: (-state.iron[s], pos.get(s, 99)))


def hunt_order(state: GreenlandState, data: GreenlandData) -> list[tuple[int, int]]:
    """Every hunt of the generation, cards in row order (the first player may take them in any order,
    ``card_hunters``): on a card the fewest tribesmen roll first, ties in player order (line 33)."""
    return [(card, s) for card in visible(state) + raid_places(state) for s in card_hunters(state, card)]


def card_hunters(state: GreenlandState, card: int) -> list[int]:
    """Line 33: the seats that roll on ``card``, fewest tribesmen first, ties in player order; on a tableau
    card only Raiders roll (line 70; Guards fought in phase F)."""
    pos = {s: i for i, s in enumerate(state.order)}
    seats = [s for s in state.order if present(state, s, card)]
    if card >= TPLACE:
        seats = [s for s in seats if s != owner(state, card - TPLACE) and not guarding(state, s, card)]
    return sorted(seats, key=lambda s: (present(state, s, card), pos[s]))


def raid_places(state: GreenlandState) -> list[int]:
    """Tableau cards with tribesmen on them (Guards, Raiders, the Alpha too), in card order."""
    return sorted(
        {c for h in state.hunters for c in h if c >= TPLACE} | {a for a in state.alpha if a >= TPLACE}
    )


def elder_order(state: GreenlandState) -> list[int]:
    """Line 34: polytheists first, then monotheists, each in player order."""
    return [s for s in state.order if state.religion[s] == POLY] + [
        s for s in state.order if state.religion[s] == MONO
    ]


def bidders(state: GreenlandState) -> list[int]:
    return [s for s in state.order if state.ivory[s] > 0]


def picker(state: GreenlandState) -> int:
    """The seat that picks the next card (ruling G8); if it has died out, the next living seat in order."""
    if state.alive[state.lead]:
        return state.lead
    return next(s for s in state.order if state.alive[s])


def current(state: GreenlandState) -> int:
    if state.phase in (ASSIGN, SUNSTONE, DOMESTIC):
        return state.order[state.idx]
    if state.phase == ELDER:
        return elder_order(state)[state.idx]
    if state.kills >= 0:
        return state.killer
    if state.phase == NEGOTIATE:
        if state.contest < 0:
            return picker(state)
        if state.counter >= 0:
            return state.attacker  # the briber answers the counter-offer
        return state.target if state.target >= 0 else state.queue[0]
    if state.phase == HUNT:
        return state.hunts[state.idx][1] if state.hunts else picker(state)
    return -1


def to_move(state: GreenlandState) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == BID:
        return tuple(bidders(state))
    if state.phase == SETUP:
        return tuple(state.queue)
    return (current(state),)

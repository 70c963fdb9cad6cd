"""From phase to phase (lines 20-27): a phase starts at its first decision, and when nothing is left to
decide the next one starts; the game ends with one culture left (line 5) or after the last generation.

The phases form a ring (the event's icons lead to the assignment, the last contest to the hunt, the last
hunt to the domestic animals, the elders to the next event), so this module and the phases that end by
starting the next (``events``, ``negotiation``, ``hunt``) import each other as modules and call through
them (``flow.enter``): that works whichever of them is imported first.
"""

from __future__ import annotations

from sim.games.greenland import events, hunt, negotiation
from sim.games.greenland.animals import domestic_options, upkeep
from sim.games.greenland.assignment import assign_options, sunstone_options
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.elders import elder_options
from sim.games.greenland.order import card_hunters, elder_order, iron_order, raid_places
from sim.games.greenland.state import (
    ASSIGN,
    DOMESTIC,
    ELDER,
    HUNT,
    NEGOTIATE,
    OVER,
    SUNSTONE,
    GreenlandState,
)
from sim.games.greenland.table import check_alive, check_hands, living, visible


def end_if_decided(state: GreenlandState, data: GreenlandData) -> bool:
    """Line 5 'or be the sole remaining culture': with one culture left (or none) the game is over."""
    alive = living(state)
    if not alive or (state.n_players > 1 and len(alive) <= 1 and data.end["end_when_one_left"]):
        state.phase = OVER
        return True
    return False


def enter(state: GreenlandState, data: GreenlandData, phase: int) -> None:
    """Start ``phase`` and skip to the first decision (a phase with nothing to decide passes by itself)."""
    check_alive(state)
    check_hands(state, data)
    if end_if_decided(state, data):
        return
    state.order = [s for s in state.order if state.alive[s]]
    state.phase = phase
    state.idx = 0
    state.moves = 0
    if phase == NEGOTIATE:
        state.contests = negotiation.contested(state, data)
        state.contest = -1
        state.stage = 0
        state.queue = []
        # line 32: the player with the most iron determines the order of negotiations between cards
        state.lead = iron_order(state, state.order)[0]
        negotiation.next_contest(state, data)
        return
    if phase == HUNT:
        state.left_cards = [c for c in visible(state) + raid_places(state) if card_hunters(state, c)]
        state.lead = state.order[0]  # line 33 'The first player decides which card is hunted first'
        state.hunts, state.idx = [], 0
        hunt.next_hunt(state, data)
        return
    advance(state, data)


#: the options of the phases whose seats decide one after another (``advance``); a casualty
#: decision (``rules.options``) is only ever pending in phases F and G
SEQUENTIAL = {
    ASSIGN: assign_options,
    SUNSTONE: sunstone_options,
    DOMESTIC: domestic_options,
    ELDER: elder_options,
}


def advance(state: GreenlandState, data: GreenlandData) -> None:
    """Move ``idx`` to the next seat of a sequential phase that has something to decide."""
    seats = elder_order(state) if state.phase == ELDER else state.order
    while state.idx < len(seats):
        seat = seats[state.idx]
        if state.alive[seat] and len(SEQUENTIAL[state.phase](state, data, seat)) > 1:
            return
        state.idx += 1
        state.moves = 0
    following = {ASSIGN: SUNSTONE, SUNSTONE: NEGOTIATE, DOMESTIC: ELDER}
    if state.phase == DOMESTIC:
        upkeep(state, data)
    if state.phase in following:
        enter(state, data, following[state.phase])
    elif state.phase == ELDER:
        end_generation(state, data)


def end_generation(state: GreenlandState, data: GreenlandData) -> None:
    """After phase I (line 27): the next generation's event, unless the game is over (line 5, the last
    generation or the event deck empty)."""
    check_alive(state)
    if end_if_decided(state, data):
        return
    if state.generation >= int(data.end["generations"]) or not state.events:
        state.phase = OVER
        return
    state.generation += 1
    events.start_generation(state, data)

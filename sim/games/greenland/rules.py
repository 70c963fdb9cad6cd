"""Greenland (third edition) rules: greenland-third-edition.txt (LINE numbers) and, where the text stops,
the reference notes (``../shared/reference/greenland-third-edition.md``, section B.x) through the data files.

Rulings (G1...) are in RULINGS.md. The rules are split by their jobs: ``setup`` (lines 9-16), the six
phases of a generation (``events``, ``assignment``, ``negotiation`` with ``bribes``, ``hunt``, ``animals``,
``elders``; lines 20-27) and ``flow`` from one phase to the next; what they share is in ``table`` (the
tribesmen and where they are), ``transport``, ``dice``, ``order`` (player order, who moves) and
``scoring``. This module keeps the dispatch the game calls: ``to_move``, ``options`` and ``apply``; it
also re-exports the names the game, the view and the tests read from here.
"""

from __future__ import annotations

from typing import Any

from sim.errors import IllegalChoice
from sim.games.greenland.animals import breed, domestic_options, pacify, upkeep
from sim.games.greenland.assignment import assign, assign_options, sunstone_options
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.dice import (
    ALPHA_FLAG,
    DICE_KINDS,
    IRON_FLAG,
    Roll,
    faces,
    pack,
    peek_dice,
    preview,
    roll_hunt,
)
from sim.games.greenland.elders import convert, elder_action, elder_options, table_card
from sim.games.greenland.events import resolve_auction, start_generation
from sim.games.greenland.flow import advance, end_if_decided, enter
from sim.games.greenland.hunt import hunt_move, hunt_options, next_hunt, resolve_hunt
from sim.games.greenland.negotiation import contested, finish_negotiation, negotiate, negotiation_options
from sim.games.greenland.order import current, elder_order, hunt_order, iron_order, player_order, to_move
from sim.games.greenland.scoring import current_scores, rescore, score, scores
from sim.games.greenland.setup import new_game, setup
from sim.games.greenland.state import (
    ASSIGN,
    BID,
    DOMESTIC,
    ELDER,
    HUNT,
    NEGOTIATE,
    OVER,
    SETUP,
    SUNSTONE,
    GreenlandState,
    Option,
)
from sim.games.greenland.table import (
    MARINER,
    WAR_CHIEF,
    babies,
    check_alive,
    check_hand,
    check_hands,
    hand_size,
    home,
    kill_elder,
    population,
)

__all__ = [
    "ALPHA_FLAG",
    "DICE_KINDS",
    "IRON_FLAG",
    "MARINER",
    "SUNSTONE",
    "WAR_CHIEF",
    "Roll",
    "act",
    "apply",
    "apply_one",
    "assign_options",
    "babies",
    "check_alive",
    "check_hand",
    "contested",
    "current",
    "current_scores",
    "elder_order",
    "end_if_decided",
    "enter",
    "faces",
    "finish_negotiation",
    "hand_size",
    "home",
    "hunt_order",
    "iron_order",
    "kill_elder",
    "new_game",
    "next_hunt",
    "options",
    "pack",
    "peek_dice",
    "player_order",
    "population",
    "preview",
    "rescore",
    "resolve_hunt",
    "roll_hunt",
    "score",
    "scores",
    "setup",
    "start_generation",
    "to_move",
    "upkeep",
]

#: the decisions of phases D-I that are one seat's, one after another (``options``, past the casualties)
PHASE_OPTIONS = {
    NEGOTIATE: negotiation_options,
    HUNT: hunt_options,
    DOMESTIC: domestic_options,
    ELDER: elder_options,
}


def options(state: GreenlandState, data: GreenlandData, seat: int, check: bool = True) -> list[Option]:
    """The seat's legal options now (none when, with ``check``, it is not to move): a bid for the trade
    ship's good (line 22, ruling G3), a starting farm animal (line 13), then the phase's own decisions."""
    if state.phase == OVER or (check and seat not in to_move(state)):
        return []
    phase = state.phase
    if phase == BID:
        return [Option("bid", k) for k in range(state.ivory[seat] + 1)]
    if phase == SETUP:
        return [Option("animal", c) for c in data.tribes[state.tribe[seat]].animals]
    if phase == ASSIGN:
        return assign_options(state, data, seat)
    if phase == SUNSTONE:
        return sunstone_options(state, data, seat)
    if state.kills >= 0:  # line 62 'of the victim's choice' (ruling G10): does the Alpha die?
        card = state.contest if phase == NEGOTIATE else state.hunts[state.idx][0]
        return [Option("casualty", card, 0), Option("casualty", card, 1)]
    phase_options = PHASE_OPTIONS.get(phase)
    return phase_options(state, data, seat) if phase_options else []


def apply(state: GreenlandState, data: GreenlandData, choices: dict[int, Any]) -> None:
    """Check every seat's choice (``IllegalChoice`` names the seat at fault), then play them: the
    auction's bids together (ruling G3), the farm animals together (line 13), else the one decision."""
    for seat, option in choices.items():
        legal = options(state, data, seat)
        try:
            ok = option in legal
        except Exception:  # noqa: BLE001 - any comparison failure means the option is not ours
            ok = False
        if not ok:
            raise IllegalChoice(f"{option!r} is not a legal option now", seat=seat)
    if state.phase == BID:
        resolve_auction(state, data, {s: Option(*o).a for s, o in choices.items()})
    elif state.phase == SETUP:
        for s in sorted(choices):
            state.tableau[s].append(Option(*choices[s]).a)
        rescore(state)
        state.queue = []
        start_generation(state, data)
    else:
        ((seat, option),) = choices.items()
        apply_one(state, data, seat, Option(*option))
    check_alive(state)
    check_hands(state, data)


def apply_one(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """One seat's decision: in a sequential phase (E, its Sun Stone moves, H, I) an action or ``done``, then
    on to the next seat with something to decide (``advance``); phase F's and G's their own way."""
    phase = state.phase
    if phase in (ASSIGN, SUNSTONE, DOMESTIC, ELDER):
        if o.kind == "done":
            state.idx += 1
            state.moves = 0
        else:
            act(state, data, seat, o)
        if state.phase == phase:
            advance(state, data)
    elif phase == NEGOTIATE:
        negotiate(state, data, seat, o)
    elif phase == HUNT:
        hunt_move(state, data, seat, o)


#: what each action of a sequential phase does (``act``)
ACTS = {
    "hunt": assign,
    "guard": assign,
    "raid": assign,
    "promote": assign,
    "alpha": assign,
    "move": assign,
    "breed": breed,
    "pacify": pacify,
    "elder": elder_action,
    "table": table_card,
    "convert": convert,
}


def act(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """An action of phase E (lines 42-55, Sun Stone line 54), H (line 26) or I (line 27, ruling G19); then a
    tribe may have died out, or its hand be over its size (reference B.2)."""
    step = ACTS.get(o.kind)
    if step is not None:
        step(state, data, seat, o)
    check_alive(state)
    check_hands(state, data)

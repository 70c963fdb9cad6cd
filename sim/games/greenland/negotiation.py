"""Phase 3, Negotiate and attack (F; lines 57-64): contested cards, staying, withdrawing, attacks.

The bargains themselves are in ``bribes``; the last card settled, the hunt starts (``flow.enter``).
"""

from __future__ import annotations

from sim.games.greenland import flow
from sim.games.greenland.bribes import accept_bribe, bribe_options, offer_items
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.dice import Roll, alpha_at_stake, attack_dice, roll_attack, take_dice
from sim.games.greenland.order import iron_order, raid_places
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import HUNT, TPLACE, GreenlandState, Option
from sim.games.greenland.table import WAR_CHIEF, lose_hunters, present, return_hunters, visible


def contested(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Cards (not the inexhaustible New World, line 49) with tribesmen of two or more tribes."""
    if not state.rules.get("advanced", True):
        return []
    return [
        c
        for c in visible(state) + raid_places(state)
        if (c >= TPLACE or not data.biomes[c].new_world)
        and sum(1 for s in state.order if present(state, s, c)) >= 2
    ]


def tribes_on(state: GreenlandState, card: int) -> list[int]:
    return [s for s in state.order if present(state, s, card)]


def open_contest(state: GreenlandState, card: int) -> None:
    state.contests.remove(card)
    state.contest = card
    state.offers = [0] * state.n_players
    state.stage = 0
    state.queue = iron_order(state, [s for s in state.order if present(state, s, card)])


def next_contest(state: GreenlandState, data: GreenlandData) -> None:
    """Line 32: the most-iron player picks the next contested card; on it, in iron order, every tribe stays
    or withdraws (or bargains, line 59); then, unless all but one left, each attacks once (line 62)."""
    state.target = state.attacker = state.bribe = state.counter = -1
    while True:
        if state.queue:
            card = state.contest
            others = [s for s in state.order if s != state.queue[0] and present(state, s, card)]
            seat = state.queue[0]
            if not present(state, seat, card) or not others:
                state.queue.pop(0)
                continue
            if state.stage == 0:
                return  # stay / withdraw decision
            targets = others
            if len(targets) == 1:
                state.attacker, state.target = seat, targets[0]
            return  # attack decision (or the target's defend decision)
        if state.stage == 0 and state.contest >= 0:
            card = state.contest
            there = [s for s in state.order if present(state, s, card)]
            if len(there) >= 2:  # line 32 'Unless all but one player's tribesmen leave a card ... attack'
                state.stage = 1
                state.queue = iron_order(state, there)
                continue
        state.contest, state.stage = -1, 0
        state.contests = [
            c for c in state.contests if sum(1 for s in state.order if present(state, s, c)) >= 2
        ]
        if not state.contests:
            finish_negotiation(state, data)
            return
        if len(state.contests) > 1:
            return  # the lead's ``pick`` decision (ruling G8)
        open_contest(state, state.contests[0])


def finish_negotiation(state: GreenlandState, data: GreenlandData) -> None:
    """Line 63: a peaceful New World card with more than 6 colonists turns hostile."""
    state.queue = []
    if state.rules.get("advanced", True):
        for row in (0, 1):
            card = data.new_world(row)
            total = sum(
                state.colonists[s].get(card, 0) + (state.alpha[s] == card) for s in range(state.n_players)
            )
            if card not in state.hostile and total > int(data.setup["hostile_above"]):
                state.hostile.append(card)
    flow.enter(state, data, HUNT)


def negotiation_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Phase F's decisions (lines 57-64): the next contested card, stay, withdraw or bargain (line 59),
    answer an offer or a counter-offer (ruling G23), attack (line 62), defend with iron (line 64)."""
    if state.contest < 0:  # line 32: the most-iron player picks the next card
        return [Option("pick", c) for c in state.contests]
    card = state.contest
    if state.counter >= 0:  # the briber answers the counter-offer (ruling G23)
        return [Option("accept", card, -1, state.counter), Option("refuse", card, -1, state.counter)]
    if state.bribe >= 0:  # line 59: the tribe asked to leave answers, or names its own price
        counters = [
            Option("counter", card, -1, c)
            for c in offer_items(state, data, state.attacker, seat, card, public=True)
            if c != state.bribe
        ]
        return [
            Option("accept", card, -1, state.bribe),
            Option("refuse", card, -1, state.bribe),
            *counters,
        ]
    if state.target >= 0:
        iron = (
            [Option("defend", card, 1, state.attacker)]
            if state.iron[seat] >= int(data.setup["iron_rule_cost"])
            else []
        )
        return [Option("defend", card, 0, state.attacker), *iron]
    if state.stage == 0:
        return [Option("stay", card), Option("withdraw", card), *bribe_options(state, data, seat, card)]
    return [Option("attack", card, t) for t in state.order if t != seat and present(state, t, card)]


def negotiate(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    card = o.a
    if o.kind == "pick":
        open_contest(state, card)
    elif o.kind == "withdraw":
        return_hunters(state, data, seat, card)
        state.placed[seat].pop(card, None)
        state.stats["withdrawals"][seat] += 1
        state.queue.pop(0)
    elif o.kind == "stay":
        state.queue.pop(0)
    elif o.kind == "attack":
        state.attacker, state.target = seat, o.b
        return
    elif o.kind == "defend":
        resolve_attack(state, data, state.attacker, seat, card, bool(o.b))
        if state.kills >= 0:
            return  # the casualties are chosen first (G10)
        state.queue.pop(0)
    elif o.kind == "casualty":
        lost = lose_hunters(state, data, state.victim, card, state.kills, bool(o.b))
        state.stats["kills_inflicted"][state.attacker] += lost
        state.kills, state.killer, state.victim = -1, -1, -1
        state.queue.pop(0)
    elif o.kind == "bribe":
        state.attacker, state.target, state.bribe = seat, o.b, o.c
        state.offers[seat] += 1
        return
    elif o.kind == "counter":
        state.counter = o.c
        return
    elif o.kind in ("accept", "refuse"):
        if o.kind == "accept":
            accept_bribe(state, data, state.attacker, state.target, card, o.c)
        # the briber's turn on this card goes on: another offer, stay or withdraw (ruling G23)
    next_contest(state, data)


def war_party(state: GreenlandState, attacker: int) -> bool:
    """Line 62 'Except for War Parties, each will kill one tribesman of the victim's choice' (ruling G24): an
    attack by a tribe with a War Chief (rank 4, line 52) is a War Party, whose hits kill tribesmen of the
    attacker's choice."""
    return (
        state.rules.get("war_parties", "war_chief") == "war_chief" and state.elders[attacker][WAR_CHIEF] > 0
    )


def resolve_attack(
    state: GreenlandState, data: GreenlandData, attacker: int, victim: int, card: int, iron: bool
) -> Roll:
    """Line 62: the attacker rolls; each hit kills one tribesman of the victim's choice (G10), a War Party's
    of the attacker's choice (G24), unless the victim spent iron before the roll (line 64)."""
    faces = take_dice(state, data, attack_dice(state, data, attacker, card))
    roll = roll_attack(state, data, attacker, card, faces)
    state.stats["attacks"][attacker] += 1
    state.target = -1
    if iron:  # line 64: the victim spends 1 iron before the roll to cancel all casualties
        state.iron[victim] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][victim] += 1
        rescore(state)
    elif alpha_at_stake(state, victim, card, roll.killed, present(state, victim, card)):
        chooser = attacker if war_party(state, attacker) else victim
        state.kills, state.killer, state.victim = roll.killed, chooser, victim
        return roll  # the attacker stays recorded until the casualties are chosen
    else:
        state.stats["kills_inflicted"][attacker] += lose_hunters(state, data, victim, card, roll.killed)
    state.attacker = -1
    return roll

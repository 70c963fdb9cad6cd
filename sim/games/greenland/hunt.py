"""Phase 4, Roll for hunt (G; lines 66-73): the hunts in order, rolls and re-rolls, rewards, raids (line 70).

The last hunt done, the domestic animals phase starts (``flow.enter``).
"""

from __future__ import annotations

from sim.games.greenland import flow
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.dice import (
    ALPHA_FLAG,
    IRON_FLAG,
    Roll,
    alpha_at_stake,
    dice_count,
    reroll_count,
    take_dice,
    tally,
)
from sim.games.greenland.order import card_hunters
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import DOMESTIC, TPLACE, GreenlandState, Option
from sim.games.greenland.table import (
    babies,
    check_alive,
    end_marriage,
    lose_hunters,
    marry,
    owner,
    present,
    return_hunters,
    row_of,
)


def next_hunt(state: GreenlandState, data: GreenlandData) -> None:
    """Skip hunts with nobody left, and hunts on a card someone already won (line 49, ruling G6); between
    cards the first player picks the next card to hunt (line 33, ruling G8)."""
    while True:
        while state.idx < len(state.hunts):
            card, seat = state.hunts[state.idx]
            if not present(state, seat, card) or not state.alive[seat]:
                state.idx += 1
                continue
            if (
                card in state.won
                and (card >= TPLACE or not data.biomes[card].new_world)
                and data.hunt["one_success_per_card"]
                and state.rules.get("contest_success", "first") == "first"
            ):
                return_hunters(state, data, seat, card)
                state.idx += 1
                continue
            return
        state.hunts, state.idx = [], 0
        state.left_cards = [c for c in state.left_cards if card_hunters(state, c)]
        if not state.left_cards:
            break
        if len(state.left_cards) > 1:
            return  # the first player's ``pick`` decision
        open_hunt(state, state.left_cards[0])
    for seat in range(state.n_players):  # Guards (and anyone left on a tableau card) go home
        for place in {c for c in (*state.hunters[seat], state.alpha[seat]) if c >= TPLACE}:
            return_hunters(state, data, seat, place)
    check_alive(state)
    flow.enter(state, data, DOMESTIC)


def open_hunt(state: GreenlandState, card: int) -> None:
    state.left_cards.remove(card)
    state.hunts = [(card, s) for s in card_hunters(state, card)]
    state.idx = 0


def hunt_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Phase G's decisions (lines 66-73): the next card, a roll (with the Alpha's hit, line 55, or iron,
    line 64), a re-roll or keeping the dice (line 71)."""
    if not state.hunts:  # line 33: the first player picks the next card
        return [Option("pick", c) for c in state.left_cards]
    card = state.hunts[state.idx][0]
    if state.rerolls > 0:  # line 71: one re-roll on a die showing this face, or keep the dice
        return [*(Option("reroll", card, f) for f in sorted(set(state.dice))), Option("keep", card)]
    out = [Option("roll", card, 0)]
    if state.alpha[seat] == card and card < TPLACE:  # line 55 'when used as a Hunter' (not a Raider)
        out.append(Option("roll", card, ALPHA_FLAG))
    if state.rules.get("advanced", True) and state.iron[seat] >= int(data.setup["iron_rule_cost"]):
        out += [Option("roll", card, o.b | IRON_FLAG) for o in list(out)]
    return out


def hunt_move(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """A phase G decision: pick the next card (line 33), roll (line 68), re-roll or keep (line 71), choose
    the casualties (ruling G10); a seat's hunt over, on to the next (``next_hunt``)."""
    card = o.a
    if o.kind == "pick":
        open_hunt(state, card)
    elif o.kind == "roll":
        start_roll(state, data, seat, card, o.b)
    elif o.kind == "reroll":
        reroll_die(state, data, seat, card, o.b)
    elif o.kind == "keep":
        end_roll(state, data, seat, card)
    elif o.kind == "casualty":
        settle_hunt(state, data, state.victim, card, bool(o.b))
    if o.kind == "pick" or (state.rerolls < 0 and state.kills < 0):
        if o.kind != "pick":
            state.idx += 1  # this seat's hunt on the card is over
        next_hunt(state, data)


def start_roll(state: GreenlandState, data: GreenlandData, seat: int, card: int, flags: int) -> None:
    """The ``roll`` decision: the iron is paid before the roll (line 64), the dice are rolled (line 68);
    with re-rolls (line 71) the player decides on them, else the hunt is settled."""
    if flags & IRON_FLAG:
        state.iron[seat] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][seat] += 1
        rescore(state)
    n = dice_count(state, seat, card, flags)
    state.dice = take_dice(state, data, n)
    state.flags = flags
    state.rerolls = reroll_count(state, data, seat, card, n)
    if state.rerolls <= 0:
        end_roll(state, data, seat, card)


def reroll_die(state: GreenlandState, data: GreenlandData, seat: int, card: int, face: int) -> None:
    """Line 71: one re-roll, on a die showing ``face`` (the player's choice, ruling G9)."""
    state.dice[state.dice.index(face)] = take_dice(state, data, 1)[0]
    state.rerolls -= 1
    if state.rerolls <= 0:
        end_roll(state, data, seat, card)


def end_roll(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """The dice are final: casualties (the victim's choice when the Alpha rolled, G10), then the hunt."""
    state.rerolls = -1
    _, killed, _ = tally(state, data, seat, card, state.flags, state.dice)
    if alpha_at_stake(state, seat, card, killed, len(state.dice)):
        state.kills, state.killer, state.victim = killed, seat, seat
        return
    settle_hunt(state, data, seat, card, False)


def settle_hunt(state: GreenlandState, data: GreenlandData, seat: int, card: int, alpha_dies: bool) -> Roll:
    """Line 73: attrition first, then the reward; the surviving Hunters go home (line 68)."""
    dice, flags = tuple(state.dice), state.flags
    hits, killed, success = tally(state, data, seat, card, flags, dice)
    state.dice, state.flags, state.kills, state.killer, state.victim = [], 0, -1, -1, -1
    state.stats["raids" if card >= TPLACE else "hunts"][seat] += 1
    state.stats["hunters_killed"][seat] += lose_hunters(state, data, seat, card, killed, alpha_dies)
    roll = Roll(dice, (), hits, killed, int(success))
    if card >= TPLACE:
        if success and present(state, seat, card):  # line 70 'assuming at least one raider survives'
            won_raid(state, data, seat, card)
        return_hunters(state, data, seat, card)
        return roll
    b = data.biomes[card]
    if success and (present(state, seat, card) or not data.hunt["attrition_before_rewards"]):
        state.stats["hunts_won"][seat] += 1
        state.won.append(card)
        babies(state, data, seat, b.babies)
        state.energy[seat] += b.energy
        state.ivory[seat] += b.ivory
        state.iron[seat] += b.iron
        rescore(state)
        if b.trophy and data.hunt["trophy_takes_card"]:
            take_trophy(state, data, seat, card)
    return_hunters(state, data, seat, card)
    return roll


def resolve_hunt(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, flags: int, alpha_dies: bool = False
) -> Roll:
    """A whole hunt roll without re-rolls, settled at once (for tests and tools)."""
    if flags & IRON_FLAG:
        state.iron[seat] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][seat] += 1
        rescore(state)
    state.dice = take_dice(state, data, dice_count(state, seat, card, flags))
    state.flags = flags
    return settle_hunt(state, data, seat, card, alpha_dies)


def won_raid(state: GreenlandState, data: GreenlandData, seat: int, place: int) -> None:
    """Line 70: a Livestock raid takes the animal into the raider's tableau; a Sabine raid turns one Raider
    into a Husband in the daughter's exogamy box, for good (line 61; ruling G22). A married daughter is taken
    from the tribe she was married to: its Husbands go home (``end_marriage``)."""
    tcard = place - TPLACE
    victim = owner(state, tcard)
    state.won.append(place)
    state.stats["raids_won"][seat] += 1
    if data.tcards[tcard].kind == "animal":
        state.tableau[victim].remove(tcard)
        state.tableau[seat].append(tcard)
        rescore(state)
        state.bred[victim] = [c for c in state.bred[victim] if c != tcard]
    else:
        if state.rules.get("married_raids", "takes") == "takes":
            end_marriage(state, tcard)
        marry(state, seat, place, tcard)


def take_trophy(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """Reference B.3.1: the last of a species becomes a Trophy; the deck's top card takes its place (G12)."""
    row, cold = row_of(state, card)
    side = state.cold[row] if cold else state.warm[row]
    i = side.index(card)
    for s in range(state.n_players):  # everyone still there goes home
        return_hunters(state, data, s, card)
    state.trophies[seat].append(card)
    rescore(state)
    if state.decks[row]:
        side[i] = state.decks[row].pop()
    else:
        side.pop(i)

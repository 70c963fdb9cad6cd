"""A Greenland decision in words (``sim.picture``'s protocol): ``describe(state, seat, option)``,
called before the option is applied, names the cards, places, ranks and costs it is about
(greenland-third-edition.txt LINE numbers; rulings G1... in RULINGS.md). ``Option``'s docstring in
``state.py`` says what each kind's fields hold.
"""

from __future__ import annotations

from collections.abc import Callable

from sim.games.greenland.data import ROWS, GreenlandData
from sim.games.greenland.dice import ALPHA_FLAG, IRON_FLAG, dice_count
from sim.games.greenland.picture_shown import PHASE_NAMES, offer_words, tcard_name, tribe_name
from sim.games.greenland.state import NEGOTIATE, TPLACE, GreenlandState, Option
from sim.games.greenland.table import colony, guarding, owner, row_of


def _where(state: GreenlandState, place: int) -> str:
    """A place in words: 'Walrus (North row, warm side)', 'Markland (New World)', 'the Cattle card in seat 1
    (Norse)'s tableau'."""
    data = state.data
    if place >= TPLACE:
        holder = owner(state, place - TPLACE)
        whose = f" in {_seat(state, holder)}'s tableau" if holder >= 0 else ""
        return f"the {tcard_name(data, place - TPLACE)} card{whose}"
    b = data.biomes[place]
    row, cold = row_of(state, place)
    if row < 0:
        return b.name
    side = "New World" if b.new_world else f"{'cold' if cold else 'warm'} side"
    return f"{b.name} ({ROWS[row].capitalize()} row, {side})"


def _seat(state: GreenlandState, seat: int) -> str:
    """'seat 1 (Norse)'."""
    return f"seat {seat} ({tribe_name(state.data, state.tribe[seat])})"


def _rank(data: GreenlandData, r: int) -> str:
    return f"{data.ranks[r].name} (rank {data.ranks[r].rank})"


def _send(state: GreenlandState, seat: int, place: int, who: str) -> str:
    """Lines 42-53: ``who`` goes to ``place``: a promotion (-1 - rank, line 51, for energy), a colony (line
    50), a Guard or a Raider (lines 52-53), or a hunt."""
    data = state.data
    if place < 0:
        cost = int(data.setup["promotion_energy"])
        return f"promotes {who} to {_rank(data, -1 - place)} on its placard for {cost} energy"
    if place >= TPLACE:
        role = "guard" if guarding(state, seat, place) else "raid"
        return f"sends {who} to {role} {_where(state, place)}"
    if colony(data, place):
        return f"sends {who} to {_where(state, place)} as a colonist, for good"
    return f"sends {who} to hunt {_where(state, place)}"


def _move(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 54 (ruling G5): a Sun Stone reassignment."""
    who = "the Alpha" if o.c == 1 else "a tribesman"
    return f"takes {who} off {_where(state, o.a)} with the Sun Stone and " + _send(state, seat, o.b, "it")


def _roll(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 68: one die per Hunter; the Alpha's automatic hit (line 55); the iron rule (line 64)."""
    n = dice_count(state, seat, o.a, o.b)
    verb = "raiding" if o.a >= TPLACE else "hunting"
    text = f"rolls {n} {'die' if n == 1 else 'dice'} {verb} {_where(state, o.a)}"
    if o.b & ALPHA_FLAG:
        text += ", the Alpha taking its automatic hit"
    if o.b & IRON_FLAG:
        text += f", spending {int(state.data.setup['iron_rule_cost'])} iron to cancel all casualties"
    return text


def _defend(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 64: the iron rule before an attack roll."""
    attack = f"{_seat(state, o.c)}'s attack on {_where(state, o.a)}"
    if o.b == 1:
        return f"spends {int(state.data.setup['iron_rule_cost'])} iron against {attack}: no casualties"
    return f"faces {attack} without spending iron"


def _answer(state: GreenlandState, seat: int, o: Option) -> str:
    """Ruling G23: the asked tribe answers an offer, or the asker answers the counter-offer."""
    verb = "accepts" if o.kind == "accept" else "refuses"
    offer, card = offer_words(state.data, o.c), _where(state, o.a)
    if state.counter >= 0:
        return f"{verb} {_seat(state, state.target)}'s price of {offer} for leaving {card}"
    leave = " and leaves" if o.kind == "accept" else ", staying on"
    return f"{verb} {offer} from {_seat(state, state.attacker)}{leave} {card}"


#: an elder's action (elders.toml) as the verb after "uses its Tracker to ..."; others: the name itself
ELDER_VERBS = {"council": "hold council", "burn_witch": "burn a witch", "voyage": "go on a voyage"}


def _elder(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 27: an elder's action (elders.toml): its costs, gains and target, as 'uses its Tracker to
    forage, gaining 1 energy'."""
    data = state.data
    rank, action = data.ranks[o.a], data.ranks[o.a].actions[o.b]
    costs = [
        f"{n} {d}"
        for n, d in ((action.energy, "energy"), (action.ivory, "ivory"), (action.iron, "iron"))
        if n
    ]
    gains = [
        f"{n} {d}"
        for n, d in ((action.gain_energy, "energy"), (action.gain_ivory, "ivory"), (action.gain_iron, "iron"))
        if n
    ]
    what = ELDER_VERBS.get(action.name, action.name)
    if action.name == "domesticate" and o.c >= 0:
        what = f"domesticate the {tcard_name(data, o.c)}"
    elif action.name == "burn_witch" and o.c >= 0:
        what = f"burn a witch (an elder of rank {_rank(data, o.c)} dies)"
    elif action.name == "invent":
        what = "invent (the top Invention goes face down into its hand)"
    text = f"uses its {rank.name} to {what}"
    if gains:
        text += f", gaining {' and '.join(gains)}"
    if costs:
        text += f", for {' and '.join(costs)}"
    return text


def _breed(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 26: a tableau card's babies for its energy, or an elder (ruling G17)."""
    t = state.data.tcards[o.a]
    cost = f"its {state.data.ranks[o.c].name} elder" if o.c >= 0 else f"{t.energy} energy"
    babies = f"{t.babies} bab{'y' if t.babies == 1 else 'ies'}"
    return f"breeds the {tcard_name(state.data, o.a)}: {babies} for {cost}"


def _pick(state: GreenlandState, seat: int, o: Option) -> str:
    """Lines 32-33 (ruling G8): the next card to negotiate or to hunt."""
    if state.phase == NEGOTIATE:
        return f"picks {_where(state, o.a)} as the next contested card to settle"
    return f"picks {_where(state, o.a)} to hunt next"


def _casualty(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 62, ruling G10: whether the Alpha is among the dead."""
    whose = "its" if state.victim == seat else f"{_seat(state, state.victim)}'s"
    where, k = _where(state, o.a), state.kills
    if k == 1:
        return (
            f"lets {whose} Alpha be the one who dies on {where}"
            if o.b
            else (f"spares {whose} Alpha: another tribesman dies on {where}")
        )
    dead = f"the {k} casualties on {where}"
    return f"lets {whose} Alpha die among {dead}" if o.b else f"spares {whose} Alpha among {dead}"


def _keep(state: GreenlandState, seat: int, o: Option) -> str:
    """Line 71 (ruling G9): the dice are final."""
    dice = " ".join(map(str, state.dice))
    return f"keeps the {'die' if len(state.dice) == 1 else 'dice'} {dice} on {_where(state, o.a)}"


def _done(state: GreenlandState, seat: int, o: Option) -> str:
    return f"is done with the {PHASE_NAMES[state.phase]} phase"


#: each kind's words (``Option``'s docstring in state.py says what its fields hold)
WORDS: dict[str, Callable[[GreenlandState, int, Option], str]] = {
    "animal": lambda s, p, o: f"chooses the {tcard_name(s.data, o.a)} as its starting farm animal",
    "hunt": lambda s, p, o: _send(s, p, o.a, "a tribesman"),
    "guard": lambda s, p, o: _send(s, p, o.a, "a tribesman"),
    "raid": lambda s, p, o: _send(s, p, o.a, "a tribesman"),
    "promote": lambda s, p, o: _send(s, p, -1 - o.a, "a tribesman"),
    "alpha": lambda s, p, o: _send(s, p, o.a, "the Alpha"),
    "done": _done,
    "move": _move,
    "stay": lambda s, p, o: f"stays on {_where(s, o.a)}",
    "withdraw": lambda s, p, o: f"withdraws its tribesmen from {_where(s, o.a)} in peace",
    "attack": lambda s, p, o: f"attacks {_seat(s, o.b)} on {_where(s, o.a)}",
    "defend": _defend,
    "roll": _roll,
    "reroll": lambda s, p, o: f"re-rolls a die showing {o.b} on {_where(s, o.a)}",
    "keep": _keep,
    "casualty": _casualty,
    "pick": _pick,
    "bribe": lambda s, p, o: f"asks {_seat(s, o.b)} to leave {_where(s, o.a)} for {offer_words(s.data, o.c)}",
    "counter": lambda s, p, o: f"asks for {offer_words(s.data, o.c)} instead to leave {_where(s, o.a)}",
    "accept": _answer,
    "refuse": _answer,
    "bid": lambda s, p, o: f"bids {o.a} ivory for the trade ship's {tcard_name(s.data, s.offer)}",
    "breed": _breed,
    "pacify": lambda s, p, o: f"pacifies {_where(s, o.a)} for {int(s.data.setup['pacify_ivory'])} ivory",
    "elder": _elder,
    "table": lambda s, p, o: (
        f"puts the {tcard_name(s.data, o.a)} from its hand into its tableau for "
        f"{int(s.data.setup['table_energy'])} energy"
    ),
    "convert": lambda s, p, o: "converts to monotheism, flipping its placard",
}


def describe(state: GreenlandState, seat: int, option: Option | tuple) -> str:
    """What ``seat`` does by choosing ``option`` in ``state`` (before it is applied), in words."""
    o = option if type(option) is Option else Option(*option)
    return WORDS[o.kind](state, seat, o)

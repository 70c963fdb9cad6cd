"""Phase 6, Elder actions (I; line 27): each elder's rank power (elders.toml, ruling G14), a hand card into
the tableau (ruling G19), conversion to monotheism."""

from __future__ import annotations

from sim.games.greenland.animals import untamed
from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import DONE, MONO, POLY, GreenlandState, Option
from sim.games.greenland.table import hand_size, kill_elder


def elder_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 27: each elder acts once with its rank's power (elders.toml, ruling G14); conversion."""
    out = []
    per_elder = state.rules.get("elder_actions", "per_elder") == "per_elder"
    for r, rank in enumerate(data.ranks):
        if state.used[seat][r] >= (state.elders[seat][r] if per_elder else min(1, state.elders[seat][r])):
            continue
        for i, act in enumerate(rank.actions):
            if (
                state.energy[seat] < act.energy
                or state.ivory[seat] < act.ivory
                or state.iron[seat] < act.iron
            ):
                continue
            if act.name == "domesticate":
                out += [Option("elder", r, i, c) for c in untamed(state, data)]
            elif act.name == "burn_witch":
                out += [Option("elder", r, i, k) for k in range(N_RANKS) if state.elders[seat][k]]
            elif act.name == "invent":  # the top Invention into the hand, if it has room (G19)
                if state.inventions and len(state.hands[seat]) < hand_size(state, data, seat):
                    out.append(Option("elder", r, i))
            else:
                out.append(Option("elder", r, i))
    if state.energy[seat] >= int(data.setup["table_energy"]):  # a hand card into the tableau (G19)
        out += [Option("table", c) for c in state.hands[seat]]
    if state.religion[seat] == POLY and (
        state.rules.get("conversion", "no_elders") == "any" or not sum(state.elders[seat])
    ):
        out.append(Option("convert"))
    return [*out, DONE]


def elder_action(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """Line 27: an elder uses its rank's power (elders.toml, ruling G14): its costs and gains, and
    domesticate, burn a witch or invent."""
    action = data.ranks[o.a].actions[o.b]
    state.used[seat][o.a] += 1
    state.stats["elder_actions"][seat] += 1
    state.energy[seat] += action.gain_energy - action.energy
    state.ivory[seat] += action.gain_ivory - action.ivory
    state.iron[seat] += action.gain_iron - action.iron
    if action.gain_ivory != action.ivory or action.gain_iron != action.iron:
        rescore(state)
    if action.name == "domesticate":
        state.tableau[seat].append(o.c)
        rescore(state)
    elif action.name == "burn_witch":
        kill_elder(state, seat, o.c)
    elif action.name == "invent":
        state.hands[seat].append(state.inventions.pop())


def table_card(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """Ruling G19: a hand card goes into the tableau, for energy."""
    state.energy[seat] -= int(data.setup["table_energy"])
    state.hands[seat].remove(o.a)
    state.tableau[seat].append(o.a)
    rescore(state)
    state.stats["tabled"][seat] += 1


def convert(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """Line 27: a tribe (with no elders, by default) converts to monotheism."""
    state.religion[seat] = MONO
    rescore(state)
    state.converted[seat] = state.generation

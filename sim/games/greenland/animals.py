"""Phase 5, Domestic animals (H; line 26): breeding, pacifying a hostile New World, the upkeep at its end
(ruling G16), and the animals a Shaman can still domesticate (line 13, ruling G2)."""

from __future__ import annotations

from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import ALPHA_DEAD, DONE, GreenlandState, Option, alpha_bride
from sim.games.greenland.table import (
    babies,
    kill_alpha,
    kill_elder,
    lose_hunters,
    population,
    present,
    take_one,
    to_valhalla,
)


def domestic_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 26: tableau cards give babies for energy or elders; a hostile New World may be pacified."""
    out = []
    married = {c for h in state.husbands for c in h}
    for c in [c for c in state.tableau[seat] if c not in married] + list(state.husbands[seat]):
        t = data.tcards[c]
        if not t.babies or c in state.bred[seat]:
            continue
        with_energy = state.energy[seat] >= t.energy and (t.either or sum(state.elders[seat]) >= t.elders)
        if t.elders and (t.either or with_energy) and sum(state.elders[seat]) >= t.elders:
            out += [Option("breed", c, -1, r) for r in range(N_RANKS) if state.elders[seat][r]]
        if with_energy and (t.either or not t.elders):
            out.append(Option("breed", c))
    if state.ivory[seat] >= int(data.setup["pacify_ivory"]):
        out += [Option("pacify", c) for c in state.hostile if present(state, seat, c)]
    return [*out, DONE]


def breed(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """Line 26: a tableau card gives its babies for its energy, or for elders (with 'either', one or the
    other)."""
    t = data.tcards[o.a]
    if o.c < 0 or not t.either:  # the energy (line 26); with 'either' the elders instead
        state.energy[seat] -= t.energy
    if o.c >= 0:
        for _ in range(t.elders):
            if not kill_elder(state, seat, o.c):
                kill_elder(state, seat)
    state.bred[seat].append(o.a)
    babies(state, data, seat, t.babies)
    state.stats["bred"][seat] += 1


def pacify(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """Line 26: ivory pacifies a hostile New World card."""
    state.ivory[seat] -= int(data.setup["pacify_ivory"])
    rescore(state)
    state.hostile.remove(o.a)


def upkeep(state: GreenlandState, data: GreenlandData) -> None:
    """Ruling G16 (line 5 'fuel to sustain their children, elders, and livestock'; reference B.3.2): at the
    end of phase H each tribe burns 1 energy per ``upkeep_per`` living tribesmen; each missing energy costs a
    life: an unassigned tribesman, else a colonist, else a Husband, else an elder (highest rank), else the
    Alpha, wherever it is (unassigned, a colonist, an elder or a Husband, ruling G20)."""
    per = int(data.setup["upkeep_per"])
    if state.rules.get("upkeep", "fuel") != "fuel" or per <= 0:
        return
    for seat in state.order:
        due = -(-population(state, seat) // per)
        paid = min(due, state.energy[seat])
        state.energy[seat] -= paid
        for _ in range(due - paid):
            state.stats["starved"][seat] += 1
            if state.pool[seat]:
                state.pool[seat] -= 1
                to_valhalla(state, seat, 1)
            elif state.colonists[seat]:
                card = next(iter(state.colonists[seat]))
                lose_hunters(state, data, seat, card, 1)
            elif not lose_husband(state, seat) and not kill_elder(state, seat, alpha=False):
                if state.alpha[seat] != ALPHA_DEAD:
                    kill_alpha(state, seat)


def lose_husband(state: GreenlandState, seat: int) -> bool:
    """A Husband (not the Alpha) dies, to Valhalla; False if there is none."""
    bride = alpha_bride(state.alpha[seat])
    tcard = next((c for c, k in state.husbands[seat].items() if k > (c == bride)), -1)
    if tcard < 0:
        return False
    take_one(state.husbands[seat], tcard)
    to_valhalla(state, seat, 1)
    return True


def untamed(state: GreenlandState, data: GreenlandData) -> list[int]:
    """The animals a Shaman can domesticate: those whose printed card is in no tableau. Unused Norse animals
    wait 'for possible later use' (line 13); the Sámi start with 'one side of the Sámi farm animal card
    (domestic reindeer or lappget)' (line 13), so the side not chosen is the same card and never a second
    animal. With no Sámi in play their card is unused and either side can be domesticated (ruling G2)."""
    cards = data.tcards
    taken = {cards[c].card for t in state.tableau for c in t}
    return [c for c in data.tcards_of("animal") if cards[c].card not in taken]

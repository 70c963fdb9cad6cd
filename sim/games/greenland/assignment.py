"""Phase 2, Hunter assignment (E; lines 42-55), and the Sun Stone's reassignment after it (line 54)."""

from __future__ import annotations

from functools import cache
from typing import Any

from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.state import ALPHA_ELDER, ALPHA_POOL, DONE, TPLACE, GreenlandState, Option
from sim.games.greenland.table import WAR_CHIEF, colony, guarding, has, take_one, visible, wives
from sim.games.greenland.transport import can_send, sender

#: the same immutable Option for the same fields (options are compared by value, never by identity):
#: cheaper than making one per destination at every assignment
_option = cache(Option)


def assign_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Lines 42-55: each unassigned tribesman, and the Alpha ('treated as a tribesman', line 55), goes to any
    place line 42 allows (``destinations``)."""
    alpha = state.alpha[seat] == ALPHA_POOL
    if not state.pool[seat] and not alpha:
        return [DONE]
    dests = destinations(state, data, seat, sender(state, data, seat))
    out = [tribesman_option(state, seat, d) for d in dests] if state.pool[seat] else []
    if alpha:
        out += [_option("alpha", d) for d in dests]
    out.append(DONE)
    return out


def destinations(state: GreenlandState, data: GreenlandData, seat: int, ok: Any) -> list[int]:
    """Line 42 'A tribesman can be placed on a Biome card (hunting), Placard (promotion), Daughter or
    Livestock (raiding or defense), or in the New World (colonization)': every visible card ``ok`` (the
    transport, lines 46-48) allows, a New World card making a colonist (line 50); -1 - rank, a promotion for
    one energy (line 51); TPLACE + a Daughter or Livestock card, a Guard or a Raider (``tableau_places``)."""
    out = [c for c in visible(state) if ok(c)]
    if state.energy[seat] >= int(data.setup["promotion_energy"]):
        out += [-1 - r for r in range(N_RANKS)]
    if state.rules.get("advanced", True):
        out += tableau_places(state, data, seat, ok)
    return out


def tribesman_option(state: GreenlandState, seat: int, dest: int) -> Option:
    """The assignment of an unassigned tribesman to a place of ``destinations``."""
    if dest < 0:
        return _option("promote", -1 - dest)
    if dest >= TPLACE:
        return _option("guard" if guarding(state, seat, dest) else "raid", dest)
    return _option("hunt", dest)


def tableau_places(state: GreenlandState, data: GreenlandData, seat: int, ok: Any) -> list[int]:
    """Line 52: a Raider on an opponent's Livestock or Daughter card, married or not, needs a War Chief
    (rank 4); line 53: Guards on one's own Daughters and Livestock, or daughters one is married to. Either
    goes only where the transport ``ok`` reaches: a tableau card lies in its owner's homeland (ruling G22)."""
    out = []
    war_chief = state.elders[seat][WAR_CHIEF] > 0
    married = wives(state) if war_chief and state.rules.get("married_raids", "takes") == "off" else set()
    for other in range(state.n_players):
        for c in state.tableau[other]:
            kind = data.tcards[c].kind
            if kind not in ("daughter", "animal"):
                continue
            place = TPLACE + c
            guard = other == seat or state.husbands[seat].get(c, 0)
            if (guard or (war_chief and state.alive[other] and c not in married)) and ok(place):
                out.append(place)
    return out


def sunstone_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 54: 'reassign three of your tribesmen after everyone has assigned all their tribesmen' (ruling
    G5): any tribesman whose assignment is not permanent (Hunters, Guards, Raiders, the Alpha among them, line
    55; not colonists, line 50, elders, line 51, or Husbands, line 61) moves to any place line 42 allows
    (``destinations``), under the same rules as an assignment (transport, War Chief, promotion's energy)."""
    if not has(state, data, seat, "sun_stone") or state.moves >= int(data.setup["sun_stone_moves"]):
        return [DONE]
    sources = [(src, -1) for src, k in state.hunters[seat].items() if k]
    if state.alpha[seat] >= 0 and not colony(data, state.alpha[seat]):
        sources.append((state.alpha[seat], 1))  # the Alpha (c = 1)
    out = []
    for src, alpha in sources:
        placed = dict(state.placed[seat])
        placed[src] = placed.get(src, 0) - 1

        def ok(card: int, placed: dict[int, int] = placed) -> bool:
            return can_send(state, data, seat, card, 1, placed)

        out += [Option("move", src, d, alpha) for d in destinations(state, data, seat, ok) if d != src]
    return [*out, DONE]


def assign(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    """An assignment (lines 42-55) or a Sun Stone move (line 54, ruling G5): a tribesman or the Alpha
    goes to a place (``place``)."""
    kind = o.kind
    if kind in ("hunt", "guard", "raid"):  # lines 42-53
        state.pool[seat] -= 1
        place(state, data, seat, o.a, False)
    elif kind == "promote":  # line 51
        state.pool[seat] -= 1
        place(state, data, seat, -1 - o.a, False)
    elif kind == "alpha":  # line 55: as a tribesman
        place(state, data, seat, o.a, True)
    elif kind == "move":  # line 54 (ruling G5)
        state.placed[seat][o.a] -= 1
        state.moves += 1
        if o.c != 1:  # a tribesman leaves; the Alpha's place is set by ``place``
            take_one(state.hunters[seat], o.a)
        place(state, data, seat, o.b, o.c == 1)


def place(state: GreenlandState, data: GreenlandData, seat: int, dest: int, alpha: bool) -> None:
    """Line 42: one tribesman (with ``alpha``, the Alpha, line 55) goes to ``dest`` (``destinations``): a
    biome card as a Hunter, a New World card as a colonist for good (line 50), a tableau card as a Guard or a
    Raider (lines 52-53), or the Placard (-1 - rank) as an elder for one energy, for good (line 51)."""
    if dest < 0:
        rank = -1 - dest
        state.energy[seat] -= int(data.setup["promotion_energy"])
        state.elders[seat][rank] += 1
        state.stats["promotions"][seat] += 1
        if alpha:
            state.alpha[seat] = ALPHA_ELDER - rank
        return
    state.placed[seat][dest] = state.placed[seat].get(dest, 0) + 1
    settled = colony(data, dest)
    if alpha:
        state.alpha[seat] = dest
    else:
        where = (state.colonists if settled else state.hunters)[seat]
        where[dest] = where.get(dest, 0) + 1
    if settled:
        state.stats["colonists_sent"][seat] += 1
    elif dest >= TPLACE and guarding(state, seat, dest):
        state.stats["guards"][seat] += 1

"""Transport (lines 46-48): which cards need a Mariner, and whether one more tribesman can be sent."""

from __future__ import annotations

from typing import Any

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.state import TPLACE, GreenlandState
from sim.games.greenland.table import has, home, mariners, owner


def needs_transport(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> bool:
    """Lines 46-48: outside the homeland a Mariner is needed, unless a sled (Greenland only). A tableau
    card lies in its owner's homeland (ruling G22)."""
    if card >= TPLACE:
        other = owner(state, card - TPLACE)
        if other < 0 or home(state, data, other) == home(state, data, seat):
            return False
        return not has(state, data, seat, "sled")
    b = data.biomes[card]
    if b.new_world:
        return True  # line 48 'you need a Mariner to go there (sleds do not work)'
    if b.row == home(state, data, seat):
        return False
    return not has(state, data, seat, "sled")  # line 47


def transport_used(state: GreenlandState, data: GreenlandData, seat: int, placed: dict[int, int]) -> int:
    """Mariners needed: one per 4 tribesmen sent to each card that needs transport (line 46, ruling G4)."""
    cap = int(data.setup["mariner_capacity"])
    return sum(-(-k // cap) for c, k in placed.items() if k and needs_transport(state, data, seat, c))


def can_send(
    state: GreenlandState,
    data: GreenlandData,
    seat: int,
    card: int,
    extra: int = 1,
    placed: dict[int, int] | None = None,
) -> bool:
    placed = dict(state.placed[seat] if placed is None else placed)
    if not needs_transport(state, data, seat, card):
        return True
    placed[card] = placed.get(card, 0) + extra
    return transport_used(state, data, seat, placed) <= mariners(state, data, seat)


def sender(state: GreenlandState, data: GreenlandData, seat: int) -> Any:
    """``can_send`` for one more tribesman, with the tribe's transport worked out once (options)."""
    placed = state.placed[seat]
    cap = int(data.setup["mariner_capacity"])
    spare = mariners(state, data, seat) - transport_used(state, data, seat, placed)
    my_home = home(state, data, seat)
    sled = bool(has(state, data, seat, "sled"))
    biomes = data.biomes

    def ok(card: int) -> bool:
        if card >= TPLACE:
            other = owner(state, card - TPLACE)
            if other < 0 or home(state, data, other) == my_home or sled:
                return True
        elif not biomes[card].new_world and (biomes[card].row == my_home or sled):
            return True
        k = placed.get(card, 0)
        return -(-(k + 1) // cap) - -(-k // cap) <= spare

    return ok

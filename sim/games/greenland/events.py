"""Phase 1, Event (D; line 22): the event card, the player order, the icons, a trade ship's auction.

The icons done, the assignment starts (``flow.enter``).
"""

from __future__ import annotations

from sim.games.greenland import flow
from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.order import player_order
from sim.games.greenland.scoring import rescore
from sim.games.greenland.state import ASSIGN, BID, EVENT, GreenlandState
from sim.games.greenland.table import CHIEF, check_alive, has, kill_elder, living, population, to_valhalla


def start_generation(state: GreenlandState, data: GreenlandData) -> None:
    """Phase 1 (line 22): reveal an event, set the player order, apply its icons left to right."""
    state.phase = EVENT
    state.event = state.events.pop()
    state.log.append((state.generation, state.event))
    state.order = player_order(state, data, data.events[state.event].colour)
    state.icon = 0
    for seat in range(state.n_players):
        state.used[seat] = [0] * N_RANKS
        state.bred[seat] = []
        state.placed[seat] = {}
    state.won = []
    run_icons(state, data)


def run_icons(state: GreenlandState, data: GreenlandData) -> None:
    """Line 22 'apply the effects of the event icons from left to right ... If the card shows a Norse trade
    ship, auction its imported good': a ship's auction pauses the icons at its own place (ruling G3); the
    icons to its right follow once the bids are in (``resolve_auction``)."""
    icons = data.events[state.event].icons
    while state.icon < len(icons):
        icon, arg = icons[state.icon]
        state.icon += 1
        if icon == "ship":
            if start_auction(state, data):
                return
        else:
            apply_icon(state, data, icon, arg)
    check_alive(state)
    if flow.end_if_decided(state, data):
        return
    flow.enter(state, data, ASSIGN)


def apply_icon(state: GreenlandState, data: GreenlandData, icon: str, arg: str) -> None:
    """The event icons (events.toml; reference B.3.4): a row's climate or migration (``row_icon``), else an
    icon every living tribe meets (``tribe_icon``), its losses counted."""
    if icon in ("cool", "warm", "migration"):
        row_icon(state, data, icon, ("north", "south").index(arg))
        return
    for seat in living(state):
        before = population(state, seat)
        tribe_icon(state, data, seat, icon, arg)
        state.stats["event_losses"][seat] += before - population(state, seat)


def row_icon(state: GreenlandState, data: GreenlandData, icon: str, row: int) -> None:
    """A row's icons (reference B.3.4): cooling moves its first warm card to the cold side, warming its first
    cold card back; a migration removes its last warm card that is not the New World and deals the deck's
    next card to the warm side."""
    if icon == "cool" and state.warm[row]:
        state.cold[row].insert(0, state.warm[row].pop(0))
    elif icon == "warm" and state.cold[row]:
        state.warm[row].insert(0, state.cold[row].pop(0))
    elif icon == "migration":
        far = [c for c in state.warm[row] if not data.biomes[c].new_world]
        if far:
            state.warm[row].remove(far[-1])
            state.gone.append(far[-1])
            if state.decks[row]:
                state.warm[row].append(state.decks[row].pop())


def tribe_icon(state: GreenlandState, data: GreenlandData, seat: int, icon: str, arg: str) -> None:
    """Decimation (unless a Chief), an elder's death, winter (energy per two elders, unless winter-free),
    plague, a feast (reference B.3.4)."""
    if icon == "decimate":
        if population(state, seat) >= int(arg) and not state.elders[seat][CHIEF]:
            k = state.pool[seat] // 2
            state.pool[seat] -= k
            to_valhalla(state, seat, k)
    elif icon == "elder_death":
        kill_elder(state, seat)
    elif icon == "winter":
        if not has(state, data, seat, "winter_free"):
            due = -(-sum(state.elders[seat]) // 2)
            paid = min(due, state.energy[seat])
            state.energy[seat] -= paid
            for _ in range(due - paid):
                kill_elder(state, seat)
    elif icon == "plague":
        k = state.pool[seat] // 5
        state.pool[seat] -= k
        to_valhalla(state, seat, k)
    elif icon == "feast":
        state.energy[seat] += 1


def start_auction(state: GreenlandState, data: GreenlandData) -> bool:
    """Line 22: a Norse trade ship's imported good is auctioned (for ivory, ruling G3). True if bids are
    due."""
    if not state.imports:
        return False
    state.offer = state.imports.pop()
    if not any(state.ivory[s] > 0 for s in living(state)):
        state.offer = -1  # nobody can bid: the good sails on
        return False
    state.phase = BID
    return True


def resolve_auction(state: GreenlandState, data: GreenlandData, bids: dict[int, int]) -> None:
    best = max(bids.values(), default=0)
    if best > 0:
        winner = next(s for s in state.order if bids.get(s, 0) == best)  # ties: player order (ruling G3)
        state.ivory[winner] -= best
        state.tableau[winner].append(state.offer)
        rescore(state)
        state.stats["imports_won"][winner] += 1
    state.offer = -1
    run_icons(state, data)

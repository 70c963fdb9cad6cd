"""Set-up (lines 9-16): the table before the first event, and the farm animals the Norse and Sami choose."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.greenland.data import N_RANKS, GreenlandData
from sim.games.greenland.events import start_generation
from sim.games.greenland.state import ALPHA_POOL, POLY, SETUP, STATS, GreenlandState


def new_game(data: GreenlandData, n: int, rules: dict[str, Any], seed: int) -> GreenlandState:
    """Set up (lines 9-16); the Norse and Sami choose their farm animal (line 13); then the first event."""
    state = setup(data, n, rules, seed)
    state.queue = choosers(state, data)
    if state.queue:
        state.phase = SETUP
    else:
        start_generation(state, data)
    return state


def choosers(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Seats still to choose their starting farm animal (line 13 'of their choice')."""
    return [
        s
        for s, t in enumerate(state.tribe)
        if data.tribes[t].animals and not any(c in data.tribes[t].animals for c in state.tableau[s])
    ]


def setup(data: GreenlandData, n: int, rules: dict[str, Any], seed: int) -> GreenlandState:
    """The table before the first event (lines 9-16)."""
    rng = np.random.default_rng(seed)
    s = data.setup
    tribes = [int(t) for t in rng.permutation(len(data.tribes))[:n]]  # line 13 'Randomly assign a Placard'
    events = [int(e) for e in rng.permutation(len(data.events))[: int(s["events_in_deck"])]]  # line 9
    decks = []
    for name in ("north", "south"):  # line 10
        deck = data.deck(name)
        rng.shuffle(deck)
        decks.append([int(c) for c in deck])
    warm: list[list[int]] = [[], []]
    for row in (0, 1):  # line 11: six cards each, warm side; line 4: the New World card nearest the deck
        warm[row] = [data.new_world(row)] + [decks[row].pop() for _ in range(int(s["row_size"]))]
    inventions = data.tcards_of("invention")
    imports = data.tcards_of("import")
    rng.shuffle(inventions)
    rng.shuffle(imports)
    total, free = int(s["tribesmen"]), int(s["unassigned"])
    state = GreenlandState(
        n_players=n,
        seed=seed,
        rules=dict(rules),
        rng=rng,
        tribe=tribes,
        events=events,
        decks=decks,
        warm=warm,
        cold=[[], []],
        inventions=[int(c) for c in inventions],
        imports=[int(c) for c in imports],
        pool=[free] * n,
        alpha=[ALPHA_POOL] * n,
        elders=[[1] * N_RANKS for _ in range(n)],
        hunters=[{} for _ in range(n)],
        colonists=[{} for _ in range(n)],
        placed=[{} for _ in range(n)],
        valhalla=[total - free - int(s["elders"])] * n,
        pieces=[total] * n,
        energy=[int(s["energy"])] * n,
        ivory=[int(s["ivory"])] * n,
        iron=[int(s["iron"])] * n,
        tableau=[[] for _ in range(n)],
        husbands=[{} for _ in range(n)],
        hands=[[] for _ in range(n)],
        offers=[0] * n,
        trophies=[[] for _ in range(n)],
        religion=[POLY] * n,
        alive=[True] * n,
        used=[[0] * N_RANKS for _ in range(n)],
        bred=[[] for _ in range(n)],
        converted=[-1] * n,
        stats={k: [0] * n for k in STATS},
    )
    state.stats["generation_died"] = [-1] * n
    if int(s["elders"]) != N_RANKS:  # line 14 'one next to each row'; a user's file may differ
        per, extra = divmod(int(s["elders"]), N_RANKS)
        state.elders = [[per + (r < extra) for r in range(N_RANKS)] for _ in range(n)]
    for seat, t in enumerate(tribes):
        tribe = data.tribes[t]
        state.tableau[seat].extend(tribe.daughters)  # line 13
        if tribe.name == "tunit":  # line 15: 5 colonists on Markland, from Valhalla
            k = min(int(s["tunit_colonists"]), state.valhalla[seat])
            state.valhalla[seat] -= k
            state.colonists[seat][data.new_world(0)] = k
    return state

"""Knarr's set-up (knarr.md A.4), with the skáli expansion's (knarr-skali-expansion.txt:5-16) and the
artifact variant's (A.7): everything before the first turn (``rules.new_game`` starts it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.knarr.data import KnarrData
from sim.games.knarr.state import ARTIFACTS, MEAD_CUP, STATS, KnarrState


def set_up(data: KnarrData, n: int, rules: dict[str, Any], seed: int) -> KnarrState:
    """The table before the first turn. The generator draws in this order: the Viking deck, the Trading
    Lands, the Lands of Influence, the crews' put-back reshuffles, the Buildings, the artifact."""
    rng = np.random.default_rng(seed)
    expansion = bool(rules.get("skali"))
    state = _empty_table(data, n, rules, seed, rng, expansion)
    _deal_destinations(state, data)
    _deal_vikings(state, data, rng)
    if expansion:
        _set_up_expansion(state, data, rng)
    else:
        state.coins = [0] * n
        state.raids = [0] * n
    if rules.get("artifacts"):
        state.artifacts = _draw_artifacts(n, rng)
    return state


def _empty_table(data: KnarrData, n: int, rules: dict[str, Any], seed: int, rng: np.random.Generator,
                 expansion: bool) -> KnarrState:
    """The shuffled Viking deck and destination decks (the expansion's destinations shuffled in,
    knarr-skali-expansion.txt:9-10), nothing dealt yet, every seat's starting recruits and bracelets."""
    setup = data.setup
    deck = data.deck_for(n)
    rng.shuffle(deck)
    dest_a = [i for i, d in enumerate(data.destinations) if d.deck == "A" and (expansion or not d.expansion)]
    dest_b = [i for i, d in enumerate(data.destinations) if d.deck == "B" and (expansion or not d.expansion)]
    rng.shuffle(dest_a)
    rng.shuffle(dest_b)
    return KnarrState(
        n_players=n,
        seed=seed,
        rules=dict(rules),
        rng=rng,
        deck=deck,
        discard=[],
        board=[-1] * 5,
        hands=[[] for _ in range(n)],
        crews=[[[] for _ in range(5)] for _ in range(n)],
        vp=[0] * n,
        rep=[0] * n,
        recruits=[int(setup["recruits"])] * n,
        bracelets=[int(setup["bracelets"])] * n,
        deck_a=dest_a,
        deck_b=dest_b,
        visible=[-1] * 6,
        owned=[[] for _ in range(n)],
        covered=[[] for _ in range(n)],
        reserved=[[] for _ in range(n)],
        stats={k: [0] * n for k in STATS},
    )


def _deal_destinations(state: KnarrState, data: KnarrData) -> None:
    """The face-up Trading Lands (slots 0-2) and Lands of Influence (3-5) from the top of their decks."""
    setup = data.setup
    nv = int(setup["visible_trading"])
    for i in range(3):
        state.visible[i] = state.deck_a.pop() if i < nv and state.deck_a else -1
        nb = int(setup["visible_influence"])
        state.visible[3 + i] = state.deck_b.pop() if i < nb and state.deck_b else -1


def _deal_vikings(state: KnarrState, data: KnarrData, rng: np.random.Generator) -> None:
    """A.4 step 2: 5 Vikings into the slots (any colour). Step 3: a crew of 2 different colours (a repeat
    is put back and reshuffled: ruling R2), a hand of 3."""
    setup = data.setup
    for slot in range(5):
        state.board[slot] = state.deck.pop()
    for seat in range(state.n_players):
        colours: set[int] = set()
        put_back = []
        while len(colours) < int(setup["crew_size"]):
            card = state.deck.pop()
            c = data.viking_colour[card]
            if c in colours:
                put_back.append(card)
                continue
            colours.add(c)
            state.crews[seat][c].append(card)
        if put_back:
            state.deck.extend(put_back)
            rng.shuffle(state.deck)
        state.hands[seat] = [state.deck.pop() for _ in range(int(setup["hand_size"]))]


def _set_up_expansion(state: KnarrState, data: KnarrData, rng: np.random.Generator) -> None:
    """knarr-skali-expansion.txt:12-16: coins, a raid token each, n + 1 raid tokens on the board and one
    beside it, the Building display, with 2 players a ready Renewal token each."""
    setup, n = data.setup, state.n_players
    state.coins = [int(setup["coins_start"])] * n
    state.raids = [int(setup["raid_each"])] * n
    state.raid_board = n + int(setup["raid_board_extra"])
    state.raid_reserve = int(setup["raid_reserve"])
    state.building_deck = list(range(len(data.buildings)))
    rng.shuffle(state.building_deck)
    state.display = [
        state.building_deck.pop() if state.building_deck else -1
        for _ in range(int(setup["building_display"]))
    ]
    state.buildings = [[] for _ in range(n)]
    state.renewal = [n == 2] * n  # knarr-skali-expansion.txt:16 "set to the ready side" (2 players)


def _draw_artifacts(n: int, rng: np.random.Generator) -> tuple[int, ...]:
    """A.7 "Reveal 1 random Artifact. With 2 players, the Mead Cup is also recommended." Ruling R16: with
    2 players the Mead Cup is added and the random one is drawn from the other six, so it is always a
    second Artifact (BGA ArtifactManager::setupArtifacts shifts the Mead Cup out before the draw)."""
    pool = [a for a in range(len(ARTIFACTS)) if n != 2 or a != MEAD_CUP]
    arts = [pool[int(rng.integers(len(pool)))]]
    if n == 2:
        arts.append(MEAD_CUP)
    return tuple(arts)

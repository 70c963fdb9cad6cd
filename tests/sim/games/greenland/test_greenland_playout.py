"""Random Greenland playouts through the ``sim.game`` protocol, with invariants after every decision."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.games.greenland import rules
from sim.games.greenland.data import TRIBES
from sim.games.greenland.game import GAME
from sim.games.greenland.rules import population
from sim.games.greenland.state import (
    ALPHA_POOL,
    BID,
    DOMESTIC,
    ELDER,
    MONO,
    OVER,
    TPLACE,
    alpha_bride,
    alpha_rank,
)

DATA = GAME.load_data(None)
CONFIGS = [
    {},
    {"advanced": False, "contest_success": "all"},
    {"conversion": "any", "elder_actions": "per_rank"},
    {"upkeep": "none"},
]
TOTAL = int(DATA.setup["tribesmen"])


def check_invariants(state) -> None:
    n = state.n_players
    for s in range(n):
        # Tribesmen are conserved across the tribe's pool, cards, placard, colonies and Valhalla (line 14).
        placed = (
            sum(state.hunters[s].values())
            + sum(state.colonists[s].values())
            + sum(state.husbands[s].values())
        )
        # A promoted or married Alpha is counted among the elders or Husbands (ruling G20), not a piece.
        rank, bride = alpha_rank(state.alpha[s]), alpha_bride(state.alpha[s])
        counted = rank >= 0 or bride >= 0
        pieces = state.pool[s] + placed + sum(state.elders[s]) - counted
        assert pieces + state.valhalla[s] == TOTAL == state.pieces[s]
        # ... so population (pieces less Valhalla, plus the Alpha) counts every living tribesman.
        living = state.pool[s] + placed + sum(state.elders[s]) + (state.alpha[s] >= ALPHA_POOL)
        assert population(state, s) == living
        assert rank < 0 or state.elders[s][rank] >= 1
        assert bride < 0 or state.husbands[s].get(bride, 0) >= 1
        assert min(state.pool[s], state.valhalla[s], *state.elders[s]) >= 0
        assert all(k > 0 for k in state.hunters[s].values()) and all(
            k > 0 for k in state.colonists[s].values()
        )
        # the Alpha is unassigned, dead, promoted, married, or on a visible card or a tableau card
        alpha = state.alpha[s]
        assert (
            alpha <= ALPHA_POOL
            or any(alpha in row for row in state.warm + state.cold)
            or (alpha >= TPLACE and any(alpha - TPLACE in t for t in state.tableau))
        )
        if state.phase in (BID, DOMESTIC, ELDER):  # after phase G only colonists stay on a card (line 68)
            assert alpha < 0 or (alpha < TPLACE and DATA.biomes[alpha].new_world)
            assert not state.hunters[s]
        # Discs never negative.
        assert state.energy[s] >= 0 and state.ivory[s] >= 0 and state.iron[s] >= 0
        assert len(state.hands[s]) <= rules.hand_size(state, DATA, s)
        assert state.alive[s] == (population(state, s) > 0)
        assert all(DATA.biomes[c].new_world for c in state.colonists[s])
    # Every biome card is in exactly one place: a deck, a row, a trophy pile or out of the game.
    cards = state.decks[0] + state.decks[1] + state.warm[0] + state.warm[1] + state.cold[0] + state.cold[1]
    cards += [c for t in state.trophies for c in t] + state.gone
    assert sorted(cards) == list(range(len(DATA.biomes)))
    # Tableau cards: each in at most one place.
    tcards = state.inventions + state.imports + [c for t in state.tableau + state.hands for c in t]
    tcards += state.discards
    assert len(tcards) == len(set(tcards))
    assert len(state.hostile) == len(set(state.hostile)) <= 2
    # The scores the turn records read (remembered until a rule calls ``rules.rescore``) are the scores worked
    # out afresh (reference B.2/B.3.7): a rule that changes a score input without ``rescore`` fails here.
    assert GAME.scores(state) == [float(x) for x in rules.scores(state, DATA)]


def playout(n, rules, seed, check=True, stop_at=None, prefer=(), watch=None):
    """Random play (options of a kind in ``prefer`` taken whenever there are some), checked after every
    decision, and shown to ``watch`` after every decision point."""
    state = GAME.new_state(n, rules, DATA, seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    while not GAME.is_terminal(state):
        movers = GAME.to_move(state)
        assert movers and len(set(movers)) == len(movers)
        choices = {}
        for seat in movers:
            view = GAME.view(state, seat)
            assert view.seat == seat and not hasattr(view, "events") and not hasattr(view, "decks")
            # another tribe's hand is hidden: only its size is shown (line 59, ruling G19)
            assert not hasattr(view, "hands") and view.hand == tuple(state.hands[seat])
            assert view.hand_sizes == tuple(len(h) for h in state.hands)
            opts = GAME.legal_options(state, seat)
            assert opts and len(set(opts)) == len(opts)
            preferred = [o for o in opts if o.kind in prefer]
            pick = preferred or opts
            choices[seat] = pick[int(rng.integers(len(pick)))]
            GAME.record(state, seat, choices[seat])
        GAME.apply(state, choices)
        decisions += len(movers)
        if watch is not None:
            watch(state)
        if check:
            check_invariants(state)
        if stop_at == decisions:
            return state, rng
        assert decisions < GAME.default_max_decisions
    return state, rng


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "base")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_invariants_and_end(n, rules):
    for seed in range(3):
        state, _ = playout(n, rules, seed)
        assert state.phase == OVER
        alive = sum(state.alive)
        # the game ends after 10 generations, or when one culture (or none) is left (line 5)
        assert state.generation == 10 or alive <= 1
        result = GAME.result(state)
        assert len(result.scores) == n and result.winners
        assert all(result.scores[s] == 0 for s in range(n) if not state.alive[s])
        assert set(result.parts[0]) == set(GAME.part_fields)


def test_raids_on_married_daughters_keep_the_invariants():
    """Line 52 (any Daughter card can be raided) and ruling G22: in a random game that raids and promotes
    whenever it can, a raid takes a married daughter from her husbands' tribe to the raider's; the Husbands
    sent home keep every tribesman counted (the invariants after every decision).  Watched from the state
    (whose exogamy box a daughter is in), so it holds for the compiled engine too."""
    taken = []
    wives: dict[int, int] = {}

    def watch(state) -> None:
        now = {d: seat for seat, husbands in enumerate(state.husbands) for d in husbands}
        taken.extend(d for d, seat in now.items() if d in wives and wives[d] != seat)
        wives.clear()
        wives.update(now)

    state, _ = playout(4, {}, 1, prefer=("raid", "promote"), watch=watch)
    assert state.phase == OVER and taken


#: decisions that move a monotheist's score inputs (ivory, iron, the tableau), taken whenever offered
MONOTHEIST_MOVES = ("convert", "pacify", "table", "accept", "breed", "defend")


@pytest.mark.parametrize("seed", range(6))
def test_monotheist_scores_stay_fresh(seed):
    """Monotheists score iron, ivory and their tableau's VP (reference B.3.7), which polytheists do not:
    tribes that convert at once (line 27) and then favour the decisions that move those keep the score
    check of ``check_invariants`` honest for those rules (a missing ``rules.rescore`` there fails it)."""
    state, _ = playout(4, {"conversion": "any"}, seed, prefer=MONOTHEIST_MOVES)
    assert state.phase == OVER and state.religion.count(MONO) >= 2


def test_snapshot_round_trip_continues_identically():
    """to_dict/from_dict mid-game: the restored game plays on exactly like the original."""
    state, rng = playout(3, {}, 7, check=False, stop_at=150)
    doc = json.loads(json.dumps(GAME.to_dict(state)))
    copy = GAME.from_dict(doc)
    rng2 = np.random.default_rng(99)
    rng1 = np.random.default_rng(99)
    for a, r in ((state, rng1), (copy, rng2)):
        while not GAME.is_terminal(a):
            choices = {}
            for seat in GAME.to_move(a):
                opts = GAME.legal_options(a, seat)
                choices[seat] = opts[int(r.integers(len(opts)))]
            GAME.apply(a, choices)
    assert GAME.result(state).scores == GAME.result(copy).scores
    assert GAME.to_dict(state) == GAME.to_dict(copy)


def test_every_tribe_can_die_out_and_every_tribe_can_win():
    """Tribes survive or die out over about ten generations (random play dies out often)."""
    died, won = set(), set()
    for seed in range(12):
        state, _ = playout(4, {}, seed, check=False)
        for s in range(4):
            if not state.alive[s]:
                died.add(TRIBES[state.tribe[s]])
        for w in GAME.result(state).winners:
            won.add(TRIBES[state.tribe[w]])
    assert died == set(TRIBES)
    assert len(won) >= 3

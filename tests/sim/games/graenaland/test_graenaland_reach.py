"""The victory-point search (``sim.games.graenaland.reach``) against the engine itself.

graenaland.txt:311 "any player may announce that they are able to win — that is, that they can achieve
6 victory points if given the opportunity to build", with :128 "You may build as many buildings as you
have resources for": on random positions, the most points ``most_points`` finds equal the most points
any sequence of the engine's own options reaches in a final building phase (lines 235-237: no supply
card, no public buildings), and its plan, played through the engine, reaches them.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from sim.games.graenaland import advanced, rules
from sim.games.graenaland.building import hand_counts, supply_pairs
from sim.games.graenaland.data import RESOURCES
from sim.games.graenaland.game import GAME
from sim.games.graenaland.options import END, Fee
from sim.games.graenaland.reach import Position, most_points
from sim.games.graenaland.state import BUILD, FEE, MARKET, PALISADE, PAY, RELOCATE
from sim.games.graenaland.victory import victory_points
from tests.sim.games.graenaland.test_graenaland_rules import DATA, blank, board, give, settle

SEAT = 0


def random_position(seed: int):
    """A final building phase of seat 0 on a random board of 3, 4 or 5 players: its villages, buildings,
    army, houses, a hand of 5 to 12 cards, up to two supply cards; others' villages; marketplaces and
    palisades."""
    rng = np.random.default_rng(seed)
    n = 3 + seed % 3
    state = blank(n, victory_cards=True)
    b = board(n)
    state.vp_card = [int(rng.integers(len(DATA.victory_cards))) for _ in range(n)]
    own = [int(t) for t in rng.choice(b.n, size=int(rng.integers(1, 5)), replace=False)]  # ints, as annotated
    for t in own:
        state.villages[t][SEAT] += int(rng.integers(1, 4))
        for k in range(3):
            if b.allows_buildings(t) and rng.random() < 0.1:
                state.buildings[t][k] = SEAT
    for t in range(b.n):
        for p in range(1, n):
            if rng.random() < 0.3:
                state.villages[t][p] += 1
        state.public[t][MARKET] = bool(rng.random() < 0.3)
        state.public[t][PALISADE] = bool(rng.random() < 0.3)
    state.army[SEAT] = int(rng.integers(1, 6))
    state.houses[SEAT] = int(rng.integers(1, 8))
    give(state, SEAT, **{RESOURCES[r]: 1 for r in rng.integers(0, 5, size=int(rng.integers(10, 19)))})
    counts = hand_counts(state, DATA, SEAT)
    state.hands[SEAT] = []
    give(state, SEAT, **{RESOURCES[r]: c for r, c in enumerate(counts) if c})
    for _ in range(int(rng.integers(0, 3))):
        state.supplies[SEAT].append(state.supply_deck.pop())
    state.main = 1
    rules._start_building(state, SEAT, final=True)
    return state


def position(state) -> Position:
    return advanced.position(state, board(state.n_players), DATA, SEAT)


def points(state) -> int:
    return victory_points(state, DATA, SEAT, state.vp_card[SEAT])


def engine_most(state) -> int:
    """Every sequence of the engine's options in this building phase (``end`` left out), searched whole;
    positions met before (same pieces, cards by type, marketplaces used, decision) are not repeated."""
    return engine_search(state)[0]


def engine_search(state) -> tuple[int, int]:
    """``engine_most``'s points and the number of decisions it searched."""
    best, seen = points(state), set()

    def key(s) -> tuple:
        return (str(s.villages), str(s.buildings), s.army[SEAT], hand_counts(s, DATA, SEAT),
                supply_pairs(s, DATA, SEAT), tuple(sorted(s.markets_used)), s.phase, s.pending,
                tuple(s.fee_queue), str(s.heroes[SEAT]))

    def go(s) -> None:
        nonlocal best
        best = max(best, points(s))
        k = key(s)
        if k in seen:
            return
        seen.add(k)
        for option in GAME.legal_options(s, SEAT):
            if option != END:
                child = copy.deepcopy(s, {id(DATA): DATA})
                GAME.apply(child, {SEAT: option})
                go(child)

    go(state)
    return best, len(seen)


def play(state, steps) -> None:
    """Play a plan through the engine: each action, its payment (same cards), its fee cards."""
    for step in steps:
        assert step.action in GAME.legal_options(state, SEAT)
        GAME.apply(state, {SEAT: step.action})
        assert state.phase == PAY
        pay = next(p for p in GAME.legal_options(state, SEAT)
                   if (p.resources, p.supplies) == (step.pay.resources, step.pay.supplies))
        GAME.apply(state, {SEAT: pay})
        for r in step.fee:
            assert state.phase == FEE
            GAME.apply(state, {SEAT: Fee(r)})
        if state.phase == RELOCATE:
            GAME.apply(state, {SEAT: GAME.legal_options(state, SEAT)[0]})
        assert state.phase == BUILD


@pytest.mark.parametrize("seed", range(40))
def test_most_points_is_the_engines_most(seed):
    """graenaland.txt:128 "You may build as many buildings as you have resources for" with :311 "able to
    win": the search's most points are those of the best sequence of builds the engine allows, found in
    fewer positions than the engine's decisions searched whole, and its plan reaches them."""
    state = random_position(seed)
    found = most_points(position(state), board(state.n_players), DATA)
    most, searched = engine_search(state)
    assert found.points == most and found.nodes <= searched  # the pruning searches less
    play(state, found.steps)
    assert points(state) == found.points


def test_search_gives_up_below_the_winning_points_and_claim_reads_the_state():
    """A claim is the most points reachable when that wins (line 311: "able to win"), else the points
    now: ``at_least`` prunes what cannot reach it."""
    for seed in range(40):
        state = random_position(seed)
        b = board(state.n_players)
        full = most_points(position(state), b, DATA)
        cut = most_points(position(state), b, DATA, at_least=DATA.victory_points)
        assert cut.points == (full.points if full.points >= DATA.victory_points else points(state))
        assert advanced.claim(state, b, DATA, SEAT) == cut.points


def village_fee_market_position():
    """Seat 0 with card 12 (Largest from 4, Buildings from 1), three villages on territory 0 whose building
    spaces are taken, territory 1 next to it with seat 1's village, a marketplace and a palisade, and 14
    cards: a village at 0 and a church at the newly settled 1, paid with its marketplace, win two points."""
    state = blank(4, victory_cards=True)
    state.vp_card[SEAT] = 12
    settle(state, 0, SEAT, 3)
    settle(state, 1, 1)
    state.buildings[0] = [1, 2, 3]
    state.public[1][MARKET] = state.public[1][PALISADE] = True
    give(state, SEAT, grain=5, cattle=4, wood=3, ore=2)
    rules._start_building(state, SEAT, final=True)
    return state


def test_a_plan_through_a_new_village_its_fee_and_its_marketplace():
    """Line 143: a village on the territory next to an own settlement; :203 a first village behind a palisade
    gives "one resource card to every player who already has a settlement there"; :151 a building needs an
    own village there; :198 "you may use a marketplace already built on the territory where you have just
    built your first village": the plan is a village at 0, a village at 1 (its fee paid) and a church
    there with the marketplace; nothing less wins the two points."""
    state = village_fee_market_position()
    found = most_points(position(state), board(), DATA)
    assert found.points == engine_most(state) == points(state) + 2
    assert [(s.action.kind, s.action.territory) for s in found.steps] == [("village", 0), ("village", 1),
                                                                          ("church", 1)]
    assert len(found.steps[1].fee) == 1 and found.steps[2].pay.markets == 1
    play(state, found.steps)
    assert points(state) == found.points


def test_strategies_build_the_most_points_in_a_final_building_phase():
    """graenaland.txt:315-316 the announcer builds first, then the others: "The number of victory points they
    achieve determines their placement". The scripted strategies play the search's plan from their view, so
    an announcer that was able to win (line 311) wins: ``greedy`` makes the two points of the position
    above."""
    from strategies.graenaland import GreedyStrategy

    state = village_fee_market_position()
    want = points(state) + 2
    greedy = GreedyStrategy(SEAT, np.random.default_rng(0))
    while (choice := greedy.choose(GAME.view(state, SEAT), GAME.legal_options(state, SEAT))) != END:
        GAME.apply(state, {SEAT: choice})
    assert points(state) == want

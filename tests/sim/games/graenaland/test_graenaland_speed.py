"""Graenaland's speed-ups: what got faster must stay the same game.

``copy`` gives an independent state that plays on exactly like the original; the options the rules
list are the ones the straightforward enumeration lists, in the same order (random strategies index
into them).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from functools import cache

import numpy as np
import pytest

from sim.games.graenaland import building, distribution
from sim.games.graenaland.board import build_board
from sim.games.graenaland.data import BUILDINGS, GOLD, PUBLIC
from sim.games.graenaland.game import GAME
from sim.games.graenaland.options import END, Action, Pay
from sim.games.graenaland.state import BUILD, FLAT_FIELDS, NESTED_FIELDS, GraenalandState
from sim.games.graenaland.victory import goal_values
from sim.games.graenaland.votes import settlements_on, votes_by_territory, votes_on
from sim.play import play_game
from sim.specs import parse_spec
from sim.tables import TurnLog

pytestmark = pytest.mark.slow

DATA = GAME.load_data(None)
CONFIGS = [  # (players, rules): standard games, the five-player offer, the advanced start and cards
    (3, {}),
    (4, {}),
    (5, {"five_player_offer": True}),
    (3, {"custom_start": True, "victory_cards": True}),
    (4, {"custom_start": True}),
]


def _choose(state: GraenalandState, rng: np.random.Generator) -> dict:
    return {seat: (opts := GAME.legal_options(state, seat))[int(rng.integers(len(opts)))]
            for seat in GAME.to_move(state)}


def _states(n: int, rules: dict, seed: int, every: int) -> Iterator[GraenalandState]:
    """Every ``every``-th state of a random game (uniform choices from a seeded generator), and every
    state where earlier settlers may weigh anchor (the custom start, lines 272)."""
    state = GAME.new_state(n, rules, DATA, seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not GAME.is_terminal(state) and step < 4000:
        if step % every == 0 or state.anchor is not None:
            yield state
        GAME.apply(state, _choose(state, rng))
        step += 1


def _containers(value: object) -> Iterator[object]:
    """Every mutable object inside ``value`` (lists, dicts, sets, generators), ``value`` included."""
    if isinstance(value, (list, dict, set, np.random.Generator)):
        yield value
    if isinstance(value, np.random.Generator):
        yield value.bit_generator
    elif isinstance(value, dict):
        for v in value.values():
            yield from _containers(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _containers(v)


def _play_on(state: GraenalandState, seed: int, steps: int) -> list:
    """The choices and states of a random continuation (``steps`` decision points at most)."""
    rng = np.random.default_rng(seed)
    trail = []
    while not GAME.is_terminal(state) and len(trail) < steps:
        choices = _choose(state, rng)
        GAME.apply(state, choices)
        trail.append((choices, GAME.scores(state), state.phase, state.round))
    return trail


@pytest.mark.parametrize(("n", "rules"), CONFIGS)
def test_copy_is_independent_and_plays_on_like_the_original(n, rules):
    """``copy``: the same ``to_dict``, no list, dict or generator in common with the original (only the
    component data), the original unchanged by playing the copy on, and the same random continuation
    from both."""
    checked, anchored = 0, False
    for seed in range(2):
        for state in _states(n, rules, seed + 1, every=97):
            before = GAME.to_dict(state)
            copy = GAME.copy(state)
            assert type(copy) is GraenalandState and GAME.to_dict(copy) == before
            shared = {id(x) for x in _containers(vars(state))} & {id(x) for x in _containers(vars(copy))}
            assert not shared, [k for k, v in vars(copy).items() if {id(x) for x in _containers(v)} & shared]
            assert copy.data is state.data
            anchored = anchored or state.anchor is not None
            twin = GAME.copy(state)
            trail = _play_on(copy, seed + 100, 600)
            assert GAME.to_dict(state) == before
            assert _play_on(twin, seed + 100, 600) == trail
            checked += 1
    assert checked >= 6
    assert not rules.get("custom_start") or anchored


def test_copy_field_lists_name_every_mutable_field():
    """Every field of the state holding a list or dict is copied (``FLAT_FIELDS``/``NESTED_FIELDS``, or
    ``anchor`` and ``rng`` by hand); the others hold immutable values only."""
    state = next(s for s in _states(3, {"custom_start": True}, 1, 10**6) if s.anchor is not None)
    by_hand = {"anchor", "rng"}
    for f in dataclasses.fields(GraenalandState):
        mutable = any(True for _ in _containers(getattr(state, f.name)))
        assert mutable == (f.name in FLAT_FIELDS + NESTED_FIELDS or f.name in by_hand), f.name


# --------------------------------------------------------------------------- building options


def _reference_action_options(state: GraenalandState, seat: int) -> list[Action]:  # noqa: C901 - kept literal
    """The building actions as the earlier, slower code listed them: every candidate whose payments
    ``building.payment_options`` would list (the ways enumerated, then filtered for the palisade fee)."""
    board = build_board(DATA, state.n_players)
    out: list[Action] = []
    offer = state.offer_active
    basic = not state.final and not offer
    if basic and not state.supply_taken:
        out.extend(Action("supply", -1, i) for i in range(len(state.supply_row)))
    hand = building.hand_counts(state, DATA, seat)
    sup = building.supply_pairs(state, DATA, seat)
    markets = len(building.markets_available(state, seat))

    def payable(kind: str, t: int) -> bool:
        fee = len(building.fee_recipients(state, t, seat)) if kind == "village" else 0
        for cost in building.cost_variants(state, board, DATA, seat, kind, t):
            for pay in building.payments(cost, hand, sup, markets):
                if not fee or sum(hand) - sum(pay.resources) >= fee:
                    return True
        return False

    own = [t for t in range(board.n) if settlements_on(state, t, seat) > 0]
    if state.houses[seat] > 0:
        near = set(own)
        for t in own:
            near |= board.adjacent[t]
        out.extend(Action("village", t) for t in sorted(near) if payable("village", t))
        for t in range(board.n):
            if state.villages[t][seat] > 0 and board.allows_buildings(t):
                out.extend(Action(name, t) for b, name in enumerate(BUILDINGS)
                           if state.buildings[t][b] < 0 and payable(name, t))
    if state.army[seat] < DATA.army_max and payable("army", -1):
        out.append(Action("army"))
    if not state.final:
        for t in own:
            out.extend(Action(name, t) for k, name in enumerate(PUBLIC)
                       if not state.public[t][k] and state.tokens[k] > 0 and payable(name, t))
    if basic and not state.joint_used:
        for t in own:
            out.extend(Action("joint", t, k) for k in range(len(PUBLIC))
                       if not state.public[t][k] and state.tokens[k] > 0)
        if state.rules.get("five_player_offer") and state.n_players == 5:
            out.extend(Action("offer", -1, p) for p in range(state.n_players) if p != seat)
    if not basic or state.supply_taken or not state.supply_row:
        out.append(END)
    return out


def _build_states() -> Iterator[GraenalandState]:
    """Building-phase states of random games at 3, 4 and 5 players (the five-player offer and the final
    building phases included)."""
    for n, rules in CONFIGS[:3]:
        for seed in range(3):
            yield from (s for s in _states(n, rules, seed, 1) if s.phase == BUILD)


def test_action_options_are_the_old_enumeration_in_order():
    """The building actions are exactly those whose payments the old enumeration found, in the same
    order (random strategies index into the list), and ``action_allowed`` accepts exactly them: among
    the candidates every builder could name, and a few it never may."""
    checked = final = 0
    for state in _build_states():
        seat = state.builder
        expected = _reference_action_options(state, seat)
        assert GAME.legal_options(state, seat) == expected
        board = build_board(DATA, state.n_players)
        tried = [Action(kind, t) for kind in ("village", *BUILDINGS, *PUBLIC) for t in range(board.n)]
        tried += [Action("army"), Action("supply", -1, 3), Action("joint", 0, 2), Action("offer", -1, 4), END,
                  ("army", -1, -1), ("village",), "end"]
        tried += [("road", 0, -1), ("settle", 0, -1), (["village"], 0, -1)]  # a kind never listed here
        for choice in tried:
            allowed = building.action_allowed(state, board, DATA, seat, choice)
            assert (allowed is not None) == (choice in expected), choice
            assert allowed is None or allowed == choice and type(allowed) is Action
        every = building._candidates(state, board, DATA, seat, building._any_payable)
        for kind in building._KINDS:  # one kind's candidates (action_allowed's shortcut): the same, in order
            mine = building._candidates(state, board, DATA, seat, building._any_payable, kind)
            assert mine == [a for a in every if a.kind == kind], kind
        checked += 1
        final += state.final
    assert checked > 1000 and final > 10


def test_can_pay_is_whether_a_listed_payment_leaves_the_cards():
    """``can_pay`` (no ways listed) answers whether ``payments`` lists a way leaving ``keep`` resource
    cards (the palisade fee, line 203), over random costs, hands, supply cards and marketplaces."""
    answers = set()
    for need, hand, sup, markets, keep in _random_purses(5000, 18):
        ways = building.payments(need, hand, sup, markets)
        listed = any(sum(hand) - sum(p.resources) >= keep for p in ways)
        assert building.can_pay(need, hand, sup, markets, keep) == listed, (need, hand, sup, markets, keep)
        answers.add((listed, bool(sup), keep > 0))
    assert len(answers) == 8


# --------------------------------------------------------------------------- votes and proposals


def test_remembered_votes_goals_and_proposal_territories_are_the_counted_ones():
    """``votes_by_territory`` equals ``votes_on`` counted afresh, and so do the view's votes, and its
    goal values the ones worked out afresh; the proposals divide the territories with resources where
    the proposer has a vote (line 103) among the seats with a vote there (105), as counted afresh;
    ``can_propose`` is whether there is one."""
    checked, outcomes = 0, set()
    for n, rules in CONFIGS:
        for state in _states(n, rules, 4, 3):
            fresh = tuple(tuple(votes_on(state, t)) for t in range(len(state.cards)))
            assert votes_by_territory(state) == fresh
            view = GAME.view(state, checked % n)
            assert view.votes == fresh
            assert view.goals == tuple(goal_values(state, DATA, p) for p in range(n))
            for seat in range(n):
                expected = [(t, tuple(p for p in range(n) if fresh[t][p] > 0)) for t in range(len(fresh))
                            if state.cards[t] and fresh[t][seat] > 0]
                options = distribution.proposal_options(state, DATA, seat)
                assert options.territories() == expected
                assert distribution.can_propose(state, seat) == (len(options) > 1) == bool(expected)
                outcomes.add(bool(expected))
            checked += 1
    assert checked > 200 and outcomes == {False, True}


# --------------------------------------------------------------------------- payments


@cache
def _reference_ways(need: tuple, hand: tuple, sup: tuple, m: int) -> frozenset:  # noqa: C901 - kept literal
    """The ways to pay as the earlier, slower enumeration listed them: (cards used by type, supply pairs,
    marketplaces)."""
    if not any(need):
        return frozenset({((0, 0, 0, 0, 0), (), 0)})
    r = next(i for i in range(4) if need[i])
    need1 = tuple(x - (i == r) for i, x in enumerate(need))
    out = set()

    def take(hand2: tuple, sup2: tuple, m2: int, need2: tuple, card: int, pair: tuple | None, mk: int
             ) -> None:
        for used, sups, k in _reference_ways(need2, hand2, sup2, m2):
            if card >= 0:
                used = tuple(u + (i == card) for i, u in enumerate(used))
            if pair is not None:
                sups = tuple(sorted((*sups, pair)))
            out.add((used, sups, k + mk))

    def minus(h: tuple, i: int) -> tuple:
        return tuple(x - (j == i) for j, x in enumerate(h))

    if hand[r]:
        take(minus(hand, r), sup, m, need1, r, None, 0)
    if hand[GOLD]:
        take(minus(hand, GOLD), sup, m, need1, GOLD, None, 0)
    if m:
        for s in range(4):
            if s != r and hand[s]:
                take(minus(hand, s), sup, m - 1, need1, s, None, 1)
    for i, pair in enumerate(sup):
        if i and sup[i - 1] == pair:
            continue
        rest = sup[:i] + sup[i + 1:]
        a, b = pair
        if r in pair:
            take(hand, rest, m, need1, -1, pair, 0)
            other = b if a == r else a
            if need1[other]:
                take(hand, rest, m, tuple(x - (j == other) for j, x in enumerate(need1)), -1, pair, 0)
        if m:
            take(hand, rest, m - 1, need1, -1, pair, 1)
    return frozenset(out)


def _reference_payments(need: tuple, hand: tuple, sup: tuple, markets: int) -> list[Pay]:
    best: dict[tuple, int] = {}
    for used, sups, k in _reference_ways(need, hand, sup, markets):
        if (used, sups) not in best or k < best[used, sups]:
            best[used, sups] = k
    return [Pay(used, sups, k) for (used, sups), k in sorted(best.items())]


def _random_purses(count: int, seed: int) -> Iterator[tuple]:
    """(need, hand, supply pairs, marketplaces, cards to keep): the game's costs and other small ones,
    hands of up to 3 cards per type, up to 3 supply cards and 2 marketplaces."""
    rng = np.random.default_rng(seed)
    costs = list(DATA.costs.values()) + [p.village_cost for p in DATA.pieces.values()]
    pairs = sorted({tuple(sorted(p)) for p in DATA.supply_cards})
    for _ in range(count):
        if rng.random() < 0.7:
            need = costs[int(rng.integers(len(costs)))]
        else:
            need = tuple(int(x) for x in rng.integers(0, 3, 4))
        hand = tuple(int(x) for x in rng.integers(0, 4, 5) * (rng.random(5) < 0.7))
        sup = tuple(sorted(pairs[k] for k in rng.integers(len(pairs), size=int(rng.integers(0, 4)))))
        yield need, hand, sup, int(rng.integers(0, 3)), int(rng.integers(0, 4))


def test_payments_are_the_old_enumeration_in_order():
    """``payments`` lists the same ways as the earlier, slower enumeration, in the same order (random
    strategies index into the list), each with the fewest marketplaces it needs."""
    kinds = set()
    for need, hand, sup, markets, _keep in _random_purses(1500, 7):
        listed = building.payments(need, hand, sup, markets)
        assert listed == _reference_payments(need, hand, sup, markets), (need, hand, sup, markets)
        kinds.add((len(listed) > 1, any(p.supplies for p in listed), any(p.markets for p in listed)))
    assert len(kinds) == 8  # one way or several, with and without supply cards and marketplaces


def test_fewest_cards_are_the_old_enumerations_fewest():
    """``_fewest`` (the supply cards searched, the resource cards closed-form) is the fewest resource
    cards of any way the earlier, slower enumeration lists, and ``_NO_WAY`` exactly when it lists none:
    over random purses with up to four supply cards (any pair of resources) and three marketplaces."""
    rng = np.random.default_rng(11)
    pairs = [(a, b) for a in range(4) for b in range(a, 4)]
    costs = list(DATA.costs.values()) + [p.village_cost for p in DATA.pieces.values()]
    seen = set()
    for _ in range(1500):
        need = costs[int(rng.integers(len(costs)))] if rng.random() < 0.6 else \
            tuple(int(x) for x in rng.integers(0, 4, 4))
        hand = tuple(int(x) for x in rng.integers(0, 5, 5) * (rng.random(5) < 0.6))
        sup = tuple(sorted(pairs[k] for k in rng.integers(len(pairs), size=int(rng.integers(0, 5)))))
        markets = int(rng.integers(0, 4))
        ways = _reference_payments(need, hand, sup, markets)
        fewest = min((sum(p.resources) for p in ways), default=building._NO_WAY)
        assert building._fewest(need, hand, sup, markets) == fewest, (need, hand, sup, markets)
        seen.add((bool(ways), bool(sup), any(p.supplies for p in ways)))
    # unpayable with and without supply cards, payable without them, payable and paid with them
    assert {(False, False, False), (False, True, False), (True, False, False), (True, True, True)} <= seen


# --------------------------------------------------------------------------- whole games


#: (players, strategies, rules, game seed) -> the turn log's digest, as the earlier, slower code played it
#: (525a613); beside the golden files: the planner, the advanced rules and 5-player random seats. Seeds
#: 8 and 9 run a deck out: their digests are those of ruling G3's deck formed again the moment its last
#: card is drawn (line 126); their logs match the earlier ones up to that draw.
BEFORE = [
    (4, ["planner"] * 4, {}, 5, "8b180f0672f7564f"),
    (3, ["greedy", "planner", "rival"], {"victory_cards": True, "custom_start": True}, 6, "fe2dc663b1cd7cd9"),
    (5, ["cooperative", "warlord", "planner", "greedy", "random"], {"five_player_offer": True}, 7,
     "936c930f263c26b1"),
    (4, ["random"] * 4, {}, 8, "db911e1ef4c84424"),
    (4, ["greedy", "planner:focus=0.5", "warlord", "cooperative"], {"victory_cards": True}, 9,
     "9054eb31e1bd2970"),
]


@pytest.mark.parametrize(("n", "names", "rules", "seed", "digest"), BEFORE)
def test_games_play_as_before(n, names, rules, seed, digest):
    """Speed changes no game: every decision, record and score of these games is as the earlier,
    slower code made it."""
    log = TurnLog()
    specs = [parse_spec(s, "graenaland") for s in names]
    out = play_game(GAME, n, rules, DATA, seed, specs, GAME.default_max_decisions, log)
    h = hashlib.sha256()
    for seat, kind, fields, scores in zip(log.seat, log.kind, log.fields, log.scores, strict=True):
        h.update(json.dumps([seat, kind, list(fields), list(scores)]).encode())
    h.update(json.dumps([out.result.scores, out.result.ranks, out.result.winners, out.truncated]).encode())
    assert h.hexdigest()[:16] == digest


def test_can_contribute_is_whether_a_contribution_is_offered():
    """``can_contribute`` is whether ``contribution_options`` offers more than nothing (line 210: the
    other players may offer resources), for every seat and public building in random games."""
    outcomes = set()
    for n, rules in CONFIGS[:3]:
        for state in _states(n, rules, 2, 5):
            for seat in range(n):
                for name in PUBLIC:
                    cost = DATA.costs[name]
                    offered = len(building.contribution_options(state, DATA, seat, cost)) > 1
                    assert building.can_contribute(state, DATA, seat, cost) == offered
                    outcomes.add(offered)
    assert outcomes == {False, True}

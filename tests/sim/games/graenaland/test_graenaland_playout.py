"""Random Graenaland playouts through the ``sim.game`` protocol, with invariants after every decision.

Games are played with ``GAME.new_state / to_move / legal_options / view / apply`` only; a seeded
generator picks every option uniformly (proposal options are a lazy sequence, indexed directly).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.games.graenaland.board import build_board
from sim.games.graenaland.game import GAME
from sim.games.graenaland.production import settled_total
from sim.games.graenaland.state import OVER
from sim.games.graenaland.turns import RESOURCE_FIELDS, SHARE_FIELDS
from sim.games.graenaland.victory import (
    goal_counts,
    goal_values,
    goal_values_by_seat,
    goals_by_seat,
    goals_met,
)
from sim.games.graenaland.votes import settlements_on, votes_on
from sim.play import play_game
from sim.specs import parse_spec
from sim.tables import TurnLog

DATA = GAME.load_data(None)
N_CARDS = len(DATA.card_resource)
N_SUPPLY = len(DATA.supply_cards)


def check_invariants(state) -> None:
    n = state.n_players
    b = build_board(DATA, n)
    # Resource cards are conserved: decks + discards + hands + territories hold each card once.
    cards = [c for d in state.decks for c in d] + [c for d in state.discards for c in d]
    cards += [c for h in state.hands for c in h] + [c for pile in state.cards for c in pile]
    cards += [c for pile in state.draft_cards for c in pile]  # custom start: cards at the coast
    assert sorted(cards) == list(range(N_CARDS))
    assert all(DATA.card_deck[c] == d for d, deck in enumerate(state.decks) for c in deck)
    assert all(DATA.card_deck[c] == d for d, pile in enumerate(state.discards) for c in pile)
    # Supply cards are conserved: deck + face-up row + players + used pile.
    supply = state.supply_deck + state.supply_row + state.supply_discard
    supply += [c for s in state.supplies for c in s]
    assert sorted(supply) == list(range(N_SUPPLY)) and len(state.supply_row) <= DATA.supply_row
    for seat in range(n):
        placed = sum(settlements_on(state, t, seat) for t in range(b.n))
        assert placed + state.houses[seat] == DATA.houses and state.houses[seat] >= 0  # 14 houses (line 43)
        mine = [t for t in state.heroes[seat] if t >= 0]
        assert len(mine) == len(set(mine))  # line 84
        assert 1 <= state.army[seat] <= DATA.army_max
    for t in range(b.n):
        assert len(state.cards[t]) == len(state.face_down[t])
        assert len(state.cards[t]) <= settled_total(state, t) + 1  # line 68
        assert all(v >= 0 for v in votes_on(state, t))
        if not b.allows_buildings(t):
            assert state.buildings[t] == [-1, -1, -1]  # line 153
        for b_kind, owner in enumerate(state.buildings[t]):
            if owner >= 0:
                assert state.villages[t][owner] > 0 or any(
                    state.buildings[t][k] == owner for k in range(3) if k != b_kind)
    assert all(k >= 0 for k in state.tokens)
    # The goals remembered on the state (a seat's cleared by board_changed(state, seat)) are the goals
    # worked out afresh: a rule that moves a village, building or army without board_changed, or that
    # names the wrong seat, fails here.
    assert goal_values_by_seat(state, DATA) == tuple(goal_values(state, DATA, p) for p in range(n))
    assert goals_by_seat(state, DATA) == tuple(goals_met(state, DATA, p) for p in range(n))
    assert goal_counts(state, DATA) == tuple(sum(goals_met(state, DATA, p)) for p in range(n))
    for k, total in enumerate(DATA.tokens.values()):
        assert state.tokens[k] + sum(row[k] for row in state.public) == total


def play(n_players: int, seed: int, *, invariants: bool = True, max_decisions: int | None = None,
         rules_config: dict | None = None):
    """One game with uniformly random options; returns (state, decisions, kinds seen)."""
    state = GAME.new_state(n_players, rules_config or {}, DATA, seed)
    rng = np.random.default_rng([seed, n_players, 777])
    limit = GAME.default_max_decisions if max_decisions is None else max_decisions
    decisions = 0
    kinds: Counter = Counter()
    while not GAME.is_terminal(state) and decisions < limit:
        movers = GAME.to_move(state)
        assert movers
        choices = {}
        for seat in movers:
            options = GAME.legal_options(state, seat)
            assert len(options) > 0
            if invariants:
                view = GAME.view(state, seat)
                assert view.seat == seat and len(view.hand) == len(state.hands[seat])
                assert all(sz == len(h) for sz, h in zip(view.hand_sizes, state.hands, strict=True))
            choices[seat] = options[int(rng.integers(len(options)))]
        for seat, choice in choices.items():
            kinds[GAME.record(state, seat, choice)[0]] += 1
        GAME.apply(state, choices)
        decisions += len(movers)
        if invariants:
            check_invariants(state)
    return state, decisions, kinds


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_random_playouts_keep_invariants(n_players):
    """Cards conserved across decks, discards, hands, supply and territories (lines 126, 134); houses
    never exceed 14 (line 43); every game ends (line 241) or is truncated; scores are goals met."""
    seen: Counter = Counter()
    for seed in range(10):
        state, decisions, kinds = play(n_players, seed, rules_config={"five_player_offer": True})
        seen.update(kinds)
        assert GAME.is_terminal(state) and decisions < GAME.default_max_decisions
        assert GAME.to_move(state) == () and state.phase == OVER
        res = GAME.result(state)
        assert res.winners == [state.announcer] and res.ranks[state.announcer] == 1
        assert sum(res.parts[state.announcer][f"goal_{g}"] for g in
                   ("settlements", "territories", "largest", "buildings", "army")) >= 3
        assert res.scores == GAME.scores(state)
    assert {"move", "stay", "propose", "vote", "supply", "village", "pay", "end"} <= set(seen)


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_random_playouts_with_the_advanced_rules(n_players):
    """The custom start draft (lines 267-277) and victory point cards (279-316) keep the same invariants;
    every seat ends with two start villages on two coastal territories and a kept card."""
    rules_config = {"custom_start": True, "victory_cards": True, "five_player_offer": True}
    for seed in range(6):
        state, decisions, kinds = play(n_players, 100 + seed, rules_config=rules_config)
        assert GAME.is_terminal(state) and decisions < GAME.default_max_decisions
        b = build_board(DATA, n_players)
        assert all(a != c and b.coastal[a] and b.coastal[c] for a, c in state.start_positions)
        assert all(0 <= c < len(DATA.victory_cards) for c in state.vp_card)
        res = GAME.result(state)
        assert len(res.winners) >= 1 and res.scores == GAME.scores(state)
        assert {"settle", "keep_card"} <= set(kinds)


def test_truncation_is_reported():
    state, decisions, _ = play(4, 5, invariants=False, max_decisions=50)
    assert not GAME.is_terminal(state) and decisions >= 50
    res = GAME.result(state)
    assert len(res.scores) == 4


def test_playouts_are_reproducible_and_snapshots_resume():
    """Same seed, same choices: same game; a snapshot taken mid-game resumes to the same end."""
    a, _, _ = play(4, 11, invariants=False)
    b, _, _ = play(4, 11, invariants=False)
    assert GAME.to_dict(a) == GAME.to_dict(b)
    c, _, _ = play(4, 12, invariants=False)
    assert GAME.to_dict(a) != GAME.to_dict(c)
    mid, decisions, _ = play(3, 2, invariants=False, max_decisions=300)
    copy = GAME.from_dict(GAME.to_dict(mid))
    assert GAME.to_dict(copy) == GAME.to_dict(mid)
    for s in (mid, copy):
        rng = np.random.default_rng(99)
        while not GAME.is_terminal(s):
            choices = {}
            for seat in GAME.to_move(s):
                options = GAME.legal_options(s, seat)
                choices[seat] = options[int(rng.integers(len(options)))]
            GAME.apply(s, choices)
    assert GAME.to_dict(mid) == GAME.to_dict(copy)


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_scripted_strategies_finish(n_players):
    """Truncation is rare with the scripted strategies: none in these games."""
    names = ["greedy", "cooperative", "rival", "warlord", "planner"][:n_players]
    specs = [parse_spec(s, "graenaland") for s in names]
    for seed in range(6):
        out = play_game(GAME, n_players, {}, DATA, seed, specs, GAME.default_max_decisions)
        assert not out.truncated and len(out.result.winners) == 1


RECORD_TABLES = [  # (players, rules, strategies): together every kind of decision
    (4, {}, ["greedy", "random", "cooperative", "warlord"]),
    (4, {"victory_cards": True, "custom_start": True}, ["random"] * 4),
    (3, {"custom_start": True, "victory_cards": True}, ["random", "greedy", "planner"]),
    (5, {"five_player_offer": True, "victory_cards": True}, ["random", "cooperative", "random", "rival",
                                                             "random"]),
]


def test_every_row_fills_the_columns_its_kind_declares():
    """The turns table (``record``): each row's kind is a key of ``action_kinds``, every action column
    outside ``action_kinds[kind]`` is -1, and over seeded games of every rule variant each declared column
    of each kind is filled somewhere (the resource columns and the shares each as one), so a declaration
    names no column its kind never fills."""
    fields = GAME.action_fields
    filled: dict[str, set[str]] = {}
    for n, rules_config, names in RECORD_TABLES:
        for seed in (1, 2, 8):  # together every kind (relocate: the second table, seed 8)
            log = TurnLog()
            specs = [parse_spec(s, "graenaland") for s in names]
            play_game(GAME, n, rules_config, DATA, seed, specs, GAME.default_max_decisions, log)
            for kind, values in zip(log.kind, log.fields, strict=True):
                used = {f for f, v in zip(fields, values, strict=True) if v != -1}
                assert used <= set(GAME.action_kinds[kind]), (kind, used - set(GAME.action_kinds[kind]))
                filled.setdefault(kind, set()).update(used)
    assert set(filled) == set(GAME.action_kinds) - {"malformed"}

    def group(names) -> set[str]:  # the five resource columns, the five shares, as one each
        return {"resources" if f in RESOURCE_FIELDS else "shares" if f in SHARE_FIELDS else f for f in names}

    assert {kind: group(GAME.action_kinds[kind]) - group(got) for kind, got in filled.items()
            if group(GAME.action_kinds[kind]) - group(got)} == {}
    assert set(GAME.action_docs) == set(fields)

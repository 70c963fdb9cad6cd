"""Random Mainland playouts through the ``sim.game`` protocol, with invariants after every decision.

The games are played with ``GAME.new_state / to_move / legal_options / view / apply`` only;
a seeded ``numpy.random.Generator`` picks the options (placements preferred, so that games
run to the late game where decks empty and passes are forced).
"""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.games.mainland import kernels, rules
from sim.games.mainland.evaluate import hand_placements
from sim.games.mainland.game import GAME
from sim.games.mainland.state import (
    CAMP,
    GATHER,
    KEEP,
    OVER,
    PASS,
    PLACE,
    PLACE_CAMP,
    PLACE_CARD,
    REPLACE,
    START,
)
from sim.games.mainland.view import MainlandView
from sim.play import play_game
from sim.specs import parse_spec
from sim.tables import TurnLog
from tests.mainland_testkit import canonical_rotation, oracle_legal, random_option, recount

DATA = GAME.load_data(None)
N_CARDS = len(DATA.card_ids)  # 25: the camp card and the 24-card deck
SEEDS = range(30)


class Tracker:
    """Cards each seat has put on the board, followed from the options applied."""

    def __init__(self, n_players: int):
        self.on_board: list[list[int]] = [[] for _ in range(n_players)]

    def before_apply(self, state, seat: int, option: np.ndarray) -> None:
        kind = int(option[0])
        if kind == PLACE_CAMP:
            self.on_board[seat].append(DATA.camp_card)
        elif kind == PLACE_CARD:
            self.on_board[seat].append(state.hands[seat][int(option[1])])


def check_invariants(state, tracker: Tracker, turn_ended: dict[int, bool]) -> None:
    n = state.n_players
    for seat in range(n):
        hand, deck, discard = state.hands[seat], state.decks[seat], state.discards[seat]
        # Cards are conserved: board + hand + deck + discards = the 25 cards of the clan, each once.
        pending = [] if DATA.camp_card in tracker.on_board[seat] else [DATA.camp_card]  # camp set aside (:67)
        cards = tracker.on_board[seat] + pending + hand + deck + discard
        assert len(cards) == N_CARDS, (seat, len(tracker.on_board[seat]), len(hand), len(deck), len(discard))
        assert sorted(cards) == list(range(N_CARDS))
        # mainland.txt:133 "You must have 5 cards in hand at both the beginning and end of your turn."
        assert len(hand) <= DATA.hand_size
        if turn_ended.get(seat) and deck:
            assert len(hand) == DATA.hand_size
        assert state.tokens[seat] >= 0  # mainland.txt:73
    if state.phase == START and state.decks[state.current]:
        assert len(state.hands[state.current]) == DATA.hand_size
    if state.phase == OVER:
        assert all(t == 0 for t in state.tokens)  # mainland.txt:193
    else:
        assert state.tokens[state.current] > 0 or state.phase == CAMP
    # Visible items per seat are exactly the board's.
    assert (state.counts == recount(state.items, state.owner, n)).all()
    assert (state.scores == kernels.score_board(state.items, state.owner, n, DATA.points)).all()
    assert ((state.items == 0) == (state.owner == -1)).all()


def play(n_players: int, seed: int, *, invariants: bool = True, max_decisions: int | None = None,
         rules_config: dict | None = None):
    """Play one game; returns (state, applied options, tracker)."""
    state = GAME.new_state(n_players, rules_config or {}, DATA, seed)
    rng = np.random.default_rng([seed, n_players, 12345])
    tracker = Tracker(n_players)
    applied = []
    limit = GAME.default_max_decisions if max_decisions is None else max_decisions
    if invariants:
        check_invariants(state, tracker, {})
    while not GAME.is_terminal(state) and len(applied) < limit:
        movers = GAME.to_move(state)
        assert len(movers) == 1
        seat = movers[0]
        options = GAME.legal_options(state, seat)
        assert len(options) > 0 and options.dtype == np.int16 and options.shape[1] == 5
        option = random_option(rng, options)
        if invariants:
            assert len({tuple(o) for o in options.tolist()}) == len(options)  # no duplicated options
            assert any((option == o).all() for o in options)
            view = GAME.view(state, seat)
            assert view.seat == seat and view.hand == tuple(state.hands[seat])
        phase = state.phase
        tracker.before_apply(state, seat, option)
        GAME.apply(state, {seat: option})
        applied.append((seat, tuple(int(x) for x in option)))
        if invariants:
            ended = phase == PLACE or int(option[0]) in (GATHER, PLACE_CAMP)
            check_invariants(state, tracker, {seat: ended and int(option[0]) != PLACE_CAMP})
    return state, applied, tracker


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_playouts_keep_invariants(n_players):
    """Random games for 30 seeds: invariants after every decision, and every game ends in time.

    mainland.txt:73/137 (tokens), :91 (replace), :131-133 (5 cards), :143 (gathering), :193 (end).
    """
    kinds_seen = set()
    forced = 0
    for seed in SEEDS:
        state, applied, tracker = play(n_players, seed)
        assert GAME.is_terminal(state), f"seed {seed}: not over after {len(applied)} decisions"
        assert len(applied) < GAME.default_max_decisions
        assert GAME.to_move(state) == ()
        kinds_seen |= {opt[0] for _, opt in applied}
        forced += sum(state.stats["forced_passes"])
        # Every seat placed its camp first (mainland.txt:67), before anyone's turn.
        assert [opt[0] for _, opt in applied[:n_players]] == [PLACE_CAMP] * n_players
        assert [s for s, _ in applied[:n_players]] == list(range(n_players))
        assert PLACE_CAMP not in {opt[0] for _, opt in applied[n_players:]}
        # Stats agree with the decisions.
        for seat in range(n_players):
            mine = [opt[0] for s, opt in applied if s == seat]
            assert state.stats["placements"][seat] == mine.count(PLACE_CARD)
            assert state.stats["passes"][seat] + state.stats["forced_passes"][seat] == mine.count(PASS)
            assert state.stats["gatherings"][seat] == mine.count(GATHER)
            assert state.stats["replaces"][seat] == mine.count(REPLACE)
            # Each pass and each gathering cost exactly one token (mainland.txt:137, :143, :239).
            assert mine.count(PASS) + mine.count(GATHER) == DATA.tokens
        res = GAME.result(state)
        assert res.scores == GAME.scores(state)
        assert res.winners == [i for i, s in enumerate(res.scores) if s == max(res.scores)]
    assert kinds_seen == {KEEP, REPLACE, GATHER, PLACE_CARD, PASS, PLACE_CAMP}
    assert forced > 0  # the late game was reached


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_playouts_castle_switch_off(n_players):
    """The same invariants with castle_needs_overlap=False (ruling R4, mainland.txt:129)."""
    for seed in range(8):
        state, applied, _ = play(n_players, 1000 + seed, rules_config={"castle_needs_overlap": False})
        assert GAME.is_terminal(state) and len(applied) < GAME.default_max_decisions


def test_playouts_are_reproducible():
    """Same seed, same choices: same game."""
    a = play(3, 7, invariants=False)
    b = play(3, 7, invariants=False)
    assert a[1] == b[1] and GAME.to_dict(a[0]) == GAME.to_dict(b[0])
    c = play(3, 8, invariants=False)
    assert GAME.to_dict(a[0])["decks"] != GAME.to_dict(c[0])["decks"] or a[1] != c[1]


# --------------------------------------------------------------------------- the legal set is exact


def rows_cols(state):
    return state.items.shape


def advance(n_players: int, seed: int, fraction: float, rules_config: dict | None = None):
    """A random position ``fraction`` of the way through a random game, at a placement (or camp) step."""
    _, applied, _ = play(n_players, seed, invariants=False, rules_config=rules_config)
    state, _, _ = play(n_players, seed, invariants=False, max_decisions=int(fraction * (len(applied) - 1)),
                       rules_config=rules_config)
    assert not GAME.is_terminal(state)
    if state.phase == START:
        GAME.apply(state, {state.current: np.array([KEEP, 0, 0, 0, 0])})
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       sample_seed=st.integers(0, 2**32 - 1), castle_needs_overlap=st.booleans())
def test_legal_options_are_exactly_the_legal_placements(n_players, seed, fraction, sample_seed,
                                                        castle_needs_overlap):
    """Rules 1-3 (mainland.txt:99-101), limits (:57), camps (:69), requirements (:115-125, :243-249):
    every listed placement passes check_placement and the rulebook oracle; every placement not listed
    (all hand cards x 4 rotations x every offset, off-board ones included) fails check_placement, and
    a random sample of them fails the oracle too."""
    state = advance(n_players, seed, fraction, {"castle_needs_overlap": castle_needs_overlap})
    assert state.rules["castle_needs_overlap"] is castle_needs_overlap
    seat = state.current
    options = GAME.legal_options(state, seat)
    camp = state.phase == CAMP
    assert state.phase in (CAMP, PLACE)
    cards = [DATA.camp_card] if camp else list(state.hands[seat])
    kind = PLACE_CAMP if camp else PLACE_CARD
    listed = {tuple(o[1:]) for o in options.tolist() if o[0] == kind}
    if not camp:
        assert options[-1].tolist() == [PASS, 0, 0, 0, 0]
        assert set(options[:, 0].tolist()) <= {PLACE_CARD, PASS}
    switch = bool(state.rules["castle_needs_overlap"])
    rows, cols = rows_cols(state)
    rng = np.random.default_rng(sample_seed)
    not_listed = []
    for h, card in enumerate(cards):
        castle = bool(DATA.is_castle_card[card])
        for rot in range(4):
            layout = DATA.rotations[card, rot]
            canon = canonical_rotation(DATA, card, rot)
            for r in range(-1, rows):
                for c in range(-1, cols):
                    why = kernels.check_placement(state.items, state.owner, state.counts, seat, layout,
                                                  castle, r, c, rules.ALLOWED, rules.REQ_PAIRS, switch, camp)
                    if (h, canon, r, c) in listed:
                        assert why == kernels.OK
                        if rot == canon:
                            assert oracle_legal(state.items, state.owner, seat, layout, castle, r, c, switch,
                                                camp)
                    else:
                        assert why != kernels.OK, (h, rot, r, c)
                        not_listed.append((h, rot, r, c))
    for i in rng.choice(len(not_listed), size=min(200, len(not_listed)), replace=False):
        h, rot, r, c = not_listed[i]
        card = cards[h]
        assert not oracle_legal(state.items, state.owner, seat, DATA.rotations[card, rot],
                                bool(DATA.is_castle_card[card]), r, c, switch, camp), (h, rot, r, c)
    # Options list each distinct layout once (rotations that repeat an earlier one are left out).
    for h, rot, _, _ in listed:
        assert DATA.unique_rotation[cards[h], rot]
    # A strategy computing the same from its view gets the same set (sim.games.mainland.evaluate).
    from_view = {tuple(x) for x in hand_placements(GAME.view(state, seat)).tolist()}
    assert from_view == listed


# --------------------------------------------------------------------------- hidden information


def field_names(view) -> tuple[str, ...]:
    """The view's fields, whether it is a NamedTuple or a dataclass."""
    names = getattr(type(view), "_fields", None)
    return tuple(names) if names is not None else tuple(f.name for f in dataclasses.fields(view))


def view_fields(view: MainlandView) -> dict:
    out = {}
    for name in field_names(view):
        value = getattr(view, name)
        out[name] = value.copy() if isinstance(value, np.ndarray) else value
    return out


def same_fields(a: dict, b: dict) -> bool:
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray):
            if not np.array_equal(x, y):
                return False
        elif key == "data":
            if x is not y:
                return False
        elif x != y:
            return False
    return True


def mid_game_state(n_players=3, seed=21, steps=40):
    state, _, _ = play(n_players, seed, invariants=False, max_decisions=steps)
    assert not GAME.is_terminal(state) and state.phase != CAMP
    return state


def test_view_hides_other_hands_and_deck_order():
    """mainland.txt:77 "You can look at the cards you have in hand, but you must not look at your opponent's
    cards." and :79 "At no time is it permitted to look at the cards in your deck." """
    state = mid_game_state()
    names = set(field_names(GAME.view(state, 0)))
    assert not names & {"hands", "decks", "deck", "rng", "state", "seed"}
    for seat in range(state.n_players):
        view = GAME.view(state, seat)
        assert not any(hasattr(view, x) for x in ("hands", "decks", "deck", "rng", "state", "__dict__"))
        assert view.hand == tuple(state.hands[seat])
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
        assert view.deck_sizes == tuple(len(d) for d in state.decks)
        before = view_fields(view)
        saved = [list(h) for h in state.hands], [list(d) for d in state.decks]
        # Swap cards between every other seat's hand and deck, and reorder every deck (own too).
        for other in range(state.n_players):
            deck = state.decks[other]
            if other != seat and deck and state.hands[other]:
                state.hands[other][0], deck[-1] = deck[-1], state.hands[other][0]
            deck.reverse()
        after = view_fields(GAME.view(state, seat))
        changed = [k for k in before if not same_fields({k: before[k]}, {k: after[k]})]
        assert not changed
        assert same_fields(before, view_fields(view))  # the old view object did not change either
        state.hands, state.decks = saved


def test_view_is_read_only():
    """A strategy's view cannot change the game (it only sees, the runner applies)."""
    state = mid_game_state()
    view = GAME.view(state, state.current)
    with pytest.raises(AttributeError):  # frozen dataclass or NamedTuple
        view.hand = ()  # type: ignore[misc]
    for name in ("items", "owner", "counts", "scores"):
        with pytest.raises(ValueError):
            getattr(view, name)[0, 0] = 1
    with pytest.raises(TypeError):
        view.rules["castle_needs_overlap"] = False
    assert state.rules["castle_needs_overlap"] is True


# --------------------------------------------------------------------------- snapshots and randomness


def continue_play(state, rng, steps):
    out = []
    for _ in range(steps):
        if GAME.is_terminal(state):
            break
        seat = GAME.to_move(state)[0]
        option = random_option(rng, GAME.legal_options(state, seat))
        GAME.apply(state, {seat: option})
        out.append((seat, tuple(int(x) for x in option), GAME.scores(state)))
    return out


@pytest.mark.parametrize("n_players,seed,steps", [(2, 3, 25), (3, 4, 60), (4, 5, 90), (3, 6, 1)])
def test_to_dict_round_trip_mid_game(n_players, seed, steps):
    """to_dict/from_dict (through JSON) mid-game gives the same subsequent play, gatherings included."""
    state, _, _ = play(n_players, seed, invariants=False, max_decisions=steps)
    doc = GAME.to_dict(state)
    copy = GAME.from_dict(json.loads(json.dumps(doc)))
    assert GAME.to_dict(copy) == doc
    assert (copy.counts == state.counts).all() and (copy.scores == state.scores).all()
    a = continue_play(state, np.random.default_rng(99), 3000)
    b = continue_play(copy, np.random.default_rng(99), 3000)
    assert a == b
    assert GAME.to_dict(state) == GAME.to_dict(copy)
    assert GAME.result(state) == GAME.result(copy)


def test_round_trip_preserves_the_gathering_shuffle():
    """mainland.txt:143: the shuffle after a restore draws from the restored generator."""
    state = mid_game_state(2, seed=30, steps=30)
    while state.phase != START:
        seat = state.current
        GAME.apply(state, {seat: np.array([PASS, 0, 0, 0, 0])})
    copy = GAME.from_dict(GAME.to_dict(state))
    seat = state.current
    for s in (state, copy):
        GAME.apply(s, {seat: np.array([GATHER, 0, 0, 0, 0])})
    assert state.hands[seat] == copy.hands[seat] and state.decks[seat] == copy.decks[seat]


def test_game_ignores_global_random_state():
    """Seeding or drawing from the global generators (numpy and random) between games changes nothing."""
    np.random.seed(1)
    random.seed(1)
    first = play(3, 17, invariants=False)
    np.random.seed(2)
    random.seed(2)
    np.random.random(100)
    random.random()
    second = play(3, 17, invariants=False)
    assert first[1] == second[1] and GAME.to_dict(first[0]) == GAME.to_dict(second[0])
    # Global draws between decisions (e.g. by a careless strategy) do not reach the game either.
    state = GAME.new_state(3, {}, DATA, 17)
    rng = np.random.default_rng([17, 3, 12345])
    for seat, option in first[1]:
        np.random.seed(len(state.discards[0]) + 5)
        random.seed(7)
        np.random.shuffle(np.arange(10))
        assert GAME.to_move(state) == (seat,)
        options = GAME.legal_options(state, seat)
        assert random_option(rng, options).tolist() == list(option)
        GAME.apply(state, {seat: np.array(option)})
    assert GAME.to_dict(state) == GAME.to_dict(first[0])


def test_setup_deals_five_and_six_tokens():
    """mainland.txt:73 "You start the game with 6 chieftain tokens."; :77 "Draw the first 5 cards"."""
    for n in (2, 3, 4):
        state = GAME.new_state(n, {}, DATA, 123)
        assert state.tokens == [6] * n
        assert all(len(h) == 5 for h in state.hands) and all(len(d) == 19 for d in state.decks)
        assert state.phase == CAMP and GAME.to_move(state) == (0,)
        assert all(DATA.camp_card not in h + d for h, d in zip(state.hands, state.decks, strict=True))
    assert GAME.new_state(2, {}, DATA, 1).hands != GAME.new_state(2, {}, DATA, 2).hands


@pytest.mark.parametrize("n_players", [2, 4])
def test_recorded_columns_follow_action_kinds(n_players):
    """Every recorded row fills exactly the columns ``action_kinds`` names for its kind and holds -1 in
    the others; every column has a doc line (the named action columns of the records)."""
    assert set(GAME.action_docs) == set(GAME.action_fields)
    assert all(set(cols) <= set(GAME.action_fields) for cols in GAME.action_kinds.values())
    specs = [parse_spec(s, "mainland") for s in ("greedy", "builder", "raider", "random")[:n_players]]
    log = TurnLog()
    for seed in range(3):
        play_game(GAME, n_players, {}, DATA, seed, specs, GAME.default_max_decisions, log)
    for kind, fields in zip(log.kind, log.fields, strict=True):
        filled = {name for name, value in zip(GAME.action_fields, fields, strict=True) if value != -1}
        assert filled == set(GAME.action_kinds[kind]), (kind, fields)
    assert set(log.kind) == set(GAME.action_kinds)

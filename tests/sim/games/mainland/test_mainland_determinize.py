"""Mainland's ``determinize`` (``sim.games.mainland.hidden``): what a seat sees is kept (lines 77,
79; ruling R9: own hand, board, discard piles, sizes, tokens), what it cannot see (the other hands, every
deck's order, the game's generator, whether another seat's pass was forced) is drawn again from the generator
alone; the result is a legal state that plays on to the end, conserves every clan's cards, and ``ismcts``
can search it.

States come from seeded random games of every player count and both settings of each rule switch, taken
every few decisions and at every camp placement (line 67), so every phase (camp, start, place) is in.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np
import pytest

from sim.games import get_game
from sim.games.mainland.hidden import determinize
from sim.games.mainland.state import CAMP, OVER, PLACE, START, MainlandState
from tests.play_kit import (
    check_generator_draws,
    check_information_only,
    check_input_unchanged,
    check_unseen_changes,
    check_view_kept,
    kept_states,
    play_out,
    search_picks,
)

GAME: Any = get_game("mainland")
RULE_SETS = (
    {"castle_needs_overlap": True, "card_meets_own_requirements": False},
    {"castle_needs_overlap": False, "card_meets_own_requirements": True},
)
EVERY = 11  # a state kept every EVERY decisions (besides every camp placement)


def _play_out(state: MainlandState, rng: np.random.Generator, cap: int = 3000) -> int:
    """Random play to the end (every seat out of tokens, lines 73, 137); the number of decisions it took."""
    return play_out(GAME, state, rng, cap)


@functools.lru_cache(maxsize=1)
def _states() -> tuple[MainlandState, ...]:
    """Snapshots of seeded random games: every player count, both rule sets, every phase but OVER."""
    games = [(n, rules, 100 * n + 10 * r + seed, seed)
             for n in (2, 3, 4) for r, rules in enumerate(RULE_SETS) for seed in range(2)]
    return kept_states(GAME, games, lambda step, state: step % EVERY == 0 or state.phase == CAMP)


def _cases() -> list[tuple[int, MainlandState, int]]:
    """(index, state, seat) for every kept state and every seat."""
    return [(i, s, seat) for i, s in enumerate(_states()) for seat in range(s.n_players)]


def _same_view(a: Any, b: Any) -> bool:
    """Field-by-field equality of two ``MainlandView`` (numpy fields compared by value and dtype)."""
    if a._fields != b._fields:
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
                return False
            if x.dtype != y.dtype or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def _hidden(state: MainlandState, seat: int) -> tuple[Any, ...]:
    """What ``seat`` cannot see (lines 77, 79): every deck's order and the other hands."""
    others = tuple(tuple(h) for p, h in enumerate(state.hands) if p != seat)
    return tuple(map(tuple, state.decks)), others


def test_the_states_cover_every_player_count_and_phase() -> None:
    seen = Counter((s.n_players, s.phase) for s in _states())
    assert {n for n, _ in seen} == {2, 3, 4}
    assert {phase for _, phase in seen} == {CAMP, START, PLACE}, seen
    assert any(not d for s in _states() for d in s.decks), "no state with an empty deck (ruling R6)"
    assert any(s.stats["gatherings"][p] for s in _states() for p in range(s.n_players))  # line 143


def test_what_the_seat_sees_is_unchanged() -> None:
    """Lines 77 and 79, ruling R9: the view (own hand in its order, board, scores, discard piles, hand and
    deck sizes, tokens) is kept."""
    check_view_kept(GAME, determinize, _cases(), same=_same_view)
    for i, state, seat in _cases():
        det = determinize(state, seat, np.random.default_rng(i))
        assert (det.phase, det.current, det.round, det.tokens) == (state.phase, state.current, state.round,
                                                                    state.tokens)


def test_the_input_state_is_unchanged() -> None:
    for state, det in check_input_unchanged(GAME, determinize, _cases()[::3]):
        assert det.rng is not state.rng
        assert all(a is not b for a, b in zip(det.hands, state.hands, strict=True))


def test_it_depends_on_the_seats_information_only() -> None:
    """The determinization is a function of what the seat has seen (``check_information_only``)."""
    check_information_only(GAME, determinize, _cases())


def _changed(state: MainlandState, seat: int) -> MainlandState | None:
    """``state`` with hidden things moved by hand: another seat's hand card traded with its deck's bottom card
    and its deck's top and bottom swapped (line 79), ``seat``'s own deck reversed (line 79), one of another
    seat's voluntary passes counted forced (ruling R5: ``seat`` sees only the lost token), the game's
    generator moved on and its seed changed (the deal, line 77, and the next gathering, line 143, are
    unseen); None if no other seat has a hand card and a deck of two."""
    others = [p for p in range(state.n_players) if p != seat and state.hands[p] and len(state.decks[p]) >= 2]
    if not others:
        return None
    new = GAME.copy(state)
    p = others[0]
    hand, deck = new.hands[p], new.decks[p]
    hand[0], deck[-1] = deck[-1], hand[0]
    deck[0], deck[-1] = deck[-1], deck[0]
    new.decks[seat].reverse()
    for q in range(state.n_players):
        if q != seat and new.stats["passes"][q]:
            new.stats["passes"][q] -= 1
            new.stats["forced_passes"][q] += 1
            break
    new.rng.integers(2)
    new.seed += 1
    return new


def test_moving_hidden_cards_of_other_players_changes_nothing() -> None:
    pairs = check_unseen_changes(GAME, determinize, _cases(), _changed, same=_same_view)
    changes = sum(GAME.to_dict(changed)["hands"] != GAME.to_dict(state)["hands"] for state, changed in pairs)
    assert changes > 100, changes


def _off_board(state: MainlandState, p: int) -> Counter:
    return Counter([*state.hands[p], *state.decks[p], *state.discards[p]])


def test_every_clans_cards_are_conserved() -> None:
    """Line 77 (each clan its own deck), line 91 (the discard pile), line 143 (hand + deck + discards are
    all the cards off the board): every card is where it could be after as before; the cards placed are the
    same; the other seats' hands and decks hold exactly their cards ``seat`` has not seen."""
    data = GAME.load_data(None)
    clan = Counter(data.deck_cards)
    for i, state, seat in _cases():
        det = determinize(state, seat, np.random.default_rng(i))
        for p in range(state.n_players):
            assert _off_board(det, p) == _off_board(state, p) and _off_board(det, p) <= clan, (i, p)
            assert det.discards[p] == state.discards[p]
            assert sorted([*det.hands[p], *det.decks[p]]) == sorted([*state.hands[p], *state.decks[p]])
            assert len(det.hands[p]) == len(state.hands[p]) and len(det.decks[p]) == len(state.decks[p])
        assert sorted(det.decks[seat]) == sorted(state.decks[seat])
        assert np.array_equal(det.items, state.items) and np.array_equal(det.owner, state.owner)
        assert np.array_equal(det.counts, state.counts)


def test_other_seats_passes_are_counted_voluntary() -> None:
    """Ruling R5: a pass is offered even when a card fits, so ``seat`` cannot tell a forced one: the other
    seats' passes are all voluntary in the result, each seat's total kept; its own split is kept."""
    forced_seen = 0
    for i, state, seat in _cases():
        det = determinize(state, seat, np.random.default_rng(i))
        passes, forced = state.stats["passes"], state.stats["forced_passes"]
        for p in range(state.n_players):
            assert det.stats["passes"][p] + det.stats["forced_passes"][p] == passes[p] + forced[p]
            want = forced[p] if p == seat else 0
            assert det.stats["forced_passes"][p] == want
            forced_seen += p != seat and forced[p] > 0
        for name in ("placements", "replaces", "gatherings"):
            assert det.stats[name] == state.stats[name]
    assert forced_seen > 0, "no state with another seat's forced pass"


def test_the_generator_draws_the_hidden_parts() -> None:
    """Two generators usually deal different hidden parts; the same generator the same ones."""
    def enough(state: MainlandState, seat: int) -> bool:
        decks, others = _hidden(state, seat)
        return sum(map(len, decks)) + sum(map(len, others)) >= 6

    differ, total = check_generator_draws(GAME, determinize, _cases(), _hidden, enough)
    assert total > 100 and differ >= 0.98 * total, (differ, total)


def test_a_determinization_plays_on_to_the_end() -> None:
    """The result is a legal state: random play from it reaches the end (lines 73, 137) with no illegal
    choice, and the generator it carries is its own (its gatherings, line 143, do not touch the input's)."""
    for i, state, seat in _cases()[::5]:
        mover = GAME.to_move(state)[0]
        GAME.legal_options(state, mover)  # a cached placement count must not leak into it
        before = GAME.to_dict(state)
        det = determinize(state, seat, np.random.default_rng(i))
        assert det.placeable is None
        _play_out(det, np.random.default_rng(i))
        assert GAME.is_terminal(det) and det.phase == OVER and GAME.result(det).scores is not None
        assert GAME.to_dict(state) == before


def _mid_game(players: int) -> MainlandState:
    """A start-of-turn or placement state half-way through the sample of ``players`` with a choice."""
    sample = [s for s in _states() if s.n_players == players]
    return next(
        s for s in sample[len(sample) // 2 :]
        if s.phase in (START, PLACE) and len(GAME.legal_options(s, s.current)) > 1
    )


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_searches_a_mainland_state(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search strategy, given determinizations of its seat's information, makes a legal
    choice, the same whatever the opponents' hidden cards are, given the same generator."""
    monkeypatch.setattr(type(GAME), "determinize", staticmethod(determinize), raising=False)
    state = _mid_game(players)
    seat = state.current
    picks = search_picks(GAME, [state, _changed(state, seat) or state], seat)
    assert picks[0] == picks[1]

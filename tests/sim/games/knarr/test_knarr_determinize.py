"""Knarr's ``determinize`` (``sim.games.knarr.hidden``): what a seat sees is kept, what it cannot
see (ruling R9: other hands, the deck orders) is drawn again from the generator alone; the result is a
legal state that plays on to the end, conserves every component, and ``ismcts`` can search it.

States come from seeded random games of every player count, with and without the expansion and the
artifacts, taken every few decisions and at every decision outside the ordinary turn (the artifact
bonuses, A.7, and the deck-exhaustion discard, A.5 'Empty Viking deck' / ruling R6).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np
import pytest

from sim.games import get_game
from sim.games.knarr.hidden import determinize
from sim.games.knarr.state import BONUS, DISCARD, TURN, KnarrState
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

GAME: Any = get_game("knarr")
RULE_SETS = ({}, {"skali": True}, {"artifacts": True}, {"skali": True, "artifacts": True})
EVERY = 9  # a state kept every EVERY decisions (besides every BONUS and DISCARD one)


def _play_out(state: KnarrState, rng: np.random.Generator, cap: int = 4000) -> int:
    """Random play to the end; the number of decisions it took."""
    return play_out(GAME, state, rng, cap)


@functools.lru_cache(maxsize=1)
def _states() -> tuple[KnarrState, ...]:
    """Snapshots of seeded random games: every player count, every rule set, every phase but OVER."""
    games = [(n, rules, 100 * n + 10 * r + seed, seed)
             for n in (2, 3, 4) for r, rules in enumerate(RULE_SETS) for seed in range(3)]
    return kept_states(GAME, games, lambda step, state: step % EVERY == 0 or state.phase != TURN)


def _cases() -> list[tuple[int, KnarrState, int]]:
    """(index, state, seat) for every kept state and every seat."""
    return [(i, s, seat) for i, s in enumerate(_states()) for seat in range(s.n_players)]


def _vikings(state: KnarrState) -> list[int]:
    cards = [*state.deck, *state.discard, *(c for c in state.board if c >= 0)]
    cards += [c for hand in state.hands for c in hand]
    cards += [c for crew in state.crews for column in crew for c in column]
    return sorted(cards)


def _destinations(state: KnarrState) -> list[int]:
    cards = [*state.deck_a, *state.deck_b, *(d for d in state.visible if d >= 0)]
    return sorted(cards + [d for own in state.owned for d in own] + [d for r in state.reserved for d in r])


def _buildings(state: KnarrState) -> list[int]:
    owned = [b for seat in state.buildings for b in seat]
    return sorted([*state.building_deck, *(b for b in state.display if b >= 0), *owned])


def _hidden(state: KnarrState, seat: int) -> tuple[Any, ...]:
    """What ``seat`` cannot see (ruling R9): the deck orders and the other hands."""
    others = tuple(tuple(h) for p, h in enumerate(state.hands) if p != seat)
    return tuple(state.deck), others, tuple(state.deck_a), tuple(state.deck_b), tuple(state.building_deck)


def test_the_states_cover_every_player_count_and_phase() -> None:
    """The sample reaches the deck-exhaustion discard (A.5, ruling R6) and the artifact bonuses (A.7)."""
    seen = Counter((s.n_players, s.phase) for s in _states())
    assert {n for n, _ in seen} == {2, 3, 4}
    assert {phase for _, phase in seen} == {TURN, BONUS, DISCARD}, seen


def test_what_the_seat_sees_is_unchanged() -> None:
    """Ruling R9: the view (own hand, board, crews, destinations, tokens, discard pile, sizes) is kept."""
    check_view_kept(GAME, determinize, _cases())


def test_the_input_state_is_unchanged() -> None:
    check_input_unchanged(GAME, determinize, _cases()[::3])


def test_it_depends_on_the_seats_information_only() -> None:
    """The determinization is a function of what the seat has seen (``check_information_only``)."""
    check_information_only(GAME, determinize, _cases())


def _swapped(state: KnarrState, seat: int) -> KnarrState | None:
    """``state`` with a hand card of two other seats traded, the top and bottom of the Viking deck swapped
    (A.4 step 3 deals the hands secretly; ruling R9) and the game's generator and seed moved on (its next
    reshuffle, A.5, is unseen); None if there is nothing to trade."""
    others = [p for p in range(state.n_players) if p != seat and state.hands[p]]
    if len(others) < 2 or len(state.deck) < 2:
        return None
    new = GAME.copy(state)
    a, b = others[:2]
    new.hands[a][0], new.hands[b][-1] = new.hands[b][-1], new.hands[a][0]
    new.deck[0], new.deck[-1] = new.deck[-1], new.deck[0]
    new.rng.integers(2)
    new.seed += 1
    return new


def test_trading_hidden_cards_between_other_players_changes_nothing() -> None:
    swaps = len(check_unseen_changes(GAME, determinize, _cases(), _swapped))
    assert swaps > 100, swaps


def test_components_are_conserved_and_the_pool_is_what_the_seat_has_not_seen() -> None:
    """A.2 (the Viking deck by player count), A.3 and expansion lines 9-10 (destinations), line 28
    (Buildings): every card is somewhere after as before; the other hands and the deck hold exactly the
    Vikings ``seat`` cannot see (all of the game's less its hand, the board, the crews and the discard)."""
    data = GAME.load_data(None)
    for i, state, seat in _cases():
        det = determinize(state, seat, np.random.default_rng(i))
        assert _vikings(det) == _vikings(state) == sorted(data.deck_for(state.n_players))
        assert _destinations(det) == _destinations(state)
        assert _buildings(det) == _buildings(state)
        assert sorted(det.deck_a) == sorted(state.deck_a) and sorted(det.deck_b) == sorted(state.deck_b)
        seen = set(state.hands[seat]) | set(state.discard) | {c for c in state.board if c >= 0}
        seen |= {c for column in state.crews for cards in column for c in cards}
        pool = [*det.deck, *(c for p, h in enumerate(det.hands) if p != seat for c in h)]
        assert sorted(pool) == sorted(set(data.deck_for(state.n_players)) - seen)
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]


def test_the_generator_draws_the_hidden_parts() -> None:
    """Two generators usually deal different hidden parts; the same generator the same ones."""
    differ, total = check_generator_draws(
        GAME, determinize, _cases(), _hidden,
        lambda state, seat: len(_hidden(state, seat)[0]) + sum(map(len, _hidden(state, seat)[1])) >= 6,
    )
    assert total > 100 and differ >= 0.98 * total, (differ, total)


def test_a_determinization_plays_on_to_the_end() -> None:
    """The result is a legal state: random play from it reaches the end (A.6) with no illegal choice, and
    the game's generator it carries is its own (its reshuffles, A.5, do not touch the input's)."""
    for i, state, seat in _cases()[::7]:
        GAME.legal_options(state, GAME.to_move(state)[0])  # a cached option list must not leak into it
        before = GAME.to_dict(state)
        det = determinize(state, seat, np.random.default_rng(i))
        assert det.legal is None and det.rng is not state.rng
        _play_out(det, np.random.default_rng(i))
        assert GAME.is_terminal(det) and GAME.result(det).scores is not None
        assert GAME.to_dict(state) == before


def _mid_game(players: int) -> KnarrState:
    """A state of the ordinary turn, half-way through the sample of ``players``, where the player to move
    has a choice."""
    sample = [s for s in _states() if s.n_players == players]
    return next(
        s for s in sample[len(sample) // 2 :] if s.phase == TURN and len(GAME.legal_options(s, s.current)) > 1
    )


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_searches_a_knarr_state(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search strategy, given determinizations of its seat's information, makes a legal
    choice; its choice is the same whatever the opponents' hidden cards are, given the same generator."""
    monkeypatch.setattr(type(GAME), "determinize", staticmethod(determinize), raising=False)
    state = _mid_game(players)
    seat = state.current
    picks = search_picks(GAME, [state, _swapped(state, seat) or state], seat)
    assert picks[0] == picks[1]

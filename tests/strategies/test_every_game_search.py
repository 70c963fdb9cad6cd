"""What every registered game that declares ``determinize`` must keep (the conformance suite's
search checks), at states all through seeded random games at every player count:

* ``view(determinize(state, seat, rng), seat) == view(state, seat)``: what the seat sees is kept;
* a function of the seat's information only: a state that differs from ``state`` only in what ``seat``
  cannot see (itself a determinization, drawn with another generator) gives the same determinization
  for the same generator;
* the input state is unchanged, and random play from the sample reaches the end;
* ``ismcts`` makes the same choice whatever the opponents' hidden cards are, given the same generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sim.games import GAMES, get_game
from sim.search import SearchContext, searchable
from strategies.ismcts import ISMCTSStrategy
from tests.play_kit import seeded_states

pytestmark = pytest.mark.slow


SEARCHABLE = sorted(name for name in GAMES if searchable(get_game(name)))


def _same(a: Any, b: Any) -> bool:
    """Equality that also holds numpy arrays (views and snapshots may carry them)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _states(name: str, players: int, seed: int, every: int) -> list[Any]:
    """Copies of the states of one seeded random game, every ``every`` decision points."""
    return seeded_states(name, players, seed, every)


def _cases(name: str) -> list[tuple[Any, int]]:
    game = get_game(name)
    for every in (37, 1):  # every 37th decision, or every one in a game too short for that (tic-tac-toe)
        cases = []
        for players in range(game.min_players, game.max_players + 1):
            states = _states(name, players, seed=100 + players, every=every)
            for i, state in enumerate(states):
                movers = game.to_move(state)
                cases.append((state, movers[i % len(movers)] if movers else i % players))
        if len(cases) >= 6:
            break
    return cases


def _play_to_end(game: Any, state: Any, rng: np.random.Generator) -> None:
    for _ in range(game.default_max_decisions):
        if game.is_terminal(state):
            return
        choices = {}
        for seat in game.to_move(state):
            options = game.legal_options(state, seat)
            assert len(options) > 0, f"{game.name}: seat {seat} to move with no options in a sample"
            choices[seat] = options[int(rng.integers(len(options)))]
        game.apply(state, choices)


@pytest.mark.parametrize("name", SEARCHABLE)
def test_determinize_keeps_the_view_and_depends_only_on_the_seat_information(name: str) -> None:
    game = get_game(name)
    for k, (state, seat) in enumerate(_cases(name)):
        before = game.to_dict(state)
        sample = game.determinize(state, seat, np.random.default_rng(k))
        assert _same(game.to_dict(state), before), f"{name}: determinize changed its input"
        assert _same(game.view(sample, seat), game.view(state, seat)), f"{name}: seat {seat} sees otherwise"
        other = game.determinize(state, seat, np.random.default_rng(10_000 + k))  # differs only in the unseen
        a = game.determinize(state, seat, np.random.default_rng(k + 1))
        b = game.determinize(other, seat, np.random.default_rng(k + 1))
        assert _same(game.to_dict(a), game.to_dict(b)), f"{name}: depends on the unseen ({seat})"
        if k % 5 == 0:
            _play_to_end(game, sample, np.random.default_rng(k))


@pytest.mark.parametrize("name", SEARCHABLE)
def test_ismcts_choices_do_not_depend_on_what_its_seat_cannot_see(name: str) -> None:
    game = get_game(name)
    cases = [(s, seat) for s, seat in _cases(name) if seat in game.to_move(s)]
    checked = 0
    for state, seat in cases[:: max(1, len(cases) // 6)]:
        options = game.legal_options(state, seat)
        if len(options) < 2:
            continue
        other = game.determinize(state, seat, np.random.default_rng(7))
        picks = []
        for truth in (state, other):
            player = ISMCTSStrategy(seat, np.random.default_rng(3), iterations="12", depth="4")
            player.attach(SearchContext(game, seat, truth))
            pick = player.choose(game.view(truth, seat), game.legal_options(truth, seat))
            picks.append(repr(pick.tolist() if isinstance(pick, np.ndarray) else pick))
        assert picks[0] == picks[1], f"{name}: the search chose by what seat {seat} cannot see"
        checked += 1
    assert checked >= 2, f"{name}: too few decisions with a choice were searched"

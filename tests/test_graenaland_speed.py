"""Graenaland speed work (issue 18): what got faster must stay the same game.

``copy`` gives an independent state that plays on exactly like the original; the options the rules
list are the ones the straightforward enumeration lists, in the same order (random strategies index
into them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from sim.games.graenaland.game import GAME
from sim.games.graenaland.state import FLAT_FIELDS, NESTED_FIELDS, GraenalandState

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

"""Seeds derive from the root seed alone, and nothing reads or moves global random state."""

from __future__ import annotations

import random

import numpy as np

from sim.play import play_game
from sim.seeding import game_seed, state_seed, streams
from sim.specs import parse_spec
from tests.toy_game import GAME


def test_game_seed_is_deterministic_and_distinct() -> None:
    seeds = [game_seed(42, i) for i in range(200)]
    assert seeds == [game_seed(42, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert all(0 <= s < 2**64 for s in seeds)
    assert game_seed(43, 0) != game_seed(42, 0)
    assert isinstance(seeds[0], int)


def test_streams_are_deterministic_and_independent_per_seat() -> None:
    seq_a, rngs_a = streams(123, 3)
    seq_b, rngs_b = streams(123, 3)
    assert state_seed(seq_a) == state_seed(seq_b)
    draws_a = [r.integers(1 << 30, size=4).tolist() for r in rngs_a]
    draws_b = [r.integers(1 << 30, size=4).tolist() for r in rngs_b]
    assert draws_a == draws_b
    assert len({tuple(d) for d in draws_a}) == 3
    assert state_seed(streams(124, 3)[0]) != state_seed(seq_a)


def _play(seed: int) -> tuple[list[float], int]:
    specs = [parse_spec("random", GAME.name)] * 3
    outcome = play_game(
        GAME, 3, {"rounds": 4, "endless": False, "bonus": 0.0}, GAME.load_data(None), seed, specs, 100
    )
    return outcome.result.scores, outcome.decisions


def test_global_random_state_is_neither_used_nor_moved() -> None:
    np.random.seed(1)
    random.seed(1)
    np_state, py_state = np.random.get_state(), random.getstate()
    first = [_play(game_seed(5, i)) for i in range(20)]
    after_np, after_py = np.random.get_state(), random.getstate()
    assert all(
        np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b for a, b in zip(np_state, after_np)
    )
    assert after_py == py_state
    np.random.seed(999)
    random.seed(999)
    assert [_play(game_seed(5, i)) for i in range(20)] == first

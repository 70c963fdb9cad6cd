"""Seat modes: balanced seats for rotate/exhaustive, the same seed within a block."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim import seats
from sim.errors import SkaldError


@given(n=st.integers(2, 5), block=st.integers(0, 50), mode=st.sampled_from(["rotate", "exhaustive"]))
def test_blocks_balance_every_strategy_over_every_seat(n: int, block: int, mode: str) -> None:
    size = seats.block_size(mode, n)
    assignments = [seats.assign(mode, n, 42, block * size + k) for k in range(size)]
    assert {base for base, _ in assignments} == {block}
    counts = Counter((seat, order[seat]) for _, order in assignments for seat in range(n))
    assert set(counts) == {(seat, s) for seat in range(n) for s in range(n)}
    assert len(set(counts.values())) == 1
    orders = [order for _, order in assignments]
    assert len(set(orders)) == size
    assert all(sorted(order) == list(range(n)) for order in orders)


def test_block_sizes_and_rounding() -> None:
    assert seats.block_size("rotate", 4) == 4
    assert seats.block_size("exhaustive", 4) == math.factorial(4)
    assert seats.block_size("random", 4) == seats.block_size("fixed", 4) == 1
    assert seats.round_games("rotate", 4, 10) == 12
    assert seats.round_games("rotate", 4, 12) == 12
    assert seats.round_games("exhaustive", 3, 7) == 12
    assert seats.round_games("random", 3, 7) == 7


def test_random_mode_draws_a_permutation_per_game_from_the_root_seed() -> None:
    orders = [seats.assign("random", 4, 9, i) for i in range(100)]
    assert [base for base, _ in orders] == list(range(100))
    assert all(sorted(order) == [0, 1, 2, 3] for _, order in orders)
    assert len({order for _, order in orders}) > 10
    assert orders == [seats.assign("random", 4, 9, i) for i in range(100)]
    assert orders != [seats.assign("random", 4, 10, i) for i in range(100)]


def test_fixed_mode_and_unknown_mode() -> None:
    assert seats.assign("fixed", 3, 1, 17) == (17, (0, 1, 2))
    with pytest.raises(SkaldError, match="allowed: rotate, random, exhaustive, fixed"):
        seats.check_mode("shuffle")


def test_identical_strategies_are_not_replayed_as_identical_games() -> None:
    """Rotating identical strategies would replay the very same game: a block keeps only distinct orders."""
    assert seats.block_size("rotate", 3, ["greedy"] * 3) == 1
    assert seats.block_size("exhaustive", 3, ["greedy", "greedy", "random"]) == 3
    assert seats.block_size("rotate", 4, ["g", "g", "r", "r"]) == 4
    assert [seats.assign("rotate", 3, 1, i, ["a"] * 3)[0] for i in range(3)] == [0, 1, 2]
    orders = [seats.assign("exhaustive", 3, 1, i, ["g", "g", "r"])[1] for i in range(3)]
    seated = {tuple(["g", "g", "r"][k] for k in order) for order in orders}
    assert seated == {("g", "g", "r"), ("g", "r", "g"), ("r", "g", "g")}

"""Seat assignment: which strategy (index into ``--strategies``) sits in which seat.

Modes:

* ``rotate`` (default): the n cyclic shifts of the strategy list; each block of n
  consecutive games replays the same game seed under every shift, so every strategy
  plays every seat once per block, on the same deal.
* ``exhaustive``: all n! orders of the strategy list, the same seed replayed under each.
* ``random``: a fresh random order per game, drawn from the root seed and the game index.
* ``fixed``: the strategy list as given, every game.

For ``rotate`` and ``exhaustive`` the number of games is rounded up to whole blocks.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

from sim.errors import SkaldError
from sim.seeding import seat_rng

MODES: tuple[str, ...] = ("rotate", "random", "exhaustive", "fixed")
DEFAULT_MODE = "rotate"


def check_mode(mode: str) -> str:
    """Return ``mode`` if known; raise ``SkaldError`` listing the modes otherwise."""
    if mode not in MODES:
        raise SkaldError(f"unknown seat mode {mode!r} (allowed: {', '.join(MODES)})")
    return mode


def block_size(mode: str, n_players: int) -> int:
    """Games per block: one seed is replayed under every order of a block."""
    check_mode(mode)
    if mode == "rotate":
        return n_players
    if mode == "exhaustive":
        return math.factorial(n_players)
    return 1


def round_games(mode: str, n_players: int, games: int) -> int:
    """``games`` rounded up to a whole number of blocks (unchanged for random and fixed)."""
    size = block_size(mode, n_players)
    return -(-games // size) * size


@lru_cache(maxsize=16)
def _permutations(n_players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(n_players)))


def assign(mode: str, n_players: int, root: int, game_index: int) -> tuple[int, tuple[int, ...]]:
    """(base index for the game seed, strategy index per seat) for global game ``game_index``."""
    if mode == "rotate":
        shift = game_index % n_players
        return game_index // n_players, tuple((seat + shift) % n_players for seat in range(n_players))
    if mode == "exhaustive":
        perms = _permutations(n_players)
        return game_index // len(perms), perms[game_index % len(perms)]
    if mode == "random":
        order = seat_rng(root, game_index).permutation(n_players)
        return game_index, tuple(int(x) for x in order)
    if mode == "fixed":
        return game_index, tuple(range(n_players))
    check_mode(mode)
    raise AssertionError(f"seat mode {mode!r} has no assignment")

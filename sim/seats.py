"""Seat assignment: which strategy (index into ``--strategies``) sits in which seat.

Modes:

* ``rotate`` (default): the n cyclic shifts of the strategy list; each block of n
  consecutive games replays the same game seed under every shift, so every strategy
  plays every seat once per block, on the same deal.
* ``exhaustive``: all n! orders of the strategy list, the same seed replayed under each.
* ``random``: a fresh random order per game, drawn from the root seed and the game index.
* ``fixed``: the strategy list as given, every game.

For ``rotate`` and ``exhaustive`` the number of games is rounded up to whole blocks.  With
``replicates = r`` every deal is played r times (a block is r times as long, under every mode), each time
with fresh strategy generators: the deal's share of the outcome (its seed effect) is then measurable.  When
the strategy texts are given, a block holds only the *distinct* arrangements: orders that put
the same strategies in the same seats would replay the very same game (same seed, same
per-seat generators), so ``greedy,greedy,greedy`` under ``rotate`` is one game per seed, and
``greedy,greedy,random`` under ``exhaustive`` three, not six.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
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


@lru_cache(maxsize=64)
def arrangements(
    mode: str, n_players: int, texts: tuple[str, ...] | None = None
) -> tuple[tuple[int, ...], ...]:
    """The orders (strategy index per seat) of one block of ``rotate`` or ``exhaustive``.

    With ``texts`` (the spec text of each strategy index), orders that seat the same texts
    as an earlier order are dropped.
    """
    if mode == "rotate":
        orders = [tuple((seat + k) % n_players for seat in range(n_players)) for k in range(n_players)]
    else:
        orders = list(itertools.permutations(range(n_players)))
    if texts is None:
        return tuple(orders)
    seen: set[tuple[str, ...]] = set()
    distinct = []
    for order in orders:
        key = tuple(texts[i] for i in order)
        if key not in seen:
            seen.add(key)
            distinct.append(order)
    return tuple(distinct)


def _orders(mode: str, n_players: int, texts: Sequence[str] | None) -> int:
    """Seatings a deal is played under once: the (distinct) orders of a rotate or exhaustive block, else 1."""
    if mode in ("rotate", "exhaustive"):
        return len(arrangements(mode, n_players, None if texts is None else tuple(texts)))
    return 1


def block_size(mode: str, n_players: int, texts: Sequence[str] | None = None, replicates: int = 1) -> int:
    """Games per block: one seed is replayed under every (distinct) order of a block, ``replicates``
    times (each replicate with fresh strategy generators, ``sim.seeding.streams``)."""
    check_mode(mode)
    return _orders(mode, n_players, texts) * replicates


def round_games(
    mode: str, n_players: int, games: int, texts: Sequence[str] | None = None, replicates: int = 1
) -> int:
    """``games`` rounded up to a whole number of blocks (unchanged for random and fixed, one replicate)."""
    size = block_size(mode, n_players, texts, replicates)
    return -(-games // size) * size


def replicate_of(
    mode: str, n_players: int, game_index: int, texts: Sequence[str] | None = None, replicates: int = 1
) -> int:
    """Which replicate of its deal global game ``game_index`` is (0 to ``replicates - 1``): a block plays
    every seating of replicate 0, then every seating of replicate 1, and so on."""
    return (game_index // _orders(mode, n_players, texts)) % replicates


def assign(
    mode: str,
    n_players: int,
    root: int,
    game_index: int,
    texts: Sequence[str] | None = None,
    replicates: int = 1,
) -> tuple[int, tuple[int, ...]]:
    """(base index for the game seed, strategy index per seat) for global game ``game_index``; the
    ``replicates`` of one deal share its base index."""
    if mode in ("rotate", "exhaustive"):
        orders = arrangements(mode, n_players, None if texts is None else tuple(texts))
        return game_index // len(orders) // replicates, orders[game_index % len(orders)]
    if mode == "random":
        order = seat_rng(root, game_index).permutation(n_players)
        return game_index // replicates, tuple(int(x) for x in order)
    if mode == "fixed":
        return game_index // replicates, tuple(range(n_players))
    check_mode(mode)
    raise AssertionError(f"seat mode {mode!r} has no assignment")

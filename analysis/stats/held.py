"""Do the seats holding a card do better than their strategy predicts?  ``held_vs_expected``: a
permutation test of who holds the card, blocks and strata kept (Knarr's held cards;
reference/analysis-methods.md sections 2 and 6)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analysis.stats import stats
from analysis.stats.estimates import Array

#: permutations drawn per test: p from 1/10,000 up, with a Monte Carlo error of 0.0003 at p = 0.001
DRAWS = 9999
#: the level the interval is the inverted test of
ALPHA = 0.05
#: statistics closer than this are ties (a permutation "as extreme as" the data)
TIE = 1e-9
#: permutations drawn at once (memory: CHUNK x rows indices)
CHUNK = 1000


@dataclass(frozen=True)
class HeldTest:
    """Per card (last axis): the holders' observed mean, the mean their strata predict, the difference
    with its 95% interval and p value, the holders and the blocks it stands on."""

    observed: Array
    expected: Array
    estimate: Array
    se: Array
    low: Array
    high: Array
    p_value: Array
    holders: Array
    clusters: Array
    test: str


@dataclass(frozen=True)
class _Design:
    """Rows in canonical ``order`` and what a permutation exchanges, level by level: blocks of one
    ``block_class`` (the same games), a block's games of one ``layout`` (the same strata in their seats;
    ``game_group`` is block and layout), a game's rows of one stratum (``cell``).  ``game_rank`` and
    ``row_rank`` number the units of a group; ``games[block, layout, rank]`` and
    ``rows[game, stratum, rank]`` find them again.  ``orbit``: the rows a row's holding can move to."""

    order: Array
    stratum: Array
    game: Array
    block_class: Array
    game_block: Array
    layout: Array
    game_group: Array
    game_rank: Array
    games: Array
    cell: Array
    row_rank: Array
    rows: Array
    orbit: Array


def _codes(*columns: Array) -> Array:
    """One dense integer code per distinct combination of ``columns`` (units on axis 0)."""
    return np.unique(np.column_stack(columns), axis=0, return_inverse=True)[1].reshape(-1)


def _ranks(group: Array) -> Array:
    """Each unit's rank among the units of its group, in their order."""
    by = np.argsort(group, kind="stable")
    rank = np.empty(len(group), dtype=int)
    rank[by] = np.arange(len(group)) - np.searchsorted(group[by], group[by])
    return rank


def _lookup(parent: Array, kind: Array, rank: Array) -> Array:
    """``table[parent, kind, rank]``: the unit (-1 where none)."""
    table = np.full((int(parent.max()) + 1, int(kind.max()) + 1, int(rank.max()) + 1), -1)
    table[parent, kind, rank] = np.arange(len(parent))
    return table


def _design(held: Array, value: Array, stratum: Array, block: Array, game: Array | None) -> _Design:
    """The rows in one order (by block, game, stratum, value and holdings: the draws do not depend on
    the order the records were read in) and the groups a permutation exchanges."""
    g_in = np.zeros(len(value)) if game is None else np.asarray(game, dtype=float)
    order = np.lexsort((*held.T[::-1], value, stratum, g_in, block))
    s, b = stratum[order], _codes(block[order])
    g = _codes(b, g_in[order]) if game is not None else np.arange(len(order))  # a row is a game of its own
    game_block = np.zeros(int(g.max()) + 1, dtype=int)
    game_block[g] = b
    seats = np.zeros((len(game_block), int(s.max()) + 1), dtype=int)  # seats per stratum in each game
    np.add.at(seats, (g, s), 1)
    layout = _codes(seats)
    shape = np.zeros((int(b.max()) + 1, int(layout.max()) + 1), dtype=int)  # games per layout per block
    np.add.at(shape, (game_block, layout), 1)
    block_class = _codes(shape)
    game_group = _codes(game_block, layout)
    game_rank = _ranks(game_group)
    cell = _codes(g, s)
    row_rank = _ranks(cell)
    return _Design(
        order=order,
        stratum=s,
        game=g,
        block_class=block_class,
        game_block=game_block,
        layout=layout,
        game_group=game_group,
        game_rank=game_rank,
        games=_lookup(game_block, layout, game_rank),
        cell=cell,
        row_rank=row_rank,
        rows=_lookup(g, s, row_rank),
        orbit=_codes(block_class[b], layout[g], s),
    )


def _shuffled(classes: Array, rng: np.random.Generator, draws: int) -> Array:
    """(draws, n): each unit's image under a uniformly random permutation within its class, one per
    draw; (1, n), the identity, where no class has two units."""
    n = len(classes)
    order = np.argsort(classes, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(classes[order]) != 0])
    sizes = np.diff(np.r_[starts, n])
    if not (sizes > 1).any():
        return np.arange(n)[None]
    out = np.tile(np.arange(n), (draws, 1))
    for size in np.unique(sizes[sizes > 1]):
        members = order[starts[sizes == size][:, None] + np.arange(size)]  # classes x size
        out[:, members] = rng.permuted(np.broadcast_to(members, (draws, *members.shape)), axis=-1)
    return out


def _permutations(d: _Design, rng: np.random.Generator, draws: int) -> Array:
    """(draws, rows): each row's image under a random permutation of the blocks within their class,
    of each block's games within their layout and of each game's rows within their stratum."""
    blocks = _shuffled(d.block_class, rng, draws)[:, d.game_block]
    games = d.games[blocks, d.layout, d.game_rank[_shuffled(d.game_group, rng, draws)]]
    return d.rows[games[:, d.game], d.stratum, d.row_rank[_shuffled(d.cell, rng, draws)]]


def _null(w: Array, h: Array, d: _Design, rng: np.random.Generator, draws: int) -> Array:
    """(draws, cards): the statistic Σ_i h_ic w_i with the holdings permuted.  Σ_i h_π(i) w_i =
    Σ_j h_j w_π⁻¹(j), and π⁻¹ is as likely as π: the values move, not the holdings."""
    return np.concatenate(
        [w[_permutations(d, rng, min(CHUNK, draws - start))] @ h for start in range(0, draws, CHUNK)]
    )


def _critical(null: Array, draws: int) -> Array:
    """Per card, the largest |T| the p value (1 + k) / (draws + 1) still leaves at ``ALPHA`` or above:
    p < ``ALPHA`` exactly when |T| exceeds it by more than ``TIE``; inf with too few draws to reach it."""
    allowed = math.ceil(ALPHA * (draws + 1) - 1) - 1  # permutations at least as extreme a rejection allows
    if allowed < 0:
        return np.full(null.shape[1:], np.inf)
    return -np.partition(-np.abs(null), allowed, axis=0)[allowed]


def held_vs_expected(
    held: Array, value: Array, stratum: Array, block: Array, game: Array | None = None, draws: int = DRAWS
) -> HeldTest:
    """Do the rows holding each card do better than their stratum predicts?  ``held[i, c]`` is 1 where
    row i (a seat in a game) holds card c, ``value[i]`` its outcome (win share), ``stratum[i]`` its
    stratum (the strategy, within one players/variant/mix group), ``block[i]`` its block and
    ``game[i]`` its game, as integer codes (without ``game`` every row is a game of its own).

    *The estimate.*  A row's orbit is the rows its holding may be exchanged with (below): its stratum's
    rows wherever the blocks are alike, so m_i, the orbit's mean outcome, is the stratum's rate r_s
    (over the blocks of the same shape where truncated games left some blocks short).  ``expected`` is
    the mean of m_i over the holders and ``estimate`` D_c = observed - expected = T_c / n_c with
    T_c = Σ_i h_ic (v_i - m_i).

    *The test* is a permutation test of who holds the card that keeps the design: whole blocks change
    places with blocks of the same shape (every block is one deal, independent of the others, so a
    block's holdings move together), the games of one block change places with its games of the same
    strata (a game's holdings move with it: a card only one seat per game can take stays so), and so
    do the rows of one stratum within a game.  Under the null (holdings independent of outcomes, each
    stratum's holdings exchangeable that way) the test is exact whatever the number of holders:
    holders who all lost are compared with what as many rows of their strata could have scored, not
    with a spread that vanished.  The p value is the share of ``draws``
    permutations (from a generator seeded from the data, ``stats.data_seed``) with |T*| ≥ |T|, the
    data counted once: (1 + k) / (draws + 1).  With few holders and win-or-lose outcomes it is
    conservative (the distribution is discrete: with 13 holders in 40 four-player games 3.3-3.8% of
    null cards get p <= 0.05 and 0.05% p <= 0.001; ``tools/calibrate_held.py``).

    *The interval* is D_c ± c / n_c, c the permutation's 95% critical value of |T|: it leaves out 0
    exactly when p < 0.05 (the test inverted as if an effect moved T without changing its spread);
    ``se`` is the permutation's standard deviation of D_c (the null spread).  Where no permutation
    changes T (no row the holdings could move to scored differently) p is 1 and ``se`` and the
    interval are nan; everything is nan for a card no row holds.

    The t test on the block totals of (h - π_s)(v - r_s) this replaces had no spread left where every
    holder lost: in 40 four-player games of one strategy with 13 holders, 2.4% of null cards got
    p <= 0.001 (every card whose holders never won) and 13% p <= 0.05.
    """
    h0 = np.asarray(held, dtype=float)
    v0 = np.asarray(value, dtype=float)
    d = _design(h0, v0, np.asarray(stratum, dtype=int), np.asarray(block, dtype=int), game)
    h, v = h0[d.order], v0[d.order]
    m = (np.bincount(d.orbit, v) / np.bincount(d.orbit))[d.orbit]
    w = v - m
    seed = stats.data_seed(h, v, d.stratum, d.game, d.orbit, "held_vs_expected", draws)
    null = _null(w, h, d, np.random.default_rng(seed), draws)
    t = w @ h
    n = h.sum(axis=0)
    spread = null.std(axis=0)
    moves = (spread > TIE) & (n > 0)
    p = (1 + np.count_nonzero(np.abs(null) >= np.abs(t) - TIE, axis=0)) / (draws + 1)
    half = _critical(null, draws) + TIE
    some = np.where(n > 0, n, np.nan)
    return HeldTest(
        observed=h.T @ v / some,
        expected=h.T @ m / some,
        estimate=t / some,
        se=np.where(moves, spread / some, np.nan),
        low=np.where(moves, (t - half) / some, np.nan),
        high=np.where(moves, (t + half) / some, np.nan),
        p_value=np.where(n > 0, p, np.nan),
        holders=n,
        clusters=np.full(n.shape, len(np.unique(d.game_block))),
        test=f"permutation of the holders within strata, blocks kept whole ({draws:,} draws)",
    )

"""Two groups (rule variants, result folders) compared against a margin in the quantity's own unit:
same within δ / differs / undecided (reference/decisive-verdicts.md sections 1-2; the intervals of
reference/analysis-methods.md section 2).

* ``decide_difference``: one difference already estimated (estimate, SE, degrees of freedom), e.g. the
  bias-corrected seat gap of ``analysis.stats.variant_tests.gap_difference``.
* ``difference_effects`` / ``difference_decision``: a rate or a mean from block totals of each group:
  on different blocks the two ratio estimators' SEs add (Welch-Satterthwaite df); on the same seeds and
  seats (``paired``) the t on the blocks' differences (``analysis.stats.estimates.paired_difference``).
* ``seat_gap_decision``: the largest seat win-share gap of two variants.
* ``score_spread_decisions``: the winner's margin (points) and the share of close games, from each
  game's margin and block.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.stats.decide.core import ALPHA, SHARE_MARGIN, Decision, Effects, Frame, build, decide
from analysis.stats.estimates import Array, _ratio, paired_difference
from analysis.stats.stats import data_seed, in_order
from analysis.stats.variant_tests import gap_difference

#: games within this many points count as close (``analysis.questions.scores.winner_margin``'s rule)
CLOSE_WITHIN = 2.0


def _one(value: float | Array) -> Array:
    return np.atleast_1d(np.asarray(value, dtype=float))


def decide_difference(
    estimate: float,
    se: float,
    df: float,
    margin: float,
    alpha: float = ALPHA,
    *,
    blocks: int,
    games: float,
    test: str,
    label: str = "difference",
    level: float | None = None,
    stopping: str = "",
) -> Decision:
    """A difference decided against ``margin``: same within δ where its (1 − 2α) t interval lies inside
    ±δ (TOST), differs where its two-sided t test rejects, else undecided (with the games that would
    decide it).  One quantity: no correction."""
    effects = Effects(
        _one(estimate), _one(se), _one(df), np.asarray(blocks), np.asarray(games), np.zeros(1, bool), test
    )
    level = alpha if level is None else level
    tests = decide(effects, margin, 1, alpha, level)
    frame = Frame("difference", (label,), (0.0,), margin, alpha, level, 1, "none: one test", stopping)
    return build(effects, tests, frame)


def difference_effects(
    a: Array, b: Array, games_a: Array | None = None, games_b: Array | None = None, *, paired: bool = False
) -> Effects:
    """``b − a`` of a rate or a mean from block totals: ``a[..., j]`` the summed values (wins, points,
    close games) of group a's block j and ``games_a[..., j]`` its games (default 1: every block one game).

    * different blocks: each group's ratio estimator Σ y / Σ m with its block-total SE, SE² = SE_a² +
      SE_b², Welch-Satterthwaite df from each side's B − 1;
    * ``paired`` (the same seeds and seats: block j of a and of b share a deal, in the same order): the
      t on the blocks' differences of means, B − 1 df; it removes the deal's variance."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ma = np.ones(a.shape) if games_a is None else np.asarray(games_a, dtype=float)
    mb = np.ones(b.shape) if games_b is None else np.asarray(games_b, dtype=float)
    if paired:
        d = paired_difference(a / ma, b / mb)
        blocks = np.asarray(d.clusters)
        return Effects(
            d.estimate[..., None],
            d.se[..., None],
            np.asarray(d.df)[..., None],
            blocks,
            ma.sum(axis=-1) + mb.sum(axis=-1),
            np.zeros(1, bool),
            d.test,
        )
    ra, sa, na, ba = _ratio(a, ma)
    rb, sb, nb, bb = _ratio(b, mb)
    va, vb = sa**2, sb**2
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (va + vb) ** 2 / (va**2 / (ba - 1) + vb**2 / (bb - 1))
    return Effects(
        (rb - ra)[..., None],
        np.sqrt(va + vb)[..., None],
        df[..., None],
        ba + bb,
        na + nb,
        np.zeros(1, bool),
        "difference of two block t estimates (Welch-Satterthwaite df)",
    )


def difference_decision(
    a: Array,
    b: Array,
    margin: float,
    alpha: float = ALPHA,
    *,
    games_a: Array | None = None,
    games_b: Array | None = None,
    paired: bool = False,
    label: str = "difference",
) -> Decision:
    """Do groups a and b differ by more than ``margin`` (in the values' unit: a share, points)?  ``a``
    and ``b`` are block totals with ``games_a``/``games_b`` games per block (``difference_effects``);
    the blocks are put in one order first, so the records' order does not move the sums."""
    a, ma = _with_games(a, games_a)
    b, mb = _with_games(b, games_b)
    if paired:
        if len(a) != len(b):
            raise ValueError(f"paired groups need the same blocks: {len(a)} and {len(b)}")
        a, ma, b, mb = in_order(a, ma, b, mb)  # pairs move together
    else:
        (a, ma), (b, mb) = in_order(a, ma), in_order(b, mb)
    effects = difference_effects(a, b, ma, mb, paired=paired)
    return decide_difference(
        float(effects.estimate[0]),
        float(effects.se[0]),
        float(effects.df[0]),
        margin,
        alpha,
        blocks=int(effects.blocks),
        games=float(effects.games),
        test=effects.test,
        label=label,
    )


def _with_games(values: Array, games: Array | None) -> tuple[Array, Array]:
    """(values, games) as float arrays, one game per block where ``games`` is None."""
    y = np.asarray(values, dtype=float)
    m = np.ones(y.shape) if games is None else np.asarray(games, dtype=float)
    return y, m


def seat_gap_decision(
    wins_a: Array, wins_b: Array, margin: float, alpha: float = ALPHA, *, paired: bool, resamples: int = 400
) -> Decision:
    """Does the largest gap between two positions' win shares differ between variants a and b by more
    than ``margin``?  ``wins_*`` are (blocks x positions) summed win shares; the gap difference is
    ``analysis.stats.variant_tests.gap_difference``'s (bias-corrected by a bootstrap of whole blocks,
    jackknife t interval), its resamples drawn from a seed of the data (``stats.data_seed``)."""
    ya, yb = np.asarray(wins_a, dtype=float), np.asarray(wins_b, dtype=float)
    seed = data_seed(ya, yb, "decide.seat_gap", paired, resamples)
    gap = gap_difference(
        ya, ya.sum(axis=1), yb, yb.sum(axis=1), paired=paired, seed=seed, resamples=resamples
    )
    return decide_difference(
        float(gap.estimate),
        float(gap.se),
        float(gap.df),
        margin,
        alpha,
        blocks=int(gap.clusters),
        games=float(ya.sum() + yb.sum()),
        test=gap.test,
        label="largest seat gap",
    )


def block_sums(values: Array, blocks: Sequence[object] | Array) -> tuple[Array, Array, list]:
    """(totals, games, block ids): per block (ids sorted), the sum of ``values`` and the games."""
    ids, index = np.unique(np.asarray(blocks), return_inverse=True)
    totals = np.zeros(len(ids))
    np.add.at(totals, index, np.asarray(values, dtype=float))
    return totals, np.bincount(index, minlength=len(ids)).astype(float), list(ids)


def score_spread_decisions(
    margins_a: Array,
    blocks_a: Sequence[object] | Array,
    margins_b: Array,
    blocks_b: Sequence[object] | Array,
    points: float,
    share: float = SHARE_MARGIN,
    *,
    close_within: float = CLOSE_WITHIN,
    paired: bool = False,
    alpha: float = ALPHA,
) -> dict[str, Decision]:
    """The winner's margin over the runner-up (mean, decided against ``points``) and the share of close
    games (margin at most ``close_within`` points; decided against ``share``) of groups a and b, from
    each game's margin and block.  ``paired``: the groups' blocks are matched by id (the same seeds and
    seats); blocks only one group has are left out."""
    ma, ga, ia = block_sums(margins_a, blocks_a)
    mb, gb, ib = block_sums(margins_b, blocks_b)
    ca, _, _ = block_sums(np.asarray(margins_a, float) <= close_within, blocks_a)
    cb, _, _ = block_sums(np.asarray(margins_b, float) <= close_within, blocks_b)
    if paired:
        both = sorted(set(ia) & set(ib))
        ka, kb = [ia.index(x) for x in both], [ib.index(x) for x in both]
        ma, ga, ca, mb, gb, cb = ma[ka], ga[ka], ca[ka], mb[kb], gb[kb], cb[kb]
    return {
        "winner's margin": difference_decision(
            ma, mb, points, alpha, games_a=ga, games_b=gb, paired=paired, label="winner's margin"
        ),
        "close games": difference_decision(
            ca, cb, share, alpha, games_a=ga, games_b=gb, paired=paired, label="close games"
        ),
    }

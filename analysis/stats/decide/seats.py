"""Seat (start position, draft pick, tribe) verdicts decided against a margin, and their change under
stronger play (reference/decisive-verdicts.md sections 1-2).

The input is block-level: ``wins[b, i]`` is position i's summed win shares in block b (one deal under
every seat arrangement; the game under random seats), ties split fractionally as
``analysis.questions.balance`` counts them (a k-way tie gives each tied winner 1/k).  A block's decided games
are its row's sum (every decided game hands out one win), unless ``games`` says otherwise.

* ``seat_effects``: each position's win share Σ_b y_bi / Σ_b m_b minus its even share, with the block
  total standard error of the ratio estimator and t on B − 1 degrees of freedom
  (reference/analysis-methods.md section 2, ``analysis.stats.estimates``); with m games per block it is the
  one-sample t interval on the blocks' win shares.
* ``seat_decision``: fair within δ / unfair / undecided (``analysis.stats.decide.core``).
* ``change_effects`` / ``change_decision``: side b's deviation minus side a's, per position, on two
  independent samples of blocks (Welch-Satterthwaite degrees of freedom); holds within δ / changes /
  undecided.  Which position tops either side plays no part.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.stats.decide.core import (
    ALPHA,
    SEAT_MARGIN,
    Decision,
    Effects,
    Frame,
    build,
    decide,
)
from analysis.stats.estimates import Array, _ratio
from analysis.stats.stats import canonical_rows

SEAT_TEST = "score test on each position's win share at n_eff = n/DEFF, t on B-1 df (Wilson interval)"
CHANGE_TEST = "difference of two independent block t estimates per position (Welch-Satterthwaite df)"


def family_size(positions: int) -> int:
    """The difference test's family: the k positions, or one where there are two (their deviations are
    each other's negatives, so the two tests are one)."""
    return 1 if positions == 2 else positions


def correction_name(positions: int) -> str:
    """How the difference test is corrected across positions, in words."""
    if positions == 2:
        return "none: two positions' deviations are one test"
    return f"Holm over {positions} positions (intervals: Bonferroni, simultaneous)"


def seat_effects(y: Array, m: Array | None = None, expected: Array | None = None) -> Effects:
    """Each position's deviation from its even share (``expected``, default 1/k) with its block-total
    standard error: ``y[..., b, i]`` block b's summed win shares of position i, ``m[..., b]`` its
    decided games (default: the row sums).  Blocks with no decided game must be left out by the caller.

    The tests are score tests at n_eff = n / DEFF, DEFF = SE² / (p̂(1 − p̂)/n), and the intervals
    Wilson's at n_eff with the t quantile on B − 1 df: ``analysis.stats.estimates.cluster_proportion``'s
    interval (methods section 2).  A block's win shares are bounded and skewed; the Wald t on the same
    SE rejects "no deviation" far too often with few blocks (9% at 20 blocks of 4 players with a strong
    deal effect, 15% at 10: ``tools/calibrate_decisions.py --sections fixed``), the score test does not
    (4% and 3.5%).

    Where a position's shares never vary between blocks (SE 0: rotation that forces every seat to win
    once per block) or it wins all or none of the games, the sample cannot say how much they would
    vary: n_eff is then B, one observation per block (``cluster_proportion``'s rule for all or none),
    and ``fallback`` marks it, so that a handful of identical blocks cannot show equivalence.  nan SE
    below two blocks."""
    y = np.asarray(y, dtype=float)
    m = y.sum(axis=-1) if m is None else np.asarray(m, dtype=float)
    k = y.shape[-1]
    e = np.full(k, 1.0 / k) if expected is None else np.asarray(expected, dtype=float)
    rate, se, n, b = _ratio(np.swapaxes(y, -1, -2), m[..., None, :])
    n, b = n[..., 0], b[..., 0]
    blocks = np.maximum(b, 1)[..., None].astype(float)
    spread = rate * (1 - rate)
    with np.errstate(divide="ignore", invalid="ignore"):
        still = np.isfinite(se) & ((spread <= 0) | (se**2 <= 1e-12 * spread / n[..., None]))
        n_eff = np.where(still, blocks, spread / se**2)
    se = np.where(still, np.sqrt(e * (1 - e) / blocks), se)
    return Effects(rate - e, se, (b - 1.0)[..., None], b, n, still, SEAT_TEST, n_eff, e)


def change_effects(
    ya: Array, yb: Array, ma: Array | None = None, mb: Array | None = None, expected: Array | None = None
) -> Effects:
    """Side b's deviation from the even share minus side a's, per position, for two independent samples
    of blocks (``seat_effects`` of each): SE² = SE_a² + SE_b², Welch-Satterthwaite degrees of freedom
    from each side's B − 1 (``analysis.stats.estimates.cluster_difference``'s rule)."""
    a, b = seat_effects(ya, ma, expected), seat_effects(yb, mb, expected)
    va, vb = a.se**2, b.se**2
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (va + vb) ** 2 / (va**2 / a.df + vb**2 / b.df)
    return Effects(
        b.estimate - a.estimate,
        np.sqrt(va + vb),
        df,
        a.blocks + b.blocks,
        a.games + b.games,
        a.fallback | b.fallback,
        CHANGE_TEST,
    )


def _matrix(wins: Array, games: Array | None) -> tuple[Array, Array]:
    """(y, m) of one verdict: blocks without a decided game dropped, rows in one fixed order
    (``stats.canonical_rows``) so that the sums do not depend on the order of the records."""
    y = np.asarray(wins, dtype=float)
    if y.ndim != 2 or y.shape[1] < 2:
        raise ValueError(
            f"wins must be a (blocks x positions) matrix with two positions or more, not {y.shape}"
        )
    m = y.sum(axis=1) if games is None else np.asarray(games, dtype=float)
    keep = m > 0
    rows = canonical_rows(np.column_stack([y[keep], m[keep]]))
    return rows[:, :-1], rows[:, -1]


def _labels(labels: Sequence[str] | None, k: int) -> tuple[str, ...]:
    out = tuple(str(x) for x in labels) if labels is not None else tuple(str(i) for i in range(k))
    if len(out) != k:
        raise ValueError(f"{len(out)} labels for {k} positions")
    return out


def seat_decision(
    wins_by_block: Array,
    margin: float = SEAT_MARGIN,
    alpha: float = ALPHA,
    *,
    labels: Sequence[str] | None = None,
    games: Array | None = None,
    expected: Sequence[float] | None = None,
    level: float | None = None,
    next_level: float | None = None,
    stopping: str = "",
) -> Decision:
    """Is every position's win share within ``margin`` of even?  ``wins_by_block`` is (blocks x
    positions) summed win shares (ties split fractionally), ``games`` the decided games per block
    (default: the row sums).

    Fair within δ where every position's (1 − 2α) block t interval of its deviation lies inside ±δ
    (intersection-union of TOSTs, level α); unfair where Holm over the positions rejects "no deviation"
    (reported with the simultaneous interval and whether it lies beyond δ); else undecided, with the
    half-width and the games that would decide it.  ``level``/``next_level``/``stopping``: a look of a
    stopping rule (``analysis.stats.sequential.look``); a fixed sample leaves them out."""
    y, m = _matrix(wins_by_block, games)
    k = y.shape[1]
    e = np.full(k, 1.0 / k) if expected is None else np.asarray(expected, dtype=float)
    effects = seat_effects(y, m, e)
    return _decided("seats", effects, labels, tuple(float(x) for x in e), margin, alpha, level, next_level,
                    stopping)


def change_decision(
    side_a: Array,
    side_b: Array,
    margin: float = SEAT_MARGIN,
    alpha: float = ALPHA,
    *,
    labels: Sequence[str] | None = None,
    games_a: Array | None = None,
    games_b: Array | None = None,
    level: float | None = None,
    next_level: float | None = None,
    stopping: str = "",
) -> Decision:
    """Does the seat effect change from side a (scripted play) to side b (search play)?  Each side is a
    (blocks x positions) matrix of summed win shares; the two are independent samples of blocks.

    Holds within δ where every position's change in deviation has its (1 − 2α) interval inside ±δ
    (equivalence on the differences); changes where Holm over the positions rejects "no change"; else
    undecided.  Not "neither side is significant", and not whether one position tops both sides: two
    positions truly tied swap places at random."""
    ya, ma = _matrix(side_a, games_a)
    yb, mb = _matrix(side_b, games_b)
    k = ya.shape[1]
    if yb.shape[1] != k:
        raise ValueError(f"side a has {k} positions, side b {yb.shape[1]}")
    effects = change_effects(ya, yb, ma, mb)
    return _decided("change", effects, labels, (0.0,) * k, margin, alpha, level, next_level, stopping)


def _decided(
    question: str,
    effects: Effects,
    labels: Sequence[str] | None,
    expected: tuple[float, ...],
    margin: float,
    alpha: float,
    level: float | None,
    next_level: float | None,
    stopping: str,
) -> Decision:
    """The decision on per-position ``effects`` at ``level`` (α when None), Holm across the positions."""
    k = len(expected)
    level = alpha if level is None else level
    tests = decide(effects, margin, family_size(k), alpha, level)
    frame = Frame(question, _labels(labels, k), expected, margin, alpha, level, family_size(k),
                  correction_name(k), stopping, next_level)
    return build(effects, tests, frame)

"""Do the seats holding a card do better than their stratum predicts?  ``held_vs_expected``: t on block
totals (Knarr's held cards; reference/analysis-methods.md section 2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analysis.estimates import Array, t_result


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


def held_vs_expected(held: Array, value: Array, stratum: Array, block: Array) -> HeldTest:
    """Do the rows holding each card do better than their stratum predicts?  ``held[i, c]`` is 1 where
    row i (a seat in a game) holds card c, ``value[i]`` its outcome (win share), ``stratum[i]`` its
    stratum (the strategy, within one players/variant/mix group) and ``block[i]`` its block, both as
    integer codes.

    The expected value of card c is the mean over its holders of their stratum's mean r_s (over all
    rows of the stratum); the estimate D_c = observed - expected = Σ_i u_ic / n_c with
    u_ic = (h_ic - π_sc)(v_i - r_s), π_sc the share of stratum s holding c, exactly (within a stratum
    Σ (v_i - r_s) = 0).  Estimating r and π has no first-order effect on Σ u (its derivatives in them
    are the strata's sums of residuals, 0).  The test is the one-sample t test of the block totals
    U_b = Σ_{i in b} u_ic against 0 on B - 1 df, over all B blocks of the group (a block without
    holders still counts: its non-holders are the comparison); the interval is D_c ± t · SE with
    SE = √B · sd(U_b) / n_c.  (The ratio estimator's residuals U_b - D_c H_b make it a Wald test of a
    mean of win shares, whose tails are too heavy: 6.3% false positives per card and 17% for
    Benjamini-Hochberg over 40 cards under a global null in ``tests/test_knarr_holdings.py``'s design,
    against 5.2% and 5.5% for the block totals.)  nan where no row holds the card or below two
    blocks.
    """
    h = np.asarray(held, dtype=float)
    v = np.asarray(value, dtype=float)
    s = np.asarray(stratum)
    b = np.asarray(block)
    strata = np.eye(int(s.max()) + 1)[s]  # rows x strata
    size = strata.sum(axis=0)
    rate = strata.T @ v / np.where(size > 0, size, 1)
    share = strata.T @ h / np.where(size > 0, size, 1)[:, None]  # strata x cards
    u = (h - share[s]) * (v - rate[s])[:, None]
    blocks = np.eye(int(b.max()) + 1)[b]
    n_blocks = int(np.count_nonzero(blocks.sum(axis=0)))
    totals = (blocks.T @ u)[blocks.sum(axis=0) > 0]
    n = h.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = h.T @ v / n
        expected = h.T @ rate[s] / n
        diff = u.sum(axis=0) / n
        spread = totals.std(axis=0, ddof=1) if n_blocks > 1 else np.full(n.shape, np.nan)
    se = np.where(n > 0, math.sqrt(n_blocks) * spread / np.where(n > 0, n, 1), np.nan)
    result = t_result(diff, se, np.asarray(n_blocks - 1.0), np.full(n.shape, n_blocks), "")
    return HeldTest(
        observed,
        expected,
        diff,
        se,
        result.low,
        result.high,
        result.p_value,
        n,
        np.full(n.shape, n_blocks),
        "t on block totals (held minus strategy-expected)",
    )

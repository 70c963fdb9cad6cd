"""Rates, means and differences from block totals (reference/analysis-methods.md section 2).

Every function works on *block totals*, with the blocks on the last axis, and broadcasts over any
leading axes (one group's blocks in the analysis, a thousand replicates in the calibration suite).

* ``cluster_proportion`` / ``cluster_mean``: the ratio estimator with its block-total standard error,
  the design effect (DEFF), n_eff = n / DEFF, a Wilson-style interval on n_eff (proportions) or a t
  interval with B - 1 degrees of freedom (means).
* ``paired_difference``: variants run on the same seeds and seats, paired by block (t on the
  per-block differences); ``cluster_difference``: two sets of different blocks.
* ``t_result``: the t interval and two-sided test of a difference, shared by the other tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from analysis.stats import stats

Array = np.ndarray


@dataclass(frozen=True)
class Estimate:
    """A proportion or mean from block totals, with its design effect and interval.

    ``low``/``high`` are nan where the interval is undefined (``fallback`` marks it); ``games`` and
    ``clusters`` (blocks) count what went in, ``excluded`` the truncated and errored games left out."""

    estimate: Array
    se: Array
    deff: Array
    n_eff: Array
    low: Array
    high: Array
    games: Array
    clusters: Array
    excluded: Array
    fallback: Array  # a degenerate sample: a rule of ``cluster_proportion`` or an undefined mean interval
    method: str


def _ratio(y: Array, m: Array) -> tuple[Array, Array, Array, Array]:
    """(estimate, se, n, B) of the ratio Σ y_b / Σ m_b over blocks with m_b > 0 (methods section 2):
    SE² = B/(B − 1) · Σ (y_b − p̂ m_b)² / (Σ m_b)²; nan se below two blocks.  The callers put the blocks
    in one order first (``stats.in_order``), whatever order the records gave them in."""
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    n = m.sum(axis=-1)
    b = np.count_nonzero(m > 0, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(n > 0, y.sum(axis=-1) / np.where(n > 0, n, 1), np.nan)
        resid = y - est[..., None] * m
        se2 = b / np.where(b > 1, b - 1, 1) * (resid**2).sum(axis=-1) / np.where(n > 0, n, 1) ** 2
    return est, np.sqrt(np.where(b > 1, se2, np.nan)), n, b


def _t95(blocks: Array) -> Array:
    """The two-sided 95% t quantile with B − 1 degrees of freedom (nan below two blocks)."""
    df = np.asarray(blocks, dtype=float) - 1
    return np.where(df >= 1, sps.t.ppf(0.975, np.where(df >= 1, df, 1)), np.nan)


def cluster_proportion(y: Array, m: Array, excluded: Array | int = 0) -> Estimate:
    """A rate from block totals: ``y`` the summed successes (win shares) and ``m`` the decided games
    of each block (last axis).

    * estimate and SE: the ratio estimator (methods section 2); DEFF = SE² / (p̂(1 − p̂)/n).
    * interval: Wilson's score interval at n_eff = n / DEFF with the t quantile on B − 1 df in place
      of z, since few blocks make the SE itself uncertain (section 2, "few blocks").
    * never zero width (``fallback``): where no block differs from p̂ (SE = 0, as when rotation forces
      every seat to win once per block) DEFF is taken as 1/m̄ (m̄ = games per block); an all-or-none
      rate (p̂ = 0 or 1) has no DEFF estimate and takes n_eff = B, one observation per block (as if
      the block's games were fully correlated), so its interval is Wilson's (near the rule of three)
      on B.
    * fewer than two blocks: the uninformative [0, 1].
    """
    est, se, n, b = _ratio(*stats.in_order(y, m))
    with np.errstate(divide="ignore", invalid="ignore"):
        naive = est * (1 - est) / np.where(n > 0, n, 1)
        extreme = (est <= 0) | (est >= 1)
        still = ~extreme & (se**2 <= 1e-12 * naive)  # DEFF 0 up to rounding
        deff = np.where(extreme, np.nan, np.where(still, b / np.where(n > 0, n, 1), se**2 / naive))
        n_eff = np.where(extreme, b, n / deff)
    t = _t95(b)
    low, high = stats.wilson_interval(est * n_eff, n_eff, np.where(np.isnan(t), 1.0, t))
    few = (b < 2) | np.isnan(est)
    return Estimate(
        est,
        np.where(still, np.sqrt(deff * naive), se),
        deff,
        n_eff,
        np.where(few, 0.0, low),
        np.where(few, 1.0, high),
        n,
        b,
        np.asarray(excluded),
        (extreme | still) & ~few,
        "cluster Wilson (t, B-1 df)",
    )


def cluster_mean(y: Array, m: Array, q: Array, excluded: Array | int = 0) -> Estimate:
    """A mean from block totals: ``y`` the summed values, ``m`` the games and ``q`` the summed squares
    of each block (last axis).

    The ratio estimator and its block-total SE (methods section 2), DEFF = SE² / (s²/n) with s² the
    games' sample variance, and a t interval with B − 1 df.  Where the SE is 0 (no block's mean differs,
    or no game differs: s² = 0) the interval is undefined (nan bounds, ``fallback``) rather than
    [x, x]; so it is below two blocks.
    """
    y, m, q = stats.in_order(y, m, q)
    est, se, n, b = _ratio(y, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        s2 = (q.sum(axis=-1) - n * est**2) / (n - 1)
        scale = np.maximum(q.sum(axis=-1) / n, 1e-300)
        flat = (s2 <= 1e-12 * scale) | (se**2 <= 1e-24 * scale)  # rounding, not variation
        deff = np.where(flat, np.nan, se**2 / (s2 / n))
        half = np.where(flat, np.nan, _t95(b) * se)
    return Estimate(
        est,
        se,
        deff,
        n / deff,
        est - half,
        est + half,
        n,
        b,
        np.asarray(excluded),
        flat,
        "cluster t (B-1 df)",
    )


@dataclass(frozen=True)
class Difference:
    """A difference (b − a) with its 95% interval and two-sided p value; nan where undefined."""

    estimate: Array
    se: Array
    low: Array
    high: Array
    p_value: Array
    df: Array
    clusters: Array
    test: str


def t_result(diff: Array, se: Array, df: Array, clusters: Array, test: str) -> Difference:
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = (se > 0) & (df >= 1)
        dfs = np.where(ok, df, 1.0)
        t = np.where(ok, np.abs(diff) / np.where(ok, se, 1), np.nan)
        same = (se == 0) & (df >= 1) & (diff == 0)  # every block gave the same, zero, difference
        p = np.where(ok, 2 * sps.t.sf(t, dfs), np.where(same, 1.0, np.nan))
        half = np.where(ok, sps.t.ppf(0.975, dfs) * se, np.nan)
    return Difference(diff, se, diff - half, diff + half, p, df, clusters, test)


def paired_difference(a: Array, b: Array) -> Difference:
    """Paired comparison of two variants run on the same seeds and seats (methods section 2).

    ``a[..., i]`` and ``b[..., i]`` are the two variants' means (or rates) in matched block i (the
    same ``base_game``).  The estimate is the mean of d_i = b_i − a_i, with a t interval and test on
    B − 1 df.  The pairing removes the deal's variance.  Where every d_i is equal the SE is 0: the
    interval is undefined (nan) and p is 1 when that common difference is 0, nan otherwise."""
    d = np.sort(np.asarray(b, dtype=float) - np.asarray(a, dtype=float), axis=-1)  # sums in one order
    k = d.shape[-1]
    diff = d.mean(axis=-1)
    spread = d.max(axis=-1) - d.min(axis=-1)
    se = d.std(axis=-1, ddof=1) / math.sqrt(k) if k > 1 else np.full(diff.shape, np.nan)
    se = np.where(spread > 0, se, 0.0)  # equal differences: exactly 0, not rounding noise
    return t_result(diff, se, np.asarray(k - 1.0), np.asarray(k), "paired t on block differences")


def cluster_difference(a: Estimate, b: Estimate) -> Difference:
    """``b − a`` for two estimates on *different* blocks: SE = √(SE_a² + SE_b²), a t reference with
    Welch-Satterthwaite degrees of freedom built from each side's B − 1."""
    va, vb = np.asarray(a.se, dtype=float) ** 2, np.asarray(b.se, dtype=float) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (va + vb) ** 2 / (va**2 / (a.clusters - 1) + vb**2 / (b.clusters - 1))
    diff = np.asarray(b.estimate, dtype=float) - np.asarray(a.estimate, dtype=float)
    return t_result(
        diff, np.sqrt(va + vb), df, a.clusters + b.clusters, "cluster-robust t (Satterthwaite df)"
    )

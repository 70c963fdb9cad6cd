"""Two variants' seat patterns, knowing the design (reference/analysis-methods.md section 2).

* ``gap_difference``: the difference of the largest seat win-rate gaps, bias-corrected by a bootstrap
  of whole blocks, with a jackknife t interval.
* ``homogeneity_test``: the 2 × k chi-square of the two variants' seat wins, referred to a permutation
  of whole blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.stats.estimates import Array, t_result


def _gap(y: Array, m: Array) -> Array:
    """The largest gap between the positions' win rates, Σ_b y_b / Σ_b m_b (blocks on axis −2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.asarray(y, dtype=float).sum(axis=-2) / np.asarray(m, dtype=float).sum(axis=-1)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _weighted_gap(y: Array, m: Array, weights: Array) -> Array:
    """``_gap`` of each bootstrap resample: ``weights[r, b]`` is how often resample r draws block b;
    the result has the resamples on the last axis."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.einsum("...bk,rb->...rk", y, weights) / np.einsum("...b,rb->...r", m, weights)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _jackknife_gaps(y: Array, m: Array) -> Array:
    """``_gap`` with each block left out in turn (the blocks on the last axis of the result)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = (y.sum(axis=-2, keepdims=True) - y) / (m.sum(axis=-1, keepdims=True) - m)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def _jackknife_var(values: Array) -> Array:
    """The delete-one jackknife variance, (B − 1)/B · Σ (θ₋b − θ̄)², of values on the last axis."""
    b = values.shape[-1]
    return (b - 1) / b * ((values - values.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)


@dataclass(frozen=True)
class GapDifference:
    """Two variants' largest seat win-rate gaps: the plain gaps (``base``, ``value``), the bias-corrected
    ones (``base_corrected``, ``corrected``) and their difference with its 95% interval and the two-sided
    p of the same jackknife t (``p_value``: the interval's dual, so the two are printed together)."""

    base: Array
    value: Array
    base_corrected: Array
    corrected: Array
    estimate: Array
    se: Array
    low: Array
    high: Array
    df: Array
    clusters: Array
    test: str
    p_value: Array


def gap_difference(
    ya: Array, ma: Array, yb: Array, mb: Array, *, paired: bool, seed: int, resamples: int = 400
) -> GapDifference:
    """``b − a`` of the largest gap between k positions' win rates, knowing the design.

    ``y[..., b, i]`` is block b's summed win shares of position i, ``m[..., b]`` its decided games.

    * A max − min of estimated rates is biased upwards (its noise always shows some spread), the more so
      the closer the rates: each side's gap is bias-corrected by a bootstrap of whole blocks,
      2·ĝ − mean(ĝ*), with ``resamples`` resamples drawn from ``seed``.  Resampling single games would
      break the rotation's balance (every strategy through every seat in a block).
    * ``paired`` (variants on the same seeds and seats: block b of a and of b hold one deal; the blocks
      must be in the same order): one resample draws the same pairs on both sides, and the SE is the
      delete-one-pair jackknife's, t on B − 1 df.  Otherwise each side is resampled and left out on its
      own blocks, SE² = SE_a² + SE_b², t on Welch-Satterthwaite df.

    The jackknife SE is wider than the bootstrap's for this non-smooth statistic, and that is what holds
    the interval's coverage (``tests/analysis/test_calibration_variants.py``); at exact ties (both
    variants fair) it covers 0 more often than 95%."""
    ya, yb = np.asarray(ya, dtype=float), np.asarray(yb, dtype=float)
    ma, mb = np.asarray(ma, dtype=float), np.asarray(mb, dtype=float)
    rng = np.random.default_rng(seed)
    blocks_a, blocks_b = ma.shape[-1], mb.shape[-1]
    wa = rng.multinomial(blocks_a, np.full(blocks_a, 1.0 / blocks_a), size=resamples).astype(float)
    wb = wa if paired else rng.multinomial(blocks_b, np.full(blocks_b, 1.0 / blocks_b), size=resamples)
    ga, gb = _gap(ya, ma), _gap(yb, mb)
    with np.errstate(invalid="ignore"):
        ca = 2 * ga - np.nanmean(_weighted_gap(ya, ma, wa), axis=-1)
        cb = 2 * gb - np.nanmean(_weighted_gap(yb, mb, np.asarray(wb, dtype=float)), axis=-1)
        if paired:
            var = _jackknife_var(_jackknife_gaps(yb, mb) - _jackknife_gaps(ya, ma))
            df = np.full(np.shape(var), blocks_a - 1.0)
            clusters = np.full(np.shape(var), blocks_a)
            test = "paired block bootstrap, bias-corrected; jackknife t (B-1 df)"
        else:
            va, vb = _jackknife_var(_jackknife_gaps(ya, ma)), _jackknife_var(_jackknife_gaps(yb, mb))
            var = va + vb
            df = var**2 / (va**2 / (blocks_a - 1) + vb**2 / (blocks_b - 1))
            clusters = np.full(np.shape(var), blocks_a + blocks_b)
            test = "block bootstrap, bias-corrected; jackknife t (Satterthwaite df)"
    result = t_result(cb - ca, np.sqrt(var), df, clusters, test)
    return GapDifference(
        ga,
        gb,
        ca,
        cb,
        result.estimate,
        result.se,
        result.low,
        result.high,
        df,
        clusters,
        test,
        result.p_value,
    )


@dataclass(frozen=True)
class HomogeneityTest:
    """Do two variants share one seat pattern?  The 2 × k chi-square of their seat wins, referred to its
    distribution over ``permutations`` relabellings of whole blocks."""

    statistic: Array
    p_value: Array
    clusters: Array
    permutations: int
    test: str


def _two_row_chi2(wa: Array, na: Array, wb: Array, nb: Array) -> Array:
    """Pearson's chi-square of the 2 × k table of win shares ``wa``/``wb`` (positions last) with row totals
    ``na``/``nb``; positions no side won leave the sum."""
    total = wa + wb
    n = na + nb
    with np.errstate(divide="ignore", invalid="ignore"):
        ea = total * (na / n)[..., None]
        eb = total * (nb / n)[..., None]
        cells = np.where(ea > 0, (wa - ea) ** 2 / ea, 0.0) + np.where(eb > 0, (wb - eb) ** 2 / eb, 0.0)
    return cells.sum(axis=-1)


def homogeneity_test(
    ya: Array, ma: Array, yb: Array, mb: Array, *, paired: bool, seed: int, permutations: int = 2000
) -> HomogeneityTest:
    """Do the seats' shares of the wins differ between two variants (the main test of a
    variant comparison)?  ``y[..., b, i]``: block b's win shares of position i,
    ``m[..., b]`` its decided games.

    The statistic is the chi-square of the 2 × k table of summed win shares; its reference distribution
    comes from relabelling whole blocks (methods section 2, "a permutation of whole blocks"), so it holds
    whatever the blocks' inner dependence: ``paired`` (the same seeds and seats: block b of a and of b
    share a deal, the blocks in the same order), each pair's two labels are swapped at random; otherwise
    the pooled blocks are split at random into two sets of the two sizes.  p = (1 + #{X²* ≥ X²}) / (1 +
    ``permutations``), the relabellings drawn from ``seed``.  A changed seat pattern shows here even where
    the largest gap stays the same."""
    ya, yb = np.asarray(ya, dtype=float), np.asarray(yb, dtype=float)
    ma, mb = np.asarray(ma, dtype=float), np.asarray(mb, dtype=float)
    rng = np.random.default_rng(seed)
    observed = _two_row_chi2(ya.sum(axis=-2), ma.sum(axis=-1), yb.sum(axis=-2), mb.sum(axis=-1))
    if paired:
        swap = (rng.random((permutations, ma.shape[-1])) < 0.5).astype(float)
        dy, dm = yb - ya, mb - ma
        shift_y = np.einsum("...bk,pb->...pk", dy, swap)
        shift_m = np.einsum("...b,pb->...p", dm, swap)
        wa = ya.sum(axis=-2)[..., None, :] + shift_y
        na = ma.sum(axis=-1)[..., None] + shift_m
        wb = yb.sum(axis=-2)[..., None, :] - shift_y
        nb = mb.sum(axis=-1)[..., None] - shift_m
        clusters, test = ma.shape[-1], f"chi-square, paired blocks' labels swapped ({permutations} times)"
    else:
        y = np.concatenate([ya, yb], axis=-2)
        m = np.concatenate([ma, mb], axis=-1)
        pooled = m.shape[-1]
        order = np.argsort(rng.random((permutations, pooled)), axis=-1)
        in_a = np.zeros((permutations, pooled))
        np.put_along_axis(in_a, order[:, : ma.shape[-1]], 1.0, axis=-1)
        wa = np.einsum("...bk,pb->...pk", y, in_a)
        na = np.einsum("...b,pb->...p", m, in_a)
        wb = y.sum(axis=-2)[..., None, :] - wa
        nb = m.sum(axis=-1)[..., None] - na
        clusters, test = pooled, f"chi-square, blocks permuted between the two ({permutations} times)"
    shuffled = _two_row_chi2(wa, na, wb, nb)
    p = (1 + np.count_nonzero(shuffled >= observed[..., None] * (1 - 1e-12), axis=-1)) / (1 + permutations)
    ok = (ma.sum(axis=-1) > 0) & (mb.sum(axis=-1) > 0)
    return HomogeneityTest(observed, np.where(ok, p, np.nan), np.asarray(clusters), permutations, test)

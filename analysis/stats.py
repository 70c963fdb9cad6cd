"""Small, dependency-light statistics used by the analysis modules (numpy and scipy.stats).

Every function works on plain numbers or numpy arrays so that it can be checked by hand:

* ``wilson_interval``: 95% Wilson score interval of a proportion (fractional successes allowed:
  a k-way tie gives each winner 1/k, which keeps the expected count right).
* ``equal_chances_test``: chi-square (Pearson) and G (log-likelihood ratio) tests of summed win
  shares against equal chances for every seat.
* ``mean_interval``: a mean with its normal-approximation (z) 95% interval.
* ``two_proportions``: difference of two proportions, Cohen's h and a two-sided z test.
* ``two_means``: difference of two means, Cohen's d and Welch's t test.
* ``bradley_terry``: Bradley-Terry strengths fitted by Hunter's (2004) MM iterations.
* ``games_to_halve``: an interval's half-width shrinks as 1/sqrt(n), so halving it takes 4x the games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

Z95 = 1.959963984540054


def wilson_interval(
    successes: float | np.ndarray, n: float | np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of the Wilson score interval for ``successes`` out of ``n``.

    ``successes`` may be fractional (tie shares).  ``n == 0`` gives the uninformative (0, 1).
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, s / np.where(n > 0, n, 1), 0.0)
        z2 = z * z
        nn = np.where(n > 0, n, 1.0)
        denom = 1 + z2 / nn
        centre = (p + z2 / (2 * nn)) / denom
        half = z * np.sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / denom
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high


@dataclass(frozen=True)
class EqualChances:
    """Result of testing summed win shares against equal chances for every seat."""

    chi2: float
    chi2_p: float
    g: float
    g_p: float
    dof: int
    decided: float  # games with a winner (the summed shares)


def equal_chances_test(wins: Sequence[float]) -> EqualChances:
    """Pearson chi-square and G tests of ``wins`` (summed win shares per seat) against equal chances.

    The expected count per seat is ``sum(wins) / len(wins)``.  Fractional tie shares enter as
    they are; with few ties this is a close approximation of the multinomial test.
    """
    obs = np.asarray(wins, dtype=float)
    k = len(obs)
    total = float(obs.sum())
    if k < 2 or total <= 0:
        return EqualChances(math.nan, math.nan, math.nan, math.nan, max(k - 1, 0), total)
    expected = np.full(k, total / k)
    chi2, chi2_p = sps.chisquare(obs, expected)
    g, g_p = sps.power_divergence(obs, expected, lambda_="log-likelihood")
    return EqualChances(float(chi2), float(chi2_p), float(g), float(g_p), k - 1, total)


def balance_metric(rates: Sequence[float]) -> float:
    """The Balance metric: 1 - the largest pairwise gap between win rates (1 = all equal)."""
    r = np.asarray(rates, dtype=float)
    return float(1.0 - (r.max() - r.min())) if len(r) else math.nan


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a normal-approximation interval (nan bounds below 2 values)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if len(v) == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if len(v) < 2:
        return m, math.nan, math.nan
    half = z * float(v.std(ddof=1)) / math.sqrt(len(v))
    return m, m - half, m + half


@dataclass(frozen=True)
class Comparison:
    """A difference between two groups with its interval, an effect size and a test."""

    estimate: float  # b - a
    low: float
    high: float
    effect: float  # Cohen's h (proportions) or d (means)
    effect_name: str
    p_value: float
    test: str


def two_proportions(x_a: float, n_a: float, x_b: float, n_b: float, z: float = Z95) -> Comparison:
    """Difference ``p_b - p_a`` with a Wald interval, Cohen's h and a pooled two-sided z test."""
    if n_a <= 0 or n_b <= 0:
        return Comparison(math.nan, math.nan, math.nan, math.nan, "Cohen's h", math.nan, "two-proportion z")
    pa, pb = x_a / n_a, x_b / n_b
    diff = pb - pa
    se = math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    pooled = (x_a + x_b) / (n_a + n_b)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    p = float(2 * sps.norm.sf(abs(diff) / se0)) if se0 > 0 else (1.0 if diff == 0 else 0.0)
    h = 2 * math.asin(math.sqrt(min(max(pb, 0.0), 1.0))) - 2 * math.asin(math.sqrt(min(max(pa, 0.0), 1.0)))
    return Comparison(diff, diff - z * se, diff + z * se, h, "Cohen's h", p, "two-proportion z")


def two_means(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Comparison:
    """Difference ``mean(b) - mean(a)`` with a normal interval, Cohen's d and Welch's t test."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if len(a) < 2 or len(b) < 2:
        return Comparison(math.nan, math.nan, math.nan, math.nan, "Cohen's d", math.nan, "Welch t")
    diff = float(b.mean() - a.mean())
    va, vb = float(a.var(ddof=1)), float(b.var(ddof=1))
    se = math.sqrt(va / len(a) + vb / len(b))
    pooled = math.sqrt(((len(a) - 1) * va + (len(b) - 1) * vb) / (len(a) + len(b) - 2))
    d = diff / pooled if pooled > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    if se > 0:
        p = float(sps.ttest_ind(b, a, equal_var=False).pvalue)
    else:
        p = 1.0 if diff == 0 else 0.0
    return Comparison(diff, diff - z * se, diff + z * se, d, "Cohen's d", p, "Welch t")


def bradley_terry(wins: np.ndarray, iterations: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry strengths from a pairwise win matrix, fitted by MM iterations (Hunter 2004).

    ``wins[i, j]`` is how often i finished ahead of j (ties as 0.5 each way).  The model says
    P(i ahead of j) = p_i / (p_i + p_j).  The MM update

        p_i <- W_i / sum_j n_ij / (p_i + p_j),   W_i = sum_j wins[i, j],  n_ij = wins[i, j] + wins[j, i]

    increases the likelihood at every step and converges to the maximum-likelihood estimate
    whenever the comparison graph is strongly connected.  Strengths are returned normalised to
    a geometric mean of 1.  A player with no wins at all has no finite MLE: a tiny pseudo-count
    (0.01 wins against every opponent it met, each way) keeps such players finite and barely
    moves well-determined ones.
    """
    w = np.asarray(wins, dtype=float).copy()
    k = w.shape[0]
    if k == 0:
        return np.zeros(0)
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    met = n > 0
    if (w.sum(axis=1) == 0).any() or (w.sum(axis=0) == 0).any():
        w = w + 0.01 * met
        n = w + w.T
    total = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1), p)
        new = np.where(new > 0, new, 1e-12)
        new /= math.exp(float(np.log(new).mean()))
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    return p


def elo_scale(strength: np.ndarray | float) -> np.ndarray:
    """Bradley-Terry strength on the familiar Elo scale: 1500 + 400 * log10(strength)."""
    return 1500.0 + 400.0 * np.log10(np.asarray(strength, dtype=float))


def games_to_halve(games: int | float) -> float:
    """Total games needed to halve an interval estimated from ``games`` games (its width ~ 1/sqrt(n))."""
    return 4.0 * float(games)

"""Small, dependency-light statistics used by the analysis modules (numpy and scipy.stats).

Every function works on plain numbers or numpy arrays so that it can be checked by hand:

* ``wilson_interval``: 95% Wilson score interval of a proportion (fractional successes allowed:
  a k-way tie gives each winner 1/k, which keeps the expected count right).
* ``equal_chances_test``: chi-square (Pearson) and G (log-likelihood ratio) tests of summed win
  shares against equal chances for every seat.
* ``mean_interval``: a mean with its t 95% interval (none where the values do not vary).
* ``two_proportions``: difference of two proportions (Newcombe interval), Cohen's h and a z test.
* ``two_means``: difference of two means with Welch's t interval, Cohen's d and Welch's t test.
* ``gap_permutation_test``: does the largest gap between win rates differ between two sets of games?
* ``data_seed``: the seed of every resampling (bootstrap, permutation), from the identity of the
  records it reads (``analysis.data.runs.identity``) and the statistic's name, so the same records give
  the same page.
* ``rates_independence_test``: do several groups share one win rate (chi-square test of independence)?
* ``bradley_terry``: Bradley-Terry strengths fitted by Hunter's (2004) MM iterations.
* ``games_to_halve``: an interval's half-width shrinks as 1/sqrt(n), so halving it takes 4x the games.
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
from scipy import stats as sps

Z95 = 1.959963984540054


def wilson_interval(
    successes: float | np.ndarray, n: float | np.ndarray, z: float | np.ndarray = Z95
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


def balance_metric(rates: Sequence[float] | np.ndarray) -> float:
    """The Balance metric: 1 - the largest pairwise gap between win rates (1 = all equal)."""
    r = np.asarray(rates, dtype=float)
    return float(1.0 - (r.max() - r.min())) if len(r) else math.nan


#: fair games simulated for ``fair_balance``
FAIR_REPS = 4000


def fair_balance(positions: int, games: float, reps: int = FAIR_REPS) -> float:
    """What ``balance_metric`` averages when every one of ``positions`` positions wins with chance
    1/positions over ``games`` decided games (methods section 3): its noise floor, below 1 even for a
    perfectly fair game (0.867 at 4 positions and 60 games, 0.949 at 400).  ``games`` may be an
    effective size (games / DEFF; rounded, at least 1).  Simulated multinomial outcomes, from a generator
    seeded from the arguments, so the same size gives the same value."""
    n = max(1, round(games)) if math.isfinite(games) else 0
    if positions < 2 or n < 1:
        return math.nan
    rng = np.random.default_rng(data_seed("stats.fair_balance", positions, n, reps))
    rates = rng.multinomial(n, [1.0 / positions] * positions, size=reps) / n
    return float(1.0 - (rates.max(axis=1) - rates.min(axis=1)).mean())


@overload
def t95(df: float) -> float: ...
@overload
def t95(df: np.ndarray) -> float | np.ndarray: ...
def t95(df: float | np.ndarray) -> float | np.ndarray:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (nan where df < 1): at
    n = 5 values it is 1.40 times the normal 1.96, whose interval would cover only about 88%."""
    df = np.asarray(df, dtype=float)
    q = np.where(df >= 1, sps.t.ppf(0.975, np.maximum(df, 1)), np.nan)
    return float(q) if q.ndim == 0 else q


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its t interval on n - 1 degrees of freedom.  The bounds are nan
    below 2 values and where the values do not vary: a zero-width interval ("13.0 [13.0, 13.0]") would
    claim a certainty the sample cannot give."""
    v = np.sort(np.asarray(values, dtype=float))  # the records' order must not move the sums
    v = v[~np.isnan(v)]
    if len(v) == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    sd = float(v.std(ddof=1)) if len(v) > 1 else 0.0
    if sd == 0:
        return m, math.nan, math.nan
    half = t95(len(v) - 1) * sd / math.sqrt(len(v))
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
    """Difference ``p_b - p_a`` with Newcombe's hybrid score interval (from the two Wilson intervals;
    unlike the Wald interval it stays honest near 0 and 1, e.g. 0 of 60 against 0 of 60), Cohen's h
    and a pooled two-sided z test."""
    if n_a <= 0 or n_b <= 0:
        return Comparison(math.nan, math.nan, math.nan, math.nan, "Cohen's h", math.nan, "two-proportion z")
    pa, pb = x_a / n_a, x_b / n_b
    diff = pb - pa
    (la, ua), (lb, ub) = (
        tuple(float(v) for v in wilson_interval(x, n, z)) for x, n in ((x_a, n_a), (x_b, n_b))
    )
    low = diff - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = diff + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    pooled = (x_a + x_b) / (n_a + n_b)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    p = float(2 * sps.norm.sf(abs(diff) / se0)) if se0 > 0 else (1.0 if diff == 0 else 0.0)
    h = 2 * math.asin(math.sqrt(min(max(pb, 0.0), 1.0))) - 2 * math.asin(math.sqrt(min(max(pa, 0.0), 1.0)))
    return Comparison(diff, low, high, h, "Cohen's h", p, "two-proportion z")


def two_means(a: np.ndarray, b: np.ndarray) -> Comparison:
    """Difference ``mean(b) - mean(a)`` with Welch's t interval (Welch-Satterthwaite degrees of freedom,
    the same as its test's; nan bounds where neither sample varies), Cohen's d and Welch's t test."""
    a = np.sort(np.asarray(a, dtype=float))  # the records' order must not move the sums
    b = np.sort(np.asarray(b, dtype=float))
    if len(a) < 2 or len(b) < 2:
        return Comparison(math.nan, math.nan, math.nan, math.nan, "Cohen's d", math.nan, "Welch t")
    diff = float(b.mean() - a.mean())
    va, vb = float(a.var(ddof=1)), float(b.var(ddof=1))
    se = math.sqrt(va / len(a) + vb / len(b))
    pooled = math.sqrt(((len(a) - 1) * va + (len(b) - 1) * vb) / (len(a) + len(b) - 2))
    d = diff / pooled if pooled > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    if se > 0:
        with warnings.catch_warnings():  # nearly identical samples: scipy warns, the p-value is still right
            warnings.simplefilter("ignore", RuntimeWarning)
            p = float(sps.ttest_ind(b, a, equal_var=False).pvalue)
    else:
        p = 1.0 if diff == 0 else 0.0
    if se == 0:
        return Comparison(diff, math.nan, math.nan, d, "Cohen's d", p, "Welch t")
    wa, wb = va / len(a), vb / len(b)
    df = (wa + wb) ** 2 / (wa**2 / (len(a) - 1) + wb**2 / (len(b) - 1))
    half = t95(df) * se
    return Comparison(diff, diff - half, diff + half, d, "Cohen's d", p, "Welch t")


def data_seed(data: object, *names: object) -> int:
    """The seed of one resampling: a sha1 of ``data`` (the records' identity,
    ``analysis.data.runs.identity``, or the resampled values themselves) and ``names`` (the statistic, its
    group and arguments), as a 64-bit integer.

    Every bootstrap and permutation draws from ``np.random.default_rng(data_seed(...))``: the same
    records give the same numbers from one report to the next, and two statistics never share a stream
    unless they are the same statistic of the same records.  ``data`` and ``names`` may hold strings,
    numbers, sequences and numpy arrays."""
    digest = hashlib.sha1()
    for part in (data, *names):
        digest.update(_canonical(part))
        digest.update(b"\x00")
    return int.from_bytes(digest.digest()[:8], "big")


def _canonical(value: object) -> bytes:
    if isinstance(value, np.ndarray):
        array = np.ascontiguousarray(value, dtype=float)
        return b"%s:%s" % (repr(array.shape).encode(), array.tobytes())
    if isinstance(value, (list, tuple)):
        return b"[" + b",".join(_canonical(v) for v in value) + b"]"
    return json.dumps(value, sort_keys=True, default=str).encode()


def canonical_rows(matrix: np.ndarray) -> np.ndarray:
    """The rows of a (units x values) matrix in one fixed order (lexicographic), so a resampling of its
    rows does not depend on the order the records were read in."""
    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or len(m) < 2:
        return m
    return m[np.lexsort(m.T[::-1])]


def in_order(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays' units (last axis) in one order, lexicographic by the first array's values, then the
    second's, and so on, each array moved alike.  A sum over units (numpy's pairwise sum, a mean, a
    variance) then does not depend on the order the records were read in (the
    same records give a byte-identical report); polars' group_by and join give their rows in no fixed
    order, and float addition is not associative."""
    same = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in arrays))
    if not same or same[0].ndim == 0:
        return tuple(same)
    order = np.lexsort(same[::-1], axis=-1)
    return tuple(np.take_along_axis(a, order, axis=-1) for a in same)


def _gap(rates: np.ndarray) -> np.ndarray:
    return rates.max(axis=-1) - rates.min(axis=-1)


def gap_permutation_test(a: np.ndarray, b: np.ndarray, reps: int = 2000, seed: int | None = None) -> float:
    """Two-sided permutation p-value for the difference in the largest win-rate gap between positions.

    ``a`` and ``b`` are (games x positions) matrices of win shares.  Under the null hypothesis the
    two sets of games are exchangeable, so the labels are shuffled ``reps`` times and the p-value is
    (1 + #{|gap_b* - gap_a*| >= |gap_b - gap_a|}) / (1 + reps).  nan when a set is empty or the
    positions differ.  The games are put in one fixed order first (``canonical_rows``), and the
    shuffles drawn from ``seed``, by default ``data_seed`` of the two matrices: the same games give the
    same p-value in whatever order they come.
    """
    a = canonical_rows(np.asarray(a, dtype=float))
    b = canonical_rows(np.asarray(b, dtype=float))
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or not len(a) or not len(b):
        return math.nan
    observed = abs(float(_gap(b.mean(axis=0)) - _gap(a.mean(axis=0))))
    pooled = np.vstack([a, b])
    n, na = len(pooled), len(a)
    rng = np.random.default_rng(data_seed(a, b, "gap_permutation_test", reps) if seed is None else seed)
    # one row per shuffle: which games fall in the first set (as weights 1/na), the rest in the second
    order = np.argsort(rng.random((reps, n)), axis=1)
    in_a = np.zeros((reps, n), dtype=bool)
    np.put_along_axis(in_a, order[:, :na], True, axis=1)
    mean_a = (in_a @ pooled) / na
    mean_b = (~in_a @ pooled) / (n - na)
    shuffled = np.abs(_gap(mean_b) - _gap(mean_a))
    return float((1 + np.count_nonzero(shuffled >= observed - 1e-12)) / (1 + reps))


def rates_independence_test(wins: Sequence[float], n: Sequence[float]) -> tuple[float, float, int]:
    """(chi2, p, dof): chi-square test that groups with ``wins`` out of ``n`` share one win rate.

    The 2 x k table of wins and non-wins per group (groups with n = 0 dropped); nan with fewer than
    two groups or no wins or no losses at all.
    """
    w = np.asarray(wins, dtype=float)
    m = np.asarray(n, dtype=float)
    keep = m > 0
    w, m = w[keep], m[keep]
    if len(w) < 2 or w.sum() <= 0 or (m - w).sum() <= 0:
        return math.nan, math.nan, max(len(w) - 1, 0)
    chi2, p, dof, _ = sps.chi2_contingency(np.vstack([w, m - w]), correction=False)
    return float(chi2), float(p), int(dof)


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

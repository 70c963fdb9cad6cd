"""Power: the gaps a sample can detect and the games a gap needs (reference/analysis-methods.md
section 6).

* ``detectable_gap`` / ``games_needed``: the equal-chances chi-square at n_eff = n / DEFF.
* ``detectable_difference``: a two-sided t test's detectable difference at a standard error.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize
from scipy import stats as sps

from analysis.stats.estimates import Array
from analysis.stats.multiplicity import ALPHA


def _lambda_needed(k: int, alpha: float, power: float) -> float:
    """The noncentrality at which the chi-square test on k − 1 df reaches ``power`` at level ``alpha``."""
    crit = sps.chi2.ppf(1 - alpha, k - 1)
    return float(optimize.brentq(lambda lam: sps.ncx2.sf(crit, k - 1, lam) - power, 1e-9, 1e4))


def _w2_per_gap2(k: int) -> float:
    """Cohen's w² per squared max−min gap for one seat up by δ, the rest down δ/(k − 1) each:
    w² = k²δ²/(k − 1) and gap = δ·k/(k − 1), so w² = (k − 1)·gap²."""
    return float(k - 1)


def detectable_gap(
    games: float, k: int, deff: float = 1.0, alpha: float = ALPHA, power: float = 0.8
) -> float:
    """The smallest max−min gap between seat win rates that the equal-chances chi-square finds with
    probability ``power`` (methods section 6): one seat up by δ, the rest down evenly, noncentral
    chi-square with λ = N·w², N replaced by n_eff = games / DEFF.  nan without games or seats."""
    if k < 2 or not games or games <= 0 or not deff or not math.isfinite(deff) or deff <= 0:
        return math.nan
    return math.sqrt(_lambda_needed(k, alpha, power) / (games / deff) / _w2_per_gap2(k))


def games_needed(gap: float, k: int, deff: float = 1.0, alpha: float = ALPHA, power: float = 0.8) -> float:
    """Decided games the equal-chances chi-square needs to find a max−min seat gap ``gap`` with
    probability ``power`` (the inverse of ``detectable_gap``, times DEFF)."""
    if k < 2 or gap <= 0:
        return math.nan
    return math.ceil(deff * _lambda_needed(k, alpha, power) / (_w2_per_gap2(k) * gap**2) - 1e-9)



def detectable_difference(
    se: Array | float, df: Array | float, alpha: float = ALPHA, power: float = 0.8
) -> Array:
    """The smallest true difference a two-sided t test with standard error ``se`` on ``df`` degrees of
    freedom finds with probability ``power``: (t_{1-α/2} + t_{power}) · se."""
    df = np.asarray(df, dtype=float)
    ok = df >= 1
    dfs = np.where(ok, df, 1.0)
    return np.where(
        ok, (sps.t.ppf(1 - alpha / 2, dfs) + sps.t.ppf(power, dfs)) * np.asarray(se, float), np.nan
    )

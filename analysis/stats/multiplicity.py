"""Many tests at once: Holm or Benjamini-Hochberg over a named family (reference/analysis-methods.md
section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from statsmodels.stats.multitest import multipletests

from analysis.stats.estimates import Array

ALPHA = 0.05
METHODS = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg"}


@dataclass(frozen=True)
class Adjusted:
    """Adjusted p values of one family of tests, its size (tests with a p value) and the method."""

    p_adjusted: Array
    family: int
    method: str


def adjust(p_values: Sequence[float] | Array, method: str = "holm") -> Adjusted:
    """Holm (``"holm"``, family-wise error) or Benjamini-Hochberg (``"fdr_bh"``, false discovery rate)
    adjusted p values over one family (methods section 5), via statsmodels ``multipletests``.
    nan p values stay nan and are not counted in the family."""
    if method not in METHODS:
        raise ValueError(f"unknown correction {method!r} (allowed: {', '.join(METHODS)})")
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = holm(p[ok]) if method == "holm" else multipletests(p[ok], alpha=ALPHA, method=method)[1]
    return Adjusted(out, int(ok.sum()), METHODS[method])


def holm(p: Array) -> Array:
    """Holm's step-down adjusted p values: the i-th smallest times (m - i), made non-decreasing, at most 1.

    The same numbers as statsmodels ``multipletests(method="holm")`` (tested), written out because that one
    calls ``gc.collect()`` on every call: seconds in a large process, and calibration runs call it per
    synthetic screen."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(np.maximum.accumulate(p[order] * np.arange(m, 0, -1)), 1.0)
    out = np.empty(m)
    out[order] = stepped
    return out

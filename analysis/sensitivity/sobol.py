"""Sobol' indices with ``scipy.stats.sobol_indices`` (Saltelli 2010 estimators), where the budget allows.

scipy draws the A, B and AB matrices (``n (k + 2)`` samples of k values, n a power of 2) and calls the
model on them; here each sample's unit coordinates are put on the same grid of ``levels`` as Morris's
(level = floor(u * levels)), so a sample is a grid point and equal points are played once.  The design is
read off a first call whose model only records what it is asked (the same ``rng`` seed gives the same
samples), the points are played, and a second call gets the measures.  The first-order and total indices
get scipy's bootstrap 95% intervals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

REPS = 999


def _call(k: int, n: int, seed: int, model: Callable[[np.ndarray], np.ndarray]) -> Any:
    dists = [stats.uniform(0, 1)] * k
    return stats.sobol_indices(func=model, n=n, dists=dists, rng=np.random.default_rng(seed))


def to_levels(x: np.ndarray, levels: int) -> np.ndarray:
    """Unit coordinates ``[k, m]`` as grid levels."""
    return np.minimum(levels - 1, np.floor(x * levels)).astype(int)


def design(k: int, n: int, levels: int, seed: int) -> list[tuple[int, ...]]:
    """The grid points scipy asks for, in the order it asks (with repeats)."""
    asked: list[tuple[int, ...]] = []

    def record(x: np.ndarray) -> np.ndarray:
        asked.extend(tuple(int(v) for v in col) for col in to_levels(x, levels).T)
        return np.zeros((1, x.shape[1]))

    _call(k, n, seed, record)
    return asked


@dataclass(frozen=True)
class Indices:
    """Per measure and value: first-order and total indices with 95% bootstrap intervals."""

    first: np.ndarray
    first_low: np.ndarray
    first_high: np.ndarray
    total: np.ndarray
    total_low: np.ndarray
    total_high: np.ndarray


def indices(
    k: int, n: int, levels: int, seed: int, measure: Callable[[tuple[int, ...]], np.ndarray], outputs: int
) -> Indices:
    """The indices of the ``outputs`` measures (``measure(point)``: one value per output)."""

    def model(x: np.ndarray) -> np.ndarray:
        cols = [measure(tuple(int(v) for v in col)) for col in to_levels(x, levels).T]
        return np.asarray(cols, dtype=float).T.reshape(outputs, -1)

    result = _call(k, n, seed, model)
    boot = result.bootstrap(n_resamples=REPS, confidence_level=0.95)

    def two(a: Any) -> np.ndarray:
        return np.asarray(a, dtype=float).reshape(outputs, k)

    return Indices(
        two(result.first_order),
        two(boot.first_order.confidence_interval.low),
        two(boot.first_order.confidence_interval.high),
        two(result.total_order),
        two(boot.total_order.confidence_interval.low),
        two(boot.total_order.confidence_interval.high),
    )

"""Morris elementary effects (Morris 1991; mu* of Campolongo, Cariboni and Saltelli 2007).

The values live on a grid of ``p`` levels (0 .. p-1; the unit coordinate of level ``l`` is l/(p-1)).  A
trajectory starts at a random grid point and moves one value at a time, in a random order, by
Delta = p / (2 (p - 1)) (p/2 levels: up from the lower half, down from the upper half, so every level
is as likely), k + 1 points for k values.  The elementary effect of value i on a trajectory is

    EE_i = (y(after) - y(before)) / (Delta * direction)

the change of the measure per unit of the value's range (for a linear measure, the change from its
lowest to its highest option; for a choice between alternatives, a change of alternative counts as a
whole unit).  Over r trajectories: mu* = mean |EE_i| (the importance, the ranking), mu = mean EE_i and
sigma = the standard deviation of EE_i (interactions or curvature).  Their 95% intervals are percentile
bootstraps over the trajectories (``REPS`` resamples, seeded).  A point the game refuses gives no effect
(NaN) and is counted.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from types import TracebackType

import numpy as np

REPS = 2000


@dataclass(frozen=True)
class Design:
    """``r`` trajectories of ``k + 1`` grid points each (``points[t][j]``: one level per value), and which
    value moved at step j (``moved[t][j-1]``) in which direction (+1 or -1)."""

    levels: int
    points: tuple[tuple[tuple[int, ...], ...], ...]
    moved: tuple[tuple[int, ...], ...]
    direction: tuple[tuple[int, ...], ...]

    @property
    def delta(self) -> float:
        return self.levels / (2 * (self.levels - 1))

    def every_point(self) -> list[tuple[int, ...]]:
        return [p for t in self.points for p in t]


def design(k: int, r: int, levels: int, rng: np.random.Generator) -> Design:
    """``r`` random trajectories over ``k`` values on a ``levels`` grid."""
    jump = levels // 2
    points, moved, direction = [], [], []
    for _ in range(r):
        x = [int(v) for v in rng.integers(0, levels, size=k)]
        order = [int(i) for i in rng.permutation(k)]
        path, dirs = [tuple(x)], []
        for i in order:
            d = 1 if x[i] < jump else -1
            x[i] += d * jump
            path.append(tuple(x))
            dirs.append(d)
        points.append(tuple(path))
        moved.append(tuple(order))
        direction.append(tuple(dirs))
    return Design(levels, tuple(points), tuple(moved), tuple(direction))


def effects(plan: Design, y: np.ndarray, k: int) -> np.ndarray:
    """The elementary effects ``[r, k]`` from ``y[t, j]``, the measure at point j of trajectory t."""
    out = np.full((len(plan.points), k), np.nan)
    for t, (order, dirs) in enumerate(zip(plan.moved, plan.direction, strict=True)):
        for j, (i, d) in enumerate(zip(order, dirs, strict=True)):
            out[t, i] = (y[t, j + 1] - y[t, j]) / (plan.delta * d)
    return out


@dataclass(frozen=True)
class Summary:
    """Per value: mu*, mu, sigma and their 95% bootstrap intervals over trajectories; effects counted."""

    mu_star: np.ndarray
    mu_star_low: np.ndarray
    mu_star_high: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    sigma_low: np.ndarray
    sigma_high: np.ndarray
    counted: np.ndarray


def _stats(ee: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """mu*, mu, sigma over the leading axis (the trajectories), NaN effects left out."""
    with np.errstate(all="ignore"), _quiet():
        mu_star = np.nanmean(np.abs(ee), axis=-2)
        mu = np.nanmean(ee, axis=-2)
        sigma = np.nanstd(ee, axis=-2, ddof=1) if ee.shape[-2] > 1 else np.zeros(ee.shape[-1])
    return mu_star, mu, sigma


class _quiet:
    def __enter__(self) -> None:
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._w.__exit__(kind, exc, traceback)


def summarise(ee: np.ndarray, rng: np.random.Generator, reps: int = REPS) -> Summary:
    """mu*, mu, sigma of ``ee`` ``[r, k]`` with percentile bootstrap intervals over the r trajectories."""
    r = ee.shape[0]
    mu_star, mu, sigma = _stats(ee)
    picks = rng.integers(0, r, size=(reps, r))
    boot_star, _, boot_sigma = _stats(ee[picks])
    with _quiet():
        s_low, s_high = np.nanpercentile(boot_star, [2.5, 97.5], axis=0)
        g_low, g_high = np.nanpercentile(boot_sigma, [2.5, 97.5], axis=0)
    return Summary(mu_star, s_low, s_high, mu, sigma, g_low, g_high, np.sum(~np.isnan(ee), axis=0))

"""The no-effect dummy of a Morris screen: how large an effect noise alone gives, and which values are told
apart from it.

Every point of a screen is a few dozen games, so even a value with no effect on a verdict gets a mu* from
noise: a value that changes the games at all (a cost the strategies meet, a deck) deals games as different
as fresh ones at its two levels, and each of its elementary effects is then the difference of two
independent measurements over the step. A screen therefore carries a dummy value, the screening threshold of
the dummy-parameter practice (Khorashadi Zadeh, Nossent, Sarrazin, Pianosi and van Griensven 2017,
Environmental Modelling & Software 91): once per trajectory, the trajectory's first point is played again on
fresh seeds (``replicate_seed``), and the dummy's elementary effect is the change of the measure over that
replicate divided by the step, exactly as a value's. Its mu* is what a value that only reshuffles the games
scores; a fresh deal shares nothing with the common one, so the dummy's band is the widest noise a value can
add (a conservative band: a value told apart from it is surely not noise).

A value is told apart from noise when its absolute effects exceed the dummy's on the same trajectories:
a one-sided Wilcoxon signed-rank test of ``|EE_i| - |EE_dummy|`` over the trajectories
(``scipy.stats.wilcoxon``; under the null the pair is exchangeable, so the difference is symmetric), with
Holm's correction over the screen's values, per measure (``analysis.stats.multiplicity``).  The dummy's mu*
interval is the smallest effect the screen could detect at its size.

The test has a floor: with r trajectories the exact signed-rank p is at least 2^-r (every difference
positive), and Holm's first step needs it below alpha / k.  A screen with fewer than
``trajectories_to_tell(k)`` trajectories can tell none of its k values apart, whatever their effects
(``can_tell``): 5 values need 7 trajectories, 26 need 10, 54 need 11.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import wilcoxon

from analysis.stats.multiplicity import adjust

ALPHA = 0.05
CORRECTION = "holm"
#: stream of the replicate seeds (``replicate_seed``); 21-23 are the design's, the Sobol and bootstrap ones
STREAM = 24


def replicate_seed(seed: int, trajectory: int) -> int:
    """The fresh seed of trajectory ``trajectory``'s replicate (distinct per trajectory, none the common
    seed): a function of the screen's seed only."""
    state = np.random.SeedSequence([seed, STREAM, trajectory]).generate_state(1)[0]
    return int(state) % (2**31 - 1)


def replicate_key(trajectory: int) -> int:
    """The point under which a trajectory's replicate keeps its games and measures (negative: no
    candidate's index)."""
    return -1 - trajectory


def dummy_effects(start: np.ndarray, replicate: np.ndarray, delta: float) -> np.ndarray:
    """The dummy's elementary effect per trajectory: (replicate - first point) / Delta (NaN where either is
    missing)."""
    return (np.asarray(replicate, dtype=float) - np.asarray(start, dtype=float)) / delta


def smallest_p(trajectories: int) -> float:
    """The smallest one-sided p the exact signed-rank test gives over ``trajectories`` pairs (all of them
    positive): 2^-r."""
    return 0.5 ** max(trajectories, 0)


def trajectories_to_tell(values: int, alpha: float = ALPHA) -> int:
    """The fewest trajectories with which Holm's first step over ``values`` tests can reject at ``alpha``:
    the smallest r with 2^-r * values < alpha."""
    r = 1
    while smallest_p(r) * values >= alpha:
        r += 1
    return r


def can_tell(trajectories: int, values: int, alpha: float = ALPHA) -> bool:
    """Whether a screen of ``trajectories`` could tell any of its ``values`` apart from noise at all."""
    return trajectories >= trajectories_to_tell(values, alpha)


@dataclass(frozen=True)
class Tests:
    """Per value: the one-sided p of ``|EE_i| > |EE_dummy|``, Holm-adjusted over the values, and whether it
    is told apart from noise."""

    p: np.ndarray
    p_adjusted: np.ndarray
    told_apart: np.ndarray


def one_sided_p(value: np.ndarray, dummy: np.ndarray) -> tuple[float, int]:
    """(p, pairs counted) of the signed-rank test that the value's absolute effects exceed the dummy's on
    the same trajectories; 1.0 where fewer than two pairs differ (nothing to tell apart)."""
    keep = ~(np.isnan(value) | np.isnan(dummy))
    d = np.abs(value[keep]) - np.abs(dummy[keep])
    if np.count_nonzero(d) < 2:
        return 1.0, int(keep.sum())
    return float(wilcoxon(d, alternative="greater").pvalue), int(keep.sum())


def told_apart(ee: np.ndarray, dummy: np.ndarray, alpha: float = ALPHA) -> Tests:
    """Test every value's effects ``ee`` ``[r, k]`` against the dummy's ``[r]`` (Holm over the k values)."""
    p = np.asarray([one_sided_p(ee[:, i], dummy)[0] for i in range(ee.shape[1])])
    adjusted = adjust(p, CORRECTION).p_adjusted
    return Tests(p, adjusted, adjusted < alpha)

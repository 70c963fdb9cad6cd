"""The no-effect dummy of a Morris screen (``analysis.sensitivity.noise``), calibrated on synthetic screens
whose truth is known: a value with no effect is told apart from noise in at most alpha of the screens
(family-wise, Holm over the values), a planted effect is told apart, a value that changes no game is never,
and the replicate seeds are the screen's own."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.sensitivity import morris, noise

pytestmark = pytest.mark.slow

K, R, LEVELS, SIGMA = 5, 18, 4, 0.06


def _screen(rng: np.random.Generator, effect: float) -> noise.Tests:
    """One Morris screen of a measure ``effect * x0 + N(0, SIGMA)`` fresh at every point (the games of a
    value that changes them are as different as fresh ones), with its replicate of each first point."""
    plan = morris.design(K, R, LEVELS, rng)
    unit = np.asarray(plan.points, dtype=float) / (LEVELS - 1)  # [r, k + 1, k]
    y = effect * unit[:, :, 0] + SIGMA * rng.standard_normal(unit.shape[:2])
    again = effect * unit[:, 0, 0] + SIGMA * rng.standard_normal(R)
    return noise.told_apart(morris.effects(plan, y, K), noise.dummy_effects(y[:, 0], again, plan.delta))


def test_no_effect_values_are_told_apart_in_at_most_alpha_of_the_screens() -> None:
    """Family-wise error over 400 null screens (five no-effect values each): at most 5% plus three standard
    errors of the Monte Carlo (about 3.3 points)."""
    rng = np.random.default_rng(11)
    screens = 400
    false = sum(bool(_screen(rng, 0.0).told_apart.any()) for _ in range(screens))
    bound = noise.ALPHA + 3 * np.sqrt(noise.ALPHA * (1 - noise.ALPHA) / screens)
    assert false / screens <= bound, false


def test_a_planted_effect_is_told_apart_and_the_others_are_not() -> None:
    """An effect of 0.3 on the seat measure (five noise standard deviations) over 18 trajectories."""
    rng = np.random.default_rng(12)
    found = [_screen(rng, 0.3) for _ in range(100)]
    power = np.mean([f.told_apart[0] for f in found])
    others = np.mean([f.told_apart[1:].any() for f in found])
    assert power >= 0.9, power
    assert others <= 0.1, others
    assert all(f.p_adjusted[0] >= f.p[0] for f in found)  # Holm never lowers a p


def test_a_value_that_changes_no_game_is_never_told_apart() -> None:
    """Exactly zero effects (the bonus of the toy game on its length) against a noisy dummy: p is 1."""
    dummy = np.asarray([0.1, -0.05, 0.2, 0.0, 0.12])
    tests = noise.told_apart(np.zeros((5, 2)), dummy)
    assert not tests.told_apart.any() and np.all(tests.p > 0.5)
    # and nothing to tell apart where value and dummy are both silent
    assert noise.one_sided_p(np.zeros(5), np.zeros(5)) == (1.0, 5)


def test_missing_effects_are_left_out_of_the_pairs() -> None:
    value = np.asarray([1.0, np.nan, 1.0, 1.0, 1.0, 1.0])
    dummy = np.asarray([0.0, 0.0, np.nan, 0.0, 0.0, 0.0])
    p, pairs = noise.one_sided_p(value, dummy)
    assert pairs == 4 and p == 1 / 16  # four positive differences: the exact one-sided p is 2^-4


def test_replicate_seeds_are_distinct_and_a_function_of_the_screen_seed() -> None:
    seeds = [noise.replicate_seed(42, t) for t in range(50)]
    assert len(set(seeds)) == 50 and 42 not in seeds
    assert seeds == [noise.replicate_seed(42, t) for t in range(50)]
    assert seeds != [noise.replicate_seed(43, t) for t in range(50)]


def test_below_the_trajectory_floor_even_a_huge_effect_is_not_told_apart() -> None:
    """With r trajectories the exact signed-rank p is at least 2^-r, and Holm's first step over k values
    needs it below alpha / k: 5 values need 7 trajectories (2^-6 * 5 = 0.078, 2^-7 * 5 = 0.039)."""
    assert noise.trajectories_to_tell(5) == 7 and noise.trajectories_to_tell(26) == 10
    dummy = np.asarray([0.01, -0.02, 0.0, 0.015, -0.01, 0.02, 0.005])
    ee = np.zeros((7, 5))
    ee[:, 0] = 10.0  # far beyond any noise
    assert not noise.can_tell(6, 5) and not noise.told_apart(ee[:6], dummy[:6]).told_apart[0]
    assert noise.can_tell(7, 5) and noise.told_apart(ee, dummy).told_apart[0]
    assert noise.smallest_p(6) == 1 / 64

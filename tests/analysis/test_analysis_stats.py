"""analysis.stats.stats against hand computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from analysis.stats import stats


def test_wilson_known_values() -> None:
    low, high = stats.wilson_interval(50, 100)
    assert (float(low), float(high)) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = stats.wilson_interval(7, 10)  # centre 0.6445, half-width 0.2477
    assert (float(low), float(high)) == pytest.approx((0.3968, 0.8922), abs=1e-4)
    low, high = stats.wilson_interval(0, 10)
    assert (float(low), float(high)) == pytest.approx((0.0, 0.2775), abs=1e-4)
    low, high = stats.wilson_interval(2.5, 4)  # fractional tie shares are allowed
    assert 0 < float(low) < 0.625 < float(high) < 1
    low, high = stats.wilson_interval(0, 0)
    assert (float(low), float(high)) == (0.0, 1.0)


def test_equal_chances_chi_square_and_g() -> None:
    result = stats.equal_chances_test([30, 20, 25, 25])
    # expected 25 each: chi2 = (25 + 25 + 0 + 0) / 25 = 2 with 3 degrees of freedom
    assert result.chi2 == pytest.approx(2.0)
    assert result.dof == 3
    assert result.chi2_p == pytest.approx(0.5724067, abs=1e-6)
    # G = 2 * (30 ln 1.2 + 20 ln 0.8)
    assert result.g == pytest.approx(2 * (30 * math.log(1.2) + 20 * math.log(0.8)))
    assert result.decided == 100
    assert stats.equal_chances_test([10, 10]).chi2_p == pytest.approx(1.0)
    assert math.isnan(stats.equal_chances_test([0, 0]).chi2_p)


def test_balance_metric() -> None:
    assert stats.balance_metric([0.3, 0.2, 0.25, 0.25]) == pytest.approx(0.9)
    assert stats.balance_metric([0.5, 0.5]) == 1.0


def test_bradley_terry_two_players() -> None:
    # A ahead of B 7 times in 10: the MLE has p_A / p_B = 7 / 3; geometric mean 1
    p = stats.bradley_terry(np.array([[0.0, 7.0], [3.0, 0.0]]))
    assert p[0] / p[1] == pytest.approx(7 / 3, rel=1e-8)
    assert p[0] * p[1] == pytest.approx(1.0)
    elo = stats.elo_scale(p)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(7 / 3))


def test_bradley_terry_recovers_exact_strengths() -> None:
    truth = np.array([4.0, 2.0, 1.0])
    wins = 100 * truth[:, None] / (truth[:, None] + truth[None, :])
    np.fill_diagonal(wins, 0)
    p = stats.bradley_terry(wins)
    assert p / p[2] == pytest.approx(truth, rel=1e-6)


def test_bradley_terry_keeps_a_winless_player_finite() -> None:
    p = stats.bradley_terry(np.array([[0.0, 5.0], [0.0, 0.0]]))
    assert np.isfinite(p).all() and p[0] > 100 * p[1]


def test_two_proportions_and_two_means() -> None:
    comp = stats.two_proportions(50, 100, 60, 100)
    assert comp.estimate == pytest.approx(0.1)
    assert comp.p_value == pytest.approx(0.1552, abs=1e-4)  # pooled z = 1.4213
    assert comp.effect == pytest.approx(2 * math.asin(math.sqrt(0.6)) - 2 * math.asin(math.sqrt(0.5)))
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([3.0, 4.0, 5.0, 6.0])
    comp = stats.two_means(a, b)
    assert comp.estimate == pytest.approx(2.0)
    assert comp.effect == pytest.approx(2.0 / np.std(a, ddof=1))
    assert comp.low < 2.0 < comp.high
    assert 0 < comp.p_value < 0.1
    # two_means once paired a z interval with a Welch-t p; now the interval is Welch's t
    # (equal variances and sizes: Welch-Satterthwaite df = 6), which excludes 0 exactly when p < 0.05
    se = math.sqrt(np.var(a, ddof=1) / 4 + np.var(b, ddof=1) / 4)
    assert comp.high - 2.0 == pytest.approx(scipy_stats.t.ppf(0.975, 6) * se)
    assert (comp.low > 0) == (comp.p_value < 0.05)
    flat = stats.two_means(np.array([3.0, 3.0]), np.array([4.0, 4.0]))
    assert math.isnan(flat.low) and math.isnan(flat.high)  # no zero-width interval


def test_mean_interval_and_games_to_halve() -> None:
    mean, low, high = stats.mean_interval(np.array([1.0, 2.0, 3.0]))
    assert mean == 2.0
    # z intervals for means at n = 5 were 0.71x the t width: t on n - 1 df now
    assert high - mean == pytest.approx(scipy_stats.t.ppf(0.975, 2) * 1.0 / math.sqrt(3))
    # "Zero-variance samples get zero-width intervals ("13.0 [13.0, 13.0]")": none now
    mean, low, high = stats.mean_interval(np.array([13.0, 13.0, 13.0]))
    assert mean == 13.0 and math.isnan(low) and math.isnan(high)
    assert stats.games_to_halve(250) == 1000
    # the Wilson half-width with 4x the games is about half as wide
    lo1, hi1 = stats.wilson_interval(100, 400)
    lo4, hi4 = stats.wilson_interval(400, 1600)
    assert float(hi4 - lo4) == pytest.approx(float(hi1 - lo1) / 2, rel=0.01)


def test_newcombe_interval_for_two_proportions() -> None:
    none = stats.two_proportions(0, 60, 0, 60)  # Wald would give [0, 0]
    assert none.estimate == 0.0 and none.low < 0 < none.high
    assert none.high == pytest.approx(-none.low)
    assert none.high == pytest.approx(float(stats.wilson_interval(0, 60)[1][()]))
    comp = stats.two_proportions(50, 100, 60, 100)
    assert -0.05 < comp.low < 0.0 < 0.1 < comp.high < 0.25
    every = stats.two_proportions(60, 60, 58, 60)
    assert every.low < every.estimate < every.high <= 0.05


def test_gap_permutation_test() -> None:
    rng = np.random.default_rng(1)
    even = np.eye(3)[rng.integers(0, 3, 300)]  # each game one winner, seats equally likely
    assert stats.gap_permutation_test(even, even) == pytest.approx(1.0)
    skewed = np.eye(3)[rng.choice(3, 300, p=[0.6, 0.2, 0.2])]
    assert stats.gap_permutation_test(even, skewed, reps=500) < 0.01
    same = np.eye(3)[rng.integers(0, 3, 300)]
    assert stats.gap_permutation_test(even, same, reps=500) > 0.01
    assert math.isnan(stats.gap_permutation_test(even, np.eye(4)[:3]))


def test_rates_independence_test_by_hand() -> None:
    # wins 1, 3, 0 of 4 each: expected 4/3 wins and 8/3 non-wins per group
    chi2, p, dof = stats.rates_independence_test([1, 3, 0], [4, 4, 4])
    assert chi2 == pytest.approx(42 / 12 + 42 / 24) and dof == 2
    assert p == pytest.approx(math.exp(-5.25 / 2))  # chi-square with 2 dof: sf(x) = exp(-x/2)
    assert math.isnan(stats.rates_independence_test([2], [4])[1])


def test_summarize_gives_t_intervals_and_none_of_zero_width() -> None:
    """Score summaries' means once had z intervals (0.71x the t width at n = 5) and
    zero-width intervals where every value was the same."""
    import polars as pl

    from analysis.questions.scores import summarize

    frame = pl.DataFrame({"g": ["a"] * 5 + ["b"] * 3, "x": [1.0, 2.0, 3.0, 4.0, 5.0, 13.0, 13.0, 13.0]})
    out = {row["g"]: row for row in summarize(frame, "x", ["g"]).iter_rows(named=True)}
    half = scipy_stats.t.ppf(0.975, 4) * np.std([1, 2, 3, 4, 5], ddof=1) / math.sqrt(5)
    assert out["a"]["high"] - out["a"]["mean"] == pytest.approx(half)
    assert out["b"]["mean"] == 13.0 and math.isnan(out["b"]["low"]) and math.isnan(out["b"]["high"])

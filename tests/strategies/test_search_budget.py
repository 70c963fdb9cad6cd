"""The budget a search would need (``tools/search_budget.py``: where a game needs a larger budget
than is practical, it gives the budget it needs and its cost)."""

from __future__ import annotations

import pytest

from tools.search_budget import MAX_Z, POWER_Z, best_z, held_out_gain, measure, needed_samples


def test_the_gain_is_measured_on_samples_other_than_those_that_chose_the_arm() -> None:
    """An arm that looks better only on the even samples (the winner's curse) is chosen there, and its
    held-out gain on the odd samples says it is worse; a steady gain is measured as it is."""
    prior = [0.5] * 8
    lucky = [0.9, 0.1] * 4  # +0.4 on even samples, -0.4 on odd ones
    steady = [0.6] * 8
    gain, noise = held_out_gain("p", {"p": prior, "lucky": lucky})  # type: ignore[misc]
    assert gain == pytest.approx(-0.4) and noise > 0.4
    gain, noise = held_out_gain("p", {"p": prior, "worse": [0.4] * 8, "steady": steady})  # type: ignore[misc]
    assert gain == pytest.approx(0.1) and noise == pytest.approx(0.0, abs=1e-12)
    assert held_out_gain("p", {"p": prior}) is None
    assert held_out_gain(None, {"a": steady}) is None


def test_a_clear_gain_is_counted_in_standard_errors_of_the_paired_differences() -> None:
    """The best other arm's mean paired difference over its standard error; a steady gain with no noise
    is capped, nothing changed is 0, and no other arm is None."""
    prior = [0.5, 0.4, 0.6, 0.5]
    better = [0.7, 0.5, 0.9, 0.6]  # differences 0.2, 0.1, 0.3, 0.1: mean 0.175, sd 0.0957
    assert best_z("p", {"p": prior, "b": better}) == pytest.approx(0.175 / (0.09574271 / 2), rel=1e-5)
    assert best_z("p", {"p": prior, "s": [x + 0.1 for x in prior]}) == MAX_Z
    assert best_z("p", {"p": prior, "same": list(prior)}) == 0.0
    assert best_z("p", {"p": prior}) is None


def test_the_samples_needed_grow_with_the_noise_and_shrink_with_the_gain() -> None:
    """Clearing one standard error four times in five: a gain equal to the noise needs (1 + 0.84)^2
    = 3.4 samples, half the gain four times as many, twice the noise as well; no gain, no budget."""
    assert needed_samples(0.1, 0.1, 1.0) == pytest.approx((1 + POWER_Z) ** 2)
    assert needed_samples(0.05, 0.1, 1.0) == pytest.approx(4 * (1 + POWER_Z) ** 2)
    assert needed_samples(0.1, 0.2, 1.0) == pytest.approx(4 * (1 + POWER_Z) ** 2)
    assert needed_samples(0.1, 0.1, 0.0) == pytest.approx(POWER_Z**2)
    assert needed_samples(0.0, 0.1, 1.0) is None and needed_samples(-0.1, 0.1, 1.0) is None


def test_a_real_search_is_measured_at_the_decisions_asked_for() -> None:
    """Mainland's search at three decisions, six paired samples per root arm: every root arm visited in
    turn, a budget exactly when the held-out gain is positive."""
    row = measure("mainland", 2, decisions=3, samples=6, every=3, seed=5, search="ismcts")
    assert row["decisions"] == 3 and row["width"] == 4 and row["samples_per_arm"] == 6
    assert row["ms_per_iteration"] > 0 and row["noise"] >= 0
    assert (row["needed_samples"] is None) == (row["held_out_gain"] <= 0)
    assert 0 <= row["clear_share"] <= 1

"""The stopping rule (``analysis.stats.sequential``): the plan, the α spent at each look, a look's decision on
α's scale, and the error rates with the rule in the loop (small; ``tools/calibrate_decisions.py`` runs
the full calibration)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.stats.decide import FAIR, UNDECIDED, UNFAIR, seat_decision
from analysis.stats.sequential import (
    SPENDING,
    first_decision,
    look,
    look_change,
    look_levels,
    plan_looks,
    spent,
)
from tests.analysis.test_decide import ALPHA, tolerance
from tools import calibrate_decisions as cal


def test_the_plan_doubles_up_to_the_budget() -> None:
    assert plan_looks(512, 4) == (64, 128, 256, 512)
    assert plan_looks(500, 3) == (125, 250, 500)
    assert plan_looks(5, 4) == (2, 3, 5)  # sizes that would repeat are dropped
    assert plan_looks(40, 1) == (40,)
    with pytest.raises(ValueError, match="two blocks"):
        plan_looks(1, 3)


@pytest.mark.parametrize("spending", SPENDING)
def test_the_levels_sum_to_alpha(spending: str) -> None:
    levels = look_levels((64, 128, 256, 512), ALPHA, spending)
    assert len(levels) == 4 and sum(levels) == pytest.approx(ALPHA, abs=1e-15)
    assert all(level > 0 for level in levels)


def test_obrien_fleming_spends_little_early_and_pocock_more() -> None:
    obf = look_levels((64, 128, 256, 512), ALPHA, "obrien-fleming")
    pocock = look_levels((64, 128, 256, 512), ALPHA, "pocock")
    assert obf[0] < 1e-6 < pocock[0] and obf[-1] > 0.04 > pocock[-1]
    assert list(obf) == sorted(obf)
    assert spent(1.0, ALPHA, "obrien-fleming") == pytest.approx(ALPHA)
    with pytest.raises(ValueError, match="unknown spending"):
        spent(0.5, ALPHA, "linear")


def test_a_look_decides_at_its_level_and_reports_on_alphas_scale() -> None:
    plan = (20, 40, 80)
    y = np.random.default_rng(1).multinomial(4, [0.3, 0.25, 0.25, 0.2], size=80).astype(float)
    levels = look_levels(plan, ALPHA, "pocock")
    for j, n in enumerate(plan):
        d = look(y[:n], 0.05, j, plan, spending="pocock")
        fixed = seat_decision(y[:n], 0.05, ALPHA, level=levels[j])  # the same decision, no stopping note
        assert d.level == pytest.approx(levels[j]) and d.alpha == ALPHA
        assert d.decision == fixed.decision and d.p_values == fixed.p_values
        plain = seat_decision(y[:n])  # at α: the look's p is the plain one times α / α_j
        assert d.p_values[0] == pytest.approx(min(1.0, plain.p_values[0] * ALPHA / levels[j]))
        assert f"look {j + 1} of 3" in d.stopping and "Pocock" in d.stopping
        # the look's interval is wider than the fixed sample's at α
        assert d.intervals[0][1] - d.intervals[0][0] > plain.intervals[0][1] - plain.intervals[0][0]


def test_a_look_outside_the_plan_is_refused() -> None:
    with pytest.raises(ValueError, match="not in a plan"):
        look(np.ones((10, 3)), 0.05, 3, (5, 10))


def test_the_study_stops_at_the_first_decided_look() -> None:
    y = np.random.default_rng(2).multinomial(4, [0.55, 0.15, 0.15, 0.15], size=256).astype(float)
    plan = (32, 64, 128, 256)
    decision, j = first_decision(y, 0.05, plan, spending="pocock")
    assert decision.decision == UNFAIR and j < len(plan) - 1
    assert all(
        look(y[:n], 0.05, i, plan, spending="pocock").decision == UNDECIDED for i, n in enumerate(plan[:j])
    )
    even = np.random.default_rng(3).multinomial(4, [0.25] * 4, size=256).astype(float)
    decision, j = first_decision(even, 0.05, plan)
    assert decision.decision in (FAIR, UNDECIDED) and (decision.decision == FAIR or j == len(plan) - 1)
    with pytest.raises(ValueError, match="blocks for a plan"):
        first_decision(even[:100], 0.05, plan)


def test_an_undecided_look_counts_its_games_at_the_next_looks_level() -> None:
    plan = (16, 32, 64)
    y = np.random.default_rng(4).multinomial(3, [0.36, 0.32, 0.32], size=16).astype(float)
    d = look(y, 0.05, 0, plan)
    assert d.decision == UNDECIDED and d.games_needed is not None and d.games_needed > 0
    at_last = look(y, 0.05, 2, plan)  # a larger level (the last look's) needs fewer games
    assert at_last.games_needed is not None and at_last.games_needed < d.games_needed


def test_a_change_look_uses_both_sides() -> None:
    rng = np.random.default_rng(5)
    a = rng.multinomial(3, [0.5, 0.25, 0.25], size=200).astype(float)
    b = rng.multinomial(3, [1 / 3] * 3, size=200).astype(float)
    d = look_change(a, b, 0.05, 1, (100, 200))
    assert d.question == "change" and d.decision == "changes" and "look 2 of 2" in d.stopping


# --------------------------------------------------------------------------- with the rule in the loop

REPS = 1500
PLAN = (32, 64, 128, 256)


def test_looking_at_alpha_every_time_inflates_and_spending_does_not() -> None:
    """Under equal chances, "unfair" at any of four looks: about 10% with α at every look, at most α with
    the spending function (the same records)."""
    d = cal.Design(cal.patterns(4)["even"], forced=0.0, concentration=2.0)
    naive = cal.seat_study("sequential null", REPS, d, PLAN, levels=[ALPHA] * 4)
    spent_rule = cal.seat_study("sequential null", REPS, d, PLAN)
    assert np.mean(naive.outcome == 2) > ALPHA + tolerance(REPS)
    assert np.mean(spent_rule.outcome == 2) <= ALPHA + tolerance(REPS)
    assert np.mean(spent_rule.covered) >= 1 - ALPHA - tolerance(REPS)


@pytest.mark.parametrize("spending", ["pocock", "bonferroni"])
def test_every_spending_keeps_fair_at_the_margin_rare(spending: str) -> None:
    d = cal.Design(cal.patterns(4)["one up"])
    played = cal.seat_study(f"sequential margin {spending}", REPS, d, PLAN, spending=spending)
    assert np.mean(played.outcome == 1) <= ALPHA + tolerance(REPS)
    assert np.mean(played.blocks) < PLAN[-1]  # clear cases stop early

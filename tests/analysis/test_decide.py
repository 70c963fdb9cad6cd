"""Decisions against a margin (``analysis.stats.decide``): the three outcomes, one statistic per sentence, the
page rule, and a small calibration on synthetic block records of known truth with the stopping rule in
the loop (``tools/calibrate_decisions.py`` runs the full one).

The calibration's bounds allow three binomial standard errors of simulation error around α (and 1 − α
for coverage): enough to catch a gross error (a Wald test where a score test is needed, a missing
correction, α spent twice) at replicates that keep this file to a few seconds.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from analysis.stats.decide import (
    CHANGES,
    DIFFERS,
    FAIR,
    HOLDS,
    SAME,
    SEAT_MARGIN,
    UNDECIDED,
    UNFAIR,
    change_decision,
    decide_difference,
    difference_decision,
    page_correction,
    page_outcomes,
    score_spread_decisions,
    seat_decision,
    seat_gap_decision,
)
from analysis.stats.decide.core import holm_last_axis
from analysis.stats.multiplicity import adjust, holm
from analysis.stats.sequential import plan_looks
from tools import calibrate_decisions as cal

ALPHA = 0.05


def tolerance(reps: int, rate: float = ALPHA) -> float:
    """Three binomial standard errors of a rate estimated from ``reps`` replicates."""
    return 3 * math.sqrt(rate * (1 - rate) / reps)


def blocks(shares: list[float], n: int, seed: int, games: int | None = None) -> np.ndarray:
    """(n, k) win shares of ``n`` blocks of ``games`` independent games (default k) with these chances."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(games or len(shares), shares, size=n).astype(float)


# --------------------------------------------------------------------------- the three outcomes


def test_a_large_even_sample_is_fair_within_the_margin() -> None:
    d = seat_decision(blocks([0.25] * 4, 800, seed=1))
    assert d.decision == FAIR and d.shown == "equivalence"
    assert d.margin == SEAT_MARGIN and d.alpha == ALPHA
    low, high = d.interval
    assert -d.margin < low < high < d.margin
    assert d.p_value == d.equivalence_p == max(d.equivalence_p_values) < ALPHA
    assert d.games_needed is None and d.blocks_needed is None and d.beyond_margin is None


def test_a_clear_seat_edge_is_unfair_with_its_size_and_whether_it_lies_beyond_the_margin() -> None:
    d = seat_decision(blocks([0.4, 0.2, 0.2, 0.2], 200, seed=2), labels=["N", "E", "S", "W"])
    assert d.decision == UNFAIR and d.labels[d.decisive] == "N"
    low, high = d.interval
    assert d.margin < low < d.estimate < high  # the whole interval beyond +δ
    assert d.beyond_margin is True
    assert d.p_value == d.difference_p == min(d.p_values) < ALPHA
    assert d.family == 4 and "Holm" in d.correction


def test_a_real_difference_smaller_than_the_margin_is_fair() -> None:
    """Equivalence is the outcome where both are shown: the designer said gaps below δ do not matter."""
    d = seat_decision(blocks([0.28, 0.24, 0.24, 0.24], 4000, seed=3))
    assert d.decision == FAIR
    assert d.difference_p < ALPHA  # the 3-point difference is real, and recorded


def test_undecided_states_the_half_width_and_the_games_that_would_decide() -> None:
    y = blocks([0.25] * 4, 30, seed=4)
    d = seat_decision(y)
    assert d.decision == UNDECIDED
    assert d.half_width > d.margin - max(abs(e) for e in d.estimates)
    assert d.blocks_needed > 0 and d.games_needed == math.ceil(d.blocks_needed * d.games / d.blocks - 1e-9)
    # the same blocks played often enough that their estimates hold: the count was enough
    copies = math.ceil((d.blocks + d.blocks_needed) / d.blocks) + 1
    assert seat_decision(np.tile(y, (copies, 1))).decision != UNDECIDED


def test_the_interval_and_the_p_value_of_a_sentence_are_one_statistic() -> None:
    """For every decision: the decisive interval excludes 0 (a difference) or lies inside ±δ
    (equivalence) exactly when its p value is below α, and each position's pair agrees likewise."""
    rng = np.random.default_rng(5)
    for trial in range(60):
        k = int(rng.integers(2, 6))
        shares = rng.dirichlet(np.full(k, 20.0))
        d = seat_decision(blocks(list(shares), int(rng.integers(10, 400)), seed=trial))
        for (lo, hi), p in zip(d.equivalence_intervals, d.equivalence_p_values, strict=True):
            assert (-d.margin < lo and hi < d.margin) == (p < ALPHA)
        top = int(np.argmin(d.p_values))  # Holm's first step is Bonferroni's: dual to the interval
        lo, hi = d.intervals[top]
        assert (lo > 0 or hi < 0) == (d.p_values[top] < ALPHA)


def test_two_positions_are_one_test_and_need_no_correction() -> None:
    d = seat_decision(blocks([0.6, 0.4], 150, seed=6, games=2))
    assert d.family == 1 and d.p_values[0] == pytest.approx(d.p_values[1])
    assert d.estimates[0] == pytest.approx(-d.estimates[1])


def test_a_handful_of_identical_blocks_cannot_show_fairness() -> None:
    """Rotation that forces every seat to win once per block gives no spread between blocks: the SE of
    one observation per block stands in, so six blocks decide nothing."""
    d = seat_decision(np.ones((6, 4)))
    assert d.decision == UNDECIDED and d.games_needed is not None
    assert seat_decision(np.ones((2000, 4))).decision == FAIR


def test_the_records_order_does_not_move_a_byte() -> None:
    y = blocks([0.3, 0.25, 0.25, 0.2], 90, seed=7)
    y[::7, :] *= 0.5  # some games without a winner: fractional shares, blocks of unequal size
    first = json.dumps(seat_decision(y).to_finding(), sort_keys=True)
    shuffled = y[np.random.default_rng(8).permutation(len(y))]
    assert json.dumps(seat_decision(shuffled).to_finding(), sort_keys=True) == first


def test_findings_are_plain_json_with_the_finding_field_names() -> None:
    d = seat_decision(blocks([0.25] * 4, 12, seed=9))
    row = d.to_finding()
    text = json.dumps(row, allow_nan=False)  # no nan, no numpy types
    assert {
        "estimate",
        "low",
        "high",
        "p_value",
        "p_adjusted",
        "test",
        "games",
        "clusters",
        "correction",
    } <= set(row)
    assert row["decision"] == UNDECIDED and row["margin"] == SEAT_MARGIN and json.loads(text) == row
    rows = d.rows()
    assert [r["position"] for r in rows] == ["0", "1", "2", "3"] and json.dumps(rows, allow_nan=False)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="positions"):
        seat_decision(np.ones((5, 1)))
    with pytest.raises(ValueError, match="labels"):
        seat_decision(np.ones((5, 3)), labels=["a", "b"])
    with pytest.raises(ValueError, match="side b"):
        change_decision(np.ones((5, 3)), np.ones((5, 4)))


def test_holm_along_the_last_axis_is_holm() -> None:
    p = np.random.default_rng(10).random((50, 5)) ** 3
    assert np.allclose(holm_last_axis(p, 5), np.vstack([holm(row) for row in p]))
    assert np.array_equal(holm_last_axis(p, 1), p)


# --------------------------------------------------------------------------- change and differences


def test_two_positions_tied_on_both_sides_do_not_change_when_their_order_flips() -> None:
    a = blocks([0.4, 0.4, 0.2], 3000, seed=11)
    b = blocks([0.4, 0.4, 0.2], 3000, seed=12)
    assert a.sum(0).argmax() != b.sum(0).argmax()  # the old reading said CHANGES: the top position moved
    d = change_decision(a, b)
    assert d.decision == HOLDS and d.question == "change"


def test_one_block_or_none_decides_nothing() -> None:
    d = seat_decision(np.array([[1.0, 2.0, 1.0]]))
    assert d.decision == UNDECIDED and d.games_needed is None and math.isnan(d.half_width)
    d = seat_decision(
        np.array([[1.0, 2.0, 1.0], [0.0, 0.0, 0.0], [2.0, 1.0, 1.0]])
    )  # a block of no decided game
    assert d.blocks == 2 and d.games == 8


def test_a_real_ten_point_change_changes() -> None:
    d = change_decision(blocks([0.433, 0.283, 0.284], 400, seed=13), blocks([1 / 3] * 3, 400, seed=14))
    assert d.decision == CHANGES and d.decisive == 0
    assert d.estimate == pytest.approx(-0.1, abs=0.04)


def test_a_difference_decided_from_its_estimate_is_a_tost() -> None:
    d = decide_difference(0.01, 0.01, 100, 0.05, blocks=101, games=404, test="t")
    expected = max(sps.t.sf((0.01 + 0.05) / 0.01, 100), sps.t.sf((0.05 - 0.01) / 0.01, 100))
    assert d.decision == SAME and d.equivalence_p == pytest.approx(expected)
    assert d.interval == pytest.approx(
        (0.01 - sps.t.ppf(0.95, 100) * 0.01, 0.01 + sps.t.ppf(0.95, 100) * 0.01)
    )
    assert decide_difference(0.2, 0.01, 100, 0.05, blocks=101, games=404, test="t").decision == DIFFERS


def test_pairing_removes_the_deal() -> None:
    rng = np.random.default_rng(15)
    deal = rng.normal(0, 5, 80)
    a, b = deal + rng.normal(0, 0.5, 80), deal + 0.1 + rng.normal(0, 0.5, 80)
    paired = difference_decision(a, b, 0.5, paired=True)
    apart = difference_decision(a, b, 0.5)
    assert paired.decision == SAME and apart.decision == UNDECIDED
    assert paired.half_width < apart.half_width / 5
    assert paired.estimate == pytest.approx(apart.estimate)


def test_score_spreads_are_decided_in_points_and_as_a_share() -> None:
    rng = np.random.default_rng(16)
    games = 400
    block = np.repeat(np.arange(games // 4), 4)
    out = score_spread_decisions(rng.poisson(6, games), block, rng.poisson(9, games), block, points=1.0)
    margin, close = out["winner's margin"], out["close games"]
    assert margin.decision == DIFFERS and margin.estimate == pytest.approx(3, abs=0.6)
    assert close.margin == 0.05 and close.estimate < 0  # fewer close games with wider margins
    assert margin.blocks == 200 and margin.games == games * 2


def test_the_seat_gap_decision_is_seeded_from_its_data() -> None:
    a, b = blocks([0.25] * 4, 60, seed=17), blocks([0.4, 0.2, 0.2, 0.2], 60, seed=18)
    first = seat_gap_decision(a, b, 0.05, paired=False)
    assert first == seat_gap_decision(a, b, 0.05, paired=False)
    assert first.question == "difference" and first.labels == ("largest seat gap",) and first.estimate > 0


# --------------------------------------------------------------------------- the page


def test_page_correction_is_holm_or_bh_over_the_page() -> None:
    p = [0.001, 0.03, 0.2, float("nan"), 0.04]
    holm_page = page_correction(p)
    assert holm_page.family == 4 and holm_page.method == "Holm"
    assert np.allclose(holm_page.p_adjusted, adjust(np.asarray(p)).p_adjusted, equal_nan=True)
    assert holm_page.survives == (True, False, False, False, False)
    bh = page_correction(p, method="fdr_bh")
    assert bh.method == "Benjamini-Hochberg" and bh.survives[1] is False and bh.survives[0] is True
    assert "4 verdicts" in holm_page.describe()


def test_a_marginal_unfair_verdict_does_not_survive_a_page_of_many() -> None:
    strong = seat_decision(blocks([0.45, 0.2, 0.2, 0.15], 200, seed=19))
    even = [seat_decision(blocks([0.25] * 4, 40, seed=s)) for s in range(20, 25)]
    marginal = seat_decision(blocks([0.31, 0.23, 0.23, 0.23], 60, seed=3))
    assert marginal.decision == UNFAIR and marginal.difference_p > ALPHA / 7
    page = page_outcomes([strong, marginal, *even])
    assert page.outcomes[0] == UNFAIR and page.outcomes[1] == UNDECIDED
    assert page.differences.family == 7


# --------------------------------------------------------------------------- calibration (small)

REPS = 1500
PLAN = plan_looks(256, 4)


@pytest.mark.parametrize(("k", "pattern"), [(4, "one up"), (3, "up and down")])
def test_fair_is_rarely_claimed_when_the_largest_gap_is_exactly_the_margin(k: int, pattern: str) -> None:
    d = cal.Design(cal.patterns(k)[pattern])
    played = cal.seat_study(f"test fair {k} {pattern}", REPS, d, PLAN)
    assert np.mean(played.outcome == 1) <= ALPHA + tolerance(REPS)
    assert np.mean(played.covered) >= 1 - ALPHA - tolerance(REPS)


def test_unfair_is_rarely_claimed_when_every_seat_is_even_and_fair_mostly_is() -> None:
    d = cal.Design(cal.patterns(3)["even"], forced=0.0, concentration=2.0)  # a strong deal effect
    played = cal.seat_study("test even 3", REPS, d, PLAN)
    assert np.mean(played.outcome == 2) <= ALPHA + tolerance(REPS)
    assert np.mean(played.covered) >= 1 - ALPHA - tolerance(REPS)
    few = cal.seat_study(
        "test even few", REPS, cal.Design(cal.patterns(4)["even"], forced=0.0, concentration=2.0), (15,)
    )
    assert np.mean(few.outcome == 2) <= ALPHA + tolerance(REPS)  # a Wald t would give about 12% here
    fair = cal.seat_study("test even 4", REPS, cal.Design(cal.patterns(4)["even"]), PLAN)
    assert np.mean(fair.outcome == 1) > 0.6  # the margin is reachable at this budget


def test_stronger_play_holds_rarely_for_a_real_change_and_changes_rarely_for_tied_seats() -> None:
    even = cal.patterns(3)["even"]
    ten = cal.Design((even[0] + 0.1, even[1] - 0.05, even[2] - 0.05))
    real = cal.change_study("test ten", 600, ten, cal.Design(even), PLAN)
    assert np.mean(real.outcome == 1) <= tolerance(600, 0.01) and np.mean(real.outcome == 2) > 0.8
    tied = cal.Design((0.4, 0.4, 0.2))
    same = cal.change_study("test tied", REPS, tied, tied, PLAN)
    assert np.mean(same.outcome == 2) <= ALPHA + tolerance(REPS)
    assert np.mean(cal.top_flips("test flips", 600, tied, tied, 256)) > 0.3  # the old reading's flips


def test_the_page_rule_keeps_any_false_unfair_on_the_page_at_alpha() -> None:
    claims = cal.page_claims(600, (3, 4, 3, 4), (64, 128), cal.Design(cal.patterns(3)["even"]))
    assert np.mean(claims["Holm"]) <= ALPHA + tolerance(600)
    assert np.mean(claims["no page rule"]) > np.mean(claims["Holm"])


def test_the_calibration_tool_bh_is_statsmodels() -> None:
    p = np.random.default_rng(21).random((20, 6)) ** 2
    assert np.allclose(cal.bh_last_axis(p), np.vstack([adjust(row, "fdr_bh").p_adjusted for row in p]))

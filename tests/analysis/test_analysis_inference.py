"""analysis.stats.inference by hand and against statsmodels and scipy: blocks, cluster-robust rates and means,
paired comparisons, the seat tests, multiplicity and power (reference/analysis-methods.md)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import statsmodels.api as sm
from scipy import stats as sps

from analysis.data import design
from analysis.data.runs import open_runs
from analysis.questions import balance, win_rates
from analysis.stats import inference, stats
from tests.analysis_testkit import as_rotation, write_results


def test_blocks_are_base_games_under_rotation_and_games_otherwise(tmp_path: Path) -> None:
    """Methods section 1: "A block is identified by (run, base_game)" under rotate/exhaustive; "under
    random and fixed seats every game has its own deal, and the block is the game"."""
    scores = [[2, 1], [1, 2], [2, 1], [2, 1]]
    fixed = write_results(tmp_path / "fixed", scores, ["A", "B"])
    rotated = as_rotation(write_results(tmp_path / "rot", scores, ["A", "B"]), 2)
    assert design.block_key("rotate") == design.block_key("exhaustive") == "base_game"
    assert design.block_key("random") == design.block_key("fixed") == "game_id"
    for folder, blocks in ((fixed, 4), (rotated, 2)):
        games = design.design_games(open_runs(folder)).collect()
        assert games["block"].n_unique() == blocks
    games = design.design_games(open_runs(rotated)).collect().sort("game_id")
    assert games["block"].to_list() == ["rot#0", "rot#0", "rot#1", "rot#1"]


def test_cluster_proportion_matches_statsmodels_cluster_covariance() -> None:
    """Methods section 2: "SE² of a ratio p̂ = Σ y_b / Σ m_b is (B/(B−1)) Σ (y_b − p̂ m_b)² / (Σ m_b)²",
    the cluster-robust covariance of an intercept-only regression clustered on the block."""
    rng = np.random.default_rng(1)
    wins = (rng.normal(size=(30, 4)) + rng.normal(size=(30, 1)) > 0.3).astype(float)
    est = inference.cluster_proportion(wins.sum(axis=1), np.full(30, 4.0))
    groups = np.repeat(np.arange(30), 4)
    fit = sm.OLS(wins.ravel(), np.ones(120)).fit(
        cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False}
    )
    assert float(est.estimate) == pytest.approx(fit.params[0])
    assert float(est.se) == pytest.approx(fit.bse[0] * math.sqrt(30 / 29))
    p = float(est.estimate)
    assert float(est.deff) == pytest.approx(float(est.se) ** 2 / (p * (1 - p) / 120))
    assert float(est.n_eff) == pytest.approx(120 / float(est.deff))
    t = sps.t.ppf(0.975, 29)
    low, high = stats.wilson_interval(p * float(est.n_eff), float(est.n_eff), t)
    assert (float(est.low), float(est.high)) == pytest.approx((float(low), float(high)))
    assert (int(est.games), int(est.clusters)) == (120, 30)


def test_proportion_intervals_are_never_zero_width() -> None:
    """Zero-variance samples get no zero-width intervals: an all-or-none rate takes n_eff = B
    (Wilson's, near the rule of three), and where no block differs DEFF is taken as 1/m."""
    none = inference.cluster_proportion(np.zeros(20), np.full(20, 4.0))
    assert float(none.low) == 0.0 and float(none.n_eff) == 20
    assert float(none.high) == pytest.approx(float(stats.wilson_interval(0, 20, sps.t.ppf(0.975, 19))[1]))
    assert bool(none.fallback)
    even = inference.cluster_proportion(np.full(20, 1.0), np.full(20, 2.0))  # every block 1 of 2
    assert float(even.deff) == pytest.approx(0.5) and bool(even.fallback)
    assert float(even.high) - float(even.low) > 0.1
    single = inference.cluster_proportion(np.array([1.0]), np.array([2.0]))
    assert (float(single.low), float(single.high)) == (0.0, 1.0)


def test_cluster_mean_t_interval_and_undefined_interval_without_variation() -> None:
    """Methods section 2, few blocks: "a t reference with B − 1 degrees of freedom"; no
    "13.0 [13.0, 13.0]": a sample that does not vary has no interval."""
    values = np.array([[10.0, 12.0], [11.0, 15.0], [9.0, 9.0], [14.0, 12.0]])
    est = inference.cluster_mean(values.sum(axis=1), np.full(4, 2.0), (values**2).sum(axis=1))
    means = values.mean(axis=1)
    half = sps.t.ppf(0.975, 3) * means.std(ddof=1) / 2
    assert float(est.estimate) == pytest.approx(means.mean())
    assert (float(est.low), float(est.high)) == pytest.approx((means.mean() - half, means.mean() + half))
    flat = inference.cluster_mean(np.full(5, 26.0), np.full(5, 2.0), np.full(5, 338.0))  # every game 13
    assert float(flat.estimate) == 13.0
    assert math.isnan(float(flat.low)) and math.isnan(float(flat.high)) and bool(flat.fallback)


def test_paired_difference_is_a_t_test_on_block_differences() -> None:
    """Methods section 2: "take the per-block difference d_b between the variant's and the base's block
    means, and use a t interval on the d_b"."""
    a = np.array([10.0, 14.0, 9.0, 12.0, 11.0])
    b = a + np.array([1.0, 0.5, 1.5, 0.0, 1.0])
    diff = inference.paired_difference(a, b)
    ref = sps.ttest_rel(b, a)
    assert float(diff.estimate) == pytest.approx(0.8)
    assert float(diff.p_value) == pytest.approx(ref.pvalue)
    half = sps.t.ppf(0.975, 4) * np.std(b - a, ddof=1) / math.sqrt(5)
    assert (float(diff.low), float(diff.high)) == pytest.approx((0.8 - half, 0.8 + half))
    same = inference.paired_difference(a, a)
    assert float(same.p_value) == 1.0 and math.isnan(float(same.low))


def _blocks_of_three(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """25 blocks of 3 games, 3 seats: each seat's wins per block."""
    winners = np.random.default_rng(seed).integers(0, 3, size=(25, 3))
    return np.stack([(winners == s).sum(axis=1) for s in range(3)], axis=-1).astype(float), np.full(25, 3.0)


def test_rao_scott_second_order_by_hand() -> None:
    """Methods section 3: "a Rao–Scott corrected chi-square, X² divided by the mean generalized design
    effect (first order), or with a Satterthwaite-adjusted df (second order)"."""
    y, m = _blocks_of_three(2)
    result = inference.shares_test(y, m)
    shares = (y / 3)[:, :2]
    v = np.cov(shares, rowvar=False) / 25  # the ratio estimator's covariance with equal blocks
    p0 = np.diag([1 / 3, 1 / 3]) - 1 / 9
    lam = np.linalg.eigvals(np.linalg.solve(p0, v) * 75).real
    a2 = lam.var() / lam.mean() ** 2
    x2 = sps.chisquare(y.sum(axis=0)).statistic
    assert float(result.deff) == pytest.approx(lam.mean())
    assert float(result.statistic) == pytest.approx(x2 / (lam.mean() * (1 + a2)))
    assert float(result.p_value) == pytest.approx(sps.chi2.sf(x2 / (lam.mean() * (1 + a2)), 2 / (1 + a2)))
    assert result.test.startswith("Rao-Scott") and (int(result.games), int(result.clusters)) == (75, 25)
    first = np.random.default_rng(3).integers(0, 4, size=25).astype(float)  # blocks of 3, two seats
    two = inference.shares_test(np.stack([first, 3 - first], axis=-1), m)  # the square of a one-sample t
    d = first / 3 - 0.5
    assert float(two.p_value) == pytest.approx(sps.ttest_1samp(d, 0.0).pvalue)


def test_hotelling_matches_the_textbook_formula_on_equal_blocks() -> None:
    """Methods section 3: "Hotelling's T² on the blocks' seat win-share vectors (n − 1 dimensions, F
    reference)", kept as the calibration suite's contrast."""
    y, m = _blocks_of_three(2)
    result = inference.shares_test(y, m, method="hotelling")
    x = (y / 3)[:, :2] - 1 / 3
    t2 = 25 * x.mean(axis=0) @ np.linalg.inv(np.cov(x, rowvar=False)) @ x.mean(axis=0)
    f = t2 * (25 - 2) / ((25 - 1) * 2)
    assert float(result.p_value) == pytest.approx(sps.f.sf(f, 2, 23))
    assert result.test.startswith("Hotelling")


def test_single_game_blocks_use_the_chi_square() -> None:
    """Methods section 3: "Independent games: the chi-square (or G) goodness-of-fit test on the seats'
    win shares is valid"."""
    y = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 0.0]])
    result = inference.shares_test(y, np.ones(4))
    assert result.test == "chi-square"
    assert float(result.statistic) == pytest.approx(stats.equal_chances_test([2.5, 1.5]).chi2)


def test_one_category_per_game_is_the_multinomial_test_not_the_2xk_table() -> None:
    """Methods section 4: "a goodness-of-fit chi-square ... of the winners' categories against 1/k, with
    k − 1 df", "Not this: a 2×k table of wins and losses ... inflates the statistic by k/(k − 1)"."""
    wins = np.array([70.0, 50.0, 45.0, 35.0])  # 200 games, every category in every game
    right = inference.one_per_game_test(wins)
    assert float(right.p_value) == pytest.approx(sps.chisquare(wins).pvalue)
    wrong, _, _ = stats.rates_independence_test(wins, np.full(4, 200.0))
    assert wrong == pytest.approx(float(right.statistic) * 4 / 3)


def test_multiplicity_holm_and_benjamini_hochberg() -> None:
    """Methods section 5: "Holm's step-down method controls the family-wise error", "Benjamini-Hochberg
    controls the false discovery rate"; "say how many there are and which correction was used"."""
    holm = inference.adjust([0.01, 0.04, 0.03, math.nan, 0.5])
    assert holm.family == 4 and holm.method == "Holm"
    assert holm.p_adjusted[:3] == pytest.approx([0.04, 0.09, 0.09]) and math.isnan(holm.p_adjusted[3])
    bh = inference.adjust([0.01, 0.04, 0.03, 0.5], "fdr_bh")
    assert bh.method == "Benjamini-Hochberg"
    assert bh.p_adjusted == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])
    with pytest.raises(ValueError, match="unknown correction"):
        inference.adjust([0.1], "bonferonni")


@pytest.mark.slow
def test_holm_written_out_equals_statsmodels() -> None:
    """``multiplicity.holm`` gives statsmodels' Holm numbers, ties and p values near 1 included."""
    from statsmodels.stats.multitest import multipletests

    from analysis.stats.multiplicity import holm

    rng = np.random.default_rng(7)
    for size in (1, 2, 5, 26, 54):
        for _ in range(20):
            p = rng.uniform(0, 1, size) ** rng.uniform(0.2, 3)
            p[rng.integers(0, size, size // 3)] = p[0]  # ties
            assert holm(p) == pytest.approx(multipletests(p, method="holm")[1], abs=1e-12)


def test_detectable_gap_inverts_the_noncentral_chi_square() -> None:
    """Methods section 6: "P(χ²_{k−1}(λ = N·w²) > χ²_{k−1, 1−α})", "one seat up by δ, the rest down
    evenly. With blocks, replace N by N / DEFF"."""
    gap = inference.detectable_gap(180, 3)
    delta = gap * 2 / 3  # one seat at 1/3 + delta, the other two at 1/3 - delta/2
    p = np.array([1 / 3 + delta, 1 / 3 - delta / 2, 1 / 3 - delta / 2])
    w2 = float(((p - 1 / 3) ** 2 / (1 / 3)).sum())
    power = sps.ncx2.sf(sps.chi2.ppf(0.95, 2), 2, 180 * w2)
    assert power == pytest.approx(0.8, abs=1e-6)
    assert inference.detectable_gap(360, 3, deff=2.0) == pytest.approx(gap)
    assert inference.games_needed(gap, 3) == 180
    assert inference.games_needed(gap / 2, 3, deff=1.5) == pytest.approx(180 * 4 * 1.5, abs=1)


def test_balance_tables_state_games_blocks_and_excluded(tmp_path: Path) -> None:
    """Each result states its number of games and of independent blocks; truncated and errored games are
    excluded the same way everywhere, with their count shown beside every rate."""
    scores = [[2, 1], [1, 2], [2, 1], [1, 2], [2, 1], [2, 1], [1, 2], [2, 1]]
    folder = as_rotation(write_results(tmp_path / "r", scores, ["A", "B"], truncated=[7]), 2)
    runs = open_runs(folder)
    rates = balance.seat_balance(runs)
    assert rates["games"].to_list() == [7, 7] and rates["blocks"].to_list() == [4, 4]
    assert rates["excluded"].to_list() == [1, 1]
    row = balance.balance_tests(runs).row(0, named=True)
    assert (row["decided"], row["blocks"], row["excluded"]) == (7, 4, 1)
    assert row["test"].startswith("Rao-Scott") and row["family"] == 1 and row["correction"] == "Holm"
    y = np.array([[1, 1], [1, 1], [2, 0], [0, 1]], dtype=float)  # seat shares per block of decided games
    assert row["p_value"] == pytest.approx(float(inference.shares_test(y, y.sum(axis=1)).p_value))
    assert row["detectable_gap"] > 0


def test_records_rates_leave_out_truncated_and_errored_games(tmp_path: Path) -> None:
    """``win_rates.seat_win_rates`` and ``strategy_win_rates`` leave truncated and errored games out, as
    ``balance`` does (counting them as losses, 10 games with 2 truncated showed 60% in one place and 75%
    in the other)."""
    scores = [[2, 1]] * 6 + [[1, 2]] * 2 + [[2, 1]] * 2  # seat 0 wins 8 of 10, two of those truncated
    errored = [False] * 9 + [True]
    folder = write_results(tmp_path / "r", scores, ["A", "B"], truncated=[8])
    path = folder / "games" / "part-00000.parquet"
    table = pq.read_table(path)
    pq.write_table(
        table.set_column(table.schema.get_field_index("errored"), "errored", pa.array(errored)), path
    )
    by_seat = win_rates.seat_win_rates(folder)
    assert by_seat["win_rate"].to_list() == [pytest.approx(0.75), pytest.approx(0.25)]
    assert by_seat["games"].to_list() == [8, 8] and by_seat["excluded"].to_list() == [2, 2]
    assert balance.seat_balance(open_runs(folder))["win_rate"].to_list() == by_seat["win_rate"].to_list()
    by_strategy = win_rates.strategy_win_rates(folder)
    assert by_strategy.filter(pl.col("strategy") == "A")["win_rate"].to_list() == [pytest.approx(0.75)]

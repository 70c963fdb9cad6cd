"""The same records in another order give the same figures, to the last bit (the same records give a
byte-identical report and charts, apart from one timestamp line).

polars' group_by and join give their rows in no fixed order, and float addition is not associative:
an estimate summed over blocks in the order the frame came in changed in its last digits from one
report to the next (a Knarr game-length p of 1.3171070433930972e-10, then 1.317107043393093e-10).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.games.greenland.common import bars
from analysis.present import charts
from analysis.stats import stats
from analysis.stats.estimates import cluster_difference, cluster_mean, cluster_proportion, paired_difference

RNG = np.random.default_rng(15)
ORDERS = [RNG.permutation(40) for _ in range(12)]


def _blocks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = RNG.integers(2, 6, 40).astype(float)
    y = m * RNG.uniform(10, 20, 40) + RNG.uniform(0, 1, 40) / 3
    q = y**2 / m + RNG.uniform(0, 5, 40)
    return y, m, q


def test_cluster_estimates_ignore_the_blocks_order() -> None:
    """'every resampling draws from a generator seeded from the data's identity' and the same records
    give the same report: ``cluster_mean``, ``cluster_proportion`` and their difference, bit for bit,
    whatever the blocks' order."""
    y, m, q = _blocks()
    wins = RNG.uniform(0, 1, 40) * m
    first = cluster_difference(cluster_mean(y, m, q), cluster_mean(y[::-1] * 1.01, m[::-1], q[::-1] * 1.02))
    rate = cluster_proportion(wins, m)
    for order in ORDERS:
        other = cluster_difference(
            cluster_mean(y[order], m[order], q[order]),
            cluster_mean(y[::-1][order] * 1.01, m[::-1][order], q[::-1][order] * 1.02),
        )
        assert (float(other.p_value), float(other.se), float(other.low)) == (
            float(first.p_value),
            float(first.se),
            float(first.low),
        )
        shuffled = cluster_proportion(wins[order], m[order])
        assert (float(shuffled.se), float(shuffled.low)) == (float(rate.se), float(rate.low))


def test_cluster_mean_broadcasts_over_replicates_in_order() -> None:
    """The calibration suite's replicates on the leading axis: each is summed in its own blocks' order."""
    y, m, q = _blocks()
    stacked = cluster_mean(
        np.stack([y, y[ORDERS[0]]]), np.stack([m, m[ORDERS[0]]]), np.stack([q, q[ORDERS[0]]])
    )
    assert stacked.se[0] == stacked.se[1] == float(cluster_mean(y, m, q).se)


def test_paired_and_sample_comparisons_ignore_the_order() -> None:
    """``paired_difference`` (the pairs moved together), ``two_means`` and ``mean_interval``."""
    a, b = RNG.uniform(10, 20, 40), RNG.uniform(10, 22, 40)
    paired, welch, interval = paired_difference(a, b), stats.two_means(a, b), stats.mean_interval(b)
    for order in ORDERS:
        assert float(paired_difference(a[order], b[order]).p_value) == float(paired.p_value)
        assert stats.two_means(a[order], b[order[::-1]]) == welch
        assert stats.mean_interval(b[order]) == interval


def test_in_order_moves_every_array_alike() -> None:
    y, m = stats.in_order(np.array([2.0, 1.0, 2.0]), np.array([5.0, 7.0, 3.0]))
    assert y.tolist() == [1.0, 2.0, 2.0] and m.tolist() == [7.0, 3.0, 5.0]


def _shared(reverse: bool) -> pl.DataFrame:
    """Two runs of one variant and mix, and a third of another variant, in either order."""
    rows = [
        ("run-a", 3, "defaults", "greedy", "Inuit", 40.0),
        ("run-b", 3, "defaults", "greedy", "Inuit", 60.0),
        ("run-c", 3, "conversion=any", "greedy", "Inuit", 50.0),
    ]
    frame = pl.DataFrame(rows, schema=["run", "players", "variant", "mix", "tribe", "mean"], orient="row")
    frame = frame.with_columns(pl.col("mean").alias("low"), pl.col("mean").alias("high"))
    return frame.reverse() if reverse else frame


def test_two_runs_of_one_variant_and_mix_draw_two_bars_in_one_order() -> None:
    """Two runs sharing variant and mix (Greenland's survival and spread charts) were one bar, whichever
    row came last: now each run's bar is named by its run in front, in one order whatever the rows'."""
    one, two = bars(_shared(False), "tribe", "variant"), bars(_shared(True), "tribe", "variant")
    assert one.equals(two)
    assert one["variant"].to_list() == [
        "run-a: defaults, greedy in every seat",
        "run-b: defaults, greedy in every seat",
        "conversion=any, greedy in every seat",
    ]


def test_a_chart_numbers_the_rows_that_share_a_bar() -> None:
    """``grouped_means``' frame from any section: rows that would share a bar are numbered in the order
    of their values, so the chart neither hides one nor depends on the frame's order."""
    frame = _shared(False).drop("run", "mix")
    one = charts.one_bar_each(frame, "tribe", "variant")
    assert one.equals(charts.one_bar_each(frame.reverse(), "tribe", "variant"))
    assert sorted(one["variant"].to_list()) == ["(2) defaults", "conversion=any", "defaults"]
    assert charts.one_bar_each(frame.head(1), "tribe", "variant").equals(frame.head(1))

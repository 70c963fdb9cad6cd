"""Calibration of the variant comparison's seat metrics on synthetic records whose
truth is known.

The earlier Balance variant comparison (``balance._gap_row``) bootstrapped a max-min statistic. It was
biased: the true difference is −0.130, the mean estimate was −0.071 at 180 games. Coverage was 88% and
power 17%. Under the null its interval covered 0 in 99-100% of cases. Resampling single games breaks the
rotation balance. The bar: the false-positive rate at α = 0.05 must lie within 3.5-6.5%, and 95% coverage
within 93.5-96.5%.

The design is two variants of one ``--seats rotate`` study run on the same seeds: ``blocks`` deals, each
replayed under the k cyclic shifts of k strategies of unequal skill, once under each variant.  A deal
favours some seats (a normal seat advantage per block, the same under both variants: the pairing); the
variant changes the seats' own advantage (``seat_a``, ``seat_b``, logits).  The true win rates and gaps
are computed from a large sample of deals.  Every replicate is drawn at once and fed to the functions
``balance.compare_variants`` calls (``inference.gap_difference`` and ``inference.homogeneity_test``);
``test_compare_variants_goes_through_the_same_functions`` checks that on records.
``tools/calibrate.py --mode variants`` runs the same checks with more replicates and on real runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from analysis.data.runs import open_runs
from analysis.questions import balance, fairness_change
from analysis.stats import inference, stats
from tests.analysis.test_calibration import ALPHA, COVERAGE_BAND, FPR_BAND
from tests.analysis_testkit import as_rotation, write_results

pytestmark = pytest.mark.slow


REPS = 1000
#: bootstrap resamples and relabellings per replicate (the analysis's own numbers)
RESAMPLES = balance.BOOTSTRAP
PERMUTATIONS = balance.PERMUTATIONS


@dataclass(frozen=True)
class Pair:
    """Two variants run on the same ``blocks`` deals of ``players`` games (one per seat shift)."""

    seat_a: tuple[float, ...]
    seat_b: tuple[float, ...]
    blocks: int = 60
    skill: tuple[float, ...] = (0.5, 0.0, -0.5)  # strategy logits, rotated through the seats
    deal_sd: float = 1.0  # sd of each deal's seat advantage (logit scale), shared by the two variants

    @property
    def players(self) -> int:
        return len(self.skill)


#: the biased case above: 3 players, 180 games a variant; the variant takes most of seat 0's edge away
SHRINKS = Pair(seat_a=(0.9, 0.0, -0.3), seat_b=(0.2, 0.0, 0.0))
#: a smaller change, and a variant that changes nothing in a game with a seat edge (a null)
SMALL = Pair(seat_a=(0.5, 0.0, -0.2), seat_b=(0.5, 0.3, 0.0))
NULL = Pair(seat_a=(0.6, 0.0, -0.3), seat_b=(0.6, 0.0, -0.3))
FAIR = Pair(seat_a=(0.0, 0.0, 0.0), seat_b=(0.0, 0.0, 0.0))
#: few blocks with a strong deal effect, four players
FEW = Pair(
    seat_a=(0.8, 0.0, 0.0, -0.4),
    seat_b=(0.8, 0.0, 0.0, -0.4),
    blocks=15,
    skill=(0.5, 0, 0, -0.5),
    deal_sd=2.0,
)


def _chances(pair: Pair, seat: tuple[float, ...], deal: np.ndarray) -> np.ndarray:
    k = pair.players
    strategy = (np.arange(k)[None, :] + np.arange(k)[:, None]) % k  # [game in block, seat]
    logit = np.asarray(pair.skill)[strategy] + np.asarray(seat) + deal
    chance = np.exp(logit)
    return chance / chance.sum(axis=-1, keepdims=True)


def draw_pair(
    rng: np.random.Generator, reps: int, pair: Pair, same_deals: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ya, yb, m): per replicate and block each seat's wins under the two variants (``reps x blocks x
    players``; the same deals, or each variant its own with ``same_deals=False``) and the decided games
    (``reps x blocks``)."""
    k = pair.players
    deal = rng.normal(0, pair.deal_sd, (reps, pair.blocks, 1, k))
    out = []
    for seat in (pair.seat_a, pair.seat_b):
        if out and not same_deals:
            deal = rng.normal(0, pair.deal_sd, deal.shape)
        chance = _chances(pair, seat, deal)
        winner = (rng.random((*chance.shape[:-1], 1)) < chance.cumsum(axis=-1)).argmax(axis=-1)
        out.append(np.eye(k)[winner].sum(axis=2))
    return out[0], out[1], np.full((reps, pair.blocks), float(k))


def true_gaps(pair: Pair, deals: int = 200_000) -> tuple[float, float]:
    """The two variants' true largest gaps between seat win rates (over ``deals`` deals, fixed seed)."""
    deal = np.random.default_rng(7).normal(0, pair.deal_sd, (deals, 1, pair.players))
    gaps = []
    for seat in (pair.seat_a, pair.seat_b):
        rates = _chances(pair, seat, deal).mean(axis=(0, 1))
        gaps.append(float(rates.max() - rates.min()))
    return gaps[0], gaps[1]


def gap_rates(rng: np.random.Generator, reps: int, pair: Pair, paired: bool = True) -> dict[str, float]:
    """The gap difference's mean estimate (plain and bias-corrected) against the truth, its interval's
    coverage of the truth, and the homogeneity test's rejection rate (a false-positive rate where the two
    variants are the same).  ``paired=False``: the two run on different seeds (deals), compared unpaired."""
    ya, yb, m = draw_pair(rng, reps, pair, same_deals=paired)
    seed = int(rng.integers(2**62))
    gap = inference.gap_difference(ya, m, yb, m, paired=paired, seed=seed, resamples=RESAMPLES)
    test = inference.homogeneity_test(ya, m, yb, m, paired=paired, seed=seed + 1, permutations=PERMUTATIONS)
    base, value = true_gaps(pair)
    truth = value - base
    return {
        "truth": truth,
        "plain": float(np.mean(gap.value - gap.base)),
        "corrected": float(np.mean(gap.estimate)),
        "coverage": float(np.mean((gap.low <= truth) & (truth <= gap.high))),
        "rejects": float(np.mean(test.p_value < ALPHA)),
    }


def _within(value: float, band: tuple[float, float]) -> bool:
    return band[0] <= value <= band[1]


def test_gap_difference_is_bias_corrected_and_covers_the_truth() -> None:
    """The earlier comparison was biased (true difference −0.130, mean estimate −0.071 at 180 games;
    coverage 88%); here the plain difference of gaps falls short of the truth by about 0.04, the
    bias-corrected one by under half of that, and the interval covers the truth 93.5-96.5% of the time."""
    r = gap_rates(np.random.default_rng(201), REPS, SHRINKS)
    assert abs(r["corrected"] - r["truth"]) < 0.6 * abs(r["plain"] - r["truth"]), r
    assert _within(r["coverage"], COVERAGE_BAND), r
    assert r["rejects"] > 0.5, r  # the homogeneity test sees the change
    small = gap_rates(np.random.default_rng(202), REPS, SMALL)
    assert _within(small["coverage"], COVERAGE_BAND), small


def test_homogeneity_test_holds_its_level_and_the_interval_covers_under_a_null() -> None:
    """The homogeneity test, the main test of a variant comparison, holds its level, and the interval
    covers 0 as it should, not in 99-100% of cases, under a null: a variant that changes nothing in a
    game with a seat edge, paired by block, and run on different seeds (compared unpaired).  Unpaired,
    the interval covers about 92%: the bias correction's own noise, which the jackknife of the plain gaps
    leaves out, no longer cancels between the two sides (a known shortfall; variants of one study are
    paired)."""
    r = gap_rates(np.random.default_rng(203), REPS, NULL)
    assert _within(r["rejects"], FPR_BAND), r
    assert _within(r["coverage"], COVERAGE_BAND), r
    unpaired = gap_rates(np.random.default_rng(204), REPS, NULL, paired=False)
    assert _within(unpaired["rejects"], FPR_BAND), unpaired
    assert unpaired["coverage"] >= 0.9, unpaired


def test_homogeneity_test_holds_its_level_with_few_blocks_and_a_strong_deal_effect() -> None:
    """Methods section 2: "With fewer than about 30-40 blocks, cluster-robust covariances are
    anti-conservative. Use ... a permutation of whole blocks": 15 blocks, deal sd 2, and a fair game."""
    for i, pair in enumerate((FEW, FAIR)):
        r = gap_rates(np.random.default_rng(205 + i), REPS, pair)
        assert _within(r["rejects"], FPR_BAND), (pair, r)


def _paired_records(folder: Path, y: np.ndarray, rules: dict) -> Path:
    """One variant of one replicate as a rotate run's records: block b's games won by the seats its wins
    say, every game seed that of its block (so the two variants pair by block)."""
    blocks, k = y.shape
    winners = [s for b in range(blocks) for s in range(k) for _ in range(int(y[b, s]))]
    scores = [[2 if s == w else 1 for s in range(k)] for w in winners]
    seeds = [1000 + g // k for g in range(len(winners))]
    folder = write_results(folder, scores, [f"S{i}" for i in range(k)], rules=rules)
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = folder / "games" / "part-00000.parquet"
    table = pq.read_table(path)
    column = table.schema.get_field_index("game_seed")
    pq.write_table(table.set_column(column, "game_seed", pa.array(seeds, pa.uint64())), path)
    return as_rotation(folder, k)


def test_compare_variants_goes_through_the_same_functions(tmp_path: Path) -> None:
    """The arrays above are what ``balance.compare_variants`` computes from records: one replicate written
    as two variants' runs on the same seeds gives the same bias-corrected gap difference, interval and
    homogeneity p, paired by block."""
    ya, yb, m = draw_pair(np.random.default_rng(207), 1, SHRINKS)
    _paired_records(tmp_path / "s" / "base", ya[0], {"castle_needs_overlap": True})
    _paired_records(tmp_path / "s" / "other", yb[0], {"castle_needs_overlap": False})
    comp = balance.compare_variants(open_runs(tmp_path / "s"))
    row = comp.filter(comp["metric"] == "balance_gap").row(0, named=True)
    seeds = balance.seat_seeds(ya[0], yb[0])
    gap = inference.gap_difference(ya, m, yb, m, paired=True, seed=seeds[0], resamples=RESAMPLES)
    test = inference.homogeneity_test(ya, m, yb, m, paired=True, seed=seeds[1], permutations=PERMUTATIONS)
    assert row["diff"] == pytest.approx(float(gap.estimate[0]))
    assert (row["diff_low"], row["diff_high"]) == pytest.approx((float(gap.low[0]), float(gap.high[0])))
    assert row["p_value"] == pytest.approx(float(gap.p_value[0]))  # the interval's own statistic
    assert row["homogeneity_p"] == pytest.approx(float(test.p_value[0]))
    assert row["blocks"] == SHRINKS.blocks and row["games"] == 2 * SHRINKS.blocks * SHRINKS.players
    assert row["base_estimate"] == pytest.approx(float(gap.base[0]))
    assert stats.balance_metric(ya[0].sum(axis=0) / m[0].sum()) == pytest.approx(1 - row["base_estimate"])


def test_fairness_changes_decide_the_change_with_change_decision(tmp_path: Path) -> None:
    """A rule-variant comparison decides whether seat fairness changes by more than the margin with
    ``analysis.stats.decide.change_decision`` on the two variants' block matrices (the records give the same
    decision, interval and p as the arrays), and decides each side with ``seat_decision``."""
    from analysis.stats.decide import change_decision, seat_decision

    ya, yb, m = draw_pair(np.random.default_rng(207), 1, SHRINKS)
    _paired_records(tmp_path / "s" / "base", ya[0], {"castle_needs_overlap": True})
    _paired_records(tmp_path / "s" / "other", yb[0], {"castle_needs_overlap": False})
    changes = fairness_change.fairness_changes(open_runs(tmp_path / "s"))
    assert changes.height == 1
    row = changes.row(0, named=True)
    labels = [str(i) for i in range(ya.shape[-1])]
    expected = change_decision(ya[0], yb[0], 0.05, labels=labels, games_a=m[0], games_b=m[0]).to_finding()
    assert row["decision"] == expected["decision"] and row["margin"] == 0.05
    assert (row["diff"], row["diff_low"], row["diff_high"], row["p_value"]) == pytest.approx(
        (expected["estimate"], expected["low"], expected["high"], expected["p_value"])
    )
    assert row["games_needed"] == expected["games_needed"]
    base = seat_decision(ya[0], 0.05, labels=labels, games=m[0])
    assert row["base_decision"] == base.decision
    assert row["base_half_width"] == pytest.approx(base.half_width)

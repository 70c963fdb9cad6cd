"""Calibration of the analysis's tests and intervals on synthetic records whose truth is known.

The bar: the false-positive rate at α = 0.05 must lie within 3.5-6.5%, and 95% coverage within
93.5-96.5%, with a deal effect as strong as the Greenland one (DEFF about 2.9).

The synthetic design is a ``--seats rotate`` run: ``blocks`` deals, each replayed under the k cyclic
shifts of k strategies of unequal skill (one game per shift), with

* a deal effect on the seats (each deal favours some seats: a normal seat advantage per block), so
  the seats' block shares are correlated within the block, while every seat still has chance 1/k;
* a deal effect on the game (length, and a yes/no outcome such as a vote) with a within-block
  correlation of 0.633: DEFF = 1 + (m − 1)ρ ≈ 2.9 for blocks of m = 4 (Greenland's game length).

Every replicate is drawn with numpy at once and fed to the functions the analysis itself calls
(``analysis.stats.inference``, which ``balance`` and ``records`` use);
``test_records_go_through_the_same_functions`` checks on one replicate written as real records that
``balance`` gives the same numbers.  The old functions' figures are computed beside the new ones (the
``old`` entries) as a record of what was wrong, without asserting that they stay wrong.
``tools/calibrate.py`` runs the same checks with more replicates and on real runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from analysis.data.runs import open_runs
from analysis.questions import balance
from analysis.stats import inference, stats
from tests.analysis_testkit import as_rotation, write_results

pytestmark = pytest.mark.slow


ALPHA = 0.05
#: the bands: false-positive rate at α = 0.05, and coverage of a 95% interval
FPR_BAND = (0.035, 0.065)
COVERAGE_BAND = (0.935, 0.965)
REPS = 4000
#: the old functions are looped over (scalar), so they see fewer replicates
CONTRAST_REPS = 1000


@dataclass(frozen=True)
class Design:
    """A synthetic rotation run: ``blocks`` deals of ``players`` games each (one per seat shift)."""

    blocks: int = 60
    players: int = 4
    skill: tuple[float, ...] = (1.0, 0.0, 0.0, -1.0)  # strategy logits: rotation makes seats exchangeable
    deal_sd: float = 1.0  # sd of each deal's seat advantage (logit scale)
    icc: float = 0.633  # within-block correlation of game-level outcomes: DEFF = 1 + 3 * 0.633 = 2.9
    rate: float = 0.3  # chance of the game-level yes/no outcome
    mean: float = 40.0  # mean game length


GREENLAND = Design()


def seat_shares(rng: np.random.Generator, reps: int, d: Design) -> tuple[np.ndarray, np.ndarray]:
    """(y, m): per replicate and block, each seat's wins (``reps x blocks x players``) and the games."""
    k = d.players
    strategy = (np.arange(k)[None, :] + np.arange(k)[:, None]) % k  # [game in block, seat]
    logit = np.asarray(d.skill)[strategy][None, None] + rng.normal(0, d.deal_sd, (reps, d.blocks, 1, k))
    chance = np.exp(logit)
    chance /= chance.sum(axis=-1, keepdims=True)
    draw = rng.random((reps, d.blocks, k, 1))
    winner = (draw < chance.cumsum(axis=-1)).argmax(axis=-1)  # reps x blocks x games
    y = np.eye(k)[winner].sum(axis=2)
    return y, np.full((reps, d.blocks), float(k))


def game_values(rng: np.random.Generator, reps: int, d: Design) -> np.ndarray:
    """Game lengths, ``reps x blocks x games``: the deal's share of the variance is ``icc``."""
    deal = rng.normal(0, np.sqrt(d.icc), (reps, d.blocks, 1))
    return d.mean + 10 * (deal + rng.normal(0, np.sqrt(1 - d.icc), (reps, d.blocks, d.players)))


def game_flags(rng: np.random.Generator, reps: int, d: Design) -> np.ndarray:
    """A yes/no game outcome per block, ``reps x blocks`` counts of yes out of ``players`` games: each
    deal's chance is Beta-distributed with mean ``rate`` and intra-block correlation ``icc``."""
    total = 1 / d.icc - 1
    chance = rng.beta(d.rate * total, (1 - d.rate) * total, (reps, d.blocks))
    return rng.binomial(d.players, chance).astype(float)


def _rate(rejected: np.ndarray) -> float:
    return float(np.mean(rejected))


def _covers(low: np.ndarray, high: np.ndarray, truth: float) -> float:
    return float(np.mean((low <= truth) & (truth <= high)))


def seat_test_rates(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """False-positive rate of the seat test (``balance_tests``' ``p_value``), of Hotelling's T² and of the
    old chi-square (``chi2_p``, every game independent), under equal seat chances."""
    y, m = seat_shares(rng, reps, d)
    new = inference.shares_test(y, m)
    hotelling = inference.shares_test(y, m, method="hotelling")
    old = [stats.equal_chances_test(w).chi2_p for w in y[:CONTRAST_REPS].sum(axis=1)]
    return {
        "new": _rate(new.p_value < ALPHA),
        "hotelling": _rate(hotelling.p_value < ALPHA),
        "old": _rate(np.asarray(old) < ALPHA),
    }


#: seat designs: Greenland-like, few blocks with a strong deal effect, three and two players
SEAT_DESIGNS: dict[str, Design] = {
    "4p, 60 blocks": GREENLAND,
    "4p, 15 blocks, strong deal": Design(blocks=15, skill=(0.0, 0.0, 0.0, 0.0), deal_sd=2.0),
    "3p, 20 blocks": Design(blocks=20, players=3, skill=(0.5, 0.0, -0.5)),
    "2p, 20 blocks": Design(blocks=20, players=2, skill=(0.5, -0.5)),
    "2p forced (Knarr), 200 blocks": Design(blocks=200, players=2, skill=(1.75, -1.75), deal_sd=0.0),
}


def seat_rate_coverage(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """Coverage of 1/k by seat 0's interval (``seat_balance``), new and old (plain Wilson), and its DEFF."""
    y, m = seat_shares(rng, reps, d)
    est = inference.cluster_proportion(y[..., 0], m)
    low, high = stats.wilson_interval(y[..., 0].sum(axis=-1), m.sum(axis=-1))
    truth = 1 / d.players
    return {
        "new": _covers(est.low, est.high, truth),
        "old": _covers(low, high, truth),
        "deff": float(np.nanmean(est.deff)),
    }


def proportion_coverage(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """Coverage of a game-level rate by ``cluster_proportion``'s interval and by the plain Wilson one."""
    yes = game_flags(rng, reps, d)
    m = np.full(yes.shape, float(d.players))
    est = inference.cluster_proportion(yes, m)
    low, high = stats.wilson_interval(yes.sum(axis=-1), m.sum(axis=-1))
    return {
        "new": _covers(est.low, est.high, d.rate),
        "old": _covers(low, high, d.rate),
        "deff": float(np.nanmean(est.deff)),
    }


def mean_coverage(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """Coverage of the mean game length by ``cluster_mean``'s interval and by ``stats.mean_interval``."""
    values = game_values(rng, reps, d)
    est = inference.cluster_mean(
        values.sum(-1), np.full(values.shape[:2], float(d.players)), (values**2).sum(-1)
    )
    old = np.array([stats.mean_interval(v.ravel())[1:] for v in values[:CONTRAST_REPS]])
    return {
        "new": _covers(est.low, est.high, d.mean),
        "old": _covers(old[:, 0], old[:, 1], d.mean),
        "deff": float(np.nanmean(est.deff)),
    }


def paired_rates(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """Two variants with no effect, run on the same seeds (same deals): the paired comparison's
    false-positive rate and its interval's coverage of 0, and the old Welch test's rate."""
    deal = rng.normal(0, np.sqrt(d.icc), (reps, d.blocks, 1))
    noise = np.sqrt(1 - d.icc)
    a = d.mean + 10 * (deal + rng.normal(0, noise, (reps, d.blocks, d.players)))
    b = d.mean + 10 * (deal + rng.normal(0, noise, (reps, d.blocks, d.players)))
    diff = inference.paired_difference(a.mean(-1), b.mean(-1))
    old = [stats.two_means(x.ravel(), z.ravel()).p_value for x, z in zip(a[:CONTRAST_REPS], b, strict=False)]
    return {
        "new": _rate(diff.p_value < ALPHA),
        "coverage": _covers(diff.low, diff.high, 0.0),
        "old": _rate(np.asarray(old) < ALPHA),
    }


def split_rates(rng: np.random.Generator, reps: int, d: Design) -> dict[str, float]:
    """One run split into two disjoint halves of its blocks (null-certain): the cluster-robust
    difference's false-positive rate, and the old Welch test's (``compare_variants`` before)."""
    values = game_values(rng, reps, d)
    half = d.blocks // 2
    sides = [values[:, :half], values[:, half:]]
    a, b = (
        inference.cluster_mean(v.sum(-1), np.full(v.shape[:2], float(d.players)), (v**2).sum(-1))
        for v in sides
    )
    diff = inference.cluster_difference(a, b)
    old = [
        stats.two_means(x.ravel(), z.ravel()).p_value
        for x, z in zip(sides[0][:CONTRAST_REPS], sides[1], strict=False)
    ]
    return {"new": _rate(diff.p_value < ALPHA), "old": _rate(np.asarray(old) < ALPHA)}


def one_per_game_rates(rng: np.random.Generator, reps: int, games: int = 240, k: int = 4) -> dict[str, float]:
    """Every one of k categories in every game, the winner's category uniform: the multinomial test's
    false-positive rate, and the old 2×k table's (``stats.rates_independence_test``)."""
    winner = rng.integers(0, k, (reps, games))
    wins = np.stack([(winner == c).sum(axis=1) for c in range(k)], axis=-1).astype(float)
    new = inference.one_per_game_test(wins)
    old = [stats.rates_independence_test(w, np.full(k, float(games)))[1] for w in wins[:CONTRAST_REPS]]
    return {"new": _rate(new.p_value < ALPHA), "old": _rate(np.asarray(old) < ALPHA)}


def _within(value: float, band: tuple[float, float]) -> bool:
    return band[0] <= value <= band[1]


@pytest.mark.parametrize("name", list(SEAT_DESIGNS))
def test_seat_test_holds_its_level_under_rotation_with_a_deal_effect(name: str) -> None:
    """Methods section 3, blocks: "a Rao–Scott corrected chi-square ... with a Satterthwaite-adjusted df
    (second order)"; here the old chi-square, which treats the games as independent, rejects about 12%
    (4p, 60 blocks) to 33% (strong deal), and Hotelling's T² 5.6% to 10.5%."""
    rates = seat_test_rates(
        np.random.default_rng(101 + list(SEAT_DESIGNS).index(name)), REPS, SEAT_DESIGNS[name]
    )
    assert _within(rates["new"], FPR_BAND), rates


@pytest.mark.parametrize("name", ["4p, 60 blocks", "2p forced (Knarr), 200 blocks"])
def test_seat_rate_intervals_cover(name: str) -> None:
    """Methods section 2: "a Wilson-style interval ... n_eff = n / DEFF, with DEFF estimated from the block
    totals"; rotation and the seat deal effect pull DEFF both ways (1.3 here, 0.11 where the stronger
    strategy nearly always wins and every seat wins once per block)."""
    rates = seat_rate_coverage(np.random.default_rng(120 + len(name)), REPS, SEAT_DESIGNS[name])
    assert _within(rates["new"], COVERAGE_BAND), rates


def test_game_level_rate_with_a_greenland_strength_deal_effect_covers() -> None:
    """With a deal effect as strong as the Greenland one (DEFF about 2.9) the interval covers; the plain
    Wilson interval covers about 73% here."""
    rates = proportion_coverage(np.random.default_rng(104), REPS, GREENLAND)
    assert 2.6 <= rates["deff"] <= 3.2, rates
    assert _within(rates["new"], COVERAGE_BAND), rates


def test_game_length_mean_with_a_greenland_strength_deal_effect_covers() -> None:
    """Methods section 2: "a t reference with B − 1 degrees of freedom"; the old z interval on games covers
    about 74% here."""
    rates = mean_coverage(np.random.default_rng(105), REPS, GREENLAND)
    assert 2.6 <= rates["deff"] <= 3.2, rates
    assert _within(rates["new"], COVERAGE_BAND), rates
    few = mean_coverage(np.random.default_rng(106), REPS, Design(blocks=8))
    assert _within(few["new"], COVERAGE_BAND), few


def test_paired_variant_comparison_holds_its_level() -> None:
    """Methods section 2: "Variants run on the same seeds and seats share blocks. Compare them paired"."""
    rates = paired_rates(np.random.default_rng(107), REPS, GREENLAND)
    assert _within(rates["new"], FPR_BAND), rates
    assert _within(rates["coverage"], COVERAGE_BAND), rates


def test_disjoint_block_split_comparison_holds_its_level() -> None:
    """The Welch test rejects 26.1% of the time for Greenland (60 vs 60 games) on null-certain
    splits; the cluster-robust difference of two halves of one run holds 5%."""
    rates = split_rates(np.random.default_rng(108), REPS, Design(blocks=30))
    assert _within(rates["new"], FPR_BAND), rates


def test_one_category_per_game_test_holds_its_level() -> None:
    """Methods section 4: "a goodness-of-fit chi-square ... against 1/k, with k − 1 df"; the 2×k table it
    replaces rejects about 12% here."""
    rates = one_per_game_rates(np.random.default_rng(109), REPS)
    assert _within(rates["new"], FPR_BAND), rates
    small = one_per_game_rates(np.random.default_rng(110), REPS, games=60, k=3)
    assert _within(small["new"], FPR_BAND), small


def _rotation_records(folder: Path, y: np.ndarray) -> Path:
    """One replicate as a rotate run's records: block b's games won by the seats its wins say."""
    blocks, k = y.shape
    winners = [s for b in range(blocks) for s in range(k) for _ in range(int(y[b, s]))]
    scores = [[2 if s == w else 1 for s in range(k)] for w in winners]
    return as_rotation(write_results(folder, scores, [f"S{i}" for i in range(k)]), k)


def test_records_go_through_the_same_functions(tmp_path: Path) -> None:
    """The arrays above are what ``balance`` computes from records: one replicate written in the project's
    format gives the same seat test and intervals through ``balance_tests`` and ``seat_balance``."""
    y, m = seat_shares(np.random.default_rng(111), 1, GREENLAND)
    runs = open_runs(_rotation_records(tmp_path / "rot", y[0]))
    row = balance.balance_tests(runs).row(0, named=True)
    test = inference.shares_test(y[0], m[0])
    assert row["p_value"] == pytest.approx(float(test.p_value))
    assert (row["blocks"], row["decided"]) == (GREENLAND.blocks, GREENLAND.blocks * GREENLAND.players)
    rates = balance.seat_balance(runs)
    est = inference.cluster_proportion(y[0].T, m[0])
    assert rates["ci_low"].to_list() == pytest.approx(list(est.low))
    assert rates["deff"].to_list() == pytest.approx(list(est.deff))


def test_the_fair_game_balance_is_the_noise_floor_of_balance() -> None:
    """A perfectly fair game shows Balance 0.867 at 4p/60 games, 0.927 at 3p/180 and 0.949 at 4p/400;
    ``stats.fair_balance`` gives that floor, the same value every time, and it is what
    the Balance of fair games averages (independent draws here, not the function's own stream)."""
    from analysis.stats import stats

    for k, n, seen in ((4, 60, 0.867), (3, 180, 0.927), (4, 400, 0.949)):
        assert abs(stats.fair_balance(k, n) - seen) < 0.005
        assert stats.fair_balance(k, n) == stats.fair_balance(k, n)
    rng = np.random.default_rng(2024)
    wins = rng.multinomial(60, [0.25] * 4, size=4000) / 60
    assert abs((1 - (wins.max(axis=1) - wins.min(axis=1))).mean() - stats.fair_balance(4, 60)) < 0.004
    assert stats.fair_balance(4, 60) < stats.fair_balance(4, 400) < 1.0

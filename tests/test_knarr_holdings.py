"""Knarr holdings against a strategy-adjusted base rate, and the Knarr seat verdict, calibrated.

Issue 15, item 7: "Knarr 'win rate when held' is confounded with strategy. 12 of 77 destinations lie
above 1/players, but only 2 of 77 lie above their holders' own strategy's win rate. The ~118
intervals are not corrected either."  Item 3: "Under a global null, the Knarr section says 'that seat
has an edge' in 21-25% of reports, and 'the seats differ by more than chance there' (min p over
groups) in about 20%."  What to build: "Any verdict drawn from several tests (which seat, which
group, which metric, which card) uses Holm or Benjamini-Hochberg"; "the false-positive rate at
α = 0.05 must lie within 3.5-6.5%".

The synthetic design is a ``--seats rotate`` run of three strategies of unequal skill with a deal
effect on the seats; each card is dealt to a block (available in all its games) or not, and taken in a
game by at most one seat, chosen by the seat's strategy's liking for it: strong strategies hold other
cards than weak ones, while no card changes anyone's chance to win (the global null).
``tools/calibrate_knarr.py`` runs the same checks with more replicates, other designs, the old
verdicts beside the new, and on real runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import inference, stats
from tests import test_calibration as seats_kit

FPR_BAND = seats_kit.FPR_BAND
REPS = 1000


@dataclass(frozen=True)
class HoldDesign:
    """A synthetic Knarr group: ``blocks`` deals of ``players`` games (one per seat shift)."""

    blocks: int = 60
    players: int = 3
    cards: int = 40
    skill: tuple[float, ...] = (0.5, 0.0, -0.5)
    deal_sd: float = 0.5
    dealt: float = 0.5  # chance a card is in a block's deal
    taken: float = 0.5  # chance a dealt card is taken in a game
    min_held: int = 10


KNARR_3P = HoldDesign()


def holding_records(rng: np.random.Generator, d: HoldDesign) -> tuple[np.ndarray, ...]:
    """(held rows x cards, win share, strategy code, block code) of one replicate, cards held by at
    least ``min_held`` seats only."""
    k = d.players
    strategy = (np.arange(k)[None, :] + np.arange(k)[:, None]) % k  # [game in block, seat]
    logit = np.asarray(d.skill)[strategy][None] + rng.normal(0, d.deal_sd, (d.blocks, 1, k))
    chance = np.exp(logit)
    chance /= chance.sum(-1, keepdims=True)
    winner = (rng.random((d.blocks, k, 1)) < chance.cumsum(-1)).argmax(-1)
    win = np.eye(k)[winner]  # blocks x games x seats
    liking = rng.gamma(2.0, 1.0, (k, d.cards))[strategy]  # games x seats x cards
    liking /= liking.sum(1, keepdims=True)
    taken = (rng.random((d.blocks, 1, d.cards)) < d.dealt) & (rng.random((d.blocks, k, d.cards)) < d.taken)
    who = (rng.random((d.blocks, k, 1, d.cards)) < liking.cumsum(1)[None]).argmax(2)
    held = (np.arange(k)[None, None, :, None] == who[:, :, None, :]) & taken[:, :, None, :]
    n = d.blocks * k * k
    held = held.reshape(n, d.cards).astype(float)
    keep = held.sum(0) >= d.min_held
    codes = np.broadcast_to(strategy[None], (d.blocks, k, k)).reshape(n)
    return held[:, keep], win.reshape(n), codes, np.repeat(np.arange(d.blocks), k * k)


def holdings_rates(rng: np.random.Generator, reps: int, d: HoldDesign) -> dict[str, float]:
    """Under the global null: the share of replicates where some card is called (new: Benjamini-
    Hochberg over the cards on ``inference.held_vs_expected``; old: some card's Wilson interval lies
    wholly above 1/players), the per-card false-positive rate and the coverage of 0."""
    new, old, per, cover = [], [], [], []
    for _ in range(reps):
        held, win, codes, blocks = holding_records(rng, d)
        test = inference.held_vs_expected(held, win, codes, blocks)
        new.append(bool((inference.adjust(test.p_value, "fdr_bh").p_adjusted < 0.05).any()))
        low, _ = stats.wilson_interval(held.T @ win, held.sum(0))
        old.append(bool((low > 1 / d.players).any()))
        per.append(np.mean(test.p_value < 0.05))
        cover.append(np.mean((test.low <= 0) & (0 <= test.high)))
    return {
        "new": float(np.mean(new)),
        "old": float(np.mean(old)),
        "per_card": float(np.mean(per)),
        "coverage": float(np.mean(cover)),
    }


#: Knarr study-like families of seat tests: 2 and 3 players, base and skáli (four groups)
SEAT_GROUPS = (
    seats_kit.Design(blocks=50, players=2, skill=(1.0, -1.0), deal_sd=0.5),
    seats_kit.Design(blocks=50, players=2, skill=(1.0, -1.0), deal_sd=0.5),
    seats_kit.Design(blocks=40, players=3, skill=(0.5, 0.0, -0.5), deal_sd=0.5),
    seats_kit.Design(blocks=40, players=3, skill=(0.5, 0.0, -0.5), deal_sd=0.5),
)


def seat_verdict_rates(rng: np.random.Generator, reps: int) -> dict[str, float]:
    """Under a global null (every seat 1/players in every group): the share of reports whose Knarr seat
    verdict calls some group uneven (new: Holm over the groups' design-aware tests, as
    ``balance.balance_tests`` and ``knarr_seat_section``; old: the smallest plain chi-square p below
    5%, and the largest-gap group's best seat with a Wilson interval above 1/players)."""
    p = np.empty((reps, len(SEAT_GROUPS)))
    old_p = np.empty_like(p)
    edge = np.zeros(reps, dtype=bool)
    gap = np.full(reps, -1.0)
    for g, d in enumerate(SEAT_GROUPS):
        y, m = seats_kit.seat_shares(rng, reps, d)
        p[:, g] = inference.shares_test(y, m).p_value
        wins, n = y.sum(axis=1), m.sum(axis=1)
        old_p[:, g] = sps.chisquare(wins, axis=-1).pvalue
        rate = wins / n[:, None]
        low, high = stats.wilson_interval(wins.max(axis=-1), n)
        wider = rate.max(-1) - rate.min(-1) > gap
        gap = np.where(wider, rate.max(-1) - rate.min(-1), gap)
        edge = np.where(wider, ~((low <= 1 / d.players) & (1 / d.players <= high)), edge)
    # Holm rejects some group exactly where the smallest p is below α / groups (its first step); checked
    # against ``inference.adjust`` on the first replicates (statsmodels' Holm runs gc.collect, 0.17 s a call)
    holm = p.min(axis=1) * p.shape[1] < 0.05
    for row, called in zip(p[:20], holm[:20], strict=True):
        assert bool((inference.adjust(row, "holm").p_adjusted < 0.05).any()) == called
    return {
        "new": float(holm.mean()),
        "old_min_p": float((old_p.min(axis=1) < 0.05).mean()),
        "old_edge": float(edge.mean()),
    }


def test_holdings_verdict_under_a_global_null_calls_a_card_in_about_5_percent() -> None:
    """ "Any verdict drawn from several tests (... which card) uses Holm or Benjamini-Hochberg" and "the
    false-positive rate at α = 0.05 must lie within 3.5-6.5%": under a global null the false discovery
    rate is the chance of any discovery."""
    r = holdings_rates(np.random.default_rng(15), REPS, KNARR_3P)
    assert FPR_BAND[0] <= r["new"] <= FPR_BAND[1], r
    assert FPR_BAND[0] <= r["per_card"] <= FPR_BAND[1], r
    assert r["old"] > 0.5, r  # 1/players as base rate: the strong strategy's cards always look strong


def test_seat_verdict_under_a_global_null_calls_a_group_in_about_5_percent() -> None:
    """ "Under a global null, the Knarr section says 'that seat has an edge' in 21-25% of reports": the
    verdict is now Holm's over the groups (family-wise error)."""
    r = seat_verdict_rates(np.random.default_rng(16), 2000)
    assert FPR_BAND[0] <= r["new"] <= FPR_BAND[1], r


def test_held_vs_expected_by_hand() -> None:
    """Expected = the mean over the holders of their own strategy's win rate; the test is the one-sample
    t test of the blocks' totals of (held - share) x (win - rate)."""
    # 4 blocks of 2 games x 2 seats; strategy 0 = seat-game rows 0, 3, 4, 7, ... (alternating)
    win = np.array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1], dtype=float)
    strat = np.array([0, 1, 1, 0] * 4)
    block = np.repeat(np.arange(4), 4)
    held = np.zeros((16, 1))
    held[[0, 1, 4, 6, 9, 12], 0] = 1
    test = inference.held_vs_expected(held, win, strat, block)
    rate = {s: win[strat == s].mean() for s in (0, 1)}
    holders = np.flatnonzero(held[:, 0])
    assert test.expected[0] == pytest.approx(np.mean([rate[s] for s in strat[holders]]))
    assert test.observed[0] == pytest.approx(win[holders].mean())
    assert test.estimate[0] == pytest.approx(test.observed[0] - test.expected[0])
    share = {s: held[strat == s, 0].mean() for s in (0, 1)}
    u = np.array([(held[i, 0] - share[strat[i]]) * (win[i] - rate[strat[i]]) for i in range(16)])
    totals = np.bincount(block, u)
    assert u.sum() / len(holders) == pytest.approx(test.estimate[0])
    assert test.p_value[0] == pytest.approx(sps.ttest_1samp(totals, 0.0).pvalue)
    se = 2 * totals.std(ddof=1) / len(holders)
    assert test.high[0] - test.low[0] == pytest.approx(2 * sps.t.ppf(0.975, 3) * se)
    assert test.holders[0] == 6 and test.clusters[0] == 4


def test_means_by_is_cluster_mean_per_group() -> None:
    frame = pl.DataFrame(
        {
            "g": [1, 1, 1, 1, 2, 2, 2],
            "block": ["a", "a", "b", "c", "a", "b", "b"],
            "x": [1.0, 3.0, 2.0, 6.0, 5.0, 4.0, 9.0],
        }
    )
    out = inference.means_by(frame, ["g"], "x").row(0, named=True)
    est = inference.cluster_mean(
        np.array([4.0, 2.0, 6.0]), np.array([2.0, 1.0, 1.0]), np.array([10.0, 4.0, 36.0])
    )
    assert out["mean"] == pytest.approx(3.0) and out["blocks"] == 3 and out["games"] == 4
    assert (out["low"], out["high"]) == pytest.approx((float(est.low), float(est.high)))


def test_detectable_difference_has_80_percent_power() -> None:
    d = float(inference.detectable_difference(0.1, 30))
    crit = sps.t.ppf(0.975, 30)
    assert sps.nct.sf(crit, 30, d / 0.1) + sps.nct.cdf(-crit, 30, d / 0.1) == pytest.approx(0.8, abs=0.01)

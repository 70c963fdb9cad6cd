"""Knarr holdings against a strategy-adjusted base rate, and the Knarr seat verdict, calibrated.

* Which cards go with winning: ``analysis.stats.held.held_vs_expected`` (a permutation of who holds each card
  within its holders' strategies, blocks kept whole) corrected by Benjamini-Hochberg over the cards.
  Under a global null the verdict calls some card in about 5% of reports, and the per-card rate is
  5%.  The synthetic design is a ``--seats rotate`` run of three strategies of unequal skill with a
  deal effect on the seats; each card is dealt to a block (available in all its games) or not, and
  taken in a game by at most one seat, chosen by the seat's strategy's liking for it: strong
  strategies hold other cards than weak ones, while no card changes anyone's chance to win.
* Few holders (13 in 40 four-player games): the permutation test's false-positive rate at α = 0.05 and
  at 0.001 stays within 1.5 times nominal, where a t test on the block totals (the method the
  permutation replaced, ``block_total_t`` here) gave 20 times nominal at 0.001 and p < 0.001 to most
  cards whose 13 holders all lost; a real effect is still found.
* The seat verdict: Holm over the groups' seat tests calls some group in about 5% of reports.

``tools/calibrate_knarr.py`` runs the first and last with more replicates, other designs and on real
runs; ``tools/calibrate_held.py`` the few-holders checks at several numbers of holders.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis.stats import held as held_mod
from analysis.stats import inference, stats
from tests.analysis import test_calibration as seats_kit

pytestmark = pytest.mark.slow

FPR_BAND = seats_kit.FPR_BAND
REPS = 1000
#: replicates of the holdings verdict's calibration (each runs one permutation test of 40 cards)
HOLD_REPS = 500
#: permutations per test in the calibration: 800 p values k/800, so Benjamini-Hochberg's steps over 40
#: cards (0.05 k / 40) and α = 0.05 are all reached exactly
HOLD_DRAWS = 799


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
    """(held rows x cards, win share, strategy code, block code, game code) of one replicate, cards
    held by at least ``min_held`` seats only."""
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
    return held[:, keep], win.reshape(n), codes, np.repeat(np.arange(d.blocks), k * k), np.arange(n) // k


def holdings_rates(
    rng: np.random.Generator, reps: int, d: HoldDesign, draws: int = HOLD_DRAWS
) -> dict[str, float]:
    """Under the global null: the share of replicates where some card is called (new: Benjamini-
    Hochberg over the cards on ``inference.held_vs_expected``; old: some card's Wilson interval lies
    wholly above 1/players), the per-card false-positive rate and the coverage of 0."""
    new, old, per, cover = [], [], [], []
    for _ in range(reps):
        held, win, codes, blocks, games = holding_records(rng, d)
        test = inference.held_vs_expected(held, win, codes, blocks, games, draws=draws)
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
    rate is the chance of any discovery.  The permutation test is exact, and its statistic is a count
    (the holders' wins), so the levels it can reach fall a little below nominal: about 4.1% per card
    and 3.5% for the verdict (1,000 replicates, ``tools/calibrate_knarr.py``); the verdict's floor is
    2.5% here."""
    r = holdings_rates(np.random.default_rng(15), HOLD_REPS, KNARR_3P)
    assert 0.025 <= r["new"] <= FPR_BAND[1], r
    assert FPR_BAND[0] <= r["per_card"] <= FPR_BAND[1], r
    assert r["old"] > 0.5, r  # 1/players as base rate: the strong strategy's cards always look strong


def test_seat_verdict_under_a_global_null_calls_a_group_in_about_5_percent() -> None:
    """ "Under a global null, the Knarr section says 'that seat has an edge' in 21-25% of reports": the
    verdict is now Holm's over the groups (family-wise error)."""
    r = seat_verdict_rates(np.random.default_rng(16), 2000)
    assert FPR_BAND[0] <= r["new"] <= FPR_BAND[1], r


def _group_images(d: held_mod._Design) -> np.ndarray:
    """Every permutation of the design's group, by brute force (tiny designs only): blocks within their
    class, then a block's games within their layout, then a game's rows within their stratum."""
    levels = (d.block_class, d.game_group, d.cell)
    groups = [[np.flatnonzero(level == c) for c in np.unique(level)] for level in levels]
    options = [[list(itertools.permutations(m)) for m in members] for members in groups]
    images = []
    for choice in itertools.product(*(itertools.product(*level) for level in options)):
        maps = []
        for level, members, picked in zip(levels, groups, choice, strict=True):
            image = np.arange(len(level))
            for unit, perm in zip(members, picked, strict=True):
                image[unit] = perm
            maps.append(image)
        block, games, seats = maps
        g = d.games[block[d.game_block][d.game], d.layout[d.game], d.game_rank[games][d.game]]
        images.append(d.rows[g, d.stratum, d.row_rank[seats]])
    return np.unique(np.array(images), axis=0)


def _tiny() -> tuple[np.ndarray, ...]:
    """3 blocks of 2 two-player games (rotate: strategy 0 in seat 0, then seat 1) and 3 cards."""
    strat = np.array([0, 1, 1, 0] * 3)
    block = np.repeat(np.arange(3), 4)
    game = np.repeat(np.arange(6), 2)
    win = np.array([1, 0, 0, 1, 1, 0, 1, 0, 0.5, 0.5, 1, 0])
    held = np.zeros((12, 3))
    held[[0, 3, 4, 11], 0] = 1  # strategy 0 holds it in 3 games, strategy 1 once
    held[[1, 5, 9], 1] = 1  # strategy 1, in three games
    held[strat == 0, 2] = 1  # every seat of strategy 0: no permutation moves it
    return held, win, strat, block, game


def test_held_vs_expected_matches_the_enumerated_permutations() -> None:
    """Expected = the mean over the holders of their own strategy's win rate; the p value and spread
    are the permutation distribution's (every one of the group's 48 permutations enumerated), within
    the Monte Carlo error of 9,999 draws; the interval leaves out 0 exactly when p < 0.05."""
    held, win, strat, block, game = _tiny()
    test = inference.held_vs_expected(held, win, strat, block, game)
    rate = {s: win[strat == s].mean() for s in (0, 1)}
    d = held_mod._design(held, win, strat, block, game)
    perms = _group_images(d)
    assert len(perms) == 3 * 2 * 2**3  # 3! block orders, 2 orders of the games in each block
    h, v = held[d.order], win[d.order]
    w = v - np.array([rate[s] for s in d.stratum])
    exact = w[perms] @ h  # the statistic under every permutation (the values move, not the holdings)
    for c in (0, 1):
        holders = np.flatnonzero(held[:, c])
        assert test.expected[c] == pytest.approx(np.mean([rate[s] for s in strat[holders]]))
        assert test.observed[c] == pytest.approx(win[holders].mean())
        assert test.estimate[c] == pytest.approx(test.observed[c] - test.expected[c])
        p = np.mean(np.abs(exact[:, c]) >= abs(w @ h[:, c]) - 1e-9)
        assert abs(test.p_value[c] - p) < 4 * math.sqrt(p * (1 - p) / 9999) + 1e-4, (c, p, test.p_value[c])
        assert test.se[c] == pytest.approx(exact[:, c].std() / len(holders), rel=0.05)
        assert (test.low[c] > 0 or test.high[c] < 0) == (test.p_value[c] < 0.05)
    assert test.p_value[2] == 1.0 and np.isnan(test.se[2]) and np.isnan(test.low[2])
    assert test.estimate[2] == pytest.approx(0.0) and test.holders.tolist() == [4, 3, 6]


def test_held_vs_expected_is_the_same_for_the_same_records() -> None:
    """The draws are seeded from the records, in one order: the rows read in another order give the
    same numbers, bit for bit; other records other draws."""
    held, win, codes, blocks, games = holding_records(np.random.default_rng(3), HoldDesign(blocks=20))
    a = inference.held_vs_expected(held, win, codes, blocks, games, draws=999)
    shuffle = np.random.default_rng(4).permutation(len(win))
    b = inference.held_vs_expected(
        held[shuffle], win[shuffle], codes[shuffle], blocks[shuffle], games[shuffle], draws=999
    )
    for field in ("observed", "expected", "estimate", "se", "low", "high", "p_value"):
        assert np.array_equal(getattr(a, field), getattr(b, field), equal_nan=True), field
    losses = inference.held_vs_expected(held, 1 - win, codes, blocks, games, draws=999)
    assert losses.estimate == pytest.approx(-a.estimate)  # the same test of other records: other draws
    assert np.abs(losses.p_value - a.p_value).max() < 0.05 and not np.array_equal(losses.p_value, a.p_value)


@dataclass(frozen=True)
class FewDesign:
    """A group whose cards have few holders: ``games`` games of ``players`` (``rotate``: blocks of one
    deal under every seat shift; else every game its own deal, ``--seats random``), strategies of
    unequal ``skill`` (one strategy in every seat where ``mirror``) with a deal effect on the seats, and
    ``cards`` cards each held by exactly ``holders`` seats, one per game, in games of ``dealt`` of the
    blocks, the seat chosen by its strategy's liking for the card."""

    games: int = 40
    players: int = 4
    cards: int = 400
    holders: int = 13
    rotate: bool = False
    mirror: bool = True
    skill: tuple[float, ...] = (0.6, 0.2, -0.2, -0.6)
    deal_sd: float = 0.5
    dealt: float = 0.5


#: 40 four-player games, every card held 13 times: the t test's worst case (one strategy, every game its
#: own deal), and the same with four strategies under ``--seats rotate``
FEW_13 = FewDesign()
FEW_13_ROTATE = FewDesign(rotate=True, mirror=False)
FEW_REPS = 50
FEW_DRAWS = 999


def _seating(rng: np.random.Generator, d: FewDesign) -> np.ndarray:
    """games x seats: the strategy in each seat."""
    base = np.zeros(d.players, dtype=int) if d.mirror else np.arange(d.players)
    if d.rotate:
        return np.stack([np.roll(base, g % d.players) for g in range(d.games)])
    return np.stack([rng.permutation(base) for _ in range(d.games)])


def few_holder_records(rng: np.random.Generator, d: FewDesign, effect: float = 0.0) -> tuple[np.ndarray, ...]:
    """(held rows x cards, win share, strategy, block, game) of one replicate; holding card 0 adds
    ``effect`` to its holder's log-odds of winning (0: the null, nothing changes anyone's chance)."""
    k, per = d.players, d.players if d.rotate else 1
    blocks, of_game = d.games // per, np.arange(d.games) // per
    strategy = _seating(rng, d)
    in_deal = rng.random((d.cards, blocks)).argsort(1).argsort(1) < max(
        math.ceil(d.dealt * blocks), math.ceil(d.holders / per)
    )
    games = np.argsort(rng.random((d.cards, d.games)) + ~in_deal[:, of_game], axis=1)[:, : d.holders]
    liking = rng.gamma(2.0, 1.0, (k, d.cards))[strategy[games], np.arange(d.cards)[:, None, None]]
    cum = liking.cumsum(-1)
    seat = (rng.random((*games.shape, 1)) * cum[..., -1:] < cum).argmax(-1)
    held = np.zeros((d.games, k, d.cards))
    held[games, seat, np.arange(d.cards)[:, None]] = 1
    logit = (
        np.asarray(d.skill)[strategy] + rng.normal(0, d.deal_sd, (blocks, k))[of_game] + effect * held[..., 0]
    )
    chance = np.exp(logit) / np.exp(logit).sum(-1, keepdims=True)
    winner = (rng.random((d.games, 1)) < chance.cumsum(-1)).argmax(-1)
    rows = d.games * k
    return (
        held.reshape(rows, d.cards),
        np.eye(k)[winner].reshape(rows),
        strategy.reshape(rows),
        np.repeat(of_game, k),
        np.repeat(np.arange(d.games), k),
    )


def block_total_t(held: np.ndarray, value: np.ndarray, stratum: np.ndarray, block: np.ndarray) -> np.ndarray:
    """The p values of the test ``held_vs_expected`` replaced: the one-sample t test of the blocks'
    totals of (h - π_s)(v - r_s) against 0 on B - 1 df (π_s the share of stratum s holding the card,
    r_s its win rate); nan where the totals do not vary."""
    size = np.bincount(stratum)
    rate = np.bincount(stratum, value) / size
    share = np.stack([np.bincount(stratum, c) for c in held.T], axis=1) / size[:, None]
    u = (held - share[stratum]) * (value - rate[stratum])[:, None]
    totals = np.stack([np.bincount(block, c) for c in u.T], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(sps.ttest_1samp(totals, 0.0, axis=0).pvalue)


def few_holder_pvalues(
    rng: np.random.Generator, reps: int, d: FewDesign, draws: int = FEW_DRAWS
) -> dict[str, np.ndarray]:
    """Under the null, replicates x cards: the p values of the permutation test (``new``) and of
    ``block_total_t`` (``old``), and whether the card's holders never won (``never_won``)."""
    new, old, lost = [], [], []
    for _ in range(reps):
        held, win, strategy, block, game = few_holder_records(rng, d)
        new.append(inference.held_vs_expected(held, win, strategy, block, game, draws=draws).p_value)
        old.append(block_total_t(held, win, strategy, block))
        lost.append(held.T @ win == 0)
    return {"new": np.array(new), "old": np.array(old), "never_won": np.array(lost)}


def few_holder_rates(
    rng: np.random.Generator, reps: int, d: FewDesign, draws: int = FEW_DRAWS
) -> dict[str, float]:
    """Under the null, per card: the share with p ≤ 0.05 and p ≤ 0.001 (``new``: the permutation test;
    ``old``: ``block_total_t``), how many cards were tested, and among the cards whose holders never
    won the share with p ≤ 0.001."""
    r = few_holder_pvalues(rng, reps, d, draws)
    p, q, never = r["new"], r["old"], r["never_won"]
    return {
        "cards": float(p.size),
        "new_05": float(np.mean(p <= 0.05)),
        "new_001": float(np.mean(p <= 0.001)),
        "old_05": float(np.mean(q <= 0.05)),
        "old_001": float(np.mean(q <= 0.001)),
        "never_won": float(never.sum()),
        "never_won_new_001": float(np.mean(p[never] <= 0.001)) if never.any() else math.nan,
        "never_won_old_001": float(np.mean(q[never] <= 0.001)) if never.any() else math.nan,
    }


def few_holder_power(
    rng: np.random.Generator, reps: int, d: FewDesign, effect: float, draws: int = FEW_DRAWS
) -> dict[str, float]:
    """With holding card 0 worth ``effect`` in log-odds: the holders' mean win share (the size of the
    effect) and the share of replicates whose test of card 0 gives p ≤ 0.05 (power)."""
    p, rate = [], []
    for _ in range(reps):
        held, win, strategy, block, game = few_holder_records(rng, d, effect)
        test = inference.held_vs_expected(held[:, :1], win, strategy, block, game, draws=draws)
        p.append(test.p_value[0])
        rate.append(test.observed[0])
    return {"holders_win": float(np.mean(rate)), "power": float(np.mean(np.asarray(p) <= 0.05))}


@pytest.mark.parametrize("design", [FEW_13, FEW_13_ROTATE], ids=["one-strategy-random-seats", "rotate"])
def test_few_holders_false_positives_within_1_5_times_nominal(design: FewDesign) -> None:
    """13 holders in 40 four-player games, no card matters: at most 1.5 x nominal false positives at
    α = 0.05 and at 0.001 (20,000 cards; the discrete permutation distribution makes it conservative),
    where with one strategy and every game its own deal the t test on the block totals gives over 10
    times nominal at 0.001, and p < 0.001 to most cards whose holders never won."""
    r = few_holder_rates(np.random.default_rng(21), FEW_REPS, design)
    assert r["cards"] == FEW_REPS * design.cards
    assert 0.5 * 0.05 <= r["new_05"] <= 1.5 * 0.05, r
    assert r["new_001"] <= 1.5 * 0.001, r
    if design.mirror:  # the check can fail: the replaced test fails it here
        assert r["old_001"] > 10 * 0.001 and r["never_won_old_001"] > 0.5, r
        assert r["never_won"] > 100 and r["never_won_new_001"] == 0, r


def test_zero_wins_in_13_is_not_p_below_0_001() -> None:
    """One strategy, 40 games each its own deal, a card held in 13 of them and every holder lost: under
    the permutation each holder is any seat of any game, a winner with chance 1/4 independently (13
    distinct games), so the wins are Binomial(13, 1/4) and p = P(0 wins) + P(7 or more) = 0.048.  The t
    test on the block totals gave p < 0.001."""
    rng = np.random.default_rng(8)
    winner = rng.integers(0, 4, 40)
    win = (np.arange(4)[None, :] == winner[:, None]).astype(float).reshape(160)
    held = np.zeros((160, 1))
    games = rng.permutation(40)[:13]
    held[games * 4 + (winner[games] + 1 + rng.integers(0, 3, 13)) % 4, 0] = 1  # a seat that lost
    zeros = np.zeros(160, dtype=int)
    game = np.repeat(np.arange(40), 4)
    test = inference.held_vs_expected(held, win, zeros, game, game)
    exact = sps.binom.pmf(0, 13, 0.25) + sps.binom.sf(6, 13, 0.25)
    assert held.T @ win == 0 and test.observed[0] == 0 and test.expected[0] == 0.25
    assert abs(test.p_value[0] - exact) < 4 * math.sqrt(exact * (1 - exact) / 9999), (test.p_value, exact)
    assert test.p_value[0] > 0.04 and (test.high[0] < 0) == (test.p_value[0] < 0.05)
    assert block_total_t(held, win, zeros, game)[0] < 0.001


def test_a_real_effect_among_13_holders_is_found() -> None:
    """Holding the card lifts its holder from 1 in 4 to about 0.6 (+1.5 in log-odds): the test finds it
    in most replicates with 13 holders."""
    r = few_holder_power(np.random.default_rng(22), 200, dataclasses.replace(FEW_13, cards=3), 1.5)
    assert 0.5 < r["holders_win"] < 0.7 and r["power"] >= 0.6, r


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

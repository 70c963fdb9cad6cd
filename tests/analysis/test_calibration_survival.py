"""Calibration of Greenland's tribe survival test (``inference.category_win_test`` on a yes/no outcome:
``greenland.tribe_tests``' ``surv_chi2_p``) where every tribe appears once per game and rotation blocks
share a deal (a 2×k independence table is not the right test where each category appears once per game:
a multinomial test, or permutation among the seats of each game, is).

Synthetic Greenland runs: ``blocks`` deals of four games, the four tribes seated once a game, equal
chances.  A game is harsh or mild (each tribe survives with a chance drawn per game, so the survivors of
one game are correlated), and a deal favours one tribe (drawn at random, so the null holds) in all its
games: the block's games are correlated too.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.stats import inference, stats
from tests.analysis.test_calibration import ALPHA, FPR_BAND

pytestmark = pytest.mark.slow

REPS = 1000
TRIBES = 4


def survival(rng: np.random.Generator, blocks: int, lift: float = 0.3) -> np.ndarray:
    """Per game and tribe, 1 where the tribe survives (``blocks * 4`` games)."""
    games = blocks * 4
    chance = rng.uniform(0.3, 0.7, games)[:, None]  # harsh or mild game: every tribe alike
    favoured = np.eye(TRIBES)[np.repeat(rng.integers(0, TRIBES, blocks), 4)]
    p = np.clip(chance + lift * (favoured - 1 / TRIBES), 0.0, 1.0)
    return (rng.random((games, TRIBES)) < p).astype(float)


def survival_rates(rng: np.random.Generator, reps: int, blocks: int = 60) -> dict[str, float]:
    """The false-positive rates at α of the block-aware test ("new"), of the same test with every game
    independent ("games") and of the 2×k independence table the section used ("old")."""
    games = blocks * 4
    counts = np.ones((games, TRIBES))
    players = np.full(games, float(TRIBES))
    block = np.repeat(np.arange(blocks), 4)
    p = {"new": [], "games": [], "old": []}
    for _ in range(reps):
        alive = survival(rng, blocks)
        p["new"].append(inference.category_win_test(counts, alive, players, block)[1])
        p["games"].append(inference.category_win_test(counts, alive, players)[1])
        p["old"].append(stats.rates_independence_test(alive.sum(axis=0), [games] * TRIBES)[1])
    return {k: float(np.mean(np.asarray(v) < ALPHA)) for k, v in p.items()}


def test_survival_test_holds_its_level_when_tribes_share_games_and_deals() -> None:
    """The false-positive rate at α = 0.05 lies within 3.5-6.5% with a deal effect;
    the 2×k table on seat-games is far outside it here."""
    rates = survival_rates(np.random.default_rng(1501), REPS)
    assert FPR_BAND[0] <= rates["new"] <= FPR_BAND[1], rates
    assert not FPR_BAND[0] <= rates["old"] <= FPR_BAND[1], rates


def test_survival_test_given_each_games_survivors_is_the_permutation_test() -> None:
    """Permutation among the seats of each game: with independent games the statistic's mean and
    variance are those the survivors spread at random over each game's seats give (Wald χ² on 3 df),
    checked against permuting the tribes within every game of one fixed sample."""
    rng = np.random.default_rng(1502)
    alive = survival(rng, 40, lift=0.0)
    counts = np.ones_like(alive)
    players = np.full(len(alive), float(TRIBES))
    chi2, p, dof = inference.category_win_test(counts, alive, players)
    shuffled = np.array(
        [inference.category_win_test(counts, rng.permuted(alive, axis=1), players)[0] for _ in range(2000)]
    )
    assert dof == TRIBES - 1
    assert abs(shuffled.mean() - dof) < 0.15 and abs(shuffled.var() - 2 * dof) < 0.8
    assert abs(p - float(np.mean(shuffled >= chi2))) < 0.03

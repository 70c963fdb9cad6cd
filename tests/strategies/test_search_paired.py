"""``ismcts``'s root comparisons: the j-th visit of every root arm sees the same
determinization (common random numbers), so arms are compared on paired samples; ``keep`` plays the
prior's choice unless an arm beats it by that many paired standard errors; ``width`` caps the root's
arms at the prior's first choices; ``tree=1`` keeps the root only (every iteration plays out from the
searcher's choice).  Played on the toy game (``tests.toy_game``: hidden hands, simultaneous secret bids).
"""

from __future__ import annotations

import numpy as np

from sim.search import SearchContext
from strategies.ismcts import ISMCTSStrategy, paired_gain
from tests.strategies.test_search import _state_after_one_round
from tests.toy_game import GAME


def _player(seed: int = 3, **params: str) -> ISMCTSStrategy:
    player = ISMCTSStrategy(0, np.random.default_rng(seed), **params)
    player.attach(SearchContext(GAME, 0, _state_after_one_round()))
    return player


def _choose(player: ISMCTSStrategy):
    state = _state_after_one_round()
    return player.choose(GAME.view(state, 0), GAME.legal_options(state, 0))


def test_paired_gain_needs_a_gain_beyond_its_standard_errors() -> None:
    rng = np.random.default_rng(0)
    base = rng.random(40)
    assert paired_gain(base + 0.1, base, 2.0) is not None  # the same samples, every one better
    assert abs(paired_gain(base + 0.1, base, 2.0) - 0.1) < 1e-12
    noisy = base + rng.normal(0, 0.5, 40)  # no gain, only noise
    assert paired_gain(noisy, base, 2.0) is None or paired_gain(noisy, base, 2.0) < 0.3
    assert paired_gain(base - 0.1, base, 0.0) is None  # a loss is never a gain
    assert paired_gain([1.0], [0.0], 0.0) is None  # one pair is too few
    assert paired_gain([1.0, 0.0], [0.0, 0.0], 1.0) is None  # a mean of 0.5, standard error 0.5


def test_the_jth_visit_of_every_root_arm_sees_the_same_determinization(monkeypatch) -> None:
    """Common random numbers: which sample an iteration draws depends on its root arm's visit count only."""
    player = _player(iterations="60", prior="none")
    visits: list[int] = []
    samples: list[str] = []
    draw_rng, context = player._sample_rng, player.context

    def counted(visit: int):
        visits.append(visit)
        return draw_rng(visit)

    class Watched:  # the same samples, each one noted
        game = GAME

        def sample(self, rng):
            state = context.sample(rng)
            samples.append(repr(GAME.to_dict(state)))
            return state

    monkeypatch.setattr(player, "_sample_rng", counted)
    player.attach(Watched())
    _choose(player)
    by_visit: dict[int, set[str]] = {}
    for visit, sample in zip(visits, samples, strict=True):
        by_visit.setdefault(visit, set()).add(sample)
    assert max(len(arms) for arms in by_visit.values()) == 1  # one determinization per visit index
    assert len(by_visit) > 5 and len(set(samples)) > 5  # and they differ between visit indices
    root_arms = player.last_root.arms[0]
    assert sum(1 for a in root_arms.values() if a[0] > 1) >= 2  # several arms shared the samples


def test_width_caps_the_roots_arms_at_the_priors_first_choices() -> None:
    player = _player(iterations="80", width="2", prior="tests.toy_game:HighBidder")
    _choose(player)
    hand = sorted(_state_after_one_round().hands[0])
    assert set(player.last_root.arms[0]) == {hand[-1], hand[-2]}  # its top choice, then the next


def test_tree_one_keeps_the_root_only() -> None:
    """The default (``tree=1``): no node below the root; ``tree=0`` grows the tree."""
    player = _player(iterations="40", tree="1")
    _choose(player)
    assert player.last_root.children == {}
    deep = _player(iterations="40", tree="0")
    _choose(deep)
    assert deep.last_root.children  # without the cap the tree grows below the root


def test_keep_plays_the_priors_choice_unless_it_is_beaten() -> None:
    """The lowest card (the recorder prior) loses the round; with ``keep`` at an unreachable margin the
    prior's choice is played anyway, and with a reachable one the search leaves it (rewarded by wins)."""
    lowest = min(_state_after_one_round().hands[0])
    kept = {_choose(_player(seed, iterations="60", prior="tests.toy_game:Recorder", keep="1e9"))
            for seed in range(4)}
    assert kept == {lowest}
    left = [_choose(_player(seed, iterations="60", prior="tests.toy_game:Recorder", keep="1", reward="win"))
            for seed in range(4)]
    assert any(card != lowest for card in left)

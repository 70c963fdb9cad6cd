"""``ismcts``'s prior: a scripted strategy's choice is the first arm a seat gets at a node, so
search starts from the scripted move; the prior sees only the real view at the root and views of
determinized states below it, never the true state; the default prior is the game's best scripted
strategy.  Played on the toy game (``tests.toy_game``: hidden hands, simultaneous secret bids)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.errors import SkaldError
from sim.games import GAMES, get_game
from sim.search import SearchContext
from sim.specs import best_strategy, parse_spec
from strategies.ismcts import ISMCTSStrategy, prior_spec
from tests.strategies.test_search import _state_after_one_round, _swap_hidden
from tests.toy_game import GAME, Recorder

RECORDER = "tests.toy_game:Recorder"  # plays its lowest card, keeps every (seat, view, options) it got


def _choose(truth, prior: str, iterations: int = 1, seed: int = 4):
    player = ISMCTSStrategy(0, np.random.default_rng(seed), iterations=str(iterations), prior=prior)
    player.attach(SearchContext(GAME, 0, truth))
    return player.choose(GAME.view(truth, 0), GAME.legal_options(truth, 0))


def test_the_prior_is_tried_first() -> None:
    """With one iteration the root has one arm, the prior's choice: the lowest card for the recorder,
    the highest for the high bidder, whatever the generator."""
    state = _state_after_one_round()
    options = GAME.legal_options(state, 0)
    for seed in range(5):
        assert _choose(state, RECORDER, seed=seed) == min(options)
        assert _choose(state, "tests.toy_game:HighBidder", seed=seed) == max(options)
    unprimed = {_choose(state, "none", seed=seed) for seed in range(12)}
    assert len(unprimed) > 1  # without a prior the first arm is drawn at random


def test_the_prior_sees_the_real_view_at_the_root_and_never_the_hidden_hands() -> None:
    """The root prior is asked once with the view and options ``choose`` was given; every later view it
    gets (all seats, determinized states) is the same whatever the opponents' hidden cards are."""
    state = _state_after_one_round()
    changed = _swap_hidden(state, 0)
    seen = []
    for truth in (state, changed):
        Recorder.SEEN.clear()
        _choose(truth, RECORDER, iterations=40)
        seen.append(list(Recorder.SEEN))
    real = (0, GAME.view(state, 0), tuple(GAME.legal_options(state, 0)))
    assert seen[0][0] == real
    assert seen[0] == seen[1]
    assert {s for s, _, _ in seen[0]} == {0, 1, 2}  # the opponents' arms are primed too
    Recorder.SEEN.clear()


def test_the_default_prior_is_the_games_best_scripted_strategy(registered: str) -> None:
    """Every game's plug-in names one of its own strategies; a game without strategies has no prior."""
    for name, plugin in GAMES.items():
        if plugin.strategies:
            assert best_strategy(name) in plugin.strategies, name
            assert prior_spec(get_game(name), "").cls is parse_spec(best_strategy(name), name).cls
    assert best_strategy(registered) is None and prior_spec(GAME, "") is None
    assert prior_spec(GAME, "none") is None
    assert prior_spec(GAME, RECORDER).cls is Recorder


@pytest.mark.parametrize("spec", ["ismcts:prior=ismcts", "ismcts:epsilon=2"])
def test_a_prior_that_searches_and_a_bad_epsilon_are_refused(spec: str, registered: str) -> None:
    with pytest.raises(SkaldError, match="strategy 'ismcts:"):
        parse_spec(spec, registered)


def test_the_roots_arms_follow_the_priors_ranking() -> None:
    """``rank=3``: before searching, the prior is asked three times from the real view, each time
    without its earlier picks; with three iterations (three arms, one visit each) the tie goes to the
    prior's first choice."""
    state = _state_after_one_round()
    options = tuple(GAME.legal_options(state, 0))
    Recorder.SEEN.clear()
    player = ISMCTSStrategy(0, np.random.default_rng(2), iterations="3", prior=RECORDER, rank="3")
    player.attach(SearchContext(GAME, 0, state))
    assert player.choose(GAME.view(state, 0), list(options)) == min(options)  # visits tie: the prior's
    view = GAME.view(state, 0)
    assert Recorder.SEEN[:3] == [(0, view, options), (0, view, options[1:]), (0, view, options[2:])]
    Recorder.SEEN.clear()

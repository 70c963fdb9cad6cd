"""The search strategy and what it is given: ``ismcts`` sees samples of its seat's information
through ``SearchContext``, never the true state; its games are a function of their seed; it plays better
than a scripted player where there is something to find.  Played on the toy game (``tests.toy_game``:
hidden hands, simultaneous secret bids), which declares ``determinize``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.errors import SkaldError
from sim.play import play_game
from sim.runner import RunConfig, run
from sim.search import SearchContext, normalised, rank_utility, rewards, win_shares
from sim.specs import parse_spec
from strategies.ismcts import ISMCTSStrategy
from tests.golden_kit import parquet_parts
from tests.toy_game import GAME, HIGH, SecretBid

ISMCTS = "ismcts:iterations=60"


def _state_after_one_round(seed: int = 5):
    state = GAME.new_state(3, {"rounds": 4, "endless": False, "bonus": 0.0}, GAME.load_data(None), seed)
    GAME.apply(state, {seat: state.hands[seat][0] for seat in range(3)})
    return state


def _swap_hidden(state, seat: int):
    """The same state but for two other seats' hands, which trade a card (``seat`` has seen neither)."""
    other = GAME.from_dict(GAME.to_dict(state))
    a, b = [s for s in range(state.n_players) if s != seat][:2]
    other.hands[a][0], other.hands[b][0] = other.hands[b][0], other.hands[a][0]
    other.hands[a].sort()
    other.hands[b].sort()
    return other


def test_determinize_depends_only_on_what_the_seat_has_seen() -> None:
    """Two states that differ only in a card ``seat`` cannot see give the same determinization."""
    state = _state_after_one_round()
    changed = _swap_hidden(state, 0)
    assert GAME.to_dict(changed) != GAME.to_dict(state)
    a = GAME.determinize(state, 0, np.random.default_rng(9))
    b = GAME.determinize(changed, 0, np.random.default_rng(9))
    assert GAME.to_dict(a) == GAME.to_dict(b)
    assert a.hands[0] == state.hands[0]  # its own hand is kept
    assert [len(h) for h in a.hands] == [len(h) for h in state.hands]  # hand sizes are public


def test_ismcts_choices_do_not_depend_on_the_opponents_hidden_cards() -> None:
    """Its choices are identical whatever the opponents' hidden cards are, given the same
    generator (it is handed samples of its seat's information, never the true state)."""
    state = _state_after_one_round()
    changed = _swap_hidden(state, 0)
    picks = []
    for truth in (state, changed):
        player = ISMCTSStrategy(0, np.random.default_rng(4), iterations="80")
        player.attach(SearchContext(GAME, 0, truth))
        picks.append(player.choose(GAME.view(truth, 0), GAME.legal_options(truth, 0)))
    assert picks[0] == picks[1]


def test_a_game_without_determinize_refuses_a_search_strategy(registered: str) -> None:
    class Unsearchable(SecretBid):
        determinize = None  # type: ignore[assignment]

    config = RunConfig(game=Unsearchable(), players=2, games=2, strategies=[ISMCTS, "random"], jobs=1,
                       progress=False)
    with pytest.raises(SkaldError, match=r"'ismcts:iterations=60' searches, which needs determinize"):
        run(config)


@pytest.mark.parametrize("spec", ["ismcts:reward=points", "ismcts:iterations=0", "ismcts:alpha=2"])
def test_bad_parameters_are_refused_when_parsed(spec: str, registered: str) -> None:
    with pytest.raises(SkaldError, match="strategy 'ismcts:"):
        parse_spec(spec, registered)


def test_search_games_are_a_function_of_their_seed(registered: str, tmp_path: Path) -> None:
    """Determinism: --jobs 1 and --jobs 2 write byte-identical records with a search strategy seated."""
    common = dict(game=registered, players=3, games=6, strategies=[ISMCTS, "random", HIGH], seed=3,
                  chunk_size=2, progress=False)
    run(RunConfig(**common, jobs=1, out=tmp_path / "a"))
    run(RunConfig(**common, jobs=2, out=tmp_path / "b"))
    assert parquet_parts(tmp_path / "a") == parquet_parts(tmp_path / "b")


def test_ismcts_finds_what_a_predictable_opponent_gives_away(registered: str, tmp_path: Path) -> None:
    """Against a player who always bids its highest card, search learns to lose cheap cards to it and win
    with the rest: it wins clearly more than its half, where random play wins about half (seats
    rotated, 2 players, 160 games = 80 deals)."""
    summary = run(RunConfig(game=registered, players=2, games=160, strategies=["ismcts:iterations=100", HIGH],
                            seats="rotate", jobs=1, seed=21, progress=False, out=tmp_path / "run"))
    rate = next(r["win_rate"] for r in summary.strategies if r["strategy"].startswith("ismcts"))
    assert rate > 0.58, rate  # measured 0.66 at 300 games and iterations=200


def test_truncated_playouts_and_a_playout_that_would_search(registered: str) -> None:
    """depth=1: one decision point of playout, then the state is scored by rank; a playout policy that
    searches is refused when the spec is parsed."""
    searcher = parse_spec("ismcts:iterations=20:playout=random:depth=1", registered)
    specs = [searcher, parse_spec(HIGH, registered)]
    outcome = play_game(GAME, 2, {"rounds": 3, "endless": False, "bonus": 0.0}, GAME.load_data(None), 4,
                        specs, 100)
    assert not outcome.truncated and outcome.result is not None
    with pytest.raises(SkaldError, match="cannot itself search"):
        parse_spec("ismcts:playout=ismcts", registered)


def test_reward_vectors() -> None:
    assert win_shares([0, 2], 3) == [0.5, 0.0, 0.5]
    assert rank_utility([3.0, 1.0, 2.0]) == [1.0, 0.0, 0.5]
    assert rank_utility([2.0, 2.0, 1.0]) == [0.75, 0.75, 0.0]  # the tie shares places 1 and 2
    assert normalised([2.0, 4.0, 3.0]) == [0.0, 1.0, 0.5]
    assert normalised([1.0, 1.0]) == [0.5, 0.5]
    state = _state_after_one_round()
    assert rewards(GAME, state, 3, "score") == normalised(GAME.scores(state))


def test_a_cut_playout_is_judged_by_the_games_evaluate_where_it_declares_one() -> None:
    """README, Search strategies: a playout cut before the end is judged by ``evaluate(state, seat)``
    where the game declares it, else by the scores of the moment; a finished game always by its result."""

    class Judged:
        def __init__(self, game: object) -> None:
            self._game = game

        def __getattr__(self, name: str) -> object:
            return getattr(self._game, name)

        def evaluate(self, state: object, seat: int) -> float:
            return 0.1 * (seat + 1)

    state = _state_after_one_round()
    assert not GAME.is_terminal(state)
    assert rewards(Judged(GAME), state, 3, "score") == pytest.approx([0.1, 0.2, 0.3])
    assert rewards(Judged(GAME), state, 3, "rank") == pytest.approx([0.1, 0.2, 0.3])
    assert rewards(GAME, state, 3, "rank") == rank_utility(GAME.scores(state))


def test_a_game_plugin_sets_its_own_search_defaults() -> None:
    """``GamePlugin.search``: Greenland's plug-in caps ismcts at 24 iterations and playouts of 60 decision
    points unless the spec says otherwise; a game without its own keeps the strategy's defaults, and
    ``skald strategies`` shows the game's."""
    from sim.commands.info import strategy_lines
    from sim.specs import search_defaults

    assert search_defaults("greenland") == [("iterations", "24"), ("depth", "60")]
    plain = parse_spec("ismcts", "greenland")
    assert plain.text == "ismcts"  # recorded as written
    made = plain.make(0, np.random.default_rng(0))
    assert (made.iterations, made.depth) == (24, 60)
    mine = parse_spec("ismcts:iterations=8", "greenland").make(0, np.random.default_rng(0))
    assert (mine.iterations, mine.depth) == (8, 60)  # the spec's own value wins
    mainland = parse_spec("ismcts", "mainland").make(0, np.random.default_rng(0))
    assert (mainland.iterations, mainland.depth) == (40, 0)
    assert parse_spec("greedy", "greenland").params == ()  # only searching strategies take them
    lines = "\n".join(strategy_lines("ismcts", "greenland"))
    assert "iterations=24" in lines and "greenland's own default; 40 elsewhere" in lines

"""Greenland's judge of a cut search playout (``sim.games.greenland.value``: an optional
evaluate(state, seat) heuristic in [0, 1] for truncated playouts)."""

from __future__ import annotations

import pytest

from sim.games.greenland import value
from sim.games.greenland.game import GAME
from sim.search import rewards
from tests.strategies.test_every_game_search import _states
from tools.fit_greenland_value import chances, collect, scores_now, skill


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seats_values_are_expected_rank_utilities(players: int) -> None:
    """Each chance of i ahead of j is one less the chance of j ahead of i, so the seats' values (mean
    chances of finishing ahead of each other seat) sum to players / 2 like rank utilities (at two
    players: win chances summing to 1), and a search's cut playout is judged by them."""
    for state in _states("greenland", players, seed=7 + players, every=23):
        values = [GAME.evaluate(state, seat) for seat in range(players)]
        assert sum(values) == pytest.approx(players / 2)
        assert rewards(GAME, state, players, "score") == values


def test_a_dead_tribe_is_behind_every_living_one() -> None:
    """Reference B.3.7 (a tribe reduced to 0 population is eliminated and scores 0) and line 5 (the sole
    remaining culture wins): a dead seat's value is 0 beside living seats, a living one gains a full
    place over it."""
    state = _states("greenland", 3, seed=11, every=23)[5]
    state.alive[1] = False
    assert GAME.evaluate(state, 1) == 0.0
    for seat in (0, 2):
        assert 0.5 <= GAME.evaluate(state, seat) <= 1.0


def test_a_lead_counts_for_more_as_the_game_runs_out() -> None:
    """The fitted weight of a score lead grows from generation 2 to generation 10 (line 20: ten
    generations) at every player count: the same lead is surer late than early."""
    for players, table in value.WEIGHTS.items():
        assert len(table) == 10, players
        assert table[9][0] > table[1][0] > 0, (players, table)


def test_the_judge_predicts_held_out_games_better_than_the_scores_of_the_moment() -> None:
    """Fresh greedy self-play games (seeds far from the fitting ones): the fitted chances of who finishes
    ahead have a lower Brier score than the default judge (1 ahead on score now, 0.5 level, 0 behind)."""
    rows = collect(3, 12, seed=900_000, every=7, jobs=1)
    fitted = skill(chances(rows, value.WEIGHTS[3]), rows[:, 3])["brier"]
    default = skill(scores_now(rows), rows[:, 3])["brier"]
    assert fitted < 0.85 * default, (fitted, default)

"""The example plug-in (``examples/skald-tictactoe``): a game from outside the project plays,
reports and searches through the core without the core naming it.  Registered at run time here, so the
README's test command covers it uninstalled; CI also installs it and runs it from the command line."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import sim.games
from sim.runner import RunConfig, run
from tests.example_kit import register_example


@pytest.fixture
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> str:
    return register_example(monkeypatch)


def test_the_example_declares_a_game_that_follows_the_protocol(tictactoe: str) -> None:
    from sim.game import Game

    game = sim.games.get_game(tictactoe)
    assert isinstance(game, Game), "the rules follow sim.game.Game"
    state = game.new_state(2, {"first": 0}, None, 1)
    for cell in (0, 3, 1, 4):  # X takes 0 and 1, O takes 3 and 4
        game.apply(state, {game.to_move(state)[0]: cell})
    assert game.to_move(state) == (0,)
    game.apply(state, {0: 2})  # rule 3: X's top row wins at once
    assert game.is_terminal(state) and game.result(state).winners == [0]
    with pytest.raises(Exception, match="cannot mark"):
        game.apply(game.new_state(2, {"first": 0}, None, 1), {1: 0})  # rule 1: X moves first


def test_the_example_plays_reports_and_its_strategy_beats_random(tictactoe: str, tmp_path: Path) -> None:
    from analysis.report.report import write_report

    summary = run(RunConfig(game=tictactoe, players=2, games=200, strategies=["blocker", "random"],
                            seats="rotate", jobs=1, seed=5, progress=False, out=tmp_path / "run"))
    rate = {r["strategy"]: r["win_rate"] for r in summary.strategies}
    assert rate["blocker"] > rate["random"] + 0.2, rate
    page = write_report([tmp_path / "run"], tmp_path / "report.html")
    html = page.read_text()
    assert "Tic-tac-toe: the first player" in html and "tictactoe-first-player" in html


def test_search_plays_the_example(tictactoe: str, tmp_path: Path) -> None:
    """Nothing is hidden, so determinize is a copy; ismcts wins or draws against random."""
    mix = ["ismcts:iterations=200", "random"]
    summary = run(RunConfig(game=tictactoe, players=2, games=20, strategies=mix,
                            seats="rotate", jobs=1, seed=8, progress=False, out=tmp_path / "search"))
    rate = {r["strategy"].split(":")[0]: r["win_rate"] for r in summary.strategies}
    assert rate["ismcts"] > 0.6, rate
    game = sim.games.get_game(tictactoe)
    state = game.new_state(2, {"first": 0}, None, 1)
    assert game.to_dict(game.determinize(state, 1, np.random.default_rng(0))) == game.to_dict(state)
    assert "skald_tictactoe" in sys.modules

"""The fitted judge of every game (``strategies.value_model``): the fit recovers known weights from data of
known truth, the chances of i ahead of j and of j ahead of i sum to 1, and the packaged models load, match
their game's features and record how they were fitted and how well they predict held-out games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.games import GAMES, get_game
from strategies import value_model
from tests.play_kit import seeded_states
from tools import fit_value

OURS = sorted(name for name, plugin in GAMES.items() if plugin.game.startswith("sim.games."))


def _states(name: str, players: int, seed: int, every: int = 23) -> list[Any]:
    """Copies of the states of one seeded random game, every ``every`` decision points."""
    return seeded_states(name, players, seed, every)


def test_the_fit_recovers_known_weights() -> None:
    rng = np.random.default_rng(5)
    truth = np.array([1.5, -0.7, 0.3])
    diffs = rng.normal(size=(40_000, 3)) * np.array([1.0, 2.0, 3.0])
    ahead = (rng.random(len(diffs)) < value_model.chances(diffs, truth)).astype(float)
    fitted = value_model.fit(diffs, ahead, ridge=1e-6)
    assert np.allclose(fitted, truth, atol=0.06), fitted


def test_ties_count_half_and_the_ridge_keeps_separated_data_finite() -> None:
    diffs = np.array([[1.0], [2.0], [-1.0], [-2.0], [0.5], [-0.5]])
    ahead = np.array([1.0, 1.0, 0.0, 0.0, 0.5, 0.5])
    w = value_model.fit(diffs, ahead)
    assert np.isfinite(w).all() and 1.0 < w[0] < 60.0
    level = value_model.fit(np.array([[1.0], [-1.0], [2.0]]), np.array([0.5, 0.5, 0.5]))
    assert abs(level[0]) < 1e-6  # all ties: no reason to prefer either side


def test_a_stage_with_few_rows_takes_the_weights_of_all_stages() -> None:
    rng = np.random.default_rng(1)
    diffs = rng.normal(size=(3000, 2))
    stages = np.where(np.arange(3000) < 2990, 0, 1)  # stage 1: ten rows only
    ahead = (rng.random(3000) < value_model.chances(diffs, np.array([1.0, -1.0]))).astype(float)
    table = value_model.fit_stages(stages, diffs, ahead, count=3)
    pooled = [round(float(v), 5) for v in value_model.fit(diffs, ahead)]
    assert table[1] == pooled and table[2] == pooled and table[0] != pooled


def test_utilities_from_strengths() -> None:
    z = [0.3, -1.2, 2.0, 0.0]
    rank = value_model.utilities_of(z, "rank")
    win = value_model.utilities_of(z, "win")
    assert sum(rank) == pytest.approx(len(z) / 2)  # each pair shares one unit of "ahead"
    assert sum(win) == pytest.approx(1.0)
    assert max(range(4), key=rank.__getitem__) == max(range(4), key=win.__getitem__) == 2
    two = value_model.utilities_of([0.4, -0.1], "win")
    assert two == pytest.approx(value_model.utilities_of([0.4, -0.1], "rank"))  # the same at two players


@pytest.mark.parametrize("name", OURS)
def test_the_packaged_model_loads_and_records_its_fit_and_held_out_scores(name: str) -> None:
    model = value_model.load(name)
    assert model is not None, f"no packaged model of {name}"
    module = value_model.feature_module(name)
    assert model.features == tuple(module.FEATURES) and model.stages == module.STAGES
    game = get_game(name)
    doc = json.loads(value_model.path_of(name).read_text())
    fitted = doc["fitted"]
    assert fitted["command"].startswith("python -m tools.fit_value " + name)
    for key in ("strategy", "games", "test_games", "seed", "every"):
        assert key in fitted, key
    assert set(doc["weights"]) == {str(p) for p in fitted["players"]}
    assert {int(p) for p in doc["weights"]} <= set(range(game.min_players, game.max_players + 1))
    numbers = sum(len(row) for rows in doc["weights"].values() for row in rows)
    assert numbers <= 400, "a small model"
    for players in fitted["players"]:
        held = doc["held_out"][str(players)]
        assert held["test_rows"] > 0
        for judge in ("model", "scores_now"):
            assert 0 < held[judge]["brier"] < 1 and held[judge]["log_loss"] > 0
        assert held["model"]["brier"] < held["scores_now"]["brier"], "the model predicts better"


@pytest.mark.parametrize("name", OURS)
def test_chances_of_i_ahead_of_j_and_j_ahead_of_i_sum_to_one(name: str) -> None:
    model = value_model.load(name)
    assert model is not None
    game = get_game(name)
    for players in (game.min_players, min(game.max_players, 4)):
        for state in _states(name, players, seed=3 + players)[:6]:
            for i in range(players):
                for j in range(players):
                    if i != j:
                        total = model.ahead(state, i, j, players) + model.ahead(state, j, i, players)
                        assert total == pytest.approx(1.0)
            for kind in value_model.KINDS:
                worth = model.utilities(state, players, kind)
                assert all(0.0 <= w <= 1.0 for w in worth)


def test_save_writes_what_load_reads(tmp_path: Path) -> None:
    doc = json.loads(value_model.path_of("knarr").read_text())
    out = tmp_path / "deep" / "knarr.json"
    value_model.save(out, doc)
    assert json.loads(out.read_text()) == doc
    assert value_model.load("knarr", str(out)) == value_model.load("knarr")
    assert [p.name for p in out.parent.iterdir()] == ["knarr.json"]  # no temporary file left


def test_the_fitting_tool_writes_a_model_that_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "knarr.json"
    fit_value.main(
        ["knarr", "--players", "2", "--games", "4", "--test-games", "2", "--seed", "3", "--out", str(out)]
    )
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert printed[0]["players"] == 2 and printed[0]["fit_rows"] > 0
    model = value_model.load("knarr", str(out))
    assert model is not None and set(model.weights) == {2}
    assert model.doc["fitted"]["command"].endswith(f"--out {out}")
    assert model.doc["fitted"]["test_seeds_from"] == 7

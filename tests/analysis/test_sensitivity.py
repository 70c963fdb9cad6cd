"""``skald sensitivity``: Morris's mu* is the known elementary effect of a linear model, the screen ranks a
planted influential value first (a synthetic model and a real toy run), is deterministic for any
``--jobs`` and across ``--resume``, finds the values the packaged data files mark reconstructed, and
refuses bad files with one line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analysis.sensitivity import engine, morris
from analysis.sensitivity import values as V
from analysis.sensitivity.engine import run_sensitivity
from analysis.sensitivity.spec import load_file, parse
from analysis.tune.check import read_docs
from sim.errors import SkaldError
from tests.cli_kit import refused
from tests.toy_game import HIGH

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- the screen alone


def _screen(model, k: int = 3, r: int = 12, levels: int = 4, seed: int = 1) -> morris.Summary:
    """Morris on ``model(unit coordinates) -> y``, the design and summary of ``analysis.sensitivity``."""
    plan = morris.design(k, r, levels, np.random.default_rng(seed))
    unit = np.asarray(plan.points, dtype=float) / (levels - 1)  # [r, k + 1, k]
    y = np.asarray([[model(x) for x in traj] for traj in unit])
    return morris.summarise(morris.effects(plan, y, k), np.random.default_rng(seed))


def test_mu_star_is_the_elementary_effect_of_a_linear_model() -> None:
    s = _screen(lambda x: 5 * x[0] + 0.1 * x[1] - 2 * x[2])
    assert np.allclose(s.mu_star, [5.0, 0.1, 2.0]) and np.allclose(s.mu, [5.0, 0.1, -2.0])
    assert np.allclose(s.sigma, 0.0) and np.all(s.counted == 12)
    assert np.allclose(s.mu_star_low, s.mu_star_high)  # no spread between trajectories: a point interval


def test_the_screen_ranks_a_planted_influential_value_first() -> None:
    rng = np.random.default_rng(7)
    s = _screen(lambda x: 5 * x[0] + 0.1 * x[1] + 0.2 * rng.standard_normal(), r=10)
    assert int(np.argmax(s.mu_star)) == 0
    assert s.mu_star_low[0] > max(s.mu_star_high[1], s.mu_star_high[2])  # the intervals part
    assert 4.0 < s.mu_star[0] < 6.0


def test_every_level_of_a_trajectory_is_on_the_grid_and_one_value_moves_per_step() -> None:
    plan = morris.design(5, 4, 6, np.random.default_rng(3))
    for traj, moved in zip(plan.points, plan.moved, strict=True):
        assert all(0 <= lv < 6 for p in traj for lv in p)
        for j, i in enumerate(moved):
            diff = [a - b for a, b in zip(traj[j + 1], traj[j], strict=True)]
            assert sorted(map(abs, diff)) == [0, 0, 0, 0, 3] and diff[i] != 0


# --------------------------------------------------------------------------- finding reconstructed values


def test_the_reconstructed_values_of_the_data_files_are_found_and_kinded() -> None:
    found = {f.name: f for f in V.find(read_docs("sim/games/mainland/data/mainland.toml"))}
    assert found["counts.plain"].kind == "number" and found["counts.plain"].target == "counts.plain.value"
    assert found["board.4"].kind == "scale" and found["board.4"].base == {"rows": 14, "cols": 14}
    assert found["cards[id=camp]"].kind is None  # a list of items: only declared alternatives vary it
    greenland = {f.name: f for f in V.find(read_docs("sim/games/greenland/data"))}
    assert greenland["hunt:hunt.alpha_dies_last"].kind == "switch"
    assert greenland["hunt:hunt.alpha_dies_last"].target == "hunt.toml:hunt.alpha_dies_last.value"
    assert V.scaled({"ore": 3, "wood": 2}, 0.5) == {"ore": 2, "wood": 1}  # halves round up


def test_values_the_game_refuses_are_left_out_with_its_reason() -> None:
    spec = parse(MAINLAND, "m")
    from sim.games import get_game

    checked = engine.check_extremes(spec, get_game("mainland"))
    names = [p.name for p in checked.parameters]
    assert names == ["board.2"]
    why = {n["name"]: n["why"] for n in checked.not_varied}
    assert "the cards carry 15 plain but counts.plain says 8" in why["counts.plain"]
    assert "give its alternatives" in why["cards[id=camp]"]


@pytest.mark.parametrize("game", ["graenaland", "greenland", "knarr", "mainland"])
def test_the_packaged_screens_parse(game: str) -> None:
    spec = load_file(f"analysis/sensitivity/{game}.toml")
    assert spec.game == game and spec.parameters
    assert spec.terms[0].kind == "even_seats"


# --------------------------------------------------------------------------- real runs

TOY = f"""
[sensitivity]
name = "toy"
game = "secretbid"
players = 2
seed = 5
games = 40
budget = 1000
seats = "fixed"
values = "declared"

[[values]]
kind = "rule"
rule = "rounds"

[[values]]
kind = "rule"
rule = "bonus"
low = 0.0
high = 1.0

[[objective]]
kind = "even_seats"
strategies = ["{HIGH}", "random"]
"""


def _doc(folder: Path) -> dict:
    return json.loads((folder / "sensitivity.json").read_text())


def test_a_toy_screen_ranks_the_value_that_moves_the_seat_verdict_first(
    tmp_path: Path, registered: str
) -> None:
    """Rounds (the hand size, toy_game.py) is how long a game is and reshuffles who wins; a bonus of 0 to 1
    point on a round won by a card of 1 to 12 almost never changes the winner and never the length.  Against
    the no-effect dummy (each trajectory's first point on fresh seeds) rounds is told apart on the length,
    where its effect is planted, and not on the seat verdict, where 40 games a point cannot tell its effect
    from the noise of a reshuffle: it can then only be a value the screen cannot tell, never one that could
    overturn the verdict."""
    doc = run_sensitivity(parse(TOY, "toy"), tmp_path / "s", progress=False)
    seat = doc["effects"]["seat verdict"]
    assert [r["value"] for r in seat] == ["rounds", "bonus"]
    assert seat[0]["mu_star_low"] > seat[1]["mu_star_high"]
    length = {r["value"]: r for r in doc["effects"]["game length"]}
    assert length["bonus"]["mu_star"] == 0.0 and length["rounds"]["mu_star"] > 2
    assert doc["games_spent"] <= 1000 and doc["trajectories"] == 6
    told = {m: {r["value"]: r["told_apart"] for r in rows} for m, rows in doc["effects"].items()}
    assert told["game length"] == {"rounds": True, "bonus": False}
    assert doc["noise"]["game length"]["mu_star"] == 0.0  # fresh seeds change no game's length
    assert doc["noise"]["seat verdict"]["mu_star"] > 0.0  # but do change who wins
    band = doc["noise"]["seat verdict"]
    assert band["family"] == 2 and band["correction"] == "holm"
    seat_told = told["seat verdict"]
    assert doc["could_overturn"]["seat verdict"] == [v for v in ("rounds", "bonus") if seat_told[v]]
    assert set(doc["cannot_tell"]["seat verdict"]) == {v for v in ("rounds", "bonus") if not seat_told[v]}
    assert (tmp_path / "s" / "sensitivity.html").read_text().count("<img") == 1


def test_jobs_one_and_two_give_the_same_screen(tmp_path: Path, registered: str) -> None:
    run_sensitivity(parse(TOY, "toy"), tmp_path / "one", jobs=1, progress=False)
    run_sensitivity(parse(TOY, "toy"), tmp_path / "two", jobs=2, progress=False)
    assert _doc(tmp_path / "one") == _doc(tmp_path / "two")


def test_a_resumed_screen_equals_an_uninterrupted_one(
    tmp_path: Path, registered: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_sensitivity(parse(TOY, "toy"), tmp_path / "whole", progress=False)
    real = engine.play_tasks

    def stop_halfway(tasks, jobs, on_done):  # type: ignore[no-untyped-def]
        real(tasks[: len(tasks) // 2], jobs, on_done)
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "play_tasks", stop_halfway)
    with pytest.raises(engine.SensitivityInterrupted):
        run_sensitivity(parse(TOY, "toy"), tmp_path / "cut", progress=False)
    assert not (tmp_path / "cut" / "sensitivity.json").exists()
    monkeypatch.setattr(engine, "play_tasks", real)
    with pytest.raises(SkaldError, match="not empty"):
        run_sensitivity(parse(TOY, "toy"), tmp_path / "cut", progress=False)
    run_sensitivity(parse(TOY, "toy"), tmp_path / "cut", resume=True, progress=False)
    assert _doc(tmp_path / "cut") == _doc(tmp_path / "whole")


def test_a_sobol_screen_ranks_the_same_value_first(tmp_path: Path, registered: str) -> None:
    text = TOY.replace("budget = 1000", 'budget = 700\nmethod = "sobol"').replace("games = 40", "games = 10")
    doc = run_sensitivity(parse(text, "toy"), tmp_path / "s", progress=False)
    assert doc["method"] == "sobol" and doc["samples"] == 16
    assert doc["effects"]["game length"][0]["value"] == "rounds"
    assert doc["effects"]["game length"][0]["total"] > 0.9


MAINLAND = """
[sensitivity]
name = "m"
game = "mainland"
players = 2
games = 10
budget = 400
exclude = ["board.3", "board.4"]

[[objective]]
kind = "even_seats"
strategies = ["greedy"]
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("budget = 400", "budget = 400\nspeed = 2"), "unknown key sensitivity.speed (allowed:"),
        (("games = 10", 'games = 10\nmethod = "fast"'), "sensitivity.method 'fast' is not allowed"),
        (("games = 10", "games = 10\nlevels = 3"), "sensitivity.levels must be even"),
        (('exclude = ["board.3", "board.4"]', 'exclude = ["*"]'), "varies no value"),
        (('strategies = ["greedy"]', 'strategies = ["nobody"]'), "nobody"),
        (("players = 2", "players = 9"), "2 to 4 players, not 9"),
        (('["greedy"]', '["greedy"]\n[[values]]\npath = "board.9"'), "values[0].path 'board.9'"),
        (("budget = 400", "budget = 30"), "pays for 0 Morris trajectories over 1 values"),
    ],
)
def test_bad_files_give_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], message: str
) -> None:
    err = refused(capsys, tmp_path, "sensitivity", MAINLAND.replace(*change))
    assert err.startswith("error: ") and message in err, err

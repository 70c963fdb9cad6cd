"""Both commands work on every game: a small ``skald tune`` and a small ``skald sensitivity``
run end to end on each of the four games (random players, one rule switch each), with their outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_kit import cli

pytestmark = pytest.mark.slow


#: a two-way rule switch of each game (``skald rules GAME``)
SWITCH = {"mainland": "castle_needs_overlap", "graenaland": "victory_cards", "greenland": "bribes",
          "knarr": "skali"}
PLAYERS = {"graenaland": 3}  # the fewest each game takes


def _file(table: str, game: str, head: str, varied: str) -> str:
    """A ``[table]`` file over the game's switch (``[[varied]]``), judged by a cheap game-length objective."""
    return f"""
[{table}]
name = "{game}-switch"
game = "{game}"
players = {PLAYERS.get(game, 2)}
seed = 3
{head}
[[{varied}]]
kind = "rule"
rule = "{SWITCH[game]}"

[[objective]]
kind = "game_length"
target = 100
strategies = ["random"]
"""


def tune_file(game: str) -> str:
    return _file("tune", game, "budget = 24\nfinalists = 2\nconfirm = 0.5\n", "parameters")


def screen_file(game: str) -> str:
    n = PLAYERS.get(game, 2)  # one seat block a point, two trajectories
    head = f'games = {n}\nbudget = {7 * n}\nseats = "rotate"\nvalues = "declared"\n'
    return _file("sensitivity", game, head, "values")


@pytest.mark.parametrize("game", sorted(SWITCH))
def test_tune_runs_on_every_game(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.toml").write_text(tune_file(game))
    code, _, err = cli(capsys, "tune", str(tmp_path / "t.toml"), "--out", str(tmp_path / "out"), "--quiet")
    assert code == 0, err
    doc = json.loads((tmp_path / "out" / "tune.json").read_text())
    assert doc["game"] == game and doc["games_spent"] <= 24
    assert sorted(c["rules"][SWITCH[game]] for c in doc["candidates"]) == [False, True]
    assert f"--rule {SWITCH[game]}=" in (tmp_path / "out" / "rules.txt").read_text()


@pytest.mark.parametrize("game", sorted(SWITCH))
def test_sensitivity_runs_on_every_game(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    (tmp_path / "s.toml").write_text(screen_file(game))
    out = str(tmp_path / "out")
    code, said, err = cli(capsys, "sensitivity", str(tmp_path / "s.toml"), "--out", out, "--quiet")
    assert code == 0, err
    doc = json.loads((tmp_path / "out" / "sensitivity.json").read_text())
    assert doc["game"] == game
    assert doc["trajectories"] == 2 and doc["games_spent"] <= 7 * PLAYERS.get(game, 2)
    assert [row["value"] for row in doc["effects"]["game length"]] == [SWITCH[game]]
    band = doc["noise"]["game length"]  # two trajectories: the signed-rank test cannot reach 5% (floor 2^-5)
    assert band["can_tell"] is False and band["trajectories_to_tell"] == 5
    assert "warning: 2 trajectories cannot tell any of the 1 values from noise" in said + err


def test_a_tune_whose_games_are_all_truncated_says_so_and_measures_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games cut at 30 decisions have no winner: excluded (and counted), so no seat gap is measured (null,
    valid JSON) and no finalist is tested against another."""
    text = tune_file("knarr").replace("budget = 24", "budget = 24\nmax_decisions = 30")
    text = text.replace('kind = "game_length"\ntarget = 100', 'kind = "even_seats"')
    (tmp_path / "t.toml").write_text(text)
    code, said, err = cli(capsys, "tune", str(tmp_path / "t.toml"), "--out", str(tmp_path / "out"), "--quiet")
    assert code == 0, err
    doc = json.loads((tmp_path / "out" / "tune.json").read_text())
    assert "NaN" not in (tmp_path / "out" / "tune.json").read_text()
    assert doc["excluded_games"] == doc["games_spent"] == 24
    assert all(c["objective"] is None and c["excluded"] == c["games"] for c in doc["candidates"])
    assert all(f["p_winner_better"] is None for f in doc["confirmation"]["finalists"])
    assert "excluded: 24 games truncated or errored" in said + err

"""tools.skill_cost: a search rung's cost, priced on the runs the rung it stands in for played."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tools import skill_cost


def manifest(folder: Path, name: str, game: str, strategies: list[str], games: int, decisions: int) -> None:
    run = folder / name
    run.mkdir(parents=True)
    doc = {
        "config": {"game": game, "players": len(strategies), "strategies": strategies},
        "totals": {"games": games, "decisions": decisions},
    }
    (run / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def study(tmp_path: Path) -> Path:
    (tmp_path / "study.toml").write_text("[study]\n", encoding="utf-8")
    # 100 decisions a game at 4 players: 25 a seat
    manifest(tmp_path, "m-learned-mirror", "mainland", ["learned"] * 4, 400, 40_000)
    manifest(tmp_path, "m-learned-vs-greedy", "mainland", ["learned"] + ["greedy"] * 3, 200, 20_000)
    manifest(tmp_path, "m-greedy-vs-learned", "mainland", ["greedy"] + ["learned"] * 3, 100, 10_000)
    manifest(tmp_path, "m-greedy-mirror", "mainland", ["greedy"] * 4, 800, 80_000)  # not the rung's
    manifest(tmp_path, "m-mixed", "mainland", ["learned", "greedy", "random", "random"], 50, 5_000)  # no cell
    manifest(tmp_path, "g-random-vs-learned", "greenland", ["random", "learned"], 60, 6_000)
    return tmp_path


def test_each_run_is_priced_for_the_seats_the_rung_held(study: Path) -> None:
    runs = skill_cost.priced_runs(study, "learned")
    assert sorted(r["run"] for r in runs["mainland"]) == [
        "m-greedy-vs-learned", "m-learned-mirror", "m-learned-vs-greedy"
    ]  # fmt: skip
    c = skill_cost.cost(runs["mainland"], ms=100.0)
    decisions = 400 * 25 * 4 + 200 * 25 * 1 + 100 * 25 * 3
    assert c["decisions"] == decisions and c["games"] == 700 and c["runs"] == 3
    assert math.isclose(c["cpu_hours"], decisions * 0.1 / 3600) and math.isclose(
        c["two_core_hours"], c["cpu_hours"] / 2
    )
    # at two players the rung holds one seat of a cell: 50 decisions a seat
    assert skill_cost.cost(runs["greenland"], ms=1000.0)["decisions"] == 60 * 50


def test_the_command_prints_a_line_a_game_and_refuses_bad_input(
    study: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert skill_cost.main([str(study), "--search", "mainland=ismcts:iterations=10@36"]) == 0
    out = capsys.readouterr().out
    assert "| mainland | `ismcts:iterations=10` | 36 | 3 | 700 |" in out
    for bad, said in (
        (["--search", "mainland=ismcts"], "give GAME=SPEC@MS"),
        (["--search", "mainland=ismcts@0"], "must be above 0"),
        (["--search", "knarr=ismcts@5"], "no finished knarr run with 'learned'"),
    ):
        with pytest.raises(SystemExit) as exit_:
            skill_cost.main([str(study), *bad])
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    with pytest.raises(SystemExit):
        skill_cost.main([str(study / "m-learned-mirror"), "--search", "mainland=ismcts@5"])
    assert "holds no study" in capsys.readouterr().err

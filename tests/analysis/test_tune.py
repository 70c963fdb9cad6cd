"""``skald tune``: the search finds planted optima, spends little on weak candidates, is deterministic for
any ``--jobs``, resumes to the same result, writes a data file ``skald run --data`` takes, and refuses bad
files with one line (exit 2)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from analysis.tune import engine
from analysis.tune import params as P
from analysis.tune import search as sh
from analysis.tune.engine import run_tune
from analysis.tune.spec import load_file, parse
from analysis.tune.tomlfile import dumps
from sim.errors import SkaldError
from tests.cli_kit import cli, refused
from tests.toy_game import HIGH

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- the search alone


def synthetic(true: list[float], noise: float = 0.3):
    """A play/score pair with a known objective: candidate c's estimate after n games is true[c] plus
    noise that shrinks as 1/sqrt(n) (the same draw for a candidate and game count: common seeds)."""
    games: dict[int, int] = {}

    def play(cands: list[int], n: int) -> None:
        for c in cands:
            games[c] = max(games.get(c, 0), n)

    def score(c: int, n: int) -> float:
        rng = np.random.default_rng([c, n])
        return true[c] + noise * rng.standard_normal() / np.sqrt(n)

    return play, score, games


def test_successive_halving_finds_the_planted_minimum_and_spends_little_on_weak_candidates() -> None:
    true = [1.0 + 0.05 * ((7 * c) % 27) for c in range(27)]
    true[13] = 0.2  # the planted optimum
    schedule = sh.plan(27, budget=2000, eta=3, finalists=3, runs=1, block=1)
    play, score, games = synthetic(true)
    rungs = sh.halve(list(range(27)), schedule, play, score)
    finalists = sh.finalists(rungs, 3)
    assert finalists[0] == 13
    assert sum(games.values()) <= 2000
    dropped_first = [c for c in range(27) if c not in rungs[1].candidates]
    assert len(dropped_first) == 27 - schedule.survivors[1] == 18
    assert {games[c] for c in dropped_first} == {schedule.games[0]}
    assert all(games[c] == schedule.games[-1] > 2 * schedule.games[0] for c in finalists)
    weak = [games[c] for c in range(27) if c not in finalists]
    assert np.mean(weak) <= 0.5 * min(games[c] for c in finalists)


def test_schedule_fits_the_budget_and_refuses_one_too_small() -> None:
    schedule = sh.plan(36, budget=42_000, eta=3, finalists=3, runs=2, block=1)
    assert schedule.survivors == (36, 12, 4)
    assert schedule.cost <= 42_000 and schedule.games[1] == 3 * schedule.games[0]
    with pytest.raises(SkaldError, match="too small"):
        sh.plan(36, budget=100, eta=3, finalists=3, runs=2, block=3)


# --------------------------------------------------------------------------- addressing data


def test_paths_address_keys_positions_and_entries() -> None:
    doc = {
        "layout": {"3": {"start": [["a", "b"], ["c", "d"]], "reason": "r"}},
        "pieces": [{"id": "U1", "village": {"grain": 2}}, {"id": "T35", "village": {"grain": 3}}],
    }
    _, steps = P.parse_path("pieces[id=T35].village.grain")
    assert P.get(doc, steps) == 3
    _, steps = P.parse_path("layout.3.start[1]")
    assert P.get(doc, steps) == ["c", "d"]
    _, steps = P.parse_path("layout.3")
    P.put(doc, steps, {"start": [["x", "y"]]})
    assert doc["layout"]["3"] == {"start": [["x", "y"]], "reason": "r"}  # a table updates the keys it names
    assert P.permute([1, 2, 3], (2, 0, 1)) == [3, 1, 2]
    with pytest.raises(P.PathError, match="no key 'nope'"):
        P.get(doc, P.parse_path("layout.nope")[1])


def test_the_toml_writer_reads_back_every_packaged_data_file() -> None:
    files = sorted(Path("sim/games").glob("*/data/*.toml"))
    assert len(files) >= 4
    for file in files:
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
        assert tomllib.loads(dumps(doc, ["a header"])) == doc, file


# --------------------------------------------------------------------------- tunes of real games

TOY = f"""
[tune]
name = "toy-length"
game = "secretbid"
players = 2
seed = 3
budget = 240
finalists = 2

[[parameters]]
kind = "rule"
rule = "rounds"

[[parameters]]
kind = "rule"
rule = "bonus"
values = [0.0, 1.0, 2.0]

[[objective]]
kind = "game_length"
strategies = ["random"]
target = 6

[[objective]]
kind = "even_seats"
strategies = ["{HIGH}", "random"]
weight = 0.01
"""


def _doc(folder: Path) -> dict:
    doc = json.loads((folder / "tune.json").read_text())
    doc.pop("command")
    return doc


def test_a_toy_tune_finds_the_planted_game_length(tmp_path: Path, registered: str) -> None:
    """Two players bid once per round each (toy_game.py): 6 decisions is ``rounds = 3`` exactly."""
    result = run_tune(parse(TOY, "toy"), tmp_path / "t", progress=False)
    winner = next(c for c in result.candidates if c.index == result.confirmation["winner"])
    assert winner.rules["rounds"] == 3
    assert result.state.spent() <= 240
    doc = _doc(tmp_path / "t")
    assert {c["parameter"]: c["after"] for c in doc["changes"]}["rounds"] == 3
    assert "--rule rounds=3" in (tmp_path / "t" / "rules.txt").read_text()
    assert (tmp_path / "t" / "tune.html").read_text().count("<img") == 1


def test_jobs_one_and_two_give_the_same_tune(tmp_path: Path, registered: str) -> None:
    run_tune(parse(TOY, "toy"), tmp_path / "one", jobs=1, progress=False)
    run_tune(parse(TOY, "toy"), tmp_path / "two", jobs=2, progress=False)
    assert _doc(tmp_path / "one") == _doc(tmp_path / "two")


def test_a_resumed_tune_equals_an_uninterrupted_one(
    tmp_path: Path, registered: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_tune(parse(TOY, "toy"), tmp_path / "whole", progress=False)
    calls = {"n": 0}
    real = engine.Player._play

    def stop_after_two(self, tasks, add):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            real(self, tasks[: len(tasks) // 2], add)
            raise KeyboardInterrupt
        real(self, tasks, add)

    monkeypatch.setattr(engine.Player, "_play", stop_after_two)
    with pytest.raises(engine.TuneInterrupted):
        run_tune(parse(TOY, "toy"), tmp_path / "cut", progress=False)
    assert not (tmp_path / "cut" / "tune.json").exists()
    monkeypatch.setattr(engine.Player, "_play", real)
    with pytest.raises(SkaldError, match="not empty"):
        run_tune(parse(TOY, "toy"), tmp_path / "cut", progress=False)
    run_tune(parse(TOY, "toy"), tmp_path / "cut", resume=True, progress=False)
    assert _doc(tmp_path / "cut") == _doc(tmp_path / "whole")


MAINLAND = """
[tune]
name = "mainland-hand"
game = "mainland"
players = 2
seed = 1
budget = 60
finalists = 2
confirm = 0.4

[[parameters]]
kind = "data"
path = "setup.hand_size.value"
values = [4, 6]

[[objective]]
kind = "even_seats"
strategies = ["greedy"]
"""


def test_the_best_data_file_runs_with_skald_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.toml").write_text(MAINLAND)
    code, out, err = cli(capsys, "tune", str(tmp_path / "m.toml"), "--out", str(tmp_path / "t"), "--quiet")
    assert code == 0, err
    best = tmp_path / "t" / "best.toml"
    doc = json.loads((tmp_path / "t" / "tune.json").read_text())
    assert tomllib.loads(best.read_text())["setup"]["hand_size"]["value"] == doc["changes"][0]["after"]
    code, _, err = cli(
        capsys,
        "run",
        "mainland",
        "--players",
        "2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--quiet",
        "--strategies",
        "greedy",
        "--data",
        str(best),
        "--out",
        str(tmp_path / "run"),
    )
    assert code == 0, err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("budget = 60", "budget = 60\nspeed = 2"), "unknown key tune.speed (allowed:"),
        (('kind = "data"', 'kind = "dial"'), "parameters[0].kind 'dial' is not allowed (allowed: rule, data"),
        (("setup.hand_size.value", "setup.hand_sise.value"), "has no key 'hand_sise'"),
        (('kind = "even_seats"', 'kind = "fair"'), "objective[0].kind 'fair' is not allowed"),
        (('strategies = ["greedy"]', 'strategies = ["nobody"]'), "nobody"),
        (("players = 2", "players = 9"), "2 to 4 players, not 9"),
    ],
)
def test_bad_files_give_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], message: str
) -> None:
    err = refused(capsys, tmp_path, "tune", MAINLAND.replace(*change))
    assert err.startswith("error: tune file") and message in err, err


def test_the_packaged_graenaland_example_holds_the_36_layouts() -> None:
    tune = load_file("analysis/tunes/graenaland-three-player-layout.toml")
    picked = engine.choices(tune)
    assert len(picked) == 36
    from analysis.tune.check import base_docs
    from sim.games import get_game

    docs = base_docs(tune, get_game("graenaland"))
    rules, changed, _ = P.apply(
        tune.parameters, picked[2], lambda alt: base_docs(tune, get_game("graenaland"))
    )
    packaged = docs[None]["layout"]["3"]
    assert changed[None]["layout"]["3"] == packaged  # candidate 2 is the packaged layout, as the file says


def test_truncated_games_are_excluded_from_the_win_shares_not_scored_as_nobody_winning() -> None:
    """A truncated or errored game has no winner: the seat measure is over the completed games (NaN when
    there are none) and the excluded games are counted; the game length is over every game."""
    from analysis.tune import objectives as obj

    unit = obj.scale(3)
    won = [unit, 0, 0, unit, 100, 0]  # seat 0 wins (one strategy in every seat), 100 decisions
    cut = [0, 0, 0, 0, 2000, 1]  # truncated at 2000 decisions
    stats = obj.Stats.of(np.asarray([won, cut]), 3, 1, unit)
    assert stats.completed[0] == 1 and stats.failed is not None and stats.failed[0] == 1
    seats = obj.Term("even_seats", 1.0, (("greedy",) * 3,))
    assert seats.value({("greedy",) * 3: stats})[0] == pytest.approx(2 / 3)  # (1, 0, 0): not (1/2, 0, 0)
    length = obj.Term("game_length", 1.0, (("greedy",) * 3,), target=1050)
    assert length.value({("greedy",) * 3: stats})[0] == pytest.approx(0.0)
    none = obj.Stats.of(np.asarray([cut, cut]), 3, 1, unit)
    assert np.isnan(seats.value({("greedy",) * 3: none})[0])
    totals = obj.Stats.totals([unit, 0, 0, unit, 2100, 1], 2, 3, 1, unit)
    assert totals.completed[0] == 1

"""Faults: a strategy that raises or chooses illegally is recorded as an errored game, and the run goes on."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from sim.errors import PlayError
from sim.play import GameFailure
from tests.cli_kit import cli
from tests.toy_game import toy_run

pytestmark = pytest.mark.slow


BROKEN = "tests.broken_strategy"


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        ("Raiser", "raised RuntimeError: deliberate failure"),
        ("Stale", "illegal choice by strategy"),
        ("Garbage", "chose an option the game cannot read"),
    ],
)
def test_errored_games_are_recorded_and_the_run_goes_on(tmp_path: Path, cls: str, message: str) -> None:
    spec = f"{BROKEN}:{cls}:p=0.4:at=1"
    summary = toy_run(tmp_path / "r", strategies=[spec, "random", "random"], games=30, jobs=2)
    games = pl.read_parquet(tmp_path / "r" / "games")
    seats = pl.read_parquet(tmp_path / "r" / "seats")
    turns = pl.read_parquet(tmp_path / "r" / "turns")
    bad = games.filter(pl.col("errored"))
    assert 0 < bad.height < games.height == 30
    assert summary.errored == bad.height and message in (summary.first_error or "")
    assert bad["truncated"].all() and bad["winner"].is_null().all()
    assert (bad["error_strategy"] == spec).all()
    for row in bad.iter_rows(named=True):
        assert message in row["error"]
        assert f"game seed {row['game_seed']}, turn {row['error_turn']}" in row["error"]
        assert f"at seat {row['error_seat']}" in row["error"]
        strategy = seats.filter((pl.col("game_id") == row["game_id"]) & (pl.col("seat") == row["error_seat"]))
        assert strategy["strategy"].to_list() == [spec]
        # the decisions made before the failing decision point are kept
        assert turns.filter(pl.col("game_id") == row["game_id"]).height == row["decisions"]
        assert row["decisions"] <= row["error_turn"]
    good = games.filter(~pl.col("errored"))
    assert good["error"].is_null().all() and good["error_seat"].is_null().all()
    assert not good["truncated"].any()
    errored_ids = bad["game_id"].to_list()
    assert seats.filter(pl.col("game_id").is_in(errored_ids))["win_share"].sum() == 0
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["totals"]["errored"] == bad.height
    assert manifest["config"]["on_error"] == "continue"


def test_the_games_schema_is_the_same_with_and_without_errors(tmp_path: Path) -> None:
    toy_run(tmp_path / "a", games=6)
    toy_run(tmp_path / "b", games=6, strategies=[f"{BROKEN}:Raiser", "random", "random"])
    a, b = pl.read_parquet(tmp_path / "a" / "games"), pl.read_parquet(tmp_path / "b" / "games")
    assert a.schema == b.schema
    assert {"errored", "error", "error_seat", "error_turn", "error_strategy"} <= set(a.columns)
    assert not a["errored"].any() and b["errored"].all()


def test_on_error_stop_fails_fast_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(GameFailure, match="deliberate failure") as info:
        toy_run(tmp_path / "r", strategies=[f"{BROKEN}:Raiser", "random", "random"], on_error="stop")
    assert isinstance(info.value, PlayError)
    assert info.value.seat == 0 and info.value.turn == 6
    assert list(tmp_path.iterdir()) == []


def test_cli_names_the_count_and_stops_with_on_error_stop(registered: str, tmp_path: Path, capsys) -> None:
    base = ["run", registered, "--players", "3", "--games", "6", "--jobs", "1", "--quiet"]
    base += ["--strategies", f"{BROKEN}:Raiser:p=0.5,random,random"]
    code, _, err = cli(capsys, *base, "--out", str(tmp_path / "r"))
    errored = pl.read_parquet(tmp_path / "r" / "games")["errored"].sum()
    assert code == 0 and errored > 0
    assert f"note: {errored} of 6 games errored" in err and "deliberate failure" in err
    code, _, err = cli(capsys, *base, "--out", str(tmp_path / "s"), "--on-error", "stop")
    assert code == 2 and err.count("\n") == 1 and "deliberate failure" in err
    assert not (tmp_path / "s").exists()
    code, _, err = cli(capsys, *base, "--out", str(tmp_path / "t"), "--on-error", "maybe")
    assert code == 2 and "unknown --on-error 'maybe' (allowed: continue, stop)" in err


def test_mainland_worker_processes_import_the_broken_strategy(tmp_path: Path, capsys) -> None:
    args = [
        "run",
        "mainland",
        "--players",
        "2",
        "--games",
        "8",
        "--jobs",
        "2",
        "--chunk-size",
        "2",
        "--quiet",
    ]
    args += ["--strategies", f"{BROKEN}:Garbage:p=0.5:at=3,random", "--out", str(tmp_path / "m")]
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    games = pl.read_parquet(tmp_path / "m" / "games")
    assert 0 < games["errored"].sum() < 8
    assert games.filter(pl.col("errored"))["error"].str.contains("cannot read").all()

"""skald replay, and clear errors for corrupt or foreign Parquet parts in a results folder."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.cli_kit import cli
from tests.toy_game import HIGH

pytestmark = pytest.mark.slow


@pytest.fixture
def toy_results(registered: str, tmp_path: Path, capsys) -> Path:
    out = tmp_path / "r"
    code, _, err = cli(
        capsys,
        "run",
        registered,
        "--players",
        "3",
        "--games",
        "9",
        "--chunk-size",
        "3",
        "--jobs",
        "1",
        "--strategies",
        f"{HIGH},random,tests.broken_strategy:Raiser:p=0.5",
        "--out",
        str(out),
        "--quiet",
    )
    assert code == 0, err
    return out


def test_replay_prints_every_decision_and_matches(toy_results: Path, capsys) -> None:
    games = pl.read_parquet(toy_results / "games")
    for row in games.iter_rows(named=True):
        code, out, err = cli(capsys, "replay", str(toy_results), "--game", str(row["game_id"]))
        assert code == 0, err
        lines = out.splitlines()
        assert (
            lines[0].startswith(f"game {row['game_id']} of ") and f"game seed {row['game_seed']}" in lines[0]
        )
        turn_lines = [line for line in lines if line.startswith("turn ")]
        assert len(turn_lines) == row["decisions"]
        assert all("bid round=" in line and "scores " in line for line in turn_lines)
        assert lines[-1] == f"ok: game {row['game_id']} matches its records ({row['decisions']} decisions)"
        if row["errored"]:
            assert lines[-2].startswith(f"errored at turn {row['error_turn']}: ")
        else:
            assert lines[-2].startswith("end: scores ")


def test_replay_of_changed_records_fails_with_exit_1(toy_results: Path, capsys) -> None:
    path = toy_results / "turns" / "part-00001.parquet"
    table = pq.read_table(path)
    bids = table["bid"].to_pylist()
    bids[4] += 1  # game 3 (the first of chunk 1), its fifth decision
    pq.write_table(table.set_column(table.schema.get_field_index("bid"), "bid", pa.array(bids)), path)
    code, out, err = cli(capsys, "replay", str(toy_results), "--game", "3")
    assert code == 1 and err.count("\n") == 1
    assert "error: game 3 differs from its records" in err and "turns: turn 4, column bid" in err
    assert out.count("\nturn ") >= 4  # it was printed before the check


@pytest.mark.parametrize("command", ["replay", "report"])
def test_corrupt_or_foreign_parts_name_the_file(
    toy_results: Path, tmp_path: Path, capsys, command: str
) -> None:
    def run() -> tuple[int, str]:
        args = (
            ["replay", str(toy_results), "--game", "0"]
            if command == "replay"
            else ["report", str(toy_results), "-o", str(tmp_path / "report.html")]
        )
        code, _, err = cli(capsys, *args)
        return code, err

    games = toy_results / "games" / "part-00000.parquet"
    good = games.read_bytes()
    games.write_bytes(good[: len(good) // 2])  # truncated by a crash
    code, err = run()
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"'{games}' is not a readable Parquet file" in err
    pq.write_table(pa.table({"x": [1, 2]}), games)  # some other tool's file
    code, err = run()
    assert code == 2 and err.count("\n") == 1
    assert f"'{games}' is not a games part of this run (missing game_id" in err
    assert not (tmp_path / "report.html").exists()


def test_replay_bad_input(toy_results: Path, tmp_path: Path, capsys) -> None:
    for args, message in (
        ([str(toy_results), "--game", "9"], "--game must be a game id from 0 to 8, not 9"),
        ([str(toy_results), "--game", "x"], "Invalid value for '--game'"),
        ([str(toy_results)], "Missing option '--game'"),
        ([str(tmp_path / "none"), "--game", "0"], "results folder"),
        ([str(toy_results / "games"), "--game", "0"], "no manifest.json in"),
    ):
        code, _, err = cli(capsys, "replay", *args)
        assert code == 2 and err.count("\n") == 1 and message in err, (args, err)


def test_replay_a_mainland_game(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m"
    code, _, err = cli(
        capsys,
        "run",
        "mainland",
        "--players",
        "3",
        "--games",
        "3",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        str(out),
        "--strategies",
        "greedy,builder,random",
        "--rule",
        "castle_needs_overlap=false",
    )
    assert code == 0, err
    code, text, err = cli(capsys, "replay", str(out), "--game", "2")
    assert code == 0, err
    assert " place round=" in text and " camp " in text
    assert text.splitlines()[-1].startswith("ok: game 2 matches")

"""The command line: clean one-line errors (exit 2), runs, listings and the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_kit import cli
from tests.toy_game import HIGH


def run_args(out: Path, *extra: str) -> list[str]:
    args = ["run", "secretbid", "--players", "3", "--games", "6", "--strategies", f"{HIGH},random,random"]
    args += ["--seed", "3", "--jobs", "1", "--out", str(out), *extra]
    return args


def test_run_writes_records_and_prints_a_summary(registered: str, tmp_path: Path, capsys) -> None:
    code, out, err = cli(capsys, *run_args(tmp_path / "r", "--rule", "bonus=1", "--chunk-size", "2"))
    assert code == 0, err
    assert "win share per strategy" in out and "random" in out
    assert len(list((tmp_path / "r" / "turns").glob("part-*.parquet"))) == 3
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["config"]["rules"]["bonus"] == 1.0


def test_rounding_notice(registered: str, tmp_path: Path, capsys) -> None:
    """Once, with or without --quiet (tests/sim/test_cli_options.py has the details)."""
    for out, extra in (("r", ["--quiet"]), ("s", [])):
        code, _, err = cli(capsys, *run_args(tmp_path / out, "--games", "5", *extra))
        assert code == 0 and err.count("rounded up to 6") == 1


@pytest.mark.parametrize(
    "change",
    [
        ["--players", "9"],
        ["--games", "0"],
        ["--games", "many"],
        ["--jobs", "0"],
        ["--strategies", "no-such-strategy"],
        ["--strategies", "random,random"],
        ["--seats", "shuffle"],
        ["--rule", "nope=1"],
        ["--rule", "endless=maybe"],
        ["--rule", "endless"],
        ["--data", "/no/such/file.json"],
        ["--bogus-option"],
    ],
)
def test_bad_input_is_one_clean_line_and_exit_2(
    registered: str, tmp_path: Path, capsys, change: list[str]
) -> None:
    args = run_args(tmp_path / "out")
    if change[0] in args:
        args[args.index(change[0]) + 1] = change[1]
    else:
        args += change
    code, out, err = cli(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "Traceback" not in out + err
    assert list(tmp_path.iterdir()) == []


def test_existing_output_folder_is_refused(registered: str, tmp_path: Path, capsys) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("x")
    code, _, err = cli(capsys, *run_args(tmp_path / "out"))
    assert code == 2 and "--overwrite" in err
    assert (tmp_path / "out" / "keep.txt").exists()


def test_unknown_game_fails_even_with_help(capsys) -> None:
    for args in (["run", "nosuchgame"], ["run", "nosuchgame", "--help"], ["rules", "nosuchgame"]):
        code, _, err = cli(capsys, *args)
        assert code == 2 and err.startswith("error: unknown game 'nosuchgame'"), args


def test_missing_argument_is_a_usage_error(capsys) -> None:
    code, _, err = cli(capsys, "run")
    assert code == 2 and err.count("\n") == 1 and "Missing argument" in err


def test_listings(registered: str, capsys) -> None:
    code, out, _ = cli(capsys, "games")
    assert code == 0 and "secretbid" in out and "2-4" in out
    code, out, _ = cli(capsys, "rules", "secretbid")
    assert code == 0 and "endless" in out and "rounds" in out
    code, out, _ = cli(capsys, "strategies", "secretbid")
    assert code == 0 and "random" in out


def test_bench_json_lines(registered: str, capsys) -> None:
    args = ["bench", "secretbid", "--json", "--players", "2", "--games", "4", "--jobs", "1,2"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["strategy"], r["jobs"], r["kind"]) for r in rows] == [
        ("random", 1, "throughput"),
        ("random", 2, "throughput"),
        ("random", 1, "recording"),
    ]
    for row in rows:
        assert {"game", "players", "strategy", "jobs", "games_per_s", "decisions_per_s"} <= set(row)
        assert row["games"] >= 4 and row["games_per_s"] > 0
    assert rows[0]["speedup"] == 1.0
    assert rows[1]["efficiency"] == pytest.approx(rows[1]["speedup"] / 2, abs=0.002)
    recording = rows[2]
    assert recording["games_per_s_without_records"] > 0 and recording["recording_cost"] < 1
    assert recording["parquet_bytes_per_game"] == pytest.approx(
        sum(recording["parquet_bytes_per_game_by_table"].values()), abs=0.2
    )
    # by default random and the game's own best strategy, which the toy game lacks: no strategy skipped
    assert err == "note: copy cost not measured: secretbid has no copy(state)\n"


def test_console_entry_point_error_in_a_fresh_process(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sim.cli", "run", "nosuchgame", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "unknown game" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "x").exists()


def test_bench_recording_cost_is_the_median_over_chunk_pairs() -> None:
    """One chunk pair slowed by other load on a shared machine moves the median little (the mean of
    these pairs would be 0.21), and the quartiles show the spread."""
    from sim.bench import median_cost

    cost, low, high = median_cost([0.10, 0.12, 0.50, 0.11], total=0.2)
    assert cost == pytest.approx(0.115)
    assert low <= cost <= high and high > 0.12
    assert median_cost([], total=0.2) == (0.2, 0.2, 0.2)
    assert median_cost([0.13], total=0.2) == (0.13, 0.13, 0.13)

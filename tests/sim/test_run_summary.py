"""The summary at the end of `skald run`: win rates over the decided games, as the analysis computes them
(truncated and errored games left out, a k-way tie 1/k to each winner), with the analysis' 95% interval
clustered on the deal block, draws and truncated games stated, and a note when most games were cut off."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from analysis.questions.win_rates import seat_win_rates, strategy_win_rates
from sim.summary import RunSummary
from tests.cli_kit import cli
from tests.example_kit import register_example
from tests.toy_game import HIGH, toy_run

RAISER = "tests.broken_strategy:Raiser:p=0.3:at=2"


def flat(text: str) -> str:
    """``text`` with its runs of white space made one space (rich wraps lines at the console's width)."""
    return " ".join(text.split())


def assert_rows_match(rows: list[dict], analysed: pl.DataFrame, key: str, name: str) -> None:
    """The summary's rows hold the analysis' games, wins, rate, interval and blocks (what it excludes)."""
    by_key = {row[key]: row for row in analysed.iter_rows(named=True)}
    assert len(by_key) == len(rows)
    for row in rows:
        want = by_key[row[name]]
        excluded = (row["seat_games"] if "seat_games" in row else row["games"]) - row["decided"]
        assert (row["decided"], row["blocks"], excluded) == (want["games"], want["blocks"], want["excluded"])
        assert row["wins"] == pytest.approx(want["wins"], abs=1e-9)
        assert row["win_rate"] == pytest.approx(want["win_rate"], abs=1e-12)
        assert row["ci_low"] == pytest.approx(want["ci_low"], abs=1e-9)
        assert row["ci_high"] == pytest.approx(want["ci_high"], abs=1e-9)


@pytest.mark.parametrize("seats", ["rotate", "exhaustive", "random"])
def test_summary_rates_and_intervals_are_the_analysis(registered: str, tmp_path: Path, seats: str) -> None:
    """The summary's win rates were wins over every game, errored and truncated ones included, and had no
    interval; now they are `analysis.questions.win_rates`' (decided games, cluster Wilson on the blocks),
    whatever the chunks: chunks of 4 and 5 cut the blocks of 3 (rotate) and 6 (exhaustive) games apart."""
    strategies = [RAISER, "random", HIGH]
    summary = toy_run(tmp_path / "r", strategies=strategies, games=30, seats=seats, chunk_size=4)
    assert 0 < summary.errored < summary.games and summary.decided == summary.games - summary.errored
    assert_rows_match(summary.strategies, strategy_win_rates(tmp_path / "r"), "strategy", "strategy")
    assert_rows_match(summary.seats, seat_win_rates(tmp_path / "r"), "seat", "seat")
    other = toy_run(tmp_path / "s", strategies=strategies, games=30, seats=seats, chunk_size=5, jobs=2)
    for mine, theirs in zip(summary.strategies + summary.seats, other.strategies + other.seats, strict=True):
        assert (mine["ci_low"], mine["ci_high"], mine["blocks"]) == (theirs["ci_low"], theirs["ci_high"],
                                                                      theirs["blocks"])
    totals = json.loads((tmp_path / "r" / "manifest.json").read_text())["totals"]
    assert totals["strategies"] == summary.strategies and totals["seats"] == summary.seats
    assert totals["win_share_by_strategy"][HIGH] == summary.strategies[2]["win_rate"]


def test_tictactoe_draws_are_stated_and_split(tmp_path: Path, capsys, monkeypatch) -> None:
    """`skald run tictactoe --players 2 --strategies blocker,random`: its 36 draws of 200 were folded
    into "wins 174.0" without a word; the summary now counts the draws and says how they were split."""
    game = register_example(monkeypatch)
    args = ["run", game, "--players", "2", "--strategies", "blocker,random", "--games", "60", "--jobs", "1"]
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "t"))
    assert code == 0 and "note:" not in err, err
    games = pl.read_parquet(tmp_path / "t" / "games")
    draws = games.filter(pl.col("winners").list.len() == 2).height
    assert draws > 0
    text = flat(out)
    assert f"the {draws} draws count 1/2 to each seat" in text
    assert "Win rates over the 60 decided games (none left out)" in text
    assert "95% intervals: cluster Wilson (t, B-1 df), clustered by deal (base_game)" in text
    assert f"│ draws │ {draws} │" in text


def test_an_all_truncated_run_says_no_game_finished(registered: str, tmp_path: Path, capsys) -> None:
    """Every game cut off at --max-decisions: every win rate was 0.000 with no warning.  Now the rates
    are "-", the summary says no game finished and a closing note (even with --quiet) says to raise
    --max-decisions."""
    args = ["run", registered, "--players", "3", "--games", "6", "--rule", "endless=true"]
    args += ["--max-decisions", "3", "--jobs", "1", "--strategies", "random"]
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "t"))
    assert code == 0, err
    text = flat(out)
    assert "No game finished: all 6 games were left out (6 truncated at --max-decisions 3, 0 errored)" in text
    assert "0.000" not in text and "│ random │ 0 │ 0.0 │ - │ - │" in text
    assert err.splitlines()[-1] + "\n" == (
        "note: 6 of 6 games (100%) were cut off at --max-decisions 3 before they ended: no game finished,"
        " and the win rates leave the cut-off games out (raise --max-decisions; secretbid's default is"
        " 1,000)\n"
    )
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "q"), "--quiet")
    assert code == 0 and out == "" and "no game finished" in err
    totals = json.loads((tmp_path / "q" / "manifest.json").read_text())["totals"]
    assert totals["win_share_by_strategy"] == {"random": None}


def summary_of(games: int, truncated: int, errored: int) -> RunSummary:
    return RunSummary(
        out=Path("r"), game="secretbid", players=3, games=games, games_requested=games, decisions=0,
        truncated=truncated, turns=0, wall_seconds=1.0, games_per_second=1.0, strategies=[], seats=[],
        manifest={}, errored=errored, max_decisions=10, default_max_decisions=1000,
    )


def test_the_closing_note_comes_when_most_games_were_cut_off() -> None:
    """More than half the games cut off at the cap: a note; half, or errored games (not cut off), none."""
    assert summary_of(10, 6, 0).closing_notes() == [
        "6 of 10 games (60%) were cut off at --max-decisions 10 before they ended: only 4 finished, and the"
        " win rates leave the cut-off games out (raise --max-decisions; secretbid's default is 1,000)"
    ]
    assert summary_of(10, 5, 0).closing_notes() == []
    assert summary_of(10, 9, 9).closing_notes() == []

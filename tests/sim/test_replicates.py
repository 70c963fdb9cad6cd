"""Replicates: each deal played again with the same game seed (setup and chance) and fresh strategy
generators, so that a deal's share of the outcome (its seed effect) can be measured.  Replicate 0 is the
game a run without replicates plays; the replicates of a deal share its ``base_game`` block."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data import study_file
from sim import seats
from sim.errors import SkaldError
from sim.resume import grow
from sim.seeding import streams
from tests.cli_kit import cli
from tests.toy_game import toy_config, toy_run


def test_a_block_holds_every_seating_of_every_replicate_of_one_deal() -> None:
    assert seats.block_size("rotate", 3, None, 2) == 6
    assert seats.block_size("random", 3, None, 4) == seats.block_size("fixed", 3, None, 4) == 4
    assert seats.round_games("rotate", 3, 7, None, 2) == 12
    placed = [
        (*seats.assign("rotate", 3, 1, g, None, 2), seats.replicate_of("rotate", 3, g, None, 2))
        for g in range(12)
    ]
    assert [base for base, _, _ in placed] == [0] * 6 + [1] * 6
    assert [rep for _, _, rep in placed] == [0, 0, 0, 1, 1, 1] * 2
    assert [order for _, order, _ in placed[:3]] == [order for _, order, _ in placed[3:6]]
    assert [seats.assign("fixed", 2, 1, g, None, 3)[0] for g in range(6)] == [0, 0, 0, 1, 1, 1]
    # one replicate: the assignment a run without replicates makes
    assert [seats.assign("rotate", 3, 1, g, None, 1) for g in range(6)] == [
        seats.assign("rotate", 3, 1, g) for g in range(6)
    ]


def test_a_replicate_keeps_the_deal_and_draws_fresh_strategy_generators() -> None:
    seq0, rngs0 = streams(123, 3)
    again, rngs_again = streams(123, 3, 0)
    seq1, rngs1 = streams(123, 3, 1)
    seq2, rngs2 = streams(123, 3, 2)
    assert (
        seq0.generate_state(2).tolist() == seq1.generate_state(2).tolist() == again.generate_state(2).tolist()
    )
    first = [r.integers(1 << 30) for r in rngs0]
    assert first == [r.integers(1 << 30) for r in rngs_again]
    draws = {tuple(r.integers(1 << 30) for r in rngs) for rngs in (rngs1, rngs2)}
    assert len(draws | {tuple(first)}) == 3


def test_replicate_zero_of_each_deal_is_the_game_a_run_without_replicates_plays(tmp_path: Path) -> None:
    once = toy_run(tmp_path / "once", games=12)
    twice = toy_run(tmp_path / "twice", games=24, replicates=2)
    assert once.games == 12 and twice.games == 24
    a = pl.read_parquet(tmp_path / "once" / "games").sort("game_id")
    b = pl.read_parquet(tmp_path / "twice" / "games").sort("game_id")
    # game (deal d, replicate r, seating k) is game_id (2d + r) * 3 + k
    zero = b.filter((pl.col("game_id") // 3) % 2 == 0)
    cols = ["base_game", "game_seed", "decisions", "winner"]
    assert zero.select(cols).to_dicts() == a.select(cols).to_dicts()
    # the replicates of a deal share its seed, and the random players' fresh generators change some games
    assert b.group_by("base_game").agg(pl.col("game_seed").n_unique())["game_seed"].max() == 1
    one = b.filter((pl.col("game_id") // 3) % 2 == 1).select("decisions", "winner").to_numpy()
    assert not np.array_equal(one, zero.select("decisions", "winner").to_numpy())
    turns_a = pl.read_parquet(tmp_path / "once" / "turns").filter(pl.col("game_id") == 0)
    turns_b = pl.read_parquet(tmp_path / "twice" / "turns").filter(pl.col("game_id") == 0)
    assert turns_a.drop("run").equals(turns_b.drop("run"))
    manifest = json.loads((tmp_path / "twice" / "manifest.json").read_text())
    assert manifest["config"]["replicates"] == 2
    assert "replicates" not in json.loads((tmp_path / "once" / "manifest.json").read_text())["config"]


def test_replicates_write_the_same_records_with_one_worker_and_two(tmp_path: Path) -> None:
    toy_run(tmp_path / "a", games=18, replicates=3, jobs=1)
    toy_run(tmp_path / "b", games=18, replicates=3, jobs=2)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.parquet"))
    assert files
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_a_run_with_other_replicates_is_not_grown_from_it(tmp_path: Path) -> None:
    toy_run(tmp_path / "run", games=12, replicates=2)
    with pytest.raises(SkaldError, match="replicates=2"):
        grow(toy_config(tmp_path / "run", games=24))
    grow(toy_config(tmp_path / "run", games=24, replicates=2))
    assert pl.read_parquet(tmp_path / "run" / "games").height == 24


def test_the_replay_of_a_replicate_matches_its_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    code, _, err = cli(
        capsys, "run", "mainland", "--players", "2", "--games", "4", "--strategies", "random",
        "--replicates", "2", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, err
    games = pl.read_parquet(out / "games").sort("game_id")
    assert games["base_game"].to_list() == [0, 0, 1, 1]
    code, printed, err = cli(capsys, "replay", str(out), "--game", "3")
    assert code == 0 and "matches its records" in printed + err


@pytest.mark.parametrize("value", ["0", "1001", "two"])
def test_bad_replicates_get_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    code, _, err = cli(
        capsys, "run", "mainland", "--games", "4", "--replicates", value, "--out", str(tmp_path / "r")
    )
    assert code == 2 and "replicates" in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_a_study_entrys_replicates_replay_the_deals_of_its_mirrors_only() -> None:
    text = """
[study]
name = "m"
games = 6
[[runs]]
game = "mainland"
players = 3
rungs = ["random", "greedy"]
replicates = 3
[[runs]]
name = "plain"
game = "mainland"
players = 3
strategies = ["random"]
replicates = 2
"""
    plan = {r.name: r.replicates for r in study_file.parse(text).plan()}
    assert plan == {
        "mainland-3p-random-mirror": 3, "mainland-3p-greedy-mirror": 3,
        "mainland-3p-random-vs-greedy": 1, "mainland-3p-greedy-vs-random": 1, "plain-3p": 2,
    }  # fmt: skip
    with pytest.raises(SkaldError, match=r"runs\[0\].replicates must be at least 1, not 0"):
        study_file.parse(text.replace("replicates = 3", "replicates = 0"), "m.toml")

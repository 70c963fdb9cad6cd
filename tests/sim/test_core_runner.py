"""The runner: the play loop, the records it writes and the run's validation."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from sim.errors import PlayError, SkaldError
from sim.play import play_game
from sim.runner import chunk_ranges
from sim.specs import parse_spec
from sim.tables import PartKey, TurnLog
from tests.toy_game import GAME, HIGH, Recorder, toy_run

RULES = {"rounds": 4, "endless": False, "bonus": 0.0}


def specs(*texts: str) -> list:
    return [parse_spec(t, GAME.name) for t in texts]


def test_game_runs_to_the_end_and_logs_one_row_per_decision() -> None:
    log = TurnLog()
    outcome = play_game(GAME, 3, RULES, GAME.load_data(None), 11, specs(HIGH, "random", "random"), 100, log)
    assert not outcome.truncated
    assert outcome.decisions == 12 == len(log)
    assert log.turn == list(range(12))
    assert log.seat == [0, 1, 2] * 4
    assert log.kind == ["bid"] * 12
    assert [f[0] for f in log.fields] == [r for r in range(4) for _ in range(3)]
    assert list(log.scores[-1]) == outcome.result.scores


def test_turn_table_numbers_each_games_rows_from_zero() -> None:
    """Game ids are kept per game (a game without rows adds none); the table repeats them per row and
    counts each game's turns from 0."""
    log = TurnLog()
    data, two = GAME.load_data(None), specs("random", "random")
    play_game(GAME, 2, RULES, data, 1, two, 100, log)
    log.tag(7)
    log.tag(8)  # no rows since the last tag
    play_game(GAME, 2, dict(RULES, rounds=2), data, 2, two, 100, log)
    log.tag(9)
    table = log.table(GAME.action_fields, 2, PartKey("r", GAME.name, "h"))
    assert table["game_id"].to_pylist() == [7] * 8 + [9] * 4
    assert table["turn"].to_pylist() == list(range(8)) + list(range(4))
    assert log.turn == table["turn"].to_pylist()


def test_truncation_at_max_decisions() -> None:
    rules = dict(RULES, endless=True)
    outcome = play_game(GAME, 3, rules, GAME.load_data(None), 11, specs("random", "random", "random"), 9)
    assert outcome.truncated
    assert outcome.decisions == 9


def test_simultaneous_movers_choose_from_views_taken_before_apply() -> None:
    Recorder.SEEN.clear()
    rec = "tests.toy_game:Recorder"
    play_game(GAME, 3, RULES, GAME.load_data(None), 5, specs(rec, rec, rec), 100)
    assert len(Recorder.SEEN) == 12
    for r in range(4):
        point = Recorder.SEEN[3 * r : 3 * r + 3]
        assert [seat for seat, _, _ in point] == [0, 1, 2]
        assert {view.round for _, view, _ in point} == {r}
        assert {view.hand_sizes for _, view, _ in point} == {(4 - r,) * 3}
        assert len({view.points for _, view, _ in point}) == 1
        assert all(view.hand == options and len(options) == 4 - r for _, view, options in point)


def test_a_strategy_that_reads_no_view_gets_none_and_the_same_game() -> None:
    """``reads_view = False`` (the random strategy) skips building the view, and nothing else changes."""
    Recorder.SEEN.clear()
    rec, blind = "tests.toy_game:Recorder", "tests.toy_game:BlindRecorder"
    seeing = play_game(GAME, 3, RULES, GAME.load_data(None), 5, specs(rec, rec, rec), 100)
    seen = list(Recorder.SEEN)
    Recorder.SEEN.clear()
    blinded = play_game(GAME, 3, RULES, GAME.load_data(None), 5, specs(rec, blind, rec), 100)
    assert [view is None for seat, view, _ in Recorder.SEEN] == [seat == 1 for seat, _, _ in seen]
    assert [(s, o) for s, _, o in Recorder.SEEN] == [(s, o) for s, _, o in seen]
    assert blinded.result.scores == seeing.result.scores
    assert parse_spec("random", GAME.name).make(0, None).reads_view is False


def test_illegal_choice_names_strategy_seat_seed_and_turn() -> None:
    with pytest.raises(PlayError) as info:
        play_game(
            GAME, 2, RULES, GAME.load_data(None), 77, specs("random", "tests.toy_game:Cheater:at=1"), 100
        )
    message = str(info.value)
    assert "'tests.toy_game:Cheater:at=1'" in message
    assert "seat 1" in message and "game seed 77" in message and "turn 3" in message
    assert isinstance(info.value, SkaldError)


def test_strategy_exception_names_strategy_seat_seed_and_turn() -> None:
    with pytest.raises(
        PlayError, match=r"'tests.toy_game:Crasher' at seat 0 raised RuntimeError: boom.*game seed 8, turn 4"
    ):
        play_game(GAME, 2, RULES, GAME.load_data(None), 8, specs("tests.toy_game:Crasher", "random"), 100)


def test_chunk_ranges_cover_the_games() -> None:
    ranges = chunk_ranges(10, 4)
    assert ranges == [(0, 0, 4), (1, 4, 8), (2, 8, 10)]


def test_jobs_1_and_2_write_byte_identical_parts(tmp_path: Path) -> None:
    a = toy_run(tmp_path / "a", jobs=1)
    b = toy_run(tmp_path / "b", jobs=2)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.parquet"))
    assert len(files) == 9  # 3 chunks x 3 tables
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    assert a.strategies == b.strategies and a.seats == b.seats
    assert not list(tmp_path.glob("*.partial-*"))


def test_records_and_manifest(tmp_path: Path) -> None:
    summary = toy_run(tmp_path / "out", games=10, rules={"bonus": "0.5"})
    assert summary.games == 12 and summary.games_requested == 10  # rotate: whole blocks of 3
    out = tmp_path / "out"
    games = pl.read_parquet(out / "games")
    seats = pl.read_parquet(out / "seats")
    turns = pl.read_parquet(out / "turns")
    assert games["game_id"].to_list() == list(range(12))
    assert games.schema["game_seed"] == pl.UInt64
    assert games["base_game"].to_list() == [i // 3 for i in range(12)]
    for block in games.partition_by("base_game"):  # rotate replays one seed per block
        assert block["game_seed"].n_unique() == 1
    assert games["rules_hash"].n_unique() == 1
    assert seats.columns[:10] == [
        "run",
        "game",
        "game_id",
        "seat",
        "strategy",
        "strategy_index",
        "score",
        "rank",
        "won",
        "win_share",
    ]
    assert seats.columns[10:] == ["rounds_won", "cards_left"]
    assert turns.columns == [
        "run", "game", "game_id", "turn", "seat", "kind", "round", "bid", "score", "scores"
    ]
    assert seats.group_by("game_id").agg(pl.col("win_share").sum())["win_share"].round(
        9
    ).unique().to_list() == [1.0]
    counts = seats.group_by("strategy_index", "seat").len()
    assert counts.height == 9 and counts["len"].unique().to_list() == [4]
    assert (turns["score"] == turns.select(pl.col("scores").list.get(pl.col("seat")))["scores"]).all()
    assert turns.group_by("game_id").len()["len"].unique().to_list() == [12]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["rules"] == {"rounds": 4, "endless": False, "bonus": 0.5}
    assert manifest["config"]["games"] == 12 and manifest["config"]["chunk_size"] == 4
    assert manifest["config"]["chunks"] == [[0, 0, 4], [1, 4, 8], [2, 8, 12]]
    assert manifest["totals"]["games"] == 12 and "wall_seconds" in manifest["timings"]
    assert set(manifest["versions"]) >= {"skald", "python", "numpy", "numba", "polars", "pyarrow", "joblib"}


def test_truncated_games_have_no_winner(tmp_path: Path) -> None:
    summary = toy_run(tmp_path / "t", games=3, rules={"endless": "yes"}, max_decisions=6)
    assert summary.truncated == 3
    games = pl.read_parquet(tmp_path / "t" / "games")
    assert games["truncated"].all() and games["winner"].is_null().all()
    assert games["winners"].list.len().to_list() == [0, 0, 0]
    assert pl.read_parquet(tmp_path / "t" / "seats")["win_share"].sum() == 0


def test_rules_hash_follows_rules_and_data(tmp_path: Path) -> None:
    toy_run(tmp_path / "a", games=3)
    toy_run(tmp_path / "b", games=3, rules={"bonus": 1})
    data = tmp_path / "deck.json"
    data.write_text(json.dumps({"deck": list(range(20, 32))}))
    toy_run(tmp_path / "c", games=3, data=data)
    hashes = {pl.read_parquet(tmp_path / x / "games")["rules_hash"][0] for x in "abc"}
    assert len(hashes) == 3
    manifest = json.loads((tmp_path / "c" / "manifest.json").read_text())
    assert manifest["config"]["data"]["path"] == str(data) and manifest["config"]["data"]["file"] == str(data)
    assert len(manifest["config"]["data"]["sha1"]) == 40


def test_existing_output_needs_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    toy_run(out, games=3)
    with pytest.raises(SkaldError, match="exists and is not empty"):
        toy_run(out, games=3)
    toy_run(out, games=6, overwrite=True)
    assert pl.read_parquet(out / "games").height == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_failed_run_leaves_no_output(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "out"
    with pytest.raises(PlayError):
        toy_run(out, strategies=["random", "tests.toy_game:Cheater", "random"], jobs=2, on_error="stop")
    assert not (tmp_path / "deep").exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 5}, "played by 2 to 4 players, not 5"),
        ({"strategies": ["random", "random"]}, "2 strategies given for 3 players"),
        ({"games": 0}, "--games must be at least 1"),
        ({"jobs": 0}, "--jobs must be -1 \\(all cores\\) or a number of workers from 1 up, not 0"),
        ({"jobs": -7}, "--jobs must be -1 .* not -7"),
        ({"strategies": ["random", " ", "random"]}, "--strategies: entry 2 of .* is empty"),
        ({"strategies": ["random", "nosuch"]}, "--strategies: entry 2: unknown strategy 'nosuch'"),
        ({"seats": "shuffle"}, "unknown seat mode 'shuffle'"),
        (
            {"rules": {"speed": "1"}},
            "unknown rule 'speed' for secretbid \\(allowed: rounds, endless, bonus\\)",
        ),
        ({"rules": {"endless": "maybe"}}, "bad value 'maybe' for rule 'endless'"),
        ({"rules": {"rounds": "9"}}, "bad value '9' for rule 'rounds' \\(allowed: 2, 3, 4\\)"),
        ({"rules": {"bonus": "x"}}, "bad value 'x' for rule 'bonus' \\(expected float\\)"),
        ({"data": "no/such/file.json"}, "data file 'no/such/file.json' not found"),
        ({"seed": -1}, "--seed must be between"),
        ({"max_decisions": 0}, "--max-decisions must be at least 1"),
        ({"strategies": ["tests.toy_game:Cheater:speed=3"]}, "unknown parameter"),
    ],
)
def test_bad_input_is_a_skald_error_and_writes_nothing(tmp_path: Path, overrides: dict, message: str) -> None:
    with pytest.raises(SkaldError, match=message):
        toy_run(tmp_path / "out", **overrides)
    assert list(tmp_path.iterdir()) == []


def test_unreadable_data_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    with pytest.raises(SkaldError, match="cannot read secret-bid data"):
        toy_run(tmp_path / "out", data=bad)
    assert not (tmp_path / "out").exists()

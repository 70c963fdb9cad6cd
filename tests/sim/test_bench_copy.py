"""``skald bench``'s copy row: what ``Game.copy`` costs beside the ``to_dict``/``from_dict`` round trip."""

from __future__ import annotations

import json

import pytest

from sim.bench import bench, measure_copy, sample_states
from sim.games import get_game
from sim.runner import make_plan
from tests.cli_kit import cli


def test_the_copy_row_times_copy_and_the_round_trip() -> None:
    """Every game has a cheap state copy, its cost per copy in skald bench (µs per copy and copies/s),
    much cheaper than to_dict/from_dict: both are measured."""
    plan, _ = make_plan("knarr", 4, ["random"], seats="fixed", seed=3)
    row = measure_copy(plan, 0.2, 1)
    assert row["kind"] == "copy" and row["games"] == 1 and row["states"] >= 30
    assert row["copies"] >= row["states"]
    assert row["copies_per_s"] == pytest.approx(1e6 / row["copy_us"], rel=0.01)
    assert row["round_trip_us"] > 0 and row["to_dict_us"] > 0 and row["from_dict_us"] > 0  # timed apart
    assert row["copy_speedup"] == pytest.approx(row["round_trip_us"] / row["copy_us"], rel=0.05)
    assert row["copy_speedup"] > 2  # much cheaper than the snapshot round trip (5-30x measured)
    # an iteration of search costs about one determinization beside its playout
    assert row["determinize_us"] is not None and row["determinize_us"] > 0


def test_sampled_states_span_the_game_and_are_independent() -> None:
    """The states timed run from the first decision point to the terminal one, each a copy of its own."""
    plan, _ = make_plan("mainland", 4, ["random"], seats="fixed", seed=3)
    game = get_game("mainland")
    states = sample_states(game, plan, 2)
    assert len(states) >= 40 and len({id(s.hands) for s in states}) == len(states)
    assert game.to_move(states[0]) and game.is_terminal(states[-1])
    assert states[0].round == 0 and any(game.is_terminal(s) for s in states[: len(states) // 2 + 1])


def test_bench_yields_one_copy_row_last() -> None:
    rows = list(bench("greenland", 4, strategies=["random"], jobs=[1], seconds=0.2, games=1, recording=False))
    assert [r["kind"] for r in rows] == ["throughput", "copy"]
    assert rows[-1]["game"] == "greenland" and rows[-1]["copy_us"] > 0


def test_a_game_without_copy_gets_a_note_not_a_row(registered: str, capsys) -> None:
    args = ["bench", registered, "--json", "--players", "2", "--games", "2", "--jobs", "1", "--no-recording"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert [json.loads(line)["kind"] for line in out.splitlines()] == ["throughput"]
    assert "copy cost not measured: secretbid has no copy(state)" in err


def test_every_bench_line_carries_the_shared_keys() -> None:
    """The command-line contract (shared/checks/contract.py): every `skald bench GAME --json` line has
    game, players, strategy, jobs, games_per_s and decisions_per_s, the copy row included (null rates:
    it measures no throughput)."""
    keys = {"game", "players", "strategy", "jobs", "games_per_s", "decisions_per_s"}
    rows = list(bench("knarr", 2, strategies=["random"], jobs=[1], seconds=0.2, games=2))
    assert rows and all(keys <= set(row) for row in rows), [sorted(keys - set(r)) for r in rows]
    (copy,) = [r for r in rows if r.get("kind") == "copy"]
    assert copy["games_per_s"] is None and copy["decisions_per_s"] is None and copy["strategy"] == "random"

"""Every number option of `skald run` is bounded to what the run can do (one line naming the range, exit 2,
nothing written), and the chunk plan is computed chunk by chunk, so a huge but allowed --games starts at
once with flat memory."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from sim.plan import MAX_DECISIONS, MAX_GAMES, ChunkPlan, prepare
from sim.resume import RunInterrupted, Workspace, partial_path
from sim.runner import ChunkSummary, run
from tests.cli_kit import cli
from tests.toy_game import toy_config

HUGE = "99999999999999999999999"
RANGE = "must be at least 1 and at most 1,000,000,000, not"


def run_args(out: Path, option: str, value: str) -> list[str]:
    """A small run with ``option`` set to ``value`` (``--players`` without ``--strategies``: the default
    strategies, one per seat, used to be made before the player count was checked)."""
    args = ["run", "secretbid", "--players", "3", "--games", "6", "--jobs", "1", "--out", str(out), "--quiet"]
    if option != "--players":
        args += ["--strategies", "random"]
    if option in args:
        args[args.index(option) + 1] = value
        return args
    return [*args, option, value]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--players", HUGE, f"secretbid is played by 2 to 4 players, not {HUGE}"),
        ("--games", HUGE, f"--games {RANGE} {HUGE}"),
        ("--games", str(MAX_GAMES + 1), f"--games {RANGE} 1000000001"),
        ("--games", "0", f"--games {RANGE} 0"),
        ("--seed", str(2**63), f"--seed must be between 0 and {2**63 - 1}, not {2**63}"),
        ("--jobs", HUGE, f"--jobs must be -1 (all cores) or a number of workers from 1 to 1,024, not {HUGE}"),
        ("--max-decisions", HUGE, f"--max-decisions {RANGE} {HUGE}"),
        ("--chunk-size", HUGE, f"--chunk-size {RANGE} {HUGE}"),
    ],
)
def test_every_number_option_of_run_is_bounded(
    registered: str, tmp_path: Path, capsys, option: str, value: str, message: str
) -> None:
    """`--players 99999999999999999999` was an OverflowError traceback and `--games 10**23` was accepted
    (10 GB of memory in 33 s, every chunk planned up front)."""
    code, _, err = cli(capsys, *run_args(tmp_path / "r", option, value))
    assert (code, err) == (2, f"error: {message}\n")
    assert list(tmp_path.iterdir()) == []


def test_bench_and_study_share_the_bound_on_games(registered: str, tmp_path: Path, capsys) -> None:
    code, _, err = cli(capsys, "bench", "secretbid", "--json", "--games", HUGE)
    assert (code, err) == (2, f"error: --games {RANGE} {HUGE}\n")
    code, _, err = cli(capsys, "study", "mainland-scores", "--games", HUGE, "--out", str(tmp_path / "s"))
    assert code == 2 and err.count("\n") == 1, err
    assert err.endswith(f"--games {RANGE} {HUGE}\n")
    assert list(tmp_path.iterdir()) == []
    assert MAX_DECISIONS >= 20_000  # above every game's own cap


def test_the_chunk_plan_is_computed_chunk_by_chunk() -> None:
    plan = ChunkPlan(10, 4)
    assert list(plan) == [(0, 0, 4), (1, 4, 8), (2, 8, 10)] and len(plan) == 3
    assert (plan[-1], plan[1:]) == ((2, 8, 10), [(1, 4, 8), (2, 8, 10)])
    with pytest.raises(IndexError):
        plan[3]
    tracemalloc.start()
    try:
        prep = prepare(toy_config(Path("unused"), games=MAX_GAMES, chunk_size=None, seats="fixed"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(prep.chunks) == 4_000_000 and prep.chunks[-1] == (3_999_999, 999_999_750, MAX_GAMES)
    assert peak < 2_000_000  # bytes: the plan of 4,000,000 chunks is not held


def test_a_run_of_the_most_games_starts_at_once_and_resumes_without_a_list_of_chunks(tmp_path: Path) -> None:
    """10**9 games: the first chunk is played at once (stopped there as by Ctrl-C), and --resume checks
    the interrupted folder without a table of its 4,000,000 chunks."""
    config = toy_config(tmp_path / "r", games=MAX_GAMES, chunk_size=None, seats="fixed")

    def stop(summary: ChunkSummary) -> None:
        raise KeyboardInterrupt

    start = time.perf_counter()
    with pytest.raises(RunInterrupted, match="interrupted after 1 of 4000000 chunks"):
        run(config, on_chunk=stop)
    assert time.perf_counter() - start < 30
    prep = prepare(config)
    plan = prep.plan
    tracemalloc.start()
    try:
        kept, notes = Workspace(partial_path(prep.out)).verify(
            prep.chunks, plan.players, plan.action_fields, plan.part_fields, plan.run_id
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert list(kept) == [0] and notes == []
    assert peak < 2_000_000

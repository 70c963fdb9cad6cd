"""Where the cost of recording goes, in µs per decision, part by part.

    .venv/bin/python -m tools.recording_split GAME [STRATEGY] [GAMES] [REPEATS]

Four players, every seat STRATEGY (default random), chunks of GAMES games (default 150, a large run's
chunk is up to 250), REPEATS chunks (default 4).  Each chunk is played once untimed (so that what the game
caches is equally warm for both timed passes), then without records and with them, in alternating order,
and the recorded pass is split into:

* ``record``: the game's ``record`` calls, timed one by one (the timer's own cost, measured on an empty
  call, is taken off);
* ``scores``: the game's ``scores`` calls, timed the same way;
* ``turn log``: the rest of the in-game cost: the runner's appends to the turn buffers and the games and
  seats rows (the recorded pass's play minus the bare pass, minus the two above);
* ``tables``: building the three Arrow tables at the end of the chunk (``RunPlan.part_tables``);
* ``parquet``: writing the three zstd parts (``write_part``).

All times are this process's CPU time (``time.process_time`` for the passes, ``perf_counter`` inside
them), so other programs on a shared machine move them less than the wall clock.  The printed share is
of the recorded rate, as ``skald bench`` reports ``recording_cost``: 1 - bare time / recorded time.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sim.plan import resolve_game
from sim.play import play_indexed
from sim.runner import make_plan
from sim.tables import TABLES, GameRows, TurnLog, part_name, write_part

PARTS = ("record", "scores", "turn log", "tables", "parquet")


class Timed:
    """A game whose ``record`` and ``scores`` add their time to ``spent`` (everything else is the game's)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.spent = {"record": 0.0, "scores": 0.0}
        self.calls = {"record": 0, "scores": 0}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def record(self, state: Any, seat: int, option: Any) -> Any:
        t = time.perf_counter()
        out = self._game.record(state, seat, option)
        self.spent["record"] += time.perf_counter() - t
        self.calls["record"] += 1
        return out

    def scores(self, state: Any) -> Any:
        t = time.perf_counter()
        out = self._game.scores(state)
        self.spent["scores"] += time.perf_counter() - t
        self.calls["scores"] += 1
        return out


def timer_cost(samples: int = 200_000) -> float:
    """Seconds one timed call adds beyond the call itself (two ``perf_counter`` reads and the sums)."""
    spent = {"x": 0.0}

    def empty() -> None:
        t = time.perf_counter()
        spent["x"] += time.perf_counter() - t

    def bare() -> None:
        return None

    u = time.process_time()
    for _ in range(samples):
        empty()
    timed = time.process_time() - u
    u = time.process_time()
    for _ in range(samples):
        bare()
    return max(0.0, (timed - (time.process_time() - u)) / samples)


def split(game_name: str, strategy: str = "random", games: int = 150, repeats: int = 4) -> dict[str, Any]:
    """Per decision: the bare cost and each part of recording's, in µs, and recording's share."""
    plan, _ = make_plan(game_name, 4, [strategy], seats="fixed", seed=42)
    game = resolve_game(plan.game_ref)
    timed = Timed(game)
    texts = [spec.text for spec in plan.specs]
    spent = dict.fromkeys(("bare", "recorded play", "tables", "parquet"), 0.0)
    decisions = 0
    with tempfile.TemporaryDirectory(prefix="skald-split-") as tmp:
        out = Path(tmp)
        for table in TABLES:
            (out / table).mkdir()
        warm_turns, warm_rows = TurnLog(), GameRows(plan.part_fields)  # first use: Arrow and Parquet start up
        play_indexed(plan, game, 10**9, warm_turns, warm_rows, texts)
        for table, data in plan.part_tables(warm_rows, warm_turns).items():
            write_part(data, out / table / part_name(repeats))
        for rep in range(repeats):
            ids = range(rep * games, (rep + 1) * games)
            for g in ids:  # untimed: warms the game's caches for both passes alike
                play_indexed(plan, game, g, None, None, texts)
            for recording in (False, True) if rep % 2 == 0 else (True, False):
                if not recording:
                    u = time.process_time()
                    for g in ids:
                        play_indexed(plan, game, g, None, None, texts)
                    spent["bare"] += time.process_time() - u
                    continue
                turns, rows = TurnLog(), GameRows(plan.part_fields)
                u = time.process_time()
                for g in ids:
                    decisions += play_indexed(plan, timed, g, turns, rows, texts).outcome.decisions
                spent["recorded play"] += time.process_time() - u
                u = time.process_time()
                tables = plan.part_tables(rows, turns)
                spent["tables"] += time.process_time() - u
                u = time.process_time()
                for table, data in tables.items():
                    write_part(data, out / table / part_name(rep))
                spent["parquet"] += time.process_time() - u
    overhead = timer_cost()
    record = timed.spent["record"] - overhead * timed.calls["record"]
    scores = timed.spent["scores"] - overhead * timed.calls["scores"]
    timers = 2 * overhead * (timed.calls["record"] + timed.calls["scores"])  # the wrapper's own calls too
    turn_log = spent["recorded play"] - spent["bare"] - record - scores - timers
    parts = {"record": record, "scores": scores, "turn log": turn_log,
             "tables": spent["tables"], "parquet": spent["parquet"]}
    recorded = spent["bare"] + sum(parts.values())
    return {
        "game": game_name,
        "strategy": strategy,
        "decisions": decisions,
        "bare_us": 1e6 * spent["bare"] / decisions,
        "parts_us": {k: 1e6 * v / decisions for k, v in parts.items()},
        "share": {k: v / recorded for k, v in parts.items()},
        "recording_cost": 1.0 - spent["bare"] / recorded,
    }


def main(argv: list[str]) -> None:
    if not argv or len(argv) > 4:
        raise SystemExit("usage: python -m tools.recording_split GAME [STRATEGY] [GAMES] [REPEATS]")
    game_name = argv[0]
    strategy = argv[1] if len(argv) > 1 else "random"
    games = int(argv[2]) if len(argv) > 2 else 150
    repeats = int(argv[3]) if len(argv) > 3 else 4
    found = split(game_name, strategy, games, repeats)
    print(f"{found['game']} {found['strategy']}: {found['decisions']} recorded decisions,"
          f" {found['bare_us']:.2f} µs a decision without records")
    for part in PARTS:
        print(f"  {part:9s} {found['parts_us'][part]:6.3f} µs  {found['share'][part]:6.1%}")
    print(f"  recording {sum(found['parts_us'].values()):6.3f} µs  {found['recording_cost']:6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Where a game's decisions go, by function: a cProfile of one chunk, as µs a decision.

    .venv/bin/python -m tools.profile_game graenaland random --games 100 --top 15
    SKALD_ENGINE=python .venv/bin/python -m tools.profile_game graenaland random   # the source engine

Plays a warm-up chunk, then ``--games`` games with every seat ``STRATEGY`` (four players, seats fixed, records
written as a run writes them) under the profiler, and prints the CPU seconds a game without the profiler
(a second, unprofiled chunk), then the functions with the most time of their own: calls a decision, own
µs a decision and inclusive µs a decision.  The profiler slows pure-Python code more than compiled code,
so read its µs as shares, and the unprofiled rate as the speed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

from sim.engines import engine_for
from sim.plan import resolve_game
from sim.runner import make_plan, simulate_chunk
from sim.tables import TABLES


def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="skald-profile-"))
    for table in TABLES:
        (folder / table).mkdir()
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("strategy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    plan, _ = make_plan(args.game, args.players, [args.strategy], seats="fixed", seed=42)
    simulate_chunk(plan, 0, 10**9, 10**9 + 3, _folder())  # warm-up: imports, caches
    cpu = time.process_time()
    simulate_chunk(plan, 1, 0, args.games, _folder())
    per_game = (time.process_time() - cpu) / args.games
    profile = cProfile.Profile()
    profile.enable()
    simulate_chunk(plan, 2, args.games, 2 * args.games, _folder())
    profile.disable()
    stats = pstats.Stats(profile)
    decisions = next(
        (calls for (_, _, name), (calls, *_rest) in stats.stats.items() if name == "legal_options"),  # type: ignore[attr-defined]
        0,
    )
    engine = engine_for(resolve_game(plan.game_ref))
    print(
        f"{args.game}, {args.strategy} in every seat, {engine} engine: {1000 * per_game:.2f} ms of CPU a game"
    )
    if not decisions:
        return
    each = 1e6 * per_game * args.games / decisions
    print(f"{decisions / args.games:.0f} decisions a game, {each:.2f} µs each")
    print("| function | calls a decision | own µs a decision | inclusive µs a decision |")
    print("|---|---|---|---|")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    for (file, line, name), (_, calls, own, inclusive, _) in rows[: args.top]:
        where = f"{Path(file).name}:{line} {name}" if line else name
        cells = (
            f"{calls / decisions:.2f}",
            f"{1e6 * own / decisions:.2f}",
            f"{1e6 * inclusive / decisions:.2f}",
        )
        print(f"| `{where}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

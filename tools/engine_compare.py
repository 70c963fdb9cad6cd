"""The compiled engine against the pure-Python one, in one sitting: rates and search cost, as ratios.

    .venv/bin/python -m tools.engine_compare graenaland --seconds 5 --search-decisions 150

For each engine (``SKALD_ENGINE=compiled``, then ``python``, then ``compiled`` again, so that a drift of
the machine's speed shows), it runs ``skald bench GAME --json --jobs 1 --no-copy`` (random and the best
scripted strategy, with the cost of recording) and times the default ``ismcts`` in seat 0 against the
best scripted strategy in the others over the first ``--search-decisions`` decisions of one game (ms per
searched decision, from the strategy's own telemetry).  It prints one Markdown table: decisions per CPU
second, recording's cost and ms per search decision for each engine, and the compiled engine's speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SEARCH = """
import json, sys
from sim.plan import make_plan
from sim.bench import play_for
from sim.specs import best_strategy
game, players, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
best = best_strategy(game) or "random"
seats = ["ismcts"] + [best] * (players - 1)
plan, _ = make_plan(game, players, seats, seats="fixed", seed=5, max_decisions=cap)
games, decisions, seconds, cpu, search = play_for(plan, 0, 1, 1e9, 1)
print(json.dumps({"searched": search[0], "ms": 1000 * search[2] / max(search[0], 1)}))
"""


def _run(engine: str, argv: list[str]) -> str:
    env = {**os.environ, "SKALD_ENGINE": engine}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])} failed under SKALD_ENGINE={engine}: {done.stderr[-2000:]}")
    return done.stdout


def sitting(game: str, engine: str, seconds: float, players: int, decisions: int) -> dict[str, float]:
    """One engine's figures: decisions per CPU second and recording's cost per strategy, search ms."""
    skald = os.path.join(os.path.dirname(sys.executable), "skald")
    bench = [skald, "bench", game, "--json", "--jobs", "1", "--no-copy", "--seconds", str(seconds)]
    out: dict[str, float] = {}
    for line in _run(engine, [*bench, "--players", str(players)]).splitlines():
        row = json.loads(line)
        if row.get("kind") == "throughput":
            out[f"{row['strategy']} decisions/CPU s"] = row["decisions_per_cpu_s"]
        elif row.get("kind") == "recording":
            out[f"{row['strategy']} recording"] = row["recording_cost"]
    if decisions:
        found = json.loads(_run(engine, [sys.executable, "-c", SEARCH, game, str(players), str(decisions)]))
        out["ismcts ms/decision"] = round(found["ms"], 1)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--search-decisions", type=int, default=150, help="0: no search timing")
    args = parser.parse_args(argv)
    runs = [
        (engine, sitting(args.game, engine, args.seconds, args.players, args.search_decisions))
        for engine in ("compiled", "python", "compiled")
    ]
    keys = list(runs[0][1])
    print("| measure | compiled | python | compiled again | speed-up |")
    print("|---|---|---|---|---|")
    for key in keys:
        a, p, b = (r[1].get(key) for r in runs)
        if a is None or p is None or b is None:
            continue
        mean = (a + b) / 2
        if "recording" in key:
            cells, ratio = (f"{100 * x:.0f}%" for x in (a, p, b)), ""
        elif "ms" in key:
            cells, ratio = (f"{x:,.1f}" for x in (a, p, b)), f"{p / mean:.2f}x"
        else:
            cells, ratio = (f"{x:,.0f}" for x in (a, p, b)), f"{mean / p:.2f}x"
        print(f"| {key} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    main()

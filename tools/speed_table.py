"""The README's speed table from one sitting: the peer, every game's ``skald bench``, the peer again.

    .venv/bin/python -m tools.speed_table --peer-python /tmp/peer-venv/bin/python [--seconds 5] \\
        [--out /tmp/speed.jsonl]

The peer (catanatron, see ``tools/peer_bench.py`` for its own virtual environment) is measured before
and after the games, so its drift over the sitting shows; the ratios use the mean of its two CPU rates.
Every game is benched as ``skald bench GAME --json --jobs 1`` does (four players, every seat the same
strategy, random and greedy, with the cost of recording and of a state copy).  All rows go to ``--out``
as JSON lines (the raw figures); the Markdown rows of the table are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sim.bench import bench

GAMES = ("mainland", "graenaland", "greenland", "knarr")
PEER = Path(__file__).with_name("peer_bench.py")


def peer_rows(python: str, seconds: float) -> list[dict[str, Any]]:
    """``tools/peer_bench.py``'s rows, run by the peer's own interpreter."""
    done = subprocess.run([python, str(PEER), "--seconds", str(seconds)], check=True, capture_output=True,
                          text=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


Rows = list[dict[str, Any]]


def peer_rate(before: Rows, after: Rows, strategy: str) -> tuple[float, float, float]:
    """The peer's ``strategy`` decisions per CPU second: (before, after, mean)."""
    rates = [next(r["decisions_per_cpu_s"] for r in rows if r.get("strategy") == strategy and "kind" not in r)
             for rows in (before, after)]
    return rates[0], rates[1], sum(rates) / 2


def markdown(rows: list[dict[str, Any]], peer: dict[str, float]) -> list[str]:
    """One table row per game and strategy (the throughput, recording and copy rows joined)."""
    lines = []
    for game in GAMES:
        copy = next((r for r in rows if r["game"] == game and r.get("kind") == "copy"), {})
        for strategy in ("random", "greedy"):
            mine = [r for r in rows if r["game"] == game and r.get("strategy") == strategy]
            speed = next(r for r in mine if r.get("kind") == "throughput")
            rec = next(r for r in mine if r.get("kind") == "recording")
            per_cpu = speed["decisions_per_cpu_s"]
            copy_cell = ""
            if strategy == "random" and "copy_us" in copy:
                copy_cell = f"{copy['copy_us']:.0f} ({copy['round_trip_us']:.0f})"
            lines.append(
                f"| {game} | {strategy} | {speed['games_per_s']:,.1f} | {speed['decisions_per_s']:,.0f} |"
                f" {per_cpu:,.0f} | {per_cpu / peer[strategy]:.2f}x | {rec['recording_cost']:.0%} |"
                f" {rec['parquet_bytes_per_game']:,.0f} | {copy_cell} |"
            )
    return lines


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", required=True, help="the peer's virtual environment's python")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", type=Path, default=Path("speed.jsonl"))
    args = parser.parse_args(argv)
    before = peer_rows(args.peer_python, args.seconds)
    rows: list[dict[str, Any]] = []
    for game in GAMES:
        for row in bench(game, 4, jobs=(1,), seconds=args.seconds):
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    after = peer_rows(args.peer_python, args.seconds)
    peer = {}
    for strategy in ("random", "greedy"):
        first, last, mean = peer_rate(before, after, strategy)
        peer[strategy] = mean
        print(f"peer {strategy}: {first:,.0f} then {last:,.0f} decisions per CPU s (mean {mean:,.0f})")
    copies = [r["copy_us"] for rows in (before, after) for r in rows if r.get("kind") == "copy"]
    print(f"peer Game.copy: {', '.join(f'{c:.0f}' for c in copies)} µs")
    tmp = args.out.with_name(f".{args.out.name}.tmp-{os.getpid()}")
    with tmp.open("w") as sink:
        peer_before = [{"peer": "before", **r} for r in before]
        peer_after = [{"peer": "after", **r} for r in after]
        for row in [*peer_before, *rows, *peer_after]:
            sink.write(json.dumps(row) + "\n")
    os.replace(tmp, args.out)
    print("\n".join(markdown(rows, peer)))


if __name__ == "__main__":
    main(sys.argv[1:])

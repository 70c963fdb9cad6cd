"""The peer's throughput, measured the way ``skald bench GAME --json --jobs 1`` measures ours: one
process, four players, every seat the same player, one untimed warm-up game, then games until the time
budget passes; decisions are the peer's plies (``Game.play_tick`` calls: one per action, as our
decisions are one per decision point of a seat).

The peer is catanatron (a popular Python Settlers of Catan simulator, PyPI ``catanatron``, MIT).  It
runs in a virtual environment of its own, never the project's:

    python3 -m venv /tmp/peer-venv
    /tmp/peer-venv/bin/pip install catanatron      # 3.2.1 measured
    /tmp/peer-venv/bin/python tools/peer_bench.py [--seconds 5] [--players 4] [--seed 42]

It prints one JSON object per line: per player, ``games_per_s``, ``decisions_per_s`` and
``decisions_per_cpu_s`` (per second of this process's CPU time, as ``skald bench`` gives); last, the
cost of the peer's ``Game.copy`` (µs per copy, over states all through seeded random games).

* ``random``: ``catanatron.models.player.RandomPlayer`` (a uniform pick among the playable actions);
* ``greedy``: ``catanatron.players.search.VictoryPointPlayer``, the package's one-ply greedy: it copies
  the game for every playable action, plays it and keeps an action with the most victory points
  (ties at random).  The ``ValueFunctionPlayer`` of ``catanatron_experimental`` is not on the
  package index this was measured from, so the one-ply greedy here is this one.

Like ours, nothing here runs in parallel: run it on an idle core, in the same sitting as ``skald
bench``, and compare ratios rather than absolute figures.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

from catanatron import Color, Game, RandomPlayer
from catanatron.models.player import Player
from catanatron.players.search import VictoryPointPlayer

COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)
PLAYERS: dict[str, type[Player]] = {"random": RandomPlayer, "greedy": VictoryPointPlayer}


def play(kind: type[Player], players: int, seed: int) -> int:
    """One game of ``players`` seats all played by ``kind``; its decisions (plies)."""
    game = Game([kind(color) for color in COLORS[:players]], seed=seed)
    game.play()
    return len(game.state.actions)


def measure(name: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Games/s and decisions/s of one player kind over ``seconds`` of play (after one warm-up game)."""
    kind = PLAYERS[name]
    play(kind, players, seed + 10**6)
    games = decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        decisions += play(kind, players, seed + games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    cpu = time.process_time() - cpu
    return {
        "peer": "catanatron",
        "version": version("catanatron"),
        "strategy": name,
        "player": kind.__name__,
        "players": players,
        "jobs": 1,
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 3),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_cpu_s": round(decisions / cpu, 1),
    }


def sample_games(players: int, seed: int, n_games: int, per_game: int) -> list[Game]:
    """Copies of states all through ``n_games`` seeded random games, about ``per_game`` each."""
    states: list[Game] = []
    for g in range(n_games):
        game = Game([RandomPlayer(color) for color in COLORS[:players]], seed=seed + g)
        path = [game.copy()]
        while game.winning_color() is None and game.state.num_turns < 1000:
            game.play_tick()
            path.append(game.copy())
        k = min(per_game, len(path))
        states.extend(path[round(i * (len(path) - 1) / max(1, k - 1))] for i in range(k))
    return states


def time_each(work: Callable[[Any], Any], items: Sequence[Any], seconds: float) -> float:
    """µs per item of ``work`` over ``items``, again and again until ``seconds`` pass."""
    done = 0
    start = time.perf_counter()
    while True:
        for item in items:
            work(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / done * 1e6


def measure_copy(players: int, seconds: float, seed: int) -> dict[str, Any]:
    """µs per ``Game.copy`` over 5 seeded random games' states (40 a game)."""
    states = sample_games(players, seed, 5, 40)
    copy_us = time_each(Game.copy, states, seconds / 4)
    return {
        "peer": "catanatron",
        "version": version("catanatron"),
        "kind": "copy",
        "players": players,
        "states": len(states),
        "copy_us": round(copy_us, 2),
        "copies_per_s": round(1e6 / copy_us, 1),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per player kind")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--strategies", default="random,greedy", help="of: " + ", ".join(PLAYERS))
    args = parser.parse_args(argv)
    for name in args.strategies.split(","):
        print(json.dumps(measure(name.strip(), args.players, args.seconds, args.seed)), flush=True)
    print(json.dumps(measure_copy(args.players, args.seconds, args.seed)), flush=True)


if __name__ == "__main__":
    main()

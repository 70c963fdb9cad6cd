"""Strength of a player (``ismcts`` by default; any spec, ``tuned`` or ``learned`` too) against a game's best
scripted strategy: seat-rotated matches of the player in one seat and the scripted strategy in the others,
its win share with its 95% interval clustered by ``base_game`` block
(``analysis.stats.estimates.cluster_proportion``: under ``--seats rotate`` the games of one block replay one
deal), and its cost (ms per decision and minutes per game).

    .venv/bin/python -m tools.search_strength mainland knarr --players 4 --games 40 --jobs 2 \
        --search ismcts:iterations=200

Each line printed (and, with ``--json FILE``, written) holds the game, players, games, the player's spec,
the opponent, the win share, its interval, whether the interval lies above 1/players, whether it meets
the strength bar (``meets_bar``: its low end at least 5 points above 1/players at 200 games or more, at
50 ms a decision or less where the player reports its ms), its ms per decision, minutes per game (wall
time x jobs / games) and the cost of 200 games on one core.  The opponent defaults to the game's best
scripted strategy (``sim.specs.best_strategy``).  The seed is fixed (``--seed``), so the figures can be
re-made.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.stats.estimates import cluster_proportion
from sim.runner import RunConfig, run
from sim.specs import best_strategy

#: the bar's sample: the interval must lie above 1/players at 200 games
BAR_GAMES = 200
#: the bar's margin: the interval's low end at least this far above parity (1/players)
BAR_MARGIN = 0.05
#: the bar's cost: at most this many ms per decision on one core
BAR_MS = 50.0


def block_totals(out: Path, strategy_index: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
    """(win shares, decided games, games left out) per ``base_game`` block of the strategy at
    ``strategy_index`` in the run at ``out`` (truncated and errored games are left out)."""
    seats = pl.read_parquet(out / "seats")
    games = pl.read_parquet(out / "games").select("game_id", "base_game", "truncated")
    rows = seats.filter(pl.col("strategy_index") == strategy_index).join(games, on="game_id")
    kept = rows.filter(~pl.col("truncated"))
    blocks = kept.group_by("base_game").agg(pl.col("win_share").sum().alias("y"), pl.len().alias("m"))
    blocks = blocks.sort("base_game")
    return blocks["y"].to_numpy(), blocks["m"].to_numpy(), rows.height - kept.height


def match(game: str, players: int, games: int, search: str, opponent: str | None, jobs: int, seed: int,
          out: Path) -> dict[str, Any]:
    """Play one seat-rotated match and measure it (see the module docstring)."""
    opponent = opponent or best_strategy(game) or "random"
    specs = [search] + [opponent] * (players - 1)
    summary = run(RunConfig(game=game, players=players, games=games, strategies=specs, seats="rotate",
                            jobs=jobs, seed=seed, out=out, progress=False))
    y, m, left_out = block_totals(out)
    est = cluster_proportion(y, m, left_out)
    row = summary.search[0] if summary.search else {}
    ms = row.get("ms_per_decision")
    minutes = summary.wall_seconds * jobs / games / 60
    return {
        "game": game, "players": players, "games": games, "search": search, "opponent": opponent,
        "win_share": round(float(est.estimate), 3), "low": round(float(est.low), 3),
        "high": round(float(est.high), 3), "blocks": int(est.clusters), "left_out": int(left_out),
        "above_parity": bool(float(est.low) > 1 / players),
        "meets_bar": bool(float(est.low) >= 1 / players + BAR_MARGIN and est.games >= BAR_GAMES
                          and (ms is None or ms <= BAR_MS)),
        "ms_per_decision": ms,
        "decisions_per_game": round(row.get("decisions", 0) / games, 1), "left_prior": row.get("left_prior"),
        "minutes_per_game": round(minutes, 2), "hours_for_200_one_core": round(minutes * BAR_GAMES / 60, 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="+", metavar="GAME")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--search", default="ismcts")
    parser.add_argument("--opponent", default=None, help="default: the game's best scripted strategy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--json", type=Path, default=None, help="append each line to this JSON-lines file")
    parser.add_argument("--out", type=Path, default=None,
                        help="keep each game's run in OUT/GAME (resumable; default: a temporary folder)")
    args = parser.parse_args(argv)
    for game in args.games_:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "run" if args.out is None else args.out / game
            row = match(game, args.players, args.games, args.search, args.opponent, args.jobs, args.seed, out)
        print(json.dumps(row), flush=True)
        if args.json is not None:
            with args.json.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()

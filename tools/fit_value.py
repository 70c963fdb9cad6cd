"""Fit a game's learned judge (``strategies.value_model``) on self-play games and say how well it predicts,
against the scores of the moment, on games it was not fitted on; write it as the game's packaged model.

    .venv/bin/python -m tools.fit_value knarr --games 600 --test-games 200 --seed 1000 --jobs 1

Plays ``--games`` self-play games of ``--strategy`` (default: the game's best scripted strategy) at every
player count of ``--players`` (default: all the game's counts).  At every ``--every``-th decision point it
takes each seat's ``seat_features`` and the ``stage`` (the game's ``value`` module) and, once the game is
over, who finished ahead of whom (by the result's ranks; a tie counts half).  For each player count and
stage it fits ``P(i ahead of j) = sigmoid(w . (x_i - x_j))`` (``value_model.fit``).  Then, on
``--test-games`` fresh games (seeds after the fitting ones), it prints the Brier score and log loss of
those chances beside the scores of the moment's (1 for the seat ahead on score now, 0.5 level, 0 behind),
and writes the model with how it was made to ``--out`` (default: ``strategies/values/GAME.json``; a
temporary file, then renamed).  A game cut off by the decision cap is left out.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from sim.games import get_game
from sim.play import play_game
from sim.rules import resolve
from sim.specs import best_strategy, parse_spec
from strategies import value_model


def game_rows(game_name: str, players: int, seed: int, every: int, strategy: str) -> list[list[float]]:
    """One self-play game: ``[stage, ahead, x_i - x_j ...]`` for every pair of seats ``i < j`` at every
    ``every``-th decision point (none for a game cut off by the decision cap)."""
    game = get_game(game_name)
    module = value_model.feature_module(game_name)
    assert module is not None, f"{game_name} has no value module"
    spec = parse_spec(strategy, game_name)
    snaps: list[tuple[int, list[tuple[float, ...]]]] = []
    count = [0]

    def observe(state: Any, choices: Any) -> None:
        count[0] += 1
        if choices is not None and count[0] % every == 0:
            snaps.append((module.stage(state), [module.seat_features(state, s) for s in range(players)]))

    outcome = play_game(
        game,
        players,
        resolve(game, {}),
        game.load_data(None),
        seed,
        [spec] * players,
        game.default_max_decisions,
        observe=observe,
    )
    if outcome.truncated or outcome.result is None:
        return []
    ranks = outcome.result.ranks
    rows = []
    for stage, feats in snaps:
        for i in range(players):
            for j in range(i + 1, players):
                ahead = 1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
                rows.append([float(stage), ahead, *(a - b for a, b in zip(feats[i], feats[j], strict=True))])
    return rows


def collect(
    game: str, players: int, games: int, seed: int, every: int, jobs: int, strategy: str
) -> np.ndarray:
    """``game_rows`` of ``games`` games with seeds ``seed``, ``seed + 1``, ... as one array."""
    if jobs == 1:
        per_game = [game_rows(game, players, seed + g, every, strategy) for g in range(games)]
    else:
        per_game = Parallel(n_jobs=jobs)(
            delayed(game_rows)(game, players, seed + g, every, strategy) for g in range(games)
        )
    width = 2 + len(value_model.feature_module(game).FEATURES)  # type: ignore[union-attr]
    return np.array([row for rows in per_game for row in rows], dtype=float).reshape(-1, width)


def fit_count(
    game: str, players: int, args: argparse.Namespace, strategy: str, stages: int
) -> tuple[list[list[float]], dict[str, Any]]:
    """The weights of one player count and their held-out scores."""
    train = collect(game, players, args.games, args.seed, args.every, args.jobs, strategy)
    test = collect(game, players, args.test_games, args.seed + args.games, args.every, args.jobs, strategy)
    table = value_model.fit_stages(train[:, 0], train[:, 2:], train[:, 1], stages, args.ridge)
    fitted = value_model.stage_chances(test[:, 0], test[:, 2:], table)
    held = {
        "fit_rows": len(train),
        "test_rows": len(test),
        "model": value_model.skill(fitted, test[:, 1]),
        "scores_now": value_model.skill(value_model.scores_now(test[:, 2]), test[:, 1]),
    }
    return table, held


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", default=None, help="default: every count")
    parser.add_argument("--games", type=int, default=600, help="fitting games per player count")
    parser.add_argument("--test-games", type=int, default=200, help="held-out games per player count")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--every", type=int, default=5, help="sample every k-th decision point")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--strategy", default=None, help="the self-play strategy (default: the best scripted)"
    )
    parser.add_argument("--ridge", type=float, default=value_model.RIDGE)
    parser.add_argument("--out", type=Path, default=None, help="default: strategies/values/GAME.json")
    args = parser.parse_args(argv)
    module = value_model.feature_module(args.game)
    if module is None:
        parser.error(f"{args.game} has no value module (sim/games/{args.game}/value.py)")
    game = get_game(args.game)
    strategy = args.strategy or best_strategy(args.game) or "random"
    counts = args.players or list(range(game.min_players, game.max_players + 1))
    weights, held = {}, {}
    for players in counts:
        weights[str(players)], held[str(players)] = fit_count(
            args.game, players, args, strategy, module.STAGES
        )
        print(json.dumps({"game": args.game, "players": players, **held[str(players)]}), flush=True)
    given = sys.argv[1:] if argv is None else argv
    doc = {
        "game": args.game,
        "features": list(module.FEATURES),
        "stages": module.STAGES,
        "weights": weights,
        "fitted": {
            "command": shlex.join(["python", "-m", "tools.fit_value", *given]),
            "strategy": strategy,
            "players": counts,
            "games": args.games,
            "test_games": args.test_games,
            "seed": args.seed,
            "test_seeds_from": args.seed + args.games,
            "every": args.every,
            "ridge": args.ridge,
        },
        "held_out": held,
    }
    out = args.out or value_model.path_of(args.game)
    value_model.save(out, doc)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

"""Fit the weights of Greenland's cut-playout judge (``sim.games.greenland.value``) and say how well it
predicts, against the scores of the moment, on games it was not fitted on.

    .venv/bin/python -m tools.fit_greenland_value --games 400 --test-games 200 --seed 1000 --jobs 2

Plays greedy self-play games at 2, 3 and 4 players; at every ``--every``-th decision point it takes each
seat's ``value.features`` (score, living tribesmen) and the generation, and at the end who finished ahead
of whom.  For every generation and player count it fits ``P(i ahead of j) = sigmoid(w . (x_i - x_j))``
(a binomial GLM without intercept, so the chances of i ahead of j and j ahead of i sum to 1, with a light
ridge penalty; a tie counts half) and prints the ``WEIGHTS`` table to paste into ``value.py``.  Then, on
``--test-games`` fresh games (seeds after the fitting ones), it prints the Brier score and log loss of those
chances beside the scores of the moment's (1 for the seat ahead now, 0.5 for a tie, 0 behind: the default
judge).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import statsmodels.api as sm
from joblib import Parallel, delayed

from sim.games import get_game
from sim.games.greenland import value
from sim.play import play_game
from sim.rules import resolve
from sim.specs import parse_spec

GENERATIONS = 10
#: the ridge penalty per row: late in a game the differences can separate who finishes ahead exactly,
#: where an unpenalised fit's weights run off to infinity
RIDGE = 1e-3


def pair_rows(players: int, seed: int, every: int) -> list[tuple[int, float, float, float]]:
    """One greedy self-play game: (generation, score difference, population difference, ahead) for every
    pair of living seats i < j at every ``every``-th decision point; ``ahead`` is 1 when i finished ahead
    of j, 0.5 level, 0 behind (a dead tribe finishes behind a living one)."""
    game = get_game("greenland")
    data = game.load_data(None)
    rules = resolve(game, {})
    spec = parse_spec("greedy", "greenland")
    snaps: list[tuple[int, list[tuple[float, float]], list[bool]]] = []
    count = [0]

    def observe(state: Any, choices: Any) -> None:
        count[0] += 1
        if choices is not None and count[0] % every == 0:
            snaps.append((state.generation, [value.features(state, s) for s in range(players)],
                          list(state.alive)))

    result = play_game(game, players, rules, data, seed, [spec] * players, game.default_max_decisions,
                       observe=observe).result
    assert result is not None
    final = result.scores
    survived = [part["survived"] > 0 for part in result.parts]
    rows = []
    for generation, feats, alive in snaps:
        for i in range(players):
            for j in range(i + 1, players):
                if not (alive[i] and alive[j]):
                    continue
                key_i, key_j = (survived[i], final[i]), (survived[j], final[j])
                ahead = 1.0 if key_i > key_j else 0.0 if key_i < key_j else 0.5
                rows.append((generation, feats[i][0] - feats[j][0], feats[i][1] - feats[j][1], ahead))
    return rows


def collect(players: int, games: int, seed: int, every: int, jobs: int) -> np.ndarray:
    """``pair_rows`` of ``games`` games with seeds ``seed``, ``seed + 1``, ... as one array."""
    per_game = Parallel(n_jobs=jobs)(delayed(pair_rows)(players, seed + g, every) for g in range(games))
    return np.array([row for rows in per_game for row in rows], dtype=float).reshape(-1, 4)


def fit(rows: np.ndarray) -> tuple[tuple[float, float], ...]:
    """(w_score, w_pop) per generation 1-10, fitted on ``rows`` (``collect``)."""
    weights = []
    for generation in range(1, GENERATIONS + 1):
        mine = rows[rows[:, 0] == generation]
        glm = sm.GLM(mine[:, 3], mine[:, 1:3], family=sm.families.Binomial())
        params = glm.fit_regularized(alpha=RIDGE, L1_wt=0.0).params  # ridge: no blow-up on separation
        weights.append((round(float(params[0]), 3), round(float(params[1]), 3)))
    return tuple(weights)


def chances(rows: np.ndarray, weights: Sequence[tuple[float, float]]) -> np.ndarray:
    """The fitted chance that i finishes ahead of j for every row (``value.ahead_chance`` on the row's
    differences, as ``evaluate`` computes it)."""
    return np.array([value.ahead_chance(weights[int(g) - 1], (score, pop), (0.0, 0.0))
                     for g, score, pop, _ in rows])


def scores_now(rows: np.ndarray) -> np.ndarray:
    """The default judge's chance: 1 ahead on score now, 0.5 level, 0 behind."""
    return np.where(rows[:, 1] > 0, 1.0, np.where(rows[:, 1] < 0, 0.0, 0.5))


def skill(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Brier score and log loss (chances clipped to [1e-6, 1 - 1e-6]) of chances ``p`` for outcomes ``y``."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return {"brier": round(float(np.mean((p - y) ** 2)), 4),
            "log_loss": round(float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))), 4)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=400, help="fitting games per player count")
    parser.add_argument("--test-games", type=int, default=200, help="held-out games per player count")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    table = {}
    for players in args.players:
        train = collect(players, args.games, args.seed, args.every, args.jobs)
        test = collect(players, args.test_games, args.seed + args.games, args.every, args.jobs)
        weights = table[players] = fit(train)
        print(json.dumps({"players": players, "fit_rows": len(train), "test_rows": len(test),
                          "fitted": skill(chances(test, weights), test[:, 3]),
                          "scores_now": skill(scores_now(test), test[:, 3])}))
    print("WEIGHTS = {")
    for players, weights in table.items():
        print(f"    {players}: {weights},")
    print("}")


if __name__ == "__main__":
    main()

"""Throughput benchmark: games and decisions per second, per strategy and worker count.

Every seat plays the same strategy; no records are built or written.  Each configuration
first warms its workers (imports, JIT compilation) with one game each, then plays for a
fixed time budget (or a fixed number of games) and reports the rates.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from typing import Any

from joblib import Parallel, delayed

from sim.errors import SkaldError
from sim.game import Game
from sim.runner import RunPlan, check_players, load_game, make_plan, play_game, resolve_game
from sim.seeding import game_seed
from strategies.registry import parse_spec

DEFAULT_SECONDS = 5.0
STRATEGIES: tuple[str, ...] = ("random", "greedy")
JOBS: tuple[int, ...] = (1, 2)


def play_for(
    plan: RunPlan, first: int, stride: int, seconds: float, max_games: int | None
) -> tuple[int, int, float]:
    """Play games ``first, first+stride, ...`` until ``seconds`` pass or ``max_games`` are done.

    The worker first plays one untimed warm-up game (imports, loading compiled kernels), so
    each worker's rate is its own steady state.  Returns (games, decisions, seconds).
    """
    game = resolve_game(plan.game_ref)
    play_game(game, plan.players, plan.rules, plan.data, game_seed(plan.seed, 10**9 + first), plan.specs,
              plan.max_decisions, None)
    start = time.perf_counter()
    deadline = start + seconds
    games = decisions = 0
    index = first
    while True:
        outcome = play_game(
            game,
            plan.players,
            plan.rules,
            plan.data,
            game_seed(plan.seed, index),
            plan.specs,
            plan.max_decisions,
            None,
        )
        games += 1
        decisions += outcome.decisions
        index += stride
        now = time.perf_counter()
        if (max_games is not None and games >= max_games) or now >= deadline:
            return games, decisions, now - start


def measure(plan: RunPlan, jobs: int, seconds: float, games: int | None) -> dict[str, Any]:
    """Rates for one plan with ``jobs`` workers (one in-process worker for ``jobs == 1``)."""
    per_worker = None if games is None else math.ceil(games / jobs)
    budget = math.inf if games is not None else seconds
    if jobs == 1:
        results = [play_for(plan, 0, 1, budget, per_worker)]
    else:
        with Parallel(n_jobs=jobs, backend="loky") as parallel:
            results = parallel(delayed(play_for)(plan, w, jobs, budget, per_worker) for w in range(jobs))
    # Workers run side by side: the total rate is the sum of each worker's own rate.
    games_per_s = sum(g / s for g, _, s in results)
    decisions_per_s = sum(d / s for _, d, s in results)
    return {
        "game": plan.game_name,
        "players": plan.players,
        "strategy": plan.specs[0].text,
        "jobs": jobs,
        "games_per_s": round(games_per_s, 3),
        "decisions_per_s": round(decisions_per_s, 1),
        "games": sum(g for g, _, _ in results),
        "decisions": sum(d for _, d, _ in results),
        "seconds": round(max(s for _, _, s in results), 3),
    }


def bench(
    game: str | Game,
    players: int,
    *,
    strategies: Sequence[str] = STRATEGIES,
    jobs: Sequence[int] = JOBS,
    seconds: float = DEFAULT_SECONDS,
    games: int | None = None,
    seed: int = 42,
) -> Iterator[dict[str, Any]]:
    """One result row per (strategy, jobs).

    A strategy that does not play ``game`` gives one row with ``skipped`` (and no rates).
    """
    if games is not None and games < 1:
        raise SkaldError(f"--games must be at least 1, not {games}")
    if seconds <= 0:
        raise SkaldError(f"--seconds must be positive, not {seconds}")
    obj, _ = load_game(game)
    check_players(obj, players)
    for strategy in strategies:
        try:
            parse_spec(strategy, obj.name)
        except SkaldError as exc:
            yield {"game": obj.name, "players": players, "strategy": strategy, "skipped": str(exc)}
            continue
        plan, _ = make_plan(game, players, [strategy], seats="fixed", seed=seed)
        for n_jobs in jobs:
            yield measure(plan, n_jobs, seconds, games)

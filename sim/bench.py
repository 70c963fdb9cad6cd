"""Throughput benchmark: games and decisions per second, per strategy and worker count.

Every seat plays the same strategy.  Each configuration first warms its workers (imports, JIT
compilation) with one game each, then plays for a fixed time budget (or a fixed number of games)
and reports the rates.  Three kinds of rows:

* ``throughput``: no records, with 1, 2 and all cores (``JOBS``); ``speedup`` is the rate over the
  1-worker rate and ``efficiency`` the speedup per worker (1.0: perfect scaling);
  ``decisions_per_cpu_s`` the rate per second of the workers' own CPU time (what other load on a
  shared machine moves less);
* ``recording``: one worker playing the same chunks with and without records (``simulate_chunk``
  with a temporary folder or with ``out=None``, chunk by chunk in turn so both see the same load):
  games/s both ways, ``recording_cost`` (the share of the rate that recording costs, from this
  process's CPU time so that other load on the machine does not move it, as the median over the
  pairs of chunks so that one slow moment on a shared machine does not either;
  ``recording_cost_quartiles`` the pairs' spread, ``recording_cost_total`` from the summed CPU time
  and ``recording_cost_wall`` from the wall clock) and the Parquet bytes per game, in all and per
  table;
* ``copy``: what ``Game.copy`` costs (µs per copy and copies/s) over states taken all through seeded
  games with random choices, beside ``to_dict``, ``from_dict`` and the two together (the snapshot
  round trip ``copy`` replaces), and how many times cheaper ``copy`` is than the round trip.
"""

from __future__ import annotations

import math
import os
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from joblib import delayed, effective_n_jobs

from sim.backends import loky_parallel
from sim.engines import engine_for
from sim.errors import SkaldError
from sim.game import Game, capability
from sim.plan import (
    MAX_CHUNK,
    MAX_GAMES,
    RunPlan,
    check_count,
    check_players,
    load_game,
    make_plan,
    resolve_game,
)
from sim.play import play_game
from sim.seeding import game_seed
from sim.specs import parse_spec
from sim.summary import SEARCH_KEYS, add_telemetry
from sim.tables import TABLES

DEFAULT_SECONDS = 5.0
#: the longest time budget per configuration (a day)
MAX_SECONDS = 86_400.0
STRATEGIES: tuple[str, ...] = ("random", "greedy")


def default_jobs() -> tuple[int, ...]:
    """1, 2 and all cores (without repeats)."""
    return tuple(sorted({1, 2, max(1, effective_n_jobs(-1))}))


JOBS: tuple[int, ...] = default_jobs()


def play_for(
    plan: RunPlan, first: int, stride: int, seconds: float, max_games: int | None
) -> tuple[int, int, float, float, list[float]]:
    """Play games ``first, first+stride, ...`` until ``seconds`` pass or ``max_games`` are done.

    The worker first plays one untimed warm-up game (imports, loading compiled kernels), so
    each worker's rate is its own steady state.  Returns (games, decisions, seconds, CPU seconds of
    this process: on a machine shared with other work the CPU rate moves less than the wall rate, and
    the search telemetry summed over seats and games, in ``sim.summary.SEARCH_KEYS`` order).
    """
    game = resolve_game(plan.game_ref)
    play_game(game, plan.players, plan.rules, plan.data, game_seed(plan.seed, 10**9 + first), plan.specs,
              plan.max_decisions, None)
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    games = decisions = 0
    index = first
    search = [0.0] * len(SEARCH_KEYS)
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
        for telemetry in outcome.search.values():
            add_telemetry(search, telemetry)
        index += stride
        now = time.perf_counter()
        if (max_games is not None and games >= max_games) or now >= deadline:
            return games, decisions, now - start, time.process_time() - cpu, search


def measure(plan: RunPlan, jobs: int, seconds: float, games: int | None) -> dict[str, Any]:
    """Rates for one plan with ``jobs`` workers (one in-process worker for ``jobs == 1``)."""
    per_worker = None if games is None else math.ceil(games / jobs)
    budget = math.inf if games is not None else seconds
    if jobs == 1:
        results = [play_for(plan, 0, 1, budget, per_worker)]
    else:
        with loky_parallel(jobs) as parallel:
            results = parallel(delayed(play_for)(plan, w, jobs, budget, per_worker) for w in range(jobs))
    # Workers run side by side: the total rate is the sum of each worker's own rate.
    games_per_s = sum(g / s for g, _, s, _, _ in results)
    decisions_per_s = sum(d / s for _, d, s, _, _ in results)
    decisions_per_cpu_s = sum(d / c for _, d, _, c, _ in results if c > 0)
    row = {
        "game": plan.game_name,
        "players": plan.players,
        "strategy": plan.specs[0].text,
        "jobs": jobs,
        "games_per_s": round(games_per_s, 3),
        "decisions_per_s": round(decisions_per_s, 1),
        "games": sum(g for g, _, _, _, _ in results),
        "decisions": sum(d for _, d, _, _, _ in results),
        "seconds": round(max(s for _, _, s, _, _ in results), 3),
        "decisions_per_cpu_s": round(decisions_per_cpu_s, 1),
        "kind": "throughput",
        "engine": engine_for(resolve_game(plan.game_ref)),
    }
    searched, iterations, spent, departures = (sum(r[4][i] for r in results) for i in range(len(SEARCH_KEYS)))
    if searched:  # a search strategy: its cost per decision (ms on one worker's core) and its rate
        row["search_ms_per_decision"] = round(1000 * spent / searched, 3)
        row["search_iterations_per_s"] = round(iterations / spent, 1) if spent > 0 else None
        row["search_left_prior"] = round(departures / searched, 4)
    return row


def median_cost(pair_costs: Sequence[float], total: float) -> tuple[float, float, float]:
    """(median, lower quartile, upper quartile) of the chunk pairs' recording costs: one pair slowed by
    other load on the machine moves the median little; ``total`` (the cost from summed CPU time) stands
    in for all three when there are no pairs, and for the quartiles with a single pair."""
    if not pair_costs:
        return total, total, total
    median = statistics.median(pair_costs)
    if len(pair_costs) < 2:
        return median, median, median
    low, _, high = statistics.quantiles(pair_costs, n=4)
    return median, low, high


def measure_recording(plan: RunPlan, seconds: float, games: int | None) -> dict[str, Any]:
    """Games/s of one worker with and without records, on the same chunks, and Parquet bytes per game.

    Chunks of up to 250 games (the size a large run uses; fewer when the time budget is short; the
    runner's ``simulate_chunk``, as a run's worker plays and writes them) are played once untimed (to
    warm what the game caches), then once without records and once writing their parts to a temporary
    folder, in alternating order, until ``seconds`` of timed play pass (half each way, about) or ``games``
    games were played each way."""
    from sim.runner import simulate_chunk  # the runner's, not the game loop's (``sim.play``)
    with tempfile.TemporaryDirectory(prefix="skald-bench-") as tmp:
        out = Path(tmp)
        for table in TABLES:
            (out / table).mkdir()
        simulate_chunk(plan, 0, 10**9, 10**9 + 1, None)  # warm up: imports, kernels, Arrow, Parquet
        simulate_chunk(plan, 0, 10**9, 10**9 + 1, out)
        for item in out.rglob("*.parquet"):
            item.unlink()
        if games is not None:
            chunk = max(1, min(MAX_CHUNK, games))
        else:  # at least two chunks each way within the budget
            t0 = time.perf_counter()
            simulate_chunk(plan, 0, 10**9 + 1, 10**9 + 3, None)
            per_game = (time.perf_counter() - t0) / 2
            chunk = max(1, min(MAX_CHUNK, int(seconds / 4 / max(per_game, 1e-6))))
        bare = recorded = bare_cpu = recorded_cpu = 0.0
        pair_costs: list[float] = []  # per chunk: 1 - CPU time without records / with records
        played = decisions = 0
        c = 0
        while True:
            start = c * chunk
            stop = start + chunk if games is None else min(start + chunk, games)
            # Each chunk is played once untimed, then both ways, the first way in turn: a game's
            # content caches (Graenaland's payment tables, say) make a second pass over the same games
            # much faster, so both timed passes must find them equally warm.
            simulate_chunk(plan, c, start, stop, None)
            cpu = {}
            for recording in (False, True) if c % 2 == 0 else (True, False):
                t0, u0 = time.perf_counter(), time.process_time()
                summary = simulate_chunk(plan, c, start, stop, out if recording else None)
                t1, u1 = time.perf_counter(), time.process_time()
                cpu[recording] = u1 - u0
                if recording:
                    recorded, recorded_cpu = recorded + t1 - t0, recorded_cpu + u1 - u0
                else:
                    bare, bare_cpu = bare + t1 - t0, bare_cpu + u1 - u0
            if cpu[True] > 0 and cpu[False] > 0:
                pair_costs.append(1.0 - cpu[False] / cpu[True])
            played += stop - start
            decisions += summary.decisions
            c += 1
            budget_spent = bare + recorded >= seconds and c % 2 == 0  # whole pairs of chunks
            if (games is not None and played >= games) or (games is None and budget_spent):
                break
        sizes = {table: sum(p.stat().st_size for p in (out / table).glob("*.parquet")) for table in TABLES}
    rate, rate_bare = played / recorded, played / bare
    # The cost from this process's CPU time: other programs on the machine do not change it (the
    # wall-clock rates above do move with them).
    total = 1.0 - bare_cpu / recorded_cpu if recorded_cpu > 0 and bare_cpu > 0 else 1.0 - rate / rate_bare
    cost, low, high = median_cost(pair_costs, total)
    return {
        "game": plan.game_name,
        "players": plan.players,
        "strategy": plan.specs[0].text,
        "jobs": 1,
        "games_per_s": round(rate, 3),
        "decisions_per_s": round(decisions / recorded, 1),
        "games": played,
        "decisions": decisions,
        "seconds": round(recorded, 3),
        "kind": "recording",
        "games_per_s_without_records": round(rate_bare, 3),
        "recording_cost": round(cost, 4),
        "recording_cost_quartiles": [round(low, 4), round(high, 4)],
        "recording_cost_total": round(total, 4),
        "chunk_pairs": len(pair_costs),
        "recording_cost_wall": round(1.0 - rate / rate_bare, 4),
        "parquet_bytes_per_game": round(sum(sizes.values()) / played, 1),
        "parquet_bytes_per_game_by_table": {t: round(b / played, 1) for t, b in sizes.items()},
        "chunk_games": chunk,
    }


COPY_STATES = 40  # states per game timed by ``measure_copy`` (fewer in a shorter game)


def sample_states(game: Game, plan: RunPlan, n_games: int) -> list[Any]:
    """States all through ``n_games`` seeded games with uniformly random choices: about ``COPY_STATES``
    per game, evenly spaced over its decision points (the first one and the terminal one included)."""
    states: list[Any] = []
    for g in range(n_games):
        pick = np.random.default_rng(game_seed(plan.seed, g))
        state = game.new_state(plan.players, plan.rules, plan.data, game_seed(plan.seed, g))
        path = [game.copy(state)]
        for _ in range(plan.max_decisions):
            if game.is_terminal(state):
                break
            choices = {}
            for seat in game.to_move(state):
                options = game.legal_options(state, seat)
                choices[seat] = options[int(pick.integers(len(options)))]
            game.apply(state, choices)
            path.append(game.copy(state))
        k = min(COPY_STATES, len(path))
        states.extend(path[round(i * (len(path) - 1) / max(1, k - 1))] for i in range(k))
    return states


def time_each(work: Any, items: Sequence[Any], seconds: float) -> tuple[float, int]:
    """(µs per item, items done): ``work`` over ``items`` again and again until ``seconds`` pass
    (one pass at least)."""
    done = 0
    start = time.perf_counter()
    while True:
        for item in items:
            work(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / done * 1e6, done


def copy_keys(game: str, players: int) -> dict[str, Any]:
    """The keys every bench line carries, for the copy row: its states come from random play on one
    core, and it measures no throughput (``games_per_s`` and ``decisions_per_s`` are null)."""
    return {
        "game": game,
        "players": players,
        "strategy": "random",
        "jobs": 1,
        "games_per_s": None,
        "decisions_per_s": None,
    }


def measure_copy(plan: RunPlan, seconds: float, games: int | None) -> dict[str, Any]:
    """µs per ``copy``, ``to_dict``, ``from_dict``, the round trip and (for a game that declares it)
    ``determinize`` over states of seeded games (5 games, or ``games`` where fewer), a quarter of
    ``seconds`` each."""
    game = resolve_game(plan.game_ref)
    n_games = 5 if games is None else min(games, 5)
    states = sample_states(game, plan, n_games)
    budget = seconds / 4
    copy_us, copies = time_each(game.copy, states, budget)
    to_dict_us, _ = time_each(game.to_dict, states, budget)
    docs = [game.to_dict(s) for s in states]
    from_dict_us, _ = time_each(game.from_dict, docs, budget)
    round_trip_us, _ = time_each(lambda s: game.from_dict(game.to_dict(s)), states, budget)
    determinize_us = None
    determinize = capability(game, "determinize")
    if determinize is not None:  # what one search iteration costs beside its playout (seat 0's samples)
        rng = np.random.default_rng(0)
        determinize_us, _ = time_each(lambda s: determinize(s, 0, rng), states, budget)
    return {
        **copy_keys(plan.game_name, plan.players),
        "kind": "copy",
        "states": len(states),
        "games": n_games,
        "copies": copies,
        "copy_us": round(copy_us, 2),
        "copies_per_s": round(1e6 / copy_us, 1),
        "to_dict_us": round(to_dict_us, 2),
        "from_dict_us": round(from_dict_us, 2),
        "round_trip_us": round(round_trip_us, 2),
        "round_trips_per_s": round(1e6 / round_trip_us, 1),
        "copy_speedup": round(round_trip_us / copy_us, 1),
        "determinize_us": None if determinize_us is None else round(determinize_us, 2),
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
    recording: bool = True,
    copying: bool = True,
) -> Iterator[dict[str, Any]]:
    """Per strategy: one ``throughput`` row per worker count, then one ``recording`` row; last, one
    ``copy`` row (``copying``; a row with ``skipped`` for a game object without ``copy``).

    Throughput rows carry ``speedup`` and ``efficiency`` against the 1-worker row (when ``jobs``
    holds 1).  A strategy that does not play ``game`` gives one row with ``skipped`` (and no rates).
    """
    if any(j < 1 for j in jobs):
        raise SkaldError(f"worker counts must be at least 1, not {', '.join(str(j) for j in jobs)}")
    if games is not None:
        check_count(games, "--games", MAX_GAMES)
    if not 0 < seconds <= MAX_SECONDS:  # also refuses nan
        raise SkaldError(f"--seconds must be above 0 and at most {MAX_SECONDS:,}, not {seconds}")
    obj, _ = load_game(game)
    check_players(obj, players)
    for strategy in strategies:
        try:
            parse_spec(strategy, obj.name)
        except SkaldError as exc:
            yield {"game": obj.name, "players": players, "strategy": strategy, "skipped": str(exc)}
            continue
        plan, _ = make_plan(game, players, [strategy], seats="fixed", seed=seed)
        single: float | None = None
        for n_jobs in jobs:
            row = measure(plan, n_jobs, seconds, games)
            if n_jobs == 1:
                single = row["games_per_s"]
            if single:
                row["speedup"] = round(row["games_per_s"] / single, 3)
                row["efficiency"] = round(row["games_per_s"] / single / n_jobs, 3)
            row["cpus"] = os.cpu_count()
            yield row
        if recording:
            yield measure_recording(plan, seconds, games)
    if copying and not callable(getattr(obj, "copy", None)):
        skipped = f"{obj.name} has no copy(state)"
        yield {**copy_keys(obj.name, players), "kind": "copy", "skipped": skipped}
    elif copying:
        plan, _ = make_plan(game, players, ["random"], seats="fixed", seed=seed)
        yield measure_copy(plan, seconds, games)

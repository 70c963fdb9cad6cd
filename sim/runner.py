"""Play games between strategies, in parallel chunks, and write their records.

``play_game`` is the hot loop (one game); ``simulate_chunk`` plays a contiguous range of
game indices and writes one Parquet part per table (worker side); ``run`` validates a
``RunConfig``, fans chunks out with joblib and commits the output folder atomically.
Chunking depends only on the number of games, never on ``jobs``, so any ``--jobs`` writes
byte-identical parts.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import platform
import shutil
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed, effective_n_jobs

import sim
from sim import rules as rulebook
from sim import seats as seating
from sim.errors import IllegalChoice, PlayError, SkaldError
from sim.game import Game, Result
from sim.games import GAMES
from sim.seeding import MAX_SEED, game_seed, state_seed, streams
from sim.tables import TABLES, GameRows, TurnLog, part_name, write_part
from strategies.registry import StrategySpec, parse_spec

MAX_CHUNK = 250
TARGET_CHUNKS = 64


@dataclass(slots=True)
class GameOutcome:
    """What ``play_game`` returns: the result and how the game ended."""

    seed: int
    decisions: int
    truncated: bool
    result: Result


def play_game(
    game: Game,
    n_players: int,
    rules: dict[str, Any],
    data: Any,
    seed: int,
    strategies: Sequence[StrategySpec],
    max_decisions: int,
    turns: TurnLog | None = None,
) -> GameOutcome:
    """Play one game from its game seed with ``strategies[seat]`` in each seat.

    Every mover of a decision point chooses from a view and options taken before any
    choice is applied; one decision point with k movers counts as k decisions.  The game
    stops (truncated) once ``max_decisions`` decisions were made (checked between decision
    points, so k simultaneous movers may pass the cap by up to k - 1).  With ``turns`` given,
    one row per decision is appended to it (``turns.tag`` is left to the caller).
    """
    seq, rngs = streams(seed, n_players)
    state = game.new_state(n_players, rules, data, state_seed(seq))
    players = [spec.make(seat, rngs[seat]) for seat, spec in enumerate(strategies)]
    is_terminal, to_move, legal_options, view, apply = (
        game.is_terminal,
        game.to_move,
        game.legal_options,
        game.view,
        game.apply,
    )
    log = turns is not None
    if log:
        record, scores = game.record, game.scores
        add_turn, add_seat, add_kind = turns.turn.append, turns.seat.append, turns.kind.append
        add_fields, add_scores = turns.fields.append, turns.scores.append
    decisions = 0
    truncated = False
    while not is_terminal(state):
        if decisions >= max_decisions:
            truncated = True
            break
        movers = to_move(state)
        if not movers:
            raise RuntimeError(f"{game.name}: no seat to move in a game that is not over (game seed {seed})")
        choices: dict[int, Any] = {}
        for seat in movers:
            seen, options = view(state, seat), legal_options(state, seat)
            try:
                choices[seat] = players[seat].choose(seen, options)
            except Exception as exc:
                turn = decisions + len(choices)
                raise PlayError(
                    f"strategy {strategies[seat].text!r} at seat {seat} raised {type(exc).__name__}: {exc}"
                    f" (game seed {seed}, turn {turn})"
                ) from exc
        if log:
            for seat, choice in choices.items():
                kind, fields = record(state, seat, choice)
                add_kind(kind)
                add_fields(fields)
        try:
            apply(state, choices)
        except IllegalChoice as exc:
            raise _illegal(exc, movers, strategies, seed, decisions) from exc
        if log:
            after = tuple(scores(state))
            for seat in movers:
                add_turn(decisions)
                add_seat(seat)
                add_scores(after)
                decisions += 1
        else:
            decisions += len(movers)
    return GameOutcome(seed=seed, decisions=decisions, truncated=truncated, result=game.result(state))


def _illegal(
    exc: IllegalChoice, movers: Sequence[int], strategies: Sequence[StrategySpec], seed: int, first_turn: int
) -> PlayError:
    seat = exc.seat if exc.seat is not None else (movers[0] if len(movers) == 1 else None)
    if seat is not None:
        turn = first_turn + list(movers).index(seat) if seat in movers else first_turn
        who = f"strategy {strategies[seat].text!r} at seat {seat}"
    else:
        turn = first_turn
        who = "one of " + ", ".join(f"strategy {strategies[s].text!r} at seat {s}" for s in movers)
    return PlayError(f"illegal choice by {who} (game seed {seed}, turn {turn}): {exc}")


# --------------------------------------------------------------------------- plans and chunks


@dataclass(frozen=True)
class RunPlan:
    """Everything a worker needs to play any game of a run (picklable, sent with every chunk)."""

    game_ref: str | Game  # module path exposing GAME (registered games) or the game object itself
    game_name: str
    players: int
    rules: dict[str, Any]
    data: Any
    specs: tuple[StrategySpec, ...]  # by strategy index (position in --strategies)
    seats: str
    seed: int
    max_decisions: int
    rules_hash: str
    action_fields: tuple[str, ...]
    part_fields: tuple[str, ...]


@dataclass
class ChunkSummary:
    """What a chunk reports back: counts and win shares, never the records."""

    chunk: int
    games: int = 0
    decisions: int = 0
    truncated: int = 0
    turns: int = 0
    share_by_index: list[float] = field(default_factory=list)  # summed win share per strategy index
    share_by_seat: list[float] = field(default_factory=list)  # summed win share per seat
    seconds: float = 0.0


@lru_cache(maxsize=8)
def _import_game(module: str) -> Game:
    return importlib.import_module(module).GAME


def resolve_game(ref: str | Game) -> Game:
    """The game behind a plan's ``game_ref``."""
    return _import_game(ref) if isinstance(ref, str) else ref


def simulate_chunk(plan: RunPlan, chunk: int, start: int, stop: int, out: Path | None) -> ChunkSummary:
    """Play global games ``start..stop-1`` and write ``out/<table>/part-<chunk>.parquet`` for each table.

    With ``out`` None nothing is recorded or written (benchmarks).
    """
    t0 = time.perf_counter()
    game = resolve_game(plan.game_ref)
    n = plan.players
    summary = ChunkSummary(chunk=chunk, share_by_index=[0.0] * n, share_by_seat=[0.0] * n)
    turns = TurnLog() if out is not None else None
    rows = GameRows(plan.part_fields) if out is not None else None
    texts = [spec.text for spec in plan.specs]
    for game_id in range(start, stop):
        base, order = seating.assign(plan.seats, n, plan.seed, game_id)
        seed = game_seed(plan.seed, base)
        specs = [plan.specs[i] for i in order]
        outcome = play_game(game, n, plan.rules, plan.data, seed, specs, plan.max_decisions, turns)
        summary.games += 1
        summary.decisions += outcome.decisions
        summary.truncated += outcome.truncated
        if rows is not None and turns is not None:
            turns.tag(game_id)
            shares = rows.add(
                game_id=game_id,
                base_game=base,
                game_seed=seed,
                rules_hash=plan.rules_hash,
                decisions=outcome.decisions,
                truncated=outcome.truncated,
                result=outcome.result,
                strategy_index=order,
                strategy_text=[texts[i] for i in order],
            )
        else:
            shares = _shares(outcome, n)
        for seat, share in enumerate(shares):
            summary.share_by_seat[seat] += share
            summary.share_by_index[order[seat]] += share
    if out is not None and rows is not None and turns is not None:
        summary.turns = len(turns)
        name = part_name(chunk)
        write_part(rows.games_table(), out / "games" / name)
        write_part(rows.seats_table(), out / "seats" / name)
        write_part(turns.table(plan.action_fields, n), out / "turns" / name)
    summary.seconds = time.perf_counter() - t0
    return summary


def _shares(outcome: GameOutcome, n: int) -> list[float]:
    winners = [] if outcome.truncated else list(outcome.result.winners)
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]


def default_chunk_size(games: int) -> int:
    """About ``games / 64`` games per chunk, at most 250 (a function of ``games`` only)."""
    return max(1, min(MAX_CHUNK, math.ceil(games / TARGET_CHUNKS)))


def chunk_ranges(games: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """``(chunk number, first game, end game)`` covering ``0..games-1``."""
    return [(c, start, min(start + chunk_size, games)) for c, start in enumerate(range(0, games, chunk_size))]


# --------------------------------------------------------------------------- configuration


@dataclass
class RunConfig:
    """A run as the command line describes it (``game`` may also be a ``Game`` object)."""

    game: str | Game
    players: int
    games: int
    strategies: list[str]
    seats: str = seating.DEFAULT_MODE
    jobs: int = -1
    seed: int = 42
    out: str | Path | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    data: str | Path | None = None
    max_decisions: int | None = None
    chunk_size: int | None = None
    overwrite: bool = False
    progress: bool = True


@dataclass
class RunSummary:
    """What ``run`` reports: totals, win shares and where the records are."""

    out: Path
    game: str
    players: int
    games: int
    games_requested: int
    decisions: int
    truncated: int
    turns: int
    wall_seconds: float
    games_per_second: float
    strategies: list[dict[str, Any]]  # strategy, seat_games, wins, win_rate
    seats: list[dict[str, Any]]  # seat, games, wins, win_rate
    manifest: dict[str, Any]


def load_game(game: str | Game) -> tuple[Game, str | Game]:
    """(game object, reference a worker can resolve) for a registered name or a game object."""
    if isinstance(game, str):
        from sim.games import get_game

        obj = get_game(game)
        return obj, GAMES[game]
    return game, game


def check_players(game: Game, players: int) -> None:
    """Refuse a player count outside ``game.min_players..game.max_players``."""
    if not game.min_players <= players <= game.max_players:
        raise SkaldError(
            f"{game.name} is played by {game.min_players} to {game.max_players} players, not {players}"
        )


def expand_strategies(texts: Sequence[str], players: int) -> list[str]:
    """The spec texts per strategy index; a single spec means every seat plays it."""
    texts = [t.strip() for t in texts if t.strip()]
    if len(texts) == 1:
        texts = texts * players
    if len(texts) != players:
        raise SkaldError(
            f"{len(texts)} strategies given for {players} players"
            " (give one per player, comma-separated, or a single one for all seats)"
        )
    return texts


def make_plan(
    game: str | Game,
    players: int,
    strategies: Sequence[str],
    *,
    seats: str = seating.DEFAULT_MODE,
    seed: int = 42,
    rules: dict[str, Any] | None = None,
    data: str | Path | None = None,
    max_decisions: int | None = None,
) -> tuple[RunPlan, dict[str, Any]]:
    """Validate a run's inputs; return the plan and the data file used.

    The data description holds ``path`` (as given; None for the packaged file), ``file``
    (the file actually read, when known) and its ``sha1``.
    """
    obj, ref = load_game(game)
    check_players(obj, players)
    seating.check_mode(seats)
    if not 0 <= seed <= MAX_SEED:
        raise SkaldError(f"--seed must be between 0 and {MAX_SEED}, not {seed}")
    if max_decisions is not None and max_decisions < 1:
        raise SkaldError(f"--max-decisions must be at least 1, not {max_decisions}")
    texts = expand_strategies(strategies, players)
    specs = tuple(parse_spec(text, obj.name) for text in texts)
    resolved = rulebook.resolve(obj, rules or {})
    if data is not None and not Path(data).is_file():
        raise SkaldError(f"data file {str(data)!r} not found (give a readable component data file)")
    loaded = obj.load_data(None if data is None else str(data))
    data_path, data_sha1 = rulebook.data_identity(obj, loaded, data)
    plan = RunPlan(
        game_ref=ref,
        game_name=obj.name,
        players=players,
        rules=resolved,
        data=loaded,
        specs=specs,
        seats=seats,
        seed=seed,
        max_decisions=max_decisions or obj.default_max_decisions,
        rules_hash=rulebook.rules_hash(obj.name, resolved, data_sha1),
        action_fields=tuple(obj.action_fields),
        part_fields=tuple(obj.part_fields),
    )
    given = None if data is None else str(data)
    return plan, {"path": given, "file": data_path, "sha1": data_sha1}


def default_out(game: str, players: int, games: int, seed: int) -> Path:
    """``results/<game>-<players>p-<games>g-seed<seed>``."""
    return Path("results") / f"{game}-{players}p-{games}g-seed{seed}"


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse an existing non-empty output folder unless ``overwrite``."""
    if out.exists() and not out.is_dir():
        raise SkaldError(f"output {str(out)!r} exists and is not a folder (choose another --out)")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise SkaldError(
            f"output folder {str(out)!r} exists and is not empty"
            " (pass --overwrite to replace it, or choose another --out)"
        )


# --------------------------------------------------------------------------- the run


def run(config: RunConfig, on_chunk: Callable[[ChunkSummary], None] | None = None) -> RunSummary:
    """Validate ``config``, play every game in parallel chunks and commit the output folder.

    Nothing is written before validation passes, and on any failure the temporary folder
    is removed, so ``out`` either holds a complete run or is left as it was.
    """
    t_start = time.perf_counter()
    if config.games < 1:
        raise SkaldError(f"--games must be at least 1, not {config.games}")
    if config.jobs == 0:
        raise SkaldError("--jobs must not be 0 (use N >= 1 workers, or -1 for all cores)")
    if config.chunk_size is not None and config.chunk_size < 1:
        raise SkaldError(f"--chunk-size must be at least 1, not {config.chunk_size}")
    plan, data_info = make_plan(
        config.game,
        config.players,
        config.strategies,
        seats=config.seats,
        seed=config.seed,
        rules=config.rules,
        data=config.data,
        max_decisions=config.max_decisions,
    )
    games = seating.round_games(plan.seats, plan.players, config.games)
    out = (
        Path(config.out)
        if config.out is not None
        else default_out(plan.game_name, plan.players, games, plan.seed)
    )
    check_out(out, config.overwrite)
    chunk_size = config.chunk_size or default_chunk_size(games)
    chunks = chunk_ranges(games, chunk_size)
    workers = min(effective_n_jobs(config.jobs), len(chunks))

    created = _missing_ancestor(out.parent)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.parent / f"{out.name}.partial-{os.getpid()}"
    try:
        if partial.exists():
            shutil.rmtree(partial)
        for table in TABLES:
            (partial / table).mkdir(parents=True)
        summaries = _play_chunks(plan, chunks, partial, config.jobs, games, config.progress, on_chunk)
        wall = time.perf_counter() - t_start
        summary = _summarize(plan, games, config.games, summaries, wall, out)
        summary.manifest = _manifest(
            plan, config, games, chunk_size, chunks, data_info, summary, summaries, workers
        )
        _write_json(summary.manifest, partial / "manifest.json")
        _commit(partial, out)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        _remove_empty(out.parent, created)
        raise
    return summary


def _play_chunks(
    plan: RunPlan,
    chunks: list[tuple[int, int, int]],
    partial: Path,
    jobs: int,
    games: int,
    progress: bool,
    on_chunk: Callable[[ChunkSummary], None] | None,
) -> list[ChunkSummary]:
    from sim.report import progress_bar

    results: list[ChunkSummary] = []
    with progress_bar(games, enabled=progress, label=f"{plan.game_name} {plan.players}p") as advance:
        if effective_n_jobs(jobs) == 1 or len(chunks) == 1:
            stream: Generator[ChunkSummary, None, None] = (
                simulate_chunk(plan, c, a, b, partial) for c, a, b in chunks
            )
        else:
            parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
            stream = parallel(delayed(simulate_chunk)(plan, c, a, b, partial) for c, a, b in chunks)
        try:
            for summary in stream:
                results.append(summary)
                advance(summary.games)
                if on_chunk is not None:
                    on_chunk(summary)
        finally:
            stream.close()  # on failure: joblib cancels the chunks not yet started
    results.sort(key=lambda s: s.chunk)
    return results


def _summarize(
    plan: RunPlan, games: int, requested: int, summaries: list[ChunkSummary], wall: float, out: Path
) -> RunSummary:
    n = plan.players
    by_index = [sum(s.share_by_index[i] for s in summaries) for i in range(n)]
    by_seat = [sum(s.share_by_seat[i] for s in summaries) for i in range(n)]
    texts = [spec.text for spec in plan.specs]
    strategies = []
    for text in dict.fromkeys(texts):
        idx = [i for i, t in enumerate(texts) if t == text]
        wins = sum(by_index[i] for i in idx)
        seat_games = games * len(idx)
        strategies.append(
            {"strategy": text, "seat_games": seat_games, "wins": wins, "win_rate": wins / seat_games}
        )
    seat_rows = [
        {"seat": s, "games": games, "wins": by_seat[s], "win_rate": by_seat[s] / games} for s in range(n)
    ]
    decisions = sum(s.decisions for s in summaries)
    return RunSummary(
        out=out,
        game=plan.game_name,
        players=n,
        games=games,
        games_requested=requested,
        decisions=decisions,
        truncated=sum(s.truncated for s in summaries),
        turns=sum(s.turns for s in summaries),
        wall_seconds=wall,
        games_per_second=games / wall if wall > 0 else float("inf"),
        strategies=strategies,
        seats=seat_rows,
        manifest={},
    )


def versions() -> dict[str, str]:
    """Versions of Skald, Python and the libraries that shape the records."""
    found = {"skald": sim.__version__, "python": platform.python_version()}
    for name in ("numpy", "numba", "polars", "pyarrow", "joblib"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "missing"
    return found


def _manifest(
    plan: RunPlan,
    config: RunConfig,
    games: int,
    chunk_size: int,
    chunks: list[tuple[int, int, int]],
    data_info: dict[str, Any],
    summary: RunSummary,
    summaries: list[ChunkSummary],
    workers: int,
) -> dict[str, Any]:
    return {
        "format": 1,
        "config": {
            "game": plan.game_name,
            "players": plan.players,
            "games": games,
            "games_requested": config.games,
            "strategies": [spec.text for spec in plan.specs],
            "seats": plan.seats,
            "seed": plan.seed,
            "rules": plan.rules,
            "rules_hash": plan.rules_hash,
            "data": data_info,
            "max_decisions": plan.max_decisions,
            "chunk_size": chunk_size,
            "chunks": [list(c) for c in chunks],
        },
        "tables": {
            "games": "one row per game",
            "seats": "one row per game and seat",
            "turns": "one row per decision",
            "action_fields": list(plan.action_fields),
            "part_fields": list(plan.part_fields),
        },
        "versions": versions(),
        "execution": {"jobs": config.jobs, "workers": workers, "cpus": os.cpu_count()},
        "timings": {
            "wall_seconds": round(summary.wall_seconds, 6),
            "worker_seconds": round(sum(s.seconds for s in summaries), 6),
        },
        "games_per_second": round(summary.games_per_second, 3),
        "totals": {
            "games": summary.games,
            "decisions": summary.decisions,
            "truncated": summary.truncated,
            "turns": summary.turns,
            "win_share_by_strategy": {row["strategy"]: row["win_rate"] for row in summary.strategies},
            "win_share_by_seat": [row["win_rate"] for row in summary.seats],
        },
    }


def _write_json(obj: Any, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(obj, indent=2, default=str) + "\n")
    os.replace(tmp, path)


def _commit(partial: Path, out: Path) -> None:
    """Move the finished ``partial`` folder to ``out``, replacing what was there."""
    if out.is_dir() and any(out.iterdir()):
        old = out.parent / f"{out.name}.old-{os.getpid()}"
        os.replace(out, old)
        os.replace(partial, out)
        shutil.rmtree(old, ignore_errors=True)
        return
    if out.is_dir():
        out.rmdir()
    os.replace(partial, out)


def _missing_ancestor(folder: Path) -> Path | None:
    """The outermost ancestor of ``folder`` (itself included) that does not exist yet."""
    missing = None
    for path in [folder, *folder.parents]:
        if path.exists():
            break
        missing = path
    return missing


def _remove_empty(folder: Path, top: Path | None) -> None:
    """Remove the empty folders from ``folder`` up to ``top`` (those this run created)."""
    if top is None:
        return
    for path in [folder, *folder.parents]:
        try:
            path.rmdir()
        except OSError:
            return
        if path == top:
            return

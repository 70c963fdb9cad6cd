"""Play games between strategies, in parallel chunks, and write their records.

``play_game`` is the hot loop (one game); ``simulate_chunk`` plays a contiguous range of
game indices and writes one Parquet part per table (worker side); ``run`` validates a
``RunConfig``, fans chunks out (``sim.backends``: loky workers or a Dask cluster), logs each
finished chunk in ``OUT.partial`` (``sim.resume``, so a stopped run can be resumed) and renames
that folder to ``OUT`` at the end.  Chunking depends only on the number of games, never on
``jobs`` or the backend, so every way of running writes byte-identical parts.  A game whose
strategy fails is recorded as errored (``on_error="continue"``) or fails the run (``"stop"``).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import platform
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa

import sim
from sim import rules as rulebook
from sim import seats as seating
from sim.errors import IllegalChoice, PlayError, SkaldError, one_line
from sim.game import Game, Result
from sim.games import GAMES
from sim.resume import RUN_FILE, partial_path, read_progress, write_progress
from sim.seeding import MAX_SEED, game_seed, state_seed, streams
from sim.tables import GameRows, PartKey, TurnLog, part_bytes, part_name, write_part, write_part_bytes
from strategies.registry import StrategySpec, check_entries, parse_spec, parse_specs

MAX_CHUNK = 250
TARGET_CHUNKS = 64
MIN_PART = 100
#: seconds between a worker's notes of the games done in its chunk, and between the progress bar's reads
PROGRESS_SECONDS = 0.5
CLUSTER_WORKERS = 16


@dataclass(slots=True)
class GameOutcome:
    """What ``play_game`` returns: the result and how the game ended."""

    seed: int
    decisions: int
    truncated: bool
    result: Result


class GameFailure(PlayError):
    """A strategy raised, or chose an option the game refused, in one game.

    The message names the strategy spec, the seat, the game seed and the turn; the attributes
    say the same for the records: ``seat``, ``turn`` (decision index of the failing choice),
    ``strategy`` (spec text), ``seed`` (game seed), ``decisions`` (decisions completed before the
    failing decision point) and ``result`` (the game's scores when it stopped, or None).
    """

    seat: int | None = None
    turn: int = 0
    strategy: str | None = None
    seed: int = 0
    decisions: int = 0
    result: Result | None = None


def _failure(
    message: str,
    game: Game,
    state: Any,
    strategies: Sequence[StrategySpec],
    seat: int | None,
    turn: int,
    seed: int,
    decisions: int,
) -> GameFailure:
    exc = GameFailure(message)
    exc.seat, exc.turn, exc.seed, exc.decisions = seat, turn, seed, decisions
    exc.strategy = strategies[seat].text if seat is not None else None
    try:  # the scores when it stopped; a half-applied state may not score
        exc.result = game.result(state)
    except Exception:
        exc.result = None
    return exc


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
    choice is applied (a strategy whose ``reads_view`` is False gets ``None`` for the view);
    one decision point with k movers counts as k decisions.  The game
    stops (truncated) once ``max_decisions`` decisions were made (checked between decision
    points, so k simultaneous movers may pass the cap by up to k - 1).  With ``turns`` given,
    one row per decision is appended to it (``turns.tag`` is left to the caller).

    A strategy that raises, or whose choice the game cannot record or apply, raises
    ``GameFailure`` (a ``PlayError``); the rows of the failing decision point are then left
    half-logged in ``turns`` (``turns.trim`` drops them).
    """
    seq, rngs = streams(seed, n_players)
    state = game.new_state(n_players, rules, data, state_seed(seq))
    players = [spec.make(seat, rngs[seat]) for seat, spec in enumerate(strategies)]
    reads_view = [getattr(player, "reads_view", True) for player in players]
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
        add_seat, add_kind = turns.seat.append, turns.kind.append
        add_fields, add_scores = turns.flat_fields.extend, turns.flat_scores.extend
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
            turn = decisions + len(choices)
            seen = view(state, seat) if reads_view[seat] else None
            options = legal_options(state, seat)
            try:
                choice = choices[seat] = players[seat].choose(seen, options)
            except Exception as exc:
                raise _failure(
                    f"strategy {strategies[seat].text!r} at seat {seat} raised {type(exc).__name__}: {exc}"
                    f" (game seed {seed}, turn {turn})",
                    game, state, strategies, seat, turn, seed, decisions,
                ) from exc
            if log:
                try:
                    kind, fields = record(state, seat, choice)
                except Exception as exc:
                    raise _failure(
                        f"strategy {strategies[seat].text!r} at seat {seat} chose an option the game cannot"
                        f" read (game seed {seed}, turn {turn}): {type(exc).__name__}: {exc}",
                        game, state, strategies, seat, turn, seed, decisions,
                    ) from exc
                add_seat(seat)
                add_kind(kind)
                add_fields(fields)
        try:
            apply(state, choices)
        except Exception as exc:
            raise _refused(exc, game, state, movers, strategies, seed, decisions) from exc
        if log:
            after = scores(state)
            for _ in movers:
                add_scores(after)
        decisions += len(movers)
    return GameOutcome(seed=seed, decisions=decisions, truncated=truncated, result=game.result(state))


def _refused(
    exc: Exception,
    game: Game,
    state: Any,
    movers: Sequence[int],
    strategies: Sequence[StrategySpec],
    seed: int,
    first_turn: int,
) -> GameFailure:
    """The ``GameFailure`` for a choice that ``Game.apply`` refused (``IllegalChoice``) or choked on."""
    seat = exc.seat if isinstance(exc, IllegalChoice) else None
    if seat is None and len(movers) == 1:
        seat = movers[0]
    if seat is not None:
        turn = first_turn + list(movers).index(seat) if seat in movers else first_turn
        who = f"strategy {strategies[seat].text!r} at seat {seat}"
    else:
        turn = first_turn
        who = "one of " + ", ".join(f"strategy {strategies[s].text!r} at seat {s}" for s in movers)
    if isinstance(exc, IllegalChoice):
        message = f"illegal choice by {who} (game seed {seed}, turn {turn}): {exc}"
    else:
        message = f"the game could not apply the choice of {who} (game seed {seed}, turn {turn}): " \
                  f"{type(exc).__name__}: {exc}"
    return _failure(message, game, state, strategies, seat, turn, seed, first_turn)


# --------------------------------------------------------------------------- plans and chunks


ON_ERROR: tuple[str, ...] = ("continue", "stop")


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
    on_error: str = "continue"  # continue: record a failed game as errored; stop: raise GameFailure
    #: the records' ``run`` column (``run_id``: set by ``prepare``; empty for plans that write nothing)
    run_id: str = ""

    @property
    def part_key(self) -> PartKey:
        """The key columns and metadata of this run's parts."""
        return PartKey(self.run_id, self.game_name, self.rules_hash)

    def part_tables(self, rows: GameRows, turns: TurnLog) -> dict[str, pa.Table]:
        """The three tables of what ``rows`` and ``turns`` hold, keyed and stamped as this run's parts."""
        key = self.part_key
        return {
            "games": rows.games_table(key),
            "seats": rows.seats_table(key),
            "turns": turns.table(self.action_fields, self.players, key),
        }


@dataclass
class ChunkSummary:
    """What a chunk reports back: counts and win shares, never the records (unless gathered)."""

    chunk: int
    games: int = 0
    decisions: int = 0
    truncated: int = 0  # games cut short, errored ones included (like the games table's column)
    errored: int = 0
    turns: int = 0
    share_by_index: list[float] = field(default_factory=list)  # summed win share per strategy index
    share_by_seat: list[float] = field(default_factory=list)  # summed win share per seat
    seconds: float = 0.0
    first_error: str | None = None  # message of the chunk's first errored game
    parts: dict[str, bytes] | None = None  # the Parquet parts' bytes, when the caller writes them

    def to_json(self) -> dict[str, Any]:
        """The summary without the parts, as a JSON object (the resume log's line)."""
        doc = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "parts"}
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ChunkSummary:
        known = {k: doc[k] for k in cls.__dataclass_fields__ if k in doc and k != "parts"}
        return cls(**known)


@lru_cache(maxsize=8)
def _import_game(ref: str) -> Game:
    """The game at ``"module:attribute"`` (a plug-in's ``game``), or ``module.GAME`` for a bare module."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr or "GAME")


def resolve_game(ref: str | Game) -> Game:
    """The game behind a plan's ``game_ref``."""
    return _import_game(ref) if isinstance(ref, str) else ref


def simulate_chunk(
    plan: RunPlan, chunk: int, start: int, stop: int, out: Path | None, gather: bool = False
) -> ChunkSummary:
    """Play global games ``start..stop-1`` and write ``out/<table>/part-<chunk>.parquet`` for each table.

    With ``out`` None nothing is recorded or written (benchmarks).  With ``gather`` the parts are
    not written but returned as bytes in ``summary.parts`` (the same bytes), for a caller that
    writes them itself (a cluster without a shared filesystem).  A game whose strategy fails is
    recorded as errored (``plan.on_error == "continue"``) or raises ``GameFailure`` (``"stop"``).
    """
    t0 = time.perf_counter()
    game = resolve_game(plan.game_ref)
    n = plan.players
    summary = ChunkSummary(chunk=chunk, share_by_index=[0.0] * n, share_by_seat=[0.0] * n)
    recording = out is not None or gather
    turns = TurnLog() if recording else None
    rows = GameRows(plan.part_fields) if recording else None
    texts = [spec.text for spec in plan.specs]
    noted = t0
    for game_id in range(start, stop):
        played = play_indexed(plan, game, game_id, turns, rows, texts)
        if out is not None and time.perf_counter() - noted > PROGRESS_SECONDS:
            write_progress(out, chunk, game_id + 1 - start)  # for the progress bar, between whole chunks
            noted = time.perf_counter()
        summary.games += 1
        summary.decisions += played.outcome.decisions
        summary.truncated += played.outcome.truncated
        if played.failure is not None:
            summary.errored += 1
            if summary.first_error is None:
                summary.first_error = f"game {game_id}: {played.failure}"
        for seat, share in enumerate(played.shares):
            summary.share_by_seat[seat] += share
            summary.share_by_index[played.order[seat]] += share
    if rows is not None and turns is not None:
        summary.turns = len(turns)
        name = part_name(chunk)
        tables = plan.part_tables(rows, turns)
        if gather:
            summary.parts = {table: part_bytes(data) for table, data in tables.items()}
        else:
            assert out is not None
            for table, data in tables.items():
                write_part(data, out / table / name)
    summary.seconds = time.perf_counter() - t0
    return summary


@dataclass
class Played:
    """One game of a run as ``play_indexed`` played it."""

    game_id: int
    base: int
    order: tuple[int, ...]  # strategy index per seat
    outcome: GameOutcome
    failure: GameFailure | None
    shares: list[float]


def play_indexed(
    plan: RunPlan,
    game: Game,
    game_id: int,
    turns: TurnLog | None,
    rows: GameRows | None,
    texts: Sequence[str],
) -> Played:
    """Play global game ``game_id`` of ``plan`` (its seats and seed from the game index) and add its
    rows to ``turns`` and ``rows`` when given.

    A failing strategy gives an errored game (``failure`` set) under ``on_error == "continue"``
    and raises ``GameFailure`` under ``"stop"``.
    """
    n = plan.players
    base, order = seating.assign(plan.seats, n, plan.seed, game_id, texts)
    seed = game_seed(plan.seed, base)
    specs = [plan.specs[i] for i in order]
    failure: GameFailure | None = None
    try:
        outcome = play_game(game, n, plan.rules, plan.data, seed, specs, plan.max_decisions, turns)
    except GameFailure as exc:
        if plan.on_error != "continue":
            raise
        failure = exc
        outcome = GameOutcome(seed=seed, decisions=exc.decisions, truncated=True, result=exc.result)
        if turns is not None:
            turns.trim(len(plan.action_fields), n)
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
            error=None if failure is None else str(failure),
            error_seat=None if failure is None else failure.seat,
            error_turn=None if failure is None else failure.turn,
        )
    else:
        shares = [0.0] * n if failure is not None else _shares(outcome, n)
    return Played(game_id, base, order, outcome, failure, shares)


def _shares(outcome: GameOutcome, n: int) -> list[float]:
    winners = [] if outcome.truncated else list(outcome.result.winners)
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]


def default_chunk_size(games: int, workers: int = 1) -> int:
    """Games per chunk (and so per Parquet part) when ``--chunk-size`` is not given.

    At least ``MIN_PART`` games, since each part costs a file per table to write, list and read; fewer
    only where two chunks per worker need them (so that no worker waits while another has two to
    play); at least ``games / TARGET_CHUNKS`` (a large run keeps a resume granularity and progress
    steps of about 1/64), and at most ``MAX_CHUNK`` (a chunk's records are held in memory).  A run's
    records do not depend on it: only how they are cut into parts.
    """
    wanted = max(math.ceil(games / TARGET_CHUNKS), min(MIN_PART, math.ceil(games / (2 * max(1, workers)))))
    return max(1, min(MAX_CHUNK, wanted))


def planned_workers(config: RunConfig) -> int:
    """How many workers ``config`` will play on: ``--jobs`` (-1: every core here), or for a cluster named by
    ``--scheduler`` ``CLUSTER_WORKERS`` (its size is not known before it is reached)."""
    if config.scheduler is not None:
        return CLUSTER_WORKERS
    return max(1, os.cpu_count() or 1) if config.jobs < 0 else max(1, config.jobs)


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
    #: continue: a game whose strategy fails is recorded as errored; stop: the run fails
    on_error: str = "continue"
    #: take up the finished chunks of an interrupted run of the same configuration (OUT.partial)
    resume: bool = False
    backend: str = "loky"  # loky | dask (see sim.backends)
    scheduler: str | None = None  # Dask scheduler address; None: a local cluster (dask backend)
    gather: bool = False  # workers send their parts back and this process writes them
    #: the command line that started the run, as the user typed it (for the manifest; None from Python)
    command: str | None = None


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
    errored: int = 0  # games whose strategy failed (counted in truncated too)
    first_error: str | None = None
    resumed_chunks: int = 0  # chunks taken from an earlier, interrupted attempt
    already_complete: bool = False  # --resume found OUT finished: nothing was played


def load_game(game: str | Game) -> tuple[Game, str | Game]:
    """(game object, reference a worker can resolve) for a registered name or a game object."""
    if isinstance(game, str):
        from sim.games import get_game

        obj = get_game(game)
        return obj, GAMES[game].game
    return game, game


def check_players(game: Game, players: int) -> None:
    """Refuse a player count outside ``game.min_players..game.max_players``."""
    if not game.min_players <= players <= game.max_players:
        raise SkaldError(
            f"{game.name} is played by {game.min_players} to {game.max_players} players, not {players}"
        )


def expand_strategies(texts: Sequence[str], players: int) -> list[str]:
    """The spec texts per strategy index; a single spec means every seat plays it (an empty entry is an
    error naming its position)."""
    check_entries(texts)
    texts = [t.strip() for t in texts]
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
    on_error: str = "continue",
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
    parse_specs(strategies, obj.name)  # an unknown name is named before the count is checked
    texts = expand_strategies(strategies, players)
    specs = tuple(parse_spec(text, obj.name) for text in texts)
    resolved = rulebook.resolve(obj, rules or {})
    if data is not None and not Path(data).exists():
        raise SkaldError(f"data file {str(data)!r} not found (give a readable component data file or folder)")
    if on_error not in ON_ERROR:
        raise SkaldError(f"unknown --on-error {on_error!r} (allowed: {', '.join(ON_ERROR)})")
    loaded = _load_data(obj, data)
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
        on_error=on_error,
    )
    given = None if data is None else str(data)
    file = given if given is not None else _packaged(data_path)
    return plan, {"path": given, "file": file, "sha1": data_sha1}


#: the folder that holds the ``sim``, ``strategies`` and ``analysis`` packages (a checkout, or site-packages)
CODE_ROOT = Path(sim.__file__).resolve().parent.parent
CODE_PACKAGES = ("sim", "strategies", "analysis")


def _packaged(path: str | None) -> str | None:
    """A packaged data file's path relative to the code (``sim/games/mainland/data/mainland.toml``), so that
    no manifest names a folder of the machine that wrote it."""
    if path is None:
        return None
    try:
        return Path(path).resolve().relative_to(CODE_ROOT).as_posix()
    except ValueError:
        return Path(path).name


def _load_data(game: Game, data: str | Path | None) -> Any:
    """``game.load_data``; a user's file that trips the loader in any way is a one-line ``SkaldError``."""
    if data is None:
        return game.load_data(None)
    try:
        return game.load_data(str(data))
    except SkaldError:
        raise
    except RecursionError:
        raise SkaldError(f"data file {str(data)!r} is malformed: nested too deeply") from None
    except Exception as exc:
        detail = one_line(exc, "")
        raise SkaldError(
            f"data file {str(data)!r} is malformed: {type(exc).__name__}: {detail}"[:400]
        ) from None


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


@dataclass
class Prepared:
    """A validated run: its plan, where it goes and how it is cut into chunks (nothing written yet)."""

    plan: RunPlan
    data_info: dict[str, Any]
    games: int
    out: Path
    chunk_size: int
    chunks: list[tuple[int, int, int]]
    #: the note that ``games`` was rounded up to whole blocks of seatings (None when not rounded)
    rounding: str | None = None

    def identity(self) -> dict[str, Any]:
        """What determines the records: a resumed run must match it exactly."""
        plan = self.plan
        return {
            "game": plan.game_name,
            "players": plan.players,
            "games": self.games,
            "strategies": [spec.text for spec in plan.specs],
            "seats": plan.seats,
            "seed": plan.seed,
            "rules": plan.rules,
            "rules_hash": plan.rules_hash,
            "max_decisions": plan.max_decisions,
            "chunk_size": self.chunk_size,
            "on_error": plan.on_error,
            "skald": sim.__version__,
        }


def prepare(config: RunConfig) -> Prepared:
    """Validate ``config`` (a ``SkaldError`` for anything wrong); write nothing."""
    if config.games < 1:
        raise SkaldError(f"--games must be at least 1, not {config.games}")
    from sim.backends import check_backend, check_jobs

    check_jobs(config.jobs)
    if config.chunk_size is not None and config.chunk_size < 1:
        raise SkaldError(f"--chunk-size must be at least 1, not {config.chunk_size}")
    check_backend(config.backend, config.scheduler)
    plan, data_info = make_plan(
        config.game,
        config.players,
        config.strategies,
        seats=config.seats,
        seed=config.seed,
        rules=config.rules,
        data=config.data,
        max_decisions=config.max_decisions,
        on_error=config.on_error,
    )
    games = seating.round_games(plan.seats, plan.players, config.games, [s.text for s in plan.specs])
    out = (
        Path(config.out)
        if config.out is not None
        else default_out(plan.game_name, plan.players, games, plan.seed)
    )
    if out.name in ("", ".", ".."):
        raise SkaldError(f"--out {str(out)!r} does not name a folder (give a folder name, e.g. results/run1)")
    chunk_size = config.chunk_size or default_chunk_size(games, planned_workers(config))
    prep = Prepared(plan, data_info, games, out, chunk_size, chunk_ranges(games, chunk_size))
    if games != config.games:
        size = seating.block_size(plan.seats, plan.players, [s.text for s in plan.specs])
        prep.rounding = (f"--games {config.games} rounded up to {games}"
                         f" (whole blocks of {size} for --seats {plan.seats})")
    prep.plan = replace(plan, run_id=run_id(prep.identity()))
    return prep


def run_id(identity: dict[str, Any]) -> str:
    """The records' ``run`` column: 16 hex digits of the sha1 of what the records are a function of (the
    run's identity less its chunk size), so that copies of one run, or one run cut into other chunks,
    share it and ``SELECT DISTINCT`` across folders removes the copies."""
    key = {k: v for k, v in identity.items() if k != "chunk_size"}
    return hashlib.sha1(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]


def run(
    config: RunConfig,
    on_chunk: Callable[[ChunkSummary], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    on_start: Callable[[Prepared], None] | None = None,
) -> RunSummary:
    """Validate ``config``, play every game in parallel chunks and commit the output folder.

    Nothing is written before validation passes.  The run works in ``OUT.partial`` (see
    ``sim.resume``) and renames it to ``OUT`` when every chunk is done.  If it stops early:

    * interrupted (Ctrl-C, SIGTERM: ``RunInterrupted``) or stopped by an unexpected error (a lost
      worker, a full disk: ``RunStopped``): ``OUT.partial`` is kept, and ``resume=True`` with the
      same configuration plays only the chunks it lacks;
    * a game error with ``on_error="stop"`` (``PlayError``) or any other ``SkaldError``:
      ``OUT.partial`` is removed, so ``out`` is left as it was.

    ``on_note`` receives one-line notes (resuming, parts played again); ``on_start`` the validated run
    once every check has passed (options, output folder, an interrupted run's folder and lock), just
    before the first game, so that what it prints never comes before an error.
    """
    from sim.resume import RunInterrupted, RunStopped, Workspace, partial_path

    t_start = time.perf_counter()
    note = on_note or (lambda text: None)
    prep = prepare(config)
    if config.resume and config.chunk_size is None:
        started = _started_chunk_size(prep.out)
        if started is not None and started != prep.chunk_size:  # the default follows --jobs, which may differ
            prep = prepare(replace(config, chunk_size=started))
    plan, out, chunks = prep.plan, prep.out, prep.chunks
    identity = prep.identity()
    if config.resume:
        finished = _finished_run(prep, identity)
        if finished is not None:
            note(f"{str(out)!r} is already complete: nothing to resume")
            return finished
    check_out(out, config.overwrite)

    partial = partial_path(out)
    workspace = Workspace(partial)
    created = _missing_ancestor(out.parent)
    kept: dict[int, ChunkSummary] = {}
    if partial.exists() and not partial.is_dir():
        raise SkaldError(f"{str(partial)!r} exists and is not a folder (remove it, or choose another --out)")
    if partial.is_dir():
        workspace.lock()  # refuses a folder another live run is writing
        try:
            if config.resume:
                workspace.check_identity(identity)
                logged, notes = workspace.verify(
                    chunks, plan.players, plan.action_fields, plan.part_fields, plan.run_id
                )
                kept = {c: ChunkSummary.from_json(doc) for c, doc in logged.items()}
                for text in notes:
                    note(text)
                note(
                    f"resuming {str(partial)!r}: {len(kept)} of {len(chunks)} chunks done"
                    f" ({sum(s.games for s in kept.values()):,} of {prep.games:,} games)"
                )
            elif config.overwrite:
                workspace.remove()
                workspace = Workspace(partial)
            else:
                done = len(workspace.logged())
                raise SkaldError(
                    f"an interrupted run left {str(partial)!r} ({done} of {len(chunks)} chunks done):"
                    " pass --resume to finish it, or --overwrite to start over"
                )
        except BaseException:
            workspace.release()
            raise
    elif config.resume:
        note(f"nothing to resume at {str(partial)!r}: starting the run")
    resumed = partial.is_dir()  # an earlier attempt's chunks are in it: never delete them
    if not resumed:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            workspace.create(identity)
        except OSError as exc:
            workspace.remove()
            _remove_empty(out.parent, created)
            raise SkaldError(f"cannot create {str(partial)!r}: {exc.strerror or exc}") from None

    todo = [c for c in chunks if c[0] not in kept]
    try:
        if on_start is not None:
            on_start(prep)
        summaries = list(kept.values())
        workers = _play_chunks(
            plan, todo, partial, config, prep.games, sum(s.games for s in kept.values()), summaries,
            workspace, on_chunk,
        )
        summaries.sort(key=lambda s: s.chunk)
        wall = time.perf_counter() - t_start
        played = sum(s.games for s in summaries) - sum(s.games for s in kept.values())
        summary = _summarize(plan, prep.games, config.games, summaries, wall, out, played)
        summary.resumed_chunks = len(kept)
        summary.manifest = _manifest(plan, config, prep, summary, summaries, workers)
        _write_json(summary.manifest, partial / "manifest.json")
        workspace.finish()
        _commit(partial, out)
        workspace.release()
    except SkaldError as exc:
        if not resumed:
            workspace.remove()
            _remove_empty(out.parent, created)
            raise
        workspace.release()
        kept_note = type(exc)(f"{exc}; the chunks finished before are still in {str(partial)!r}")
        kept_note.__dict__.update(exc.__dict__)
        raise kept_note from exc
    except KeyboardInterrupt:
        workspace.release()
        done = workspace.logged()
        games_done = sum(int(d.get("games", 0)) for d in done.values())
        raise RunInterrupted(
            f"interrupted after {len(done)} of {len(chunks)} chunks ({games_done:,} of {prep.games:,} games);"
            f" the finished chunks are kept in {str(partial)!r}",
            partial,
        ) from None
    except Exception as exc:
        workspace.release()
        detail = one_line(exc, "no message")
        raise RunStopped(
            f"the run stopped: {type(exc).__name__}: {detail}"[:600]
            + f"; the finished chunks are kept in {str(partial)!r}: fix the cause and rerun with --resume"
        ) from exc
    except BaseException:
        workspace.release()
        raise
    return summary


def _started_chunk_size(out: Path) -> int | None:
    """The chunk size an earlier attempt at the run in ``out`` used (its ``OUT.partial`` or finished
    ``OUT``), or None when there is none to read."""
    for path, keys in ((partial_path(out) / RUN_FILE, ("identity",)), (out / "manifest.json", ("config",))):
        try:
            doc = json.loads(path.read_text())
            for key in keys:
                doc = doc[key]
            return int(doc["chunk_size"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def _finished_run(prep: Prepared, identity: dict[str, Any]) -> RunSummary | None:
    """For ``--resume``: the summary of ``OUT`` when it already holds this very run, else None."""
    path = prep.out / "manifest.json"
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
        config = manifest["config"]
        totals = manifest["totals"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    stored = {
        "game": config.get("game"),
        "players": config.get("players"),
        "games": config.get("games"),
        "strategies": config.get("strategies"),
        "seats": config.get("seats"),
        "seed": config.get("seed"),
        "rules": config.get("rules"),
        "rules_hash": config.get("rules_hash"),
        "max_decisions": config.get("max_decisions"),
        "chunk_size": config.get("chunk_size"),
        "on_error": config.get("on_error", "stop"),
        "skald": manifest.get("versions", {}).get("skald"),
    }
    if stored != identity:
        return None
    plan, games = prep.plan, prep.games
    texts = [spec.text for spec in plan.specs]
    rates = totals.get("win_share_by_strategy", {})
    strategies = []
    for text in dict.fromkeys(texts):
        seat_games = games * texts.count(text)
        rate = float(rates.get(text, 0.0))
        strategies.append(
            {"strategy": text, "seat_games": seat_games, "wins": rate * seat_games, "win_rate": rate}
        )
    seat_rates = totals.get("win_share_by_seat", [0.0] * plan.players)
    seats = [
        {"seat": s, "games": games, "wins": float(seat_rates[s]) * games, "win_rate": float(seat_rates[s])}
        for s in range(plan.players)
    ]
    return RunSummary(
        out=prep.out,
        game=plan.game_name,
        players=plan.players,
        games=games,
        games_requested=int(config.get("games_requested", games)),
        decisions=int(totals.get("decisions", 0)),
        truncated=int(totals.get("truncated", 0)),
        turns=int(totals.get("turns", 0)),
        wall_seconds=0.0,
        games_per_second=float(manifest.get("games_per_second", 0.0)),
        strategies=strategies,
        seats=seats,
        manifest=manifest,
        errored=int(totals.get("errored", 0)),
        already_complete=True,
    )


def _play_chunks(
    plan: RunPlan,
    todo: list[tuple[int, int, int]],
    partial: Path,
    config: RunConfig,
    games: int,
    games_done: int,
    results: list[ChunkSummary],
    workspace: Any,
    on_chunk: Callable[[ChunkSummary], None] | None,
) -> dict[str, Any]:
    """Play the chunks in ``todo``, logging each one as it finishes; return how they were run."""
    from joblib import delayed

    from sim.backends import pool
    from sim.report import progress_bar

    target = partial.resolve()
    gather = config.gather
    finished: set[int] = set()
    lock = threading.Lock()  # the finished chunks and their games change together, as the watcher reads them
    with (
        progress_bar(games, enabled=config.progress, label=f"{plan.game_name} {plan.players}p") as show,
        _watch_progress(target, finished, lock, lambda playing: show(games_done, playing), config.progress),
    ):
        show(games_done)
        if not todo:
            return {"backend": config.backend, "workers": 0, "scheduler": config.scheduler}
        with pool(config.backend, config.jobs, len(todo), config.scheduler) as workers:
            where = None if gather else target
            tasks = (delayed(simulate_chunk)(plan, c, a, b, where, gather) for c, a, b in todo)
            stream = workers.map(tasks)
            try:
                for summary in stream:
                    if summary.parts is not None:
                        for table, data in summary.parts.items():
                            write_part_bytes(data, target / table / part_name(summary.chunk))
                        summary.parts = None
                    workspace.log(summary.to_json())
                    results.append(summary)
                    with lock:
                        finished.add(summary.chunk)
                        games_done += summary.games
                        show(games_done)
                    if on_chunk is not None:
                        on_chunk(summary)
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()  # on failure: joblib cancels the chunks not yet started
            return workers.describe()


@contextmanager
def _watch_progress(
    folder: Path, finished: set[int], lock: threading.Lock, show: Callable[[int], None], enabled: bool
) -> Iterator[None]:
    """While the block runs, a thread reads every ``PROGRESS_SECONDS`` the games that workers have noted
    as done in chunks not yet finished (``sim.resume.read_progress``) and passes their sum to ``show``,
    so that the bar moves between whole chunks (workers that share the folder: not with ``--gather``)."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(PROGRESS_SECONDS):
            noted = read_progress(folder)
            with lock:
                show(sum(n for chunk, n in noted.items() if chunk not in finished))

    thread = threading.Thread(target=watch, name="skald-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _summarize(
    plan: RunPlan,
    games: int,
    requested: int,
    summaries: list[ChunkSummary],
    wall: float,
    out: Path,
    played: int | None = None,
) -> RunSummary:
    """Totals and win shares over ``summaries``; ``played``: games played by this attempt (for games/s)."""
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
    played = games if played is None else played
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
        games_per_second=played / wall if wall > 0 else float("inf"),
        strategies=strategies,
        seats=seat_rows,
        manifest={},
        errored=sum(s.errored for s in summaries),
        first_error=next((s.first_error for s in summaries if s.first_error), None),
    )


@lru_cache(maxsize=1)
def code_identity() -> dict[str, Any]:
    """What code wrote the records: Skald's version, the sha1 of its installed sources (every file of
    ``sim``, ``strategies`` and ``analysis`` but caches, by relative path), and, run from a git checkout,
    its commit and whether those sources differ from it."""
    digest = hashlib.sha1()
    for package in CODE_PACKAGES:
        for path in sorted((CODE_ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(CODE_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    found: dict[str, Any] = {"skald": sim.__version__, "sources_sha1": digest.hexdigest()}
    if (CODE_ROOT / ".git").exists():
        git = ["git", "-C", str(CODE_ROOT)]
        try:
            commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
            status = subprocess.run(
                [*git, "status", "--porcelain", "--", *CODE_PACKAGES],
                capture_output=True,
                text=True,
                timeout=10,
            )
        except (OSError, subprocess.SubprocessError):
            return found
        if commit.returncode == 0:
            found["git_commit"] = commit.stdout.strip()
            found["git_dirty"] = bool(status.stdout.strip())
    return found


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
    prep: Prepared,
    summary: RunSummary,
    summaries: list[ChunkSummary],
    execution: dict[str, Any],
) -> dict[str, Any]:
    return {
        "format": 1,
        "run": plan.run_id,
        "command": config.command,
        "code": code_identity(),
        "config": {
            "game": plan.game_name,
            "players": plan.players,
            "games": prep.games,
            "games_requested": config.games,
            "strategies": [spec.text for spec in plan.specs],
            "seats": plan.seats,
            "seed": plan.seed,
            "rules": plan.rules,
            "rules_hash": plan.rules_hash,
            "data": prep.data_info,
            "max_decisions": plan.max_decisions,
            "on_error": plan.on_error,
            "chunk_size": prep.chunk_size,
            "chunks": [list(c) for c in prep.chunks],
        },
        "tables": {
            "games": "one row per game",
            "seats": "one row per game and seat",
            "turns": "one row per decision",
            "action_fields": list(plan.action_fields),
            "part_fields": list(plan.part_fields),
        },
        "versions": versions(),
        "execution": {
            "jobs": config.jobs,
            **execution,
            "cpus": os.cpu_count(),
            "resumed_chunks": summary.resumed_chunks,
        },
        "timings": {
            "wall_seconds": round(summary.wall_seconds, 6),
            "worker_seconds": round(sum(s.seconds for s in summaries), 6),
        },
        "games_per_second": round(summary.games_per_second, 3),
        "totals": {
            "games": summary.games,
            "decisions": summary.decisions,
            "truncated": summary.truncated,
            "errored": summary.errored,
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

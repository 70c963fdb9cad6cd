"""A run's configuration and plan: what the command line asks for (``RunConfig``), validated into what
every worker needs (``RunPlan``) and how the games are cut into chunks (``Prepared``); nothing here
plays or writes."""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyarrow as pa

import sim
from sim import rules as rulebook
from sim import seats as seating
from sim.errors import SkaldError, one_line
from sim.game import Game, has_capability
from sim.games import GAMES
from sim.seeding import MAX_SEED
from sim.specs import StrategySpec, check_entries, parse_spec, parse_specs, resolved_specs
from sim.tables import GameRows, PartKey, TurnLog

#: a chunk's most games (its records are held in memory), the chunks a large run aims at, a part's
#: fewest games where the run allows, and the workers a cluster named by --scheduler is planned for
MAX_CHUNK = 250
TARGET_CHUNKS = 64
MIN_PART = 100
CLUSTER_WORKERS = 16
#: what ``--on-error`` allows: record a failed game as errored and go on, or fail the run
ON_ERROR: tuple[str, ...] = ("continue", "stop")
#: the most games a run (or ``skald bench``) plays, and the largest ``--chunk-size``: a run of 10**9 games of
#: the fastest game here takes weeks on a core, and its game ids and chunk numbers stay far inside int64
MAX_GAMES = 10**9
#: the largest ``--max-decisions``: far above any game's own cap (the longest, Graenaland's, is 20,000)
MAX_DECISIONS = 10**9
#: the most replicates of a deal a run may play
MAX_REPLICATES = 1000


def check_count(value: int, option: str, most: int) -> None:
    """Refuse a count outside 1..``most`` with one line naming the option and the range."""
    if not 1 <= value <= most:
        raise SkaldError(f"{option} must be at least 1 and at most {most:,}, not {value}")


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
    #: times each deal is played (under every seating), each time with fresh strategy generators
    replicates: int = 1
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


@lru_cache(maxsize=8)
def _import_game(ref: str) -> Game:
    """The game at ``"module:attribute"`` (a plug-in's ``game``), or ``module.GAME`` for a bare module."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr or "GAME")


def resolve_game(ref: str | Game) -> Game:
    """The game behind a plan's ``game_ref``."""
    return _import_game(ref) if isinstance(ref, str) else ref


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


@dataclass(frozen=True)
class ChunkPlan(Sequence[tuple[int, int, int]]):
    """A run's chunks, ``(chunk number, first game, end game)`` covering ``0..games-1`` in ``size`` games each
    (the last one fewer), each computed when asked for: a plan of any size costs nothing to hold."""

    games: int
    size: int

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        chunk = range(len(self))[index]  # an IndexError outside the plan, as a list's
        start = chunk * self.size
        return chunk, start, min(start + self.size, self.games)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        for chunk in range(len(self)):
            yield self[chunk]


def chunk_ranges(games: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """``(chunk number, first game, end game)`` covering ``0..games-1``, as a list (``ChunkPlan``'s)."""
    return list(ChunkPlan(games, chunk_size))


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
    #: times each deal is played, each time with fresh strategy generators (the deal's seed effect)
    replicates: int = 1
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
    replicates: int = 1,
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
    if max_decisions is not None:
        check_count(max_decisions, "--max-decisions", MAX_DECISIONS)
    check_count(replicates, "--replicates", MAX_REPLICATES)
    parse_specs(strategies, obj.name)  # an unknown name is named before the count is checked
    texts = expand_strategies(strategies, players)
    specs = tuple(parse_spec(text, obj.name) for text in texts)
    for spec in specs:
        if getattr(spec.cls, "searches", False) and not has_capability(obj, "determinize"):
            raise SkaldError(
                f"strategy {spec.text!r} searches, which needs determinize(state, seat, rng), and {obj.name}"
                " does not declare it yet (choose a scripted strategy: see `skald strategies`)"
            )
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
        replicates=replicates,
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
    """Refuse an existing non-empty output folder unless ``overwrite``, and even then anything but a Skald
    run folder that holds only what Skald wrote (``sim.outputs.check_run_folder``)."""
    from sim.outputs import check_run_folder

    check_run_folder(out, overwrite)


@dataclass
class Prepared:
    """A validated run: its plan, where it goes and how it is cut into chunks (nothing written yet)."""

    plan: RunPlan
    data_info: dict[str, Any]
    games: int
    out: Path
    chunk_size: int
    chunks: ChunkPlan
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
            "named_specs": resolved_specs(plan.specs),
            "seats": plan.seats,
            "seed": plan.seed,
            "rules": plan.rules,
            "rules_hash": plan.rules_hash,
            "max_decisions": plan.max_decisions,
            "chunk_size": self.chunk_size,
            "on_error": plan.on_error,
            "skald": sim.__version__,
        } | ({"replicates": plan.replicates} if plan.replicates != 1 else {})


def prepare(config: RunConfig) -> Prepared:
    """Validate ``config`` (a ``SkaldError`` for anything wrong); write nothing."""
    check_count(config.games, "--games", MAX_GAMES)
    from sim.backends import check_backend, check_jobs

    check_jobs(config.jobs)
    if config.chunk_size is not None:
        check_count(config.chunk_size, "--chunk-size", MAX_GAMES)
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
        replicates=config.replicates,
    )
    texts = [s.text for s in plan.specs]
    games = seating.round_games(plan.seats, plan.players, config.games, texts, plan.replicates)
    out = (
        Path(config.out)
        if config.out is not None
        else default_out(plan.game_name, plan.players, games, plan.seed)
    )
    if out.name in ("", ".", ".."):
        raise SkaldError(f"--out {str(out)!r} does not name a folder (give a folder name, e.g. results/run1)")
    chunk_size = config.chunk_size or default_chunk_size(games, planned_workers(config))
    prep = Prepared(plan, data_info, games, out, chunk_size, ChunkPlan(games, chunk_size))
    if games != config.games:
        size = seating.block_size(plan.seats, plan.players, texts, plan.replicates)
        times = f" and --replicates {plan.replicates}" if plan.replicates != 1 else ""
        prep.rounding = (
            f"--games {config.games} rounded up to {games}"
            f" (whole blocks of {size} for --seats {plan.seats}{times})"
        )
    prep.plan = replace(plan, run_id=run_id(prep.identity()))
    return prep


def run_id(identity: dict[str, Any]) -> str:
    """The records' ``run`` column: 16 hex digits of the sha1 of what the records are a function of (the
    run's identity less its chunk size), so that copies of one run, or one run cut into other chunks,
    share it and ``SELECT DISTINCT`` across folders removes the copies."""
    key = {k: v for k, v in identity.items() if k != "chunk_size"}
    return hashlib.sha1(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]

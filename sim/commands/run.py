"""``skald run``: play games between strategies and write their records."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from sim import seats as seating
from sim.commands.base import (
    GameArg,
    GameCommand,
    Quiet,
    Resumable,
    app,
    command_line,
    default_players,
    note,
    out,
)
from sim.engines import fallback_note
from sim.errors import SkaldError
from sim.games import get_game
from sim.plan import resolve_game
from sim.signals import stop_on_sigterm

Players = Annotated[
    int | None,
    typer.Option(
        "--players", "-p", help="Players per game, within the game's range (default: min(4, max players))."
    ),
]
Games = Annotated[
    int,
    typer.Option(
        "--games",
        "-g",
        help="Games to play, 1 to 1,000,000,000 (rounded up to whole blocks under rotate and exhaustive"
        " seats, with a note).",
    ),
]
Strategies = Annotated[
    str | None,
    typer.Option(
        "--strategies",
        "-s",
        metavar="SPEC,...",
        help="Comma-separated strategy specs, one per player, or one for all seats"
        " (NAME, NAME:key=value, package.module:Class) (default: the game's best scripted strategy"
        " and random in turn, e.g. greedy,random,greedy,random; random alone for a game with none of its"
        " own).",
    ),
]
Seats = Annotated[str, typer.Option("--seats", help=f"Seat assignment: {' | '.join(seating.MODES)}.")]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes: 1 to 1,024 (more than the cores runs, with a note), or -1 = all cores.",
    ),
]
Seed = Annotated[
    int, typer.Option("--seed", help="Root seed, 0 to 2^63 - 1; each game's seed derives from it.")
]
Out = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="Output folder, absent or empty unless --overwrite (default: results/GAME-Np-Gg-seedS).",
    ),
]
Overwrite = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Replace --out when it is a Skald run folder holding only what Skald wrote (anything else is"
        " refused, naming it).",
    ),
]
Rules = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Rule switch NAME=VALUE (repeatable, once per rule; see `skald rules`).",
    ),
]
Data = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="Component data file instead of the packaged one (a folder of files for a game that keeps one"
        " file per kind, as Greenland does).",
    ),
]
MaxDecisions = Annotated[
    int | None,
    typer.Option(
        "--max-decisions",
        help="Truncate a game after this many decisions, 1 to 1,000,000,000 (default: the game's cap).",
    ),
]
Replicates = Annotated[
    int,
    typer.Option(
        "--replicates",
        help="Play each deal this many times (under every seating), each time with fresh strategy"
        " generators, 1 to 1,000: the deal's share of the outcome, its seed effect, can then be measured"
        " (default: 1).",
    ),
]
ChunkSize = Annotated[
    int | None,
    typer.Option(
        "--chunk-size",
        help="Games per Parquet part, 1 to 1,000,000,000; a resumed run keeps the size it started with"
        " (default: 100, fewer only to give each worker two chunks; at least games/64; at most 250).",
    ),
]
Resume = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Finish an interrupted run of the same options, playing only the missing chunks (not with"
        " --overwrite).",
    ),
]
OnError = Annotated[
    str,
    typer.Option(
        "--on-error",
        help="continue: record a game whose strategy fails as errored and go on; stop: fail the run.",
    ),
]
Backend = Annotated[
    str | None, typer.Option("--backend", help="loky (worker processes here), dask or ray (default: loky).")
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Dask scheduler (tcp://host:8786; implies --backend dask) or, with --backend ray, a Ray"
        " cluster (ray://host:10001, host:6379 or auto) (default: a local cluster).",
    ),
]
Gather = Annotated[
    bool,
    typer.Option(
        "--gather",
        help="With --backend dask or ray: workers send their parts back to be written here (no shared"
        " filesystem).",
    ),
]


@app.command("run", cls=GameCommand)
def run_command(
    game: GameArg,
    players: Players = None,
    games: Games = 200,
    strategies: Strategies = None,
    seats: Seats = seating.DEFAULT_MODE,
    jobs: Jobs = -1,
    seed: Seed = 42,
    out_dir: Out = None,
    overwrite: Overwrite = False,
    rule: Rules = None,
    data: Data = None,
    max_decisions: MaxDecisions = None,
    replicates: Replicates = 1,
    chunk_size: ChunkSize = None,
    quiet: Quiet = False,
    resume: Resume = False,
    on_error: OnError = "continue",
    backend: Backend = None,
    scheduler: Scheduler = None,
    gather: Gather = False,
) -> None:
    """Play GAMES games and write games/, seats/, turns/ Parquet parts and manifest.json."""
    from sim import rules as rulebook
    from sim.backends import check_jobs
    from sim.report import print_summary
    from sim.resume import RunInterrupted
    from sim.runner import RunConfig, check_players, run

    check_exclusive(resume, overwrite, gather, backend, scheduler)
    n = players if players is not None else default_players(get_game(game))
    check_players(get_game(game), n)  # before the default strategies are made for n seats
    jobs_note = check_jobs(jobs)
    config = RunConfig(
        command=shlex.join(command_line) if command_line else None,
        game=game,
        players=n,
        games=games,
        seats=seats,
        jobs=jobs,
        seed=seed,
        out=out_dir,
        strategies=strategies.split(",") if strategies is not None else default_seats(game, n),
        rules=rulebook.parse_assignments(rule or []),
        data=data,
        max_decisions=max_decisions,
        replicates=replicates,
        chunk_size=chunk_size,
        overwrite=overwrite,
        progress=not quiet,
        on_error=on_error,
        resume=resume,
        backend=backend if backend is not None else ("dask" if scheduler is not None else "loky"),
        scheduler=scheduler,
        gather=gather,
    )
    started = _start_notes(None if scheduler is not None else jobs_note, quiet)
    try:
        with stop_on_sigterm():
            summary = run(config, on_note=None if quiet else note, on_start=started)
    except RunInterrupted as exc:  # typer would turn a KeyboardInterrupt into a bare Exit(130)
        raise Resumable(str(exc)) from None
    if not quiet and not summary.already_complete:
        print_summary(summary, out)
    if summary.errored:
        note(
            f"{summary.errored:,} of {summary.games:,} games errored (kept in the records: games.errored,"
            f" error, error_seat, error_turn); first: {summary.first_error}"
        )
    for text in [] if summary.already_complete else summary.closing_notes():
        note(text)


def _start_notes(jobs_note: str | None, quiet: bool) -> Callable[[Any], None]:
    """The notes that must not come before an error, said once every check has passed (``run``'s
    ``on_start``): games rounded up (even with --quiet: the run plays more games than asked), the
    workers, and the engine's fallback."""

    def started(prepared: Any) -> None:
        if prepared.rounding is not None:
            note(prepared.rounding)
        if jobs_note is not None:
            note(jobs_note)
        engine_note = fallback_note(resolve_game(prepared.plan.game_ref))
        if engine_note is not None and not quiet:
            note(engine_note)

    return started


def default_seats(game: str, players: int) -> list[str]:
    """The strategies without ``--strategies``: the game's best scripted strategy and random in turn
    (``greedy,random,greedy,random`` in Skald's own games), or random in every seat for a game without
    strategies of its own (``sim.specs.default_strategies``)."""
    from sim.specs import default_strategies

    texts = default_strategies(game)
    return (texts * players)[:players] if len(texts) > 1 else texts


def check_exclusive(
    resume: bool, overwrite: bool, gather: bool, backend: str | None, scheduler: str | None
) -> None:
    """Refuse options that contradict each other: ``--resume`` with ``--overwrite``, and ``--gather`` where
    the workers write to this machine's folder themselves (the local ``loky`` backend)."""
    if resume and overwrite:
        raise SkaldError(
            "give --overwrite (play the run again) or --resume (keep its finished chunks), not both"
        )
    if gather and (backend == "loky" or (backend is None and scheduler is None)):
        raise SkaldError(
            "--gather applies to --backend dask or ray only (loky's workers write this machine's folder"
            " themselves)"
        )

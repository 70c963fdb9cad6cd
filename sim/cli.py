"""The ``skald`` command line (typer): run, replay, bench, games, strategies, rules, study, report.

``main`` turns user errors (``SkaldError``, bad options, missing arguments, bad numbers)
into one line on stderr and exit code 2, with no traceback; Ctrl-C exits with 130.
Set ``SKALD_DEBUG=1`` to see the traceback of an error as well.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperCommand

from sim import seats as seating
from sim.errors import SkaldError
from sim.games import GAMES, get_game

try:  # recent typer vendors click as typer._click; older versions use click itself
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[no-redef]

app = typer.Typer(
    name="skald",
    help="Simulate board games between scripted strategies and write per-turn records to Parquet.",
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)
out = Console()
err = Console(stderr=True)


class Resumable(Exception):
    """A run interrupted by Ctrl-C or SIGTERM (exit 130); its message says what was kept."""


class GameCommand(TyperCommand):
    """A command whose GAME argument is checked even with ``--help``.

    So ``skald run nosuchgame --help`` fails (exit 2) instead of printing help.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if any(a in ctx.help_option_names for a in args):
            try:
                opts, _, _ = self.make_parser(ctx).parse_args(args=list(args))
            except ClickException:
                opts = {}
            if isinstance(opts.get("game"), str):
                get_game(opts["game"])
        return super().parse_args(ctx, args)


def _default_players(game: Any) -> int:
    return max(game.min_players, min(4, game.max_players))


@app.command("run", cls=GameCommand)
def run_command(
    game: Annotated[str, typer.Argument(help="Game name (see `skald games`).")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (default: min(4, max players)).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games to play.")] = 200,
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            "-s",
            help="Comma-separated strategy specs, one per player, or one for all seats"
            " (NAME, NAME:key=value, package.module:Class) (default: greedy,random,... repeated).",
        ),
    ] = None,
    seats: Annotated[
        str, typer.Option("--seats", help=f"Seat assignment: {' | '.join(seating.MODES)}.")
    ] = seating.DEFAULT_MODE,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores.")] = -1,
    seed: Annotated[int, typer.Option("--seed", help="Root seed; each game's seed derives from it.")] = 42,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Output folder (default: results/GAME-Np-Gg-seedS)."),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an existing output folder.")
    ] = False,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", help="Rule switch NAME=VALUE (repeatable; see `skald rules`)."),
    ] = None,
    data: Annotated[
        Path | None, typer.Option("--data", help="Component data file or folder instead of the packaged one.")
    ] = None,
    max_decisions: Annotated[
        int | None, typer.Option("--max-decisions", help="Truncate a game after this many decisions.")
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", help="Games per Parquet part (default: ceil(games/64), at most 250)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Finish an interrupted run of the same options (plays only the missing chunks)."
        ),
    ] = False,
    on_error: Annotated[
        str,
        typer.Option(
            "--on-error",
            help="continue: record a game whose strategy fails as errored and go on; stop: fail the run.",
        ),
    ] = "continue",
    backend: Annotated[
        str | None,
        typer.Option("--backend", help="loky (worker processes here), dask or ray (default: loky)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Dask scheduler (tcp://host:8786, implies --backend dask) or, with --backend ray, a Ray"
            " cluster (ray://host:10001 or auto); default: a local cluster.",
        ),
    ] = None,
    gather: Annotated[
        bool,
        typer.Option(
            "--gather", help="Workers send their parts back to be written here (no shared filesystem)."
        ),
    ] = False,
) -> None:
    """Play GAMES games and write games/, seats/, turns/ Parquet parts and manifest.json."""
    from sim import rules as rulebook
    from sim.report import print_summary
    from sim.runner import RunConfig, run

    spec = get_game(game)
    n = players if players is not None else _default_players(spec)
    texts = strategies.split(",") if strategies is not None else (["greedy", "random"] * n)[:n]
    if games >= 1 and seats in seating.MODES and spec.min_players <= n <= spec.max_players:
        full = texts * n if len(texts) == 1 else texts
        rounded = seating.round_games(seats, n, games, full) if len(full) == n else games
        if rounded != games and not quiet:
            size = seating.block_size(seats, n, full)
            err.print(
                f"note: --games {games} rounded up to {rounded} (whole blocks of {size} for --seats {seats})"
            )
    config = RunConfig(
        game=game,
        players=n,
        games=games,
        strategies=texts,
        seats=seats,
        jobs=jobs,
        seed=seed,
        out=out_dir,
        rules=rulebook.parse_assignments(rule or []),
        data=data,
        max_decisions=max_decisions,
        chunk_size=chunk_size,
        overwrite=overwrite,
        progress=not quiet,
        on_error=on_error,
        resume=resume,
        backend=backend if backend is not None else ("dask" if scheduler is not None else "loky"),
        scheduler=scheduler,
        gather=gather,
    )
    from sim.resume import RunInterrupted

    try:
        with _stop_on_sigterm():
            summary = run(config, on_note=None if quiet else _note)
    except RunInterrupted as exc:  # typer would turn a KeyboardInterrupt into a bare Exit(130)
        raise Resumable(str(exc)) from None
    if not quiet and not summary.already_complete:
        print_summary(summary, out)
    if summary.errored:
        _note(
            f"{summary.errored:,} of {summary.games:,} games errored (kept in the records: games.errored,"
            f" error, error_seat, error_turn); first: {summary.first_error}"
        )


@app.command("bench", cls=GameCommand)
def bench_command(
    game: Annotated[str, typer.Argument(help="Game name (see `skald games`).")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Players per game.")] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-g", help="Games per configuration (default: a time budget).")
    ] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Time budget per configuration.")] = 5.0,
    seed: Annotated[int, typer.Option("--seed", help="Root seed.")] = 42,
    jobs: Annotated[
        str | None,
        typer.Option("--jobs", "-j", help="Worker counts, comma-separated (default: 1, 2 and all cores)."),
    ] = None,
    strategies: Annotated[
        str | None,
        typer.Option("--strategies", "-s", help="Strategies, comma-separated (default: random,greedy)."),
    ] = None,
    recording: Annotated[
        bool, typer.Option("--recording/--no-recording", help="Also time recording (games/s with records).")
    ] = True,
) -> None:
    """Games/s per strategy and worker count, parallel efficiency, and what recording costs."""
    from sim.bench import JOBS, STRATEGIES, bench

    spec = get_game(game)
    n = players if players is not None else _default_players(spec)
    counts = JOBS if jobs is None else tuple(_int_list(jobs, "--jobs"))
    names = STRATEGIES if strategies is None else tuple(x.strip() for x in strategies.split(",") if x.strip())
    if not names:
        raise SkaldError("--strategies needs at least one strategy")
    speed = Table(title=f"{game} throughput, {n} players, no records")
    for name in ("strategy", "jobs", "games", "decisions", "seconds", "games/s", "decisions/s", "speedup",
                 "efficiency"):
        speed.add_column(name, justify="left" if name == "strategy" else "right")
    cost = Table(title=f"{game} recording, {n} players, 1 worker")
    for name in ("strategy", "games", "games/s bare", "games/s recorded", "cost", "bytes/game",
                 "games/seats/turns bytes"):
        cost.add_column(name, justify="left" if name == "strategy" else "right")
    rows = bench(game, n, strategies=names, jobs=counts, seconds=seconds, games=games, seed=seed,
                 recording=recording)
    for row in rows:
        if "skipped" in row:
            err.print(f"note: skipped strategy {row['strategy']!r}: {row['skipped']}")
        elif as_json:
            print(json.dumps(row), flush=True)
        elif row.get("kind") == "recording":
            by_table = row["parquet_bytes_per_game_by_table"]
            cost.add_row(
                row["strategy"],
                f"{row['games']:,}",
                f"{row['games_per_s_without_records']:,.1f}",
                f"{row['games_per_s']:,.1f}",
                f"{row['recording_cost']:.1%}",
                f"{row['parquet_bytes_per_game']:,.0f}",
                "/".join(f"{by_table[t]:,.0f}" for t in ("games", "seats", "turns")),
            )
        else:
            speed.add_row(
                row["strategy"],
                str(row["jobs"]),
                f"{row['games']:,}",
                f"{row['decisions']:,}",
                f"{row['seconds']:.2f}",
                f"{row['games_per_s']:,.1f}",
                f"{row['decisions_per_s']:,.0f}",
                f"{row['speedup']:.2f}x" if "speedup" in row else "-",
                f"{row['efficiency']:.0%}" if "efficiency" in row else "-",
            )
    if not as_json:
        out.print(speed)
        if recording:
            out.print(cost)


def _int_list(text: str, option: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SkaldError(f"{option} must be comma-separated whole numbers, not {text!r}") from None
    if not values:
        raise SkaldError(f"{option} needs at least one number")
    return values


@app.command("games")
def games_command() -> None:
    """List the games and their player counts."""
    table = Table(title="games")
    for name in ("game", "players", "rule switches", "max decisions"):
        table.add_column(name)
    for name in sorted(GAMES):
        try:
            game = get_game(name)
        except Exception as exc:  # a registered game that cannot be imported yet
            table.add_row(name, "-", "-", f"unavailable: {type(exc).__name__}: {exc}")
            continue
        table.add_row(
            name,
            f"{game.min_players}-{game.max_players}",
            ", ".join(s.name for s in game.rule_switches) or "-",
            str(game.default_max_decisions),
        )
    out.print(table)


@app.command("strategies", cls=GameCommand)
def strategies_command(game: Annotated[str, typer.Argument(help="Game name.")]) -> None:
    """List the built-in strategies that play GAME, and their parameters."""
    from strategies.registry import builtin_names, parse_spec

    spec = get_game(game)
    table = Table(title=f"strategies for {spec.name} (or your own: package.module:Class[:key=value...])")
    for name in ("strategy", "class", "parameters (key=default)", "about"):
        table.add_column(name)
    for name in builtin_names(spec.name):
        cls = parse_spec(name, spec.name).cls
        params = ", ".join(f"{k}={d!r} ({t.__name__})" for k, (t, d) in cls.params.items()) or "-"
        about = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        table.add_row(name, f"{cls.__module__}:{cls.__qualname__}", params, about)
    out.print(table)


@app.command("rules", cls=GameCommand)
def rules_command(game: Annotated[str, typer.Argument(help="Game name.")]) -> None:
    """List GAME's rule switches (--rule NAME=VALUE) with defaults, choices and rulings."""
    spec = get_game(game)
    table = Table(title=f"rule switches of {spec.name}", show_lines=True)
    for name in ("rule", "default", "choices", "ruling"):
        table.add_column(name)
    for switch in spec.rule_switches:
        choices = ", ".join(map(str, switch.choices)) or "any"
        table.add_row(switch.name, str(switch.default), choices, switch.doc)
    if not spec.rule_switches:
        out.print(f"{spec.name} has no rule switches")
        return
    out.print(table)


@app.command("study")
def study_command(
    name: Annotated[
        str | None, typer.Argument(help="Packaged study name (see --list).", show_default=False)
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the packaged studies and exit.")] = False,
    all_: Annotated[
        bool,
        typer.Option("--all", help="Run every packaged study whose games exist; write OUT/report.html."),
    ] = False,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Run your own study file (a copied, edited TOML).")
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-g", help="Games per run (default: the study's).")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores (default: the study's)."),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Output folder (default: results/STUDY; with --all: results)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """Run a study's simulations into results/STUDY/ and write its report.html."""
    from analysis import study as studies

    if list_:
        _list_studies(studies)
        return
    chosen = [bool(name), file is not None, all_]
    if sum(chosen) != 1:
        raise SkaldError("give one study: a NAME (see `skald study --list`), --file my.toml, or --all")
    if all_:
        _run_all_studies(studies, games, jobs, out_dir, quiet)
        return
    spec = studies.load_file(file) if file is not None else studies.get(str(name))
    _check_study(spec, games)
    result = studies.run_study(
        spec,
        games=games,
        jobs=jobs,
        out=out_dir,
        progress=not quiet,
        on_run=None if quiet else _announce,
        on_skip=_note,
    )
    print(f"report: {result.report}")


def _check_study(spec: Any, games: int | None) -> None:
    """Validate every run a study would make before it writes anything (a one-line error otherwise).

    Runs whose game lacks one of their rule switches are left to the study, which skips them.
    """
    from sim.runner import RunConfig, prepare

    if spec.missing():
        return  # run_study says which game is missing
    for planned in spec.plan(games):
        try:
            switches = {s.name for s in get_game(planned.game).rule_switches}
        except SkaldError as exc:
            raise SkaldError(f"study file {spec.source}: run {planned.name}: {exc}") from None
        if set(planned.rules) - switches:
            continue
        config = RunConfig(
            game=planned.game,
            players=planned.players,
            games=planned.games,
            strategies=planned.strategies,
            seats=planned.seats,
            jobs=1,
            seed=planned.seed,
            out=Path("results") / spec.name / planned.name,
            rules=planned.rules,
            data=planned.data,
            max_decisions=planned.max_decisions,
            progress=False,
        )
        try:
            prepare(config)
        except SkaldError as exc:
            raise SkaldError(f"study {spec.source}: run {planned.name}: {exc}") from None


def _note(text: str) -> None:
    print(f"note: {_one_line(text)}", file=sys.stderr, flush=True)


@contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """Treat SIGTERM (``kill``, a batch system) like Ctrl-C during a run: stop, keep it resumable."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _announce(planned: Any, index: int, total: int) -> None:
    print(
        f"run {index + 1}/{total}: {planned.name} ({planned.game}, {planned.players} players, "
        f"{planned.games} games, {', '.join(planned.strategies)})",
        file=sys.stderr,
        flush=True,
    )


def _list_studies(studies: Any) -> None:
    table = Table(title="studies: skald study NAME [--games N] [--jobs N] [--out DIR]")
    table.add_column("study", no_wrap=True)
    for column in ("runs", "games", "status"):
        table.add_column(column, justify="right" if column != "status" else "left", no_wrap=True)
    table.add_column("question")
    for key, spec in studies.packaged().items():
        planned = spec.plan()
        missing = [g for g in spec.games_needed if studies.game_unavailable(g)]
        status = "ready" if not missing else "needs " + ", ".join(missing)
        table.add_row(key, str(len(planned)), f"{sum(r.games for r in planned):,}", status, spec.title)
    out.print(table)
    folder = Path(studies.__file__).parent / "studies"
    out.print(
        f"definitions: {folder}/*.toml (copy one, edit it, run it with --file)", markup=False, highlight=False
    )


def _run_all_studies(
    studies: Any, games: int | None, jobs: int | None, out_dir: Path | None, quiet: bool
) -> None:
    from analysis.report import write_report

    root = out_dir if out_dir is not None else Path("results")
    folders = []
    for key, spec in studies.packaged().items():
        reason = spec.missing()
        if reason:
            print(f"skipped: {reason}", file=sys.stderr, flush=True)
            continue
        result = studies.run_study(
            spec,
            games=games,
            jobs=jobs,
            out=root / key,
            progress=not quiet,
            on_run=None if quiet else _announce,
            on_skip=_note,
        )
        folders.extend(result.runs)
        print(f"report: {result.report}")
    if not folders:
        raise SkaldError("no study could run (see `skald study --list`)")
    combined = write_report(folders, root / "report.html", title="Skald balance report: standard studies")
    print(f"report: {combined}")


@app.command("report")
def report_command(
    results: Annotated[
        list[Path], typer.Argument(help="Result folders: run folders, or study folders holding them.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="HTML file to write (default: FIRST_RESULTS_DIR/report.html)."),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
) -> None:
    """Write a self-contained HTML report (charts embedded; also saved as PNG files beside it)."""
    from analysis.report import write_report
    from analysis.runs import find_runs, read_manifest
    from sim.tables import check_run_parts

    for folder in find_runs(results):
        tables = read_manifest(folder).get("tables", {})
        check_run_parts(folder, tables.get("action_fields", []), tables.get("part_fields", []))
    target = output if output is not None else results[0] / "report.html"
    print(f"report: {write_report(results, target, title=title)}")


@app.command("replay")
def replay_command(
    results: Annotated[Path, typer.Argument(help="A run folder written by `skald run`.")],
    game_id: Annotated[int, typer.Option("--game", "-g", help="The game_id of the game to replay.")],
) -> None:
    """Re-simulate one game from its stored seed, print it turn by turn and check it against the records.

    Exit code 0 when the replay matches the stored games, seats and turns rows, 1 when it does not.
    """
    from sim.replay import replay

    replay(results, game_id, echo=lambda line: print(line, flush=False))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(message: str, code: int, exc: BaseException | None = None) -> int:
    if exc is not None and os.environ.get("SKALD_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print(f"error: {_one_line(message)}", file=sys.stderr, flush=True)
    return code


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``skald`` console script; exits with 0, 2 (user error) or 130 (Ctrl-C)."""
    raise SystemExit(_main(argv))


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = app(args=args, prog_name="skald", standalone_mode=False)
    except Resumable as exc:
        again = args if "--resume" in args else [*args, "--resume"]
        return _fail(f"{exc}; resume with: skald {shlex.join(again)}", 130, exc)
    except SkaldError as exc:
        return _fail(str(exc), getattr(exc, "exit_code", 2), exc)
    except NoArgsIsHelpError as exc:
        print(exc.format_message())
        return 0
    except ClickException as exc:
        hint = ""
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            hint = f" (see: {ctx.command_path} --help)"
        return _fail(exc.format_message() + hint, 2, exc)
    except (KeyboardInterrupt, typer.Abort) as exc:
        return _fail("interrupted", 130, exc)
    except typer.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 1
    if isinstance(result, int) and result == 130:  # typer turns Ctrl-C into Exit(130)
        print("error: interrupted", file=sys.stderr)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    main()

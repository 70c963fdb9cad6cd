"""The ``skald`` command line (typer): run, replay, bench, games, strategies, rules, study, report.

``main`` turns user errors (``SkaldError``, bad options, missing arguments, bad numbers)
into one line on stderr and exit code 2, with no traceback; Ctrl-C exits with 130.
Set ``SKALD_DEBUG=1`` to see the traceback of an error as well.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import traceback
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperCommand

from sim import seats as seating
from sim.errors import SkaldError, one_line
from sim.games import GAMES, get_game
from sim.signals import stop_on_sigterm

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


def _version(value: bool) -> None:
    if value:
        import sim

        print(f"skald {sim.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print skald's version and exit."),
    ] = False,
) -> None:
    """Simulate board games between scripted strategies and write per-turn records to Parquet."""


class Resumable(Exception):
    """A run or study interrupted by Ctrl-C or SIGTERM (exit 130); its message says what was kept.

    ``drop``: options of the interrupted command line that its ``--resume`` command leaves out.
    """

    def __init__(self, message: str, drop: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.drop = drop


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
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes: 1 or more, or -1 = all cores.")
    ] = -1,
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
    from sim.backends import check_jobs
    from sim.report import print_summary
    from sim.runner import Prepared, RunConfig, run

    spec = get_game(game)
    n = players if players is not None else _default_players(spec)
    texts = strategies.split(",") if strategies is not None else (["greedy", "random"] * n)[:n]
    jobs_note = check_jobs(jobs)
    config = RunConfig(
        command=shlex.join(_command_line) if _command_line else None,
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

    def started(prepared: Prepared) -> None:
        """The notes that must not come before an error: said once every check has passed."""
        if prepared.games != games:  # said even with --quiet: the run plays more games than asked
            size = seating.block_size(seats, n, [s.text for s in prepared.plan.specs])
            blocks = f"whole blocks of {size} for --seats {seats}"
            _note(f"--games {games} rounded up to {prepared.games} ({blocks})")
        if jobs_note is not None and scheduler is None:
            _note(jobs_note)

    from sim.resume import RunInterrupted

    try:
        with stop_on_sigterm():
            summary = run(config, on_note=None if quiet else _note, on_start=started)
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
        typer.Option(
            "--jobs", "-j", help="Worker counts, comma-separated; -1 = all cores (default: 1, 2, all cores)."
        ),
    ] = None,
    strategies: Annotated[
        str | None,
        typer.Option("--strategies", "-s", help="Strategies, comma-separated (default: random,greedy)."),
    ] = None,
    recording: Annotated[
        bool, typer.Option("--recording/--no-recording", help="Also time recording (games/s with records).")
    ] = True,
    copying: Annotated[
        bool, typer.Option("--copy/--no-copy", help="Also time state copies (and to_dict/from_dict).")
    ] = True,
) -> None:
    """Games/s per strategy and worker count, parallel efficiency, what recording costs and what a state
    copy costs."""
    from joblib import cpu_count

    from sim.backends import check_jobs
    from sim.bench import JOBS, STRATEGIES, bench
    from sim.runner import check_players
    from strategies.registry import split_specs

    spec = get_game(game)
    n = players if players is not None else _default_players(spec)
    check_players(spec, n)
    given = JOBS if jobs is None else tuple(_int_list(jobs, "--jobs"))
    notes = [check_jobs(count) for count in given]
    counts = tuple(cpu_count() if count == -1 else count for count in given)
    names = STRATEGIES if strategies is None else tuple(split_specs(strategies))
    for note in dict.fromkeys(notes):
        if note is not None:
            _note(note)
    speed = Table(title=f"{game} throughput, {n} players, no records")
    for name in ("strategy", "jobs", "games", "decisions", "seconds", "games/s", "decisions/s", "speedup",
                 "efficiency"):
        speed.add_column(name, justify="left" if name == "strategy" else "right")
    cost = Table(title=f"{game} recording, {n} players, 1 worker")
    for name in ("strategy", "games", "games/s bare", "games/s recorded", "cost", "bytes/game",
                 "games/seats/turns bytes"):
        cost.add_column(name, justify="left" if name == "strategy" else "right")
    copies = Table(title=f"{game} state copies, {n} players, states of games with random choices")
    for name in ("states", "copy µs", "copies/s", "to_dict µs", "from_dict µs", "to_dict+from_dict µs",
                 "copy speedup"):
        copies.add_column(name, justify="right")
    rows = bench(game, n, strategies=names, jobs=counts, seconds=seconds, games=games, seed=seed,
                 recording=recording, copying=copying)
    for row in rows:
        if "skipped" in row and row.get("kind") == "copy":
            err.print(f"note: copy cost not measured: {row['skipped']}")
        elif "skipped" in row:
            err.print(f"note: skipped strategy {row['strategy']!r}: {row['skipped']}")
        elif as_json:
            print(json.dumps(row), flush=True)
        elif row.get("kind") == "copy":
            copies.add_row(
                f"{row['states']:,}",
                f"{row['copy_us']:,.1f}",
                f"{row['copies_per_s']:,.0f}",
                f"{row['to_dict_us']:,.1f}",
                f"{row['from_dict_us']:,.1f}",
                f"{row['round_trip_us']:,.1f}",
                f"{row['copy_speedup']:,.1f}x",
            )
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
        if copying:
            out.print(copies)


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
    """List the registered games (plug-ins of the skald.games entry points) and their player counts."""
    table = Table(title="games")
    for name in ("game", "what it is", "players", "rule switches", "max decisions"):
        table.add_column(name)
    for name in sorted(GAMES):
        try:
            game = get_game(name)
        except Exception as exc:  # a registered game that cannot be imported yet
            why = f"unavailable: {type(exc).__name__}: {exc}"
            table.add_row(name, GAMES[name].description, "-", "-", why)
            continue
        table.add_row(
            name,
            GAMES[name].description,
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


#: what every fixed column of the three tables holds (the game's action and score-part columns aside)
COLUMN_DOCS: dict[str, dict[str, str]] = {
    "games": {
        "run": "the run: a hash of its configuration and seed (copies of one run share it)",
        "game": "the game's name",
        "game_id": "the game's index in the run (0, 1, ...), unique within the run",
        "base_game": "the index its game seed derives from (shared by the seatings of one deal)",
        "game_seed": "the game's seed: `skald replay` plays the game again from it",
        "rules_hash": "sha1 of the game's name, every rule value and the data file's hash",
        "players": "players in the game",
        "decisions": "decisions made (an errored game: those before the failing one)",
        "truncated": "the game did not reach its end (the decision cap, or an error)",
        "winner": "the sole winner's seat; null on a tie and in a truncated game",
        "winners": "the seats sharing the win; empty in a truncated game",
        "winner_strategy": "the sole winner's strategy spec; else null",
        "errored": "a strategy raised or chose illegally (--on-error continue)",
        "error": "the error message (strategy, seat, game seed, turn); null if none",
        "error_seat": "the seat whose strategy failed; null if none",
        "error_turn": "the decision (turn) that failed; null if none",
        "error_strategy": "the failing strategy's spec; null if none",
    },
    "seats": {
        "run": "the run (as in games)",
        "game": "the game's name",
        "game_id": "the game (games.game_id)",
        "seat": "the seat (0 = first player)",
        "strategy": "the strategy spec playing the seat",
        "strategy_index": "the strategy's position in --strategies",
        "score": "the seat's final score",
        "rank": "1 = best; tied seats share a rank",
        "won": "the seat has a share of the win",
        "win_share": "1/k for each of k tied winners; 0 otherwise and in truncated games",
    },
    "turns": {
        "run": "the run (as in games)",
        "game": "the game's name",
        "game_id": "the game (games.game_id)",
        "turn": "the decision's index within its game (0, 1, ...)",
        "seat": "the seat that decided",
        "kind": "the action kind: which action columns the row fills (the others are -1)",
        "score": "the deciding seat's score after the decision",
        "scores": "every seat's score after the decision, by seat",
    },
}


@app.command("records", cls=GameCommand)
def records_command(
    game: Annotated[str, typer.Argument(help="Game name.")],
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print Markdown tables (for the docs).")
    ] = False,
) -> None:
    """The columns of GAME's records: each action kind with the action columns it fills, and what every
    column of the games, seats and turns tables holds."""
    spec = get_game(game)
    for title, header, rows in _record_tables(spec):
        if markdown:
            print(f"### {title}\n")
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
            for row in rows:
                print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
            print()
            continue
        table = Table(title=title)
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        out.print(table, markup=False, highlight=False)


def _type_name(kind: Any) -> str:
    """An Arrow type as the README writes it: float64 (not double), list of int64."""
    if hasattr(kind, "value_type"):
        return f"list of {_type_name(kind.value_type)}"
    return "float64" if str(kind) == "double" else str(kind)


def _record_tables(spec: Any) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of each table ``skald records`` prints for the game ``spec``: its action
    kinds, its action columns, then every column of the three tables.  A game that does not declare
    ``action_kinds`` or ``action_docs`` yet is said to, in the rows they would fill."""
    from sim.tables import games_schema, seats_schema, turns_schema

    name, fields = spec.name, list(spec.action_fields)
    kinds: dict[str, tuple[str, ...]] | None = getattr(spec, "action_kinds", None)
    docs: dict[str, str] | None = getattr(spec, "action_docs", None)
    if kinds is None:
        kind_rows = [["-", f"{name} does not declare its action kinds (action_kinds)"]]
    else:
        kind_rows = [[kind, ", ".join(columns) or "-"] for kind, columns in kinds.items()]
    column_rows = []
    for field in fields:
        if docs is None:
            meaning = f"{name} does not declare its action columns' meanings (action_docs)"
        else:
            meaning = docs.get(field, "(no line in action_docs)")
        users = "?" if kinds is None else ", ".join(k for k, cols in kinds.items() if field in cols) or "-"
        column_rows.append([field, meaning, users])
    every = []
    for table, schema in (
        ("games", games_schema()),
        ("seats", seats_schema(spec.part_fields)),
        ("turns", turns_schema(fields)),
    ):
        for column in schema:
            if table == "turns" and column.name in fields:
                meaning = "an action column (above)"
            elif table == "seats" and column.name in spec.part_fields:
                meaning = f"a {name} score part or play statistic"
            else:
                meaning = COLUMN_DOCS[table][column.name]
            every.append([table, column.name, _type_name(column.type), meaning])
    return [
        (f"{name} turns: action kinds (a column a kind does not fill is -1 in its rows)",
         ["kind", "action columns it fills"], kind_rows),
        (f"{name} turns: action columns (int64)", ["column", "meaning", "filled by"], column_rows),
        (f"{name} records: the columns of the games, seats and turns tables",
         ["table", "column", "type", "meaning"], every),
    ]


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
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Play every run again into a folder that holds a study.")
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Keep the finished runs in the folder, finish an interrupted one, play the rest."
        ),
    ] = False,
) -> None:
    """Run a study's simulations into results/STUDY/ and write its report.html."""
    from analysis import study as studies
    from sim.backends import check_jobs

    if list_:
        _list_studies(studies)
        return
    chosen = [bool(name), file is not None, all_]
    if sum(chosen) != 1:
        raise SkaldError("give one study: a NAME (see `skald study --list`), --file my.toml, or --all")
    jobs_note = check_jobs(jobs) if jobs is not None else None
    options = {"games": games, "jobs": jobs, "progress": not quiet, "overwrite": overwrite, "resume": resume}
    try:
        with stop_on_sigterm():
            if all_:
                _run_all_studies(studies, out_dir, quiet, jobs_note, options)
                return
            spec = studies.load_file(file) if file is not None else studies.get(str(name))
            reason = spec.missing()
            if reason:  # before the folder: a study that cannot run says why, whatever lies in results/
                raise SkaldError(reason)
            _check_study(spec, games)
            folder = out_dir if out_dir is not None else Path("results") / spec.name
            studies.check_folder(folder, overwrite, resume)
            if jobs_note is not None:
                _note(jobs_note)
            result = studies.run_study(
                spec, out=folder, on_run=None if quiet else _announce, on_skip=_note, **options
            )
    except studies.StudyInterrupted as exc:
        raise Resumable(str(exc), drop=("--overwrite",)) from None
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
    print(f"note: {one_line(text)}", file=sys.stderr, flush=True)


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
    studies: Any, out_dir: Path | None, quiet: bool, jobs_note: str | None, options: dict[str, Any]
) -> None:
    from analysis.report import write_report

    root = out_dir if out_dir is not None else Path("results")
    ready = {}
    for key, spec in studies.packaged().items():
        reason = spec.missing()
        if reason:
            print(f"skipped: {reason}", file=sys.stderr, flush=True)
            continue
        studies.check_folder(root / key, options["overwrite"], options["resume"])
        ready[key] = spec
    if not ready:
        raise SkaldError("no study could run (see `skald study --list`)")
    if jobs_note is not None:
        _note(jobs_note)
    folders = []
    for key, spec in ready.items():
        result = studies.run_study(
            spec, out=root / key, on_run=None if quiet else _announce, on_skip=_note, **options
        )
        folders.extend(result.runs)
        print(f"report: {result.report}")
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
    from analysis.report import check_output, write_report
    from analysis.runs import find_runs, read_manifest
    from sim.tables import check_run_parts

    target = check_output(output if output is not None else results[0] / "report.html")
    for folder in find_runs(results):
        tables = read_manifest(folder).get("tables", {})
        check_run_parts(folder, tables.get("action_fields", []), tables.get("part_fields", []))
    print(f"report: {write_report(results, target, title=title)}")


@app.command("compare")
def compare_command(
    results: Annotated[
        list[Path],
        typer.Argument(help="Two or more run folders of one game; each is compared with the first."),
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="HTML file to write (default: FIRST_RESULTS_DIR/compare.html)."),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
) -> None:
    """Compare runs of one game (two rule sets, strategy mixes or data files): every metric's difference
    with the first run, paired where the runs share seeds, the verdict first; then each run's report."""
    from analysis.report import check_output, write_report
    from analysis.runs import find_runs, read_manifest
    from sim.tables import check_run_parts

    target = check_output(output if output is not None else results[0] / "compare.html")
    for folder in find_runs(results):
        tables = read_manifest(folder).get("tables", {})
        check_run_parts(folder, tables.get("action_fields", []), tables.get("part_fields", []))
    print(f"report: {write_report(results, target, title=title, compare=True)}")


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


def _fail(message: str, code: int, exc: BaseException | None = None) -> int:
    if exc is not None and os.environ.get("SKALD_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print(f"error: {one_line(message)}", file=sys.stderr, flush=True)
    return code


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``skald`` console script; exits with 0, 2 (user error) or 130 (Ctrl-C)."""
    raise SystemExit(_main(argv))


#: the command line being run, for the manifests of the runs it starts
_command_line: list[str] = []


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _command_line[:] = ["skald", *args]
    try:
        result = app(args=args, prog_name="skald", standalone_mode=False)
    except Resumable as exc:
        kept = [arg for arg in args if arg not in exc.drop]
        again = kept if "--resume" in kept else [*kept, "--resume"]
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

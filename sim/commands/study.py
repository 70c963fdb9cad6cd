"""``skald study``: run a packaged or user study (or all of them) and write its report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from sim.commands.base import MarginOpt, Resumable, app, margin_option, note, out
from sim.errors import SkaldError
from sim.games import get_game
from sim.signals import stop_on_sigterm

#: the options of a study that plays until decided (``analysis.study.sequential_study``)
UntilDecidedOpt = Annotated[
    bool,
    typer.Option(
        "--until-decided",
        help="Play each run with rotated (or exhaustive) seats in looks, stopping at the first look that"
        " decides its seat questions (default: the study file's until_decided).",
    ),
]
BudgetOpt = Annotated[
    int | None,
    typer.Option(
        "--budget",
        metavar="GAMES",
        help="With --until-decided: the most games a run plays (default: the study's budget, else 8 times"
        " its games).",
        show_default=False,
    ),
]
LooksOpt = Annotated[
    int | None,
    typer.Option(
        "--looks",
        metavar="K",
        help="With --until-decided: the looks a run takes, its batches doubling up to the budget (default:"
        " the study's looks, else 4).",
        show_default=False,
    ),
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
    margin: MarginOpt = None,
    until_decided: UntilDecidedOpt = False,
    budget: BudgetOpt = None,
    looks: LooksOpt = None,
) -> None:
    """Run a study's simulations into results/STUDY/ and write its report.html (the seat verdicts
    decided at --margin, else the study's own margin, else 5 points).  With --until-decided each run
    plays in looks until its seat questions are decided (docs/studies.md)."""
    from analysis.data import study_file
    from analysis.study import study as studies
    from sim.backends import check_jobs

    if list_:
        _list_studies(studies)
        return
    chosen = [bool(name), file is not None, all_]
    if sum(chosen) != 1:
        raise SkaldError("give one study: a NAME (see `skald study --list`), --file my.toml, or --all")
    jobs_note = check_jobs(jobs) if jobs is not None else None
    options: dict[str, Any] = {
        "games": games, "jobs": jobs, "progress": not quiet, "overwrite": overwrite, "resume": resume,
        "margin": margin_option(margin), "until_decided": until_decided, "budget": budget, "looks": looks,
    }  # fmt: skip
    _check_looks(options)
    try:
        with stop_on_sigterm():
            if all_:
                _run_all_studies(studies, out_dir, quiet, jobs_note, options)
                return
            spec = study_file.load_file(file) if file is not None else studies.get(str(name))
            reason = spec.missing()
            if reason:  # before the folder: a study that cannot run says why, whatever lies in results/
                raise SkaldError(reason)
            _check_study(spec, games)
            folder = out_dir if out_dir is not None else Path("results") / spec.name
            studies.check_folder(folder, overwrite, resume)
            if jobs_note is not None:
                note(jobs_note)
            result = studies.run_study(
                spec, out=folder, on_run=None if quiet else _announce, on_skip=note, **options
            )
    except studies.StudyInterrupted as exc:
        raise Resumable(str(exc), drop=("--overwrite",)) from None
    print(f"report: {result.report}")


def _check_looks(options: dict[str, Any]) -> None:
    """``--budget`` and ``--looks`` in range, checked before any study is read (a one-line error otherwise;
    whether the study plays until decided, as they need, is checked once it is read)."""
    from analysis.data.study_file import Options
    from analysis.study import sequential_study

    playing = Options(until_decided=True)
    sequential_study.override(playing, False, options["budget"], options["looks"])


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
            replicates=planned.replicates,
            progress=False,
        )
        try:
            prepare(config)
        except SkaldError as exc:
            raise SkaldError(f"study {spec.source}: run {planned.name}: {exc}") from None


def _announce(planned: Any, index: int, total: int) -> None:
    print(
        f"run {index + 1}/{total}: {planned.name} ({planned.game}, {planned.players} players, "
        f"{planned.games} games, {', '.join(planned.strategies)})",
        file=sys.stderr,
        flush=True,
    )


def _list_studies(studies: Any) -> None:
    from analysis.data.study_file import game_unavailable

    table = Table(title="studies: skald study NAME [--games N] [--jobs N] [--out DIR]")
    table.add_column("study", no_wrap=True)
    for column in ("runs", "games", "status"):
        table.add_column(column, justify="right" if column != "status" else "left", no_wrap=True)
    table.add_column("question")
    for key, spec in studies.packaged().items():
        planned = spec.plan()
        missing = [g for g in spec.games_needed if game_unavailable(g)]
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
    from analysis.report.report import write_report
    from sim.outputs import check_page

    root = out_dir if out_dir is not None else Path("results")
    ready = {}
    for key, spec in studies.packaged().items():
        long = None if spec.in_all else f"study {key!r} is long (run it: skald study {key})"
        reason = spec.missing() or long
        if reason:
            print(f"skipped: {reason}", file=sys.stderr, flush=True)
            continue
        runs = [planned.name for planned in spec.plan(options["games"])]
        studies.check_folder(root / key, options["overwrite"], options["resume"], runs)
        ready[key] = spec
    if not ready:
        raise SkaldError("no study could run (see `skald study --list`)")
    check_page(root / "report.html", "--out", "the combined report", new_folder=True)
    if jobs_note is not None:
        note(jobs_note)
    folders = []
    for key, spec in ready.items():
        result = studies.run_study(
            spec, out=root / key, on_run=None if quiet else _announce, on_skip=note, **options
        )
        folders.extend(result.runs)
        print(f"report: {result.report}")
    combined = write_report(
        folders,
        root / "report.html",
        title="Skald balance report: standard studies",
        progress=not quiet,
        margin=options["margin"],
    )
    print(f"report: {combined}")

"""What ``skald tune`` and ``skald sensitivity`` share: one command body over a checked TOML file, its
options declared once (``--out``, ``--budget``, ``--jobs``, ``--seed``, ``--resume``, ``--quiet``) with
each command's own help, and the interrupted run's ``Resumable`` exit."""

# No ``from __future__ import annotations``: typer reads the options' help from the annotations, which
# name this function's arguments, when the command is registered.

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.commands.base import Resumable, app, note
from sim.signals import stop_on_sigterm


@dataclass(frozen=True)
class Job:
    """A command's own parts: its file's reader, its run, its interruption and its summary lines."""

    load_file: Callable[[Path], Any]
    run: Callable[..., Any]
    interrupted: type[BaseException]
    summary: Callable[[Any], list[str]]


@dataclass(frozen=True)
class Helps:
    """The help of a command and of its options that differ between commands."""

    command: str
    file: str
    budget: str
    seed: str
    resume: str


def excluded_line(games: int, where: str) -> list[str]:
    """The closing line on games truncated or errored (none when there were none); ``where`` names the
    output file's per-row count."""
    if not games:
        return []
    return [f"excluded: {games:,} games truncated or errored, left out of the win shares ({where})"]


def file_command(name: str, helps: Helps, start: Callable[[], Job]) -> Callable[..., None]:
    """Register ``skald NAME FILE.toml`` (writing ``NAME.json`` and ``NAME.html`` under
    ``results/NAME-<file's name>`` unless ``--out``); ``start`` imports the analysis when it runs."""

    def command(
        file: Annotated[Path, typer.Argument(help=helps.file)],
        out_dir: Annotated[
            Path | None, typer.Option("--out", "-o", help=f"Output folder (default: results/{name}-NAME).")
        ] = None,
        budget: Annotated[int | None, typer.Option("--budget", "-b", help=helps.budget)] = None,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores.")] = 1,
        seed: Annotated[int | None, typer.Option("--seed", help=helps.seed)] = None,
        resume: Annotated[bool, typer.Option("--resume", help=helps.resume)] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    ) -> None:
        job = start()
        from sim.backends import check_jobs
        from sim.errors import SkaldError
        from sim.plan import MAX_GAMES, check_count

        if budget is not None:
            check_count(budget, "--budget", MAX_GAMES)
        if seed is not None and not 0 <= seed < 2**31 - 1:
            raise SkaldError(f"--seed must be between 0 and {2**31 - 2}, not {seed}")
        jobs_note = check_jobs(jobs)
        spec = job.load_file(file)
        if seed is not None:
            spec.seed = seed
        folder = out_dir if out_dir is not None else Path("results") / f"{name}-{spec.name}"
        if jobs_note is not None:
            note(jobs_note)
        try:
            with stop_on_sigterm():
                result = job.run(spec, folder, budget=budget, jobs=jobs, resume=resume, progress=not quiet)
        except job.interrupted as exc:
            raise Resumable(str(exc)) from None
        for line in job.summary(result):
            print(line)
        print(f"{name}: {folder / f'{name}.json'}")
        print(f"report: {folder / f'{name}.html'}")

    command.__doc__ = helps.command
    command.__name__ = f"{name}_command"
    return app.command(name)(command)

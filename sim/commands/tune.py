"""``skald tune FILE.toml``: search a tune file's parameters for the configuration that best meets its
objective (``analysis.tune``) and write the best data file or rule set, ``tune.json`` and ``tune.html``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.commands.base import Resumable, app, note
from sim.signals import stop_on_sigterm


@app.command("tune")
def tune_command(
    file: Annotated[Path, typer.Argument(help="Tune file (TOML; see analysis/tunes/*.toml).")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output folder (default: results/tune-NAME).")
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option("--budget", "-b", help="Games in all, search and re-measurement (default: the file's)."),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores.")] = 1,
    seed: Annotated[
        int | None, typer.Option("--seed", help="The search's seed (default: the file's).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the interrupted tune in the output folder.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Search a tune file's parameters (successive halving on common seeds) and re-measure the best."""
    from analysis import tune as tuning
    from sim.backends import check_jobs
    from sim.errors import SkaldError

    if budget is not None and budget < 1:
        raise SkaldError(f"--budget must be at least 1, not {budget}")
    if seed is not None and not 0 <= seed < 2**31 - 1:
        raise SkaldError(f"--seed must be between 0 and {2**31 - 2}, not {seed}")
    jobs_note = check_jobs(jobs)
    spec = tuning.load_file(file)
    if seed is not None:
        spec.seed = seed
    folder = out_dir if out_dir is not None else Path("results") / f"tune-{spec.name}"
    if jobs_note is not None:
        note(jobs_note)
    try:
        with stop_on_sigterm():
            result = tuning.run_tune(
                spec, folder, budget=budget, jobs=jobs, resume=resume, progress=not quiet
            )
    except tuning.TuneInterrupted as exc:
        raise Resumable(str(exc)) from None
    winner = result.confirmation["winner"]
    print(f"winner: candidate {winner}; {result.state.spent():,} games")
    print(f"tune: {folder / 'tune.json'}")
    print(f"report: {folder / 'tune.html'}")

"""``skald sensitivity FILE.toml``: screen the values a file declares (by default every value the game's
data file marks reconstructed) for how much each moves each verdict (``analysis.sensitivity``), and write
``sensitivity.json`` and ``sensitivity.html``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.commands.base import Resumable, app, note
from sim.signals import stop_on_sigterm


@app.command("sensitivity")
def sensitivity_command(
    file: Annotated[Path, typer.Argument(help="Sensitivity file (TOML; see analysis/sensitivity/*.toml).")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output folder (default: results/sensitivity-NAME).")
    ] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", "-b", help="Games in all (default: the file's).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes; -1 = all cores.")] = 1,
    seed: Annotated[
        int | None, typer.Option("--seed", help="The screen's seed (default: the file's).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the interrupted screen in the output folder.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Screen reconstructed values (Morris elementary effects or Sobol indices) on common seeds."""
    from analysis import sensitivity as screening
    from sim.backends import check_jobs
    from sim.errors import SkaldError

    if budget is not None and budget < 1:
        raise SkaldError(f"--budget must be at least 1, not {budget}")
    if seed is not None and not 0 <= seed < 2**31 - 1:
        raise SkaldError(f"--seed must be between 0 and {2**31 - 2}, not {seed}")
    jobs_note = check_jobs(jobs)
    spec = screening.load_file(file)
    if seed is not None:
        spec.seed = seed
    folder = out_dir if out_dir is not None else Path("results") / f"sensitivity-{spec.name}"
    if jobs_note is not None:
        note(jobs_note)
    try:
        with stop_on_sigterm():
            doc = screening.run_sensitivity(
                spec, folder, budget=budget, jobs=jobs, resume=resume, progress=not quiet
            )
    except screening.SensitivityInterrupted as exc:
        raise Resumable(str(exc)) from None
    for measure in doc["measures"]:
        top = doc["effects"][measure["name"]][:3]
        print(f"{measure['name']}: " + ", ".join(r["value"] for r in top))
    print(f"sensitivity: {folder / 'sensitivity.json'}")
    print(f"report: {folder / 'sensitivity.html'}")

"""``skald tune FILE.toml``: search a tune file's parameters for the configuration that best meets its
objective (``analysis.tune``) and write the best data file or rule set, ``tune.json`` and ``tune.html``."""

from __future__ import annotations

from typing import Any

from sim.commands.filerun import Helps, Job, excluded_line, file_command


def _start() -> Job:
    from analysis.tune.engine import TuneInterrupted, run_tune
    from analysis.tune.spec import load_file

    return Job(load_file, run_tune, TuneInterrupted, _summary)


def _summary(result: Any) -> list[str]:
    """The winner and the games spent; how many were truncated or errored (left out of the win shares)."""
    winner = result.confirmation["winner"]
    return [f"winner: candidate {winner}; {result.state.spent():,} games",
            *excluded_line(result.state.excluded(), "tune.json: excluded per candidate")]


tune_command = file_command(
    "tune",
    Helps(
        command="Search a tune file's parameters (successive halving on common seeds)"
        " and re-measure the best.",
        file="Tune file (TOML; see analysis/tunes/*.toml).",
        budget="Games in all, search and re-measurement (default: the file's).",
        seed="The search's seed (default: the file's).",
        resume="Finish the interrupted tune in the output folder.",
    ),
    _start,
)

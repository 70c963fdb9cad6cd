"""``skald sensitivity FILE.toml``: screen the values a file declares (by default every value the game's
data file marks reconstructed) for how much each moves each verdict (``analysis.sensitivity``), and write
``sensitivity.json`` and ``sensitivity.html``."""

from __future__ import annotations

from typing import Any

from sim.commands.filerun import Helps, Job, excluded_line, file_command


def _start() -> Job:
    from analysis.sensitivity.engine import SensitivityInterrupted, run_sensitivity
    from analysis.sensitivity.spec import load_file

    return Job(load_file, run_sensitivity, SensitivityInterrupted, _summary)


def _summary(doc: Any) -> list[str]:
    """The three values that move each measure most; a warning when the screen is too small to tell any
    value from noise."""
    lines = []
    for measure in doc["measures"]:
        top = doc["effects"][measure["name"]][:3]
        lines.append(f"{measure['name']}: " + ", ".join(r["value"] for r in top))
    lines += excluded_line(doc.get("excluded_games", 0), "sensitivity.json: excluded per point")
    band = next(iter(doc.get("noise", {}).values()), None)
    if band is not None and band.get("can_tell") is False:
        lines.append(
            f"warning: {doc['trajectories']} trajectories cannot tell any of the {band['family']} values from"
            f" noise (at least {band['trajectories_to_tell']} needed): give a larger --budget"
        )
    return lines


sensitivity_command = file_command(
    "sensitivity",
    Helps(
        command="Screen reconstructed values (Morris elementary effects or Sobol indices) on common seeds.",
        file="Sensitivity file (TOML; see analysis/sensitivity/*.toml).",
        budget="Games in all (default: the file's).",
        seed="The screen's seed (default: the file's).",
        resume="Finish the interrupted screen in the output folder.",
    ),
    _start,
)

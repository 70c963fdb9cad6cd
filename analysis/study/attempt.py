"""One attempt at a study (``analysis.study.study.run_study``): what it plays and where, shared with the
runs it plays in looks (``analysis.study.sequential_study``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from analysis.data.study_file import Options, PlannedRun, Study


@dataclass
class Attempt:
    """One attempt at a study: its folder, the runs it plays, what an earlier attempt finished (read
    from the folder's log under ``resume``) and the run folders finished so far (``paths``)."""

    study: Study
    folder: Path
    planned: list[PlannedRun]
    jobs: int | None
    overwrite: bool
    resume: bool
    replaying: bool
    finished: set[str]
    on_skip: Callable[[str], None] | None
    progress: bool
    paths: list[Path] = field(default_factory=list)
    margin: float | None = None
    sequential: Options | None = None

"""What a screen is: the checked sensitivity file (``Sensitivity``), the verdicts it measures (``Measure``),
its design (``Layout``) and what it found (``Screen``: everything ``analysis.sensitivity.outputs`` writes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis.sensitivity import morris
from analysis.tune import objectives as obj
from analysis.tune.params import Parameter
from analysis.tune.play import Candidate
from analysis.tune.reader import Head
from analysis.tune.state import State

HEAD_KEYS = {
    "name", "title", "description", "game", "players", "seed", "budget", "games", "seats", "rules", "data",
    "max_decisions", "method", "levels", "spread", "values", "exclude",
}  # fmt: skip
VALUE_KEYS = {"name", "kind", "path", "rule", "low", "high", "values", "labels"}
METHODS = ("morris", "sobol")


@dataclass
class Sensitivity(Head):
    """A checked sensitivity file (its fields named as a tune's, so ``analysis.tune.play`` plays it)."""

    games: int
    method: str
    levels: int
    spread: float
    mode: str
    exclude: list[str]
    parameters: list[Parameter] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    terms: list[obj.Term] = field(default_factory=list)
    not_varied: list[dict[str, str]] = field(default_factory=list)
    source: str = ""
    text: str = ""
    base: Path = field(default_factory=Path)


@dataclass(frozen=True)
class Measure:
    """One measured verdict: its name, words, ``seat`` (a seat verdict) or not, and its term (or None)."""

    name: str
    words: str
    seat: bool
    term: int | None  # the objective term; None: game length (-1: the weighted sum)


@dataclass
class Layout:
    """The design: per design point its candidate (distinct option choices are played once); Morris: per
    trajectory the candidate of its first point, replayed on fresh seeds for the noise dummy."""

    method: str
    points: list[tuple[int, ...]]
    candidate_of: list[int]
    choices: list[tuple[int, ...]]
    size: int  # Morris: trajectories; Sobol: base samples n
    morris: morris.Design | None = None

    @property
    def replicates(self) -> list[int]:
        """Morris: the candidate of each trajectory's first point (its noise replicate's data)."""
        return self.candidate_of[:: len(self.candidate_of) // self.size] if self.morris is not None else []


@dataclass
class Screen:
    """What a screen found: everything ``outputs`` writes."""

    spec: Sensitivity
    budget: int
    runs: list[tuple[str, ...]]
    layout: Layout
    candidates: list[Candidate]
    state: State
    measures: list[Measure] = field(default_factory=list)
    values: dict[int, np.ndarray] = field(default_factory=dict)  # point key -> one value per measure

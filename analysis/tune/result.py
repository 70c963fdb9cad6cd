"""What a tune found (``Outcome``: everything ``analysis.tune.outputs`` writes and
``analysis.tune.confirm`` reads), its budget split between the search and the confirmation (``Budget``,
``split_budget``), and the seeds of its own streams (``derived_seed``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analysis.tune import search as sh
from analysis.tune.play import Candidate
from analysis.tune.reader import Tune
from analysis.tune.state import State
from sim.errors import SkaldError


def derived_seed(seed: int, stream: int) -> int:
    """A seed of the tune's own, for ``stream`` (1: the fresh confirmation games, 2: the bootstrap, 3: the
    one-step check's bootstrap)."""
    return int(np.random.SeedSequence([seed, stream]).generate_state(1)[0]) % (2**31 - 1)


@dataclass
class Budget:
    """A tune's budget split: the search's schedule, the confirmation's games per finalist and run."""

    schedule: sh.Schedule
    confirm_games: int
    finalists: int

    @property
    def planned(self) -> int:
        return self.schedule.cost + self.finalists * self.confirm_games * self.schedule.runs


def split_budget(tune: Tune, budget: int, candidates: int, runs: int, block: int) -> Budget:
    finalists = min(tune.finalists, candidates)
    per = int(budget * tune.confirm) // (finalists * runs) // block * block
    if per < block:
        raise SkaldError(
            f"a budget of {budget:,} games leaves no whole seat block ({block} games) per finalist"
            " and run for the confirmation (give a larger --budget)"
        )
    schedule = sh.plan(candidates, budget - per * finalists * runs, tune.eta, finalists, runs, block)
    return Budget(schedule, per, finalists)


@dataclass
class Outcome:
    """What a tune found: everything ``outputs`` writes."""

    tune: Tune
    budget: int
    candidates: list[Candidate]
    runs: list[tuple[str, ...]]
    rungs: list[sh.Rung]
    plan: Budget
    state: State
    confirm_seed: int
    finalists: list[int] = field(default_factory=list)
    confirmation: dict[str, Any] = field(default_factory=dict)
    history: list[tuple[int, float]] = field(default_factory=list)
    #: the winner's one-step neighbours (``analysis.tune.neighbours``)
    one_step: dict[str, Any] = field(default_factory=dict)

"""Running a tune: candidates, the successive-halving search on common seeds, the re-measurement of the
finalists on fresh seeds, and the outputs; resumable from the tune folder's state file."""

from __future__ import annotations

import itertools
import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analysis.tune import confirm, neighbours
from analysis.tune import objectives as obj
from analysis.tune import outputs as tune_outputs
from analysis.tune import search as sh
from analysis.tune.play import (
    Candidate,
    Task,
    check_player_runs,
    chunks,
    plan_for,
    play_tasks,
    write_candidate,
)
from analysis.tune.reader import Head, Tune
from analysis.tune.result import Budget, Outcome, derived_seed, split_budget
from analysis.tune.state import STATE_FILE, State, identity, load
from sim import outputs
from sim import seats as seating
from sim.errors import SkaldError
from sim.games import get_game
from sim.report import progress_bar


class TuneInterrupted(KeyboardInterrupt):
    """A tune stopped by Ctrl-C or SIGTERM; its games are kept in the state file for ``resume``."""


def choices(tune: Tune) -> list[tuple[int, ...]]:
    """The candidates' option indices: every combination when there are at most ``tune.candidates``, else
    that many distinct ones sampled with the tune's seed (in the order of the full enumeration)."""
    sizes = [p.size for p in tune.parameters]
    space = math.prod(sizes)
    if space <= tune.candidates:
        return list(itertools.product(*(range(s) for s in sizes)))
    rng = np.random.default_rng(np.random.SeedSequence([tune.seed, 11]))
    picked: set[tuple[int, ...]] = set()
    while len(picked) < tune.candidates:
        picked.add(tuple(int(rng.integers(s)) for s in sizes))
    return sorted(picked)


def block_of(tune: Head, runs: list[tuple[str, ...]]) -> int:
    return math.lcm(*(seating.block_size(tune.seats, tune.players, list(run)) for run in runs))


def check_folder(out: Path, resume: bool, state_file: str = STATE_FILE, what: str = "tune") -> None:
    """The output folder can take a new run (empty or absent) or, with ``resume``, holds its state file (the
    mark of the folder of a tune or screen: nothing else is ever written into a folder that holds
    anything)."""
    held = outputs.check_folder(out)
    ours = (out / state_file).is_file()
    if resume:
        if not ours:
            raise SkaldError(
                f"nothing to resume in {str(out)!r} (no {state_file}; run the {what} without --resume)"
            )
    elif held and ours:
        raise SkaldError(
            f"{what} folder {str(out)!r} exists and is not empty "
            f"(pass --resume to finish the {what} it holds, or choose another --out)"
        )
    elif held:
        raise SkaldError(
            f"output folder {str(out)!r} exists and is not empty, and holds no {what}: it holds"
            f" {outputs.holds(held)} (choose another --out)"
        )


def prepare(
    tune: Tune, out: Path, budget: int, resume: bool
) -> tuple[list[Candidate], list[tuple[str, ...]], Budget, State]:
    """Check the folder and the budget, then write the candidates' data files and open the state."""
    check_folder(out, resume)
    ident = identity(tune.text, budget, tune.seed)
    state = load(out / STATE_FILE, ident) if resume else State(ident, path=out / STATE_FILE)
    runs = obj.runs_of(tune.terms)
    picked = choices(tune)
    split_budget(
        tune, budget, len(picked), len(runs), block_of(tune, runs)
    )  # fails before anything is written
    game = get_game(tune.game)
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    candidates = [write_candidate(tune, game, i, c, out) for i, c in enumerate(picked)]
    for candidate in candidates:
        check_player_runs(candidate, runs)
    valid = [c for c in candidates if c.invalid is None]
    if not valid:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise SkaldError(f"tune file {tune.source}: no candidate's data loads ({candidates[0].invalid})")
    plan = split_budget(tune, budget, len(valid), len(runs), block_of(tune, runs))
    state.save()
    return candidates, runs, plan, state


class Player:
    """Plays candidates' games into the state, on common seeds (search) or fresh ones (confirmation)."""

    def __init__(
        self,
        tune: Tune,
        candidates: list[Candidate],
        runs: list[tuple[str, ...]],
        state: State,
        jobs: int,
        show: Callable[[int], None],
    ) -> None:
        self.tune, self.runs, self.state, self.jobs, self.show = tune, runs, state, jobs, show
        self.by_index = {c.index: c for c in candidates}
        self.plans: dict[tuple[int, int, int], Any] = {}
        self.history: list[tuple[int, float]] = []

    def _plan(self, cand: int, run: int, seed: int) -> Any:
        key = (cand, run, seed)
        if key not in self.plans:
            self.plans[key] = plan_for(self.tune, self.by_index[cand], self.runs[run], seed)
        return self.plans[key]

    def search(self, cands: list[int], games: int) -> None:
        tasks: list[Task] = []
        for c in cands:
            for r in range(len(self.runs)):
                done = self.state.played((c, r))
                if done < games:
                    tasks.extend(chunks((c, r), self._plan(c, r, self.tune.seed), done, games))
        self._play(tasks, self.state.add)

    def confirm(self, cands: list[int], games: int, seed: int) -> None:
        tasks: list[Task] = []
        for c in cands:
            for r in range(len(self.runs)):
                done = self.state.confirmed((c, r))
                if done < games:
                    tasks.extend(chunks((c, r), self._plan(c, r, seed), done, games))
        self._play(tasks, self.state.add_confirm)

    def _play(self, tasks: list[Task], add: Callable[[tuple[int, int], int, np.ndarray], None]) -> None:
        def done(task: Task, rows: np.ndarray) -> None:
            add(task.key, task.start, rows)
            self.state.save(force=False)
            self.show(self.state.spent())

        play_tasks(tasks, self.jobs, done)
        self.state.save()

    def spent_at(self, games: int) -> int:
        """Games the search has spent once every candidate has its rows up to this rung (a resumed tune holds
        some of the next rung's already: not counted, so the history matches an uninterrupted one)."""
        return sum(min(len(rows), games) for rows in self.state.search.values())

    def stats(self, cand: int, games: int) -> dict[tuple[str, ...], obj.Stats]:
        n, unit = self.tune.players, obj.scale(self.tune.players)
        out = {}
        for r, run in enumerate(self.runs):
            total = self.state.totals((cand, r), games)
            out[run] = obj.Stats.totals(total, games, n, len(obj.distinct(run)), unit)
        return out

    def score(self, cand: int, games: int) -> float:
        value = float(obj.total(self.tune.terms, self.stats(cand, games))[0])
        self.history.append((self.spent_at(games), value))
        return value


def run_tune(
    tune: Tune,
    out: Path,
    *,
    budget: int | None = None,
    jobs: int = 1,
    resume: bool = False,
    progress: bool = True,
) -> Outcome:
    """Run ``tune`` into ``out`` and write its outputs (``analysis.tune.outputs``)."""
    budget = budget if budget is not None else tune.budget
    candidates, runs, plan, state = prepare(tune, out, budget, resume)
    valid = [c.index for c in candidates if c.invalid is None]
    result = Outcome(tune, budget, candidates, runs, [], plan, state, derived_seed(tune.seed, 1))
    try:
        with progress_bar(plan.planned, enabled=progress, label=f"tune {tune.name}") as show:
            player = Player(tune, candidates, runs, state, jobs, lambda done: show(done))
            show(state.spent())
            result.rungs = sh.halve(valid, plan.schedule, player.search, player.score)
            result.finalists = sh.finalists(result.rungs, plan.finalists)
            player.confirm(result.finalists, plan.confirm_games, result.confirm_seed)
    except KeyboardInterrupt:
        state.save()
        raise TuneInterrupted(
            f"tune {tune.name!r} interrupted; its {state.spent():,} games are kept in "
            f"{str(out / STATE_FILE)!r}"
        ) from None
    result.history = _best_so_far(player.history)
    result.confirmation = confirm.confirm(result)
    result.one_step = neighbours.check(result)
    tune_outputs.write(result, out)
    return result


def _best_so_far(history: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """(games spent, the best estimate of any candidate at its latest rung so far) after each estimate."""
    best, points = math.inf, []
    for spent, value in history:
        if not math.isnan(value):
            best = min(best, value)
        points.append((spent, best))
    return points

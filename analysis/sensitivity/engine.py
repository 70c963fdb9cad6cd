"""Running a sensitivity screen: the values' extremes checked against the game, the design (Morris
trajectories or Sobol samples on the grid), every distinct point's data file and games on COMMON seeds
(game g of every point is dealt from the same seed: ``analysis.tune.play``), the measures, the effects;
resumable from the folder's state file (``analysis.tune.state``).  A Morris screen also replays each
trajectory's first point on fresh seeds, the no-effect dummy of ``analysis.sensitivity.noise``; those games
are kept under the negative point ``-1 - trajectory``."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analysis.sensitivity import morris, noise, outputs, sobol
from analysis.sensitivity.measures import measures_of, point_values
from analysis.sensitivity.screen import Layout, Screen, Sensitivity
from analysis.sensitivity.values import level_option
from analysis.tune import objectives as obj
from analysis.tune.engine import block_of, check_folder
from analysis.tune.play import Candidate, chunks, plan_for, play_tasks, write_candidate
from analysis.tune.result import derived_seed
from analysis.tune.state import State, identity, load
from sim.errors import SkaldError
from sim.games import get_game
from sim.report import progress_bar

STATE_FILE = "sensitivity-state.json"
#: the fewest Morris trajectories (sigma and an interval need two) and Sobol base samples
MIN_TRAJECTORIES = 2
MIN_SAMPLES = 4


class SensitivityInterrupted(KeyboardInterrupt):
    """A screen stopped by Ctrl-C or SIGTERM; its games are kept in the state file for ``--resume``."""


def check_extremes(spec: Sensitivity, game: Any) -> Sensitivity:
    """``spec`` less the values whose lowest or highest option the game refuses (each alone, the others
    at their packaged value): those move to ``not_varied`` with the game's reason."""
    keep, kinds, dropped = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for j, (param, kind) in enumerate(zip(spec.parameters, spec.kinds, strict=True)):
            alone = dataclasses.replace(spec, parameters=[param])
            bad = None
            for side, i in enumerate(
                sorted({0, param.size - 1})
            ):  # a file name of its own: games cache by path
                cand = write_candidate(alone, game, 2 * j + side, (i,), Path(tmp))
                reason = (cand.invalid or "").replace(str(Path(tmp) / "candidates") + "/", "")
                bad = bad or cand.invalid and f"{param.labels[i]}: {reason}"
            if bad:
                dropped.append({"name": param.name, "path": param.target, "why": f"the game refuses {bad}"})
            else:
                keep.append(param)
                kinds.append(kind)
    if not keep:
        raise SkaldError(
            f"sensitivity file {spec.source}: the game refuses every value's range ({dropped[0]['why']})"
        )
    return dataclasses.replace(spec, parameters=keep, kinds=kinds, not_varied=[*spec.not_varied, *dropped])


def size_for(spec: Sensitivity, budget: int, per_point: int) -> int:
    """Morris trajectories or Sobol base samples (a power of 2) that the budget pays for, the packaged
    point's games first (a Morris trajectory costs k + 2 points: its k + 1 and the noise replicate)."""
    k = len(spec.parameters)
    left = budget - per_point
    if spec.method == "morris":
        r = left // (per_point * (k + 2)) if left > 0 else 0
        if r < MIN_TRAJECTORIES:
            need = per_point * (1 + MIN_TRAJECTORIES * (k + 2))
            raise SkaldError(
                f"a budget of {budget:,} games pays for {max(r, 0)} Morris trajectories over {k} values "
                f"at {per_point} games a point (at least {need:,} for {MIN_TRAJECTORIES};"
                " give a larger --budget)"
            )
        return r
    n = 1
    while (2 * n) * (k + 2) * per_point <= left:
        n *= 2
    if n < MIN_SAMPLES:
        need = per_point * (1 + MIN_SAMPLES * (k + 2))
        raise SkaldError(
            f"a budget of {budget:,} games pays for too few Sobol samples over {k} values "
            f"(at least {need:,} for n = {MIN_SAMPLES}; give a larger --budget or use method = 'morris')"
        )
    return n


def layout(spec: Sensitivity, budget: int, per_point: int) -> Layout:
    k, size = len(spec.parameters), size_for(spec, budget, per_point)
    plan = None
    if spec.method == "morris":
        rng = np.random.default_rng(np.random.SeedSequence([spec.seed, 21]))
        plan = morris.design(k, size, spec.levels, rng)
        points = plan.every_point()
    else:
        points = sobol.design(k, size, spec.levels, derived_seed(spec.seed, 22))
    index: dict[tuple[int, ...], int] = {(): 0}  # 0: the packaged values
    choices: list[tuple[int, ...]] = [()]
    candidate_of = []
    for point in points:
        choice = tuple(
            level_option(p.size, lv, spec.levels) for p, lv in zip(spec.parameters, point, strict=True)
        )
        if choice not in index:
            index[choice] = len(choices)
            choices.append(choice)
        candidate_of.append(index[choice])
    return Layout(spec.method, points, candidate_of, choices, size, plan)


def prepare(spec: Sensitivity, out: Path, budget: int, resume: bool) -> Screen:
    check_folder(out, resume, STATE_FILE, "sensitivity")
    runs = obj.runs_of(spec.terms)
    block = block_of(spec, runs)
    if spec.games % block:
        raise SkaldError(
            f"sensitivity file {spec.source}: games = {spec.games} is not a whole number of seat blocks "
            f"({block} games with seats = {spec.seats!r})"
        )
    game = get_game(spec.game)
    spec = check_extremes(spec, game)
    plan = layout(spec, budget, spec.games * len(runs))
    ident = identity(spec.text, budget, spec.seed)
    state = load(out / STATE_FILE, ident) if resume else State(ident, path=out / STATE_FILE)
    out.mkdir(parents=True, exist_ok=True)
    candidates = []
    packaged = dataclasses.replace(spec, parameters=[])  # point 0: every value as packaged
    for i, choice in enumerate(plan.choices):
        candidates.append(write_candidate(spec if choice else packaged, game, i, choice, out))
    if candidates[0].invalid:
        raise SkaldError(
            f"sensitivity file {spec.source}: the packaged data does not load ({candidates[0].invalid})"
        )
    state.save()
    return Screen(spec, budget, runs, plan, candidates, state)


def points_to_play(screen: Screen) -> list[tuple[int, Candidate, int]]:
    """(point key, candidate, seed) of every valid candidate on the screen's seed (common to all points),
    then every trajectory's replicate of its first point on its fresh seed (Morris)."""
    spec, cands = screen.spec, screen.candidates
    out = [(c.index, c, spec.seed) for c in cands if c.invalid is None]
    for t, c in enumerate(screen.layout.replicates):
        if cands[c].invalid is None:
            out.append((noise.replicate_key(t), cands[c], noise.replicate_seed(spec.seed, t)))
    return out


def play(screen: Screen, jobs: int, show: Callable[[int], None]) -> None:
    """Every point's missing games, run by run (``points_to_play``)."""
    spec, state = screen.spec, screen.state
    tasks = []
    for key, cand, seed in points_to_play(screen):
        for r, run in enumerate(screen.runs):
            played = state.played((key, r))
            if played < spec.games:
                plan = plan_for(spec, cand, run, seed)
                tasks.extend(chunks((key, r), plan, played, spec.games))

    def done(task: Any, rows: np.ndarray) -> None:
        state.add(task.key, task.start, rows)
        state.save(force=False)
        show(state.spent())

    play_tasks(tasks, jobs, done)
    state.save()


def run_sensitivity(
    spec: Sensitivity,
    out: Path,
    *,
    budget: int | None = None,
    jobs: int = 1,
    resume: bool = False,
    progress: bool = True,
) -> dict[str, Any]:
    """Run the screen into ``out``; write and return ``sensitivity.json``'s document."""
    budget = budget if budget is not None else spec.budget
    screen = prepare(spec, out, budget, resume)
    total = len(points_to_play(screen)) * len(screen.runs) * spec.games
    try:
        with progress_bar(total, enabled=progress, label=f"sensitivity {spec.name}") as show:
            show(screen.state.spent())
            play(screen, jobs, lambda n: show(n))
    except KeyboardInterrupt:
        screen.state.save()
        raise SensitivityInterrupted(
            f"sensitivity {spec.name!r} interrupted; its {screen.state.spent():,} games are kept in "
            f"{str(out / STATE_FILE)!r}"
        ) from None
    screen.measures = measures_of(screen.spec)
    for key, _, _ in points_to_play(screen):
        screen.values[key] = point_values(screen, key)
    return outputs.write(screen, out)

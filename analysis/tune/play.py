"""Playing candidates: each candidate's data file under the tune folder, and its games with the runner.

A candidate's games are those of ``skald run GAME --players N --strategies TABLE --seats MODE --seed S
--rule ... --data candidates/cNNN.toml`` (the plan is ``sim.plan.make_plan``'s, each game
``sim.runner.play_indexed``'s), so game ``g`` of every candidate is dealt from the same seed: candidates
are compared on common seeds; ``params.PLAYER`` in a table is the candidate's player (``table_of``).
Nothing is recorded but one row of whole numbers per game (``objectives.Stats``); games are cut into
chunks of ``CHUNK`` (independent of ``--jobs``) and played in this process (``--jobs 1``) or by loky
workers, their rows returned in order.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from joblib import delayed

from analysis.tune import objectives as obj
from analysis.tune import params as P
from analysis.tune.check import base_file, read_docs
from analysis.tune.reader import Head, Varied
from analysis.tune.tomlfile import dumps
from sim.backends import loky_parallel
from sim.errors import SkaldError, one_line
from sim.plan import make_plan, resolve_game
from sim.runner import play_indexed

CHUNK = 50


@dataclass
class Candidate:
    """One configuration: its option index per parameter, rules and data file (None: the base data), and
    its player's spec (None: a tune without a player)."""

    index: int
    choice: tuple[int, ...]
    rules: dict[str, Any]
    data: str | None
    invalid: str | None = None
    player: str | None = None


def write_candidate(tune: Varied, game: Any, index: int, choice: tuple[int, ...], folder: Path) -> Candidate:
    """Build candidate ``index``'s rules and data file under ``folder/candidates``; a candidate whose data
    the game refuses is kept with the reason (``invalid``) and never played."""
    rules, docs, alternative = P.apply(
        tune.parameters, choice, lambda alt: read_docs(alt or base_file(tune, game))
    )
    rules = {**tune.rules, **rules}
    data = alternative if alternative is not None else tune.data
    if docs:
        data = _write_docs(tune, game, index, choice, docs, alternative, folder)
    player = P.player_spec(getattr(tune, "player", None), tune.parameters, choice)
    candidate = Candidate(index, choice, rules, data, player=player)
    try:
        make_plan(tune.game, tune.players, [player or "random"], seats=tune.seats, rules=rules, data=data)
    except SkaldError as exc:
        candidate.invalid = one_line(str(exc))
    except Exception as exc:  # a game's loader that trips over a changed value in its own way
        candidate.invalid = one_line(f"{type(exc).__name__}: {exc}")
    return candidate


def _write_docs(
    tune: Varied,
    game: Any,
    index: int,
    choice: tuple[int, ...],
    docs: dict[str | None, Any],
    alternative: str | None,
    folder: Path,
) -> str:
    source = alternative or base_file(tune, game)
    header = [f"written by skald tune ({tune.name}), candidate {index}, from {Path(source).name}:"]
    header += [f"  {k} = {v}" for k, v in P.describe(tune.parameters, choice).items()]
    target = folder / "candidates" / f"c{index:04d}"
    if None in docs:
        path = target.with_suffix(".toml")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(docs[None], header), encoding="utf-8")
        return str(path)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    for name, doc in docs.items():
        (target / str(name)).write_text(dumps(doc, header), encoding="utf-8")
    return str(target)


def check_player_runs(candidate: Candidate, runs: list[tuple[str, ...]]) -> None:
    """Mark a candidate invalid whose player is written as another strategy of a table it plays in: their
    wins could not be told apart."""
    for run in runs:
        if candidate.invalid is None and P.PLAYER in run and candidate.player in run:
            candidate.invalid = (
                f"its player {candidate.player} is also another strategy of the table {', '.join(run)}"
            )


def table_of(candidate: Candidate, run: tuple[str, ...]) -> list[str]:
    """The strategies a candidate plays in a run: ``params.PLAYER`` is its player."""
    return [candidate.player if s == P.PLAYER and candidate.player is not None else s for s in run]


def plan_for(tune: Head, candidate: Candidate, run: tuple[str, ...], seed: int) -> Any:
    plan, _ = make_plan(
        tune.game,
        tune.players,
        table_of(candidate, run),
        seats=tune.seats,
        seed=seed,
        rules=candidate.rules,
        data=candidate.data,
        max_decisions=tune.max_decisions,
    )
    return plan


def play_rows(plan: Any, start: int, end: int) -> np.ndarray:
    """Per-game rows ``[seat wins x n, strategy wins x k, decisions, failed]`` of games ``start..end-1``
    (wins scaled by ``objectives.scale``)."""
    game = resolve_game(plan.game_ref)
    texts = [s.text for s in plan.specs]
    n = plan.players
    names = obj.distinct(tuple(texts))
    unit = obj.scale(n)
    rows = np.zeros((end - start, n + len(names) + 2), dtype=np.int64)
    for g in range(start, end):
        played = play_indexed(plan, game, g, None, None, texts)
        row = rows[g - start]
        for seat, share in enumerate(played.shares):
            wins = round(share * unit)
            row[seat] += wins
            row[n + names.index(texts[played.order[seat]])] += wins
        row[-2] = played.outcome.decisions
        row[-1] = int(played.failure is not None or played.outcome.truncated)
    return rows


@dataclass(frozen=True)
class Task:
    """Games ``start..end-1`` of ``key`` (a candidate's run: ``(candidate, run index)``) under ``plan``."""

    key: tuple[int, int]
    start: int
    end: int
    plan: Any


def chunks(key: tuple[int, int], plan: Any, start: int, end: int) -> list[Task]:
    """The tasks of games ``start..end-1``, cut at multiples of ``CHUNK``."""
    tasks, g = [], start
    while g < end:
        stop = min(end, (g // CHUNK + 1) * CHUNK)
        tasks.append(Task(key, g, stop, plan))
        g = stop
    return tasks


def _task(task: Task) -> np.ndarray:
    return play_rows(task.plan, task.start, task.end)


def play_tasks(tasks: list[Task], jobs: int, on_done: Callable[[Task, np.ndarray], None]) -> None:
    """Play ``tasks`` (in this process for one job, else on loky workers); ``on_done`` in task order."""
    results: Iterator[np.ndarray]
    if jobs == 1 or len(tasks) <= 1:
        results = (_task(t) for t in tasks)
    else:
        results = loky_parallel(jobs, return_as="generator")(delayed(_task)(t) for t in tasks)
    for task, rows in zip(tasks, results, strict=True):
        on_done(task, rows)

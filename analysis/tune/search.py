"""The search: successive halving over a tune's candidates, on common seeds, within a budget in games.

Why successive halving (Jamieson and Talwalkar 2016; the allocation inside Hyperband) and not NTBEA or
optuna's pruners: the spaces tunes declare are small and discrete (36 layouts, a handful of rule or value
settings), so a model of the landscape buys little, while what matters is that (1) every candidate of a
rung has played exactly the same games (game indices ``0..n``, common seeds), so they are compared paired
and the comparison is as sharp as the games allow; (2) the allocation is a pure function of the results,
so a tune is deterministic for any ``--jobs`` and a resumed tune replays the same decisions from its
saved results; (3) a weak candidate is dropped after a few games instead of getting the full budget.
Optuna's ``SuccessiveHalvingPruner`` gives the same allocation asynchronously, whose order of trials
depends on timing, which would break (2).

The schedule: ``K`` candidates; rung ``r`` keeps ``K_r = max(F, ceil(K / eta^r))`` of them and plays
each to ``n_r = n_0 * eta^r`` games (the games of the rungs before are kept), until ``F`` finalists
remain; ``n_0`` is the largest whole number of seat blocks that keeps the rungs within the budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from sim.errors import SkaldError


@dataclass(frozen=True)
class Schedule:
    """Survivors and cumulative games per candidate for each rung, and what that costs in games."""

    survivors: tuple[int, ...]
    games: tuple[int, ...]
    runs: int  # games per candidate and game index (one per run the objective needs)

    @property
    def cost(self) -> int:
        return cost(self.survivors, self.games, self.runs)


def cost(survivors: tuple[int, ...], games: tuple[int, ...], runs: int) -> int:
    total, before = 0, 0
    for k, n in zip(survivors, games, strict=True):
        total += k * (n - before)
        before = n
    return total * runs


def survivors(candidates: int, eta: int, finalists: int) -> tuple[int, ...]:
    """How many candidates each rung plays (at least one rung; the last one picks the finalists)."""
    counts = [candidates]
    while counts[-1] > finalists:
        nxt = max(finalists, math.ceil(counts[-1] / eta))
        if nxt == counts[-1]:
            break
        counts.append(nxt)
    return tuple(counts[:-1] if len(counts) > 1 else counts)


def plan(candidates: int, budget: int, eta: int, finalists: int, runs: int, block: int) -> Schedule:
    """The schedule that spends at most ``budget`` games; a ``SkaldError`` when even one block per
    candidate does not fit."""
    keep = survivors(candidates, eta, finalists)
    best = None
    units = 1
    while True:
        games = tuple(units * block * eta**r for r in range(len(keep)))
        if cost(keep, games, runs) > budget:
            break
        best, units = games, units + 1
    if best is None:
        need = cost(keep, tuple(block * eta**r for r in range(len(keep))), runs)
        raise SkaldError(
            f"a budget of {budget:,} games is too small for {candidates} candidates: the search needs"
            " at least"
            f" {need:,} (give a larger --budget, or fewer candidates)"
        )
    return Schedule(keep, best, runs)


@dataclass
class Rung:
    """One rung as played: the candidates, the games each had, and their estimates (lower is better)."""

    games: int
    candidates: list[int]
    scores: list[float]


def halve(
    candidates: list[int],
    schedule: Schedule,
    play: Callable[[list[int], int], None],
    score: Callable[[int, int], float],
) -> list[Rung]:
    """Successive halving: ``play(cands, n)`` brings each of ``cands`` to ``n`` games (on the common games
    ``0..n-1``), ``score(c, n)`` is its estimate from those games; ties go to the earlier candidate.
    The last rung's best ``F`` are the finalists (``rungs[-1]`` ranked)."""
    rungs: list[Rung] = []
    alive = list(candidates)
    for r, n in enumerate(schedule.games):
        play(alive, n)
        scores = [score(c, n) for c in alive]
        ranked = sorted(range(len(alive)), key=lambda i: (rank_key(scores[i]), alive[i]))
        rungs.append(Rung(n, [alive[i] for i in ranked], [scores[i] for i in ranked]))
        keep = schedule.survivors[r + 1] if r + 1 < len(schedule.survivors) else None
        if keep is not None:
            alive = sorted(alive[i] for i in ranked[:keep])
    return rungs


def rank_key(value: float) -> float:
    """An estimate as a sort key: NaN (nothing measured) after every number."""
    return math.inf if math.isnan(value) else value


def finalists(rungs: list[Rung], count: int) -> list[int]:
    return rungs[-1].candidates[:count]

"""Studies that play until decided: a group-sequential stopping rule with a fixed number of looks
(reference/decisive-verdicts.md section 3).

The study plans K looks at growing numbers of blocks (``plan_looks``: batches doubling up to the budget)
and splits α over them with an α-spending function (Lan and DeMets 1983) evaluated at the planned
information fractions t_j = n_j / n_K (``look_levels``):

* ``"obrien-fleming"`` (the default): α(t) = 2 − 2Φ(z_{1−α/2} / √t), O'Brien-Fleming-type: it spends
  almost nothing early (a look at an eighth of the budget stops only on overwhelming evidence) and
  keeps nearly all of α for the last look, which is then almost a fixed-sample test at the budget;
* ``"pocock"``: α(t) = α · ln(1 + (e − 1) t), Pocock-type: more even, earlier stops, a smaller last level;
* ``"bonferroni"``: α/K at every look.

Look j decides at its own level α_j = α(t_j) − α(t_{j−1}) (``analysis.stats.decide``: equivalence by the
intersection-union of TOSTs at α_j, a difference by Holm at α_j, intervals at 1 − α_j).  The levels sum
to α, so by the union bound each error keeps its rate whatever the looks' dependence: a false "fair
within δ" at any look has chance at most Σ α_j = α, so has a false "unfair", and the simultaneous
intervals of every look cover together with chance at least 1 − α (those printed at the stop among
them).  The union bound is conservative (the looks are positively correlated); exact group-sequential
boundaries would use that correlation but need the joint law of a multi-position statistic.  The
decision's p values are on α's scale (p · α / α_j): "p < α" still reads as "shown", and those p values
stay valid after the stop, so a page-level rule (``analysis.stats.decide.page``) may combine them.

``look`` and ``look_change`` are pure: the study calls them after each batch with the blocks so far and
stops at the first decided look (``analysis.study.sequential_study``); ``first_decision`` plays a whole plan
on a full matrix (tests and calibration).  The calibration is ``tools/calibrate_decisions.py``.

A study that played until decided leaves ``sequence.json`` beside its run folders
(``analysis.data.sequence``): each run's plan, the look it stopped at and each question's decision at each
look.  The report decides the seat and start-position questions of such a run at its stopping look
(``Stop.decide``; ``analysis.questions.stops`` finds the stops), not at full α.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from analysis.stats.decide import core
from analysis.stats.decide.core import ALPHA, SEAT_MARGIN, Decision
from analysis.stats.decide.seats import change_decision, seat_decision
from analysis.stats.estimates import Array

SPENDING = ("obrien-fleming", "pocock", "bonferroni")
DEFAULT_SPENDING = "obrien-fleming"
#: looks a study takes by default: 64, 128, 256 and 512 blocks for a budget of 512
DEFAULT_LOOKS = 4


def plan_looks(budget_blocks: int, looks: int = DEFAULT_LOOKS) -> tuple[int, ...]:
    """The blocks at each look: batches doubling up to ``budget_blocks`` (n_j = ⌈budget / 2^(K−1−j)⌉),
    at least 2 blocks at the first look and strictly increasing (looks that would repeat a size are
    dropped, so a small budget gets fewer looks)."""
    if looks < 1 or budget_blocks < 2:
        raise ValueError(
            f"a plan needs at least one look and two blocks (looks={looks}, budget={budget_blocks})"
        )
    sizes = [max(2, math.ceil(budget_blocks / 2 ** (looks - 1 - j))) for j in range(looks)]
    return tuple(sorted(set(sizes)))


def spent(t: float, alpha: float = ALPHA, spending: str = DEFAULT_SPENDING) -> float:
    """α(t): the error spent by information fraction ``t`` (0 < t <= 1) by the O'Brien-Fleming-type or
    the Pocock-type function (Bonferroni spends by looks, not by information: ``look_levels``)."""
    if spending == "obrien-fleming":
        return float(2 - 2 * sps.norm.cdf(sps.norm.ppf(1 - alpha / 2) / math.sqrt(t)))
    if spending == "pocock":
        return float(alpha * math.log(1 + (math.e - 1) * t))
    raise ValueError(f"unknown spending {spending!r} (allowed: {', '.join(SPENDING)})")


def look_levels(
    plan: Sequence[int], alpha: float = ALPHA, spending: str = DEFAULT_SPENDING
) -> tuple[float, ...]:
    """α_j, the level of each look of ``plan`` (module docstring): α(t_j) − α(t_{j−1}) at the planned
    fractions t_j = n_j / n_K, or α/K for Bonferroni; they sum to α."""
    plan = tuple(int(n) for n in plan)
    if spending == "bonferroni":
        return tuple(alpha / len(plan) for _ in plan)
    cumulative = [spent(n / plan[-1], alpha, spending) for n in plan]
    cumulative[-1] = alpha  # exactly α at the budget, whatever the rounding
    return tuple(float(x) for x in np.diff([0.0, *cumulative]))


def describe(plan: Sequence[int], look_index: int, spending: str = DEFAULT_SPENDING) -> str:
    """The stopping rule and the look, as a page states it."""
    names = {"obrien-fleming": "O'Brien-Fleming-type", "pocock": "Pocock-type", "bonferroni": "Bonferroni"}
    sizes = ", ".join(str(n) for n in plan)
    return (
        f"look {look_index + 1} of {len(plan)} (blocks {sizes}); {names[spending]} alpha spending, "
        "union bound"
    )


def _levels(plan: Sequence[int], look_index: int, alpha: float, spending: str) -> tuple[float, float]:
    """(this look's level, the next look's, or this one's at the last)."""
    levels = look_levels(plan, alpha, spending)
    if not 0 <= look_index < len(levels):
        raise ValueError(f"look {look_index} is not in a plan of {len(levels)} looks")
    return levels[look_index], levels[min(look_index + 1, len(levels) - 1)]


def look(
    wins_by_block_so_far: Array,
    margin: float = SEAT_MARGIN,
    look_index: int = 0,
    looks: Sequence[int] = (),
    alpha: float = ALPHA,
    spending: str = DEFAULT_SPENDING,
    *,
    labels: Sequence[str] | None = None,
    games: Array | None = None,
    expected: Sequence[float] | None = None,
) -> Decision:
    """The seat decision at look ``look_index`` of the plan ``looks`` (``plan_looks``), on the blocks
    played so far: ``analysis.stats.decide.seat_decision`` at the look's level α_j, its intervals the look's
    (1 − α_j) and (1 − 2α_j) ones, its p values on α's scale, and an undecided verdict's games counted
    at the next look's level.  ``labels``, ``games`` and ``expected`` as ``seat_decision``'s."""
    plan = tuple(looks) or (len(np.asarray(wins_by_block_so_far)),)
    level, next_level = _levels(plan, look_index, alpha, spending)
    return seat_decision(
        wins_by_block_so_far,
        margin,
        alpha,
        level=level,
        next_level=next_level,
        stopping=describe(plan, look_index, spending),
        labels=labels,
        games=games,
        expected=expected,
    )


def look_change(
    side_a: Array,
    side_b: Array,
    margin: float = SEAT_MARGIN,
    look_index: int = 0,
    looks: Sequence[int] = (),
    alpha: float = ALPHA,
    spending: str = DEFAULT_SPENDING,
    *,
    labels: Sequence[str] | None = None,
) -> Decision:
    """``look`` for the change between two sides (``analysis.stats.decide.change_decision``); the plan counts
    each side's blocks."""
    plan = tuple(looks) or (len(np.asarray(side_b)),)
    level, next_level = _levels(plan, look_index, alpha, spending)
    return change_decision(
        side_a,
        side_b,
        margin,
        alpha,
        level=level,
        next_level=next_level,
        stopping=describe(plan, look_index, spending),
        labels=labels,
    )


def first_decision(
    wins_by_block: Array,
    margin: float = SEAT_MARGIN,
    looks: Sequence[int] = (),
    alpha: float = ALPHA,
    spending: str = DEFAULT_SPENDING,
) -> tuple[Decision, int]:
    """Play the plan on a full (blocks x positions) matrix, its first n_j rows at look j, and stop at the
    first look that decides: (its decision, the look's index); the last look's where none does."""
    plan = tuple(looks) or plan_looks(len(np.asarray(wins_by_block)))
    y = np.asarray(wins_by_block, dtype=float)
    if len(y) < plan[-1]:
        raise ValueError(f"{len(y)} blocks for a plan that ends at {plan[-1]}")
    for j, n in enumerate(plan):
        decision = look(y[:n], margin, j, plan, alpha, spending)
        if decision.decision != core.UNDECIDED:
            break
    return decision, j


@dataclass(frozen=True)
class Stop:
    """Where one run of a study that played until decided stopped: its plan (blocks at each look), the
    index of the look it stopped at, the spending and α."""

    plan: tuple[int, ...]
    look: int
    spending: str = DEFAULT_SPENDING
    alpha: float = ALPHA

    @property
    def blocks(self) -> int:
        """The blocks the run holds at its stop."""
        return self.plan[self.look]

    def decide(
        self, wins_by_block: Array, margin: float, *, labels: Sequence[str], games: Array | None = None
    ) -> Decision:
        """The seat (or start-position) decision at the stopping look (``look``)."""
        return look(
            wins_by_block, margin, self.look, self.plan, self.alpha, self.spending, labels=labels, games=games
        )

"""Many verdicts on one page: a stated page-level rule (reference/decisive-verdicts.md section 4).

Each verdict controls its own family (the positions of one player count, say); a page that states many
verdicts corrects their decisive p values once more across the page: Holm (family-wise error) or
Benjamini-Hochberg (false discovery rate), via ``analysis.stats.multiplicity.adjust``.

* ``page_correction``: any p values, one per verdict: the adjusted ones, which survive, the rule's name
  and the family's size.
* ``page_outcomes``: the decisions' outcomes after the rule: a difference stands where its verdict's
  ``difference_p`` survives across the page's verdicts, an equivalence where its ``equivalence_p``
  survives across them (each family at α); otherwise the verdict is undecided.  Every verdict with a
  p value counts in the family, whatever its own outcome, which is what keeps the page's rate of any
  false claim at α.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analysis.stats.decide.core import ALPHA, OUTCOMES, Decision
from analysis.stats.multiplicity import adjust

#: the page rule by default: Holm's, family-wise
PAGE_METHOD = "holm"


@dataclass(frozen=True)
class PageCorrection:
    """One page-level correction: adjusted p values in the order given, which of them survive (adjusted
    p below ``alpha``), the rule (``method``: "Holm" or "Benjamini-Hochberg") and the family's size
    (verdicts with a p value)."""

    p_adjusted: tuple[float, ...]
    survives: tuple[bool, ...]
    method: str
    family: int
    alpha: float

    def describe(self) -> str:
        """The rule in words, as a page states it."""
        return f"{self.method} over {self.family} verdicts on the page"


def page_correction(
    p_values: Sequence[float], alpha: float = ALPHA, method: str = PAGE_METHOD
) -> PageCorrection:
    """Holm (``"holm"``) or Benjamini-Hochberg (``"fdr_bh"``) across the decisive p values of a page's
    verdicts; nan p values (a verdict with no test) stay nan, do not survive and are not counted."""
    result = adjust(np.asarray(p_values, dtype=float), method)
    p = tuple(float(x) for x in result.p_adjusted)
    return PageCorrection(p, tuple(bool(x < alpha) for x in p), result.method, result.family, alpha)


@dataclass(frozen=True)
class PageOutcomes:
    """The page's verdicts after the page rule: ``outcomes`` (one word per decision, from the
    decision's ``OUTCOMES``), and the two corrections behind them."""

    outcomes: tuple[str, ...]
    differences: PageCorrection
    equivalences: PageCorrection


def page_outcomes(
    decisions: Sequence[Decision], alpha: float = ALPHA, method: str = PAGE_METHOD
) -> PageOutcomes:
    """Each decision's outcome after the page rule (module docstring): equivalence where its
    ``equivalence_p`` survives across the page, else a difference where its ``difference_p`` does, else
    undecided."""
    differences = page_correction([d.difference_p for d in decisions], alpha, method)
    equivalences = page_correction([d.equivalence_p for d in decisions], alpha, method)
    outcomes = []
    for i, d in enumerate(decisions):
        undecided, same, differ = OUTCOMES[d.question]
        outcomes.append(
            same if equivalences.survives[i] else differ if differences.survives[i] else undecided
        )
    return PageOutcomes(tuple(outcomes), differences, equivalences)

"""Verdicts decided against a margin δ: fair within δ, unfair, or undecided with the games it would take
(reference/decisive-verdicts.md; the method is described in docs/decisions.md).

* ``seat_decision`` / ``change_decision``: seats (start positions, draft picks, tribes), and the change
  of their effect between two sides (scripted and search play) (``analysis.stats.decide.seats``).
* ``difference_decision`` / ``decide_difference`` / ``seat_gap_decision`` / ``score_spread_decisions``:
  two groups in the quantity's own unit (``analysis.stats.decide.differences``).
* ``page_correction`` / ``page_outcomes``: the page-level rule (``analysis.stats.decide.page``).
* ``Decision``: the result, with ``to_finding()`` and ``rows()`` as plain data; ``decide`` and the
  ``*_effects`` functions work on many replicates at once (the calibration uses them).

Stopping rules that look several times are in ``analysis.stats.sequential``.
"""

from __future__ import annotations

from analysis.stats.decide.core import (
    ALPHA,
    CHANGES,
    DIFFERS,
    FAIR,
    HOLDS,
    OUTCOMES,
    SAME,
    SEAT_MARGIN,
    SHARE_MARGIN,
    UNDECIDED,
    UNFAIR,
    Decision,
    Effects,
    Tests,
    decide,
)
from analysis.stats.decide.differences import (
    decide_difference,
    difference_decision,
    difference_effects,
    score_spread_decisions,
    seat_gap_decision,
)
from analysis.stats.decide.page import (
    PAGE_METHOD,
    PageCorrection,
    PageOutcomes,
    page_correction,
    page_outcomes,
)
from analysis.stats.decide.seats import (
    change_decision,
    change_effects,
    family_size,
    seat_decision,
    seat_effects,
)

__all__ = [
    "ALPHA",
    "CHANGES",
    "DIFFERS",
    "FAIR",
    "HOLDS",
    "OUTCOMES",
    "PAGE_METHOD",
    "SAME",
    "SEAT_MARGIN",
    "SHARE_MARGIN",
    "UNDECIDED",
    "UNFAIR",
    "Decision",
    "Effects",
    "PageCorrection",
    "PageOutcomes",
    "Tests",
    "change_decision",
    "change_effects",
    "decide",
    "decide_difference",
    "difference_decision",
    "difference_effects",
    "family_size",
    "page_correction",
    "page_outcomes",
    "score_spread_decisions",
    "seat_decision",
    "seat_effects",
    "seat_gap_decision",
]

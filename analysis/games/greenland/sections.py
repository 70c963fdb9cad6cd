"""Report sections on Greenland: win and survival rate per tribe (does the game agree with the
history, in which only the Thule survived?), the effect of converting to monotheism, score spreads, and
game length with how often and when tribes die out; one module per section (``greenland_tribes``,
``greenland_conversion``, ``greenland_scores``, ``greenland_length``), what they share in
``greenland_common``."""

from __future__ import annotations

from collections.abc import Callable

from analysis.data.runs import Runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.common import SPREAD_AXIS, SPREADS
from analysis.games.greenland.conversion import conversion_section
from analysis.games.greenland.length import length_section
from analysis.games.greenland.scores import scores_section
from analysis.games.greenland.tribes import tribes_section
from analysis.present.blocks import Section, guarded_sections

__all__ = [
    "SPREADS",
    "SPREAD_AXIS",
    "conversion_section",
    "greenland_sections",
    "length_section",
    "scores_section",
    "tribes_section",
]


def greenland_sections(runs: Runs) -> list[Section]:
    """Tribes, conversion, score spreads, game length and extinctions; only with Greenland records."""
    own = runs.only(game=greenland.GAME)
    if not len(own):
        return []
    parts: list[tuple[Callable[[Runs], Section], str, str, str]] = [
        (
            tribes_section,
            "greenland-tribes",
            "Greenland tribes: winning and surviving",
            "How often does each tribe win and survive?",
        ),
        (
            conversion_section,
            "greenland-conversion",
            "Greenland conversion to monotheism",
            "Does converting to monotheism pay?",
        ),
        (
            scores_section,
            "greenland-scores",
            "Greenland score spreads",
            "How far apart are Greenland scores?",
        ),
        (
            length_section,
            "greenland-length",
            "Greenland game length and extinctions",
            "How long do games last, and how often do tribes die out?",
        ),
    ]
    return guarded_sections(own, parts)

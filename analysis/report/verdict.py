"""One verdict at the top of a report (``Verdict``) and the words the verdicts share, for the verdicts
(``analysis.report.verdicts``) and the sections that make their own (score spreads:
``analysis.report.sections.spreads``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analysis.present.findings import Finding


@dataclass(frozen=True)
class Verdict:
    """One verdict: its game, a short heading under the game's name (``seats``, ``skali against base``),
    the sentence, the link to its evidence, and whether it reports a difference beyond chance (for a
    question decided against a margin: unfair); the page sets those in bold."""

    game: str
    heading: str
    text: str
    href: str
    significant: bool
    kind: str = "equal chances"
    #: the p value of each decision the verdict rests on, for the page rule (``with_page_rule``): a
    #: difference claimed (unfair, changed, a metric that differs) with its own p, 1.0 for a decision
    #: that claims none; empty for a verdict outside the page's family (tunes, screens, ladders)
    claims: tuple[float, ...] = ()


def group_words(groups: dict[str, Any], skip: Sequence[str] = ()) -> str:
    """``3 players, defaults, greedy + random`` from a finding's groups."""
    out = []
    for key, value in groups.items():
        if key in skip:
            continue
        if key == "players":
            out.append(f"{value} players")
        elif key == "variant":
            out.append("default rules" if value == "defaults" else str(value))
        elif key == "mix":
            names = str(value).split(" + ")
            out.append(f"{names[0]} in every seat" if len(set(names)) == 1 else str(value))
        else:
            out.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(out)


def claim(f: Finding, shown: str) -> float:
    """A decision's p value for the page rule: its own where it shows a difference (``shown``: the
    decision's word for one), else 1.0 (it claims none, and counts in the page's family)."""
    return f.p_value if f.decision == shown and f.p_value is not None else 1.0

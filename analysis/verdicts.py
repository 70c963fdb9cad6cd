"""The verdicts at the top of a report: each balance question answered once per game, player count
and variant, in one sentence, worded from the findings of ``report.json`` alone.

A verdict is made from findings by their kind, never from a section's own wording:
- an equal-chances test (metric ``<position> equal chances``) with its positions' win rates
  (``<position> win rate``, the same groups plus the position): which position differs and by how much,
  or that none differs by more than the sample can detect;
- a family of comparisons (unit ``difference`` with an adjusted p): which differences survive the
  correction, or that none does.
Each verdict links to the section that holds its evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analysis.findings import Finding

EQUAL_CHANCES = " equal chances"
WIN_RATE = " win rate"


@dataclass(frozen=True)
class Verdict:
    game: str
    heading: str
    text: str
    href: str
    significant: bool


def game_title(game: str) -> str:
    return game[:1].upper() + game[1:]


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
            out.append(str(value))
        else:
            out.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(out)


def share(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def span(f: Finding, scale: float = 100.0, digits: int = 0) -> str:
    if f.low is None or f.high is None:
        return ""
    return f" [{scale * f.low:.{digits}f}, {scale * f.high:.{digits}f}]"


def p_words(f: Finding) -> str:
    """``Holm-adjusted p = 0.003 over 4 tests`` or ``p = 0.21``."""
    p = f.p_adjusted if f.p_adjusted is not None and (f.family or 1) > 1 else f.p_value
    text = "< 0.001" if p is not None and p < 0.001 else "= -" if p is None else f"= {p:.3f}"
    if f.p_adjusted is not None and (f.family or 1) > 1:
        return f"{f.correction}-adjusted p {text} over {f.family} tests"
    return f"p {text}"


def equal_chances(test: Finding, parts: list[Finding]) -> str:
    """One equal-chances test in words, with its most uneven position."""
    label = test.metric[: -len(EQUAL_CHANCES)]
    position = next((k for k in (parts[0].groups if parts else {}) if k not in test.groups), label)
    worst = max(parts, key=lambda f: abs((f.estimate or 0) - (f.expected or 0)), default=None)
    games = f"{test.games:,} games" + (
        f" in {test.clusters:,} blocks" if test.clusters and test.clusters != test.games else ""
    )
    gap = (
        ""
        if test.detectable is None
        else "; not even a 100-point gap would reliably show at this size"
        if test.detectable >= 1
        else f"; gaps below {100 * test.detectable:.0f} points would not reliably show at this size"
    )
    if worst is None:
        return f"the {test.test} gives {p_words(test)} ({games}){gap}."
    where = f"{label} {worst.groups.get(position)}"
    if test.significant:
        return (
            f"{where} wins {share(worst.estimate)}{span(worst)} against an even {share(worst.expected)} "
            f"({p_words(test)}; {games})."
        )
    return (
        f"no {label} differs from an even {share(worst.expected)} by more than the sample can detect "
        f"({p_words(test)}; {games}{gap}); the most uneven, {where}, wins "
        f"{share(worst.estimate)}{span(worst)}."
    )


def verdicts(findings: Sequence[Finding], sections: Sequence[Any] = ()) -> list[Verdict]:
    """The verdicts the findings support, game by game in the order of the page."""
    known = {getattr(s, "id", None) for s in sections}
    out = []
    for test in findings:
        if not test.metric.endswith(EQUAL_CHANCES) or test.p_value is None:
            continue
        rate_metric = test.metric[: -len(EQUAL_CHANCES)] + WIN_RATE
        parts = [
            f
            for f in findings
            if f.section == test.section
            and f.game == test.game
            and f.metric == rate_metric
            and all(f.groups.get(k) == v for k, v in test.groups.items())
        ]
        heading = f"{game_title(test.game)}, {group_words(test.groups)}"
        text = equal_chances(test, parts)
        out.append(
            Verdict(
                game=test.game,
                heading=heading,
                text=text[:1].upper() + text[1:],
                href=f"#{test.section}" if not known or test.section in known else "",
                significant=test.significant,
            )
        )
    order = {g: i for i, g in enumerate(dict.fromkeys(f.game for f in findings))}
    return sorted(out, key=lambda v: order[v.game])


def by_game(found: Sequence[Verdict]) -> list[tuple[str, list[Verdict]]]:
    """The verdicts as (game title, its verdicts), in the order of the page."""
    games: dict[str, list[Verdict]] = {}
    for v in found:
        games.setdefault(game_title(v.game), []).append(v)
    return list(games.items())

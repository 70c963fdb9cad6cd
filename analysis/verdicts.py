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
DIFFERENCE = " difference"


@dataclass(frozen=True)
class Verdict:
    game: str
    heading: str
    text: str
    href: str
    significant: bool
    kind: str = "equal chances"


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


def p_words(f: Finding, family: bool = True) -> str:
    """``Holm-adjusted p = 0.003 over 4 tests`` (``family``: name the family's size), or ``p = 0.21``."""
    adjusted = f.p_adjusted is not None and (f.family or 1) > 1
    p = f.p_adjusted if adjusted else f.p_value
    text = "= -" if p is None else "< 0.001" if p < 0.001 else f"= {p:.3f}"
    if not adjusted:
        return f"p {text}"
    return f"{f.correction}-adjusted p {text}" + (f" over {f.family} tests" if family else "")


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


def amount(f: Finding) -> str:
    """A difference with its interval in its unit: ``+3.2 pp [-1.0, 7.5]`` for shares (percentage
    points), ``-2.55 [-2.91, -2.19] rounds`` otherwise."""
    pp = f.unit in ("difference", "share")
    scale, digits = (100.0, 1) if pp else (1.0, 2)
    text = "-" if f.estimate is None else f"{scale * f.estimate:+.{digits}f}"
    if f.low is not None and f.high is not None:
        text += f" [{scale * f.low:.{digits}f}, {scale * f.high:.{digits}f}]"
    return f"{text} {'pp' if pp else f.unit}".rstrip()


def comparison(family: list[Finding]) -> tuple[str, bool]:
    """A family of differences (one comparison's metrics) in words, on the adjusted p."""
    first = family[0]
    survive = sorted((f for f in family if f.significant), key=lambda f: f.p_adjusted or 1.0)
    corrected = (
        f"{first.correction}'s correction over {first.family} metrics"
        if (first.family or 1) > 1
        else "one test"
    )
    if not survive:
        return f"no difference survives {corrected}.", False
    parts = [f"{f.metric[: -len(DIFFERENCE)]} {amount(f)} ({p_words(f, family=False)})" for f in survive]
    return f"{len(survive)} of {len(family)} metrics differ after {corrected}: " + "; ".join(
        parts
    ) + ".", True


def verdicts(findings: Sequence[Finding], sections: Sequence[Any] = ()) -> list[Verdict]:
    """The verdicts the findings support, game by game in the order of the page."""
    known = {getattr(s, "id", None) for s in sections}
    out = []
    families: dict[tuple[str, str, tuple], list[Finding]] = {}
    for f in findings:
        if f.metric.endswith(DIFFERENCE) and f.p_adjusted is not None:
            families.setdefault((f.game, f.section, tuple(f.groups.items())), []).append(f)
    for (game, section, groups), family in families.items():
        named = dict(groups)
        heading = (
            f"{game_title(game)}, {group_words(named, skip=('base', 'value'))}: "
            f"{named.get('value')} against {named.get('base')}"
        )
        text, flagged = comparison(family)
        href = f"#{section}" if section in known else ""
        out.append(Verdict(game, heading, text[:1].upper() + text[1:], href, flagged, "comparison"))
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
                href=f"#{test.section}" if test.section in known else "",
                significant=test.significant,
            )
        )
    order = {g: i for i, g in enumerate(dict.fromkeys(f.game for f in findings))}
    return sorted(out, key=lambda v: (order[v.game], v.kind != "equal chances"))


def by_game(found: Sequence[Verdict]) -> list[tuple[str, list[Verdict]]]:
    """The verdicts as (game title, its verdicts), in the order of the page."""
    games: dict[str, list[Verdict]] = {}
    for v in found:
        games.setdefault(game_title(v.game), []).append(v)
    return list(games.items())

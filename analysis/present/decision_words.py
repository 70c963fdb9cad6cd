"""Decisions against a margin in plain words (``analysis.stats.decide``): the words the verdicts at the top of
the page and the sections' readings share, worded from findings alone.

* ``fairness_words``: a ``<position> fairness`` decision: fair within the margin, unfair (which
  position, by how much, whether beyond the margin) or undecided (the half-width and about how many more
  games would decide it);
* ``change_words``: a ``<position> fairness change`` decision between two rule variants;
* ``decision_brief``: a decision in a short clause, for a section's reading.

Each printed interval comes with the p value of the statistic it belongs to.
"""

from __future__ import annotations

from collections.abc import Callable

from analysis.present.findings import Finding
from analysis.stats.decide.core import CHANGES, FAIR, HOLDS, UNFAIR


def points(margin: float | None) -> str:
    """A margin in percentage points: ``5``, ``2.5``."""
    return "-" if margin is None else f"{100 * margin:.4g}"


def even(x: float | None) -> str:
    """An even share: ``25%``, ``33.3%``."""
    return "-" if x is None else f"{100 * x:.1f}".removesuffix(".0") + "%"


def p_is(p: float | None) -> str:
    """``= 0.012``, ``< 0.001`` or ``= -``."""
    return "= -" if p is None else "< 0.001" if p < 0.001 else f"= {p:.3f}"


def span(f: Finding, scale: float = 100.0, digits: int = 0) -> str:
    """`` [21.9, 34.5]``: a finding's interval on ``scale``, or nothing without one."""
    if f.low is None or f.high is None:
        return ""
    return f" [{scale * f.low:.{digits}f}, {scale * f.high:.{digits}f}]"


def games_words(f: Finding) -> str:
    """``800 games in 200 blocks``."""
    games = f"{f.games or 0:,} games"
    return games + (f" in {f.clusters:,} blocks" if f.clusters and f.clusters != f.games else "")


def beyond_margin(f: Finding) -> bool:
    """Whether a decision's interval lies wholly beyond the margin on either side of no effect."""
    if f.low is None or f.high is None or f.expected is None or f.margin is None:
        return False
    return f.low - f.expected > f.margin or f.high - f.expected < -f.margin


def margin_side(f: Finding) -> str:
    """``beyond the 5-point margin`` or ``not shown beyond the 5-point margin`` for a difference shown."""
    m = points(f.margin)
    return f"beyond the {m}-point margin" if beyond_margin(f) else f"not shown beyond the {m}-point margin"


def needed_words(f: Finding) -> str:
    """``about 932 more games would decide it if the estimates held``."""
    if f.games_needed is None:
        return "the estimates do not say how many more games would decide it"
    return f"about {f.games_needed:,} more games would decide it if the estimates held"


def known_words(f: Finding) -> str:
    """``±7.0``: a decision's widest (1 − 2α) half-width in points."""
    return "-" if f.half_width is None else f"±{100 * f.half_width:.1f}"


def fairness_words(f: Finding, label: str) -> str:
    """A ``<label> fairness`` decision in words: fair within the margin (the widest position's
    (1 − 2α) interval with the intersection-union p), unfair (the decisive position's simultaneous
    interval with Holm's p, and whether it lies beyond the margin), or undecided (the half-width and
    about how many more games would decide it)."""
    m = points(f.margin)
    who = f"{label} {f.position}"
    wins = f"{100 * (f.estimate or 0):.1f}%{span(f, 100, 1)}"
    if f.decision == FAIR:
        return (
            f"fair within {m} points: every {label} wins within {m} points of an even {even(f.expected)} "
            f"(widest: {who} wins {wins}; intersection-union p {p_is(f.p_value)}; {games_words(f)})"
        )
    if f.decision == UNFAIR:
        return f"unfair: {unfair_words(f, label)}"
    return (
        f"undecided at a {m}-point margin: {label} shares are known to {known_words(f)} points; "
        f"{needed_words(f)} (least settled: {who} wins {wins}; {games_words(f)})"
    )


def holm_words(f: Finding, label: str) -> str:
    """``Holm p = 0.023 over 4 seats`` (or ``p = 0.04`` for a family of one)."""
    many = (f.family or 1) > 1
    return f"Holm p {p_is(f.p_value)} over {f.family} {label}s" if many else f"p {p_is(f.p_value)}"


def unfair_words(f: Finding, label: str) -> str:
    """An unfair decision's evidence: ``seat 3 wins 33.5% [25.7, 42.3] against an even 25% (Holm p =
    0.023 over 4 seats; 200 games), not shown beyond the 5-point margin``."""
    wins = f"{100 * (f.estimate or 0):.1f}%{span(f, 100, 1)}"
    return (
        f"{label} {f.position} wins {wins} against an even {even(f.expected)} ({holm_words(f, label)}; "
        f"{games_words(f)}), {margin_side(f)}"
    )


def changed_words(f: Finding, label: str) -> str:
    """A change shown: ``seat 1's win share moves +22.5 [5.5, 39.5] points (Holm p = 0.01 over 3 seats;
    80 games), beyond the 5-point margin``."""
    moves = f"{100 * (f.estimate or 0):+.1f}{span(f, 100, 1)} points"
    evidence = f"{holm_words(f, label)}; {games_words(f)}"
    return f"{label} {f.position}'s win share moves {moves} ({evidence}), {margin_side(f)}"


def change_words(f: Finding, label: str) -> str:
    """A ``<label> fairness change`` decision between two variants in words: the same within the margin
    (every position's change inside it, the widest with its (1 − 2α) interval and the intersection-union
    p), changed (the decisive position's change with its simultaneous interval and Holm's p, and whether
    it lies beyond the margin), or undecided (the half-width and the games that would decide it)."""
    m = points(f.margin)
    who = f"{label} {f.position}"
    moves = f"{100 * (f.estimate or 0):+.1f}{span(f, 100, 1)} points"
    if f.decision == HOLDS:
        return (
            f"the same within {m} points: every {label}'s win share changes by less than {m} points "
            f"(widest: {who}, {moves}; intersection-union p {p_is(f.p_value)}; {games_words(f)})"
        )
    if f.decision == CHANGES:
        return f"changed: {changed_words(f, label)}"
    return (
        f"undecided at a {m}-point margin: the changes are known to {known_words(f)} points; "
        f"{needed_words(f)} (least settled: {who}, {moves}; {games_words(f)})"
    )


def decision_brief(f: Finding, label: str) -> str:
    """A fairness decision in a short clause for a section's reading: ``fair within 5 points``,
    ``unfair: start position 3 wins 38.9% [30.8, 47.7] (Holm p = 0.004)``, ``undecided at a 5-point
    margin: shares known to ±7.0 points, about 369 more games would decide it``."""
    m = points(f.margin)
    if f.decision == FAIR:
        return f"fair within {m} points (intersection-union p {p_is(f.p_value)})"
    if f.decision == UNFAIR:
        wins = f"{100 * (f.estimate or 0):.1f}%{span(f, 100, 1)}"
        return f"unfair: {label} {f.position} wins {wins} (Holm p {p_is(f.p_value)})"
    return f"undecided at a {m}-point margin: shares known to {known_words(f)} points, {needed_words(f)}"


def range_words(values: list[float], fmt: str = "{:,.0f}") -> str:
    """``7.0`` or ``3.9-5.7`` (the smallest to the largest)."""
    low, high = min(values), max(values)
    return fmt.format(low) if fmt.format(low) == fmt.format(high) else f"{fmt.format(low)}-{fmt.format(high)}"


def many_decisions(
    items: list[tuple[str, Finding]],
    shown: Callable[[Finding], str],
    words: tuple[str, str, str],
    scale: float = 100.0,
    unit: str = "points",
    what: str = "",
) -> str:
    """Several groups' decisions of one question in one sentence: each group where a difference is shown
    named with ``shown`` (its estimate, interval and p), then how many are the same within the margin
    and how many undecided, with the range of their half-widths (in ``unit``, after ``scale``) and of the
    games that would decide them.  ``items``: (the group in words, its decision); ``words``: the
    decision's values for (a difference, no difference beyond the margin, the phrase for the latter);
    ``what``: what the undecided ones' half-widths are of (``seat shares``)."""
    differ, same, same_phrase = words
    total = len(items)
    parts = []
    flagged = [f"{where}: {shown(f)}" for where, f in items if f.decision == differ]
    if flagged:
        parts.append(f"{len(flagged)} of {total} groups {differ}: " + "; ".join(flagged))
    sames = [where for where, f in items if f.decision == same]
    if sames:
        parts.append(f"{len(sames)} of {total} {same_phrase} ({'; '.join(sames)})")
    open_ = [f for _, f in items if f.decision not in (differ, same)]
    if open_:
        text = f"{len(open_)} of {total} undecided"
        widths = [scale * f.half_width for f in open_ if f.half_width is not None]
        if widths:
            text += f": {what + ' ' if what else ''}known to ±{range_words(widths, '{:.1f}')} {unit}"
        needed = [f.games_needed for f in open_ if f.games_needed is not None]
        if needed:
            each = "it" if len(open_) == 1 else "each"
            text += f", about {range_words([float(n) for n in needed])} more games would decide {each}"
            text += " if the estimates held"
        parts.append(text)
    return "; ".join(parts)

"""The verdicts at the top of a report: each balance question answered once per game, player count
and variant, in one sentence, worded from the findings of ``report.json`` alone.

A verdict is made from findings by the question each answers (``Finding.question``, one of
``analysis.present.findings.QUESTIONS``) and what about (``Finding.subject``: the position label, the
measure's name), never from a metric's or a section's wording:
- an equal-chances test (``EQUAL_CHANCES``) with its decision against the margin (``FAIRNESS``, the same
  subject and groups: ``analysis.stats.decide.seat_decision``): fair within the margin, unfair (which
  position, by how much, and whether beyond the margin) or undecided (how well the shares are known and
  about how many more games would decide it); without a decision, its positions' win rates
  (``WIN_RATE``): which position differs beyond chance, or that none does;
- a family of comparisons (``DIFFERENCE`` with an adjusted p), led by the change in fairness between the
  two sides where there is one (``FAIRNESS_CHANGE``): which differences survive the correction, or that
  none does;
- a seat verdict under stronger play (``STRONGER_PLAY``, decided on the change of every position's win
  share between scripted and search play: ``analysis.report.sections.stronger``'s ``stronger_words``):
  holds within the margin, changes, or undecided with the games that would decide it;
- score spreads (``analysis.report.sections.spreads.spread_verdicts``): the winner's margin and the share of
  close games, and rule variants' spreads decided against the game's margin in points;
- a skill ladder (``SKILL_LADDER`` and ``SKILL_TREND``): whether the larger budget still wins more than
  its share at the largest budget tried, and the trend;
- seats by skill (``SEAT_BY_SKILL``, a skill matrix's): whether the first seat's advantage grows, shrinks
  or holds from the weakest rung to the strongest, decided against the margin;
- a tune (``TUNE_OBJECTIVE``, the winner's ``test`` ``winner``): the winner's confirmed objective with its
  interval, whether it is shown better than the other finalists (Holm), what it changes (``TUNE_CHANGE``);
- a sensitivity screen (``SCREEN_MARGIN`` with the effects, ``SCREEN_EFFECT`` or ``SCREEN_TOTAL`` of the
  same measure, flagged ``could overturn``): the reconstructed values that could overturn the seat
  verdict, with their effect intervals;
- a run none of whose games finished (``UNFINISHED``).
Each verdict links to the section that holds its evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analysis.present.decision_words import (
    change_words,
    changed_words,
    decision_brief,
    fairness_words,
    many_decisions,
    points,
    span,
    unfair_words,
)
from analysis.present.findings import (
    DIFFERENCE,
    EQUAL_CHANCES,
    FAIRNESS,
    FAIRNESS_CHANGE,
    SCREEN_MARGIN,
    SEAT_BY_SKILL,
    SKILL_LADDER,
    SKILL_TREND,
    STRONGER_PLAY,
    TUNE_CHANGE,
    TUNE_OBJECTIVE,
    TUNE_SPENT,
    UNFINISHED,
    WIN_RATE,
    Finding,
)
from analysis.report.sections.sensitivity import STATISTIC
from analysis.report.sections.spreads import spread_verdicts
from analysis.report.sections.stronger import stronger_words
from analysis.report.verdict import Verdict, claim, group_words
from analysis.stats.decide.core import ALPHA, CHANGES, FAIR, HOLDS, UNFAIR
from analysis.stats.decide.page import PAGE_METHOD, PageCorrection, page_correction
from analysis.stats.inference import adjust


def game_title(game: str) -> str:
    return game[:1].upper() + game[1:]


def share(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


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
    label = str(test.subject)
    position = next((k for k in (parts[0].groups if parts else {}) if k not in test.groups), label)
    worst = max(parts, key=lambda f: abs((f.estimate or 0) - (f.expected or 0)), default=None)
    games = f"{test.games:,} games" + (
        f" in {test.clusters:,} blocks" if test.clusters and test.clusters != test.games else ""
    )
    if worst is None:
        return f"the {test.test} gives {p_words(test)} ({games})."
    where = f"{label} {worst.groups.get(position)}"
    if test.significant:
        return (
            f"{where} wins {share(worst.estimate)}{span(worst)} against an even {share(worst.expected)} "
            f"({p_words(test)}; {games})."
        )
    return (
        f"no {label} differs from an even {share(worst.expected)} beyond chance "
        f"({p_words(test)}; {games}); the most uneven, {where}, wins "
        f"{share(worst.estimate)}{span(worst)}."
    )


def fairness_of(test: Finding, findings: Sequence[Finding]) -> Finding | None:
    """The decision against the margin of an equal-chances test's group (same subject, section, game,
    groups)."""
    return next(
        (
            f
            for f in findings
            if f.question == FAIRNESS
            and f.subject == test.subject
            and f.decision is not None
            and f.section == test.section
            and f.game == test.game
            and f.groups == test.groups
        ),
        None,
    )


def fairness_family(decided: list[Finding], label: str) -> str:
    """Several groups' decisions of one question: one clause per group, in the page's order."""
    if len(decided) == 1:
        return fairness_words(decided[0], label) + "."
    m = points(decided[0].margin)
    items = [(group_words(f.groups), f) for f in decided]
    words = (UNFAIR, FAIR, f"fair within {m} points")
    summed = many_decisions(items, lambda f: unfair_words(f, label), words, what=f"{label} shares")
    return f"at a {m}-point margin, {summed}."


def equal_chances_verdict(family: list[Finding], findings: Sequence[Finding], section_known: bool) -> Verdict:
    """One question's verdict (seats, start positions, picks) over its groups' equal-chances tests:
    worded from their decisions against the margin where every group has one (bold: unfair), else from
    the tests (bold: a difference beyond chance)."""
    first = family[0]
    label = str(first.subject)
    href = f"#{first.section}" if section_known else ""
    heading = f"{label}s ({group_words(first.groups)})" if len(family) == 1 else f"{label}s"
    decided = [fairness_of(t, findings) for t in family]
    if all(d is not None for d in decided):
        chosen = [d for d in decided if d is not None]
        text = fairness_family(chosen, label)
        significant = any(d.decision == "unfair" for d in chosen)
        claims = tuple(claim(d, "unfair") for d in chosen)
    else:
        parts = {id(t): positions_of(t, findings) for t in family}
        text = (
            equal_chances(first, parts[id(first)])
            if len(family) == 1
            else equal_chances_family(family, parts)
        )
        significant = any(t.significant for t in family)
        claims = tuple(1.0 if t.p_adjusted is None else t.p_adjusted for t in corrected_family(family)[0])
    return Verdict(first.game, heading, text[:1].upper() + text[1:], href, significant, claims=claims)


def positions_of(test: Finding, findings: Sequence[Finding]) -> list[Finding]:
    """The win-rate findings of an equal-chances test's positions (same subject, section, game and
    groups)."""
    return [
        f
        for f in findings
        if f.section == test.section
        and f.game == test.game
        and f.question == WIN_RATE
        and f.subject == test.subject
        and all(f.groups.get(k) == v for k, v in test.groups.items())
    ]


def is_mirror(test: Finding) -> bool:
    """Whether a test's group is a mirror match (one strategy in every seat)."""
    mix = str(test.groups.get("mix", ""))
    return bool(mix) and len(set(mix.split(" + "))) == 1


def corrected_family(family: list[Finding]) -> tuple[list[Finding], str]:
    """The family's tests with the adjusted p a verdict over all of them needs, and how it was
    corrected: the findings' own adjustment where it covers at least these tests, else Holm's over
    these tests' p-values."""
    first = family[0]
    if first.p_adjusted is not None and (first.family or 1) >= len(family):
        many = (first.family or 1) > 1
        return family, f"{first.correction}'s correction over {first.family} tests" if many else "one test"
    adjusted = holm([t.p_value if t.p_value is not None else 1.0 for t in family])
    return (
        [
            replace(t, p_adjusted=p, correction="Holm", family=len(family))
            for t, p in zip(family, adjusted, strict=True)
        ],
        f"Holm's correction over {len(family)} tests",
    )


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (``analysis.stats.inference.adjust``, via statsmodels)."""
    return [float(x) for x in adjust(list(p), "holm").p_adjusted]


def and_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def counts_words(values: Sequence[Any]) -> str:
    """``2, 3 or 4 players`` from the player counts (``any player count`` without them)."""
    known = sorted(v for v in set(values) if v is not None)
    if not known:
        return "any player count"
    if len(known) == 1:
        return f"{known[0]} players"
    return ", ".join(map(str, known[:-1])) + f" or {known[-1]} players"


def equal_chances_family(family: list[Finding], parts: dict[int, list[Finding]]) -> str:
    """Several groups' equal-chances tests of one question in one sentence: each group that differs
    after the correction, then the rest."""
    label = str(family[0].subject)
    family, corrected = corrected_family(family)
    clauses = []
    for test in (t for t in family if t.significant):
        rates = parts[id(test)] if id(test) in parts else []
        position = next((k for k in (rates[0].groups if rates else {}) if k not in test.groups), label)
        worst = max(rates, key=lambda f: abs((f.estimate or 0) - (f.expected or 0)), default=None)
        if worst is None:
            continue
        clauses.append(
            f"{group_words(test.groups)}: {label} {worst.groups.get(position)} wins "
            f"{share(worst.estimate)}{span(worst)} against an even {share(worst.expected)} ({p_words(test)})"
        )
    quiet = [t for t in family if not t.significant]
    counts = counts_words([t.groups.get("players") for t in family])
    if not clauses:
        return (
            f"no {label} differs from an even share beyond chance at {counts} ({len(family)} groups, "
            f"{corrected})."
        )
    rest = (
        f"; in the other {len(quiet)} group{'s' if len(quiet) != 1 else ''} none differs beyond chance"
        if quiet
        else ""
    )
    return "; ".join(clauses) + f" ({corrected}){rest}."


def fairness_lead(
    findings: Sequence[Finding], game: str, section: str, groups: list[tuple]
) -> tuple[str, bool, tuple[float, ...]]:
    """The lead of a rule-variant comparison's verdict: per compared group, each side's seat (start
    position, ...) fairness and the change between the two, decided against the margin
    (``FAIRNESS_CHANGE`` and its sides' ``FAIRNESS`` of the same subject); (the words, whether a change
    is shown, the change decisions' p values for the page rule).  Empty where the comparison has none."""
    clauses, changed, claims, label = [], False, [], "seat"
    several: list[tuple[str, Finding]] = []
    for items in groups:
        where = dict(items)
        change = next(
            (
                f
                for f in findings
                if f.game == game
                and f.section == section
                and f.question == FAIRNESS_CHANGE
                and f.decision is not None
                and f.groups == where
            ),
            None,
        )
        if change is None:
            continue
        label = str(change.subject)
        sides = {
            str(f.groups.get("side")): f
            for f in findings
            if f.game == game
            and f.section == section
            and f.question == FAIRNESS
            and f.subject == change.subject
            and f.decision is not None
            and {k: v for k, v in f.groups.items() if k != "side"} == where
        }
        side_words = [
            f"{name}: {decision_brief(sides[name], label)}"
            for name in (str(where.get("value")), str(where.get("base")))
            if name in sides
        ]
        several.append((group_words(where, ("base", "value")), change))
        clauses.append("; ".join([*side_words, f"the change: {change_words(change, label)}"]))
        changed = changed or change.decision == CHANGES
        claims.append(claim(change, CHANGES))
    if not clauses:
        return "", False, ()
    if len(several) > 1:  # each group's sides are in the section: the changes, summed up
        m = points(several[0][1].margin)
        summed = many_decisions(
            several,
            lambda f: changed_words(f, label),
            (CHANGES, HOLDS, f"the same within {m} points"),
            what="changes",
        )
        return f"The change in {label} fairness at a {m}-point margin: {summed}.", changed, tuple(claims)
    return f"{label.capitalize()} fairness: " + ". ".join(clauses) + ".", changed, tuple(claims)


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
    parts = [f"{f.subject} {amount(f)} ({p_words(f, family=False)})" for f in survive]
    return f"{len(survive)} of {len(family)} metrics differ after {corrected}: " + "; ".join(
        parts
    ) + ".", True


def across_groups(groups: list[list[Finding]]) -> list[list[Finding]]:
    """``groups``' findings with Holm's adjusted p over every test of every group (one family: the
    metrics times the groups), so that "k of N groups" is corrected across the N groups as well as
    across each group's metrics."""
    found = [f for family in groups for f in family]
    adjusted = iter(holm([1.0 if f.p_value is None else f.p_value for f in found]))
    return [
        [replace(f, p_adjusted=next(adjusted), family=len(found), correction="Holm") for f in family]
        for family in groups
    ]


def comparisons(groups: list[list[Finding]]) -> tuple[str, bool]:
    """One comparison made in several groups (player counts, mixes), metric by metric: in how many
    groups the difference survives Holm's correction over every metric of every group, with the range
    of those differences."""
    groups = across_groups(groups)
    measures: dict[str, list[Finding]] = {}
    for family in groups:
        for f in family:
            measures.setdefault(str(f.subject), []).append(f)
    first = groups[0][0]
    clauses = []
    for name, found in measures.items():
        survive = [f for f in found if f.significant]
        if not survive:
            continue
        if len(survive) == 1:
            (f,) = survive
            where = group_words(f.groups, ("base", "value"))
            clauses.append(f"{name} in 1 of {len(found)} groups ({where}: {amount(f)})")
            continue
        low = min(survive, key=lambda f: f.estimate or 0)
        high = max(survive, key=lambda f: f.estimate or 0)
        spread = f"from {amount_only(low)} to {amount_only(high)}"
        clauses.append(f"{name} in {len(survive)} of {len(found)} groups ({spread})")
    corrected = f"Holm-corrected over all {first.family} tests of the {len(groups)} groups"
    if not clauses:
        return f"no difference survives the correction in any of {len(groups)} groups ({corrected}).", False
    return "differences beyond chance: " + "; ".join(clauses) + f" ({corrected}).", True


def amount_only(f: Finding) -> str:
    """A difference in its unit without its interval: ``+3.2 pp``, ``-2.55 rounds``."""
    if f.unit in ("difference", "share"):
        return f"{100 * (f.estimate or 0):+.1f} pp"
    return f"{f.estimate or 0:+.2f} {f.unit}".rstrip()


def relabel(findings: Sequence[Finding], labels: dict[tuple[str, str], str]) -> list[Finding]:
    """The findings with each rule variant (groups ``variant``, ``base``, ``value``) under its study
    label where it has one (``skali=true`` -> ``skali``), for wording only."""
    if not labels:
        return list(findings)
    out = []
    for f in findings:
        groups = {
            k: labels.get((f.game, str(v)), v) if k in ("variant", "base", "value", "side") else v
            for k, v in f.groups.items()
        }
        out.append(replace(f, groups=groups))
    return out


def verdicts(
    findings: Sequence[Finding],
    sections: Sequence[Any] = (),
    labels: dict[tuple[str, str], str] | None = None,
) -> list[Verdict]:
    """The verdicts the findings support, game by game in the order of the page; ``labels`` names rule
    variants as their study does (``study.variant_labels``)."""
    findings = relabel(findings, labels or {})
    known = {getattr(s, "id", None) for s in sections}
    out = []
    families: dict[tuple[str, str, Any, Any], dict[tuple, list[Finding]]] = {}
    for f in findings:
        if f.question == DIFFERENCE and f.p_adjusted is not None:
            key = (f.game, f.section, f.groups.get("base"), f.groups.get("value"))
            families.setdefault(key, {}).setdefault(tuple(f.groups.items()), []).append(f)
    for (game, section, base, value), groups in families.items():
        href = f"#{section}" if section in known else ""
        lead, changed, change_claims = fairness_lead(findings, game, section, list(groups))
        if len(groups) == 1:
            ((items, family),) = groups.items()
            where = group_words(dict(items), skip=("base", "value"))
            heading = f"{value} against {base} ({where})"
            text, flagged = comparison(family)
            claims = (min((f.p_adjusted or 1.0) for f in family),)
        else:
            heading = f"{value} against {base}"
            text, flagged = comparisons(list(groups.values()))
            every = across_groups(list(groups.values()))
            claims = (min((f.p_adjusted or 1.0) for family in every for f in family),)
        if lead:
            text = f"{lead} Other measures: {text}"
        verdict = Verdict(
            game,
            heading,
            text[:1].upper() + text[1:],
            href,
            flagged or changed,
            "comparison",
            change_claims + claims,
        )
        out.append(verdict)
    tests: dict[tuple[str, str, str | None], list[Finding]] = {}
    for test in findings:
        if test.question == EQUAL_CHANCES and test.p_value is not None:
            tests.setdefault((test.game, test.section, test.subject), []).append(test)
    for (_, section, _), family in tests.items():
        out.append(equal_chances_verdict(family, findings, section in known))
    out += search_verdicts(findings, known)
    out += spread_verdicts(findings, known)
    out += result_verdicts(findings, known)
    out += unfinished_verdicts(findings, known)
    order = {g: i for i, g in enumerate(dict.fromkeys(f.game for f in findings))}
    leading = {getattr(s, "id", None) for s in sections if getattr(s, "lead", False)}
    out = sorted(out, key=lambda v: (v.href[1:] not in leading, order[v.game], v.kind != "equal chances"))
    return with_page_rule(out)[0]


def with_page_rule(found: Sequence[Verdict]) -> tuple[list[Verdict], PageCorrection | None]:
    """The verdicts with the page-level rule applied, and the rule (None where no verdict makes a
    decision): Holm's correction across every decision the page's verdicts rest on (their ``claims``);
    a verdict stays bold only where a difference it claims survives it.  Verdicts outside the family
    (tunes, screens, skill ladders, runs with no finished game) keep their own flag."""
    p_values = [p for v in found for p in v.claims]
    if not p_values:
        return list(found), None
    rule = page_correction(p_values, ALPHA, PAGE_METHOD)
    survives = iter(rule.survives)
    out = []
    for v in found:
        kept = [next(survives) for _ in v.claims]
        out.append(replace(v, significant=v.significant and any(kept)) if v.claims else v)
    return out, rule


def page_rule(found: Sequence[Verdict]) -> dict[str, Any] | None:
    """The page-level rule as plain data (``report.json``'s ``page_rule``): the method, the number of
    decisions in its family, α, and how many differences survive; None where no verdict decides."""
    p_values = [p for v in found for p in v.claims]
    if not p_values:
        return None
    rule = page_correction(p_values, ALPHA, PAGE_METHOD)
    return {
        "method": rule.method,
        "family": rule.family,
        "alpha": rule.alpha,
        "survive": sum(rule.survives),
        "rule": f"{rule.method} over the {rule.family} decisions of the page's verdicts",
    }


def ladder_words(top: Finding, trend: Finding | None) -> str:
    """Whether skill still pays at the largest budget tried, with the fitted trend."""
    budget = top.groups.get("budget")
    pays = top.low is not None and top.expected is not None and top.low > top.expected
    said = "skill still pays" if pays else "the sample does not show that skill still pays"
    slope = ""
    if trend is not None and trend.estimate is not None:
        moves = f"{100 * trend.estimate:+.1f} points per doubling{span(trend, 100, 1)}"
        slope = f"; the fitted share moves {moves}"
    return (
        f"at the largest budget tried ({2 * int(budget or 0)} against {budget} iterations) {said}: "
        f"the larger budget wins {share(top.estimate)}{span(top)} against an even {share(top.expected)} "
        f"({top.games or 0:,} games){slope}."
    )


def search_verdicts(findings: Sequence[Finding], known: set[Any]) -> list[Verdict]:
    """The verdicts of the stronger-play and skill-ladder findings."""
    out = []
    for f in findings:
        href = f"#{f.section}" if f.section in known else ""
        if f.question == STRONGER_PLAY and f.test:
            text = stronger_words(f, findings)
            changed = f.decision == CHANGES
            claims = (claim(f, CHANGES),) if f.decision is not None else ()
            out.append(
                Verdict(f.game, "seats under stronger play", text, href, changed, "stronger play", claims)
            )
        elif f.question == SKILL_LADDER:
            where = {k: v for k, v in f.groups.items() if k != "budget"}
            trend = next(
                (
                    t
                    for t in findings
                    if t.section == f.section and t.question == SKILL_TREND and t.groups == where
                ),
                None,
            )
            text = ladder_words(f, trend)
            heading = f"skill ladder ({group_words(where)})"
            text = text[:1].upper() + text[1:]
            out.append(Verdict(f.game, heading, text, href, f.test == "pays", "skill ladder"))
        elif f.question == SEAT_BY_SKILL and f.decision is not None:
            changed = f.decision in ("grows", "shrinks")
            claims = (f.p_value if changed and f.p_value is not None else 1.0,)
            heading = f"seats by skill ({group_words(f.groups)})"
            out.append(Verdict(f.game, heading, skill_words(f), href, changed, "seats by skill", claims))
    return out


def skill_words(f: Finding) -> str:
    """The first seat's advantage along a skill matrix's rungs: holds within the margin, grows or shrinks
    (with its p), or undecided with the games that would decide it."""
    change = f"a change of {100 * (f.estimate or 0):+.1f} points{span(f, 100, 1)}"
    margin = f"{points(f.margin)} points"
    start = "From the weakest player to the strongest, the first seat's advantage"
    if f.decision == "holds":
        return f"{start} holds within {margin} ({change})."
    if f.decision in ("grows", "shrinks"):
        return f"{start} {f.decision}: {change} ({p_words(f, family=False)})."
    more = f"; about {f.games_needed:,} more games would decide it" if f.games_needed else ""
    return (
        f"Whether the first seat's advantage changes with skill is undecided at a margin of {margin} "
        f"({change}{more})."
    )


def by_game(found: Sequence[Verdict]) -> list[tuple[str, list[Verdict]]]:
    """The verdicts as (game title, its verdicts), in the order of the page."""
    games: dict[str, list[Verdict]] = {}
    for v in found:
        games.setdefault(game_title(v.game), []).append(v)
    return list(games.items())


# --------------------------------------------------------------------------- tunes and screens

OVERTURN = ("could overturn", "cannot overturn", "cannot tell")


def small(x: float | None) -> str:
    """An objective or effect in three decimals, or two significant digits below 0.01."""
    if x is None:
        return "-"
    return f"{x:.3f}" if x == 0 or abs(x) >= 0.01 else f"{x:.2g}"


def p_short(p: float | None) -> str:
    return "-" if p is None else "< 0.001" if p < 0.001 else f"{p:.2f}"


def tune_words(winner: Finding, others: list[Finding], section: list[Finding]) -> tuple[str, bool]:
    """A tune's winner in words: its confirmed objective with the interval, whether it is shown better
    than the other finalists (their Holm-adjusted one-sided p), what it changes and the games spent."""
    words = winner.subject
    text = (
        f"the tuner's best for {winner.groups.get('tune')} (candidate #{winner.groups.get('candidate')}): "
        f"{words} {small(winner.estimate)} (95% CI {small(winner.low)}-{small(winner.high)})"
    )
    others = sorted(others, key=lambda f: f.estimate if f.estimate is not None else float("inf"))
    quiet = [f for f in others if not f.significant]
    shown = bool(others) and not quiet
    if not others:
        text += "; the only finalist, so no comparison"
    elif shown:
        worst = max(f.p_adjusted or 0.0 for f in others)
        text += (
            f"; shown better than every other finalist (Holm p {p_short(worst)} or less over "
            f"{others[0].family} comparison{'s' if (others[0].family or 1) > 1 else ''})"
        )
    else:
        who = "the runner-up" if quiet[0] is others[0] else "finalist"
        text += (
            f"; not shown better than {who} #{quiet[0].groups.get('candidate')} (Holm p "
            f"{p_short(quiet[0].p_adjusted)} over {len(others) + 1} finalists)"
        )
    moved = [f for f in section if f.question == TUNE_CHANGE and f.test == "changed"]
    changes = [
        f"{f.groups.get('parameter')} ({f.groups.get('before')} to {f.groups.get('after')})"
        if len(f"{f.groups.get('before')}{f.groups.get('after')}") <= 40
        else str(f.groups.get("parameter"))
        for f in moved
    ]
    text += f"; it changes {and_words(changes) if changes else 'nothing against the base data and rules'}"
    spent = next((f for f in section if f.question == TUNE_SPENT), None)
    if spent is not None and spent.estimate is not None:
        text += f" ({int(spent.estimate):,} games spent)"
    return text + ".", shown


def overturn_words(margin: Finding, effects: list[Finding]) -> str:
    """Which screened values could overturn a seat verdict, each with its effect and 95% interval:
    ``could be overturned by rounds (Morris mu* 0.063, 95% interval 0.045-0.087)``."""
    flagged = [f for f in effects if f.test == OVERTURN[0]]
    untold = [f for f in effects if f.test == OVERTURN[2]]
    if not flagged:
        text = f"is overturned by none of the {len(effects)} values screened"
        text += " (no effect interval reaches it)" if not untold else ""
    else:
        named = and_words(_effects(flagged))
        text = f"could be overturned by {len(flagged)} of {len(effects)} values screened: {named}"
    if untold:
        shown = _effects(untold[:4]) + ([f"{len(untold) - 4} more"] if len(untold) > 4 else [])
        text += (
            f"; {len(untold)} more {'reaches' if len(untold) == 1 else 'reach'} it but"
            f" {'is' if len(untold) == 1 else 'are'} not told apart from noise, so the screen cannot tell"
            f" whether {'it' if len(untold) == 1 else 'they'} could: {and_words(shown)}"
        )
    return text


def _effects(found: list[Finding]) -> list[str]:
    return [
        f"{f.groups.get('value')} ({STATISTIC[str(f.question)]} {small(f.estimate)}, 95% interval "
        f"{small(f.low)}-{small(f.high)})"
        for f in found
    ]


def screens(findings: Sequence[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """Each screen's seat-verdict margins with the effects on the same measure flagged on them (``could
    overturn`` or not)."""
    out = []
    for m in (f for f in findings if f.question == SCREEN_MARGIN):
        effects = [
            f
            for f in findings
            if f.section == m.section
            and f.test in OVERTURN
            and f.question in STATISTIC
            and f.subject == m.subject
            and f.groups.get("screen") == m.groups.get("screen")
        ]
        out.append((m, effects))
    return out


def screen_line(margin: Finding, effects: list[Finding]) -> str:
    """One screen's seat verdict and what could overturn it, in words (the verdict and the provenance)."""
    measure = margin.subject
    return (
        f"screen {margin.groups.get('screen')} ({group_words({'players': margin.groups.get('players')})}): "
        f"the {measure}, {small(margin.estimate)} at the packaged values ({margin.games or 0:,} games), "
        f"{overturn_words(margin, effects)}."
    )


def result_verdicts(findings: Sequence[Finding], known: set[Any]) -> list[Verdict]:
    """The verdicts of ``skald tune`` and ``skald sensitivity`` results (``analysis.report.sections.tune``,
    ``analysis.report.sections.sensitivity`` findings)."""
    out = []
    for winner in (f for f in findings if f.question == TUNE_OBJECTIVE and f.test == "winner"):
        section = [f for f in findings if f.section == winner.section and f.game == winner.game]
        objective = (TUNE_OBJECTIVE, winner.subject)
        others = [f for f in section if (f.question, f.subject) == objective and f is not winner]
        text, shown = tune_words(winner, others, section)
        href = f"#{winner.section}" if winner.section in known else ""
        out.append(
            Verdict(winner.game, "tuned configuration", text[:1].upper() + text[1:], href, shown, "tune")
        )
    for margin, effects in screens(findings):
        text = screen_line(margin, effects)
        href = f"#{margin.section}" if margin.section in known else ""
        heading = "reconstructed values"
        out.append(Verdict(margin.game, heading, text[:1].upper() + text[1:], href, False, "sensitivity"))
    return out


def unfinished_verdicts(findings: Sequence[Finding], known: set[Any]) -> list[Verdict]:
    """One verdict per run (or compared value) none of whose games finished: named, with its games, and
    said to be left out of every estimate and comparison."""
    out, seen = [], set()
    for f in findings:
        name = f.groups.get("run", f.groups.get("value"))
        if f.question != UNFINISHED or (f.game, name) in seen:
            continue
        seen.add((f.game, name))
        href = f"#{f.section}" if f.section in known else ""
        text = (
            f"No game of {name} finished ({f.games or 0:,} games, every one truncated or errored): it"
            " is left out of every estimate and comparison."
        )
        out.append(Verdict(f.game, "no finished game", text, href, True, "unfinished"))
    return out

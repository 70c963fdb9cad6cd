"""The stronger-play section (any game whose records hold a scripted and a search mirror match:
``analysis.questions.stronger``): whether the seat effect of the scripted mirror match holds within the
report's margin when a search strategy plays every seat, changes, or is undecided, decided on each position's
change in win share (``analysis.stats.decide.change_decision``); and ``stronger_words``, its verdict in one
sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from analysis.data.runs import Runs
from analysis.present.blocks import (
    Section,
    Table,
    fairness_findings,
    num,
    pct,
    pval,
    unavailable,
    variant_words,
)
from analysis.present.findings import STRONGER_PLAY, STRONGER_SIDE, Finding
from analysis.present.tables import findings_for, stats_table
from analysis.questions import balance, stronger
from analysis.stats.decide import CHANGES, HOLDS, UNDECIDED
from analysis.stats.decide.seats import CHANGE_TEST

QUESTION = (
    "Does the seat verdict of the scripted mirror match still hold when a search strategy plays every seat?"
)
#: the metric of the verdict's finding (``analysis.report.verdicts`` words it with ``stronger_words``)
VERDICT = "verdict under stronger play"
SIDES = (("s", "scripted"), ("x", "search"))


def note(margin: float) -> str:
    """The method note: the two sides, the change per position and the three outcomes at ``margin``."""
    m = _margin(margin)
    return (
        "A mirror match plays one strategy in every seat with the seats rotated, so a position's edge is "
        "the position's. The scripted side is the game's scripted mirror match (its packaged study's), "
        "the search side a search strategy in every seat at the budget shown; the two are independent "
        "samples of blocks (a block: one deal under every seat rotation, or one game under random seats). "
        "For each position the change is its win share's deviation from an even share under search minus "
        "the same under scripted play, each the ratio of the blocks' summed win shares to their decided "
        "games (ties split), with the two sides' block-total standard errors added and Welch-Satterthwaite "
        f"degrees of freedom. The change is decided against a margin of {m} points (skald report "
        "--margin): HOLDS where every position's change has its 90% interval inside the margin (a "
        "two-one-sided test per position; intersection-union, so no correction is needed and the p is the "
        'largest of them); CHANGES where a change is shown (Holm over the positions rejects "no change"; '
        "its interval is the simultaneous 95% one, and the verdict says whether it lies beyond the "
        "margin); UNDECIDED where neither is shown, with the widest 90% interval's half-width and about "
        "how many more games, over the two sides together, would decide it if the estimates held. Where "
        "both are shown (a real change smaller than the margin) the verdict is HOLDS. Which position tops "
        "either side plays no part: two positions truly tied swap places between samples half the time. "
        "Each side's own seat decision at the same margin and its design-aware test of equal chances "
        "(Rao-Scott corrected chi-square on the blocks, Holm-corrected over its own family: the scripted "
        "groups, or the search groups) are shown beside."
    )


def stronger_sections(runs: Runs, sid: str = "stronger-play") -> list[Section]:
    """The section of ``runs`` (one game's), or none without both a scripted and a search mirror; a
    section saying why where the records cannot answer (a reshaped column)."""
    scripted, search = stronger.mirrors(runs)
    if not len(scripted) or not len(search):
        return []
    try:
        comp = stronger.comparison(runs)
        return [stronger_section(comp, sid)] if not comp.pairs.is_empty() else []
    except Exception as exc:
        return [unavailable(sid, "Verdicts under stronger play", QUESTION, exc)]


def _name(mix: Any) -> str:
    """The strategy of a mirror mix: ``greedy`` of ``greedy + greedy``."""
    return str(mix).split(" + ")[0]


def _margin(margin: float | None) -> str:
    """A margin in percentage points: ``5``, ``2.5``."""
    return "-" if margin is None else f"{100 * margin:.4g}"


def _points(x: float | None, sign: bool = False) -> str:
    """A share in percentage points, one decimal, never ``-0.0`` (``-`` for none)."""
    if x is None:
        return "-"
    value = round(100 * x, 1) + 0.0
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def _span(low: float | None, high: float | None) -> str:
    """An interval of a change in percentage points: ``[-3.1, 4.0]``."""
    return "-" if low is None or high is None else f"[{_points(low)}, {_points(high)}]"


def _p(p: float | None) -> str:
    return "= -" if p is None else "< 0.001" if p < 0.001 else f"= {p:.3f}"


def _shares(rates: pl.DataFrame, position: str, side: str, row: dict) -> str:
    mix = row[f"{'s' if side == 'scripted' else 'x'}_mix"]
    part = rates.filter(
        (pl.col("side") == side)
        & (pl.col("players") == row["players"])
        & (pl.col("variant") == row["variant"])
        & (pl.col("mix") == mix)
    ).sort(position)
    return ", ".join(f"{r[position]}: {pct(r['win_rate'], 0)}" for r in part.iter_rows(named=True))


def _reading(pairs: pl.DataFrame, margin: float) -> str:
    counts = {o: pairs.filter(pl.col("outcome") == o).height for o in stronger.OUTCOMES}
    lines = [
        f"{r['players']} players{variant_words(r['variant'])}, {_name(r['x_mix'])} in every seat against "
        f"{_name(r['s_mix'])}: {r['outcome']} ({r['why']})"
        for r in pairs.iter_rows(named=True)
    ]
    summary = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    return (
        f"Of {pairs.height} comparison{'s' if pairs.height != 1 else ''} decided on each position's change "
        f"in win share at a {_margin(margin)}-point margin, {summary}. " + "; ".join(lines) + "."
    )


def _side(pairs: pl.DataFrame, prefix: str) -> pl.DataFrame:
    """One side's ``balance_tests`` rows of the pairs, under their own names, once per group."""
    cols = [pl.col(c).alias(c[len(prefix) + 1 :]) for c in pairs.columns if c.startswith(f"{prefix}_")]
    return pairs.select("game", "players", "variant", *cols).unique(
        subset=["players", "variant", "mix"], maintain_order=True
    )


def verdict_finding(row: dict[str, Any], sid: str, label: str = "seat") -> Finding:
    """The ``verdict under stronger play`` finding (question ``STRONGER_PLAY``, its subject ``label``: the
    position it is about) of one pair of ``stronger.comparison`` (a row with ``game``, ``players``,
    ``variant``, ``s_mix``, ``x_mix`` and ``stronger.CHANGE_COLUMNS``): the decision and its margin, the
    decisive position's change with the interval and p of the statistic it rests on, both sides' games and
    blocks, the half-width and the games that would decide it."""
    excluded = [row.get(f"{p}_excluded") for p, _ in SIDES]
    counted = [n for n in excluded if n is not None]
    return Finding(
        game=str(row["game"]),
        section=sid,
        metric=VERDICT,
        question=STRONGER_PLAY,
        subject=label,
        groups={
            "players": row["players"],
            "variant": row["variant"],
            "scripted": row["s_mix"],
            "search": row["x_mix"],
        },
        estimate=row["estimate"],
        low=row["low"],
        high=row["high"],
        p_value=row["p_value"],
        test=row["test"] or CHANGE_TEST,
        games=row["games"],
        clusters=row["blocks"],
        correction=row["correction"],
        family=row["family"],
        unit="difference",
        expected=0.0,
        excluded=sum(counted) if len(counted) == len(excluded) else None,
        decision=row["decision"],
        margin=row["margin"],
        position=row["decisive"],
        half_width=row["half_width"],
        games_needed=row["games_needed"],
    )


def _findings(sid: str, comp: stronger.Comparison) -> list[Finding]:
    pairs, rates, position = comp.pairs, comp.rates, comp.position
    keys = ("players", "variant", "mix")
    found: list[Finding] = []
    for prefix, name in SIDES:
        side = _side(pairs, prefix)
        found += findings_for(section=sid, unit="difference", expected=0.0)(
            side,
            metric=f"{name} seat test",
            question=STRONGER_SIDE,
            subject=name,
            groups=keys,
            estimate="max_gap",
            p_value="p_value",
            p_adjusted="p_adjusted",
            test="test",
            games="decided",
            clusters="blocks",
            correction="correction",
            family="family",
            excluded="excluded",
        )
        found += fairness_findings(sid, side, f"{name} seat", keys)
    found += findings_for(section=sid, unit="share")(
        rates,
        metric="position win rate",
        groups=(*keys, position),
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        games="games",
        clusters="blocks",
        expected="expected",
        excluded="excluded",
    )
    label = position.replace("_", " ")
    return found + [verdict_finding(row, sid, label) for row in pairs.iter_rows(named=True)]


def _statistic(row: dict) -> str:
    """The decisive position's change with the interval of the statistic the verdict rests on."""
    if row["decision"] is None:
        return "-"
    return f"{_points(row['estimate'], sign=True)} {_span(row['low'], row['high'])}"


def _which_p(row: dict) -> str:
    """The p of that statistic, named."""
    if row["decision"] is None:
        return "-"
    if row["decision"] == CHANGES:
        return f"{pval(row['p_value'])} ({'Holm' if (row['family'] or 1) > 1 else 'one test'})"
    return f"{pval(row['p_value'])} (intersection-union)"


def _tables(comp: stronger.Comparison, label: str) -> list[Table]:
    pairs, rates, position = comp.pairs, comp.rates, comp.position
    tables = [
        stats_table(
            f"The {label} verdict, scripted and under search, and its change",
            pairs,
            [
                "players",
                "variant",
                ("scripted", lambda r: _name(r["s_mix"])),
                ("scripted decided games", "s_decided"),
                (f"scripted {label} win shares", lambda r: _shares(rates, position, "scripted", r)),
                ("scripted decision", lambda r: r["s_decision"] or "-"),
                ("scripted Holm p (equal chances)", lambda r: pval(r["s_p_adjusted"])),
                ("search", lambda r: _name(r["x_mix"])),
                ("search decided games", "x_decided"),
                ("search blocks", "x_blocks"),
                (f"search {label} win shares", lambda r: _shares(rates, position, "search", r)),
                ("search decision", lambda r: r["x_decision"] or "-"),
                ("search Holm p (equal chances)", lambda r: pval(r["x_p_adjusted"])),
                ("margin (pp)", lambda r: _margin(r["margin"])),
                ("verdict", "outcome"),
                (f"decisive {label}", lambda r: r["decisive"] or "-"),
                ("its change (pp) [interval]", _statistic),
                ("p", _which_p),
                ("half-width (pp)", lambda r: _points(r["half_width"])),
                ("more games to decide", lambda r: num(r["games_needed"])),
                ("why", "why"),
            ],
        )
    ]
    if not comp.changes.is_empty():
        tables.append(
            stats_table(
                f"Each {label}'s change in win share, search minus scripted",
                comp.changes,
                [
                    "players",
                    "variant",
                    ("scripted", lambda r: _name(r["scripted"])),
                    ("search", lambda r: _name(r["search"])),
                    (label, "position"),
                    ("scripted share", lambda r: pct(r["scripted_share"])),
                    ("search share", lambda r: pct(r["search_share"])),
                    ("change (pp)", lambda r: _points(r["estimate"], sign=True)),
                    ("90% interval (pp)", lambda r: _span(r["eq_low"], r["eq_high"])),
                    ("p (two one-sided tests)", lambda r: pval(r["p_equivalence"])),
                    ("simultaneous 95% interval (pp)", lambda r: _span(r["low"], r["high"])),
                    ("p (no change; Holm over 3+ positions)", lambda r: pval(r["p_adjusted"])),
                ],
            )
        )
    return tables


def stronger_section(comp: stronger.Comparison, sid: str) -> Section:
    """The section of ``stronger.comparison``'s frames."""
    label = comp.position.replace("_", " ")
    margin = next((m for m in comp.pairs["margin"] if m is not None), None) or balance.seat_margin()
    return Section(
        sid,
        f"Verdicts under stronger play ({label}s)",
        QUESTION.replace("seat", label, 1),
        _reading(comp.pairs, margin),
        tables=_tables(comp, label),
        findings=_findings(sid, comp),
        notes=[note(margin)],
    )


# --------------------------------------------------------------------------- the verdict in words


def _games(verdict: Finding, findings: Sequence[Finding]) -> str:
    """``400 + 400 games`` (scripted + search) from the two sides' seat tests, else the total."""
    g = verdict.groups
    sides = []
    for _, name in SIDES:
        side = next(
            (
                f
                for f in findings
                if f.section == verdict.section
                and f.question == STRONGER_SIDE
                and f.subject == name
                and f.groups.get("mix") == g.get(name)
                and f.groups.get("players") == g.get("players")
                and f.groups.get("variant") == g.get("variant")
            ),
            None,
        )
        sides.append(None if side is None else side.games)
    if None not in sides:
        return f"{sides[0]:,} + {sides[1]:,} games"
    return f"{verdict.games or 0:,} games"


def _where(groups: dict[str, Any]) -> str:
    """``2 players, default rules``."""
    variant = groups.get("variant")
    rules = "default rules" if variant in (None, "defaults") else str(variant)
    return f"{groups.get('players')} players, {rules}"


def _beyond(verdict: Finding, m: str) -> str:
    """Whether a change shown lies beyond the margin: its interval wholly outside ±δ, wholly inside, or
    neither."""
    low, high, margin = verdict.low, verdict.high, verdict.margin
    if low is None or high is None or margin is None:
        return f"not shown beyond the {m}-point margin"
    if low > margin or high < -margin:
        return f"beyond the {m}-point margin"
    if -margin < low and high < margin:
        return f"inside the {m}-point margin"
    return f"not shown beyond the {m}-point margin"


def stronger_words(verdict: Finding, findings: Sequence[Finding]) -> str:
    """A ``verdict under stronger play`` finding in one sentence, on the one statistic it rests on:
    holds within the margin (the widest position's (1 − 2α) interval of its change with the
    intersection-union p), changes (the decisive position's simultaneous interval with Holm's p, and
    whether it lies beyond the margin), or undecided (the half-width, about how many more games would
    decide it, and the least settled position's interval with its p).  The position's name is the
    verdict's ``subject``; ``findings`` give the two sides' games (their ``STRONGER_SIDE`` tests, subject
    ``scripted`` and ``search``).  A full sentence, capitalised, with its full stop."""
    g = verdict.groups
    label = verdict.subject or "seat"
    scripted, search = _name(g.get("scripted")), _name(g.get("search"))
    where = _where(g)
    m = _margin(verdict.margin)
    who = f"{label} {verdict.position}"
    change = f"{_points(verdict.estimate, sign=True)} {_span(verdict.low, verdict.high)} points"
    games = _games(verdict, findings)
    if verdict.decision == HOLDS:
        text = (
            f"holds within {m} points ({where}): every {label}'s change in win share from {scripted} to "
            f"{search} play is within {m} points (widest: {who}, {change}; intersection-union "
            f"p {_p(verdict.p_value)}; {games})"
        )
    elif verdict.decision == CHANGES:
        many = (verdict.family or 1) > 1
        p = _p(verdict.p_value)
        test = f"Holm p {p} over {verdict.family} {label}s" if many else f"p {p}"
        text = (
            f"changes ({where}): {who}'s win share moves {change} from {scripted} to {search} play "
            f"({test}; {games}), {_beyond(verdict, m)}"
        )
    elif verdict.decision == UNDECIDED:
        more = (
            f"about {verdict.games_needed:,} more games would decide it if the estimates held"
            if verdict.games_needed is not None
            else "the estimates do not say how many more games would decide it"
        )
        text = (
            f"undecided at a {m}-point margin ({where}): the changes in {label} win share from {scripted} "
            f"to {search} play are known to ±{_points(verdict.half_width)} points; {more} (least settled: "
            f"{who}, {change}; intersection-union p {_p(verdict.p_value)}; {games})"
        )
    else:
        text = (
            f"not decided ({where}): the {scripted} and {search} mirror matches do not hold the same "
            f"{label}s with decided games ({games})"
        )
    return text[:1].upper() + text[1:] + "."

"""Building blocks of the HTML report: charts, tables and sections, and the formatting of numbers,
intervals and p-values in them (used by every ``analysis.report.sections`` module)."""

from __future__ import annotations

import base64
import csv
import io
import math
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import polars as pl

from analysis.present.decision_words import decision_brief
from analysis.present.findings import (
    EQUAL_CHANCES,
    FAIRNESS,
    FAIRNESS_CHANGE,
    WIN_RATE,
    Finding,
    from_frame,
)

# --------------------------------------------------------------------------- building blocks


@dataclass
class Chart:
    name: str
    png: bytes
    alt: str
    file: str = ""

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]

    @property
    def csv_uri(self) -> str:
        """The table as a CSV ``data:`` link, so the page can offer it for download and stay whole."""
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(self.headers)
        writer.writerows([cell.replace("\u00a0", " ") for cell in row] for row in self.rows)
        return "data:text/csv;charset=utf-8," + urllib.parse.quote(text.getvalue())


@dataclass
class Section:
    id: str
    title: str
    question: str
    reading: str
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: every number the section states, as data (``report.json``; ``analysis.present.findings``)
    findings: list[Finding] = field(default_factory=list)
    #: whether its verdicts lead the page (the comparison of ``skald compare``)
    lead: bool = False


def pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}%"


def num(x: Any, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if math.isnan(x):
            return "-"
        if x.is_integer() and abs(x) < 1e15 and digits <= 2:
            return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.{digits}f}"
        return f"{x:,.{digits}f}"
    return str(x)


def pval(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "-"
    return "<\u00a00.001" if p < 0.001 else f"{p:.3f}"  # no line break inside


def p_is(p: float | None) -> str:
    """A p-value inside a sentence: ``p < 0.001`` or ``p = 0.042``."""
    text = pval(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def interval(low: float, high: float, as_pct: bool = False, digits: int = 1) -> str:
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "-"
    if as_pct:
        low, high = 100 * low, 100 * high

    def show(x: float) -> str:
        text = f"{x:.{digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.0"

    return f"[{show(low)}, {show(high)}]" + ("%" if as_pct else "")


def table(title: str, frame: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]]) -> Table:
    """A display table: (header, formatter of a row dict) per column."""
    rows = [[fmt(row) for _, fmt in columns] for row in frame.iter_rows(named=True)]
    return Table(title, [header for header, _ in columns], rows)


def col(name: str, fmt: Callable[[Any], str] = num) -> Callable[[dict], str]:
    return lambda row: fmt(row.get(name))


def players_words(n: int) -> str:
    return {2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n)) + "-player"


def unavailable(sid: str, title: str, question: str, exc: Exception) -> Section:
    """A section saying why the records cannot answer it (a new game's records may lack a column)."""
    return Section(sid, title, question, f"Not available from these records: {exc}")


def guarded_sections(
    runs: Any, parts: Sequence[tuple[Callable[[Any], Section], str, str, str]]
) -> list[Section]:
    """Each ``(build, id, title, question)`` part's section from ``runs``, or, where building it fails (a
    reshaped column), a section saying why, so that the rest of the report still stands."""
    sections = []
    for build, sid, title, question in parts:
        try:
            sections.append(build(runs))
        except Exception as exc:  # a reshaped column: say so, keep the rest
            sections.append(unavailable(sid, title, question, exc))
    return sections


def several(frame: pl.DataFrame, column: str, within: Sequence[str] = ("players",)) -> bool:
    """Whether ``column`` takes more than one value within some group of ``within`` (so a table needs it)."""
    if column not in frame.columns or frame.is_empty():
        return False
    keys = [k for k in within if k in frame.columns]
    if not keys:
        return frame[column].n_unique() > 1
    return int(cast(int, frame.group_by(keys).agg(pl.col(column).n_unique().alias("k"))["k"].max())) > 1


def variant_column(frame: pl.DataFrame) -> list[tuple[str, Callable[[dict], str]]]:
    """The variant column, where the table holds more than one variant."""
    return [("variant", col("variant"))] if several(frame, "variant", ()) else []


def pp(row: dict, digits: int = 1) -> str:
    """A difference of proportions in percentage points with its interval: ``+3.2 pp [-1.0, 7.5]``."""
    return f"{100 * row['diff']:+.{digits}f} pp " + interval(
        100 * row["diff_low"], 100 * row["diff_high"], digits=digits
    )


def variant_words(variant: str) -> str:
    return "" if variant == "defaults" else f" ({variant})"


def significant_groups(tests: pl.DataFrame) -> int:
    """The groups of ``balance.balance_tests`` whose Holm-adjusted p (over the table's groups) is below 5%."""
    return tests.filter(pl.col("p_adjusted") < 0.05).height


def correction_words(row: dict) -> str:
    """How a ``balance.balance_tests`` verdict was corrected: ``Holm's correction over 4 tests``."""
    family = row["family"]
    return f"{row['correction']}'s correction over {family} tests" if family > 1 else "a single test"


def seat_test_words(row: dict, label: str) -> str:
    """One ``balance.balance_tests`` row's design-aware test in words: the test and its blocks, p, the
    Holm-adjusted p over the table's groups, the truncated or errored games left out, and the group's
    decision against the margin (``decision_words.decision_brief``: fair, unfair, or undecided with the
    half-width and the games that would decide it)."""
    groups = row["family"]
    adjusted = (
        f" ({row['correction']}-adjusted over {groups} groups: {p_is(row['p_adjusted'])})"
        if groups > 1
        else ""
    )
    blocks = f"{row['blocks']:,} " + ("independent games" if row["test"] == "chi-square" else "blocks")
    excluded = row["excluded"]
    left_out = (
        f"; {excluded:,} truncated or errored game{'s' if excluded != 1 else ''} left out" if excluded else ""
    )
    decided = f"; {decision_brief(row_decision(row), label)}" if row.get("decision") is not None else ""
    return f"the {row['test']} on {blocks} gives {p_is(row['p_value'])}{adjusted}{left_out}{decided}"


def row_decision(row: dict) -> Finding:
    """A ``balance.balance_tests`` row's decision against the margin as a finding (for its words)."""
    return Finding(
        game=str(row.get("game", "")),
        section="",
        metric="fairness",
        estimate=row["decisive_rate"],
        low=row["decisive_low"],
        high=row["decisive_high"],
        p_value=row["decision_p"],
        expected=row["decision_expected"],
        decision=row["decision"],
        margin=row["margin"],
        position=row["decisive"],
        half_width=row["half_width"],
        games_needed=row["games_needed"],
    )


def tests_table(
    title: str, tests: pl.DataFrame, label: str, *, by_game: bool = False, ties: bool = False
) -> Table:
    """The equal-chances tests of ``balance.balance_tests``: the blocks, the truncated or errored games
    left out, the design-aware p with its Holm adjustment over the table's groups, the decision against
    the margin with its half-width and the games that would decide it, the chi-square and G p (valid
    only if games were independent), Balance and
    the first ``label``'s advantage with intervals; ``by_game`` adds the game, ``ties`` the tie games."""
    return table(
        title,
        tests,
        [
            *([("game", col("game"))] if by_game else []),
            ("players", col("players")),
            ("variant", col("variant")),
            ("strategy mix", col("mix")),
            ("decided games", col("decided")),
            ("blocks", col("blocks")),
            ("excluded (truncated or errored)", col("excluded")),
            *([("tie games", col("tie_games"))] if ties else []),
            ("p (design-aware)", col("p_value", pval)),
            ("Holm p", col("p_adjusted", pval)),
            ("decision at the margin", lambda r: r.get("decision") or "-"),
            ("half-width (pp)", col("half_width", lambda x: "-" if x is None else f"{100 * x:.1f}")),
            ("more games to decide", col("games_needed", lambda x: "-" if x is None else f"{x:,}")),
            ("chi-square p if games were independent", col("chi2_p", pval)),
            ("G-test p if games were independent", col("g_p", pval)),
            (
                "Balance [95%]",
                lambda r: f"{r['balance']:.3f} " + interval(r["balance_low"], r["balance_high"], digits=3),
            ),
            ("Balance of a fair game this size", lambda r: f"{r['balance_fair']:.3f}"),
            (
                f"first {label} advantage [95%]",
                lambda r: (
                    f"{100 * r['first_advantage']:+.1f} pp "
                    + interval(r["first_adv_low"], r["first_adv_high"], as_pct=True)
                ),
            ),
        ],
    )


def panel_label() -> pl.Expr:
    return pl.concat_str(
        [
            pl.col("players").cast(pl.String),
            pl.lit(" players"),
            pl.when(pl.col("variant") == "defaults").then(pl.lit("")).otherwise(", " + pl.col("variant")),
        ]
    ).alias("panel")


def balance_findings(
    section: str, tests: pl.DataFrame, rates: pl.DataFrame, position: str, label: str
) -> list[Finding]:
    """The findings of an equal-chances section: per group (game, players, variant, mix) the
    design-aware test (``<label> equal chances``: estimate = the largest gap between two win rates,
    the adjusted p over the table's groups, the smallest gap detectable at 80% power) and Balance, and
    per position (the ``position`` column of ``rates``) its win rate (``<label> win rate``) against the
    even share; and per group decided at the margin, its ``<label> fairness`` (``fairness_findings``).
    The test, the win rates and the decisions answer ``EQUAL_CHANCES``, ``WIN_RATE`` and ``FAIRNESS``
    about ``label`` (their ``question`` and ``subject``)."""
    keys = ("players", "variant", "mix")
    found = from_frame(
        tests,
        section=section,
        metric=f"{label} equal chances",
        question=EQUAL_CHANCES,
        subject=label,
        groups=keys,
        estimate="max_gap",
        p_value="p_value",
        p_adjusted="p_adjusted",
        test="test",
        games="decided",
        clusters="blocks",
        correction="correction",
        family="family",
        unit="difference",
        expected=0.0,
        detectable="detectable_gap",
        excluded="excluded",
    )
    found += from_frame(
        tests,
        section=section,
        metric="Balance",
        groups=keys,
        estimate="balance",
        low="balance_low",
        high="balance_high",
        games="decided",
        clusters="blocks",
        unit="balance",
        expected="balance_fair",
        excluded="excluded",
    )
    found += from_frame(
        rates,
        section=section,
        metric=f"{label} win rate",
        question=WIN_RATE,
        subject=label,
        groups=(*keys, position),
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        games="games",
        clusters="blocks",
        unit="share",
        expected="expected",
        excluded="excluded",
    )
    return found + fairness_findings(section, tests, label, keys)


def fairness_findings(section: str, tests: pl.DataFrame, label: str, keys: Sequence[str]) -> list[Finding]:
    """Per group of ``balance.balance_tests`` decided at the margin, ``<label> fairness``: the decision
    (fair, unfair, undecided) and the margin, the decisive position's win share with the interval and p
    of the statistic the decision rests on, the half-width and the games that would decide it."""
    if "decision" not in tests.columns:
        return []
    present = [k for k in keys if k in tests.columns]
    return [
        Finding(
            game=str(row["game"]),
            section=section,
            metric=f"{label} fairness",
            question=FAIRNESS,
            subject=label,
            groups={k: row[k] for k in present},
            estimate=row["decisive_rate"],
            low=row["decisive_low"],
            high=row["decisive_high"],
            p_value=row["decision_p"],
            test=row["decision_test"],
            games=row["decided"],
            clusters=row["blocks"],
            correction=row["decision_correction"],
            family=row["decision_family"],
            unit="share",
            expected=row["decision_expected"],
            excluded=row["excluded"],
            decision=row["decision"],
            margin=row["margin"],
            position=row["decisive"],
            half_width=row["half_width"],
            games_needed=row["games_needed"],
        )
        for row in tests.iter_rows(named=True)
        if row["decision"] is not None
    ]


def fairness_change_findings(section: str, changes: pl.DataFrame, label: str) -> list[Finding]:
    """Per comparison of ``analysis.questions.fairness_change.fairness_changes``: ``<label> fairness change``
    (the change decision against the margin: the decisive position's change in win share with the interval and
    p of the statistic the decision rests on, the half-width and the games that would decide it) and each
    side's own ``<label> fairness`` (groups with ``side``: the baseline's or the compared value's name)."""
    if changes.is_empty():
        return []
    keys = [k for k in ("players", "mix", "base", "value") if k in changes.columns]
    found = []
    for row in changes.iter_rows(named=True):
        groups: dict[str, Any] = {k: row[k] for k in keys}
        found.append(
            Finding(
                game=str(row["game"]),
                section=section,
                metric=f"{label} fairness change",
                question=FAIRNESS_CHANGE,
                subject=label,
                groups=groups,
                estimate=row["diff"],
                low=row["diff_low"],
                high=row["diff_high"],
                p_value=row["p_value"],
                test=row["test"],
                games=row["games"],
                clusters=row["blocks"],
                correction=row["correction"],
                family=row["family"],
                unit="difference",
                expected=0.0,
                decision=row["decision"],
                margin=row["margin"],
                position=row["decisive"],
                half_width=row["half_width"],
                games_needed=row["games_needed"],
            )
        )
        for side in ("base", "value"):
            if row[f"{side}_decision"] is None:
                continue
            found.append(
                Finding(
                    game=str(row["game"]),
                    section=section,
                    metric=f"{label} fairness",
                    question=FAIRNESS,
                    subject=label,
                    groups={**groups, "side": row[side]},
                    estimate=row[f"{side}_decisive_rate"],
                    low=row[f"{side}_decisive_low"],
                    high=row[f"{side}_decisive_high"],
                    p_value=row[f"{side}_decision_p"],
                    games=row[f"{side}_games"],
                    unit="share",
                    expected=row[f"{side}_decision_expected"],
                    decision=row[f"{side}_decision"],
                    margin=row["margin"],
                    position=row[f"{side}_decisive"],
                    half_width=row[f"{side}_half_width"],
                    games_needed=row[f"{side}_games_needed"],
                )
            )
    return found


def mix_words(mix: pl.Expr) -> pl.Expr:
    """A strategy mix for a legend: ``greedy in every seat`` for a mirror match, else the mix."""
    names = mix.str.split(" + ")
    return (
        pl.when(names.list.n_unique() == 1).then(names.list.first() + pl.lit(" in every seat")).otherwise(mix)
    )

"""Findings: every number a report states, as data (``report.json`` beside ``report.html``).

A :class:`Finding` is one estimate with its interval, or one test with its p-value, and what it
stands on: the game, the report section that shows it, the metric, the groups it is for (players,
variant, seat, ...), the games and independent blocks (clusters) it counts, and, for a test that is
one of a family, the correction and the family's size.  Sections build their findings from the same
frames their tables are made of, and the verdicts at the top of the page are worded from the findings
alone (``analysis.report.verdicts``), so the page and ``report.json`` cannot disagree.

A finding a verdict rests on also says which question it answers (``question``, one of ``QUESTIONS``)
and what about (``subject``: the position label, the measure's name, ...).  The verdicts find their
findings by these two, never by the wording of ``metric``, which is for readers.

    from analysis.present.findings import EQUAL_CHANCES, read_findings
    findings = read_findings("results/report.json")
    [f for f in findings if f.question == EQUAL_CHANCES and f.significant]

``report.json`` holds no time and no folder path: the same records give the same file, byte for byte.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

#: The layout of ``report.json``; a reader refuses a file of a version not in ``READABLE_VERSIONS``.
FINDINGS_VERSION = 2
#: The versions ``read_findings`` reads: 1 is 2 without ``question`` and ``subject``.
READABLE_VERSIONS = (1, FINDINGS_VERSION)

# --------------------------------------------------------------------------- the questions
# The questions a finding can answer (``Finding.question``), for the verdicts to find it by; each is
# explained once, in ``QUESTIONS``.

EQUAL_CHANCES = "equal chances"
WIN_RATE = "win rate"
FAIRNESS = "fairness"
FAIRNESS_CHANGE = "fairness change"
DIFFERENCE = "difference"
STRONGER_PLAY = "stronger play"
STRONGER_SIDE = "stronger-play side"
SKILL_LADDER = "skill ladder"
SKILL_TREND = "skill trend"
SKILL_MATRIX = "skill matrix"
SEAT_BY_SKILL = "seat effect by skill"
LUCK_SHARE = "luck share"
TUNE_OBJECTIVE = "tune objective"
TUNE_CHANGE = "tune change"
TUNE_SPENT = "tune games spent"
SCREEN_MARGIN = "screen margin"
SCREEN_EFFECT = "screen effect"
SCREEN_TOTAL = "screen total index"
UNFINISHED = "unfinished"
SPREAD_THRESHOLD = "close-game threshold"
SPREAD_MARGIN = "winner's margin"
SPREAD_CLOSE = "close games"
SPREAD_MARGIN_CHANGE = "winner's margin change"
SPREAD_CLOSE_CHANGE = "close games change"

#: Every question a finding can answer, with its meaning in one line (and, in brackets, its ``subject``).
QUESTIONS: dict[str, str] = {
    EQUAL_CHANCES: "a test that every position has the same chance to win (subject: the position label: "
    "seat, start position, tribe, pick)",
    WIN_RATE: "one position's share of the wins against the even share (subject: the position label)",
    FAIRNESS: "a group's positions decided fair, unfair or undecided against the margin (subject: the "
    "position label)",
    FAIRNESS_CHANGE: "whether the positions' fairness changes between a rule variant and the baseline, "
    "decided against the margin (subject: the position label)",
    DIFFERENCE: "one measure of a compared run minus the baseline's, one of a family of tests corrected "
    "together (subject: the measure's name)",
    STRONGER_PLAY: "whether the seat verdict of the scripted mirror match holds, changes or is undecided "
    "when a search strategy plays every seat (subject: the position label)",
    STRONGER_SIDE: "one side's test of equal chances in a stronger-play comparison (subject: scripted or "
    "search)",
    SKILL_LADDER: "whether the larger search budget still wins more than its share at the largest budget "
    "tried",
    SKILL_TREND: "the fitted change in the larger budget's win share per doubling of the budget",
    SKILL_MATRIX: "one rung's win share in one seat against another rung in the others (subject: the two "
    "rungs)",
    SEAT_BY_SKILL: "whether the first seat's advantage grows, shrinks or holds from the weakest rung to the "
    "strongest, decided against the margin (subject: first seat)",
    LUCK_SHARE: "the share of a rung's outcome that the deal decides, its seed effect (subject: the rung)",
    TUNE_OBJECTIVE: "a tune finalist's confirmed objective, the winner's test being winner (subject: the "
    "objective in words)",
    TUNE_CHANGE: "a parameter the tune's winner changes, or keeps, against the base data and rules",
    TUNE_SPENT: "the games a tune spent",
    SCREEN_MARGIN: "a seat verdict's measure at the packaged values, which a screen asks what could "
    "overturn (subject: the measure)",
    SCREEN_EFFECT: "a screened value's Morris mu*, its mean absolute elementary effect, on a measure "
    "(subject: the measure)",
    SCREEN_TOTAL: "a screened value's Sobol total index, its share of a measure's variance (subject: the "
    "measure)",
    UNFINISHED: "a run, or compared value, none of whose games finished",
    SPREAD_THRESHOLD: "the winner's margin at or below which a game counts as close",
    SPREAD_MARGIN: "a group's mean winner's margin: the winner's lead over the runner-up",
    SPREAD_CLOSE: "the share of a group's games that are close",
    SPREAD_MARGIN_CHANGE: "a rule variant's mean winner's margin against the baseline's, decided against a "
    "margin in points",
    SPREAD_CLOSE_CHANGE: "a rule variant's share of close games against the baseline's, decided against a "
    "margin",
}

#: The fields every finding has, in the order ``report.json`` writes them.
FIELDS = (
    "id",
    "game",
    "section",
    "metric",
    "groups",
    "estimate",
    "low",
    "high",
    "p_value",
    "p_adjusted",
    "test",
    "games",
    "clusters",
    "correction",
    "family",
    "unit",
    "expected",
    "detectable",
    "excluded",
)
#: The fields of a decision against a margin (``analysis.stats.decide``): written only for a finding that has
#: one (``decision`` set), after ``FIELDS``, so that every other finding's row stays as it was.
DECISION_FIELDS = ("decision", "margin", "position", "half_width", "games_needed")
#: What a finding a verdict rests on answers: written only for a finding that has a ``question``, right after
#: ``metric``, so that every other finding's row stays as it was.
QUESTION_FIELDS = ("question", "subject")


def _number(x: Any) -> float | None:
    """``x`` as a float, or None where it is missing or not a number (JSON has no NaN)."""
    if x is None or isinstance(x, bool):
        return None
    value = float(x)
    return None if math.isnan(value) or math.isinf(value) else value


def _count(x: Any) -> int | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else int(x)


def _plain(x: Any) -> Any:
    """A group value as plain JSON: ints stay ints, other numbers floats, the rest strings."""
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return int(x) if x.is_integer() else x
    return str(x)


@dataclass(frozen=True)
class Finding:
    """One estimate (``estimate`` with ``low``/``high``) or one test (``p_value``, and ``p_adjusted``
    where it is one of ``family`` tests corrected by ``correction``).

    ``unit`` says how to read the numbers: ``share`` (a proportion in [0, 1]), ``points``,
    ``difference`` (of shares), ``rating``, ``decisions``, ``rounds``, ``balance`` or ``count``.
    ``expected`` is the value of no effect (an even seat's share, 0 for a difference); ``detectable``
    the smallest effect the sample finds with 80% power (in the estimate's unit); ``excluded`` the
    truncated or errored games left out.

    A decision against a margin (``analysis.stats.decide``: a ``<position> fairness`` finding) also has
    ``decision`` (``fair``, ``unfair`` or ``undecided``), ``margin`` (δ, in the estimate's unit),
    ``position`` (the position its sentence is about), ``half_width`` (the widest (1 − 2α) interval's)
    and ``games_needed`` (for an undecided one: about how many more games would decide it).

    ``question`` (one of ``QUESTIONS``) says which question the finding answers and ``subject`` what it
    is about (the position label, the measure's name, the tune's objective in words); the verdicts select
    findings by these, never by ``metric``.  A ``subject`` needs a ``question``.
    """

    game: str
    section: str
    metric: str
    groups: dict[str, Any] = field(default_factory=dict)
    estimate: float | None = None
    low: float | None = None
    high: float | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    test: str | None = None
    games: int | None = None
    clusters: int | None = None
    correction: str | None = None
    family: int | None = None
    unit: str = ""
    expected: float | None = None
    detectable: float | None = None
    excluded: int | None = None
    decision: str | None = None
    margin: float | None = None
    position: str | None = None
    half_width: float | None = None
    games_needed: int | None = None
    question: str | None = None
    subject: str | None = None

    def __post_init__(self) -> None:
        if self.question is not None and self.question not in QUESTIONS:
            raise ValueError(
                f"finding {self.metric!r}: unknown question {self.question!r}; the questions are "
                + ", ".join(map(repr, QUESTIONS))
            )
        if self.subject is not None and self.question is None:
            raise ValueError(f"finding {self.metric!r}: a subject ({self.subject!r}) without a question")
        numbers = ("estimate", "low", "high", "p_value", "p_adjusted", "expected", "detectable")
        for name in (*numbers, "margin", "half_width"):
            object.__setattr__(self, name, _number(getattr(self, name)))
        if self.position is not None:
            object.__setattr__(self, "position", str(_plain(self.position)))
        for name in ("games", "clusters", "family", "excluded", "games_needed"):
            object.__setattr__(self, name, _count(getattr(self, name)))
        object.__setattr__(self, "groups", {str(k): _plain(v) for k, v in self.groups.items()})

    @property
    def id(self) -> str:
        """A stable name: section, metric and groups (``seat-balance/seat-win-rate/players=3/seat=2``)."""
        parts = [self.section, _slug(self.metric)] + [
            f"{k}={v if isinstance(v, int | float) else _slug(str(v))}" for k, v in self.groups.items()
        ]
        return "/".join(parts)

    @property
    def significant(self) -> bool:
        """Whether the test rejects at 5%, on the adjusted p where there is one."""
        p = self.p_adjusted if self.p_adjusted is not None else self.p_value
        return p is not None and p < 0.05

    def as_json(self) -> dict[str, Any]:
        row = asdict(self)
        row["id"] = self.id
        names = FIELDS + (DECISION_FIELDS if self.decision is not None else ())
        if self.question is not None:
            at = names.index("metric") + 1
            names = names[:at] + QUESTION_FIELDS + names[at:]
        return {name: row[name] for name in names}


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def from_frame(
    frame: pl.DataFrame,
    *,
    section: str,
    metric: str,
    groups: Sequence[str],
    estimate: str | None = None,
    low: str | None = None,
    high: str | None = None,
    p_value: str | None = None,
    p_adjusted: str | None = None,
    test: str | None = None,
    games: str | None = None,
    clusters: str | None = None,
    correction: str | None = None,
    family: str | None = None,
    unit: str = "",
    expected: str | float | None = None,
    detectable: str | None = None,
    excluded: str | None = None,
    game: str | None = None,
    question: str | None = None,
    subject: str | None = None,
) -> list[Finding]:
    """One finding per row of ``frame``, reading each field from the named column.

    ``game`` names the game for every row; without it the frame's ``game`` column does.  ``test`` and
    ``correction`` are column names where the frame has them, else the text itself; ``expected`` is a
    column name or a number.  Group columns the frame lacks are left out.  ``question`` and ``subject``
    are the same for every row.
    """
    findings = []
    present = [g for g in groups if g in frame.columns]
    for row in frame.iter_rows(named=True):

        def get(name: str | None) -> Any:
            return None if name is None else row.get(name)

        def text(name: str | None) -> str | None:
            if name is None:
                return None
            value = row.get(name, name) if name in frame.columns else name
            return None if value is None else str(value)

        findings.append(
            Finding(
                game=game if game is not None else str(row["game"]),
                section=section,
                metric=metric,
                groups={g: row[g] for g in present},
                estimate=get(estimate),
                low=get(low),
                high=get(high),
                p_value=get(p_value),
                p_adjusted=get(p_adjusted),
                test=text(test),
                games=get(games),
                clusters=get(clusters),
                correction=text(correction),
                family=get(family),
                unit=unit,
                expected=get(expected) if isinstance(expected, str) else expected,
                detectable=get(detectable),
                excluded=get(excluded),
                question=question,
                subject=subject,
            )
        )
    return findings


def document(findings: Iterable[Finding], **meta: Any) -> dict[str, Any]:
    """The ``report.json`` document: ``version``, the ``meta`` given (title, runs) and the findings in
    the page's order.  Two findings with one id are an error: each number is stated once."""
    rows = [f.as_json() for f in findings]
    seen: set[str] = set()
    for row in rows:
        if row["id"] in seen:
            raise ValueError(f"two findings share the id {row['id']!r}")
        seen.add(row["id"])
    return {"version": FINDINGS_VERSION, **meta, "findings": rows}


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as JSON text, the same bytes for the same findings."""
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def write_findings(path: str | Path, doc: dict[str, Any]) -> Path:
    """Write ``doc`` to ``path`` under a temporary name, then rename it into place."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(dumps(doc), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_findings(path: str | Path) -> list[Finding]:
    """The findings of a ``report.json`` of a version in ``READABLE_VERSIONS`` (a version 1 file's have no
    ``question``); a ``ValueError`` naming the file for another version."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if doc.get("version") not in READABLE_VERSIONS:
        raise ValueError(f"{path}: findings version {doc.get('version')!r}, expected {FINDINGS_VERSION}")
    return [Finding(**{k: v for k, v in row.items() if k != "id"}) for row in doc["findings"]]

"""Verdicts under stronger play decided on the change (``analysis.questions.stronger``,
``analysis.report.sections.stronger``): synthetic block matrices of known truth (a real 10-point change, two
tied seats on identical sides, a large sample with no change), the verdict's sentence on its one statistic,
and one small report over tiny Mainland runs (a scripted mirror and a search mirror)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from analysis.present.findings import Finding, read_findings
from analysis.questions import stronger
from analysis.questions.stronger import CHANGES, HOLDS, UNDECIDED, Blocks
from analysis.report.report import write_report
from analysis.report.sections.stronger import VERDICT, stronger_words, verdict_finding
from analysis.stats.decide import SEAT_MARGIN, Decision
from sim.cli import _main

pytestmark = pytest.mark.slow

ALPHA = 0.05


def side(shares: list[float], n: int, rng: np.random.Generator, games: int | None = None) -> Blocks:
    """``n`` blocks of ``games`` independent games (default: one per position) with these chances."""
    k = len(shares)
    wins = rng.multinomial(games or k, shares, size=n).astype(float)
    return Blocks(wins, wins.sum(axis=1), tuple(str(i) for i in range(k)))


def finding(decision: Decision | None, players: int = 3) -> Finding:
    """The verdict's finding of one decided pair, as the section builds it."""
    row = {
        "game": "mainland",
        "players": players,
        "variant": "defaults",
        "s_mix": " + ".join(["greedy"] * players),
        "x_mix": " + ".join(["ismcts:iterations=40"] * players),
        "s_excluded": 0,
        "x_excluded": 0,
        **stronger.change_fields(decision, "seat"),
    }
    return verdict_finding(row, "mainland-stronger-play")


def test_a_real_ten_point_change_changes_and_never_holds() -> None:
    """Seat 0 wins 43.3% scripted and an even third under search: a 10-point change.  The old reading
    (two separate seat tests, and which seat tops each side) said HOLDS in about half such reports."""
    rng = np.random.default_rng(1)
    outcomes = []
    for _ in range(40):
        d = stronger.change_of(side([0.433, 0.283, 0.284], 400, rng), side([1 / 3] * 3, 400, rng))
        outcomes.append(stronger.outcome_of(d))
    assert HOLDS not in outcomes
    assert outcomes.count(CHANGES) >= 36, outcomes  # power near 1 at 400 + 400 blocks of 3 games
    d = stronger.change_of(side([0.433, 0.283, 0.284], 400, rng), side([1 / 3] * 3, 400, rng))
    assert d is not None and d.decision == "changes" and d.labels[d.decisive] == "0"
    assert d.estimate == pytest.approx(-0.1, abs=0.04)
    words = stronger_words(finding(d), [])
    assert words.startswith("Changes (3 players, default rules): seat 0's win share moves -")
    assert "Holm p" in words and "over 3 seats" in words and "margin" in words


def test_two_tied_seats_on_identical_sides_do_not_move() -> None:
    """Seats 0 and 1 tied at 40%: the top seat differs between two samples about half the time (the old
    reading said "the favoured position moves"); the change test says CHANGES at most at its level, and
    only a CHANGES verdict speaks of a share that moves."""
    rng = np.random.default_rng(2)
    reps, moved, changes = 200, 0, 0
    for _ in range(reps):
        a, b = side([0.4, 0.4, 0.2], 100, rng), side([0.4, 0.4, 0.2], 100, rng)
        moved += int(a.wins.sum(axis=0).argmax() != b.wins.sum(axis=0).argmax())
        d = stronger.change_of(a, b)
        changes += int(stronger.outcome_of(d) == CHANGES)
        words = stronger_words(finding(d), [])
        assert ("moves" in words) == (stronger.outcome_of(d) == CHANGES), words
    assert moved >= 0.3 * reps
    assert changes / reps <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / reps)
    same = side([0.4, 0.4, 0.2], 100, rng)
    d = stronger.change_of(same, same)  # literally the same blocks on both sides: no change at all
    assert d is not None and stronger.outcome_of(d) != CHANGES
    assert all(x == pytest.approx(0.0) for x in d.estimates)
    assert "moves" not in stronger_words(finding(d), [])


def test_a_large_sample_with_no_change_holds() -> None:
    rng = np.random.default_rng(3)
    d = stronger.change_of(side([0.3, 0.35, 0.35], 3000, rng), side([0.3, 0.35, 0.35], 3000, rng))
    assert d is not None and stronger.outcome_of(d) == HOLDS and d.question == "change"
    f = finding(d)
    assert f.decision == "holds" and f.margin == SEAT_MARGIN and f.expected == 0.0
    assert f.low is not None and f.high is not None and -SEAT_MARGIN < f.low < f.high < SEAT_MARGIN
    assert f.games == 2 * 9000 and f.clusters == 6000 and f.games_needed is None
    words = stronger_words(f, [])
    assert words.startswith("Holds within 5 points (3 players, default rules): every seat's change")
    assert "from greedy to ismcts:iterations=40 play" in words
    assert f.p_value is not None and f.p_value < 0.001
    assert "intersection-union p < 0.001" in words and "18,000 games" in words


def test_a_small_sample_is_undecided_with_the_games_that_would_decide_it() -> None:
    rng = np.random.default_rng(4)
    d = stronger.change_of(side([0.3, 0.35, 0.35], 20, rng), side([0.35, 0.3, 0.35], 20, rng))
    assert d is not None and stronger.outcome_of(d) == UNDECIDED
    f = finding(d)
    assert f.decision == "undecided" and f.half_width is not None and f.games_needed is not None
    words = stronger_words(f, [])
    assert words.startswith("Undecided at a 5-point margin (3 players, default rules):")
    assert f"known to ±{100 * f.half_width:.1f} points" in words
    assert f"about {f.games_needed:,} more games would decide it" in words
    assert "gaps below" not in words and "reliably" not in words  # no detectable-gap wording
    # the one interval printed is the statistic whose p is printed beside it
    assert f"[{100 * (f.low or 0):.1f}, {100 * (f.high or 0):.1f}] points; intersection-union p" in words


def test_sides_without_the_same_positions_are_not_decided() -> None:
    rng = np.random.default_rng(5)
    assert stronger.change_of(side([0.5, 0.5], 10, rng), side([1 / 3] * 3, 10, rng)) is None
    assert stronger.outcome_of(None) == UNDECIDED
    f = finding(None)
    assert f.decision is None and f.test
    assert stronger_words(f, []).startswith("Not decided (3 players, default rules)")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report over a greedy mirror and an ismcts mirror (2 iterations) of Mainland at 2 players."""
    root = tmp_path_factory.mktemp("stronger")
    for name, spec, seed in (("scripted", "greedy", "3"), ("search", "ismcts:iterations=2", "4")):
        args = ["run", "mainland", "-p", "2", "-g", "8", "-j", "1", "--seed", seed, "--quiet"]
        assert _main([*args, "--strategies", spec, "--out", str(root / "runs" / name)]) == 0
    write_report(root / "runs", root / "report.html", margin=0.1)
    return root


def test_a_small_report_decides_the_change_at_its_margin(report: Path) -> None:
    doc = json.loads((report / "report.json").read_text())
    verdicts = [f for f in doc["findings"] if f["metric"] == VERDICT]
    assert len(verdicts) == 1
    v = verdicts[0]
    assert v["decision"] in ("holds", "changes", "undecided") and v["margin"] == 0.1
    assert v["groups"] == {
        "players": 2,
        "variant": "defaults",
        "scripted": "greedy + greedy",
        "search": "ismcts:iterations=2 + ismcts:iterations=2",
    }
    assert v["games"] == 16 and v["position"] in ("0", "1") and v["unit"] == "difference"
    assert v["low"] <= v["estimate"] <= v["high"] and v["half_width"] > 0
    section = {f["metric"] for f in doc["findings"] if f["section"] == v["section"]}
    assert section >= {
        "scripted seat test",
        "search seat test",
        "scripted seat fairness",
        "search seat fairness",
        "position win rate",
    }
    assert all(f["detectable"] is None for f in doc["findings"] if f["section"] == v["section"])
    found = read_findings(report / "report.json")
    verdict = next(f for f in found if f.metric == VERDICT)
    words = stronger_words(verdict, found)
    assert "8 + 8 games" in words and ("10-point margin" in words or "within 10 points" in words)
    page = (report / "report.html").read_text().split('id="mainland-stronger-play"')[1]
    assert "detectable" not in page.split("</section>")[0].lower()
    assert "change" in page and "intersection-union" in page

"""Every number on the page is in report.json: the Mainland score, point-source and play sections and
the across-games sample-size section state each figure of their tables and readings as a finding, with
the section id the page gives it, and the page's cells are those findings' values, formatted."""

from __future__ import annotations

import re

import pytest

from analysis.present.blocks import interval, num, pct
from analysis.present.findings import Finding, read_findings
from analysis.report.report import write_report
from sim.cli import _main

pytestmark = pytest.mark.slow

SECTIONS = ("mainland-scores", "mainland-points", "mainland-play", "sample-size")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Finding]]:
    root = tmp_path_factory.mktemp("mainland-findings")
    run = root / "mainland"
    args = ["run", "mainland", "--players", "3", "--games", "24", "--jobs", "1", "--quiet", "--out", str(run)]
    assert _main(args) == 0
    page = write_report([run], root / "out" / "report.html")
    return page.read_text(encoding="utf-8"), read_findings(page.with_suffix(".json"))


def _section(html: str, sid: str) -> str:
    start = html.index(f'<section id="{sid}">')
    return html[start : html.index("</section>", start)]


def _of(findings: list[Finding], sid: str, metric: str) -> list[Finding]:
    return [f for f in findings if f.section == sid and f.metric == metric]


def _cells(*texts: str) -> str:
    return "</td><td>".join(re.escape(t) for t in texts)


def test_each_section_states_its_numbers_as_findings(report: tuple[str, list[Finding]]) -> None:
    html, findings = report
    for sid in SECTIONS:
        assert f'<section id="{sid}">' in html
        found = [f for f in findings if f.section == sid]
        assert found, f"{sid} shows numbers but states no findings"
        assert all(f.game == "mainland" and f.unit for f in found)
        assert all(f.estimate is not None or f.low is None for f in found)


def test_score_tables_are_the_findings(report: tuple[str, list[Finding]]) -> None:
    html, findings = report
    page = _section(html, "mainland-scores")
    by_strategy = [f for f in _of(findings, "mainland-scores", "final score") if "strategy" in f.groups]
    assert {f.groups["strategy"] for f in by_strategy} == {"greedy", "random"}
    for f in by_strategy:
        assert f.unit == "points" and f.clusters
        (seats,) = [
            s.estimate for s in _of(findings, "mainland-scores", "final score seats") if s.groups == f.groups
        ]
        (sd,) = [
            s.estimate for s in _of(findings, "mainland-scores", "final score sd") if s.groups == f.groups
        ]
        row = _cells(f.groups["strategy"], num(int(seats)), num(f.estimate, 1), interval(f.low, f.high))
        assert re.search(row + "</td><td>" + re.escape(num(sd, 1)), page), f.id
    (margin,) = _of(findings, "mainland-scores", "winner's margin")
    (close,) = _of(findings, "mainland-scores", "decided by 2 points or fewer")
    assert margin.games == close.games == 24
    reading = f"{margin.estimate:.1f} points on average {interval(margin.low, margin.high)}"
    assert reading in page
    assert f"{pct(close.estimate, 0)} of games were decided by 2 points or fewer" in page


def test_point_sources_and_mainland_size_are_the_findings(report: tuple[str, list[Finding]]) -> None:
    html, findings = report
    page = _section(html, "mainland-points")
    shares = [f for f in _of(findings, "mainland-points", "share of points") if "strategy" not in f.groups]
    assert len(shares) == 3 and abs(sum(f.estimate for f in shares) - 1) < 1e-9
    for share in shares:
        (points,) = [
            f for f in _of(findings, "mainland-points", "points by source") if f.groups == share.groups
        ]
        row = _cells(pct(share.estimate), num(points.estimate, 1), interval(points.low, points.high))
        assert re.search(row, page), share.id
    for size in _of(findings, "mainland-points", "Mainland size"):
        row = _cells(size.groups["strategy"]) + r"</td><td>\d+</td><td>" + _cells(num(size.estimate, 1))
        assert re.search(row, page), size.id


def test_play_statistics_are_the_findings(report: tuple[str, list[Finding]]) -> None:
    html, findings = report
    page = _section(html, "mainland-play")
    found = [f for f in findings if f.section == "mainland-play" and f.metric.endswith("per seat and game")]
    per_strategy = [f for f in found if "strategy" in f.groups]
    assert len(per_strategy) == 10
    for f in per_strategy:
        row = _cells(num(f.estimate, 2), interval(f.low, f.high, digits=2))
        assert re.search(row, page), f.id
    (gatherings,) = [
        f
        for f in _of(findings, "mainland-play", "gatherings per seat and game")
        if f.groups == {"players": 3}
    ]
    assert f"calls {gatherings.estimate:.2f} clan gatherings" in page


def test_sample_size_rows_are_the_findings(report: tuple[str, list[Finding]]) -> None:
    html, findings = report
    page = _section(html, "sample-size")
    rates = _of(findings, "sample-size", "seat win rate")
    assert [f.groups["seat"] for f in rates] == [0, 1, 2]
    for f in rates:
        assert f.games == 24 and f.clusters and f.unit == "share"
        (half,) = [
            h.estimate
            for h in _of(findings, "sample-size", "seat win rate half-width")
            if h.groups == f.groups
        ]
        (halve,) = [
            h.estimate
            for h in _of(findings, "sample-size", "seat win rate games to halve")
            if h.groups == f.groups
        ]
        row = _cells(
            pct(f.estimate),
            interval(f.low, f.high, as_pct=True),
            f"±{100 * half:.1f} percentage points",
            str(f.games),
            str(int(halve)),
        )
        assert re.search(row, page), f.id
    ratings = _of(findings, "sample-size", "rating")
    assert {f.groups["strategy"] for f in ratings} == {"greedy", "random"}
    for f in ratings:
        assert re.search(_cells(f"{f.estimate:.0f}", interval(f.low, f.high, digits=0)), page), f.id

"""Seat verdicts decided against a margin: the page says "fair within 5 points", "unfair" (with the
seat, its share and interval, and whether it lies beyond the margin) or "undecided" (how well the
shares are known and about how many more games would decide it), never "no seat differs beyond
chance" for a sample that cannot tell.  ``--margin POINTS`` (report, compare, study) and a study
file's ``margin`` set the margin; the page states it and report.json carries it, with ``decision`` and
``margin`` on each seat verdict's finding."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analysis.data import study_file
from analysis.data.runs import open_runs
from analysis.present.blocks import balance_findings
from analysis.present.findings import DECISION_FIELDS, FIELDS, QUESTION_FIELDS, Finding, document
from analysis.questions import balance
from analysis.report.report import write_report
from analysis.report.verdicts import verdicts
from sim.cli import _main
from sim.errors import SkaldError
from tests.analysis_testkit import write_results

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _toy(registered: str) -> str:
    """The synthetic records are the toy game's (``secretbid``): the general seat section reads them."""
    return registered


def _records(folder: Path, winners: list[int], players: int) -> Path:
    """One game per entry of ``winners``: that seat scores 10, the others their seat number."""
    scores = [[10.0 if s == w else float(s) for s in range(players)] for w in winners]
    return write_results(folder, scores, [f"s{i}" for i in range(players)], game="secretbid")


def _fair(folder: Path) -> Path:
    return _records(folder, [g % 2 for g in range(1600)], 2)  # exactly even, 1,600 one-game blocks


def _unfair(folder: Path) -> Path:
    return _records(folder, [0 if g % 5 < 3 else 1 + g % 3 for g in range(600)], 4)  # seat 0 wins 60%


def _undecided(folder: Path) -> Path:
    return _records(folder, [g % 4 for g in range(40)], 4)  # even, but 40 games cannot show it


def _verdict(folder: Path, margin: float | None = None) -> tuple[str, bool, Finding]:
    """The seat verdict's text and flag, and its fairness finding, from the records in ``folder``."""
    runs = open_runs(folder)
    with balance.with_margin(margin):
        tests = balance.balance_tests(runs)
    found = balance_findings("seats", tests, balance.seat_balance(runs), "seat", "seat")
    (v,) = verdicts(found)
    (decided,) = [f for f in found if f.metric == "seat fairness"]
    return v.text, v.significant, decided


def test_an_even_game_with_enough_games_is_fair_within_the_margin(tmp_path: Path) -> None:
    text, flagged, f = _verdict(_fair(tmp_path / "f"))
    assert f.decision == "fair" and f.margin == 0.05 and not flagged
    assert f.estimate == pytest.approx(0.5) and f.expected == pytest.approx(0.5)
    assert f.low is not None and f.high is not None and 0.45 < f.low < 0.5 < f.high < 0.55
    assert f.p_value is not None and f.p_value < 0.05 and f.games_needed is None
    assert re.fullmatch(
        r"Fair within 5 points: every seat wins within 5 points of an even 50% \(widest: seat [01] wins "
        r"50\.0% \[4\d\.\d, 5\d\.\d\]; intersection-union p < 0\.001; 1,600 games\)\.",
        text,
    ), text
    assert "would not reliably show" not in text and "beyond chance" not in text


def test_a_seat_that_wins_more_is_unfair_beyond_the_margin(tmp_path: Path) -> None:
    text, flagged, f = _verdict(_unfair(tmp_path / "u"))
    assert f.decision == "unfair" and f.position == "0" and flagged
    assert f.estimate == pytest.approx(0.6) and f.low is not None and f.low - 0.25 > 0.05
    assert f.family == 4 and f.correction is not None and f.correction.startswith("Holm")
    assert re.fullmatch(
        r"Unfair: seat 0 wins 60\.0% \[\d\d\.\d, \d\d\.\d\] against an even 25% \(Holm p < 0\.001 over 4 "
        r"seats; 600 games\), beyond the 5-point margin\.",
        text,
    ), text
    # at a margin wider than the interval's distance from even, the same gap is not shown beyond it
    text, flagged, f = _verdict(tmp_path / "u", margin=0.3)
    assert f.decision == "unfair" and f.margin == 0.3 and flagged
    assert text.endswith("not shown beyond the 30-point margin."), text


def test_a_small_sample_is_undecided_with_the_games_that_would_decide_it(tmp_path: Path) -> None:
    text, flagged, f = _verdict(_undecided(tmp_path / "s"))
    assert f.decision == "undecided" and not flagged
    assert f.half_width is not None and f.half_width > 0.05
    assert f.games_needed is not None and f.games_needed > 40
    assert text == (
        f"Undecided at a 5-point margin: seat shares are known to ±{100 * f.half_width:.1f} points; about "
        f"{f.games_needed:,} more games would decide it if the estimates held (least settled: seat "
        f"{f.position} wins 25.0%{_span(f)}; 40 games)."
    )
    # the same records decide at a wide margin
    _, _, wide = _verdict(tmp_path / "s", margin=0.45)
    assert wide.decision == "fair" and wide.games_needed is None


def _span(f: Finding) -> str:
    return f" [{100 * (f.low or 0):.1f}, {100 * (f.high or 0):.1f}]"


def test_report_json_has_decision_and_margin_for_each_seat_verdict(tmp_path: Path) -> None:
    folder = _unfair(tmp_path / "u")
    assert _main(["report", str(folder), "--margin", "7.5", "--quiet"]) == 0
    doc = json.loads((folder / "report.json").read_text())
    assert doc["margin"] == 0.075
    decided = [row for row in doc["findings"] if row.get("question") == "fairness"]
    assert len(decided) == 1 and decided[0]["decision"] == "unfair" and decided[0]["margin"] == 0.075
    at = FIELDS.index("metric") + 1
    with_question = [*FIELDS[:at], *QUESTION_FIELDS, *FIELDS[at:]]
    assert list(decided[0]) == [*with_question, *DECISION_FIELDS]
    assert decided[0]["subject"] == "seat"
    others = [row for row in doc["findings"] if row.get("decision") is None]
    # nothing but the question is added to the rest
    assert others and all(list(row) in (list(FIELDS), with_question) for row in others)
    html = (folder / "report.html").read_text()
    block = html[html.index('<section id="verdicts">') :].split("</section>", 1)[0]
    assert "decided against a margin of 7.5 points of win share" in block
    assert 'class="flag"' in block and "beyond the 7.5-point margin" in block
    # the same records give the same report.json, byte for byte
    first = (folder / "report.json").read_bytes()
    assert _main(["report", str(folder), "--margin", "7.5", "--quiet"]) == 0
    assert (folder / "report.json").read_bytes() == first


def test_the_default_margin_is_five_points(tmp_path: Path) -> None:
    folder = _undecided(tmp_path / "s")
    page = write_report([folder], tmp_path / "r" / "report.html")
    doc = json.loads(page.with_suffix(".json").read_text())
    assert doc["margin"] == 0.05
    (row,) = [r for r in doc["findings"] if r["metric"] == "seat fairness"]
    assert row["decision"] == "undecided" and row["margin"] == 0.05 and row["games_needed"] > 0
    assert "Undecided at a 5-point margin" in page.read_text()
    assert balance.seat_margin() == 0.05  # the report's margin does not outlive it


@pytest.mark.parametrize("bad", ["0", "50", "-1", "nan", "75"])
def test_a_margin_outside_0_to_50_points_is_refused_in_one_line(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _undecided(tmp_path / "s")
    for command in (["report", str(folder)], ["compare", str(folder), str(folder)], ["study", "x"]):
        assert _main([*command, "--margin", bad]) != 0
        err = capsys.readouterr().err.strip()
        assert "--margin must be a number of points above 0 and below 50" in err and "\n" not in err
    assert not (folder / "report.html").exists()


def test_margin_share_checks_its_value() -> None:
    assert study_file.margin_share(5) == 0.05 and study_file.margin_share(2.5) == 0.025
    for bad in (0, 50, -3, True, "5", float("inf")):
        with pytest.raises(SkaldError, match="above 0 and below 50"):
            study_file.margin_share(bad)


STUDY = """[study]
name = "tiny"
games = 8
seed = 1
jobs = 1
{margin}
[[runs]]
game = "mainland"
players = 2
strategies = ["greedy", "random"]
"""


def test_a_study_file_may_set_the_margin(tmp_path: Path) -> None:
    assert study_file.parse(STUDY.format(margin="margin = 10")).margin == 0.1
    assert study_file.parse(STUDY.format(margin="")).margin is None
    for bad in ('margin = "5"', "margin = 0", "margin = 60"):
        with pytest.raises(SkaldError, match=r"^study file <text>: study.margin must be a number of points"):
            study_file.parse(STUDY.format(margin=bad))
    spec = tmp_path / "tiny.toml"
    spec.write_text(STUDY.format(margin="margin = 10"))
    out = tmp_path / "out"
    assert _main(["study", "--file", str(spec), "--out", str(out), "--quiet"]) == 0
    assert json.loads((out / "report.json").read_text())["margin"] == 0.1
    # --margin overrides the file's
    assert (
        _main(["study", "--file", str(spec), "--out", str(out), "--quiet", "--overwrite", "--margin", "8"])
        == 0
    )
    assert json.loads((out / "report.json").read_text())["margin"] == 0.08


def test_findings_without_a_decision_keep_their_fields() -> None:
    plain = Finding(game="g", section="s", metric="m")
    decided = Finding(game="g", section="s", metric="seat fairness", decision="fair", margin=0.05, position=2)
    rows = document([plain, decided])["findings"]
    assert list(rows[0]) == list(FIELDS)
    assert rows[1]["decision"] == "fair" and rows[1]["position"] == "2" and rows[1]["games_needed"] is None

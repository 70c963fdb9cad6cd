"""``skald report`` on folders holding ``skald tune`` and ``skald sensitivity`` results: verdicts from these
runs appear on the verdict page like any study's, and their findings are in report.json; the report's
provenance part names, for each verdict, the reconstructed values that could overturn it; the tune's report
section shows the objective against games spent, the candidates' confirmed values, and what the winner
changes.

A tiny tune and a tiny screen of the toy game (tests/toy_game.py; the configurations of
tests/analysis/test_tune.py and tests/analysis/test_sensitivity.py) are made once; ``rounds`` is the planted
value: it sets the game's length (two bids a round) and moves the seat verdict, where a bonus of 0 to 1
point barely moves it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from analysis.present.findings import Finding, read_findings
from analysis.report.report import write_report
from analysis.sensitivity.engine import run_sensitivity
from analysis.sensitivity.spec import parse as parse_screen
from analysis.tune.engine import run_tune
from analysis.tune.spec import parse as parse_tune
from tests.analysis import test_sensitivity, test_tune
from tests.cli_kit import cli
from tests.toy_game import HIGH, toy_run

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
#: seed 10: the packaged seat gap (0.0625) lies inside rounds' effect interval and beyond bonus's
SCREEN = test_sensitivity.TOY.replace("seed = 5", "seed = 10")
STAMP = re.compile(rb'^<p class="meta">Written [^\n]*$', re.M)


def _register(mp: pytest.MonkeyPatch) -> None:
    import sim.games
    from sim.plugin import GamePlugin

    toy = GamePlugin(name="secretbid", title="Secret bid", description="a toy", game="tests.toy_game:GAME")
    mp.setitem(sim.games.GAMES, "secretbid", toy)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder holding a tune folder and a screen folder (no run records)."""
    root = tmp_path_factory.mktemp("tune-report") / "results"
    with pytest.MonkeyPatch.context() as mp:
        _register(mp)
        run_tune(parse_tune(test_tune.TOY, "toy"), root / "tune", progress=False)
        run_sensitivity(parse_screen(SCREEN, "toy"), root / "screen", progress=False)
        yield root


@pytest.fixture
def only(made: Path, registered: str, tmp_path: Path) -> Path:
    """A copy of the results, reported on by ``skald report FOLDER`` (page and report.json in it)."""
    folder = tmp_path / "results"
    shutil.copytree(made, folder)
    return folder


def _report(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, list[Finding]]:
    code, out, err = cli(capsys, "report", str(folder))
    assert code == 0, err
    assert out.strip() == f"report: {folder / 'report.html'}"
    return (folder / "report.html").read_text(), read_findings(folder / "report.json")


def _verdicts(page: str) -> list[str]:
    block = re.search(r'<section id="verdicts">(.*?)</section>', page, re.S)
    assert block is not None
    return [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li[^>]*>(.*?)</li>", block[1])]


def test_a_folder_of_only_a_tune_and_a_screen_gives_their_verdicts_sections_and_findings(
    only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, findings = _report(only, capsys)
    tune_line, screen_line = _verdicts(page)
    # the tuner finds rounds = 3 (6 decisions, the planted length); its three bonus settings tie
    assert tune_line.startswith("Tuned configuration: The tuner's best for toy-length (candidate #")
    assert "not shown better than the runner-up #" in tune_line and "over 2 finalists" in tune_line
    assert "it changes rounds (4 to 3)" in tune_line and "(192 games spent)" in tune_line
    assert screen_line.startswith("Reconstructed values: Screen toy (2 players): the seat verdict, 0.062")
    # 40 games a point cannot tell rounds' effect on the seat verdict from a reshuffle's noise
    assert "is overturned by none of the 2 values screened; 1 more reaches it but is not told apart from" \
        " noise, so the screen cannot tell whether it could: rounds (Morris mu* " in screen_line
    assert 'href="#tune-toy-length"' in page and 'href="#sensitivity-toy"' in page
    assert '<section id="tune-toy-length">' in page and '<section id="sensitivity-toy">' in page
    assert page.count("<img") == 2 and len(list(only.glob("report-*.png"))) == 2

    # each number on the page is in the findings: the winner's confirmed objective and rounds' mu*
    winner = next(f for f in findings if f.metric.startswith("confirmed objective") and f.test == "winner")
    assert f"{winner.estimate:.4f} ({winner.low:.4f} to {winner.high:.4f})" in page
    assert winner.section == "tune-toy-length" and winner.groups["tune"] == "toy-length"
    assert winner.correction is None and winner.p_value is None
    runner = [f for f in findings if f.metric == winner.metric and f is not winner]
    assert len(runner) == 1 and runner[0].correction == "Holm" and runner[0].family == 1
    rounds = next(
        f for f in findings if f.metric == "Morris mu*: seat verdict" and f.groups["value"] == "rounds"
    )
    assert f"{rounds.estimate:.4g} ({rounds.low:.4g} to {rounds.high:.4g})" in page
    assert rounds.test == "cannot tell" and rounds.section == "sensitivity-toy"
    assert rounds.correction == "Holm" and rounds.family == 2 and not rounds.significant
    assert f"{rounds.low:.3f}-{rounds.high:.3f}" in screen_line
    bonus = next(f for f in findings if f.metric == rounds.metric and f.groups["value"] == "bonus")
    assert bonus.test == "cannot overturn"
    changed = {f.groups["parameter"]: f for f in findings if f.metric == "winner changes"}
    assert changed["rounds"].test == "changed" and changed["rounds"].groups["after"] == "3"
    assert changed["bonus"].test == "unchanged"

    doc = json.loads((only / "report.json").read_text())
    assert doc["runs"] == [] and [r["kind"] for r in doc["results"]] == ["tune", "sensitivity"]
    assert [s["id"] for s in doc["sections"]] == ["tune-toy-length", "sensitivity-toy"]
    assert doc["results"][0]["games_spent"] == 192


def test_the_provenance_names_the_values_that_could_overturn_the_seat_verdict(
    only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, findings = _report(only, capsys)
    found = re.findall(r'<p class="overturn">.*?</p>', page)
    lines = [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in found]
    assert len(lines) == 1
    (line,) = lines
    records = page.index('id="records"')
    assert page.index('class="overturn"') > records  # in the provenance part, below the sections
    assert "could overturn the seat verdict: screen toy" in line
    assert "cannot tell whether it could: rounds" in line  # reaches the margin, not told apart from noise
    rounds = next(
        f for f in findings if f.metric == "Morris mu*: seat verdict" and f.groups["value"] == "rounds"
    )
    interval = f"95% interval {rounds.low:.3f}-{rounds.high:.3f}"
    assert f"rounds (Morris mu* {rounds.estimate:.3f}, {interval})" in line
    assert "bonus" not in line  # its interval stops short of the verdict's margin


def test_the_standalone_pages_show_the_report_sections(made: Path, only: Path, registered: str) -> None:
    """One code path: ``tune.html`` and ``sensitivity.html`` show the sections the report shows."""
    write_report(only, only / "report.html")
    page = (only / "report.html").read_text()
    for name in ("tune/tune.json", "screen/sensitivity.json"):
        doc = json.loads((made / name).read_text())
        if "tune" in doc:
            from analysis.report.sections.tune import section
        else:
            from analysis.report.sections.sensitivity import section
        s = section(doc)
        standalone = (made / name).with_suffix(".html").read_text()
        assert html.escape(s.reading) in standalone and html.escape(s.reading) in page
        for table in s.tables:
            assert html.escape(table.title) in standalone and html.escape(table.title) in page


def test_a_study_folder_with_runs_and_a_tune_gives_one_part_for_the_game(
    made: Path, registered: str, tmp_path: Path
) -> None:
    study = tmp_path / "study"
    shutil.copytree(made / "tune", study / "tune")
    toy_run(study / "run", players=2, strategies=[HIGH, "random"], games=12)
    write_report(study, study / "report.html")
    page = (study / "report.html").read_text()
    assert page.count('<div class="part"') == 2  # the toy's part, then across games
    part = page[page.index('id="game-secretbid"') : page.index('id="across-games"')]
    assert 'id="secretbid-seat-balance"' in part and 'id="tune-toy-length"' in part
    lines = _verdicts(page)
    assert any(v.startswith("Seats") for v in lines)
    assert any(v.startswith("Tuned configuration") for v in lines)
    doc = json.loads((study / "report.json").read_text())
    assert [r["label"] for r in doc["runs"]] == ["run"] and doc["results"][0]["name"] == "toy-length"


REPORT = """
import sys
import sim.games
from sim.plugin import GamePlugin
sim.games.GAMES["secretbid"] = GamePlugin(name="secretbid", title="Secret bid", description="a toy",
                                          game="tests.toy_game:GAME")
from analysis.report.report import write_report

write_report(sys.argv[1], sys.argv[2])
"""


def test_the_same_results_give_the_same_report_but_the_timestamp(
    only: Path, tmp_path: Path, registered: str
) -> None:
    """Determinism: the same files give the same page (but its "Written" line), charts and
    report.json, in another process with another hash seed and another polars thread count."""
    first = write_report(only, tmp_path / "one" / "report.html")
    env = os.environ | {"PYTHONHASHSEED": "1", "POLARS_MAX_THREADS": "1"}
    second = tmp_path / "two" / "report.html"
    subprocess.run([sys.executable, "-c", REPORT, str(only), str(second)], cwd=ROOT, env=env, check=True)
    one, two = first.read_bytes(), second.read_bytes()
    assert len(STAMP.findall(one)) == 1 and STAMP.sub(b"", one) == STAMP.sub(b"", two)
    assert first.with_suffix(".json").read_bytes() == second.with_suffix(".json").read_bytes()
    charts = [sorted(p.name for p in f.parent.glob("*.png")) for f in (first, second)]
    assert charts[0] == charts[1] and len(charts[0]) == 2
    for name in charts[0]:
        assert (first.parent / name).read_bytes() == (second.parent / name).read_bytes()

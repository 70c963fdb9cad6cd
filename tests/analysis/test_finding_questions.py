"""Each finding a verdict rests on says which question it answers (``Finding.question``, one of
``QUESTIONS``) and what about (``Finding.subject``), and the verdicts find their findings by these alone:
renaming every metric of real reports' findings leaves every verdict's heading and text as it was.
``report.json`` (version 2) writes ``question`` and ``subject`` after ``metric`` for those findings only,
and a version 1 file still reads."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from analysis.present.findings import (
    DECISION_FIELDS,
    EQUAL_CHANCES,
    FAIRNESS,
    FIELDS,
    FINDINGS_VERSION,
    QUESTION_FIELDS,
    QUESTIONS,
    SCREEN_TOTAL,
    Finding,
    document,
    read_findings,
    write_findings,
)
from analysis.report.report import write_report
from analysis.report.verdicts import verdicts
from analysis.sensitivity.engine import run_sensitivity
from analysis.sensitivity.spec import parse as parse_screen
from analysis.tune.engine import run_tune
from analysis.tune.spec import parse as parse_tune
from sim.cli import _main
from tests.analysis import test_sensitivity, test_tune
from tests.analysis.test_ladder import TOY_STUDY

ROOT = Path(__file__).resolve().parents[2]


#: a skill matrix of the toy game: random and the high bidder, each in every seat (each deal twice, for
#: the deal's share) and against each other
MATRIX = """
[[runs]]
name = "matrix"
game = "secretbid"
players = 2
rungs = ["random", "tests.toy_game:HighBidder"]
replicates = 2
"""


def _run(out: Path, game: str, players: int, games: int, *extra: str) -> None:
    args = ["run", game, "-p", str(players), "-g", str(games), "-j", "1", "--seed", "11", "--quiet"]
    assert _main([*args, *extra, "--out", str(out)]) == 0


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Path]]:
    """Three small reports' ``report.json``: Knarr with and without its expansion (seats, a comparison
    of rule variants with its fairness change, score spreads decided against the margin) beside a run
    none of whose games finished; a study of the toy game (a skill ladder, stronger play and a skill
    matrix); and a tune
    and a sensitivity screen of the toy game."""
    root = tmp_path_factory.mktemp("questions")
    _run(root / "knarr" / "base", "knarr", 3, 12)
    _run(root / "knarr" / "skali", "knarr", 3, 12, "--rule", "skali=true")
    _run(root / "knarr" / "cut", "knarr", 2, 4, "--max-decisions", "1")
    write_report([root / "knarr"], root / "knarr" / "report.html")
    with pytest.MonkeyPatch.context() as mp:
        import sim.games
        from sim.plugin import GamePlugin

        toy = GamePlugin(
            name="secretbid", title="Secret bid", description="a toy", game="tests.toy_game:GAME"
        )
        mp.setitem(sim.games.GAMES, "secretbid", toy)
        spec = root / "toy.toml"
        spec.write_text(TOY_STUDY.replace("games = 24", "games = 8") + MATRIX)
        assert _main(["study", "--file", str(spec), "--out", str(root / "study"), "--quiet"]) == 0
        run_tune(parse_tune(test_tune.TOY, "toy"), root / "results" / "tune", progress=False)
        screen = test_sensitivity.TOY.replace("seed = 5", "seed = 10")
        run_sensitivity(parse_screen(screen, "toy"), root / "results" / "screen", progress=False)
        write_report([root / "results"], root / "results" / "report.html")
        yield [root / name / "report.json" for name in ("knarr", "study", "results")]


def _verdicts(path: Path, findings: list[Finding]) -> list[tuple]:
    sections = [SimpleNamespace(id=s["id"]) for s in json.loads(path.read_text())["sections"]]
    return [
        (v.game, v.heading, v.text, v.href, v.significant, v.kind, v.claims)
        for v in verdicts(findings, sections)
    ]


def test_verdicts_do_not_read_the_metric_names(reports: list[Path]) -> None:
    """Every finding's metric replaced by a meaningless name of its own: the same verdicts, word for word."""
    kinds, questions = set(), set()
    for path in reports:
        found = read_findings(path)
        made = _verdicts(path, found)
        renamed = [replace(f, metric=f"m{i}") for i, f in enumerate(found)]
        assert _verdicts(path, renamed) == made, path
        kinds |= {kind for *_, kind, _ in made}
        questions |= {f.question for f in found} - {None}
    # every question but a Sobol screen's (the screen here is Morris's), and every kind of verdict but a
    # game's own section's
    assert questions == set(QUESTIONS) - {SCREEN_TOTAL}
    assert kinds == {
        "equal chances",
        "comparison",
        "score spreads",
        "unfinished",
        "stronger play",
        "skill ladder",
        "seats by skill",
        "tune",
        "sensitivity",
    }


def test_the_comparison_leads_with_the_fairness_change_of_renamed_findings(reports: list[Path]) -> None:
    """The comparison's lead (each side's fairness and the change) and its measures' names come from the
    findings' subjects, not their metrics."""
    found = [replace(f, metric=f"m{i}") for i, f in enumerate(read_findings(reports[0]))]
    (comparison,) = [v for v in verdicts(found) if v.kind == "comparison"]
    assert comparison.text.startswith("Seat fairness: ") and "the change: " in comparison.text
    assert "Other measures: " in comparison.text and not re.search(r"\bm\d+\b", comparison.text)


def test_report_json_writes_question_and_subject_after_the_metric_and_reads_them_back(
    reports: list[Path],
) -> None:
    for path in reports:
        doc = json.loads(path.read_text())
        assert doc["version"] == FINDINGS_VERSION == 2
        for row in doc["findings"]:
            fields = list(FIELDS)
            if "question" in row:
                assert row["question"] in QUESTIONS
                fields[fields.index("metric") + 1 : fields.index("metric") + 1] = QUESTION_FIELDS
            assert list(row) == fields + (list(DECISION_FIELDS) if "decision" in row else [])
        found = read_findings(path)
        assert [f.as_json() for f in found] == doc["findings"]  # question and subject round-trip
    seats = [f for f in read_findings(reports[0]) if f.question == EQUAL_CHANCES]
    assert seats and {f.subject for f in seats} == {"seat"}


def test_a_finding_without_a_question_keeps_its_row() -> None:
    plain = Finding(game="g", section="s", metric="m", estimate=1.0)
    asked = Finding(game="g", section="s", metric="m2", question=FAIRNESS, subject="seat")
    rows = document([plain, asked])["findings"]
    assert list(rows[0]) == list(FIELDS)
    assert list(rows[1])[3:6] == ["metric", "question", "subject"]
    assert (rows[1]["question"], rows[1]["subject"]) == ("fairness", "seat")


def test_an_unknown_question_or_a_subject_without_one_is_refused() -> None:
    with pytest.raises(
        ValueError, match="unknown question 'seat balance'; the questions are 'equal chances'"
    ):
        Finding(game="g", section="s", metric="m", question="seat balance")
    with pytest.raises(ValueError, match="a subject"):
        Finding(game="g", section="s", metric="m", subject="seat")


def test_a_version_1_file_still_reads_and_another_version_is_refused(tmp_path: Path) -> None:
    old = document([Finding(game="g", section="s", metric="seat equal chances", p_value=0.2)])
    old["version"] = 1
    path = write_findings(tmp_path / "report.json", old)
    (f,) = read_findings(path)
    assert f.metric == "seat equal chances" and f.question is None and f.subject is None
    old["version"] = 3
    write_findings(path, old)
    with pytest.raises(ValueError, match=r"report.json: findings version 3, expected 2"):
        read_findings(path)


def test_the_report_page_lists_every_question() -> None:
    """``docs/report.md`` names every question with its meaning: its marker, which the docs hook fills in
    from ``QUESTIONS`` when the site is built."""
    page = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    assert page.count("<!-- skald:finding-questions -->") == 1
    spec = importlib.util.spec_from_file_location("skald_docs", ROOT / "docs" / "hooks" / "skald_docs.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    listed = hook.marker("finding-questions", "report.md").splitlines()
    assert listed == [f"- `{name}`: {meaning}" for name, meaning in QUESTIONS.items()]

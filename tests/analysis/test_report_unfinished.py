"""Runs with no finished game: every game cut at the decision cap (``--max-decisions``) or stopped by an
error has no winner, score or length to count.  `skald report` names such a run, counts its games and
leaves it out of every estimate (the page is still built); `skald compare` and the rule-variant
comparison never compare it; the findings file says so too (metric ``finished games``, estimate 0)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analysis.report.report import write_report
from sim.cli import _main
from tests.cli_kit import cli

pytestmark = pytest.mark.slow

GAMES = ("graenaland", "greenland", "knarr", "mainland")


def play(out: Path, game: str, *args: str) -> Path:
    assert _main(["run", game, *args, "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Mainland at 3 players: ``A`` finishes its games, ``B`` (the same games cut at 3 decisions) none;
    ``loose`` is another rule variant cut the same way."""
    root = tmp_path_factory.mktemp("unfinished")
    three, cut = ("--players", "3", "--games", "6"), ("--max-decisions", "3")
    loose = ("--rule", "castle_needs_overlap=false")
    return {
        "A": play(root / "study" / "A", "mainland", *three),
        "B": play(root / "B", "mainland", *three, *cut),
        "loose": play(root / "study" / "loose", "mainland", *three, *loose, *cut),
    }


def findings(page: Path) -> list[dict]:
    return json.loads(page.with_suffix(".json").read_text())["findings"]


def section_ids(page: Path) -> list[str]:
    return re.findall(r'<section id="([^"]+)">', page.read_text())


def test_a_run_with_no_finished_game_gets_a_page_that_says_so(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skald run mainland --players 3 --games 12 --max-decisions 3 --out T && skald report T` crashed
    with ColumnNotFoundError: "balance"."""
    page = tmp_path / "t.html"
    code, out, err = cli(capsys, "report", str(runs["B"]), "-o", str(page))
    assert code == 0, err
    assert out.strip() == f"report: {page}"
    text = re.sub(r"\s+", " ", page.read_text())
    assert "No game finished in run B" in text
    verdicts = text[text.index('<section id="verdicts">') :].split("</section>", 1)[0]
    assert "No finished game</a>: No game of B finished (6 games, every one truncated or errored)" in verdicts
    assert "6 games: 6 cut at the decision cap (--max-decisions 3), none stopped by an error" in text
    assert "mainland-seat-balance" not in section_ids(page) and "mainland-unfinished" in section_ids(page)
    (named,) = findings(page)
    assert named["metric"] == "finished games" and named["estimate"] == 0.0
    assert named["games"] == 6 and named["excluded"] == 6 and named["groups"]["run"] == "B"


def test_compare_never_compares_a_run_with_no_finished_game(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skald compare A B`, every game of B truncated, reported "game length -24.17 rounds (p < 0.001)"
    with no warning."""
    page = tmp_path / "c.html"
    code, _, err = cli(capsys, "compare", str(runs["A"]), str(runs["B"]), "-o", str(page))
    assert code == 0, err
    compared = [f for f in findings(page) if f["section"] == "mainland-comparison"]
    assert [f["metric"] for f in compared] == ["finished games"]  # no difference of any metric
    assert compared[0]["groups"] == {"players": 3, "base": "A", "value": "B"} and compared[0]["games"] == 6
    text = re.sub(r"\s+", " ", page.read_text())
    assert "No game of run B finished (6 games: 6 cut at the decision cap" in text
    assert "so it is not compared. Nothing is left to compare." in text
    # the baseline with no finished game: nothing is compared with it
    code, _, err = cli(capsys, "compare", str(runs["B"]), str(runs["A"]), "-o", str(tmp_path / "d.html"))
    assert code == 0, err
    compared = [f for f in findings(tmp_path / "d.html") if f["section"] == "mainland-comparison"]
    assert [f["metric"] for f in compared] == ["finished games"] and compared[0]["groups"]["value"] == "B"


def test_a_rule_variant_with_no_finished_game_is_named_not_compared(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    page = write_report([runs["A"].parent], tmp_path / "v.html")
    variants = [f for f in findings(page) if f["section"] == "mainland-variants"]
    assert [(f["metric"], f["groups"]["value"]) for f in variants] == [
        ("finished games", "castle_needs_overlap=false")
    ]
    unfinished = [f for f in findings(page) if f["section"] == "mainland-unfinished"]
    assert [f["groups"]["run"] for f in unfinished] == ["loose"]
    seat = [f for f in findings(page) if f["section"] == "mainland-seat-balance"]
    assert seat and all(f["groups"]["variant"] == "defaults" for f in seat), "read from A alone"


def test_a_study_whose_only_run_finished_no_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "cut.toml"
    study.write_text(
        '[study]\nname = "cut"\ntitle = "Cut short"\ngames = 3\n\n'
        '[[runs]]\ngame = "mainland"\nplayers = 3\nstrategies = ["greedy", "random", "greedy"]\n'
        "max_decisions = 3\n"
    )
    code, out, err = cli(capsys, "study", "--file", str(study), "--out", str(tmp_path / "s"), "--quiet")
    assert code == 0, err
    page = tmp_path / "s" / "report.html"
    assert out.strip().endswith(f"report: {page}")
    assert "No game finished in run mainland-3p" in re.sub(r"\s+", " ", page.read_text())


def test_every_game_reports_runs_with_no_one_or_two_finished_games(tmp_path: Path) -> None:
    """Each game's sections on a run of 1 finished game (3 players) and one of 2 (4 players), beside a
    run of that game with none: the page is built, the unfinished run named, the others read."""
    folders = []
    for game in GAMES:
        fixed, cut = ("--seats", "fixed"), ("--max-decisions", "3")
        folders += [
            play(tmp_path / "runs" / f"{game}-one", game, "--players", "3", "--games", "1", *fixed),
            play(tmp_path / "runs" / f"{game}-two", game, "--players", "4", "--games", "2", *fixed),
            play(tmp_path / "runs" / f"{game}-none", game, "--players", "3", "--games", "2", *cut),
        ]
    page = write_report(folders, tmp_path / "all.html")
    ids = section_ids(page)
    for game in GAMES:
        assert f"{game}-unfinished" in ids and f"{game}-strength" in ids and f"{game}-curves" in ids
        named = [f for f in findings(page) if f["section"] == f"{game}-unfinished"]
        assert [f["groups"]["run"] for f in named] == [f"{game}-none"]
    assert "sample-size" in ids

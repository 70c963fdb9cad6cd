"""The report's game to watch: one illustrative game where a verdict benefits from one, for example the median
game of the seat that wins least, embedded or linked as a viewer page beside the report.

A small Mainland mirror match (greedy in every seat, seats rotated) and a mixed run; the pick is computed
here again from the records' seats and games tables.  A game without a picture (the toy game) gets no
section, and records that cannot be played again (their data file moved) a note, never a failed report.
The page in headless Chromium is skipped where no Chromium is installed."""

from __future__ import annotations

import base64
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import polars as pl
import pytest

from analysis.report.report import write_report
from sim.cli import _main
from tests.browser_kit import needs_chromium, probe, probe_script

pytestmark = pytest.mark.slow

GAMES = 12
SECTION = re.compile(r'<section id="mainland-game-to-watch">(.*?)</section>', re.S)


def run(out: Path, *args: str) -> Path:
    code = _main(["run", *args, "--games", str(GAMES), "--jobs", "1", "--quiet", "--out", str(out)])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("watch")
    run(root / "runs" / "a-mixed", "mainland", "--players", "3", "--strategies", "greedy,builder,random")
    run(root / "runs" / "b-mirror", "mainland", "--players", "3", "--strategies", "greedy")
    return root


@pytest.fixture(scope="module")
def report(root: Path) -> Path:
    return write_report([root / "runs"], root / "out" / "report.html")


def expected_pick(folder: Path) -> tuple[int, int, float]:
    """(game id, seat, win share) from the records alone: the seat with the lowest win share over the
    decided games (ties: the lower seat), and its median game by score minus the game's best score (ties:
    the lower game id; an even count: the lower middle)."""
    games = pl.read_parquet(folder / "games" / "*.parquet")
    decided = games.filter(~pl.col("truncated") & ~pl.col("errored").fill_null(False))["game_id"]
    seats = pl.read_parquet(folder / "seats" / "*.parquet").filter(pl.col("game_id").is_in(decided.to_list()))
    shares = {
        seat: sum(seats.filter(pl.col("seat") == seat)["win_share"].to_list()) / decided.len()
        for seat in sorted(set(seats["seat"].to_list()))
    }
    weakest = min(shares, key=lambda s: (shares[s], s))
    best = {g: max(seats.filter(pl.col("game_id") == g)["score"].to_list()) for g in decided.to_list()}
    margins = sorted(
        (row["score"] - best[row["game_id"]], row["game_id"])
        for row in seats.filter(pl.col("seat") == weakest).iter_rows(named=True)
    )
    return margins[(len(margins) - 1) // 2][1], weakest, shares[weakest]


def watched(report: Path) -> dict:
    [finding] = [f for f in json.loads(report.with_suffix(".json").read_text())["findings"]
                 if f["metric"] == "game to watch"]  # fmt: skip
    return finding


def test_the_pick_is_the_median_game_of_the_seat_that_wins_least(root: Path, report: Path) -> None:
    """'for example the median game of the seat that wins least', from the mirror match (the run the seat
    verdict stands on), and stated in report.json like the other numbers."""
    game_id, seat, share = expected_pick(root / "runs" / "b-mirror")
    found = watched(report)
    assert found["groups"] == {"run": "b-mirror", "game_id": game_id, "seat": seat,
                               "page": f"mainland-game-{game_id}.html"}  # fmt: skip
    assert found["estimate"] == pytest.approx(share) and found["expected"] == pytest.approx(1 / 3)
    # the seat table's own win rates agree: no seat of the mirror match wins less
    mirror = "greedy + greedy + greedy"
    findings = json.loads(report.with_suffix(".json").read_text())["findings"]
    rates = [f for f in findings if f["metric"] == "seat win rate" and f["groups"]["mix"] == mirror]
    assert min(f["estimate"] for f in rates) == pytest.approx(share)
    text = SECTION.search(report.read_text()).group(1)
    assert (
        f"Game {game_id} of run b-mirror" in text
        and f"median game of seat {seat}, which wins least: {share:.2f}" in text
    )


def test_the_section_shows_the_final_board_and_links_the_page_beside_the_report(report: Path) -> None:
    """'The game is embedded or linked as a viewer page beside the report': the final board inline (a
    data: image, so the report stays self-contained) linking to a relative page that exists."""
    text = SECTION.search(report.read_text()).group(1)
    name = watched(report)["groups"]["page"]
    assert f'<a href="report-games/{name}">' in text
    page = report.parent / "report-games" / name
    assert page.is_file() and 'id="replay-data"' in page.read_text()
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page.read_text(), re.S).group(1))
    assert data["game_id"] == watched(report)["groups"]["game_id"] and data["views"] == [
        "all hidden information shown"
    ]
    uri = re.search(r'<img src="data:image/svg\+xml;base64,([^"]+)"', text).group(1)
    svg = base64.b64decode(uri).decode("utf-8")
    assert ET.fromstring(svg).tag.endswith("svg")
    from sim.frames import decode, svg_of

    assert svg == svg_of(data["lines"], decode(data["frames"][0])[-1]), "the picture is the last frame's"


def test_a_game_without_a_picture_gets_no_section(registered: str, tmp_path: Path) -> None:
    """A third-party game that declares no picture: the report is written, with no game to watch."""
    run(tmp_path / "toy", registered, "--players", "2", "--strategies", "random")
    out = write_report([tmp_path / "toy"], tmp_path / "out" / "report.html")
    assert "game-to-watch" not in out.read_text() and "no game to watch" not in out.read_text()
    assert not (tmp_path / "out" / "report-games").exists()
    assert not [f for f in json.loads(out.with_suffix(".json").read_text())["findings"]
                if f["metric"] == "game to watch"]  # fmt: skip


def test_records_that_cannot_be_played_again_give_a_note_not_a_failed_report(
    root: Path, tmp_path: Path
) -> None:
    """The run's data file moved since: the report stands, says why in one line, and links no page."""
    moved = tmp_path / "moved"
    shutil.copytree(root / "runs" / "b-mirror", moved)
    manifest = json.loads((moved / "manifest.json").read_text())
    manifest["config"]["data"]["path"] = str(tmp_path / "gone" / "mainland.toml")
    (moved / "manifest.json").write_text(json.dumps(manifest))
    out = write_report([moved], tmp_path / "out" / "report.html")
    html = out.read_text()
    assert 'id="mainland-game-to-watch"' not in html and not (tmp_path / "out" / "report-games").exists()
    note = re.search(r'<span class="note">\(no game to watch: ([^<]*)\)</span>', html)
    assert note and "not found" in note.group(1)


@needs_chromium
def test_the_linked_page_opens_with_its_first_frame_and_no_errors(report: Path, tmp_path: Path) -> None:
    """The page beside the report opens in headless Chromium: its first frame drawn, no console errors,
    nothing fetched; and the report's picture loads."""
    script = probe_script(
        """  var board = document.getElementById("board"), img = document.querySelector("figure.watch img");
  var out = { board: board ? board.querySelectorAll("*").length : -1,
              counter: board ? document.getElementById("counter").textContent : "",
              picture: img ? img.naturalWidth : -1, errors: window.__errors,
              resources: performance.getEntriesByType("resource").map(function (r) { return r.name; }) };
"""
    )
    name = watched(report)["groups"]["page"]
    seen = {}
    for which, source in {"page": report.parent / "report-games" / name, "report": report}.items():
        checked = source.with_name(f"probe-{source.name}")  # beside the original: the same relative links
        seen[which] = probe(source, script, checked)
        checked.unlink()
    page, shown = seen["page"], seen["report"]
    assert page["board"] > 10 and page["counter"].startswith("decision point 0 of "), (
        f"the first frame is not drawn: {page}"
    )
    assert page["errors"] == [] and page["resources"] == [], page
    assert shown["picture"] > 0 and shown["errors"] == [] and shown["resources"] == [], shown

"""The replay viewer in headless Chromium : for every registered game that declares a
picture, a screenshot of a picture and of the viewer at its first and last decision; a DOM check that
stepping changes the frame and the score cursor; no network requests and no console errors.

One small game per game (random in every seat).  Skipped where no Chromium is installed; a game without
a picture is skipped with the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sim.cli import _main
from sim.plugin import registered
from tests.browser_kit import needs_chromium, probe, probe_script, screenshot

pytestmark = [pytest.mark.browser, needs_chromium]

#: Runs first in <head>: records errors; at load, steps the viewer (a click, an arrow key, the slider's
#: end) and records the frame, the cursor and the caption before and after each, and what was fetched.
PROBE = probe_script(
    """  function seen() {
    return { board: document.getElementById("board").innerHTML,
             cursor: document.getElementById("cursor").getAttribute("x1"),
             caption: document.getElementById("caption").textContent,
             counter: document.getElementById("counter").textContent,
             lines: document.querySelectorAll("#chart polyline.seat-line").length };
  }
  var out = { first: seen() };
  document.getElementById("forward").click();
  out.clicked = seen();
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
  out.keyed = seen();
  document.getElementById("last").click();
  out.last = seen();
  var select = document.getElementById("view");
  select.value = "1"; select.dispatchEvent(new Event("change"));
  out.seat0 = seen();
  out.resources = performance.getEntriesByType("resource").map(function (r) { return r.name; });
  out.errors = window.__errors;
"""
)


def _pictured() -> list:
    games = []
    for name, plugin in registered().items():
        reason = None if plugin.picture is not None else f"{name} declares no picture"
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        games.append(pytest.param(name, marks=marks, id=name))
    return games


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("viewer")


def viewer_page(game: str, root: Path) -> Path:
    from sim.games import get_game

    players = str(get_game(game).min_players)
    out = root / game
    if not out.exists():
        code = _main(["run", game, "--players", players, "--strategies", "random", "--games", "1",
                      "--seats", "fixed", "--jobs", "1", "--quiet", "--out", str(out)])  # fmt: skip
        assert code == 0
    page = root / f"{game}.html"
    if not page.exists():
        assert _main(["replay", str(out), "--game", "0", "--html", str(page)]) == 0
    return page


def page_data(page: Path) -> dict:
    found = re.search(r'id="replay-data">(.*?)</script>', page.read_text(), re.S)
    assert found, "the page holds its frames as JSON"
    return json.loads(found.group(1))


def not_blank(png: Path) -> bool:
    """The screenshot holds more than a flat background: many colours, and many pixels far from white."""
    import numpy as np
    from PIL import Image

    with Image.open(png) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.int32)
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    inked = int((pixels.sum(axis=2) < 600).sum())
    return colours > 16 and inked > 2000


@pytest.mark.parametrize("game", _pictured())
def test_screenshots_of_a_picture_and_of_the_viewer_at_first_and_last(
    game: str, root: Path, tmp_path: Path
) -> None:
    page = viewer_page(game, root)
    from sim.frames import decode, svg_of

    data = page_data(page)

    picture = tmp_path / "picture.svg"
    picture.write_text(svg_of(data["lines"], decode(data["frames"][0])[-1]))
    shots = {
        "picture": screenshot(picture.as_uri(), tmp_path / "picture.png"),
        "first": screenshot(page.as_uri(), tmp_path / "first.png"),
        "last": screenshot(page.as_uri() + "#step=last", tmp_path / "last.png"),
    }
    for name, png in shots.items():
        assert png.exists() and not_blank(png), f"{game}: the {name} screenshot is blank"
    assert shots["first"].read_bytes() != shots["last"].read_bytes(), "the last decision shows another board"


@pytest.mark.parametrize("game", _pictured())
def test_stepping_changes_the_frame_and_the_cursor_with_no_network_and_no_errors(
    game: str, root: Path, tmp_path: Path
) -> None:
    page = viewer_page(game, root)
    seen = probe(page, PROBE, tmp_path / "probe.html")
    first, clicked, keyed, last = seen["first"], seen["clicked"], seen["keyed"], seen["last"]
    assert first["board"].startswith("<svg") and first["lines"] == len(page_data(page)["seats"])
    assert first["counter"].startswith("decision point 0 of ")
    assert clicked["board"] != first["board"] and float(clicked["cursor"]) > float(first["cursor"])
    assert keyed["counter"].startswith("decision point 2 of ")
    assert float(keyed["cursor"]) > float(clicked["cursor"])
    assert last["counter"].startswith("end") and float(last["cursor"]) > float(keyed["cursor"])
    assert last["caption"] and last["caption"] != first["caption"]
    assert seen["seat0"]["counter"] == last["counter"], "changing the view keeps the decision"
    assert seen["resources"] == [], f"the page fetched {seen['resources']}"
    assert seen["errors"] == [], f"console errors: {seen['errors']}"


#: Runs first in <head>: at load, goes to decision STEP and in every view records the chart: each seat
#: line's points, the axis labels, the dots, the scores listed and the cursor.
CHART_PROBE = """  function chart() {
    var lines = {};
    Array.prototype.forEach.call(document.querySelectorAll("#chart polyline.seat-line"), function (l) {
      lines[l.getAttribute("data-seat")] = l.getAttribute("points").split(" ").map(function (p) {
        return p.split(",").map(Number); });
    });
    return { lines: lines, cursor: Number(document.getElementById("cursor").getAttribute("x1")),
             labels: Array.prototype.map.call(document.querySelectorAll("#chart text"), function (t) {
               return t.textContent; }),
             dots: document.querySelectorAll("#chart .dot").length,
             now: Array.prototype.map.call(document.querySelectorAll("#now .score"), function (s) {
               return s.textContent; }) };
  }
  var out = { views: [] }, select = document.getElementById("view");
  window.replayViewer.go(STEP);
  for (var v = 0; v < select.options.length; v++) {
    select.value = String(v); select.dispatchEvent(new Event("change"));
    out.views.push(chart());
  }
  out.errors = window.__errors;
"""


def _fmt(value: float) -> str:
    return f"{round(value * 100) / 100:g}"


def test_a_seat_view_charts_no_score_after_the_current_decision(root: Path, tmp_path: Path) -> None:
    """A one-seat view is what that seat knows at the decision shown: its score chart holds the scores up
    to that decision and none after it (no line, axis label or dot from later); the all-shown view, an
    analyst's, charts the whole game.  Where the scores are not public (``public_scores`` false, as with
    Graenaland's secret victory point cards, graenaland.txt:255) a seat's view charts its own score alone."""
    from sim.frames import record_frames
    from sim.viewer import page as viewer_html

    viewer_page("knarr", root)
    frames = record_frames(root / "knarr", 0)
    scores, n, k = frames.scores, len(frames.scores), len(frames.scores) // 2
    assert max(map(max, scores[k + 1 :])) > max(map(max, scores[: k + 1])), "the later scores are higher"
    for public in (True, False):
        frames.public_scores = public
        shown_page = tmp_path / f"public-{public}.html"
        shown_page.write_text(viewer_html(frames))
        script = probe_script(CHART_PROBE.replace("STEP", str(k)))
        seen = probe(shown_page, script, tmp_path / f"probe-{public}.html")
        assert seen["errors"] == []
        everything, *seats = seen["views"]
        assert all(len(points) == n for points in everything["lines"].values()), "the analyst's view: all"
        assert everything["labels"][0] == _fmt(max(map(max, scores)))
        for seat, view in enumerate(seats):
            shown = set(range(len(seats))) if public else {seat}
            assert set(map(int, view["lines"])) == shown and view["dots"] == len(shown)
            for points in view["lines"].values():
                assert len(points) == k + 1 and max(x for x, _ in points) <= view["cursor"] + 0.05
            assert view["labels"][0] == _fmt(max(max(row[s] for s in shown) for row in scores[: k + 1]))
            assert [s == "secret" for s in view["now"]] == [s not in shown for s in range(len(seats))]


#: Runs first in <head>: at load, in every view at the first and the last decision, the smallest text of
#: the board as drawn on screen (its computed font size times the picture's scale), in px.
TEXT_PROBE = probe_script(
    """  var out = {}, smallest = [], select = document.getElementById("view");
  [0, window.replayViewer.frames - 1].forEach(function (step) {
    for (var v = 0; v < select.options.length; v++) {
      select.value = String(v); select.dispatchEvent(new Event("change")); window.replayViewer.go(step);
      var sizes = Array.prototype.map.call(document.querySelectorAll("#board text"), function (t) {
        return parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a; });
      smallest.push(Math.min.apply(null, sizes));
    }
  });
  out.smallest = smallest;
  out.errors = window.__errors;
"""
)


def test_knarr_text_reads_at_11px_in_the_viewer_at_1400x900(root: Path, tmp_path: Path) -> None:
    """Knarr's board in the replay viewer at 1400x900: no text under 11 px on screen, in any view, at the
    first and the last decision (tests/sim/games/knarr/test_knarr_picture.py measures the same without a
    browser)."""
    seen = probe(viewer_page("knarr", root), TEXT_PROBE, tmp_path / "probe.html", width=1400)
    assert seen["errors"] == [] and len(seen["smallest"]) == 2 * 3
    assert min(seen["smallest"]) >= 10.95, seen["smallest"]

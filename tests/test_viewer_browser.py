"""The replay viewer in headless Chromium (issue 20, "Tests"): for every registered game that declares a
picture, "a screenshot of a picture and of the viewer at its first and last decision; a DOM check that
stepping changes the frame and the score cursor; no network requests and no console errors".

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

pytestmark = needs_chromium

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

"""The report in a real headless browser: screenshots of the summary and of one game's part; a DOM check that
every verdict links to an existing section; no horizontal overflow at 1400 px; no network requests; no console
errors. Also: interactivity (collapse, sort, tabs) uses inline script and style only, and the content stays
visible with scripting off; and mirror-match runs of all four games report without error (here Knarr;
tests/analysis/test_report_designs.py has the rest).

Skipped, with the reason, where no Chromium is installed (.ci/run installs one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.report.report import write_report
from sim.cli import _main
from tests.browser_kit import needs_chromium, probe, probe_script, screenshot

pytestmark = [pytest.mark.browser, needs_chromium]


#: Runs first in <head>: records every error and console.error; at load, checks the verdicts' links,
#: the page's width and height, the resources fetched and the sortable tables.
PROBE = probe_script(
    """  var links = Array.prototype.slice.call(document.querySelectorAll("#verdicts a"));
  var broken = links.filter(function (a) {
    var id = (a.getAttribute("href") || "").replace(/^#/, "");
    return !id || !document.getElementById(id);
  }).map(function (a) { return a.getAttribute("href"); });
  var header = document.querySelector("table.sortable th");
  var table = header.closest("table");
  var before = table.tBodies[0].rows[0].cells[0].textContent;
  header.click(); header.click();
  var out = {
    verdicts: links.length, broken: broken, width: document.documentElement.scrollWidth,
    viewport: window.innerWidth, height: document.documentElement.scrollHeight,
    resources: performance.getEntriesByType("resource").map(function (r) { return r.name; }),
    errors: window.__errors, sorted: header.className,
    images: document.images.length,
    loaded: Array.prototype.filter.call(document.images, function (i) { return i.naturalWidth > 0; }).length
  };
"""
)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    runs = {
        "mainland": ["mainland", "--players", "3", "--strategies", "greedy,builder,random"],
        "knarr-mirror": ["knarr", "--players", "2", "--strategies", "greedy", "--seats", "random"],
    }
    for name, args in runs.items():
        assert (
            _main(["run", *args, "--games", "12", "--jobs", "1", "--quiet", "--out", str(root / name)]) == 0
        )
    return write_report([root / name for name in runs], root / "out" / "report.html")


def test_verdicts_link_to_sections_with_no_overflow_no_network_and_no_errors(
    page: Path, tmp_path: Path
) -> None:
    seen = probe(page, PROBE, tmp_path / "probe-1400.html")
    assert seen["verdicts"] >= 2, "both games' seat questions have a verdict"
    assert seen["broken"] == [], f"verdict links without a section: {seen['broken']}"
    assert seen["width"] <= seen["viewport"], f"the page is {seen['width']} px wide at {seen['viewport']}"
    assert seen["resources"] == [], f"the page fetched {seen['resources']}"
    assert seen["errors"] == [], f"console errors: {seen['errors']}"
    assert seen["images"] > 4 and seen["loaded"] == seen["images"]
    assert seen["sorted"] == "sorted-down", "two clicks on a header sort its table down"


def test_the_page_reads_on_a_phone(page: Path, tmp_path: Path) -> None:
    seen = probe(page, PROBE, tmp_path / "probe-390.html", 390)
    assert seen["width"] <= seen["viewport"], (
        f"the page is {seen['width']} px wide on a {seen['viewport']} px phone"
    )


def test_screenshots_of_the_summary_and_of_one_game(page: Path, tmp_path: Path) -> None:
    top = screenshot(page.as_uri(), tmp_path / "summary.png")
    # one game's part alone: a copy of the page whose other parts are hidden
    alone = tmp_path / "knarr.html"
    hide = "<style>main > :not(#game-knarr) { display: none; }</style></head>"
    alone.write_text(page.read_text().replace("</head>", hide, 1))
    game = screenshot(alone.as_uri(), tmp_path / "knarr.png")
    assert top.stat().st_size > 20_000 and game.stat().st_size > 20_000
    assert top.read_bytes() != game.read_bytes(), "the game's part is not the top of the page"


def test_content_stays_visible_without_scripting(page: Path) -> None:
    """Long tables hide their extra rows behind a <details> toggle (CSS only) and every table offers its
    CSV as a data: link; nothing is built by script."""
    html = page.read_text()
    assert html.count("<script") == 1
    script = html[html.index("<script") : html.index("</script>")]
    assert "innerHTML" not in script and "createElement" not in script
    assert 'href="data:text/csv;charset=utf-8,' in html

"""`skald study --file` end to end on a small Mainland run, and the HTML report: sections, images,
escaping, and rendering in a real headless browser (skipped where no Chromium is installed)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from markupsafe import escape

from analysis.report.report import write_report
from sim.cli import _main
from tests.analysis_testkit import write_results
from tests.browser_kit import FLAGS, chromium

pytestmark = pytest.mark.slow

STUDY = """
[study]
name = "tiny-mainland"
title = "Tiny Mainland study"
description = "Three players, a few games."
games = 30
seed = 5
jobs = 1

[[runs]]
game = "mainland"
players = 3
strategies = ["greedy", "builder", "random"]
"""

SECTIONS = [
    "records",
    "verdicts",
    "game-mainland",
    "mainland-seat-balance",
    "mainland-scores",
    "mainland-points",
    "mainland-play",
    "mainland-strength",
    "mainland-curves",
    "across-games",
    "sample-size",
]


GRAENALAND_STUDY = """
[study]
name = "tiny-graenaland"
title = "Tiny Graenaland study"
games = 12
seed = 3
jobs = 1

[[runs]]
name = "standard"
game = "graenaland"
players = [3, 4]
strategies = ["greedy", "cooperative", "rival", "warlord"]

[[runs]]
name = "off"
game = "graenaland"
players = 3
strategies = ["greedy", "cooperative", "rival"]
rules = { three_player_adjustments = "off" }

[[runs]]
name = "draft"
game = "graenaland"
players = 4
strategies = ["greedy", "cooperative", "rival", "warlord"]
rules = { custom_start = true }
"""

GRAENALAND_SECTIONS = [
    "records",
    "game-graenaland",
    "graenaland-strength",
    "graenaland-curves",
    "start-positions",
    "draft",
    "three-player",
    "sample-size",
]


@pytest.fixture(scope="module")
def graenaland_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graenaland")
    spec = root / "tiny.toml"
    spec.write_text(GRAENALAND_STUDY)
    assert _main(["study", "--file", str(spec), "--out", str(root / "out"), "--quiet"]) == 0
    return root / "out"


def test_graenaland_report_sections(graenaland_dir: Path) -> None:
    text = (graenaland_dir / "report.html").read_text()
    for section in GRAENALAND_SECTIONS:
        assert f'id="{section}"' in text, section
    # Graenaland's seats are its start positions and draft picks
    assert 'id="graenaland-seat-balance"' not in text
    assert "Not available from these records" not in text
    readings = re.findall(r'<p class="reading">([^<]+)</p>', text)
    assert all(r.endswith(".") for r in readings) and len(readings) >= len(GRAENALAND_SECTIONS) - 1
    for needle in (
        "start position 1",
        "U1 (coastal plains)",  # territories by name
        "first pick",
        "3p adjusted",
        "3p unadjusted",
        "heroes&#39; share of the votes",
        "Cohen&#39;s h",
        "permutation",
        "Newcombe",
    ):
        assert needle in text, needle
    assert "p = &lt;" not in text  # "p < 0.001", never "p = < 0.001"
    images = re.findall(r'<img src="data:image/png;base64,', text)
    assert len(images) == len(sorted(graenaland_dir.glob("report-*.png"))) >= 8


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("study")
    spec = root / "tiny.toml"
    spec.write_text(STUDY)
    assert _main(["study", "--file", str(spec), "--out", str(root / "out"), "--quiet"]) == 0
    return root / "out"


def test_study_writes_runs_and_report(study_dir: Path) -> None:
    assert (study_dir / "mainland-3p" / "manifest.json").is_file()
    assert (study_dir / "study.toml").read_text() == STUDY
    assert (study_dir / "report.html").is_file()


def test_report_has_every_section_and_image(study_dir: Path) -> None:
    text = (study_dir / "report.html").read_text()
    for section in SECTIONS:
        assert f'id="{section}"' in text, section
    images = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    files = sorted(study_dir.glob("report-*.png"))
    assert len(images) == len(files) >= 10
    for f in files:
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f.name in text
    assert "http://" not in text and "https://" not in text  # nothing to fetch
    for needle in (
        "Tiny Mainland study",
        "seed",
        "reconstructed",
        "polars",
        "scipy",
        "greedy",
        "chi-square",
        "4x the games",
        "ties split fractionally",
    ):
        assert needle in text, needle
    # every section reads one sentence off the numbers
    sections = re.findall(r'<section id="([^"]+)"', text)
    assert len(re.findall(r'<p class="reading">[^<]+\.</p>', text)) == len(sections) - 1  # all but verdicts


def test_report_command(study_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "r" / "out.html"
    target.parent.mkdir()  # -o refuses a missing folder
    assert _main(["report", str(study_dir / "mainland-3p"), "-o", str(target)]) == 0
    assert capsys.readouterr().out.strip() == f"report: {target}"
    assert (tmp_path / "r" / "out-01-mainland-seat-balance.png").is_file()
    assert _main(["report", str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err.startswith("error: results folder")
    assert _main(["report", str(study_dir), "-o", str(tmp_path / "x.txt")]) == 2


HOSTILE = '<script>alert("s")</script>'
HOSTILE_2 = "x'\"&<img src=q onerror=alert(1)>"


def test_report_escapes_hostile_names(tmp_path: Path) -> None:
    parts = {
        "mainland_tiles": [[3, 1]] * 4,
        "mainland_items": [[2, 1]] * 4,
        "minor_items": [[0, 0]] * 4,
        **{k: [[1, 1]] * 4 for k in ("placements", "passes", "forced_passes", "replaces", "gatherings")},
    }
    folder = tmp_path / "runs" / "run<b>bold</b>"
    write_results(folder, [[5, 2], [2, 5], [5, 2], [4, 4]], [HOSTILE, HOSTILE_2], parts=parts)
    out = write_report([folder], tmp_path / "hostile.html", title="<i>title</i>")
    text = out.read_text()
    assert text.count("<script") == 1  # the page's own table-sorting script, nothing from the names
    assert "<img src=q" not in text and "<b>bold" not in text and "<i>title" not in text
    assert str(escape(HOSTILE)) in text  # jinja2's autoescape (markupsafe): &lt; &gt; &amp; &#34; &#39;
    assert str(escape(HOSTILE_2)) in text


CHECK = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
  var div = document.createElement("div");
  div.id = "img-check";
  div.textContent = "loaded " + ok + " of " + imgs.length + " width " + document.body.scrollWidth;
  document.body.appendChild(div);
});
</script>"""


@pytest.mark.skipif(chromium() is None, reason="no Chromium installed (apt-get install chromium)")
@pytest.mark.parametrize("which", ["study_dir", "graenaland_dir"])
def test_report_renders_in_headless_chromium(
    which: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    study_dir = request.getfixturevalue(which)
    page = tmp_path / "check.html"
    # a copy with a probe script appended; the images stay embedded, so the copy is just as self-contained
    page.write_text((study_dir / "report.html").read_text().replace("</body>", CHECK + "</body>"))
    flags = [chromium(), *FLAGS]
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [*flags, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
        )
    found = re.search(r'id="img-check">loaded (\d+) of (\d+) width (\d+)<', dom.stdout)
    assert found, dom.stderr[-2000:]
    loaded, total, width = map(int, found.groups())
    assert total >= 8 and loaded == total
    assert width <= 1100  # wide tables scroll inside their box; the page itself does not widen
    shot = tmp_path / "shot.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                *flags,
                f"--user-data-dir={profile}",
                "--window-size=1100,1600",
                f"--screenshot={shot}",
                (study_dir / "report.html").as_uri(),
            ],
            capture_output=True,
            timeout=120,
            cwd=tmp_path,
        )
    assert shot.is_file() and shot.stat().st_size > 20_000


def _seat_row(**changes: object) -> dict:
    row = {
        "test": "Rao-Scott chi-square (2nd order)",
        "blocks": 60,
        "p_value": 0.02,
        "chi2_p": 0.01,
        "p_adjusted": 0.08,
        "family": 4,
        "correction": "Holm",
        "excluded": 2,
        "detectable_gap": 0.153,
    }
    return {**row, **changes}


def test_seat_verdict_counts_holm_adjusted_groups_not_raw_chi_square() -> None:
    """A verdict drawn from several tests (which seat, which group ...) uses Holm or Benjamini-Hochberg
    and says which correction, and how many tests it stands on. A group whose
    independent-games chi-square p is 0.01 but whose Holm p over 4 groups is 0.08 is not significant."""
    import polars as pl

    from analysis.present.blocks import correction_words, seat_test_words, significant_groups

    tests = pl.DataFrame([_seat_row(), _seat_row(p_adjusted=0.03)])
    assert significant_groups(tests) == 1
    undecided = {
        "decision": "undecided",
        "margin": 0.05,
        "decisive": "2",
        "decisive_rate": 0.31,
        "decisive_low": 0.22,
        "decisive_high": 0.40,
        "decision_expected": 0.25,
        "decision_p": 0.41,
        "half_width": 0.071,
        "games_needed": 369,
    }
    words = seat_test_words(_seat_row(**undecided), "seat")
    assert words == (
        "the Rao-Scott chi-square (2nd order) on 60 blocks gives p = 0.020 (Holm-adjusted over 4 groups: "
        "p = 0.080); 2 truncated or errored games left out; undecided at a 5-point margin: shares known to "
        "±7.1 points, about 369 more games would decide it if the estimates held"
    )
    assert "would not reliably show" not in words  # the half-width and the games needed say it instead
    assert correction_words(_seat_row()) == "Holm's correction over 4 tests"
    single = seat_test_words(_seat_row(test="chi-square", family=1, excluded=0, detectable_gap=1.6), "seat")
    assert single == "the chi-square on 60 independent games gives p = 0.020"
    fair = seat_test_words(_seat_row(**{**undecided, "decision": "fair", "decision_p": 0.012}), "seat")
    assert fair.endswith("; fair within 5 points (intersection-union p = 0.012)")

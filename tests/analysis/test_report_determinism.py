"""The same records give the same report: a byte-identical report and charts, apart from one timestamp line,
as every resampling draws from a generator seeded from the data's identity; and one estimate has one interval
on a page, computed once and reused (reference/analysis-methods.md, section 7).

Real runs of two games (Knarr with and without the skáli expansion at two and three players, so the
rule-variant section bootstraps and permutes; Mainland for the general seat section) are played once;
each report is made by ``skald report`` in a fresh process, so no cache and no hash seed is shared.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis.data.runs import identity, open_runs
from analysis.stats import stats
from sim.cli import _main

pytestmark = pytest.mark.slow


ROOT = Path(__file__).resolve().parents[2]
GAMES = 12
RUNS = {
    "knarr-2p-base": ["knarr", "--players", "2", "--strategies", "greedy,random"],
    "knarr-2p-skali": ["knarr", "--players", "2", "--strategies", "greedy,random", "--rule", "skali=true"],
    "knarr-3p-base": ["knarr", "--players", "3", "--strategies", "greedy,random,greedy"],
    # another root seed: unpaired with knarr-3p-base, so its blocks are summed in the frame's order
    "knarr-3p-skali": [
        "knarr",
        *("--players", "3", "--strategies", "greedy,random,greedy", "--rule", "skali=true", "--seed", "3"),
    ],
    "mainland-2p": ["mainland", "--players", "2", "--strategies", "greedy,random"],
    # a mixed run and a mirror match of one variant: charts must not draw whichever row comes last
    "greenland-3p": ["greenland", "--players", "3", "--strategies", "elder,greedy,spreader"],
    "greenland-3p-mirror": ["greenland", "--players", "3", "--strategies", "greedy"],
    # two runs of one variant and mix: their bars must come in one order
    "greenland-3p-again": [
        "greenland",
        "--players",
        "3",
        "--strategies",
        "elder,greedy,spreader",
        "--seed",
        "4",
    ],
}
#: the page's one timestamp line
STAMP = re.compile(rb'^<p class="meta">Written [^\n]*$', re.M)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("determinism") / "results"
    for name, args in RUNS.items():
        code = _main(
            ["run", *args, "--games", str(GAMES), "--jobs", "1", "--quiet", "--out", str(root / name)]
        )
        assert code == 0
    return root


def report(results: Path, out: Path, threads: int = 2, hash_seed: int = 0) -> Path:
    """``skald report RESULTS -o OUT/report.html`` in a new process; the folder of the page and charts.
    ``threads`` (polars' thread pool) and ``hash_seed`` change what a report must not depend on: the
    order polars' group_by and join give their rows in, and Python's set and dict order of strings."""
    env = os.environ | {"POLARS_MAX_THREADS": str(threads), "PYTHONHASHSEED": str(hash_seed)}
    out.mkdir(parents=True, exist_ok=True)  # -o refuses a missing folder
    subprocess.run(
        [sys.executable, "-m", "sim.cli", "report", str(results), "-o", str(out / "report.html")],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env=env,
    )
    return out


@pytest.fixture(scope="module")
def first(results: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return report(results, tmp_path_factory.mktemp("first"))


def page(folder: Path) -> bytes:
    """The report's HTML without its timestamp line (which it must hold exactly once)."""
    html = (folder / "report.html").read_bytes()
    assert len(STAMP.findall(html)) == 1
    return STAMP.sub(b"<timestamp>", html)


def charts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}


def viewers(folder: Path) -> dict[str, bytes]:
    """The viewer pages of the report's games to watch (``report-games/<game>-game-<id>.html``)."""
    return {p.name: p.read_bytes() for p in sorted((folder / "report-games").glob("*.html"))}


def test_the_same_records_give_a_byte_identical_report_and_charts(
    results: Path, first: Path, tmp_path: Path
) -> None:
    """'The same records give byte-identical report and charts, apart from one timestamp line', whatever
    polars' thread count and Python's hash seed (the first report: 2 threads, hash seed 0)."""
    second = report(results, tmp_path, threads=1, hash_seed=1)
    assert page(second) == page(first)
    assert charts(first) and charts(second) == charts(first)
    # the game to watch's viewer page beside it, one per game with a picture
    assert sorted(name.split("-game-")[0] for name in viewers(first)) == ["greenland", "knarr", "mainland"]
    assert viewers(second) == viewers(first)
    # 'Beside each report, report.json holds every finding the page states': no timestamp in it at all
    assert (second / "report.json").read_bytes() == (first / "report.json").read_bytes()
    assert b'id="knarr-variants"' in page(first)  # the bootstrap and permutation test of the variants ran


def test_a_copy_at_another_path_gives_the_same_report_but_for_the_paths(
    results: Path, first: Path, tmp_path: Path
) -> None:
    """'every resampling draws from a generator seeded from the data's identity': the records' identity,
    not where they lie.  The page names the run folders only in the runs table's tooltips."""
    copy = tmp_path / "else" / "where" / "copied"
    shutil.copytree(results, copy)
    moved = report(copy, tmp_path / "out")
    assert charts(moved) == charts(first)
    assert viewers(moved) == viewers(first)  # the pages name no folder either
    assert (moved / "report.json").read_bytes() == (first / "report.json").read_bytes()  # names no folder
    assert identity(open_runs(copy)) == identity(open_runs(results))
    one, two = page(first), page(moved)
    tooltips = re.compile(rb'<td title="([^"]*)"')
    assert {t.decode() for t in tooltips.findall(one)} == {str(results / name) for name in RUNS}
    assert {t.decode() for t in tooltips.findall(two)} == {str(copy / name) for name in RUNS}
    assert str(results).encode() not in tooltips.sub(b"", one)
    assert one.replace(str(results).encode(), b"RESULTS") == two.replace(str(copy).encode(), b"RESULTS")


def test_one_rating_has_one_interval_on_the_page(first: Path) -> None:
    """'One estimate has one interval on a page: compute once, reuse': the sample-size section shows each
    Bradley-Terry rating with the interval of the strength section's ratings table."""
    text = (first / "report.html").read_text()
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", text)]
    table = {(r[0], r[1]): (r[2], r[3]) for r in rows if len(r) == 6 and r[2].isdigit()}
    shown = {tuple(r[0].split(" rating of ")): (r[1], r[2]) for r in rows if r and " rating of " in r[0]}
    assert len(shown) == 7  # knarr and mainland: greedy, random; greenland: elder, greedy, spreader
    assert {k: table[k] for k in shown} == shown


def test_runs_frames_keep_the_order_of_the_records(results: Path) -> None:
    """'every resampling draws from a generator seeded from the data's identity': the games a resampling
    reads come in one order, the records' (a join's default order changes from one call to the next)."""
    runs = open_runs(results)
    raw = runs.raw("seats").select("run", "game_id", "seat").collect()
    for _ in range(5):
        assert runs.seats().select("run", "game_id", "seat").collect().equals(raw)
        assert (
            runs.games().select("run", "game_id").collect().equals(raw.filter(raw["seat"] == 0).drop("seat"))
        )


def test_the_permutation_test_ignores_the_order_of_the_games() -> None:
    """'every resampling draws from a generator seeded from the data's identity': the same games in
    another order are the same data, and give the same p-value."""
    rng = np.random.default_rng(7)
    a = np.eye(3)[rng.integers(0, 3, 40)]
    b = np.eye(3)[rng.choice(3, 50, p=[0.5, 0.3, 0.2])]
    p = stats.gap_permutation_test(a, b, reps=500)
    assert stats.gap_permutation_test(a[::-1], b[rng.permutation(len(b))], reps=500) == p


def test_data_seed_names_the_data_and_the_statistic() -> None:
    """'never a constant seed shared by unrelated statistics': the seed changes with the records'
    identity and with the statistic's name, and only with them."""
    one, two = [("run-a", "rules-1"), ("run-b", "rules-1")], [("run-a", "rules-1")]
    seed = stats.data_seed(one, "strength.ratings", ["game"], ["knarr"], 200)
    assert seed == stats.data_seed(list(one), "strength.ratings", ["game"], ["knarr"], 200)
    assert seed != stats.data_seed(two, "strength.ratings", ["game"], ["knarr"], 200)
    assert seed != stats.data_seed(one, "strength.ratings", ["game"], ["mainland"], 200)
    assert seed != stats.data_seed(one, "balance_gap", ["game"], ["knarr"], 200)

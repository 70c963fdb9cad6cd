"""Knarr's balance questions through ``analysis.games.knarr.questions`` and the report: a tiny real run (2
players, 12 games) of the base game and of the skáli/raid expansion."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from analysis.data.runs import open_runs
from analysis.games.knarr import questions as knarr
from analysis.report.report import write_report
from analysis.study.study import packaged
from sim.cli import _main

pytestmark = pytest.mark.slow

SECTIONS = ["knarr-seats", "knarr-scores", "knarr-holdings", "knarr-raids"]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("knarr")
    common = ["run", "knarr", "-p", "2", "-g", "12", "-j", "1", "--seed", "7", "--quiet"]
    assert _main([*common, "--out", str(root / "base")]) == 0
    assert _main([*common, "--rule", "skali=true", "--out", str(root / "skali")]) == 0
    return root


def test_tables(results: Path) -> None:
    runs = open_runs(results)
    seats = knarr.seat_advantage(runs)
    assert seats.height == 4 and set(seats["expansion"]) == {"base", "skáli"}
    for _, part in seats.group_by("variant"):
        assert part["games"].to_list() == [12, 12] and part["blocks"].to_list() == [6, 6]
        assert part["wins"].sum() == pytest.approx(12)  # every game has a winner (ties split)
        assert (part["score_low"] <= part["mean_score"]).all()
    assert ((seats["ci_low"] <= seats["win_rate"]) & (seats["win_rate"] <= seats["ci_high"])).all()
    assert seats["expected"].to_list() == [0.5] * 4

    spread = knarr.score_spread(runs)
    assert spread.height == 8 and set(spread["games"]) == {12} and set(spread["blocks"]) == {6}
    margin = spread.filter(pl.col("measure") == "first_minus_second")
    assert margin["variant"].n_unique() == 2  # one estimate per variant: base and skáli never pooled
    assert ((margin["low"] <= margin["mean"]) & (margin["mean"] <= margin["high"])).all()

    held = knarr.holdings(runs, min_games=1)
    # names, not codes: Knarr cards by name (not "D11A", "B23" ...)
    for kind, named in (
        ("destination", r"^(Trading Land|Land of Influence) \d+: .+ for .+"),
        ("Building", r"^Building \d+ \(cost \d+\)$"),
    ):
        part = held.filter(pl.col("kind") == kind)
        assert part.height and part["card"].str.contains(named).all(), part["card"].head(3).to_list()
        assert ((part["win_rate"] >= 0) & (part["win_rate"] <= 1) & (part["held"] <= 12)).all()
        assert (part["diff"] - (part["win_rate"] - part["expected"])).abs().max() < 1e-12
    assert set(held.filter(pl.col("kind") == "Building")["expansion"]) == {"skáli"}  # Buildings: expansion
    assert (
        held["family"].unique().to_list() == [held.height] and (held["p_adjusted"] >= held["p_value"]).all()
    )

    freq = knarr.raid_frequency(runs)
    assert freq.height == 1 and freq["expansion"].to_list() == ["skáli"] and freq["games"].item() == 12
    assert freq["raids_per_game"].item() >= 0 and 0 <= freq["share_with_raid"].item() <= 1
    favour = knarr.raid_favour(runs)
    assert favour["seats"].sum() == 24 and favour["raid_net"].is_between(-3, 3).all()
    assert knarr.raid_favour(runs, "raid_side")["seats"].sum() == 24


def test_report_sections(results: Path, tmp_path: Path) -> None:
    out = write_report([results], tmp_path / "report.html")
    html = out.read_text()
    found = re.findall(r'<section id="([^"]+)"', html)
    assert [s for s in found if s.startswith("knarr")] == [
        *SECTIONS,
        "knarr-strength",
        "knarr-score-spreads",
        "knarr-curves",
        "knarr-variants",
        "knarr-game-to-watch",  # after the game's sections
    ]
    for sid in SECTIONS:
        part = html.split(f'<section id="{sid}">', 1)[1].split("</section>", 1)[0]
        assert "Not available from these records" not in part, sid
        assert "data:image/png;base64," in part and "<table" in part
        reading = re.search(r'<p class="reading">(.*?)</p>', part, re.S).group(1)
        assert re.search(r"\d", reading), sid
    # base game only: no raid section
    base_only = write_report([results / "base"], tmp_path / "base.html").read_text()
    assert 'id="knarr-seats"' in base_only and 'id="knarr-raids"' not in base_only


def _section(html: str, sid: str) -> str:
    return html.split(f'<section id="{sid}">', 1)[1].split("</section>", 1)[0]


def test_knarr_seats_appear_once_in_their_own_section(results: Path, tmp_path: Path, registered: str) -> None:
    """Knarr's seats are read once, in ``knarr-seats`` (the round is completed after the 40-VP trigger,
    knarr.md A.6), with the tests of equal chances; the general seat-balance section leaves Knarr out."""
    from tests.analysis_testkit import write_results

    html = write_report([results], tmp_path / "k.html").read_text()
    assert 'id="knarr-seat-balance"' not in html
    seats = _section(html, "knarr-seats")
    assert "Tests of equal seat chances" in seats and "chi-square p if games were independent" in seats
    assert re.search(r"on [\d,]+ blocks gives p [=<]", seats)
    assert re.search(r"Holm(&#39;|')s correction over \d+ tests|a single test", seats)
    assert "has an edge" not in seats and "largest seat gap" not in seats
    toy = write_results(tmp_path / "toy", [[3, 1], [2, 5], [4, 4]], ["greedy", "random"], game=registered)
    mixed = write_report([toy, results], tmp_path / "mixed.html").read_text()
    general = _section(mixed, f"{registered}-seat-balance")
    assert registered in general and "knarr" not in general.lower()
    assert 'id="knarr-seat-balance"' not in mixed
    assert mixed.count('<section id="knarr-seats">') == 1


def test_no_knarr_sections_without_knarr(tmp_path: Path, registered: str) -> None:
    from tests.analysis_testkit import write_results

    folder = write_results(tmp_path / "t", [[3, 1], [2, 5], [4, 4]], ["greedy", "random"], game=registered)
    html = write_report([folder], tmp_path / "r.html").read_text()
    assert "knarr-" not in html


def test_packaged_study() -> None:
    spec = packaged()["knarr"]
    assert spec.missing() is None
    plan = spec.plan()
    assert {r.rules.get("skali") for r in plan} == {False, True}
    assert all(r.game == "knarr" for r in plan) and sum(r.games for r in plan) <= 600  # under a minute
    # the seat-advantage question is measured with mirror matches, and the study uses Knarr's other
    # strategies where they matter
    assert any(len(set(r.strategies)) == 1 for r in plan)
    assert {s for r in plan for s in r.strategies} >= {
        "greedy",
        "collector",
        "trader",
        "hoarder",
        "architect",
    }

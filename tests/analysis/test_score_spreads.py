"""The score-spread section (``analysis.report.sections.spreads``) and its verdicts: on records written by
hand, where the winner's margins are known, the section's numbers against a hand computation, a planted
difference and a planted equivalence between rule variants decided against the margin; and on tiny real
runs of every game, that the section exists, states its numbers as findings and gives one verdict."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from scipy import stats as sps

from analysis.data.runs import open_runs
from analysis.present.findings import Finding, document
from analysis.report import verdicts
from analysis.report.sections import spreads
from analysis.report.sections.spreads import (
    BELOW_TOP,
    CLOSE,
    CLOSE_DECISION,
    MARGIN,
    MARGIN_DECISION,
    MEDIAN,
    THRESHOLD,
    SpreadScale,
    spread_section,
    spread_verdicts,
)
from analysis.stats.decide import SHARE_MARGIN, score_spread_decisions
from analysis.stats.estimates import cluster_proportion
from sim.cli import _main
from tests.analysis_testkit import write_results

VARIANT = {"castle_needs_overlap": False}  # a Mainland rule switch off its default
SID = "mainland-score-spreads"
#: every game of Skald's, played at 3 players (all four play 3)
GAMES_PLAYED = ["mainland", "graenaland", "greenland", "knarr"]


def scores_for(margins: list[float]) -> list[list[float]]:
    """Four seats' final scores with the given winner's margins (the top seat rotates)."""
    rows = []
    for g, m in enumerate(margins):
        row = [50.0 + m, 50.0, 40.0, 30.0]
        shift = g % 4
        rows.append(row[shift:] + row[:shift])
    return rows


def by_metric(found: list[Finding], metric: str) -> list[Finding]:
    return [f for f in found if f.metric == metric]


# --------------------------------------------------------------------------- known truth


def test_the_numbers_match_a_hand_computation(tmp_path: Path) -> None:
    margins = [0.0, 1.0, 3.0, 5.0, 10.0, 7.0, 20.0]  # a tie for first counts as 0
    truncated = 6  # its scores are not final: left out, counted
    runs = open_runs(
        write_results(tmp_path / "a", scores_for(margins), ["greedy"] * 4, truncated=[truncated])
    )
    section = spread_section(runs, sid=SID)
    assert section is not None and section.id == SID
    kept = np.array(margins[:truncated])
    (margin,) = by_metric(section.findings, MARGIN)
    (close,) = by_metric(section.findings, CLOSE)
    (median,) = by_metric(section.findings, MEDIAN)
    (threshold,) = by_metric(section.findings, THRESHOLD)
    assert margin.groups == {"players": 4, "variant": "defaults", "mix": "greedy + greedy + greedy + greedy"}
    # seats fixed: every game its own block, so the block-aware interval is the plain t interval
    half = sps.t.ppf(0.975, len(kept) - 1) * kept.std(ddof=1) / math.sqrt(len(kept))
    assert margin.estimate == pytest.approx(kept.mean())
    assert (margin.low, margin.high) == pytest.approx((kept.mean() - half, kept.mean() + half))
    assert (margin.games, margin.clusters, margin.excluded, margin.unit) == (6, 6, 1, "points")
    assert median.estimate == pytest.approx(float(np.median(kept)))
    assert threshold.estimate == spreads.spread_scale("mainland").close == 2.0  # the plug-in's close_within
    is_close = (kept <= 2.0).astype(float)  # 0 and 1 point: 2 of 6
    rate = cluster_proportion(is_close, np.ones(len(kept)))
    assert close.estimate == pytest.approx(2 / 6)
    assert (close.low, close.high) == pytest.approx((float(rate.low), float(rate.high)))
    assert (close.games, close.excluded, close.unit) == (6, 1, "share")
    assert not by_metric(section.findings, BELOW_TOP)  # every winner held the top score
    assert not by_metric(section.findings, MARGIN_DECISION)  # one variant: nothing to compare

    (verdict,) = spread_verdicts(section.findings, {SID})
    assert (verdict.game, verdict.heading, verdict.kind, verdict.href) == (
        "mainland",
        "score spreads",
        "score spreads",
        f"#{SID}",
    )
    assert not verdict.significant
    expected = (
        f"At 4 players the winner leads by {kept.mean():.1f} [{margin.low:.1f}, {margin.high:.1f}] points on "
        f"average; 33% [{100 * close.low:.0f}, {100 * close.high:.0f}] of games are close (within 2 points); "
        "6 games, 1 truncated or errored left out."
    )
    assert verdict.text == expected
    assert "2 points" in section.notes[1] and section.reading.startswith("In the largest group")
    document(section.findings)  # every number once: no two findings share an id


def test_a_scale_of_its_own_and_a_winner_below_the_top_score(tmp_path: Path) -> None:
    folder = write_results(tmp_path / "a", scores_for([0.0, 1.0, 2.0, 4.0]), ["greedy"] * 4)
    path = folder / "seats" / "part-00000.parquet"
    seats = pq.read_table(path).to_pandas()
    # game 3: the second highest score wins (as Graenaland's announcer can)
    rows = seats["game_id"] == 3
    top = seats[rows]["score"].idxmax()
    second = seats[rows]["score"].nlargest(2).index[1]
    seats.loc[top, ["won", "win_share", "rank"]] = [False, 0.0, 2]
    seats.loc[second, ["won", "win_share", "rank"]] = [True, 1.0, 1]
    pq.write_table(pq.read_table(path).from_pandas(seats, schema=pq.read_table(path).schema), path)
    section = spread_section(open_runs(folder), sid=SID, scale=SpreadScale(close=1.0, margin=1.0))
    assert section is not None
    (close,) = by_metric(section.findings, CLOSE)
    (below,) = by_metric(section.findings, BELOW_TOP)
    assert close.estimate == pytest.approx(0.5)  # margins 0 and 1 of 0, 1, 2, 4
    assert below.estimate == 1 and below.unit == "count"
    assert "(within 1 point)" in spread_verdicts(section.findings, set())[0].text
    assert any("announcer" in note for note in section.notes)


def test_no_finished_game_no_section(tmp_path: Path) -> None:
    folder = write_results(tmp_path / "a", scores_for([1.0, 2.0]), ["greedy"] * 4, truncated=[0, 1])
    assert spread_section(open_runs(folder), sid=SID) is None  # no final scores to spread


# --------------------------------------------------------------------------- rule variants decided


def variant_runs(tmp_path: Path, base: list[float], other: list[float]) -> tuple[Path, Path]:
    a = write_results(tmp_path / "base", scores_for(base), ["greedy"] * 4)
    b = write_results(tmp_path / "variant", scores_for(other), ["greedy"] * 4, rules=VARIANT)
    return a, b


def decisions(section_findings: list[Finding]) -> dict[str, Finding]:
    return {f.metric: f for f in section_findings if f.decision is not None}


def test_a_planted_difference_differs_beyond_the_margin(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    base = rng.integers(0, 30, 120).astype(float)
    other = base + 12 + rng.integers(-2, 3, 120)  # the variant's winner leads by 12 more: margin 5
    section = spread_section(open_runs(list(variant_runs(tmp_path, list(base), list(other)))), sid=SID)
    assert section is not None
    found = decisions(section.findings)
    margin = found[MARGIN_DECISION]
    assert margin.groups == {
        "players": 4,
        "mix": "greedy + greedy + greedy + greedy",
        "base": "defaults",
        "value": "castle_needs_overlap=false",
    }
    assert margin.decision == "differs" and margin.margin == 5.0 and margin.unit == "points"
    assert margin.low is not None and margin.low > 5.0  # beyond the margin
    # the same numbers as the decision itself: paired by deal (the same seeds on both sides)
    ids = list(range(120))
    truth = score_spread_decisions(base, ids, other, ids, points=5.0, close_within=2.0, paired=True)
    assert margin.estimate == pytest.approx(12 + float(np.mean(other - base - 12)))
    assert (margin.low, margin.high) == pytest.approx(truth["winner's margin"].interval)
    assert margin.p_value == pytest.approx(truth["winner's margin"].p_value)
    assert margin.test == "paired t on block differences" and margin.games == 240
    close = found[CLOSE_DECISION]
    assert close.margin == SHARE_MARGIN and close.unit == "difference"
    assert close.estimate == pytest.approx(truth["close games"].estimate)
    assert close.decision == truth["close games"].decision
    (verdict,) = spread_verdicts(section.findings, {SID})
    assert verdict.significant
    assert "castle_needs_overlap=false against defaults at 4 players: the winner's margin differs: +" in (
        verdict.text
    )
    assert "beyond the margin of 5 points" in verdict.text and "95% interval (p < 0.001)" in verdict.text
    assert verdict.claims[0] == pytest.approx(margin.p_value)
    document(section.findings)


def test_a_planted_equivalence_is_the_same_within_the_margin(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    base = rng.integers(0, 30, 200).astype(float)
    other = np.maximum(base + rng.integers(-1, 2, 200), 0)  # a point either way: no real change
    section = spread_section(open_runs(list(variant_runs(tmp_path, list(base), list(other)))), sid=SID)
    assert section is not None
    found = decisions(section.findings)
    for metric in (MARGIN_DECISION, CLOSE_DECISION):
        f = found[metric]
        assert f.decision == "same", (metric, f)
        assert f.low is not None and f.high is not None and -f.margin < f.low <= f.high < f.margin
        assert f.p_value is not None and f.p_value < 0.05  # the equivalence test's p, with its interval
    (verdict,) = spread_verdicts(section.findings, {SID})
    assert not verdict.significant and verdict.claims == (1.0, 1.0)
    assert "the winner's margin is the same within 5 points (" in verdict.text
    assert "the share of close games is the same within 5 percentage points (" in verdict.text
    assert "90% interval; equivalence p" in verdict.text


def test_unpaired_variants_and_an_undecided_comparison(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    base = rng.integers(0, 30, 12).astype(float)
    other = rng.integers(0, 30, 10).astype(float)  # other seeds: the two are not paired
    section = spread_section(open_runs(list(variant_runs(tmp_path, list(base), list(other)))), sid=SID)
    assert section is not None
    margin = decisions(section.findings)[MARGIN_DECISION]
    assert "Welch" in (margin.test or "") and margin.clusters == 22
    assert margin.decision == "undecided" and margin.games_needed is not None and margin.games_needed > 0
    (verdict,) = spread_verdicts(section.findings, {SID})
    assert "more games would decide it if the estimates held" in verdict.text
    assert "(22 games, 22 blocks)" in verdict.text


def test_the_page_reads_no_plain_difference_family_from_the_decisions(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    base = rng.integers(0, 30, 40).astype(float)
    section = spread_section(open_runs(list(variant_runs(tmp_path, list(base), list(base + 9)))), sid=SID)
    assert section is not None
    found = verdicts.verdicts(section.findings, [section])
    # no plain-difference family is read from the decisions: their only verdict is spread_verdicts'
    assert [v.kind for v in found if v.kind != "score spreads"] == []
    assert len([v for v in found if v.kind == "score spreads"]) <= 1
    others = [Finding("mainland", "sample-size", MARGIN, {"players": 4}, estimate=3.0)]
    assert spread_verdicts(others, {"sample-size"}) == []  # another section's winner's margin: no verdict


# --------------------------------------------------------------------------- every game, tiny real runs


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spreads")
    for game in GAMES_PLAYED:
        common = ["run", game, "-p", "3", "-g", "12", "-j", "1", "--seed", "11", "--quiet"]
        assert _main([*common, "--out", str(root / game / "base")]) == 0
    common = ["run", "knarr", "-p", "3", "-g", "12", "-j", "1", "--seed", "11", "--quiet"]
    assert _main([*common, "--rule", "skali=true", "--out", str(root / "knarr" / "skali")]) == 0
    return root


@pytest.mark.parametrize("game", GAMES_PLAYED)
def test_every_game_has_the_section_and_a_verdict(real: Path, game: str) -> None:
    runs = open_runs(real / game)
    sid = f"{game}-score-spreads"
    section = spread_section(runs, sid=sid)
    assert section is not None and section.tables and section.findings
    assert {f.game for f in section.findings} == {game}
    (margin, *_) = by_metric(section.findings, MARGIN)
    assert margin.games and margin.games + (margin.excluded or 0) == 12
    assert margin.estimate is not None and margin.estimate >= 0
    (threshold,) = by_metric(section.findings, THRESHOLD)
    assert threshold.estimate == spreads.spread_scale(game).close
    (verdict,) = spread_verdicts(section.findings, {sid})
    assert verdict.text.startswith("At 3 players") and verdict.href == f"#{sid}"
    if game == "knarr":  # base and skáli on the same seeds and seats: paired, both decided
        found = decisions(section.findings)
        assert set(found) == {MARGIN_DECISION, CLOSE_DECISION}
        assert "paired" in (found[MARGIN_DECISION].test or "")
        assert "skali=true against defaults at 3 players" in verdict.text
    document(section.findings)

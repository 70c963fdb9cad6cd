"""Greenland's balance questions through ``analysis.games.greenland.questions`` and the report: tiny real runs
(2, 3 and 4 tribes, and the 4-tribe deals again with ``conversion=any``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data.runs import open_runs
from analysis.games.greenland import questions as greenland
from analysis.report.report import write_report
from analysis.stats import inference
from analysis.study.study import packaged
from sim.cli import _main

pytestmark = pytest.mark.slow

SECTIONS = ["greenland-tribes", "greenland-conversion", "greenland-scores", "greenland-length"]
GAMES = {"2p": 4, "3p": 6, "4p": 8, "4p-any": 8}
MIX = ["elder", "greedy", "spreader", "random"]
EPS = 1e-9


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("greenland")
    for name, games in GAMES.items():
        players = int(name[0])
        args = [
            "run",
            "greenland",
            "-p",
            str(players),
            "-g",
            str(games),
            "-j",
            "1",
            "--seed",
            "11",
            "--quiet",
        ]
        args += ["--strategies", ",".join(MIX[:players]), "--out", str(root / name)]
        if name.endswith("any"):
            args += ["--rule", "conversion=any"]
        assert _main(args) == 0
    return root


@pytest.fixture(scope="module")
def runs(results: Path):
    return open_runs(results)


def _within(frame: pl.DataFrame, value: str, low: str, high: str) -> bool:
    """Every estimate inside its interval, where both are defined (an undefined interval is nan)."""
    part = frame.filter(*[pl.col(c).is_not_null() & pl.col(c).is_not_nan() for c in (value, low, high)])
    return bool(((part[low] <= part[value] + EPS) & (part[value] <= part[high] + EPS)).all())


def test_seats_frame(runs) -> None:
    seats = greenland.seats(runs)
    assert seats.height == sum(int(n[0]) * g for n, g in GAMES.items())
    assert set(seats["tribe"]) <= {"Tunit", "Norse", "Sea Sámi", "Thule"}
    assert set(seats["conversion"]) == {"no_elders", "any"}
    assert (seats.filter(pl.col("run") == "4p-any")["variant"] == "conversion=any").all()
    # a dead tribe has the generation it died in, a living one none
    dead = seats.filter(~pl.col("survived"))
    assert (dead["generation_died"] >= 1).all() and (dead["generation_died"] <= dead["generations"]).all()
    assert (seats.filter(pl.col("survived"))["generation_died"] == -1).all()
    # within a game the tribes differ
    assert seats.group_by("run", "game_id").agg(pl.col("tribe").n_unique() == pl.len())["tribe"].all()


def test_tribe_and_strategy_outcomes(runs) -> None:
    for by in ("tribe", "strategy"):
        rates = greenland.outcomes(runs, by)
        for (run,), part in rates.group_by(["run"]):
            players, games = int(run[0]), GAMES[run]
            assert part["seats"].sum() == players * games
            assert part["wins"].sum() == pytest.approx(games)  # every game has a winner; ties split
            assert part["expected"].to_list() == pytest.approx([1 / players] * part.height)
        for column in ("win_rate", "survival_rate"):
            assert rates[column].is_between(0, 1).all()
        assert _within(rates, "win_rate", "ci_low", "ci_high")
        assert _within(rates, "survival_rate", "surv_low", "surv_high")
        assert (rates["survivors"] <= rates["seats"]).all()
    strategies = greenland.outcomes(runs, "strategy")
    assert (strategies["seats"] == strategies["run"].replace_strict(GAMES, return_dtype=pl.Int64)).all()

    pooled = greenland.pooled_outcomes(runs, "tribe")
    assert set(pooled["variant"]) == {"defaults", "conversion=any"}
    defaults = pooled.filter(pl.col("variant") == "defaults")
    assert defaults["seats"].sum() == 2 * 4 + 3 * 6 + 4 * 8
    assert defaults["counts"].unique().to_list() == ["2, 3, 4"]
    assert _within(pooled, "survival_rate", "surv_low", "surv_high")
    assert pooled["chi2_p"].drop_nans().is_between(0, 1).all()

    tests = greenland.tribe_tests(runs)
    assert tests.sort("run")["games"].to_list() == [GAMES[r] for r in sorted(GAMES)]
    assert (tests["tribes"] <= 4).all() and tests.filter(pl.col("players") == 4)["tribes"].to_list() == [4, 4]


def _pooled(rates: dict[str, tuple[int, int]]) -> pl.DataFrame:
    """A ``pooled_outcomes``-like frame: tribe -> (survivors, seats)."""
    from analysis.stats.stats import wilson_interval

    rows = []
    for tribe, (alive, n) in rates.items():
        low, high = wilson_interval(alive, n)
        rows.append(
            {
                "tribe": tribe,
                "seats": n,
                "survival_rate": alive / n,
                "surv_low": float(low),
                "surv_high": float(high),
            }
        )
    return pl.DataFrame(rows)


def test_thule_verdict() -> None:
    others = {"Tunit": (20, 100), "Norse": (25, 100), "Sea Sámi": (30, 100)}
    assert greenland.thule_verdict(_pooled({**others, "Thule": (90, 100)}))["verdict"] == "agrees"
    assert greenland.thule_verdict(_pooled({**others, "Thule": (34, 100)}))["verdict"] == "leans"
    assert greenland.thule_verdict(_pooled({**others, "Thule": (28, 100)}))["verdict"] == "no_edge"
    v = greenland.thule_verdict(_pooled({**others, "Thule": (5, 100)}))
    assert v["verdict"] == "disagrees" and v["best"]["tribe"] == "Sea Sámi"
    assert v["others_low"] == pytest.approx(0.20) and v["others_high"] == pytest.approx(0.30)
    assert greenland.thule_verdict(_pooled(others))["verdict"] == "no_thule"


def test_conversion(runs) -> None:
    split = greenland.conversion_split(runs)
    assert (split["converted"] + split["not_converted"] == split["seats"]).all()
    for (run,), part in split.group_by(["run"]):
        assert part["seats"].sum() == int(run[0]) * GAMES[run]  # the split covers every seat
        assert part["wins_conv"].sum() + part["wins_not"].sum() == pytest.approx(GAMES[run])
    assert split["converted_share"].is_between(0, 1).all()
    assert _within(split, "win_conv", "conv_low", "conv_high")
    assert _within(split, "win_not", "not_low", "not_high")
    assert _within(split, "diff", "diff_low", "diff_high")
    both = split.filter((pl.col("converted") > 0) & (pl.col("not_converted") > 0))
    assert both["diff"].to_list() == pytest.approx((both["win_conv"] - both["win_not"]).to_list())
    # a strategy that never converted has no converted win rate
    assert split.filter(pl.col("converted") == 0)["win_conv"].is_null().all()

    pairs = greenland.conversion_pairs(runs)
    assert [(a.label, b.label) for a, b in pairs] == [("4p", "4p-any")]
    paired = greenland.conversion_variants(runs)
    assert set(paired["metric"]) == set(greenland.PAIRED_METRICS)
    assert set(paired["strategy"]) == {"all", *MIX}
    assert paired.filter(pl.col("strategy") == "all")["pairs"].unique().to_list() == [4 * GAMES["4p"]]
    assert paired.filter(pl.col("strategy") == "all", pl.col("metric") == "win_share").is_empty()
    assert _within(paired, "diff", "diff_low", "diff_high")
    assert paired["diff"].to_list() == pytest.approx((paired["value"] - paired["base"]).to_list())
    base = greenland.outcomes(runs, "strategy").filter(pl.col("run") == "4p")
    rows = paired.filter(pl.col("metric") == "survived", pl.col("strategy") != "all").sort("strategy")
    assert rows["base"].to_list() == pytest.approx(base.sort("strategy")["survival_rate"].to_list())


def test_scores_and_length(runs, results: Path) -> None:
    spread = greenland.score_spread(runs)
    assert spread.sort("run")["games"].to_list() == [GAMES[r] for r in sorted(GAMES)]
    assert (spread["first_minus_last_mean"] >= spread["first_minus_second_mean"] - EPS).all()
    assert (spread["first_minus_second_mean"] >= 0).all()
    assert (spread["winning_score_mean"] >= spread["mean_score_mean"]).all()
    for m in greenland.SPREAD_MEASURES:
        assert _within(spread, f"{m}_mean", f"{m}_low", f"{m}_high")
    two = spread.filter(pl.col("players") == 2).row(0, named=True)  # runner-up and last are one seat
    assert two["first_minus_second_mean"] == pytest.approx(two["first_minus_last_mean"])
    tribes = greenland.tribe_scores(runs)
    assert _within(tribes, "mean", "low", "high")

    length = greenland.game_length(runs)
    assert (length["games"] + length["truncated"]).to_list() == [
        open_runs(results / r).runs[0].games for r in length["run"].to_list()
    ]
    assert (length["generations_min"] >= 1).all()
    assert (length["generations_min"] <= length["generations_mean"] + EPS).all()
    assert (length["generations_mean"] <= length["generations_max"] + EPS).all()
    for column in ("ended_early", "any_died", "none_left"):
        assert length[column].is_between(0, 1).all()
    assert _within(length, "any_died", "any_low", "any_high")

    deaths = greenland.deaths(runs, "tribe")
    outcomes = greenland.outcomes(runs, "tribe")
    joined = deaths.join(outcomes, on=["run", "tribe"])
    assert (joined["died"] == joined["seats"] - joined["survivors"]).all()
    assert _within(deaths, "died_share", "low", "high")
    timing = greenland.extinctions(runs, "tribe")
    for _, part in timing.group_by(["run", "tribe"]):
        dead = part.sort("generation")["dead"].to_list()
        assert dead == sorted(dead) and part["died"].sum() == dead[-1]  # cumulative, adds up
    last = timing.sort("generation").group_by("run", "tribe").last().join(deaths, on=["run", "tribe"])
    assert (last["dead"] == last["died_right"]).all()
    assert timing["dead_share"].is_between(0, 1).all()


def _section(html: str, sid: str) -> str:
    return html.split(f'<section id="{sid}">', 1)[1].split("</section>", 1)[0]


def test_report_sections(results: Path, tmp_path: Path) -> None:
    html = write_report([results], tmp_path / "report.html").read_text()
    found = re.findall(r'<section id="([^"]+)"', html)
    general = ["greenland-strength", "greenland-score-spreads", "greenland-curves", "greenland-variants"]
    watch = ["greenland-game-to-watch"]  # after the game's sections
    expected = ["greenland-seat-balance", *SECTIONS, *general, *watch]
    assert [s for s in found if s.startswith("greenland")] == expected
    for sid in SECTIONS:
        part = _section(html, sid)
        assert "Not available from these records" not in part, sid
        assert "data:image/png;base64," in part and "<table" in part
        reading = re.search(r'<p class="reading">(.*?)</p>', part, re.S).group(1)
        assert re.search(r"\d", reading), sid
    tribes = re.search(r'<p class="reading">(.*?)</p>', _section(html, "greenland-tribes"), re.S).group(1)
    assert "Thule" in tribes and "history" in tribes
    conversion = _section(html, "greenland-conversion")
    assert "conversion=any" in conversion and "same seats of the same deals" in conversion
    # without the conversion=any run the paired comparison says it is missing, the rest stays
    alone = write_report([results / "4p"], tmp_path / "alone.html").read_text()
    assert "No run with conversion=any paired" in _section(alone, "greenland-conversion")
    assert "Not available" not in alone


def test_no_greenland_sections_without_greenland(tmp_path: Path, registered: str) -> None:
    from tests.analysis_testkit import write_results

    folder = write_results(tmp_path / "t", [[3, 1], [2, 5], [4, 4]], ["greedy", "random"], game=registered)
    html = write_report([folder], tmp_path / "r.html").read_text()
    assert "greenland-" not in html and "Thule" not in html


def test_packaged_study() -> None:
    spec = packaged()["greenland"]
    assert spec.missing() is None
    plan = spec.plan()
    assert {r.players for r in plan} == {2, 3, 4}
    assert all(r.game == "greenland" and r.seats == "rotate" for r in plan)
    anyone = [r for r in plan if r.rules.get("conversion") == "any"]
    assert len(anyone) == 1
    twin = [
        r
        for r in plan
        if r.players == anyone[0].players and r.name.startswith("conversion") and r is not anyone[0]
    ]
    assert twin and all(r.strategies == anyone[0].strategies and r.seed == anyone[0].seed for r in twin)
    assert sum(r.games for r in plan) <= 450  # about a minute on two cores
    assert {r.players for r in plan if len(set(r.strategies)) == 1} == {2, 3, 4}  # mirror matches


def test_tribe_win_test_is_one_draw_per_game_not_a_2xk_table() -> None:
    """With all four categories in every game, a 2×k table inflates the statistic by k/(k-1). Four
    tribes seated once in each of 40 games (wins 16, 10, 8, 6): the per-game test is
    inference.one_per_game_test's chi-square, the 2×k table's statistic is 4/3 of it and its p smaller."""
    from analysis.stats import inference, stats

    wins = [16.0, 10.0, 8.0, 6.0]
    counts = np.ones((40, 4))
    won = np.zeros((40, 4))
    won[np.arange(40), np.repeat(np.arange(4), [int(w) for w in wins])] = 1.0
    chi2, p, dof = inference.category_win_test(counts, won, np.full(40, 4))
    naive, naive_p, _ = stats.rates_independence_test(wins, [40] * 4)
    reference = inference.one_per_game_test(wins)
    assert dof == 3 and chi2 == pytest.approx(float(reference.statistic))
    assert p == pytest.approx(float(reference.p_value))
    assert naive == pytest.approx(chi2 * 4 / 3)
    assert naive_p < p


def test_tribe_win_test_where_the_tribes_vary_by_game() -> None:
    """With fewer seats than tribes ("Randomly assign a Placard", rulebook line 13) each game seats two
    of three tribes; under equal chances each seat of a game wins 1/2, whatever the tribes: the test
    is 0 where every tribe wins half its games, and the same wins with one tribe always winning reject."""
    counts = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]] * 10, dtype=float)
    even = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]] * 10, dtype=float)
    chi2, p, dof = inference.category_win_test(counts, even, np.full(30, 2))
    assert dof == 2 and chi2 == pytest.approx(0.0, abs=1e-9) and p == pytest.approx(1.0)
    skewed = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0]] * 10, dtype=float)
    assert inference.category_win_test(counts, skewed, np.full(30, 2))[1] < 0.001


def test_spread_chart_labels_do_not_collide() -> None:
    """No colliding labels (Greenland's 4p spreads once read "over lastwin score"): three panels of the
    spreads chart with both conversion rules, each measure's tick label whole and clear of its neighbours."""
    from analysis.games.greenland.sections import SPREAD_AXIS
    from analysis.present import charts

    frame = pl.DataFrame(
        [
            {"players": p, "measure": label, "variant": v, "mean": 10.0, "low": 8.0, "high": 12.0}
            for p in (2, 3, 4)
            for label in SPREAD_AXIS.values()
            for v in ("defaults", "conversion=any")
        ]
    )
    fig = charts.grouped_means(frame, "measure", "variant", "points", "spreads")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        ticks = [t for t in ax.get_xticklabels() if t.get_text()]
        assert sorted(t.get_text() for t in ticks) == sorted(SPREAD_AXIS.values())
        boxes = sorted((t.get_window_extent(renderer) for t in ticks), key=lambda b: b.x0)
        gaps = [b.x0 - a.x1 for a, b in zip(boxes, boxes[1:], strict=False)]
        assert min(gaps) >= 15, gaps  # pixels: the one-line labels left 6, and read as one

"""Analysis modules on tiny hand-made result folders, checked against hand computations."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis import balance, graenaland, scores, strength
from analysis.runs import open_runs
from sim.errors import SkaldError
from tests.analysis_testkit import write_results

# 2 players, A in seat 0 and B in seat 1; game 2 is a tie, game 4 truncated
SCORES = [[10, 5], [5, 10], [7, 7], [9, 1], [3, 3]]


@pytest.fixture
def two(tmp_path: Path) -> Path:
    parts = {
        "mainland_tiles": [[4, 2], [2, 4], [3, 3], [5, 1], [1, 1]],
        "mainland_items": [[5, 3], [3, 5], [4, 4], [4, 0], [2, 2]],
        "minor_items": [[1, 0], [0, 1], [0, 0], [0, 0], [0, 0]],
    }
    return write_results(tmp_path / "two", SCORES, ["A", "B"], parts=parts, truncated=[4])


def test_seat_balance_splits_ties_and_drops_truncated(two: Path) -> None:
    table = balance.seat_balance(open_runs(two))
    assert table["seat"].to_list() == [0, 1]
    assert table["games"].to_list() == [4, 4]
    assert table["wins"].to_list() == [2.5, 1.5]  # 1 + 0 + 1/2 + 1 and 0 + 1 + 1/2 + 0
    assert table["win_rate"].to_list() == [0.625, 0.375]
    assert table["games_to_halve"].to_list() == [16, 16]
    assert table["expected"].to_list() == [0.5, 0.5]
    row = table.row(0, named=True)
    assert row["ci_low"] < 0.625 < row["ci_high"]


def test_balance_tests_by_hand(two: Path) -> None:
    row = balance.balance_tests(open_runs(two)).row(0, named=True)
    assert (row["games"], row["decided"], row["truncated"], row["tie_games"]) == (5, 4, 1, 1)
    assert row["balance"] == pytest.approx(0.75)
    assert row["max_gap"] == pytest.approx(0.25)
    assert row["first_advantage"] == pytest.approx(0.125)
    assert row["chi2"] == pytest.approx(0.25)  # (2.5 - 2)^2/2 + (1.5 - 2)^2/2
    assert "fractionally" in row["ties"]
    assert row["balance_low"] <= row["balance"] <= row["balance_high"]


def test_head_to_head_and_ratings(two: Path) -> None:
    runs = open_runs(two)
    h2h = strength.head_to_head(runs)
    a = h2h.filter(pl.col("strategy") == "A").row(0, named=True)
    assert (a["meetings"], a["ahead"], a["rate"]) == (4, 2.5, 0.625)
    assert h2h.height == 2
    rated = strength.ratings(runs, reps=20)
    strengths = dict(zip(rated["strategy"], rated["strength"], strict=True))
    assert strengths["A"] / strengths["B"] == pytest.approx(2.5 / 1.5, rel=1e-6)
    assert rated["strategy"][0] == "A"


def test_lead_changes_on_a_hand_made_curve(tmp_path: Path) -> None:
    curve = [[0, 0], [1, 0], [1, 2], [3, 2], [3, 3], [3, 4]]  # leaders: tie, 0, 1, 0, tie, 1
    folder = write_results(tmp_path / "c", [[3, 4], [5, 1]], ["A", "B"], curves={0: curve, 1: [[5, 1]]})
    turns = pl.DataFrame({"run": "x", "game_id": 0, "turn": range(6), "scores": curve})
    per_game = strength.count_lead_changes(turns)
    assert per_game["lead_changes"].to_list() == [3]
    assert per_game["leaders"].to_list() == [2]
    summary = strength.lead_changes(open_runs(folder), by=("players",))
    assert summary["mean"].to_list() == [1.5]  # 3 and 0
    assert summary["none"].to_list() == [0.5]
    curves = strength.score_curves(open_runs(folder), by=("players", "strategy"), min_share=0)
    assert curves["x_name"][0] == "turn"
    first = curves.filter((pl.col("strategy") == "A") & (pl.col("x") == 0))
    assert first["mean"].to_list() == [2.5]  # 0 in game 0, 5 in game 1


def test_score_spreads_by_hand(two: Path) -> None:
    runs = open_runs(two)
    margins = scores.margins(runs)
    assert margins["margin"].to_list() == [5, 5, 0, 8]
    table = scores.winner_margin(runs, ("players",))
    assert table["mean"].to_list() == [4.5]
    assert table["close"].to_list() == [0.25]
    by_strategy = scores.score_distribution(runs, ("strategy",))
    assert by_strategy.filter(pl.col("strategy") == "A")["mean"].to_list() == [31 / 4]
    sources = scores.point_sources(runs, ("players",))
    share = dict(zip(sources["source"], sources["share"], strict=True))
    assert share["mainland_tiles"] == pytest.approx(24 / 54)  # tiles 4+2+2+4+3+3+5+1, scores sum 54
    assert sum(share.values()) == pytest.approx(1.0)
    size = scores.mainland_size(runs, ("strategy",))
    assert size.filter(pl.col("strategy") == "A")["mean"].to_list() == [3.5]


def test_mainland_columns_are_required(tmp_path: Path) -> None:
    folder = write_results(tmp_path / "bare", [[1, 2]], ["A", "B"])
    with pytest.raises(SkaldError, match="needs seat columns mainland_tiles"):
        scores.mainland_size(open_runs(folder))


def test_compare_variants_and_folders(tmp_path: Path) -> None:
    base = write_results(
        tmp_path / "s" / "base", [[2, 1]] * 6 + [[1, 2]] * 2, ["A", "B"], rules={"castle_needs_overlap": True}
    )
    other = write_results(
        tmp_path / "s" / "other",
        [[2, 1]] * 4 + [[1, 2]] * 4,
        ["A", "B"],
        rules={"castle_needs_overlap": False},
        truncated=[7],
    )
    runs = open_runs(tmp_path / "s")
    assert sorted(r.variant for r in runs) == ["castle_needs_overlap=false", "defaults"]
    comp = balance.compare_variants(runs)
    metrics = dict(zip(comp["metric"], comp.iter_rows(named=True), strict=True))
    assert set(metrics) == {"balance_gap", "game_length (decisions)", "truncated_rate"}
    gap = metrics["balance_gap"]
    assert gap["base"] == "defaults"
    assert gap["base_estimate"] == pytest.approx(0.5)  # 6/8 - 2/8
    assert gap["estimate"] == pytest.approx(1 / 7)  # 4/7 - 3/7 (one truncated game left out)
    assert metrics["truncated_rate"]["diff"] == pytest.approx(1 / 8)
    folders = balance.compare_folders(str(base), str(other))
    assert set(folders["value"]) == {"B"} and set(folders["base"]) == {"A"}
    switched = balance.by_rule_switch(runs, "castle_needs_overlap")
    assert sorted(switched["switch_value"]) == ["False", "True"]
    assert switched.filter(pl.col("switch_value") == "True")["balance"].to_list() == [pytest.approx(0.5)]


def _graenaland_runs(tmp_path: Path) -> Path:
    root = tmp_path / "g"
    goals = {name: [[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 0]] for name in graenaland.GOALS}
    common = {
        "start_position": [[1, 2, 3]] * 4,
        "start_territory_a": [[0, 2, 4]] * 4,
        "start_territory_b": [[1, 3, 5]] * 4,
        "goals_met": [[3, 1, 2], [1, 3, 2], [2, 2, 3], [3, 0, 1]],
        "votes_heroes": [[2, 2, 2]] * 4,
        "votes_settlements": [[6, 6, 6]] * 4,
        **goals,
    }
    for adjusted in (True, False):
        write_results(
            root / f"three-3p-{adjusted}",
            [[3, 1, 2], [1, 3, 2], [2, 2, 3], [3, 0, 1]],
            ["greedy", "cooperative", "rival"],
            game="graenaland",
            parts=common,
            rules={"three_player_adjustments": adjusted},
            extra_games={"rounds": [10, 12, 11, 9]},
        )
    return root


def test_graenaland_analyses_on_named_columns(tmp_path: Path) -> None:
    runs = open_runs(_graenaland_runs(tmp_path))
    table = graenaland.start_positions(runs)
    assert "start_position" in table.columns
    row = table.filter(pl.col("start_position") == 1).row(0, named=True)
    assert row["mean_rounds"] == pytest.approx(10.5)
    assert row["start_territories"] == "0+1"
    assert row["mean_goals_met"] == pytest.approx(9 / 4)
    parts = graenaland.three_player(runs)
    assert {"side_by_side", "lengths", "compare", "votes", "goals"} <= set(parts)
    assert parts["votes"]["mean"].to_list() == pytest.approx([0.25, 0.25])
    assert not parts["compare"].is_empty()
    with pytest.raises(SkaldError, match="custom_start=true"):
        graenaland.draft(runs)


def test_graenaland_missing_columns_and_availability(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_results(tmp_path / "bare", [[1, 2, 0]], ["a", "b", "c"], game="graenaland")
    with pytest.raises(SkaldError, match="votes_heroes, votes_settlements"):
        graenaland.vote_shares(open_runs(folder))
    with pytest.raises(SkaldError, match="no graenaland runs"):
        graenaland.start_positions(open_runs(write_results(tmp_path / "m", [[1, 2]], ["a", "b"])))
    import sim.games

    monkeypatch.delitem(sim.games.GAMES, "graenaland", raising=False)
    assert "not available yet" in graenaland.unavailable()
    with pytest.raises(graenaland.GraenalandUnavailable, match="needs graenaland"):
        graenaland.require()
    monkeypatch.setitem(sim.games.GAMES, "graenaland", "tests.toy_game")
    assert graenaland.unavailable() is None


def test_open_runs_errors(tmp_path: Path) -> None:
    with pytest.raises(SkaldError, match="not found"):
        open_runs(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SkaldError, match="no runs in"):
        open_runs(tmp_path / "empty")

"""Analysis modules on tiny hand-made result folders, checked against hand computations."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from analysis.data.runs import open_runs
from analysis.games.graenaland import questions as graenaland
from analysis.games.mainland import questions as mainland_questions
from analysis.questions import balance, scores, strength
from analysis.stats import stats
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
    sources = mainland_questions.point_sources(runs, ("players",))
    share = dict(zip(sources["source"], sources["share"], strict=True))
    assert share["mainland_tiles"] == pytest.approx(24 / 54)  # tiles 4+2+2+4+3+3+5+1, scores sum 54
    assert sum(share.values()) == pytest.approx(1.0)
    size = mainland_questions.mainland_size(runs, ("strategy",))
    assert size.filter(pl.col("strategy") == "A")["mean"].to_list() == [3.5]


def test_mainland_columns_are_required(tmp_path: Path) -> None:
    folder = write_results(tmp_path / "bare", [[1, 2]], ["A", "B"])
    with pytest.raises(SkaldError, match="needs seat columns mainland_tiles"):
        mainland_questions.mainland_size(open_runs(folder))


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


G_SCORES = [[3, 1, 2], [1, 3, 2], [2, 2, 3], [3, 0, 1]]  # winners: seat 0, 1, 2, 0
G_GOALS = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 0]]  # every goal: the winners hold it in games 0, 1, 3


def _graenaland_runs(tmp_path: Path) -> Path:
    """Three Graenaland runs of the same four 3-player games: adjusted (auto), unadjusted (off) and the
    draft (custom_start)."""
    root = tmp_path / "g"
    common = {
        "start_position": [[1, 2, 3]] * 4,
        "start_territory_a": [[0, 1, 2]] * 4,
        "start_territory_b": [[3, 4, 4]] * 4,
        "goals_met": [[3, 1, 2], [1, 3, 2], [2, 2, 3], [3, 0, 1]],
        "votes_settlements": [[6, 6, 6]] * 4,
        **{name: G_GOALS for name in graenaland.GOALS},
    }
    variants = {
        "auto": {"votes_heroes": [[2, 2, 2], [3, 3, 3], [2, 2, 2], [3, 3, 3]]},  # shares 1/4, 1/3, 1/4, 1/3
        "off": {"votes_heroes": [[1, 1, 1]] * 4, "goal_army": [[0, 0, 0]] * 4},  # shares 1/7
    }
    for value, extra in variants.items():
        write_results(
            root / f"three-3p-{value}",
            G_SCORES,
            ["greedy", "cooperative", "rival"],
            game="graenaland",
            parts={**common, **extra},
            rules={"three_player_adjustments": value},
            extra_games={"rounds": [10, 12, 11, 9]},
        )
    write_results(
        root / "draft-3p",
        G_SCORES,
        ["greedy", "cooperative", "rival"],
        game="graenaland",
        parts={
            **common,
            "votes_heroes": [[1, 1, 1]] * 4,
            "draft_order": [[1, 2, 3]] * 4,
            "chosen_territory": [[0, 1, 2], [2, 1, 0], [0, 2, 1], [1, 0, 2]],
        },
        rules={"custom_start": True},
        extra_games={"rounds": [10, 12, 11, 9]},
    )
    return root


def test_graenaland_start_positions_by_hand(tmp_path: Path) -> None:
    runs = open_runs(_graenaland_runs(tmp_path))
    table = graenaland.start_positions(runs)
    assert set(table["variant"]) == {"defaults", "three_player_adjustments=off"}  # the draft is left out
    row = table.filter((pl.col("start_position") == 1) & (pl.col("variant") == "defaults")).row(0, named=True)
    assert (row["games"], row["wins"]) == (4, 2.0)
    assert row["mean_rounds"] == pytest.approx(10.5)
    assert row["rounds_won"] == pytest.approx(9.5)  # position 1 won games 0 and 3 (10 and 9 rounds)
    assert row["goals_met"] == pytest.approx(9 / 4)
    assert row["goals_met_low"] < 9 / 4 < row["goals_met_high"]
    assert row["rate_goal_army"] == pytest.approx(3 / 4)
    # territories by name from the packaged three-player layout: U1 U2 T35 on the coast, U3 U4 inland
    assert row["start_territories"] == "U1 (coastal plains) + U3 (hills)"
    third = table.filter((pl.col("start_position") == 3) & (pl.col("variant") == "defaults"))
    assert third["start_territories"].to_list() == ["T35 (coastal hills) + U4 (mountains)"]
    rates = graenaland.goal_rates(runs, "start_position", by=("variant",))
    first = rates.filter((pl.col("variant") == "defaults") & (pl.col("start_position") == 1))
    assert first["short"].to_list() == list(graenaland.GOAL_SHORT.values())
    assert first["rate"].to_list() == pytest.approx([0.75] * 5)


def test_graenaland_draft_by_hand(tmp_path: Path) -> None:
    parts = graenaland.draft(open_runs(_graenaland_runs(tmp_path)))
    assert parts["order"]["wins"].to_list() == [2.0, 1.0, 1.0]  # seats 0, 1, 2 pick 1st, 2nd, 3rd
    tests = parts["order_tests"].row(0, named=True)
    assert tests["position"] == "draft_order" and tests["decided"] == 4
    territory = parts["territory"]
    # winners' first villages: game 0 seat 0 -> 0, game 1 seat 1 -> 1, game 2 seat 2 -> 1, game 3 seat 0 -> 1
    assert territory["chosen_territory"].to_list() == [0, 1, 2]
    assert territory["picks"].to_list() == [4, 4, 4]
    assert territory["wins"].to_list() == [1.0, 3.0, 0.0]
    assert territory["first_picks"].to_list() == [2, 1, 1]  # pick 1 chose 0, 2, 0, 1
    assert territory["pick_share"].to_list() == pytest.approx([1 / 3] * 3)
    assert territory["territory_name"].to_list() == [
        "U1 (coastal plains)",
        "U2 (coastal forest)",
        "T35 (coastal hills)",
    ]
    test = parts["territory_tests"].row(0, named=True)
    # every territory is one seat of each game: one winner per game, expected 4/3 wins each:
    # chi2 = (1/9 + 25/9 + 16/9) / (4/3) = 3.5; the 2x3 table of wins 1, 3, 0 and non-wins 3, 1, 4
    # (42/12 + 42/24 = 5.25) is k/(k - 1) = 3/2 times it
    assert test["chi2"] == pytest.approx(3.5)
    assert test["dof"] == 2
    assert stats.rates_independence_test([1, 3, 0], [4, 4, 4])[0] == pytest.approx(3.5 * 3 / 2)


def test_graenaland_three_player_by_hand(tmp_path: Path) -> None:
    runs = open_runs(_graenaland_runs(tmp_path))
    parts = graenaland.three_player(runs)
    assert {"side_by_side", "lengths", "compare", "votes", "goals"} <= set(parts)
    side = parts["side_by_side"]
    assert side["population"].to_list() == ["3p adjusted", "3p unadjusted"]  # the draft run is left out
    assert side["truncated_rate"].to_list() == [0.0, 0.0]
    assert side["hero_share"].to_list() == pytest.approx([7 / 24, 1 / 7])  # mean of 1/4, 1/3, 1/4, 1/3
    assert side["rounds"].to_list() == pytest.approx([10.5, 10.5])
    comp = {r["metric"]: r for r in parts["compare"].iter_rows(named=True)}
    assert {r["base"] for r in comp.values()} == {"off"} and {r["value"] for r in comp.values()} == {"on"}
    assert comp["balance_gap"]["diff"] == pytest.approx(0.0)
    assert comp["balance_gap"]["p_value"] == pytest.approx(1.0)  # the same games: every shuffle ties
    assert comp["game_length (rounds)"]["diff"] == pytest.approx(0.0)
    assert comp["hero_vote_share"]["diff"] == pytest.approx(7 / 24 - 1 / 7)
    army = comp["winners_goal_army"]
    assert (army["base_estimate"], army["estimate"]) == pytest.approx((0.0, 0.75))
    assert army["effect"] == pytest.approx(2 * math.asin(math.sqrt(0.75)))
    assert army["diff_low"] < 0.75 < army["diff_high"]
    assert comp["winners_goal_settlements"]["diff"] == pytest.approx(0.0)
    goals = parts["goals"].filter(pl.col("population") == "3p unadjusted")
    assert dict(zip(goals["short"], goals["rate"], strict=True))["army"] == 0.0
    assert parts["votes"]["mean"].to_list() == pytest.approx([7 / 24, 1 / 7])


def test_graenaland_populations() -> None:
    from analysis.data.runs import Run

    def run(players: int, value: str | None) -> Run:
        rules = {} if value is None else {"three_player_adjustments": value}
        return Run("r", Path("."), {"config": {"game": "graenaland", "players": players, "rules": rules}})

    assert graenaland.population(run(3, "auto")) == "3p adjusted"
    assert graenaland.population(run(3, None)) == "3p adjusted"
    assert graenaland.population(run(3, "off")) == "3p unadjusted"
    assert graenaland.population(run(4, "auto")) == "4p"
    assert graenaland.population(run(5, "on")) == "5p adjusted"


def test_identical_runs_are_read_once(tmp_path: Path) -> None:
    import shutil

    first = write_results(tmp_path / "a" / "run", [[2, 1], [1, 2]], ["A", "B"])
    shutil.copytree(first, tmp_path / "b" / "run")
    runs = open_runs([tmp_path / "a", tmp_path / "b"])
    assert len(runs) == 1 and runs.duplicates == [("b/run", "a/run")]
    assert balance.seat_balance(runs)["games"].to_list() == [2, 2]
    other = write_results(tmp_path / "c" / "run", [[2, 1], [2, 1]], ["A", "B"])  # other games: kept
    assert len(open_runs([first, other])) == 2


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
    from sim.plugin import GamePlugin

    toy = GamePlugin(name="graenaland", title="Toy", description="a toy game", game="tests.toy_game:GAME")
    monkeypatch.setitem(sim.games.GAMES, "graenaland", toy)
    assert graenaland.unavailable() is None


def test_open_runs_errors(tmp_path: Path) -> None:
    with pytest.raises(SkaldError, match="not found"):
        open_runs(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SkaldError, match="no runs in"):
        open_runs(tmp_path / "empty")

"""analysis.data.records: scanning parts and win rates with Wilson intervals."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis.data.records import scan, wilson
from analysis.questions.win_rates import seat_win_rates, strategy_win_rates
from sim.errors import SkaldError
from sim.game import Result
from sim.tables import GameRows
from tests.toy_game import toy_run


def test_scan_and_win_rates(tmp_path: Path, registered: str) -> None:
    summary = toy_run(tmp_path / "r", games=12, seats="exhaustive", players=3)
    assert scan(tmp_path / "r", "games").collect().height == 12
    by_seat = seat_win_rates(tmp_path / "r")
    assert by_seat["seat"].to_list() == [0, 1, 2]
    assert by_seat["games"].to_list() == [12, 12, 12]
    assert by_seat["wins"].sum() == pytest.approx(12.0)
    by_strategy = strategy_win_rates(tmp_path / "r")
    assert set(by_strategy["strategy"]) == {row["strategy"] for row in summary.strategies}
    rates = {row["strategy"]: row["win_rate"] for row in summary.strategies}
    for row in by_strategy.iter_rows(named=True):
        assert row["win_rate"] == pytest.approx(rates[row["strategy"]])
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]


def test_wilson_matches_the_formula() -> None:
    frame = pl.DataFrame({"p": [0.5, 0.0, 0.9], "n": [100.0, 10.0, 50.0]})
    low, high = wilson(pl.col("p"), pl.col("n"))
    bounds = frame.select(low.alias("lo"), high.alias("hi"))
    assert bounds["lo"][0] == pytest.approx(0.4038, abs=1e-4)
    assert bounds["hi"][0] == pytest.approx(0.5962, abs=1e-4)
    assert bounds["lo"][1] == pytest.approx(0.0, abs=1e-12)
    assert bounds["hi"][1] == pytest.approx(0.2775, abs=1e-4)


def test_missing_records_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SkaldError, match="no seats records"):
        scan(tmp_path, "seats")
    with pytest.raises(SkaldError, match="unknown table"):
        scan(tmp_path, "moves")


def _add(rows: GameRows, parts: list[dict[str, float]]) -> None:
    rows.add(
        game_id=0, base_game=0, game_seed=1, rules_hash="h", decisions=3, truncated=False,
        result=Result(scores=[2.0, 1.0], ranks=[1, 2], winners=[0], parts=parts),
        strategy_index=[0, 1], strategy_text=["a", "b"],
    )  # fmt: skip


def test_game_rows_refuse_missing_or_unknown_score_parts() -> None:
    """Refuse bad score parts: GameRows.add refuses a missing or unknown score part instead of writing NaN
    or dropping it."""
    rows = GameRows(["tiles", "items"])
    _add(rows, [{"tiles": 1.0, "items": 1.0}, {"tiles": 0.0, "items": 1.0}])
    lack = r"seat 1's score parts lack items \(the game's part_fields: tiles, items\)"
    with pytest.raises(ValueError, match=lack):
        _add(rows, [{"tiles": 1.0, "items": 1.0}, {"tiles": 0.0}])
    with pytest.raises(ValueError, match="seat 0's score parts hold bonus"):
        _add(rows, [{"tiles": 1.0, "items": 1.0, "bonus": 2.0}, {"tiles": 0.0, "items": 1.0}])
    with pytest.raises(ValueError, match="score parts for 1 seats, not 2"):
        _add(rows, [{"tiles": 1.0, "items": 1.0}])
    assert rows.seats["tiles"] == [1.0, 0.0], "a refused game writes nothing of its parts"

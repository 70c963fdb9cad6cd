"""A seeded Mainland game whose full turn log is stored, and the greedy player's bar.

Determinism (jobs, seeds, global random state, snapshots) is checked for every game in
tests/sim/test_every_game.py.

Regenerate the golden file after an intended rule change with
``SKALD_REGEN_GOLDEN=1 pytest tests/sim/games/mainland/test_mainland_golden.py`` and review the diff.
"""

from __future__ import annotations

import json

import polars as pl

from sim.runner import RunConfig, run
from tests.golden_kit import assert_matches_golden, golden_lines

NAME = "mainland-4p-seed2026.jsonl"
STRATEGIES = ["greedy", "builder", "raider", "random"]


def _golden_lines() -> list[str]:
    return golden_lines("mainland", 4, {}, STRATEGIES)


def test_golden_game_turn_log_is_unchanged():
    assert_matches_golden(_golden_lines(), NAME)


def test_golden_game_plays_every_kind_of_turn():
    kinds = {json.loads(line).get("kind") for line in _golden_lines()}
    assert {"camp", "keep", "replace", "place", "pass"} <= kinds


def test_greedy_beats_random_clearly(tmp_path):
    """The bar for a useful greedy player: it wins clearly against random."""
    out = tmp_path / "gr"
    run(RunConfig(game="mainland", players=2, games=40, strategies=["greedy", "random"], jobs=1, seed=3,
                  out=out, progress=False))
    seats = pl.read_parquet(out / "seats" / "*.parquet")
    rate = seats.filter(pl.col("strategy") == "greedy")["win_share"].mean()
    assert rate > 0.85

"""Seeded Knarr games whose full turn logs are stored, and the strategies' bar.

Determinism (jobs, seeds, global random state, snapshots) is checked for every game in
tests/sim/test_every_game.py.

Regenerate the golden files after an intended rule change with
``SKALD_REGEN_GOLDEN=1 pytest tests/sim/games/knarr/test_knarr_golden.py`` and review the diff.
"""

from __future__ import annotations

import json

import polars as pl
import pytest

from sim.runner import RunConfig, run
from tests.golden_kit import assert_matches_golden, golden_lines

CASES = {
    "knarr-3p-seed2026.jsonl": (3, {}, ["greedy", "collector", "trader"]),
    "knarr-skali-4p-seed2026.jsonl": (4, {"skali": True}, ["greedy", "hoarder", "architect", "random"]),
    "knarr-skali-2p-seed2026.jsonl": (2, {"skali": True, "artifacts": True}, ["greedy", "random"]),
}


def _golden_lines(n, rules, strategies) -> list[str]:
    return golden_lines("knarr", n, rules, strategies)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_game_turn_log_is_unchanged(name):
    assert_matches_golden(_golden_lines(*CASES[name]), name)


def test_golden_games_play_the_main_kinds_of_decision():
    kinds = set()
    for case in CASES.values():
        kinds |= {json.loads(line).get("kind") for line in _golden_lines(*case)}
    assert {"recruit", "explore", "trade", "end", "develop"} <= kinds


def test_greedy_beats_random_clearly(tmp_path):
    out = tmp_path / "gr"
    run(
        RunConfig(
            game="knarr",
            players=2,
            games=30,
            strategies=["greedy", "random"],
            jobs=1,
            seed=3,
            out=out,
            progress=False,
        )
    )
    seats = pl.read_parquet(out / "seats" / "*.parquet")
    assert seats.filter(pl.col("strategy") == "greedy")["win_share"].mean() > 0.85

"""Seeded Greenland games whose full turn logs are stored, and the strategies' bar.

Determinism (jobs, seeds, global random state, snapshots) is checked for every game in
tests/sim/test_every_game.py.

Regenerate the golden files after an intended rule change with
``SKALD_REGEN_GOLDEN=1 pytest tests/sim/games/greenland/test_greenland_golden.py`` and review the diff.
"""

from __future__ import annotations

import json

import polars as pl
import pytest

from sim.games.greenland.game import GAME
from sim.runner import RunConfig, run
from tests.golden_kit import assert_matches_golden, golden_lines

CASES = {
    "greenland-2p-seed2026.jsonl": (2, {}, ["greedy", "elder"]),
    "greenland-3p-seed2026.jsonl": (3, {}, ["greedy", "spreader", "random"]),
    "greenland-4p-seed2026.jsonl": (4, {}, ["greedy", "spreader", "elder", "random"]),
}


def _golden_lines(n, rules, strategies) -> list[str]:
    return golden_lines("greenland", n, rules, strategies)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_game_turn_log_is_unchanged(name):
    assert_matches_golden(_golden_lines(*CASES[name]), name)


def test_golden_games_play_the_main_kinds_of_decision_and_log_dice():
    kinds = set()
    rolls = 0
    for case in CASES.values():
        for line in _golden_lines(*case)[:-1]:
            row = json.loads(line)
            kinds.add(row["kind"])
            if row["kind"] == "roll":
                rolls += 1
                fields = dict(zip(GAME.action_fields, row["fields"], strict=True))
                assert fields["dice"] == len(str(fields["roll"])) or fields["dice"] == 0
    assert {"hunt", "alpha", "promote", "roll", "done", "elder", "breed"} <= kinds
    assert rolls > 50


def test_scripted_strategies_beat_random_and_outlive_it(tmp_path):
    out = tmp_path / "gr"
    run(
        RunConfig(
            game="greenland",
            players=2,
            games=16,
            strategies=["greedy", "random"],
            jobs=1,
            seed=3,
            out=out,
            progress=False,
        )
    )
    seats = pl.read_parquet(out / "seats" / "*.parquet")
    greedy = seats.filter(pl.col("strategy") == "greedy")
    rand = seats.filter(pl.col("strategy") == "random")
    assert greedy["win_share"].mean() > 0.85
    assert greedy["survived"].mean() > rand["survived"].mean()

"""Seeded Graenaland games (3, 4 and 5 players) whose full turn logs are stored, and determinism.

Regenerate the golden files after an intended rule change with
``SKALD_REGEN_GOLDEN=1 pytest tests/sim/games/graenaland/test_graenaland_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pytest

from sim.games import get_game
from sim.play import play_game
from sim.runner import RunConfig, run
from sim.specs import parse_spec
from sim.tables import TurnLog

GOLDEN = Path(__file__).resolve().parents[3] / "golden"
TABLE = {
    3: (["greedy", "cooperative", "random"], {}),
    4: (["greedy", "rival", "cooperative", "warlord"], {}),
    5: (["greedy", "warlord", "rival", "cooperative", "random"], {"five_player_offer": True}),
}


def _golden_lines(n: int, seed: int = 2026) -> list[str]:
    game = get_game("graenaland")
    names, rules = TABLE[n]
    specs = [parse_spec(s, "graenaland") for s in names]
    log = TurnLog()
    outcome = play_game(game, n, rules, game.load_data(None), seed, specs, game.default_max_decisions, log)
    lines = [
        json.dumps({"turn": t, "seat": s, "kind": k, "fields": list(f), "scores": list(sc)})
        for t, s, k, f, sc in zip(log.turn, log.seat, log.kind, log.fields, log.scores, strict=True)
    ]
    lines.append(json.dumps({"scores": outcome.result.scores, "winners": outcome.result.winners,
                             "ranks": outcome.result.ranks, "truncated": outcome.truncated}))
    return lines


@pytest.mark.parametrize("n", [3, 4, 5])
def test_golden_game_turn_log_is_unchanged(n):
    lines = _golden_lines(n)
    path = GOLDEN / f"graenaland-{n}p-seed2026.jsonl"
    if os.environ.get("SKALD_REGEN_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    stored = path.read_text().splitlines()
    assert len(lines) == len(stored)
    for i, (now, then) in enumerate(zip(lines, stored, strict=True)):
        assert now == then, f"decision {i} differs from the golden log"
    end = json.loads(stored[-1])
    assert not end["truncated"] and len(end["winners"]) == 1


def test_golden_games_play_every_phase():
    kinds = set()
    for n in (3, 4, 5):
        kinds |= {json.loads(line).get("kind") for line in _golden_lines(n)}
    # With the calibrated layouts nobody passes on a proposal in the three golden games; the next seeds of
    # the three-player table do (seed 2028), so the "no_proposal" record stays covered.
    kinds |= {json.loads(line).get("kind") for line in _golden_lines(3, seed=2028)}
    wanted = {"move", "stay", "propose", "no_proposal", "vote", "supply", "village", "pay", "army", "end"}
    assert wanted <= kinds


def _parts(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


def test_jobs_1_and_2_write_byte_identical_records(tmp_path):
    """Determinism: a run is a function of its seed and configuration, not of --jobs."""
    common = dict(game="graenaland", players=4, games=8, seed=11, chunk_size=2, progress=False,
                  strategies=["greedy", "random", "rival", "cooperative"])
    run(RunConfig(**common, jobs=1, out=tmp_path / "a"))
    run(RunConfig(**common, jobs=2, out=tmp_path / "b"))
    a, b = _parts(tmp_path / "a"), _parts(tmp_path / "b")
    assert len(a) == 12 and a == b  # 8 games (two rotations) in 4 chunks x 3 tables


def test_same_seed_twice_same_game_other_seed_differs():
    game = get_game("graenaland")
    specs = [parse_spec("greedy", "graenaland")] * 4
    data = game.load_data(None)

    def final(seed: int):
        out = play_game(game, 4, {}, data, seed, specs, game.default_max_decisions)
        return out.decisions, out.result.scores, out.result.winners

    assert final(5) == final(5)
    assert any(final(5) != final(s) for s in (6, 7, 8))


def test_greedy_beats_random_clearly(tmp_path):
    out = tmp_path / "gr"
    run(RunConfig(game="graenaland", players=4, games=12, strategies=["greedy", "random", "greedy", "random"],
                  jobs=1, seed=3, out=out, progress=False))
    seats = pl.read_parquet(out / "seats" / "*.parquet")
    rate = seats.filter(pl.col("strategy") == "greedy")["win_share"].mean()
    assert rate > 0.4  # parity is 0.25

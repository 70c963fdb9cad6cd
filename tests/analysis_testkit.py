"""Tiny synthetic result folders for the analysis tests: records written by hand, so every
number the analysis reports can be checked against a hand computation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.game import ranks_from_scores
from sim.tables import games_schema, seats_schema, turns_schema


def write_results(
    folder: Path,
    scores: Sequence[Sequence[float]],
    strategies: Sequence[Sequence[str]] | Sequence[str],
    *,
    game: str = "mainland",
    parts: dict[str, Sequence[Sequence[float]]] | None = None,
    curves: dict[int, Sequence[Sequence[float]]] | None = None,
    truncated: Sequence[int] = (),
    rules: dict[str, Any] | None = None,
    extra_games: dict[str, Sequence[Any]] | None = None,
) -> Path:
    """A results folder holding one game per row of ``scores`` (the seats' final scores).

    ``strategies`` is one list for every game or one list per game; ``parts`` maps a per-seat
    part column to one row per game; ``curves`` maps a game to its ``scores`` after each decision
    (turns table; games without a curve get one decision with the final scores); games in
    ``truncated`` have no winner.
    """
    players = len(scores[0])
    per_game = (
        [list(strategies)] * len(scores) if isinstance(strategies[0], str) else [list(s) for s in strategies]
    )
    part_fields = list(parts or {})
    games: dict[str, list] = {k: [] for k in games_schema().names}
    seats: dict[str, list] = {k: [] for k in seats_schema(part_fields).names}
    turns: dict[str, list] = {k: [] for k in turns_schema(()).names}
    for g, row in enumerate(scores):
        cut = g in truncated
        ranks = ranks_from_scores(row)
        winners = [] if cut else [s for s, r in enumerate(ranks) if r == 1]
        curve = (curves or {}).get(g, [row])
        games["game_id"].append(g)
        games["base_game"].append(g)
        games["game_seed"].append(1000 + g)
        games["rules_hash"].append("synthetic")
        games["players"].append(players)
        games["decisions"].append(len(curve))
        games["truncated"].append(cut)
        games["winner"].append(winners[0] if len(winners) == 1 else None)
        games["winners"].append(winners)
        games["winner_strategy"].append(per_game[g][winners[0]] if len(winners) == 1 else None)
        for seat in range(players):
            seats["game_id"].append(g)
            seats["seat"].append(seat)
            seats["strategy"].append(per_game[g][seat])
            seats["strategy_index"].append(seat)
            seats["score"].append(float(row[seat]))
            seats["rank"].append(ranks[seat])
            seats["won"].append(seat in winners)
            seats["win_share"].append(1.0 / len(winners) if seat in winners else 0.0)
            for name in part_fields:
                seats[name].append(float(parts[name][g][seat]))  # type: ignore[index]
        for t, after in enumerate(curve):
            turns["game_id"].append(g)
            turns["turn"].append(t)
            turns["seat"].append(t % players)
            turns["kind"].append("move")
            turns["score"].append(float(after[t % players]))
            turns["scores"].append([float(x) for x in after])
    for table, data, schema in (
        ("games", games, games_schema()),
        ("seats", seats, seats_schema(part_fields)),
        ("turns", turns, turns_schema(())),
    ):
        rows = max(len(v) for v in data.values())
        for name in schema.names:  # columns this kit does not know (e.g. a game's error columns): defaults
            if not data[name]:
                data[name] = [False if schema.field(name).type == pa.bool_() else None] * rows
        (folder / table).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(data, schema=schema), folder / table / "part-00000.parquet")
    if extra_games:
        frame = pq.read_table(folder / "games" / "part-00000.parquet")
        for name, values in extra_games.items():
            frame = frame.append_column(name, pa.array(values))
        pq.write_table(frame, folder / "games" / "part-00000.parquet")
    manifest = {
        "format": 1,
        "config": {
            "game": game,
            "players": players,
            "games": len(scores),
            "strategies": per_game[0],
            "seats": "fixed",
            "seed": 7,
            "rules": rules or {},
            "rules_hash": "synthetic",
            "data": {"path": None, "file": None, "sha1": "0" * 40},
        },
        "tables": {"action_fields": [], "part_fields": part_fields},
        "versions": {"skald": "test"},
        "totals": {"games": len(scores), "truncated": len(truncated)},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def as_rotation(folder: Path, block: int) -> Path:
    """Turn a testkit folder into a ``--seats rotate`` run: games 0..block-1 share base_game 0, and so on."""
    path = folder / "games" / "part-00000.parquet"
    table = pq.read_table(path)
    base = pa.array([g // block for g in table["game_id"].to_pylist()], pa.int64())
    pq.write_table(table.set_column(table.schema.get_field_index("base_game"), "base_game", base), path)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["config"]["seats"] = "rotate"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder

"""The three record tables (games, seats, turns): column buffers, schemas and Parquet parts.

Rows are gathered column-wise in plain lists while games run (cheap appends, no per-row
dicts) and turned into Arrow tables with explicit schemas once per chunk.  Parts are
written deterministically (no timestamps; same rows -> same bytes) to a temporary name
in the target folder and renamed into place.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.game import Result

TABLES: tuple[str, ...] = ("games", "seats", "turns")
COMPRESSION = "zstd"


def games_schema() -> pa.Schema:
    """One row per game."""
    return pa.schema(
        [
            ("game_id", pa.int64()),
            ("base_game", pa.int64()),
            ("game_seed", pa.uint64()),
            ("rules_hash", pa.string()),
            ("players", pa.int64()),
            ("decisions", pa.int64()),
            ("truncated", pa.bool_()),
            ("winner", pa.int64()),
            ("winners", pa.list_(pa.int64())),
            ("winner_strategy", pa.string()),
        ]
    )


def seats_schema(part_fields: Sequence[str]) -> pa.Schema:
    """One row per game and seat; then one float64 column per ``Game.part_fields`` name."""
    return pa.schema(
        [
            ("game_id", pa.int64()),
            ("seat", pa.int64()),
            ("strategy", pa.string()),
            ("strategy_index", pa.int64()),
            ("score", pa.float64()),
            ("rank", pa.int64()),
            ("won", pa.bool_()),
            ("win_share", pa.float64()),
            *[(name, pa.float64()) for name in part_fields],
        ]
    )


def turns_schema(action_fields: Sequence[str]) -> pa.Schema:
    """One row per decision; one int64 column per ``Game.action_fields`` name after ``kind``."""
    return pa.schema(
        [
            ("game_id", pa.int64()),
            ("turn", pa.int64()),
            ("seat", pa.int64()),
            ("kind", pa.string()),
            *[(name, pa.int64()) for name in action_fields],
            ("score", pa.float64()),
            ("scores", pa.list_(pa.float64())),
        ]
    )


class TurnLog:
    """Column buffers for the ``turns`` table, appended to by ``runner.play_game``.

    ``fields`` holds each decision's action-field tuple and ``scores`` the tuple of every
    seat's score after the decision (shared by the movers of one decision point).
    """

    __slots__ = ("game_id", "turn", "seat", "kind", "fields", "scores")

    def __init__(self) -> None:
        self.game_id: list[int] = []
        self.turn: list[int] = []
        self.seat: list[int] = []
        self.kind: list[str] = []
        self.fields: list[tuple[int, ...]] = []
        self.scores: list[tuple[float, ...]] = []

    def __len__(self) -> int:
        return len(self.turn)

    def tag(self, game_id: int) -> None:
        """Mark the rows added since the last call as belonging to ``game_id``."""
        self.game_id.extend([game_id] * (len(self.turn) - len(self.game_id)))

    def table(self, action_fields: Sequence[str], n_players: int) -> pa.Table:
        """The buffered rows as an Arrow table with ``turns_schema(action_fields)``."""
        rows = len(self.turn)
        n_fields = len(action_fields)
        if any(len(f) != n_fields for f in self.fields):
            bad = next(f for f in self.fields if len(f) != n_fields)
            raise ValueError(
                f"Game.record returned {len(bad)} action fields, expected {n_fields} {action_fields}"
            )
        if any(len(s) != n_players for s in self.scores):
            raise ValueError(f"Game.scores returned a list whose length is not the player count {n_players}")
        seat = np.asarray(self.seat, dtype=np.int64)
        flat = np.fromiter(chain.from_iterable(self.scores), dtype=np.float64, count=rows * n_players)
        own = flat.reshape(rows, n_players)[np.arange(rows), seat] if rows else np.zeros(0)
        field_cols = list(zip(*self.fields, strict=True)) if rows else [() for _ in action_fields]
        offsets = pa.array(np.arange(0, rows * n_players + 1, n_players, dtype=np.int32))
        columns: list[Any] = [
            pa.array(np.asarray(self.game_id, dtype=np.int64)),
            pa.array(np.asarray(self.turn, dtype=np.int64)),
            pa.array(seat),
            pa.array(self.kind, type=pa.string()),
            *[pa.array(np.asarray(col, dtype=np.int64)) for col in field_cols],
            pa.array(own, type=pa.float64()),
            pa.ListArray.from_arrays(offsets, pa.array(flat, type=pa.float64())),
        ]
        return pa.Table.from_arrays(columns, schema=turns_schema(action_fields))


class GameRows:
    """Column buffers for the ``games`` and ``seats`` tables of one chunk."""

    def __init__(self, part_fields: Sequence[str]) -> None:
        self.part_fields = tuple(part_fields)
        self.games: dict[str, list[Any]] = {name: [] for name in games_schema().names}
        self.seats: dict[str, list[Any]] = {name: [] for name in seats_schema(self.part_fields).names}

    def add(
        self,
        *,
        game_id: int,
        base_game: int,
        game_seed: int,
        rules_hash: str,
        decisions: int,
        truncated: bool,
        result: Result,
        strategy_index: Sequence[int],
        strategy_text: Sequence[str],
    ) -> list[float]:
        """Add one finished game (its seat order given per seat); return each seat's win share."""
        n = len(strategy_index)
        winners = [] if truncated else sorted(int(w) for w in result.winners)
        share = 1.0 / len(winners) if winners else 0.0
        shares = [share if seat in winners else 0.0 for seat in range(n)]
        sole = winners[0] if len(winners) == 1 else None
        g = self.games
        g["game_id"].append(game_id)
        g["base_game"].append(base_game)
        g["game_seed"].append(game_seed)
        g["rules_hash"].append(rules_hash)
        g["players"].append(n)
        g["decisions"].append(decisions)
        g["truncated"].append(truncated)
        g["winner"].append(sole)
        g["winners"].append(winners)
        g["winner_strategy"].append(None if sole is None else strategy_text[sole])
        s = self.seats
        parts = result.parts or [{} for _ in range(n)]
        for seat in range(n):
            s["game_id"].append(game_id)
            s["seat"].append(seat)
            s["strategy"].append(strategy_text[seat])
            s["strategy_index"].append(strategy_index[seat])
            s["score"].append(float(result.scores[seat]))
            s["rank"].append(int(result.ranks[seat]))
            s["won"].append(shares[seat] > 0.0)
            s["win_share"].append(shares[seat])
            for name in self.part_fields:
                s[name].append(float(parts[seat].get(name, float("nan"))))
        return shares

    def games_table(self) -> pa.Table:
        """The ``games`` rows as an Arrow table."""
        return pa.Table.from_pydict(self.games, schema=games_schema())

    def seats_table(self) -> pa.Table:
        """The ``seats`` rows as an Arrow table."""
        return pa.Table.from_pydict(self.seats, schema=seats_schema(self.part_fields))


def part_name(chunk: int) -> str:
    """File name of a chunk's part: ``part-00007.parquet``."""
    return f"part-{chunk:05d}.parquet"


def write_part(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` atomically (temporary name in the same folder, then rename)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        pq.write_table(table, tmp, compression=COMPRESSION)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise

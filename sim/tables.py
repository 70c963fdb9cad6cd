"""The three record tables (games, seats, turns): column buffers, schemas and Parquet parts.

Rows are gathered column-wise in plain lists while games run (cheap appends, no per-row
dicts) and turned into Arrow tables with explicit schemas once per chunk.  Parts are
written deterministically (no timestamps; same rows -> same bytes) to a temporary name
in the target folder and renamed into place.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import SkaldError
from sim.game import Result

TABLES: tuple[str, ...] = ("games", "seats", "turns")
COMPRESSION = "zstd"
#: the version of the tables' layout, in every part's key-value metadata (``skald.schema``);
#: 2 added the ``run`` and ``game`` columns and the metadata itself
SCHEMA_VERSION = 2

#: the first two columns of every table: which run (``RunPlan.run_id``: a hash of the configuration and
#: seed, so copies of one run share it) and which game; constant within a part, so dictionary-encoded
KEY_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (("run", pa.string()), ("game", pa.string()))

#: the games table's error columns: null (and ``errored`` false) for every game that did not error
ERROR_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("errored", pa.bool_()),
    ("error", pa.string()),
    ("error_seat", pa.int64()),
    ("error_turn", pa.int64()),
    ("error_strategy", pa.string()),
)


@dataclass(frozen=True)
class PartKey:
    """What every part of a run says about itself: the ``run`` and ``game`` columns and the part's
    key-value metadata (``skald.schema``, ``skald.table``, ``skald.run``, ``skald.game``,
    ``skald.rules_hash``, ``skald.version``)."""

    run: str
    game: str
    rules_hash: str

    def columns(self, rows: int) -> list[pa.Array]:
        """The key columns of a part of ``rows`` rows."""
        return [pa.repeat(pa.scalar(value, pa.string()), rows) for value in (self.run, self.game)]

    def metadata(self, table: str) -> dict[str, str]:
        """The key-value metadata of a ``table`` part."""
        import sim

        return {
            "skald.schema": str(SCHEMA_VERSION),
            "skald.table": table,
            "skald.run": self.run,
            "skald.game": self.game,
            "skald.rules_hash": self.rules_hash,
            "skald.version": sim.__version__,
        }

    def table(self, name: str, schema: pa.Schema, columns: list[pa.Array]) -> pa.Table:
        """A ``name`` part: the key columns, then ``columns``, with ``schema`` and the metadata."""
        rows = len(columns[0]) if columns else 0
        return pa.Table.from_arrays(
            [*self.columns(rows), *columns], schema=schema.with_metadata(self.metadata(name))
        )


_KEY_NAMES = frozenset(name for name, _ in KEY_COLUMNS)


def games_schema() -> pa.Schema:
    """One row per game."""
    return pa.schema(
        [
            *KEY_COLUMNS,
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
            *ERROR_COLUMNS,
        ]
    )


def seats_schema(part_fields: Sequence[str]) -> pa.Schema:
    """One row per game and seat; then one float64 column per ``Game.part_fields`` name."""
    return pa.schema(
        [
            *KEY_COLUMNS,
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
            *KEY_COLUMNS,
            ("game_id", pa.int64()),
            ("turn", pa.int64()),
            ("seat", pa.int64()),
            ("kind", pa.string()),
            *[(name, pa.int64()) for name in action_fields],
            ("score", pa.float64()),
            ("scores", pa.list_(pa.float64())),
        ]
    )


#: what every fixed column of the three tables holds, by table (the game's action and score-part columns
#: aside): ``skald records`` and the docs read them here, beside the schemas; a column added to a schema
#: needs its line
COLUMN_MEANINGS: dict[str, dict[str, str]] = {
    "games": {
        "run": "the run: a hash of its configuration and seed (copies of one run share it)",
        "game": "the game's name",
        "game_id": "the game's index in the run (0, 1, ...), unique within the run",
        "base_game": "the index its game seed derives from (shared by the seatings of one deal)",
        "game_seed": "the game's seed: `skald replay` plays the game again from it",
        "rules_hash": "sha1 of the game's name, every rule value and the data file's hash",
        "players": "players in the game",
        "decisions": "decisions made (an errored game: those before the failing one)",
        "truncated": "the game did not reach its end (the decision cap, or an error)",
        "winner": "the sole winner's seat; null on a tie and in a truncated game",
        "winners": "the seats sharing the win; empty in a truncated game",
        "winner_strategy": "the sole winner's strategy spec; else null",
        "errored": "a strategy raised or chose illegally (--on-error continue)",
        "error": "the error message (strategy, seat, game seed, turn); null if none",
        "error_seat": "the seat whose strategy failed; null if none",
        "error_turn": "the decision (turn) that failed; null if none",
        "error_strategy": "the failing strategy's spec; null if none",
    },
    "seats": {
        "run": "the run (as in games)",
        "game": "the game's name",
        "game_id": "the game (games.game_id)",
        "seat": "the seat (0 = first player)",
        "strategy": "the strategy spec playing the seat",
        "strategy_index": "the strategy's position in --strategies",
        "score": "the seat's final score",
        "rank": "1 = best; tied seats share a rank",
        "won": "the seat has a share of the win",
        "win_share": "1/k for each of k tied winners; 0 otherwise and in truncated games",
    },
    "turns": {
        "run": "the run (as in games)",
        "game": "the game's name",
        "game_id": "the game (games.game_id)",
        "turn": "the decision's index within its game (0, 1, ...)",
        "seat": "the seat that decided",
        "kind": "the action kind: which action columns the row fills (the others are -1)",
        "score": "the deciding seat's score after the decision",
        "scores": "every seat's score after the decision, by seat",
    },
}


class TurnLog:
    """Column buffers for the ``turns`` table, appended to by ``sim.play.play_game``.

    Action fields and scores are kept flat (``flat_fields``: each decision's action fields
    one after the other; ``flat_scores``: every seat's score after each decision), so a
    chunk's buffers hold plain ints and floats rather than one tuple per row: cheaper to
    append and nothing for the garbage collector to scan.  ``fields`` and ``scores`` give
    them back per row.  A game's rows are its decisions in order, one run per game, so the
    game ids are kept per game (``games``, with ``game_rows`` rows each) and ``turn`` (the
    row's place in its game) is not stored but counted.
    """

    __slots__ = ("games", "game_rows", "tagged", "seat", "kind", "flat_fields", "flat_scores")

    def __init__(self) -> None:
        self.games: list[int] = []  # the game id of each tagged run of rows
        self.game_rows: list[int] = []  # the rows in each run
        self.tagged = 0  # rows tagged so far
        self.seat: list[int] = []
        self.kind: list[str] = []
        self.flat_fields: list[int] = []
        self.flat_scores: list[float] = []

    def __len__(self) -> int:
        return len(self.seat)

    @property
    def turn(self) -> list[int]:
        """Each row's decision number within its game (0, 1, ...; the rows not yet tagged are the
        game being played)."""
        out: list[int] = []
        for k in self.game_rows:
            out.extend(range(k))
        out.extend(range(len(self.seat) - len(out)))
        return out

    @staticmethod
    def _rows(flat: list[Any], rows: int) -> list[tuple[Any, ...]]:
        if not rows:
            return []
        width = len(flat) // rows
        return [tuple(flat[i * width : (i + 1) * width]) for i in range(rows)]

    @property
    def fields(self) -> list[tuple[int, ...]]:
        """Each decision's action fields (a tuple per row)."""
        return self._rows(self.flat_fields, len(self.kind))

    @property
    def scores(self) -> list[tuple[float, ...]]:
        """Every seat's score after each decision (a tuple per row)."""
        return self._rows(self.flat_scores, len(self.seat))

    def tag(self, game_id: int) -> None:
        """Mark the rows added since the last call as belonging to ``game_id`` (a game with no rows
        adds none)."""
        rows = len(self.seat) - self.tagged
        if rows:
            self.games.append(game_id)
            self.game_rows.append(rows)
            self.tagged += rows

    def trim(self, n_fields: int, n_players: int) -> None:
        """Drop what a decision point left half-logged (its choices recorded, the game failed before
        its scores): keep only whole rows."""
        rows = len(self.flat_scores) // n_players  # scores come last: a row with them is whole
        del self.seat[rows:]
        del self.kind[rows:]
        del self.flat_fields[rows * n_fields :]
        del self.flat_scores[rows * n_players :]

    def table(self, action_fields: Sequence[str], n_players: int, key: PartKey) -> pa.Table:
        """The buffered rows as an Arrow table with ``turns_schema(action_fields)``."""
        rows = len(self.seat)
        n_fields = len(action_fields)
        if len(self.kind) != rows or len(self.flat_fields) != rows * n_fields:
            raise ValueError(
                f"Game.record returned {len(self.flat_fields)} action fields for {len(self.kind)} decisions,"
                f" expected {n_fields} {tuple(action_fields)} each"
            )
        if len(self.flat_scores) != rows * n_players:
            raise ValueError(f"Game.scores returned a list whose length is not the player count {n_players}")
        seat = np.fromiter(self.seat, dtype=np.int64, count=rows)
        flat = np.fromiter(self.flat_scores, dtype=np.float64, count=rows * n_players)
        own = flat.reshape(rows, n_players)[np.arange(rows), seat] if rows else np.zeros(0)
        # one contiguous row per action field (the transposed copy), so each column converts without a copy
        flat_fields = np.fromiter(self.flat_fields, dtype=np.int64, count=rows * n_fields)
        fields = flat_fields.reshape(rows, n_fields).T.copy()
        offsets = pa.array(np.arange(0, rows * n_players + 1, n_players, dtype=np.int32))
        runs = np.asarray(self.game_rows, dtype=np.int64)
        tagged = int(runs.sum())
        if tagged != rows:
            raise ValueError(f"{rows - tagged} turn rows were never tagged with their game")
        game_id = np.repeat(np.asarray(self.games, dtype=np.int64), runs)
        starts = np.cumsum(runs) - runs  # each run's first row
        turn = np.arange(rows, dtype=np.int64) - np.repeat(starts, runs)
        columns: list[Any] = [
            pa.array(game_id),
            pa.array(turn),
            pa.array(seat),
            pa.array(self.kind, type=pa.string()),
            *[pa.array(fields[j]) for j in range(n_fields)],
            pa.array(own, type=pa.float64()),
            pa.ListArray.from_arrays(offsets, pa.array(flat, type=pa.float64())),
        ]
        return key.table("turns", turns_schema(action_fields), columns)


class GameRows:
    """Column buffers for the ``games`` and ``seats`` tables of one chunk."""

    def __init__(self, part_fields: Sequence[str]) -> None:
        self.part_fields = tuple(part_fields)
        self.games: dict[str, list[Any]] = {n: [] for n in games_schema().names if n not in _KEY_NAMES}
        self.seats: dict[str, list[Any]] = {
            n: [] for n in seats_schema(self.part_fields).names if n not in _KEY_NAMES
        }

    def add(
        self,
        *,
        game_id: int,
        base_game: int,
        game_seed: int,
        rules_hash: str,
        decisions: int,
        truncated: bool,
        result: Result | None,
        strategy_index: Sequence[int],
        strategy_text: Sequence[str],
        error: str | None = None,
        error_seat: int | None = None,
        error_turn: int | None = None,
    ) -> list[float]:
        """Add one game (its seat order given per seat); return each seat's win share.

        A game that errored (``error`` given) has no winner, like a truncated one; its seats hold
        the scores when it stopped (``result``; NaN scores and null ranks when None).
        """
        n = len(strategy_index)
        errored = error is not None
        truncated = truncated or errored
        winners = [] if truncated or result is None else sorted(int(w) for w in result.winners)
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
        g["errored"].append(errored)
        g["error"].append(error)
        g["error_seat"].append(error_seat)
        g["error_turn"].append(error_turn)
        g["error_strategy"].append(
            strategy_text[error_seat] if errored and error_seat is not None and 0 <= error_seat < n else None
        )
        s = self.seats
        nan = float("nan")
        scores = [nan] * n if result is None else [float(x) for x in result.scores]
        ranks: list[int | None] = [None] * n if result is None else [int(r) for r in result.ranks]
        parts = [{} for _ in range(n)] if result is None else self.checked_parts(result, n)
        s["game_id"].extend([game_id] * n)
        s["seat"].extend(range(n))
        s["strategy"].extend(strategy_text[:n])
        s["strategy_index"].extend(strategy_index)
        s["score"].extend(scores)
        s["rank"].extend(ranks)
        s["won"].extend([share > 0.0 for share in shares])
        s["win_share"].extend(shares)
        for name in self.part_fields:
            s[name].extend([float(p.get(name, nan)) for p in parts])  # only an errored game lacks them
        return shares

    def checked_parts(self, result: Result, n: int) -> list[dict[str, float]]:
        """The result's score parts, one dict per seat holding exactly the game's ``part_fields``: a
        ``ValueError`` names a part that is missing or unknown (a game's defect, not written as NaN or
        dropped)."""
        parts = result.parts or ([{} for _ in range(n)] if not self.part_fields else [])
        if len(parts) != n:
            raise ValueError(f"the result has score parts for {len(parts)} seats, not {n}")
        expected = set(self.part_fields)
        for seat, found in enumerate(parts):
            missing, unknown = sorted(expected - set(found)), sorted(set(found) - expected)
            if missing or unknown:
                lack = [f"lack {', '.join(missing)}"] if missing else []
                hold = [f"hold {', '.join(unknown)}"] if unknown else []
                raise ValueError(
                    f"seat {seat}'s score parts {' and '.join(lack + hold)} "
                    f"(the game's part_fields: {', '.join(self.part_fields) or 'none'})"
                )
        return parts

    def games_table(self, key: PartKey) -> pa.Table:
        """The ``games`` rows as an Arrow table."""
        return self._table("games", games_schema(), self.games, key)

    def seats_table(self, key: PartKey) -> pa.Table:
        """The ``seats`` rows as an Arrow table."""
        return self._table("seats", seats_schema(self.part_fields), self.seats, key)

    @staticmethod
    def _table(name: str, schema: pa.Schema, buffers: dict[str, list[Any]], key: PartKey) -> pa.Table:
        columns = [pa.array(buffers[f.name], type=f.type) for f in schema if f.name not in _KEY_NAMES]
        return key.table(name, schema, columns)


def part_name(chunk: int) -> str:
    """File name of a chunk's part: ``part-00007.parquet``."""
    return f"part-{chunk:05d}.parquet"


def _exact_columns(schema: pa.Schema) -> list[str]:
    """The columns other than floats and float lists."""
    return [f.name for f in schema if not (pa.types.is_floating(f.type) or pa.types.is_list(f.type)
                                           and pa.types.is_floating(f.type.value_type))]


def _write(table: pa.Table, where: Any) -> None:
    """``pq.write_table`` with the parts' options: zstd; dictionary encoding and min/max statistics
    only for the columns other than floats (scores rarely repeat exactly, so a dictionary there
    costs time and bytes: a Mainland turns part is 20% smaller and quicker to write without)."""
    exact = _exact_columns(table.schema)
    pq.write_table(table, where, compression=COMPRESSION, use_dictionary=exact, write_statistics=exact)


def write_part(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` atomically (temporary name in the same folder, then rename)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        _write(table, tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def part_bytes(table: pa.Table) -> bytes:
    """The bytes ``write_part`` would write for ``table``."""
    sink = pa.BufferOutputStream()
    _write(table, sink)
    return sink.getvalue().to_pybytes()


def write_part_bytes(data: bytes, path: Path) -> None:
    """Write a part's bytes (from ``part_bytes``) to ``path`` atomically."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def is_temporary(path: Path) -> bool:
    """Whether ``path`` is a part's temporary file (left behind by a killed writer)."""
    return path.name.startswith(".") and ".tmp-" in path.name


# --------------------------------------------------------------------------- reading parts back


class PartError(SkaldError):
    """A results part that is missing, unreadable or not one of the run's parts (the message names it)."""


def expected_schema(table: str, action_fields: Sequence[str], part_fields: Sequence[str]) -> pa.Schema:
    """The schema a run's ``table`` parts must have."""
    if table == "games":
        return games_schema()
    if table == "seats":
        return seats_schema(part_fields)
    if table == "turns":
        return turns_schema(action_fields)
    raise ValueError(f"unknown table {table!r} (allowed: {', '.join(TABLES)})")


#: columns added after the first release: parts written before them are still read (as null)
LATER_COLUMNS: dict[str, frozenset[str]] = {
    "games": frozenset(name for name, _ in ERROR_COLUMNS) | _KEY_NAMES,
    "seats": _KEY_NAMES,
    "turns": _KEY_NAMES,
}


def part_metadata(meta: pq.FileMetaData) -> dict[str, str]:
    """A part's ``skald.*`` key-value metadata (empty for parts written before schema version 2)."""
    raw = meta.metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"skald.")}


def check_part(
    path: Path,
    table: str,
    action_fields: Sequence[str],
    part_fields: Sequence[str],
    run: str | None = None,
) -> int:
    """Check that ``path`` is a readable Parquet part of ``table`` with the run's columns; return its rows.

    Reads only the footer.  Raises ``PartError`` (a one-line ``SkaldError`` naming the file) for a
    missing, unreadable or truncated file, for a Parquet file of some other table or tool, or (``run``
    given) for a part whose metadata names another table or run.
    """
    try:
        meta = pq.read_metadata(path)
        schema = meta.schema.to_arrow_schema()
    except FileNotFoundError:
        raise PartError(f"results part {str(path)!r} is missing") from None
    except (OSError, pa.ArrowException, ValueError) as exc:
        detail = " ".join(str(exc).split())
        raise PartError(f"results part {str(path)!r} is not a readable Parquet file ({detail})") from None
    want = expected_schema(table, action_fields, part_fields)
    optional = LATER_COLUMNS.get(table, frozenset())
    have = {field.name: field.type for field in schema}
    missing = [f.name for f in want if f.name not in have and f.name not in optional]
    wrong = [f.name for f in want if f.name in have and have[f.name] != f.type]
    if missing or wrong:
        what = f"missing {', '.join(missing[:4])}" if missing else f"wrong type of {', '.join(wrong[:4])}"
        raise PartError(
            f"results part {str(path)!r} is not a {table} part of this run ({what}; foreign or corrupt file)"
        )
    stamped = part_metadata(meta)
    if run is not None and stamped and (stamped.get("skald.run"), stamped.get("skald.table")) != (run, table):
        raise PartError(
            f"results part {str(path)!r} belongs to another run (its metadata names the"
            f" {stamped.get('skald.table')} table of run {stamped.get('skald.run')}, not the {table} table"
            f" of run {run})"
        )
    return meta.num_rows


def check_run_parts(folder: Path, action_fields: Sequence[str], part_fields: Sequence[str]) -> int:
    """``check_part`` for every part of a run folder; returns the number of parts checked."""
    checked = 0
    for table in TABLES:
        for path in sorted((Path(folder) / table).glob("*.parquet")):
            check_part(path, table, action_fields, part_fields)
            checked += 1
    return checked

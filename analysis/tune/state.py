"""The tune folder's state file (``tune-state.json``): every game result so far, written atomically.

Per candidate and run it keeps one row of whole numbers per game (``objectives.Stats``: sums are exact),
for the search (common seeds) and the confirmation (fresh seeds; the bootstrap resamples them).  A
resumed tune replays the search from these results: every decision is a function of the first ``n_r``
rows of each candidate (a later rung's rows are ignored until that rung), so it takes the same path,
plays only the games that are missing, and ends where an uninterrupted tune ends.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import SkaldError
from sim.resume import write_json_atomic

STATE_FILE = "tune-state.json"
#: seconds between saves while games are being played
SAVE_SECONDS = 2.0


def identity(text: str, budget: int, seed: int) -> dict[str, Any]:
    """What a resumed tune must share with the one it resumes."""
    return {"file_sha1": hashlib.sha1(text.encode()).hexdigest(), "budget": budget, "seed": seed}


@dataclass
class State:
    ident: dict[str, Any]
    #: "cand:run" -> per-game rows of the search (common seeds)
    search: dict[str, list[list[int]]] = field(default_factory=dict)
    #: "cand:run" -> per-game rows of the confirmation
    confirm: dict[str, list[list[int]]] = field(default_factory=dict)
    path: Path | None = None
    saved: float = 0.0

    def played(self, key: tuple[int, int]) -> int:
        return len(self.search.get(_key(key), []))

    def add(self, key: tuple[int, int], start: int, rows: np.ndarray) -> None:
        """Add the rows of games ``start..`` (the next ones: chunks come in order)."""
        _append(self.search, key, start, rows, "games")

    def totals(self, key: tuple[int, int], games: int) -> list[int]:
        """The sums of the first ``games`` rows (a resumed tune may hold more: a later rung's)."""
        rows = self.search[_key(key)][:games]
        return [int(x) for x in np.asarray(rows, dtype=np.int64).sum(axis=0)]

    def confirmed(self, key: tuple[int, int]) -> int:
        return len(self.confirm.get(_key(key), []))

    def add_confirm(self, key: tuple[int, int], start: int, rows: np.ndarray) -> None:
        """Add the rows of confirmation games ``start..`` (in order, as ``add``)."""
        _append(self.confirm, key, start, rows, "confirmation games")

    def spent(self) -> int:
        return sum(len(v) for v in self.search.values()) + sum(len(v) for v in self.confirm.values())

    def excluded(self, key: tuple[int, int] | None = None, games: int | None = None) -> int:
        """Games truncated or errored (each row's last column): of ``key``'s first ``games`` search rows,
        or, with no key, of every row kept, search and confirmation."""
        if key is not None:
            return sum(row[-1] for row in self.search.get(_key(key), [])[:games])
        return sum(row[-1] for rows in (*self.search.values(), *self.confirm.values()) for row in rows)

    def save(self, force: bool = True) -> None:
        if self.path is None or (not force and time.monotonic() - self.saved < SAVE_SECONDS):
            return
        write_json_atomic({"identity": self.ident, "search": self.search, "confirm": self.confirm}, self.path)
        self.saved = time.monotonic()


def _key(key: tuple[int, int]) -> str:
    return f"{key[0]}:{key[1]}"


def _append(
    table: dict[str, list[list[int]]], key: tuple[int, int], start: int, rows: np.ndarray, what: str
) -> None:
    """Append the rows of ``what`` ``start..`` under ``key``: they must be the next ones."""
    have = table.setdefault(_key(key), [])
    if start != len(have):
        raise RuntimeError(f"tune state: {what} {start}.. of {key} added after {len(have)}")
    have.extend(rows.tolist())


def load(path: Path, ident: dict[str, Any]) -> State:
    """The state saved in ``path``; a ``SkaldError`` when it belongs to another tune, budget or seed."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkaldError(
            f"nothing to resume: {str(path)!r} not found (run the tune without --resume)"
        ) from None
    except (OSError, ValueError) as exc:
        raise SkaldError(f"cannot read the tune state {str(path)!r}: {exc}") from None
    if doc.get("identity") != ident:
        raise SkaldError(
            f"{str(path)!r} holds another tune (its file, --budget or seed differ: {doc.get('identity')});"
            " resume with the same file and --budget, or choose another --out"
        )
    return State(ident, doc.get("search", {}), doc.get("confirm", {}), path)

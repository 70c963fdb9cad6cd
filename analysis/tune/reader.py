"""What a checked tune file is (``Tune``, with the head keys a tune and a sensitivity file share:
``Head``, and what playing either file's candidates reads of it: ``Varied``), and the ``Reader`` whose
checks of a file's values fail with one line naming the key (``analysis.tune.spec`` reads the file with it,
``analysis.tune.check`` checks it against the game)."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from analysis.tune import objectives as obj
from analysis.tune.params import Parameter
from sim.errors import SkaldError


@dataclass
class Head:
    """The head keys a tune and a sensitivity file share (``head_fields`` reads them)."""

    name: str
    title: str
    description: str
    game: str
    players: int
    seed: int
    budget: int
    seats: str
    rules: dict[str, Any]
    data: str | None
    max_decisions: int | None


@dataclass
class Tune(Head):
    """A checked tune file."""

    candidates: int
    eta: int
    finalists: int
    confirm: float
    parameters: list[Parameter]
    terms: list[obj.Term]
    source: str
    text: str = ""
    base: Path = field(default_factory=Path)
    #: the tuned player's base spec (``[tune] player``, a named spec resolved to its own), or None
    player: str | None = None


class Varied(Protocol):
    """What playing a file's candidates reads of it (``analysis.tune.play``): a ``Tune`` or a sensitivity
    file (``analysis.sensitivity.screen.Sensitivity``, its fields named as a tune's)."""

    name: str
    game: str
    players: int
    seats: str
    rules: dict[str, Any]
    data: str | None
    parameters: list[Parameter]
    source: str


class Reader:
    """Checks of one file's values, each failing with ``tune file SOURCE: KEY ...``."""

    def __init__(self, source: str, what: str = "tune file") -> None:
        self.source, self.what = source, what
        self.head = what.split()[0]  # the file's own table: [tune] or [sensitivity]

    def fail(self, message: str) -> SkaldError:
        return SkaldError(f"{self.what} {self.source}: {message}")

    def keys(self, table: Any, where: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail(f"{where} must be a table")
        bad = sorted(set(table) - allowed)
        if bad:
            raise self.fail(f"unknown key {where}.{bad[0]} (allowed: {', '.join(sorted(allowed))})")
        return table

    def int(self, value: Any, where: str, low: int, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high and value > high):
            span = f"from {low}" + (f" to {high}" if high else " up")
            raise self.fail(f"{where} must be a whole number {span}, not {value!r}")
        return value

    def number(self, value: Any, where: str, low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise self.fail(f"{where} must be a number from {low} to {high}, not {value!r}")
        return float(value)

    def str(self, value: Any, where: str, allowed: tuple[str, ...] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} must be a non-empty string, not {value!r}")
        if allowed is not None and value not in allowed:
            raise self.fail(f"{where} {value!r} is not allowed (allowed: {', '.join(allowed)})")
        return value.strip()

    def strategies(self, value: Any, where: builtins.str) -> list[builtins.str]:
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(s, str) and s.strip() for s in value)
        ):
            raise self.fail(f"{where} must be a non-empty list of strategy specs (strings), not {value!r}")
        return [s.strip() for s in value]

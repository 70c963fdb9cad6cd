"""The protocol every game implements, and the plain records it hands to the runner.

A game is a module-level object with metadata (name, player counts, rule switches) and
pure-ish rule functions over a plain state object.  The runner knows nothing of any single
game: it asks who must decide, builds each deciding player's *view* (never the full
state), asks that player's strategy to pick one of the legal options, and applies all
choices of that decision point at once (several players may decide simultaneously, in
secret: each of them chooses from a view taken before any of the choices is applied).

State objects are mutated in place by ``apply`` (cheap: no copies on the hot path); use
``copy`` for an independent state to play on (search), ``to_dict``/``from_dict`` to snapshot one
(a plain, serialisable document: much slower than ``copy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np
from numpy.random.bit_generator import ISeedSequence

S = TypeVar("S")


@dataclass(frozen=True)
class RuleSwitch:
    """A documented rule choice a user can flip with ``--rule NAME=VALUE``."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str  # the ruling, citing the rulebook line


@dataclass
class Result:
    """Outcome of a finished (or truncated) game, one entry per seat."""

    scores: list[float]
    ranks: list[int]  # 1 = best; tied players share a rank
    winners: list[int]  # seats with the best score (several on a tie)
    parts: list[dict[str, float]] = field(default_factory=list)  # score breakdown / stats per seat


@runtime_checkable
class Game(Protocol):
    """What a game module exposes (see ``sim.games.mainland.game`` for the reference one)."""

    name: str
    min_players: int
    max_players: int
    rule_switches: tuple[RuleSwitch, ...]
    #: names of the integer action columns in the ``turns`` records (after ``kind``)
    action_fields: tuple[str, ...]
    #: names of the per-seat columns that ``Result.parts`` carries, in order
    part_fields: tuple[str, ...]
    #: hard cap on decisions per game; the runner stops there and marks the game truncated
    default_max_decisions: int

    def load_data(self, path: str | None) -> Any:
        """Component data (the packaged file, or a user's file); raise SkaldError if unreadable."""

    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> Any:
        """A fresh game. ``seed`` feeds the game's own ``numpy.random.Generator``."""

    def to_move(self, state: Any) -> Sequence[int]:
        """Seats that must decide now (several at once for simultaneous secret choices)."""

    def legal_options(self, state: Any, seat: int) -> Sequence[Any]:
        """The options open to ``seat`` now; never empty while the seat is to move."""

    def view(self, state: Any, seat: int) -> Any:
        """What ``seat`` may see: public information and its own secrets, nothing else."""

    def apply(self, state: Any, choices: dict[int, Any]) -> None:
        """Apply every deciding seat's choice; raise ``IllegalChoice`` for an illegal one."""

    def record(self, state: Any, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """(action kind, action fields) describing ``option`` for the turn log (call before apply)."""

    def scores(self, state: Any) -> list[float]:
        """Current score of every seat (cheap: called after every decision for the turn log)."""

    def is_terminal(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Result: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...

    def copy(self, state: Any) -> Any:
        """A fully independent copy: mutating one never changes the other, ``to_dict`` of both is
        equal, and the same choices play on identically from both (own random generator state
        included).  Much cheaper than ``from_dict(to_dict(state))``: search copies on every node."""


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranking: 1 for the best score, tied scores share the better rank."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def result_from_scores(scores: Sequence[float], parts: list[dict[str, float]]) -> Result:
    """A ``Result`` where the highest score wins and ties share the win."""
    best = max(scores)
    return Result(
        scores=list(scores),
        ranks=ranks_from_scores(scores),
        winners=[i for i, s in enumerate(scores) if s == best],
        parts=parts,
    )


class _StateSetAfter(ISeedSequence):
    """The seed sequence of a bit generator whose state ``copy_rng`` sets right after making it:
    seeding it from a real ``SeedSequence`` (hashing its entropy) cost three quarters of a copy."""

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        return np.zeros(n_words, dtype=dtype)


_STATE_SET_AFTER = _StateSetAfter()


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in ``rng``'s exact state (same draws from here on; its
    ``bit_generator.seed_seq`` is a placeholder: nothing spawns from a game's generator)."""
    bits = type(rng.bit_generator)(_STATE_SET_AFTER)
    bits.state = rng.bit_generator.state
    return np.random.Generator(bits)


def copy_state(state: S, flat: tuple[str, ...], nested: tuple[str, ...]) -> S:
    """A copy of a plain state object for ``Game.copy``: every attribute is ``state``'s, but ``rng``
    is copied (``copy_rng``), the containers named in ``flat`` (lists of immutable values, dicts of
    them, numpy arrays) are copied one level deep and those in ``nested`` (lists or dicts whose
    values are such containers) two levels deep.  Any other attribute is shared: it must be
    immutable (numbers, strings, tuples of them, the read-only component data)."""
    new = object.__new__(type(state))
    attrs = new.__dict__
    attrs.update(state.__dict__)
    for name in flat:
        attrs[name] = attrs[name].copy()
    for name in nested:
        value = attrs[name]
        attrs[name] = (
            {k: v.copy() for k, v in value.items()} if isinstance(value, dict) else [v.copy() for v in value]
        )
    attrs["rng"] = copy_rng(attrs["rng"])
    return new

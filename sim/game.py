"""The protocol every game implements, and the plain records it hands to the runner.

A game is a module-level object with metadata (name, player counts, rule switches) and
pure-ish rule functions over a plain state object.  The runner knows nothing of any single
game: it asks who must decide, builds each deciding player's *view* (never the full
state), asks that player's strategy to pick one of the legal options, and applies all
choices of that decision point at once (several players may decide simultaneously, in
secret: each of them chooses from a view taken before any of the choices is applied).

State objects are mutated in place by ``apply`` (cheap: no copies on the hot path); use
``to_dict``/``from_dict`` to snapshot one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


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

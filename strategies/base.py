"""The strategy interface: one fresh object per game and seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class Strategy:
    """A scripted player.

    The runner makes a fresh instance for every game and seat, so a strategy may keep
    memory of what it saw during the game in ``self``.  It only ever receives its own
    player's view (``game.view(state, seat)``), never the full state.

    Subclasses set ``name`` and ``games`` (the games they play; ``("*",)`` for any game)
    and implement ``choose``.  Keyword parameters come from the command line
    (``builder:aggression=0.7``) as strings and are converted by ``params``.
    """

    name: str = "strategy"
    games: tuple[str, ...] = ("*",)
    #: parameter name -> (type, default); values arrive as strings from the command line
    params: dict[str, tuple[type, Any]] = {}
    #: False for a strategy whose ``choose`` never looks at its view: the runner then passes
    #: ``None`` instead of building one (a measurable share of a decision in the fast games)
    reads_view: bool = True

    def __init__(self, seat: int, rng: np.random.Generator, **params: Any) -> None:
        self.seat = seat
        self.rng = rng
        for key, (kind, default) in self.params.items():
            setattr(self, key, kind(params.pop(key, default)))
        if params:
            allowed = ", ".join(sorted(self.params)) or "none"
            raise ValueError(
                f"unknown parameter(s) {', '.join(sorted(params))} for strategy {self.name!r}"
                f" (allowed: {allowed})"
            )

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        """Return one element of ``options``."""
        raise NotImplementedError

    #: the parameter holding a time budget (a search's ``ms``): a spec that sets it to more than 0 makes
    #: its games depend on the machine's speed, and the run's manifest says so (``sim.plan``)
    time_budget: str | None = None

    def telemetry(self) -> dict[str, float] | None:
        """What this player spent in its game, for ``skald bench`` and run summaries: None for a
        scripted strategy; a search reports ``decisions`` searched, ``iterations`` and ``seconds``."""
        return None

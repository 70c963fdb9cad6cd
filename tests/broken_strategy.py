"""Deliberately broken strategies for the fault tests (any game; imported by path in worker processes).

    tests.broken_strategy:Raiser[:p=0.5:at=2]   raises on its ``at``-th decision, in a share ``p`` of games
    tests.broken_strategy:Stale[:p=0.5:at=2]    replays its very first option on its ``at``-th decision
                                                (an option that is no longer legal: an illegal choice)
    tests.broken_strategy:Garbage[:p=0.5:at=2]  returns a string instead of an option

Otherwise they play the first option.  Whether a game is a broken one is drawn from the seat's own
generator, so it depends only on the game seed: a replay breaks the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.strategy import Strategy


class _Broken(Strategy):
    params = {"p": (float, 1.0), "at": (int, 2)}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.broken = bool(self.rng.random() < self.p)
        self.made = 0
        self.first: Any = None

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        if self.first is None:
            self.first = options[0]
        self.made += 1
        if self.broken and self.made > self.at:
            return self.fail(options)
        return options[0]

    def fail(self, options: Sequence[Any]) -> Any:
        raise NotImplementedError


class Raiser(_Broken):
    """Raises ``RuntimeError('deliberate failure')``."""

    name = "raiser"

    def fail(self, options: Sequence[Any]) -> Any:
        raise RuntimeError("deliberate failure")


class Stale(_Broken):
    """Chooses the option it was offered first (stale, illegal by now)."""

    name = "stale"

    def fail(self, options: Sequence[Any]) -> Any:
        return self.first


class Garbage(_Broken):
    """Chooses something that is not an option at all."""

    name = "garbage"

    def fail(self, options: Sequence[Any]) -> Any:
        return "not an option"

"""Strategies that fail by raising what ``Exception`` does not cover (any game; imported by path in workers).

    tests.escaping_strategy:Exiter[:p=0.5:at=2]       calls ``sys.exit(3)`` on its ``at``-th decision
    tests.escaping_strategy:Interrupter[:p=0.5:at=2]  raises ``KeyboardInterrupt`` (no Ctrl-C was pressed)
    tests.escaping_strategy:Closer[:p=0.5:at=2]       raises ``GeneratorExit``
    tests.escaping_strategy:Unborn                    calls ``sys.exit(4)`` when it is made for a seat
                                                      other than 0 (a spec check makes one for seat 0)

Like ``tests.broken_strategy``'s, they play the first option otherwise, and whether a game is a broken
one is drawn from the seat's own generator (a function of the game seed).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from sim.strategy import Strategy
from tests.broken_strategy import _Broken


class Exiter(_Broken):
    """Calls ``sys.exit(3)``."""

    name = "exiter"

    def fail(self, options: Sequence[Any]) -> Any:
        sys.exit(3)


class Interrupter(_Broken):
    """Raises ``KeyboardInterrupt`` by itself."""

    name = "interrupter"

    def fail(self, options: Sequence[Any]) -> Any:
        raise KeyboardInterrupt


class Closer(_Broken):
    """Raises ``GeneratorExit``."""

    name = "closer"

    def fail(self, options: Sequence[Any]) -> Any:
        raise GeneratorExit


class Unborn(Strategy):
    """Calls ``sys.exit(4)`` in its constructor for seats other than 0: it fails before it chooses."""

    name = "unborn"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.seat != 0:
            sys.exit(4)

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return options[0]


class Stillborn(Strategy):
    """Calls ``sys.exit(5)`` in its constructor for every seat, the spec check's included."""

    name = "stillborn"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sys.exit(5)

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return options[0]

"""``random``: uniform over the legal options, for any game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.strategy import Strategy

#: uniform draws taken from the generator at a time (one call per block, not one per decision)
BLOCK = 256


class RandomStrategy(Strategy):
    """Picks one of the legal options at random, each equally likely, with its own random generator; it
    plays every game and never looks at the view.

    Index ``floor(u * n)`` of ``n`` options for a uniform ``u`` in [0, 1): ``u * n`` stays below ``n``
    in floating point, and the bias is of order 2**-53.  The draws come in blocks of ``BLOCK`` (a
    ``Generator`` call costs about as much as the rest of a Mainland decision).
    """

    name = "random"
    games = ("*",)
    reads_view = False  # uniform over the options: the view is never needed

    def __init__(self, seat: int, rng: np.random.Generator, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self._draws: list[float] = []

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        draws = self._draws
        if not draws:
            draws.extend(self.rng.random(BLOCK).tolist())
        return options[int(draws.pop() * len(options))]

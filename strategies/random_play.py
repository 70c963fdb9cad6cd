"""``random``: uniform over the legal options, for any game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from strategies.base import Strategy


class RandomStrategy(Strategy):
    """Picks each option with equal probability, using the strategy's own generator."""

    name = "random"
    games = ("*",)
    reads_view = False  # uniform over the options: the view is never needed

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return options[int(self.rng.integers(len(options)))]

"""A strategy for tic-tac-toe beside ``random``: ``blocker`` wins when it can, else blocks, else plays
at random."""

from __future__ import annotations

from collections.abc import Sequence

from sim.api import Strategy
from skald_tictactoe.game import LINES


class Blocker(Strategy):
    """``blocker``: complete its own line if it can, else block the opponent's, else a random cell."""

    name = "blocker"
    games = ("tictactoe",)

    def choose(self, view: tuple[int, ...], options: Sequence[int]) -> int:
        for seat in (self.seat, 1 - self.seat):  # first win, then block
            for cell in options:
                cells = list(view)
                cells[cell] = seat
                if any(all(cells[c] == seat for c in line) for line in LINES):
                    return cell
        return options[int(self.rng.integers(len(options)))]

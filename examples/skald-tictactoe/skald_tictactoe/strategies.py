"""A strategy beside ``random`` (which plays every game): ``blocker``."""

from __future__ import annotations

from collections.abc import Sequence

from skald_tictactoe import rules as r
from skald_tictactoe.game import TicTacToeView
from strategies.base import Strategy


class Blocker(Strategy):
    """Complete a line of its own if it can (R4), else block the other seat's, else mark a random open
    cell; ``centre=1`` takes the centre when it is open and nothing is to win or block."""

    name = "blocker"
    games = ("tictactoe",)
    params = {"centre": (int, 0)}

    def choose(self, view: TicTacToeView, options: Sequence[int]) -> int:
        win = r.winning_cells(view.board, view.seat)
        block = r.winning_cells(view.board, 1 - view.seat)
        if view.misere:  # R4': a line loses, so avoid one's own and leave the other's open
            safe = [c for c in options if c not in win] or list(options)
            return safe[int(self.rng.integers(len(safe)))]
        if win:
            return win[0]
        if block:
            return block[0]
        if self.centre and 4 in options:
            return 4
        return options[int(self.rng.integers(len(options)))]

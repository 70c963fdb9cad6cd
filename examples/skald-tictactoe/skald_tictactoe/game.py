"""Tic-tac-toe as a ``sim.game.Game``: plain data for the state, pure functions for the rules.

The rules (README.md, "The rules"): two players take turns, seat 0 (X) first (rule 1), each putting
their mark in an empty cell of the 3x3 grid (rule 2); three marks of one player in a row, column or
diagonal win at once (rule 3); a full grid without a line is a draw (rule 4).  Nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.api import IllegalChoice, Result, RuleSwitch, result_from_scores

#: the eight lines of three cells (rule 3), cells numbered 0-8 row by row
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = -1


@dataclass
class TicTacToeState:
    """The grid (``EMPTY`` or the seat whose mark is there), whose turn it is and the winner."""

    cells: list[int] = field(default_factory=lambda: [EMPTY] * 9)
    turn: int = 0
    winner: int | None = None


def line_of(cells: Sequence[int], seat: int) -> bool:
    """Rule 3: three of ``seat``'s marks in a line."""
    return any(all(cells[c] == seat for c in line) for line in LINES)


def free_cells(state: TicTacToeState) -> list[int]:
    """Rule 2: the empty cells, in order."""
    return [i for i, mark in enumerate(state.cells) if mark == EMPTY]


def is_over(state: TicTacToeState) -> bool:
    """Rules 3 and 4: a line, or a full grid."""
    return state.winner is not None or EMPTY not in state.cells


class TicTacToe:
    """The game object Skald calls (``sim.game.Game``)."""

    name = "tictactoe"
    min_players = 2
    max_players = 2
    rule_switches = (RuleSwitch("first", 0, (0, 1), "rule 1: the seat that moves first (0 = X)"),)
    action_fields = ("cell",)
    part_fields = ("marks",)
    default_max_decisions = 9
    default_data_path = None  # no component data
    action_kinds = {"mark": ("cell",)}
    action_docs = {"cell": "the cell marked, 0-8 row by row from the top left"}

    def load_data(self, path: str | None) -> None:
        return None

    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> TicTacToeState:
        return TicTacToeState(turn=int(rules["first"]))

    def to_move(self, state: TicTacToeState) -> tuple[int, ...]:
        return () if is_over(state) else (state.turn,)

    def legal_options(self, state: TicTacToeState, seat: int) -> list[int]:
        return free_cells(state)

    def view(self, state: TicTacToeState, seat: int) -> tuple[int, ...]:
        return tuple(state.cells)  # nothing is hidden

    def apply(self, state: TicTacToeState, choices: dict[int, Any]) -> None:
        seat, cell = next(iter(choices.items()))
        if seat != state.turn or cell not in free_cells(state):
            raise IllegalChoice(f"seat {seat} cannot mark cell {cell!r} now", seat=seat)
        state.cells[cell] = seat
        if line_of(state.cells, seat):
            state.winner = seat
        state.turn = 1 - seat

    def record(self, state: TicTacToeState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        return "mark", (int(option),)

    def scores(self, state: TicTacToeState) -> list[float]:
        return [1.0 if state.winner == seat else 0.0 for seat in (0, 1)]

    def is_terminal(self, state: TicTacToeState) -> bool:
        return is_over(state)

    def result(self, state: TicTacToeState) -> Result:
        parts = [{"marks": float(state.cells.count(seat))} for seat in (0, 1)]
        return result_from_scores(self.scores(state), parts)

    def to_dict(self, state: TicTacToeState) -> dict[str, Any]:
        return {"cells": list(state.cells), "turn": state.turn, "winner": state.winner}

    def from_dict(self, doc: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState(list(doc["cells"]), int(doc["turn"]), doc["winner"])

    def copy(self, state: TicTacToeState) -> TicTacToeState:
        return TicTacToeState(list(state.cells), state.turn, state.winner)

    def determinize(self, state: TicTacToeState, seat: int, rng: np.random.Generator) -> TicTacToeState:
        """Nothing is hidden, so every seat's sample is the state itself (a copy): search plays it too."""
        return self.copy(state)


GAME = TicTacToe()

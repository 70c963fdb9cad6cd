"""Tic-tac-toe following Skald's ``sim.game.Game`` protocol: the state, and the protocol's functions
over it (each one a thin layer over the pure rules in ``skald_tictactoe.rules``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sim.errors import IllegalChoice, SkaldError
from sim.game import Result, RuleSwitch, result_from_scores
from sim.rules import resolve
from skald_tictactoe import rules as r


@dataclass
class TicTacToeState:
    """Everything about one game.  ``apply`` changes it in place (the protocol's rule) by giving it a new
    board tuple, so a copy may share the old one."""

    board: tuple[int, ...]
    current: int  # the seat to move (R2)
    misere: bool  # the misère rule switch (R4')


@dataclass(frozen=True)
class TicTacToeView:
    """What a seat sees: the whole board (tic-tac-toe hides nothing)."""

    seat: int
    board: tuple[int, ...]
    current: int
    misere: bool


class TicTacToe:
    """The rules object the plug-in names (``GAME``)."""

    name = "tictactoe"
    min_players = 2
    max_players = 2
    rule_switches = (
        RuleSwitch("misere", False, (True, False), "R4': whoever makes three in a line loses instead"),
    )
    action_fields = ("cell", "row", "col")
    action_kinds = {"mark": ("cell", "row", "col")}
    action_docs = {"cell": "cell marked, 0-8 row by row", "row": "its row, 0-2", "col": "its column, 0-2"}
    part_fields = ("marks", "lines")
    default_max_decisions = 9
    default_data_path = None  # no component data file

    def load_data(self, path: str | None) -> None:
        """Tic-tac-toe has no component data file."""
        if path is not None:
            raise SkaldError("tictactoe has no data file (leave out --data)")

    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> TicTacToeState:
        """R1-R2: an empty grid, seat 0 to move (the game uses no randomness, so ``seed`` is unused)."""
        return TicTacToeState(r.empty_board(), 0, bool(resolve(self, rules)["misere"]))

    def to_move(self, state: TicTacToeState) -> Sequence[int]:
        return () if r.is_over(state.board) else (state.current,)

    def legal_options(self, state: TicTacToeState, seat: int) -> Sequence[int]:
        """R3: the open cells, for the seat to move."""
        return r.open_cells(state.board) if seat == state.current and not r.is_over(state.board) else ()

    def view(self, state: TicTacToeState, seat: int) -> TicTacToeView:
        return TicTacToeView(seat, state.board, state.current, state.misere)

    def determinize(self, state: TicTacToeState, seat: int, rng: Any) -> TicTacToeState:
        """Nothing is hidden, so every seat's sample of the state is a copy of it."""
        return self.copy(state)

    def apply(self, state: TicTacToeState, choices: dict[int, Any]) -> None:
        """R3: the seat to move marks an open cell, then the other seat moves (R2).  Anything else raises
        ``IllegalChoice`` naming the seat, before the state changes."""
        for seat, cell in choices.items():
            if seat != state.current or r.is_over(state.board):
                raise IllegalChoice(f"seat {seat} is not to move", seat=seat)
            if not (isinstance(cell, int) and cell in r.open_cells(state.board)):
                raise IllegalChoice(f"cell {cell!r} is not open", seat=seat)
        if state.current not in choices:
            raise IllegalChoice(f"seat {state.current} must mark a cell", seat=state.current)
        state.board = r.place(state.board, choices[state.current], state.current)
        state.current = 1 - state.current

    def record(self, state: TicTacToeState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        cell = int(option)
        return "mark", (cell, cell // r.SIZE, cell % r.SIZE)

    def scores(self, state: TicTacToeState) -> list[float]:
        """1 for the winner (R4), 0 otherwise; a draw (R5) leaves both on 0."""
        won = r.winner(state.board, state.misere)
        return [1.0 if seat == won else 0.0 for seat in (0, 1)]

    def is_terminal(self, state: TicTacToeState) -> bool:
        return r.is_over(state.board)

    def result(self, state: TicTacToeState) -> Result:
        made = r.line_of(state.board)
        parts = [{"marks": float(state.board.count(seat)), "lines": float(made == seat)} for seat in (0, 1)]
        return result_from_scores(self.scores(state), parts)

    def to_dict(self, state: TicTacToeState) -> dict[str, Any]:
        return {"board": list(state.board), "current": state.current, "misere": state.misere}

    def from_dict(self, data: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState(tuple(data["board"]), int(data["current"]), bool(data["misere"]))

    def copy(self, state: TicTacToeState) -> TicTacToeState:
        """An independent state: every field is immutable, so a shallow copy is enough."""
        return replace(state)


GAME = TicTacToe()

"""The rules of tic-tac-toe as pure functions over a board (the README's rules, lines R1-R5).

A board is a tuple of nine cells, row by row; a cell holds the seat that marked it, or ``EMPTY``.
"""

from __future__ import annotations

from collections.abc import Sequence

EMPTY = -1
SIZE = 3
#: the eight lines of three cells (R4: a row, a column or a diagonal)
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


def empty_board() -> tuple[int, ...]:
    """R1: the game starts on an empty 3x3 grid."""
    return (EMPTY,) * (SIZE * SIZE)


def open_cells(board: Sequence[int]) -> tuple[int, ...]:
    """R3: the player to move marks any empty cell."""
    return tuple(i for i, cell in enumerate(board) if cell == EMPTY)


def place(board: Sequence[int], cell: int, seat: int) -> tuple[int, ...]:
    """The board after ``seat`` marks ``cell`` (R3; the caller checks that the cell is open)."""
    return tuple(seat if i == cell else mark for i, mark in enumerate(board))


def line_of(board: Sequence[int]) -> int:
    """R4: the seat with three marks in a line, or ``EMPTY``."""
    for a, b, c in LINES:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return EMPTY


def is_over(board: Sequence[int]) -> bool:
    """R4-R5: a line is made, or the grid is full."""
    return line_of(board) != EMPTY or EMPTY not in board


def winner(board: Sequence[int], misere: bool) -> int:
    """The winning seat, or ``EMPTY`` for a draw or a game not over: R4 the seat that made the line
    wins; with the misère rule switch (R4') it loses, so the other seat wins."""
    made = line_of(board)
    if made == EMPTY:
        return EMPTY
    return 1 - made if misere else made


def winning_cells(board: Sequence[int], seat: int) -> tuple[int, ...]:
    """The open cells that would complete a line for ``seat`` (what the ``blocker`` strategy reads)."""
    return tuple(c for c in open_cells(board) if line_of(place(board, c, seat)) == seat)

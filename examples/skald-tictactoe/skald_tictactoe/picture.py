"""Tic-tac-toe as a picture (``sim.picture``'s protocol): the 3x3 grid, each mark in its seat's colour,
and whose turn it is or who won; and a mark in words.

Nothing is hidden in tic-tac-toe (README.md, "The rules"), so every seat's picture shows the whole grid;
only its caption says whose view it is.
"""

from __future__ import annotations

from sim.api import ALL_SHOWN, Svg, element, seat_colour
from skald_tictactoe.game import EMPTY, TicTacToeState, is_over

CELL = 80
MARGIN = 20
TOP = 40
#: rule 1: seat 0 plays X, seat 1 plays O
MARKS = ("X", "O")


def _mark(seat: int, cell: int) -> list[str]:
    """The shapes of ``seat``'s mark in ``cell`` (an X of two strokes, or a ring)."""
    x = MARGIN + (cell % 3) * CELL + CELL / 2
    y = TOP + (cell // 3) * CELL + CELL / 2
    colour, r = seat_colour(seat), CELL * 0.3
    if seat == 0:
        return [
            element("line", x1=x - r, y1=y - r, x2=x + r, y2=y + r, stroke=colour, stroke_width=8),
            element("line", x1=x - r, y1=y + r, x2=x + r, y2=y - r, stroke=colour, stroke_width=8),
        ]
    return [element("circle", cx=x, cy=y, r=r, fill="none", stroke=colour, stroke_width=8)]


def _status(state: TicTacToeState) -> str:
    if state.winner is not None:
        return f"seat {state.winner} ({MARKS[state.winner]}) wins"
    if is_over(state):
        return "a draw: the grid is full"
    return f"seat {state.turn} ({MARKS[state.turn]}) to play"


def picture(state: TicTacToeState, seat: int | None) -> str:
    """The grid with every mark (one ``piece mark`` element each), whose turn it is, and whose view."""
    side = 3 * CELL
    svg = Svg(side + 2 * MARGIN, side + TOP + 2 * MARGIN, "Tic-tac-toe")
    svg.add("rect", x=0, y=0, width=side + 2 * MARGIN, height=side + TOP + 2 * MARGIN, fill="#fbfaf7")
    svg.add("text", _status(state), x=MARGIN, y=26, font_size=16, font_weight="bold")
    for i in (1, 2):
        svg.add("line", x1=MARGIN + i * CELL, y1=TOP, x2=MARGIN + i * CELL, y2=TOP + side, stroke="#444",
                stroke_width=3)
        svg.add("line", x1=MARGIN, y1=TOP + i * CELL, x2=MARGIN + side, y2=TOP + i * CELL, stroke="#444",
                stroke_width=3)
    for cell, mark in enumerate(state.cells):
        if mark != EMPTY:
            svg.piece("mark", _mark(mark, cell), data_seat=mark, data_cell=cell)
    caption = ALL_SHOWN if seat is None else f"as seat {seat} ({MARKS[seat]}) sees it: nothing is hidden"
    svg.add("text", caption, x=MARGIN, y=side + TOP + MARGIN + 4, font_size=11, fill="#666")
    return svg.render()


def describe(state: TicTacToeState, seat: int, option: int) -> str:
    """Rule 2: the mark ``seat`` puts, in words ("marks X at row 2, col 3 (cell 5)")."""
    cell = int(option)
    return f"marks {MARKS[seat]} at row {cell // 3 + 1}, col {cell % 3 + 1} (cell {cell})"

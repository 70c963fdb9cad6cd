"""Hero movement (graenaland.txt:70-84) and priests/skalds entering play (157-159)."""

from __future__ import annotations

from sim.errors import IllegalChoice
from sim.games.graenaland.board import Board
from sim.games.graenaland.options import STAY, Move
from sim.games.graenaland.state import PRIEST, SKALD, GraenalandState


def movers(state: GraenalandState) -> tuple[int, ...]:
    """Everyone but the main player moves, all at once and in secret (lines 54, 75-77)."""
    return tuple(p for p in range(state.n_players) if p != state.main)


def move_options(state: GraenalandState, board: Board, seat: int) -> list[Move]:
    """Stay, or one hero in play in a valid direction (lines 76, 83). An invalid direction leaves the
    hero in place (line 78), which is the same as staying, so only valid moves are listed."""
    out = [STAY]
    for hero, t in enumerate(state.heroes[seat]):
        if t < 0:
            continue
        for d, dest in enumerate(board.moves[t]):
            if dest >= 0:
                out.append(Move(hero, d))
    return out


def destination(state: GraenalandState, board: Board, seat: int, move: Move) -> int:
    """Where the move ends, or -1 when it is a stay (line 78: invalid moves stay)."""
    if move.hero < 0:
        return -1
    if not (0 <= move.hero < 3 and 0 <= move.direction < len(board.moves[0])):
        return -1
    t = state.heroes[seat][move.hero]
    return -1 if t < 0 else board.moves[t][move.direction]


def check_move(state: GraenalandState, board: Board, seat: int, move: object) -> Move:
    if not isinstance(move, tuple) or len(move) != 2:
        raise _illegal(seat, move, "a hero move is Move(hero, direction)")
    move = Move(int(move[0]), int(move[1]))
    if move == STAY:
        return move
    if destination(state, board, seat, move) < 0:
        raise _illegal(seat, move, "not a hero in play moving in a valid direction (lines 76-78)")
    return move


def apply_moves(state: GraenalandState, board: Board, moves: dict[int, Move]) -> None:
    """All moves at once (line 78); a move onto an own hero swaps the two (line 84)."""
    for seat, move in moves.items():
        dest = destination(state, board, seat, move)
        if dest < 0:
            continue
        mine = state.heroes[seat]
        origin = mine[move.hero]
        for other, pos in enumerate(mine):
            if other != move.hero and pos == dest:
                mine[other] = origin
        mine[move.hero] = dest


def enter_waiting(state: GraenalandState) -> None:
    """A priest/skald that waits at its first church/hall (an own hero stood there when it was built,
    ``building.place``) enters once no own hero stands there: "As soon as you have no hero on that
    territory, place your priest there (after the movement phase, but before the first proposal is made
    in that round)" (lines 157, 158)."""
    for seat in range(state.n_players):
        for hero in (PRIEST, SKALD):
            t = state.waiting[seat][hero]
            if t >= 0 and state.heroes[seat][hero] < 0 and t not in state.heroes[seat]:
                state.heroes[seat][hero] = t
                state.waiting[seat][hero] = -1


def _illegal(seat: int, move: object, why: str) -> IllegalChoice:
    return IllegalChoice(f"seat {seat} hero move {move!r}: {why}", seat=seat)

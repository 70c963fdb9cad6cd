"""Errors that Skald reports to users as one clean line (exit code 2)."""

from __future__ import annotations

from typing import Any


class SkaldError(Exception):
    """Bad input from the user: the message names what is wrong and what is allowed."""


class IllegalChoice(Exception):
    """A strategy (or a replayed record) chose an option the rules do not allow.

    Raised by a game's ``apply``; the runner adds the strategy name, game seed and turn.
    ``seat`` names the seat at fault (``IllegalChoice("...", seat=2)``), so the runner can name
    it when several seats chose at once; ``None`` where no one seat is to blame.
    """

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat

    def __reduce__(self) -> tuple[Any, ...]:
        # pickles with its seat (joblib workers hand exceptions back to the parent)
        return (type(self), (str(self), self.seat))


class PlayError(SkaldError):
    """A strategy failed or chose illegally during play.

    The message names the strategy spec, the seat, the game seed and the turn, so the
    game can be replayed alone (``seed`` is the game seed of the ``games`` table).
    """


def one_line(text: object, empty: str | None = None) -> str:
    """``text`` (an exception, a message) on one line, runs of white space made one space: errors and
    notes are printed as one line each.  ``empty`` stands in for a blank message (by default an
    exception's type name, or nothing)."""
    if empty is None:
        empty = type(text).__name__ if isinstance(text, BaseException) else ""
    return " ".join(str(text).split()) or empty

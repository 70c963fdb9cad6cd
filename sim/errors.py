"""Errors that Skald reports to users as one clean line (exit code 2)."""

from __future__ import annotations


class SkaldError(Exception):
    """Bad input from the user: the message names what is wrong and what is allowed."""


class IllegalChoice(Exception):
    """A strategy (or a replayed record) chose an option the rules do not allow.

    Raised by a game's ``apply``; the runner adds the strategy name, game seed and turn.
    A game may set ``seat`` on the exception (``exc.seat = 2``) when several seats chose
    at once, so the runner can name the one at fault.
    """

    seat: int | None = None


class PlayError(SkaldError):
    """A strategy failed or chose illegally during play.

    The message names the strategy spec, the seat, the game seed and the turn, so the
    game can be replayed alone (``seed`` is the game seed of the ``games`` table).
    """

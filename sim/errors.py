"""Errors that Skald reports to users as one clean line (exit code 2)."""

from __future__ import annotations


class SkaldError(Exception):
    """Bad input from the user: the message names what is wrong and what is allowed."""


class IllegalChoice(Exception):
    """A strategy (or a replayed record) chose an option the rules do not allow.

    Raised by a game's ``apply``; the runner adds the strategy name, game seed and turn.
    """

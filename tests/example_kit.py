"""The example plug-in (``examples/skald-tictactoe``) registered for one test at run time, so the
tests that play it need it neither installed nor named by the core."""

from __future__ import annotations

from pathlib import Path

import pytest

import sim.games

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "skald-tictactoe"


def register_example(monkeypatch: pytest.MonkeyPatch) -> str:
    """Put the example on ``sys.path`` and in ``sim.games.GAMES`` until the test ends; its game's name."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from skald_tictactoe.plugin import PLUGIN

    monkeypatch.setitem(sim.games.GAMES, "tictactoe", PLUGIN)
    return "tictactoe"

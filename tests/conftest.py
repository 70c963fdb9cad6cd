"""Shared fixtures for the core tests (the toy game lives in ``tests/toy_game.py``)."""

from __future__ import annotations

import pytest


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the toy game as ``secretbid``; worker processes import it by module path."""
    import sim.games
    from sim.plugin import GamePlugin

    toy = GamePlugin(name="secretbid", title="Secret bid", description="a toy", game="tests.toy_game:GAME")
    monkeypatch.setitem(sim.games.GAMES, "secretbid", toy)
    return "secretbid"

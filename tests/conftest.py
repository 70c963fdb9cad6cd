"""Shared fixtures for the core tests (the toy game lives in ``tests/toy_game.py``)."""

from __future__ import annotations

import pytest


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the toy game as ``secretbid``; worker processes import it by module path."""
    import sim.games

    monkeypatch.setitem(sim.games.GAMES, "secretbid", "tests.toy_game")
    return "secretbid"

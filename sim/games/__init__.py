"""The games Skald simulates, found by name (imported lazily)."""

from __future__ import annotations

import importlib

from sim.errors import SkaldError
from sim.game import Game

#: game name -> module exposing ``GAME``
GAMES: dict[str, str] = {
    "mainland": "sim.games.mainland.game",
    "graenaland": "sim.games.graenaland.game",
    "knarr": "sim.games.knarr.game",
    "greenland": "sim.games.greenland.game",
}


def get_game(name: str) -> Game:
    """The game called ``name``; a ``SkaldError`` lists the known games otherwise."""
    if name not in GAMES:
        raise SkaldError(f"unknown game {name!r} (allowed: {', '.join(sorted(GAMES))})")
    return importlib.import_module(GAMES[name]).GAME

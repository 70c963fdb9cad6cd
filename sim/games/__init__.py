"""The games Skald simulates, found by name: every plug-in registered under the ``skald.games`` entry
points (``sim.plugin``), Skald's own four included; their rules are imported only when asked for."""

from __future__ import annotations

from sim.errors import SkaldError
from sim.game import Game
from sim.plugin import GamePlugin, registered

#: game name -> its plug-in declaration (tests may add one for the duration of a test)
GAMES: dict[str, GamePlugin] = dict(registered())


def get_game(name: str) -> Game:
    """The rules of the game called ``name``; a ``SkaldError`` lists the known games otherwise."""
    if name not in GAMES:
        raise SkaldError(f"unknown game {name!r} (allowed: {', '.join(sorted(GAMES))})")
    return GAMES[name].load_game()

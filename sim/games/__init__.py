"""The games Skald simulates, found by name: every plug-in registered under the ``skald.games`` entry
points (``sim.plugin``), Skald's own four included; their rules are imported only when asked for.  A
plug-in that fails to load is left out (``sim.plugin.broken``): asking for its game says why."""

from __future__ import annotations

from sim.errors import SkaldError
from sim.game import Game
from sim.plugin import GamePlugin, broken, registered

#: game name -> its plug-in declaration (tests may add one for the duration of a test)
GAMES: dict[str, GamePlugin] = dict(registered())


def get_game(name: str) -> Game:
    """The rules of the game called ``name``; a ``SkaldError`` lists the known games otherwise."""
    if name not in GAMES and name in broken():  # an installed plug-in that failed to load: why
        raise SkaldError(broken()[name])
    if name not in GAMES:
        failed = f"; failed to load: {', '.join(sorted(broken()))}" if broken() else ""
        raise SkaldError(f"unknown game {name!r} (allowed: {', '.join(sorted(GAMES))}{failed})")
    return GAMES[name].load_game()

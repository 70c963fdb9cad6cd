"""A game's declared encoding (``GamePlugin.spaces``), loaded and checked once.

A game without a ``spaces`` declaration (a third-party plug-in that has not written one) gets no generic
fallback: a fixed action space and an observation layout need the game's own knowledge, so
``load_spaces`` refuses it with a one-line ``SkaldError`` saying it declares no ``spaces``."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from sim.errors import SkaldError
from sim.game import capability, has_capability
from sim.plugin import GamePlugin, load_object

_REQUIRED = ("ACTIONS", "SHAPE", "encode", "observe")


def declares_spaces(plugin: GamePlugin) -> bool:
    """Whether the game declares an RL encoding (``sim.game.has_capability``)."""
    return has_capability(plugin, "spaces")


def load_spaces(plugin: GamePlugin) -> ModuleType | Any:
    """The game's ``spaces`` module (``ACTIONS``, ``SHAPE``, ``encode``, ``observe``: ``sim.rl.codec``)."""
    path = capability(plugin, "spaces")
    if path is None:
        raise SkaldError(f"game {plugin.name!r} declares no `spaces` (no RL encoding: see sim.rl.codec)")
    module = load_object(path, f"the spaces of game {plugin.name!r}")
    missing = [name for name in _REQUIRED if not hasattr(module, name)]
    if missing:
        raise SkaldError(f"the spaces of game {plugin.name!r} ({path}) lack {', '.join(missing)}")
    return module

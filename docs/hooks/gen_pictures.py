"""The pictures page's generated figures: one mid-game state of every registered game that declares a
picture (``sim.picture``), played by ``random`` from a fixed seed, so the site shows what
``skald replay --html`` and Jupyter show, made by the same code at build time."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.picture import picture
from sim.plugin import GamePlugin
from sim.rules import resolve

#: how far into a random game the shown state lies (decisions), and the seed of its deal and choices
DECISIONS, SEED = 60, 3


def mid_game(plugin: GamePlugin) -> Any:
    """A state ``DECISIONS`` decisions into a random four-player (or the game's largest) game."""
    game = plugin.load_game()
    players = min(4, game.max_players)
    state = game.new_state(players, resolve(game, {}), game.load_data(None), SEED)  # the default rules
    rng = np.random.default_rng(SEED)
    for _ in range(DECISIONS):
        if game.is_terminal(state):
            break
        choices = {}
        for seat in game.to_move(state):
            options = game.legal_options(state, seat)
            choices[seat] = options[int(rng.integers(len(options)))]
        game.apply(state, choices)
    return state


def pictures(games: list[tuple[str, GamePlugin]]) -> dict[str, str]:
    """``pictures/<game>.svg`` for every game with a picture, everything shown."""
    return {f"pictures/{name}.svg": picture(name, mid_game(p)).svg for name, p in games if p.picture}


def pictures_section(games: list[tuple[str, GamePlugin]]) -> str:
    """The figures of the pictures page, one per game."""
    out = []
    for name, plugin in games:
        if plugin.picture:
            out.append(f"### {plugin.title}\n\n![{plugin.title}, {DECISIONS} decisions into a random game]"
                       f"(pictures/{name}.svg)\n")
    return "\n".join(out)

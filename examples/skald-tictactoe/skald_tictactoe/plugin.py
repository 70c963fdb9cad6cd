"""Tic-tac-toe's declaration: everything the game brings to Skald, registered in ``pyproject.toml``."""

from sim.api import GamePlugin

PLUGIN = GamePlugin(
    name="tictactoe",
    title="Tic-tac-toe",
    description="the example plug-in: noughts and crosses on a 3x3 grid (examples/skald-tictactoe)",
    game="skald_tictactoe.game:GAME",
    strategies={"blocker": "skald_tictactoe.strategies:Blocker"},
    sections="skald_tictactoe.report:tictactoe_sections",
    picture="skald_tictactoe.picture:picture",
    describe="skald_tictactoe.picture:describe",
)

"""The plug-in declaration Skald finds through the ``skald.games`` entry point (``pyproject.toml``)."""

from sim.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="tictactoe",
    title="Tic-tac-toe",
    description="three in a line on a 3x3 grid: the example external game",
    game="skald_tictactoe.game:GAME",
    strategies={"blocker": "skald_tictactoe.strategies:Blocker"},
    sections="skald_tictactoe.report:sections",
)

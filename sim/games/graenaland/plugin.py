"""Graenaland as a Skald plug-in: everything the game brings, declared once (``sim.plugin``); registered
in ``pyproject.toml`` under the ``skald.games`` entry points."""

from sim.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="graenaland",
    title="Graenaland",
    description="the flagship: settling, negotiated resource distribution, buildings and heroes",
    game="sim.games.graenaland.game:GAME",
    strategies={
        "greedy": "strategies.graenaland:GreedyStrategy",
        "cooperative": "strategies.graenaland:CooperativeStrategy",
        "rival": "strategies.graenaland:RivalStrategy",
        "warlord": "strategies.graenaland:WarlordStrategy",
        "planner": "strategies.graenaland:PlannerStrategy",
    },
    sections="analysis.games.graenaland.sections:graenaland_sections",
    studies=("analysis.study.studies:start-positions.toml", "analysis.study.studies:three-player.toml"),
    data="sim/games/graenaland/data",
    own_seats=True,
    own_comparisons="analysis.games.graenaland.questions:compares_three_player",
    picture="sim.games.graenaland.picture:picture",
    describe="sim.games.graenaland.describe:describe",
    spaces="sim.games.graenaland.spaces",
    close_within=0.0,  # the score is the goals met (0 to 5): a close game is a tie on goals
    spread_margin=0.5,
)

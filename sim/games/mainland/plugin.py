"""Mainland as a Skald plug-in: everything the game brings, declared once (``sim.plugin``); registered
in ``pyproject.toml`` under the ``skald.games`` entry points."""

from sim.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="mainland",
    title="Mainland",
    description="tile laying on a shared board; score spreads by seat, strategy and player count",
    game="sim.games.mainland.game:GAME",
    strategies={
        "greedy": "strategies.mainland:GreedyStrategy",
        "builder": "strategies.mainland:BuilderStrategy",
        "raider": "strategies.mainland:RaiderStrategy",
    },
    sections="analysis.games.mainland.sections:mainland_sections",
    studies=("analysis.study.studies:mainland-scores.toml",),
    data="sim/games/mainland/data",
    own_seats=False,
    picture="sim.games.mainland.picture:picture",
    describe="sim.games.mainland.describe:describe",
    spaces="sim.games.mainland.spaces",
    close_within=2.0,  # a typical winning score is about 95; close as the game's own score section counts it
    spread_margin=5.0,
)

"""Knarr as a Skald plug-in: everything the game brings, declared once (``sim.plugin``); registered
in ``pyproject.toml`` under the ``skald.games`` entry points."""

from sim.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="knarr",
    title="Knarr",
    description="the Knarr base game with the skáli/raid expansion",
    game="sim.games.knarr.game:GAME",
    strategies={
        "greedy": "strategies.knarr:GreedyStrategy",
        "collector": "strategies.knarr:CollectorStrategy",
        "trader": "strategies.knarr:TraderStrategy",
        "hoarder": "strategies.knarr:HoarderStrategy",
        "architect": "strategies.knarr:ArchitectStrategy",
    },
    sections="analysis.games.knarr.sections:knarr_sections",
    studies=("analysis.study.studies:knarr.toml",),
    data="sim/games/knarr/data",
    own_seats=True,
    picture="sim.games.knarr.picture:picture",
    describe="sim.games.knarr.describe:describe",
    spaces="sim.games.knarr.spaces",
    close_within=2.0,  # a typical winning score is about 43
    spread_margin=2.0,
)

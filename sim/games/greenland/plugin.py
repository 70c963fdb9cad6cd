"""Greenland as a Skald plug-in: everything the game brings, declared once (``sim.plugin``); registered
in ``pyproject.toml`` under the ``skald.games`` entry points."""

from sim.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="greenland",
    title="Greenland",
    description="Greenland, third edition: tribes, hunts, elders and conversion",
    game="sim.games.greenland.game:GAME",
    strategies={
        "greedy": "strategies.greenland:GreedyStrategy",
        "spreader": "strategies.greenland:SpreaderStrategy",
        "elder": "strategies.greenland:ElderStrategy",
    },
    sections="analysis.games.greenland.sections:greenland_sections",
    studies=("analysis.study.studies:greenland.toml",),
    data="sim/games/greenland/data",
    own_seats=False,
    spaces="sim.games.greenland.spaces",
    picture="sim.games.greenland.picture:picture",
    describe="sim.games.greenland.describe:describe",
    # ismcts's playouts cut at 60 decision points and 24 iterations: a full Greenland playout is hundreds
    # of decisions of the greedy strategy, so at the general defaults a decision is slow. Chosen for
    # cost, not strength: at them the search plays about as well as greedy, no better (its measured
    # strength is in docs/search.md), with cut playouts judged by the fitted ``evaluate`` (greenland.value)
    search="iterations=24:depth=60",
    close_within=1.0,  # a typical winning score is about 25
    spread_margin=1.0,
)

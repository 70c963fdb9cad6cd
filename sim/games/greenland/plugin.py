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
    sections="analysis.sections.greenland:greenland_sections",
    studies=("analysis.studies:greenland.toml",),
    data="sim/games/greenland/data",
    own_seats=False,
    spaces="sim.games.greenland.spaces",
    picture="sim.games.greenland.picture:picture",
    describe="sim.games.greenland.describe:describe",
    # ismcts's playouts cut at 60 decision points and 24 iterations: a full Greenland playout is about
    # 300 decisions of the greedy strategy, 40 of them a decision cost over a second. Chosen
    # for cost: at them the search won 0.502 (0.438-0.567) of 200 two-player games against greedy, and
    # 0.505 (0.441-0.569) with the cut playouts judged by the fitted ``evaluate`` (greenland.value)
    search="iterations=24:depth=60",
    close_within=1.0,  # a typical winning score is about 25
    spread_margin=1.0,
)

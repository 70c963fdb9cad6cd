"""Graenaland (Vlaada Chvatil, 2006): rulebook ../shared/rules/graenaland.txt."""

from sim.engines import select_engine

#: the modules the build compiles with mypyc (``sim.engines``): the rules, a seat's view, the
#: determinization a search samples from and the turn log's rows; not the state's dataclass (copied
#: through its ``__dict__``), the pictures or the descriptions
COMPILED_MODULES = (
    "board",
    "options",
    "production",
    "votes",
    "distribution",
    "heroes",
    "reach",
    "victory",
    "building",
    "advanced",
    "rules",
    "view",
    "hidden",
    "turns",
)
#: ``compiled`` where the build compiled them and they are current, else ``python``
ENGINE = select_engine(__name__, COMPILED_MODULES)

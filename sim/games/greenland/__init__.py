"""Greenland (third edition)."""

from sim.engines import select_engine

#: the modules the build compiles with mypyc (``sim.engines``): the rules, a seat's view and the
#: determinization a search samples from; not the state's dataclass, the data tables, the fitted value
#: model (numpy), the pictures or the descriptions
COMPILED_MODULES = (
    "table",
    "scoring",
    "order",
    "transport",
    "assignment",
    "animals",
    "bribes",
    "dice",
    "elders",
    "events",
    "flow",
    "hunt",
    "negotiation",
    "setup",
    "rules",
    "view",
    "hidden",
)
#: ``compiled`` where the build compiled them and they are current, else ``python``
ENGINE = select_engine(__name__, COMPILED_MODULES)

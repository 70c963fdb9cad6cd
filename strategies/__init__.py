"""Scripted and search strategies, found by name through ``sim.specs``."""

from sim.engines import select_engine

#: the strategies the build compiles with mypyc (``sim.engines``), with the game they play
COMPILED_MODULES = ("graenaland", "greenland")
#: ``compiled`` where the build compiled them and they are current, else ``python``
ENGINE = select_engine(__name__, COMPILED_MODULES)

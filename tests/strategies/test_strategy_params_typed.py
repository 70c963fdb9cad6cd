"""Strategy parameters declared for the type checker (CI runs mypy on ``strategies/``).

``Strategy.__init__`` sets one instance attribute per entry of ``params`` (``setattr``), which a type
checker cannot follow; each strategy base class therefore annotates those attributes. These tests keep
the annotations and ``params`` in step: a parameter added without its annotation, or annotated with
another type than the one its value is converted to, fails here.
"""

from __future__ import annotations

import importlib.util
import sys
import typing

import numpy as np
import pytest

from sim.engines import compiled_source
from sim.specs import builtin
from sim.specs import import_strategy as _import
from sim.strategy import Strategy

#: the modules whose strategies declare their parameters (strategies/mainland.py is being reworked for speed
#: in parallel and declares them in its own change)
DECLARED = ("strategies.greenland", "strategies.graenaland", "strategies.knarr", "strategies.random_play")

CLASSES = sorted(
    {cls for paths in builtin().values() for cls in map(_import, paths) if cls.__module__ in DECLARED},
    key=lambda cls: (cls.__module__, cls.__name__),
)


def test_the_declared_modules_have_strategies() -> None:
    assert {cls.__module__ for cls in CLASSES} == set(DECLARED)


def source_hints(cls: type[Strategy]) -> dict[str, typing.Any]:
    """The annotations of ``cls`` as its source declares them: a class compiled by mypyc (``sim.engines``)
    keeps no annotations of its instance attributes, so its module's ``.py`` file is loaded beside it."""
    path = compiled_source(cls.__module__)
    if path is None:
        return typing.get_type_hints(cls)
    name = f"_source_{cls.__module__.replace('.', '_')}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return typing.get_type_hints(getattr(sys.modules[name], cls.__name__))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}:{cls.__name__}")
def test_every_parameter_is_annotated_with_its_type(cls: type[Strategy]) -> None:
    hints = source_hints(cls)
    for key, (kind, _default) in cls.params.items():
        assert key in hints, f"{cls.__name__}.{key} is a parameter without an annotation"
        assert hints[key] is kind, f"{cls.__name__}.{key}: annotated {hints[key]}, converted by {kind}"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}:{cls.__name__}")
def test_an_instance_holds_each_parameter_as_its_annotated_type(cls: type[Strategy]) -> None:
    strategy = cls(0, np.random.default_rng(0))
    hints = source_hints(cls)
    for key, (_kind, default) in cls.params.items():
        value = getattr(strategy, key)
        assert type(value) is hints[key] and value == hints[key](default)

"""The player protocol: the ``Strategy`` base class every player subclasses, how it declares its
parameters (``Params``), how their values are read from the command line (``convert``) and how a
strategy is described to its users (``Parameter``, ``describe``)."""

from __future__ import annotations

import ast
import inspect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from sim.engines import compiled_source

#: a strategy's parameter declaration: parameter name -> (type, default); values arrive as strings
#: from the command line (``builder:aggression=0.7``) and are converted to the type by ``convert``
Params = dict[str, tuple[type, Any]]


class Strategy:
    """A scripted player.

    The runner makes a fresh instance for every game and seat, so a strategy may keep
    memory of what it saw during the game in ``self``.  It only ever receives its own
    player's view (``game.view(state, seat)``), never the full state.

    Subclasses set ``name`` and ``games`` (the games they play; ``("*",)`` for any game)
    and implement ``choose``.  Keyword parameters come from the command line
    (``builder:aggression=0.7``) as strings and are converted by ``params``.
    """

    name: ClassVar[str] = "strategy"
    games: ClassVar[tuple[str, ...]] = ("*",)
    #: parameter name -> (type, default); values arrive as strings from the command line
    params: ClassVar[Params] = {}
    #: False for a strategy whose ``choose`` never looks at its view: the runner then passes
    #: ``None`` instead of building one (a measurable share of a decision in the fast games)
    reads_view: ClassVar[bool] = True

    def __init__(self, seat: int, rng: np.random.Generator, **params: Any) -> None:
        self.seat = seat
        self.rng = rng
        for key, (kind, default) in self.params.items():
            setattr(self, key, convert(key, kind, params.pop(key)) if key in params else kind(default))
        if params:
            allowed = ", ".join(sorted(self.params)) or "none"
            raise ValueError(
                f"unknown parameter(s) {', '.join(sorted(params))} for strategy {self.name!r}"
                f" (allowed: {allowed})"
            )

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        """Return one element of ``options``."""
        raise NotImplementedError

    def check_game(self, game: str) -> None:
        """Check the parameters whose meaning depends on the game (a strategy spec of it, say) when a spec
        is parsed for ``game``; raise ``ValueError`` naming what is allowed.  Nothing to check here."""

    #: the parameter holding a time budget (a search's ``ms``): a spec that sets it to more than 0 makes
    #: its games depend on the machine's speed, and the run's manifest says so (``sim.plan``)
    time_budget: ClassVar[str | None] = None

    def telemetry(self) -> dict[str, float] | None:
        """What this player spent in its game, for ``skald bench`` and run summaries: None for a
        scripted strategy; a search reports ``decisions`` searched, ``iterations`` and ``seconds``."""
        return None


#: a parameter's type in words, for the errors of ``convert``
KINDS = {int: "a whole number", float: "a finite number", bool: "true or false"}
_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


def convert(key: str, kind: type, value: Any) -> Any:
    """A parameter's value as its ``kind``; a ``ValueError`` naming ``key`` and what it takes otherwise.

    A number must be finite (``nan`` and ``inf`` are refused) and a bool is written true/false, 1/0,
    yes/no or on/off."""
    try:
        if kind is bool and isinstance(value, str):
            word = value.strip().lower()
            if word not in _TRUE | _FALSE:
                raise ValueError(value)
            return word in _TRUE
        result = kind(value)
    except (TypeError, ValueError):
        raise ValueError(f"{key} must be {KINDS.get(kind, kind.__name__)}, not {value!r}") from None
    if isinstance(result, float) and not math.isfinite(result):
        raise ValueError(f"{key} must be a finite number, not {value!r}")
    return result


# --------------------------------------------------------------------------- a strategy in words

#: what a parameter of each type takes when nothing narrower is said
TYPE_RANGES = {float: "any number", int: "any whole number", str: "text", bool: "true or false"}


@dataclass(frozen=True)
class Parameter:
    """One strategy parameter as ``skald strategies`` and the docs show it."""

    name: str
    kind: str  # the type's name: float, int, str
    default: Any
    values: str  # the values it takes, in words
    meaning: str  # what it does ("" where the source says nothing)


def describe(cls: type[Strategy]) -> str:
    """The first paragraph of the strategy's docstring in plain words: its lines joined, reST literals
    unquoted, source citations in brackets left out."""
    paragraph = (inspect.getdoc(cls) or _source_class(cls)[0]).split("\n\n")[0]
    text = " ".join(line.strip() for line in paragraph.splitlines())
    text = re.sub(r"``([^`]*)``", r"\1", text)
    text = re.sub(r"\s*\((?:[^()]*?, )?[\w-]+\.(?:txt|py|md)(?::[\d-]+)?\)", "", text)
    return text.strip()


def _source_class(cls: type) -> tuple[str, str]:
    """(docstring, source text) of ``cls`` read from the ``.py`` file beside its module, for a class
    compiled by mypyc (``sim.engines``), which keeps neither; ("", "") where there is no such file."""
    path = compiled_source(cls.__module__)
    if path is None:
        return "", ""
    text = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return inspect.cleandoc(ast.get_docstring(node) or ""), ast.get_source_segment(text, node) or ""
    return "", ""


def source_comments(cls: type[Strategy]) -> dict[str, str]:
    """The comment beside each entry of ``params`` in the source of ``cls`` and its bases."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            source = _source_class(klass)[1]  # a class compiled by mypyc (sim.engines): its .py file
        for match in re.finditer(r'^\s*"(\w+)": \([^)]*\),\s*#\s*(.+)$', source, re.MULTILINE):
            found[match.group(1)] = match.group(2).strip()
    return found

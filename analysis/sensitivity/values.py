"""The values a sensitivity screen varies: found in a game's data file from its ``source = "reconstructed"``
marks (``sim.datafile``: every packaged value is marked printed with a ``ref`` or reconstructed with a
``reason``), or declared in the screen's file.

Each value becomes a ``analysis.tune.params.Parameter`` (a tune's parameter: a data path or a rule
switch) whose options are what the screen's grid of ``levels`` picks from.  Kinds found by themselves:

* ``number``: a marked entry ``{ value = N, ... }`` (``counts.plain``): ``levels`` evenly spaced values
  from ``low`` to ``high`` (default: the value ``* (1 - spread)`` to ``* (1 + spread)``), rounded to whole
  numbers for an integer (half up, never below 0);
* ``switch``: a marked entry holding true or false: both;
* ``scale``: a marked table of numbers (a cost ``{ ore = 3, wood = 2 }``, a board's ``rows`` and
  ``cols``, a card's numbers and its mixes of numbers): every number multiplied by a common factor from
  ``1 - spread`` to ``1 + spread`` (rounded as above); its text, lists and true/false fields stay.

A marked value of text or lists (a layout, a deck's faces, an event's icons, Knarr's raid assets) has no
range of its own: it is listed as not varied until the file gives its alternatives (``values = [...]``
in a ``[[values]]`` table, a ``choice``).  A value whose lowest or highest option the game refuses
(Mainland's land counts must match its deck) is left out with the game's reason.
"""

from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass
from typing import Any

from analysis.tune.params import Parameter, label

KINDS = ("number", "switch", "scale", "choice", "rule")
_NOTES = ("source", "ref", "reason")
_NAME_KEYS = ("id", "name")


@dataclass(frozen=True)
class Found:
    """A value marked reconstructed: its name, data path, kind (or None) and the reason it is not varied."""

    name: str
    target: str
    kind: str | None
    base: Any
    why: str = ""


def half_up(x: float) -> int:
    """``x`` rounded to a whole number, halves up, never below 0."""
    return max(0, math.floor(x + 0.5))


def grid(low: float, high: float, levels: int, whole: bool) -> list[Any]:
    """``levels`` evenly spaced values from ``low`` to ``high`` (whole numbers rounded half up)."""
    steps = [low + (high - low) * i / (levels - 1) for i in range(levels)]
    return [half_up(x) for x in steps] if whole else [round(x, 6) for x in steps]


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _numbers_of(table: dict[str, Any]) -> dict[str, Any]:
    """The fields of a marked table that ``scale`` changes: numbers and tables of numbers (not its notes)."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key.endswith(_NOTES):
            continue
        if _number(value):
            out[key] = value
        elif isinstance(value, dict) and value and all(_number(v) for v in value.values()):
            out[key] = value
    return out


def scaled(numbers: dict[str, Any], factor: float) -> dict[str, Any]:
    """Every number of ``numbers`` (and of its tables) times ``factor``; integers rounded half up."""

    def one(x: Any) -> Any:
        return half_up(x * factor) if isinstance(x, int) else round(x * factor, 6)

    return {
        k: ({kk: one(vv) for kk, vv in v.items()} if isinstance(v, dict) else one(v))
        for k, v in numbers.items()
    }


def _step(node: dict[str, Any], i: int) -> str:
    for key in _NAME_KEYS:
        ident = node.get(key)
        if isinstance(ident, (str, int)) and not isinstance(ident, bool) and "]" not in str(ident):
            return f"[{key}={ident}]"
    return f"[{i}]"


def _classify(name: str, target: str, table: dict[str, Any], prefix: str) -> Found:
    if prefix:
        return Found(name, target, None, None, "its values share a mark with others: give its alternatives")
    if "value" in table:
        value = table["value"]
        if isinstance(value, bool):
            return Found(name, target + ".value", "switch", value)
        if _number(value):
            return Found(name, target + ".value", "number", value)
        if isinstance(value, dict) and value and all(_number(v) for v in value.values()):
            return Found(name, target + ".value", "scale", value)
        return Found(name, target + ".value", None, value, "text or a list: give its alternatives")
    numbers = _numbers_of(table)
    if numbers:
        return Found(name, target, "scale", numbers)
    return Found(name, target, None, None, "no numbers of its own (text or lists): give its alternatives")


def _walk(node: Any, target: str, name: str, out: list[Found]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("source") and value == "reconstructed":
                prefix = key[: -len("source")]
                shown = name + (f".{prefix.rstrip('_')}" if prefix else "")
                out.append(_classify(shown, target, node, prefix))
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                step = f"{target}.{key}" if target and not target.endswith(":") else f"{target}{key}"
                _walk(
                    value, step, f"{name}.{key}" if name and not name.endswith(":") else f"{name}{key}", out
                )
    elif isinstance(node, list):
        for i, item in enumerate(node):
            if isinstance(item, dict):
                step = _step(item, i)
                _walk(item, target + step, name + step, out)


def find(docs: dict[str | None, Any]) -> list[Found]:
    """Every value marked reconstructed in a data file (``{None: doc}``) or folder (``{file: doc}``), in
    file order; a folder's paths start ``FILE.toml:``."""
    out: list[Found] = []
    for file, doc in docs.items():
        _walk(doc, f"{file}:" if file else "", f"{str(file).removesuffix('.toml')}:" if file else "", out)
    return out


def matches(name: str, pattern: str) -> bool:
    """Whether a value's ``name`` is ``pattern`` or matches it (``fnmatch``: ``cards.*``); a name is its own
    pattern although its brackets (``cards[id=camp]``) would read as a set of characters."""
    return name == pattern or fnmatch.fnmatchcase(name, pattern)


def pick(found: list[Found], exclude: list[str]) -> list[Found]:
    """The values whose name matches none of the ``exclude`` patterns (``matches``)."""
    return [f for f in found if not any(matches(f.name, pat) for pat in exclude)]


def options(found: Found, levels: int, spread: float, low: float | None, high: float | None) -> Parameter:
    """The parameter of a found value with a kind: ``levels`` options (a switch: its two)."""
    if found.kind == "switch":
        return Parameter(
            found.name,
            "data",
            found.target,
            (found.base, not found.base),
            (label(found.base), label(not found.base)),
        )
    if found.kind == "number":
        whole = isinstance(found.base, int)
        lo = found.base * (1 - spread) if low is None else low
        hi = found.base * (1 + spread) if high is None else high
        values = grid(lo, hi, levels, whole)
        return Parameter(found.name, "data", found.target, tuple(values), tuple(label(v) for v in values))
    lo = 1 - spread if low is None else low
    hi = 1 + spread if high is None else high
    factors = grid(lo, hi, levels, False)
    return Parameter(
        found.name,
        "data",
        found.target,
        tuple(scaled(found.base, f) for f in factors),
        tuple(f"x{f:.2f}" for f in factors),
    )


def level_option(size: int, level: int, levels: int) -> int:
    """The option index of grid ``level`` (0..levels-1) for a value of ``size`` options: the identity
    when they are as many, else the option whose share of the unit interval holds the level's."""
    return level if size == levels else min(size - 1, level * size // levels)

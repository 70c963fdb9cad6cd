"""What a tune (and later a sensitivity screen) varies: parameters and how they address a game.

A parameter is one of:

* ``rule``: a rule switch (``rule = "castle_needs_overlap"``), its ``values`` (default: the switch's
  choices), passed to the runner as ``rules=`` exactly as ``skald run --rule`` does;
* ``data``: a value of the game's component data file addressed by a path (``path = "layout.3.coast"``,
  ``"cards[0].cost"``, ``"pieces[id=T35].village"``: dotted keys, ``[N]`` list positions, ``[key=value]``
  the list entry whose ``key`` is ``value``; for a data folder, ``"biomes.toml:..."`` names the file).
  A table replacing a table updates only the keys it names, so a layout's ``source`` and ``reason``
  stay;
* ``permutation``: every order of the list at ``path`` (a settling order), or the ``values`` given as
  index orders;
* ``file``: whole alternative data files (``values = ["a.toml", "b.toml"]``, relative to the tune
  file), applied before the data parameters;
* ``strategy``: one declared parameter of the tune's player (``[tune] player = "greedy"``,
  ``param = "life"``, ``values = [1.2, 1.8]``): the candidate's player is the player's spec with the
  candidate's values set (``player_spec``: ``greedy:life=1.8``), played wherever a table of the objective
  names ``PLAYER``.

``Parameter.options`` are the alternatives, ``Parameter.labels`` their short names; a candidate is one
option index per parameter, ``apply`` turns it into ``(rules, data document, data file)`` and
``player_spec`` into its player's strategy spec.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

KINDS = ("rule", "data", "permutation", "file", "strategy")
#: the strategy text that stands for the tuned player in an objective's tables (``[tune] player``)
PLAYER = "player"
#: the most orders a permutation parameter enumerates by itself (8! = 40,320)
MAX_ORDERS = 40_320
_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]|\[([A-Za-z0-9_-]+)=([^\]]+)\]")


class PathError(ValueError):
    """A data path that does not parse or does not lead to a value (the message says where it stops)."""


@dataclass(frozen=True)
class Step:
    """One step of a data path: a key, a list position, or the list entry whose ``field`` is ``match``."""

    key: str | None = None
    index: int | None = None
    field: str | None = None
    match: str | None = None

    def text(self) -> str:
        if self.key is not None:
            return self.key
        return f"[{self.index}]" if self.index is not None else f"[{self.field}={self.match}]"


def parse_path(path: str) -> tuple[str | None, tuple[Step, ...]]:
    """``"file.toml:a.b[0][id=X].c"`` as (file within a data folder or None, steps)."""
    file: str | None
    file, sep, rest = path.partition(":")
    if not sep:
        file, rest = None, path
    steps: list[Step] = []
    pos = 0
    while pos < len(rest):
        found = _STEP.match(rest, pos)
        if not found or found.end() == pos or (found.group(1) is not None and pos and rest[pos] != "."):
            raise PathError(f"cannot read {path!r} at {rest[pos:]!r} (write a.b, a[0] or a[id=X])")
        key, index, field, match = found.groups()
        if key is not None:
            steps.append(Step(key=key))
        elif index is not None:
            steps.append(Step(index=int(index)))
        else:
            steps.append(Step(field=field, match=match))
        pos = found.end()
    if not steps or rest.startswith("."):
        raise PathError(f"cannot read {path!r} (write a.b, a[0] or a[id=X])")
    return file, tuple(steps)


def _child(node: Any, step: Step, where: str) -> tuple[Any, Any]:
    """(container key, value) of ``step`` within ``node``."""
    if step.key is not None:
        if not isinstance(node, dict) or step.key not in node:
            have = ", ".join(sorted(node)) if isinstance(node, dict) else type(node).__name__
            raise PathError(f"{where or '(top)'} has no key {step.key!r} (it holds: {have[:200]})")
        return step.key, node[step.key]
    if not isinstance(node, list):
        raise PathError(f"{where} is not a list")
    if step.index is not None:
        if step.index >= len(node):
            raise PathError(f"{where} has {len(node)} entries, no [{step.index}]")
        return step.index, node[step.index]
    for i, item in enumerate(node):
        if isinstance(item, dict) and str(item.get(step.field)) == step.match:
            return i, item
    raise PathError(f"{where} has no entry with {step.field} = {step.match!r}")


def get(doc: Any, steps: tuple[Step, ...]) -> Any:
    """The value at ``steps``."""
    node, where = doc, ""
    for step in steps:
        _, node = _child(node, step, where)
        where = f"{where}.{step.text()}" if where and step.key is not None else where + step.text()
    return node


def put(doc: Any, steps: tuple[Step, ...], new: Any) -> None:
    """Set the value at ``steps`` (in place); a table put on a table updates the keys it names."""
    parent = get(doc, steps[:-1]) if len(steps) > 1 else doc
    slot, old = _child(parent, steps[-1], "")
    if isinstance(old, dict) and isinstance(new, dict):
        old.update(copy.deepcopy(new))
    else:
        parent[slot] = copy.deepcopy(new)


def label(value: Any) -> str:
    """A short name of an option."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass(frozen=True)
class Parameter:
    """One varied thing: its ``kind``, ``target`` (rule name, data path, or "" for files) and options."""

    name: str
    kind: str
    target: str
    options: tuple[Any, ...]
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.options)


def orders(length: int) -> list[tuple[int, ...]]:
    """Every order of ``length`` items, identity first (lexicographic)."""
    if math.factorial(length) > MAX_ORDERS:
        raise PathError(f"{length} items have {math.factorial(length):,} orders (at most {MAX_ORDERS:,})")
    return list(itertools.permutations(range(length)))


def permute(items: list[Any], order: tuple[int, ...]) -> list[Any]:
    if len(order) != len(items):
        raise PathError(f"an order of {len(order)} items cannot reorder a list of {len(items)}")
    return [copy.deepcopy(items[i]) for i in order]


def apply(
    params: list[Parameter], choice: tuple[int, ...], load: Any
) -> tuple[dict[str, Any], dict[str | None, Any], str | None]:
    """A candidate's ``(rules, data documents by file (None: a single-file game), alternative file)``.

    ``load(file)`` reads the base documents ``{file or None: doc}`` of a data file (None: the tune's
    base); they are changed in place, so it must return fresh copies.
    """
    rules: dict[str, Any] = {}
    alternative = next((p.options[i] for p, i in zip(params, choice, strict=True) if p.kind == "file"), None)
    docs: dict[str | None, Any] = {}
    touched = [(p, i) for p, i in zip(params, choice, strict=True) if p.kind in ("data", "permutation")]
    if touched:
        docs = load(alternative)
    for param, i in zip(params, choice, strict=True):
        if param.kind == "rule":
            rules[param.target] = param.options[i]
    for param, i in touched:
        file, steps = parse_path(param.target)
        if file not in docs:
            raise PathError(f"{param.name}: the data has no file {file!r}")
        doc = docs[file]
        new = param.options[i] if param.kind == "data" else permute(get(doc, steps), param.options[i])
        put(doc, steps, new)
    return rules, docs, alternative


def describe(params: list[Parameter], choice: tuple[int, ...]) -> dict[str, str]:
    """A candidate's option labels by parameter name."""
    return {p.name: p.labels[i] for p, i in zip(params, choice, strict=True)}


def spec_value(value: Any) -> str:
    """A strategy parameter's value as a spec writes it (``true``/``false`` for a bool)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def with_values(base: str, values: list[tuple[str, Any]]) -> str:
    """The spec ``base`` with each ``(key, value)`` set: a key the base already sets takes the new value,
    the others are appended in order (``with_values("greedy:life=2", [("life", 1.8), ("energy", 1)])`` is
    ``greedy:life=1.8:energy=1``)."""
    items = base.split(":")
    head = 0
    while head < len(items) and "=" not in items[head]:
        head += 1
    new = {key: spec_value(v) for key, v in values}
    kept = [item for item in items[head:] if item.partition("=")[0] not in new]
    return ":".join(items[:head] + kept + [f"{key}={text}" for key, text in new.items()])


def player_spec(base: str | None, params: list[Parameter], choice: tuple[int, ...]) -> str | None:
    """A candidate's player: ``base`` (the tune's player) with its ``strategy`` parameters' values set;
    None for a tune without a player."""
    if base is None:
        return None
    pairs = [(p.target, p.options[i]) for p, i in zip(params, choice, strict=True) if p.kind == "strategy"]
    return with_values(base, pairs)

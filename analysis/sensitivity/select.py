"""Which values a sensitivity file varies: the reconstructed ones found in the base data
(``analysis.sensitivity.values``), less ``exclude``, with the ``[[values]]`` tables' ranges, alternatives
and rule switches."""

from __future__ import annotations

import difflib
from typing import Any

from analysis.sensitivity import values as V
from analysis.sensitivity.screen import Sensitivity
from analysis.tune.check import base_docs, rule_values
from analysis.tune.params import Parameter, label
from analysis.tune.reader import Reader
from analysis.tune.spec import at, labels_of


def _bound(read: Reader, raw: dict[str, Any], key: str, where: str) -> float | None:
    if key not in raw:
        return None
    return read.number(raw[key], f"{where}.{key}", -1e9, 1e9)


def _rule(
    read: Reader, spec: Sensitivity, game: Any, raw: dict[str, Any], where: str
) -> tuple[Parameter, str]:
    rule = read.str(raw.get("rule"), f"{where}.rule")
    name = read.str(raw.get("name", rule), f"{where}.name")
    low, high = _bound(read, raw, "low", where), _bound(read, raw, "high", where)
    if low is not None and high is not None:
        whole = isinstance(raw["low"], int) and isinstance(raw["high"], int)
        opts = rule_values(read, game, rule, V.grid(low, high, spec.levels, whole), f"{where}.values")
        return Parameter(name, "rule", rule, tuple(opts), tuple(label(o) for o in opts)), "number"
    opts = rule_values(read, game, rule, raw.get("values"), f"{where}.values")
    return Parameter(name, "rule", rule, tuple(opts), labels_of(read, raw, where, opts)), "choice"


def _data(
    read: Reader,
    spec: Sensitivity,
    docs: dict[str | None, Any],
    found: dict[str, V.Found],
    raw: dict[str, Any],
    where: str,
) -> tuple[Parameter, str]:
    path = read.str(raw.get("path"), f"{where}.path")
    known = found.get(path) or next((f for f in found.values() if f.target == path), None)
    target = known.target if known else path
    current = at(read, docs, target, f"{where}.path")
    name = read.str(raw.get("name", known.name if known else path), f"{where}.name")
    low, high = _bound(read, raw, "low", where), _bound(read, raw, "high", where)
    if "values" in raw:
        opts = raw["values"]
        if not isinstance(opts, list) or len(opts) < 2:
            raise read.fail(f"{where}.values must list two or more alternatives")
        return Parameter(name, "data", target, tuple(opts), labels_of(read, raw, where, opts)), "choice"
    if known is not None and known.kind is not None:
        kind = known.kind
        base = known
    elif isinstance(current, bool):
        kind, base = "switch", V.Found(name, target, "switch", current)
    elif isinstance(current, (int, float)):
        kind, base = "number", V.Found(name, target, "number", current)
    elif isinstance(current, dict) and V._numbers_of(current):
        kind, base = "scale", V.Found(name, target, "scale", V._numbers_of(current))
    else:
        raise read.fail(f"{where}.path {path!r} holds no number: give its alternatives as values = [...]")
    if kind == "switch" and (low is not None or high is not None):
        raise read.fail(f"{where}: {path!r} is true or false (no low/high)")
    param = V.options(V.Found(name, base.target, kind, base.base), spec.levels, spec.spread, low, high)
    return param, kind


#: the most names an error lists when a pattern of ``exclude`` matches none
SHOWN = 30


def check_exclude(read: Reader, exclude: list[str], names: list[str]) -> None:
    """Refuse an ``exclude`` pattern that matches no reconstructed value (a typo would otherwise leave the
    value it meant in the screen without a word), naming the values there are (the nearest ones first when
    they are many)."""
    for pattern in exclude:
        if any(V.matches(name, pattern) for name in names):
            continue
        if not names:
            raise read.fail(
                f"sensitivity.exclude {pattern!r} matches no value: the data marks none reconstructed"
            )
        near = difflib.get_close_matches(pattern, names, n=5, cutoff=0.5)
        shown = near + [n for n in names if n not in near][: SHOWN - len(near)]
        more = f", ... ({len(names)} in all)" if len(shown) < len(names) else ""
        raise read.fail(
            f"sensitivity.exclude {pattern!r} matches no reconstructed value (allowed: their names or fnmatch"
            f" patterns of them: {', '.join(shown)}{more})"
        )


def select(read: Reader, spec: Sensitivity, game: Any, declared: list[dict[str, Any]]) -> None:
    """Fill ``spec.parameters``, ``spec.kinds`` and ``spec.not_varied`` (in place)."""

    docs = base_docs(spec, game) if game.default_data_path is not None or spec.data else {}
    check_exclude(read, spec.exclude, [f.name for f in V.find(docs)])
    found = {f.name: f for f in V.pick(V.find(docs), spec.exclude)} if spec.mode == "reconstructed" else {}
    chosen: dict[str, tuple[Parameter, str]] = {}
    for f in found.values():
        if f.kind is not None:
            chosen[f.name] = (V.options(f, spec.levels, spec.spread, None, None), f.kind)
    for i, raw in enumerate(declared):
        where = f"values[{i}]"
        kind = raw.get("kind", "data")
        if kind == "rule":
            param, k = _rule(read, spec, game, raw, where)
        elif kind == "data":
            if not docs:
                raise read.fail(
                    f"{where}: {game.name} has no data file (vary its rule switches: kind = 'rule')"
                )
            param, k = _data(read, spec, docs, found, raw, where)
        else:
            raise read.fail(f"{where}.kind {kind!r} is not allowed (allowed: data, rule)")
        old = next((n for n, (p, _) in chosen.items() if p.target == param.target), None)
        if old is not None:
            del chosen[old]
        elif param.name in chosen:
            raise read.fail(f"{where}.name {param.name!r} is used twice (give each value its own name)")
        chosen[param.name] = (param, k)
    targets = {p.target for p, _ in chosen.values()}
    spec.parameters = [p for p, _ in chosen.values()]
    spec.kinds = [k for _, k in chosen.values()]
    spec.not_varied = [
        {"name": f.name, "path": f.target, "why": f.why}
        for f in found.values()
        if f.kind is None and f.target not in targets
    ]

"""Rule switches from the command line, and the hash that identifies a rule set.

``--rule NAME=VALUE`` values arrive as strings and are converted to the type of the
switch's default (bools accept true/false/1/0/yes/no/on/off) and checked against its
choices.  ``rules_hash`` fingerprints game name, every rule value (defaults filled in) and
the component data file, so records from different rule sets are never mixed up.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sim.errors import SkaldError
from sim.game import Game, RuleSwitch

_TRUE = {"true", "1", "yes", "on", "y", "t"}
_FALSE = {"false", "0", "no", "off", "n", "f"}


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` -> ``{"a": "1", "b": "x"}``; a ``SkaldError`` for an item without ``=`` or a rule
    given twice (which value was meant is not for Skald to guess)."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not name:
            raise SkaldError(f"bad --rule {item!r} (expected NAME=VALUE)")
        if name in out:
            raise SkaldError(
                f"--rule {name} is given twice ({name}={out[name]}, {name}={value}): give each rule once"
            )
        out[name] = value
    return out


def convert(switch: RuleSwitch, value: Any) -> Any:
    """``value`` as the type of ``switch.default``, checked against ``switch.choices``."""
    default = switch.default
    allowed = ", ".join(map(_show, switch.choices)) if switch.choices else None
    try:
        if isinstance(default, bool):
            if isinstance(value, bool):
                result: Any = value
            elif str(value).strip().lower() in _TRUE:
                result = True
            elif str(value).strip().lower() in _FALSE:
                result = False
            else:
                raise ValueError(value)
        elif isinstance(default, int):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            result = int(value)
        elif isinstance(default, float):
            result = float(value)
        elif isinstance(default, str):
            result = str(value)
        elif default is None:  # untyped switch: a choice matched by its text, else the value as given
            result = next((c for c in switch.choices if _show(c) == str(value)), value)
        else:
            result = type(default)(value)
    except (TypeError, ValueError):
        kind = "true/false" if isinstance(default, bool) else type(default).__name__
        hint = f"allowed: {allowed}" if allowed else f"expected {kind}"
        raise SkaldError(f"bad value {value!r} for rule {switch.name!r} ({hint})") from None
    if switch.choices and result not in switch.choices:
        raise SkaldError(f"bad value {value!r} for rule {switch.name!r} (allowed: {allowed})")
    return result


def resolve(game: Game, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Every rule switch of ``game`` with its default, then ``overrides`` applied and checked."""
    switches = {s.name: s for s in game.rule_switches}
    for name in overrides:
        if name not in switches:
            allowed = ", ".join(switches) or "none"
            raise SkaldError(f"unknown rule {name!r} for {game.name} (allowed: {allowed})")
    return {
        name: convert(s, overrides[name]) if name in overrides else s.default for name, s in switches.items()
    }


def file_sha1(path: str | Path) -> str:
    """The sha1 of a file's bytes."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def data_identity(game: Game, data: Any, path: str | Path | None) -> tuple[str | None, str | None]:
    """(path, sha1) of the component data in use.

    Uses ``data.path``/``data.sha1`` when the loaded data carries them, else the file given,
    else ``game.default_data_path`` (declared by ``Game``); (None, None) when there is no file.
    """
    sha1 = getattr(data, "sha1", None)
    if isinstance(sha1, str):
        return str(getattr(data, "path", path) or path or ""), sha1
    if path is None:
        path = game.default_data_path
    if path is None:
        return None, None
    return str(path), file_sha1(path)


def rules_hash(game_name: str, rules: Mapping[str, Any], data_sha1: str | None) -> str:
    """sha1 of the canonical JSON of game name, rules (defaults filled in) and data file hash."""
    blob = json.dumps(
        {"game": game_name, "rules": dict(rules), "data_sha1": data_sha1},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha1(blob.encode()).hexdigest()


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)

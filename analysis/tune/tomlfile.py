"""Writing a component data document back to TOML (the standard library reads TOML but cannot write it).

``dumps(doc)`` gives text that ``tomllib.loads`` reads back to ``doc`` exactly (tested on every packaged
data file): top-level tables become ``[headers]``, lists of tables ``[[headers]]``, small tables of
plain values inside them inline tables (``village = { grain = 2, wood = 2 }``, as the packaged files
write them).  Comments are not kept: ``header`` lines go first as ``#`` comments instead.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
#: a table of at most this many plain values is written inline
INLINE_KEYS = 8


def key(name: str) -> str:
    """A key bare when TOML allows it, else quoted."""
    return name if _BARE.match(name) else json.dumps(name)


def value(item: Any) -> str:
    """One TOML value (strings, numbers, booleans, arrays, inline tables)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if math.isnan(item):
            return "nan"
        if math.isinf(item):
            return "inf" if item > 0 else "-inf"
        return repr(item)
    if isinstance(item, str):
        return json.dumps(item, ensure_ascii=False)
    if isinstance(item, list):
        return "[" + ", ".join(value(x) for x in item) + "]"
    if isinstance(item, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }" if item else "{}"
    raise TypeError(f"cannot write {type(item).__name__} to TOML")


def _plain(item: Any) -> bool:
    return not isinstance(item, dict) and not _table_list(item)


def _table_list(item: Any) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(x, dict) for x in item)


def _inline(item: Any) -> bool:
    """A small table of plain values (or an empty one), written inline."""
    return (
        isinstance(item, dict)
        and len(item) <= INLINE_KEYS
        and all(not isinstance(v, dict) and not _table_list(v) for v in item.values())
    )


def _body(table: dict[str, Any], prefix: str, lines: list[str], nested: bool) -> None:
    """``table``'s plain keys, then its sub-tables and lists of tables under ``prefix`` headers."""
    for k, v in table.items():
        if _plain(v) or (nested and _inline(v)):
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in table.items():
        name = f"{prefix}.{key(k)}" if prefix else key(k)
        if isinstance(v, dict) and not (nested and _inline(v)):
            if not v or any(_plain(x) or (nested and _inline(x)) for x in v.values()):
                lines.extend(["", f"[{name}]"])  # a table of tables alone needs no header of its own
            _body(v, name, lines, nested)
        elif _table_list(v):
            for item in v:
                lines.extend(["", f"[[{name}]]"])
                _body(item, name, lines, True)


def dumps(doc: dict[str, Any], header: list[str] | None = None) -> str:
    """``doc`` as TOML text, after ``header`` as comment lines."""
    lines = [f"# {line}".rstrip() for line in header or []]
    _body(doc, "", lines, False)
    return "\n".join(lines).strip("\n") + "\n"

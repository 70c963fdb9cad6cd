"""Reading a game's component data file (TOML) with one-line errors for the user.

Every game describes its file once, declaratively, with the small checks below (``integer``,
``boolean``, ``text``, ``array``, ``fixed``, ``mapping``, ``table``, ``entry``, ``tables``);
``load_data_file`` reads the file, checks it against that schema and hands the checked document to the game's
builder, which checks what spans tables (references between them, totals) with ``fail``.

A problem is one ``SkaldError`` line naming the file, the table/key path, what is wrong and what
is allowed, for example::

    data file 'mine.toml' is malformed: pieces.U1.coastal: got the string 'abc'; allowed: true or false
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from sim.errors import SkaldError, one_line

T = TypeVar("T")

#: the largest count a data file may hold (decks, tokens, set-up values): far above any component
#: count, small enough that a typo cannot make a run build a deck of a billion cards
MAX_COUNT = 1000
#: where a value comes from (the header of every packaged data file)
SOURCES = ("printed", "reconstructed")
#: the key that must go with each source
SOURCE_NOTE = {"printed": "ref", "reconstructed": "reason"}
_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_.*-]{1,40}$")


class DataError(ValueError):
    """A data file problem: ``where`` (table/key path) and the message (what is wrong, what is allowed)."""


class Reading:
    """State of one check: the names of the values marked reconstructed, in file order."""

    def __init__(self) -> None:
        self.reconstructed: list[str] = []


#: a check: (value, where, reading) -> None, raising ``DataError`` for a bad value
Check = Callable[[Any, str, Reading], None]


def fail(where: str, what: str, allowed: str | None = None) -> NoReturn:
    """Raise the one-line error for ``where`` (a table/key path; "" is the top level)."""
    message = f"{where or '(top level)'}: {what}"
    raise DataError(f"{message}; allowed: {allowed}" if allowed else message)


def key_text(key: object) -> str:
    """A key or id as it appears in a path: plain names bare, anything else quoted."""
    text = str(key)
    return text if _PLAIN_KEY.match(text) else repr(text)[:42]


def join(where: str, key: object) -> str:
    """The path of ``key`` inside ``where``."""
    return f"{where}.{key_text(key)}" if where else key_text(key)


def describe(value: object) -> str:
    """What a value is, for an error message (kept short and on one line)."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = repr(value)
        return f"the string {shown if len(shown) <= 42 else shown[:38] + '...' + shown[0]}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def names(choices: Sequence[object]) -> str:
    """``a, b, c`` for an allowed-values list."""
    return ", ".join(str(c) for c in choices) if choices else "none"


# --------------------------------------------------------------------------- leaf checks


def integer(lo: int = 0, hi: int = MAX_COUNT) -> Check:
    """A whole number in lo..hi (a boolean or a float is not a whole number)."""
    allowed = f"a whole number {lo}..{hi}"

    def check(value: Any, where: str, reading: Reading) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            fail(where, f"got {describe(value)}", allowed)
        if not lo <= value <= hi:
            fail(where, f"got {value}", allowed)

    return check


def boolean() -> Check:
    """``true`` or ``false`` (not a string or a number)."""

    def check(value: Any, where: str, reading: Reading) -> None:
        if not isinstance(value, bool):
            fail(where, f"got {describe(value)}", "true or false")

    return check


def text(
    choices: Sequence[str] | None = None,
    *,
    pattern: str | None = None,
    shape: str = "a non-empty string",
    empty: bool = False,
) -> Check:
    """A string: one of ``choices``, or matching ``pattern`` (described by ``shape``), or any non-empty one.

    ``empty=True`` also allows "" (an empty slot).
    """
    regex = re.compile(pattern) if pattern else None
    allowed = (f"one of {names(choices)}" if choices is not None else shape) + (' or ""' if empty else "")

    def check(value: Any, where: str, reading: Reading) -> None:
        if not isinstance(value, str):
            fail(where, f"got {describe(value)}", allowed)
        if value == "" and empty:
            return
        if (
            not value.strip()
            or (choices is not None and value not in choices)
            or (regex is not None and not regex.fullmatch(value))
        ):
            fail(where, f"got {describe(value)}", allowed)

    return check


# --------------------------------------------------------------------------- containers


def array(
    item: Check,
    size: int | None = None,
    *,
    min_size: int = 0,
    max_size: int = MAX_COUNT,
    rising: bool = False,
) -> Check:
    """A list whose items pass ``item``: exactly ``size`` long, or min_size..max_size long.

    ``rising=True``: each item is at least the one before (thresholds, cumulative counts).
    """
    lo, hi = (size, size) if size is not None else (min_size, max_size)
    allowed = f"a list of {lo}" if lo == hi else f"a list of {lo}..{hi} items"

    def check(value: Any, where: str, reading: Reading) -> None:
        if not isinstance(value, list):
            fail(where, f"got {describe(value)}", allowed)
        if not lo <= len(value) <= hi:
            fail(where, f"got {describe(value)}", allowed)
        for i, x in enumerate(value):
            item(x, f"{where}[{i}]", reading)
        if rising and any(b < a for a, b in zip(value, value[1:], strict=False)):
            fail(where, f"got {value!r}"[:80], "values that never decrease")

    return check


def fixed(*items: Check, shape: str | None = None) -> Check:
    """A list of exactly ``len(items)`` values, the i-th passing ``items[i]`` (a mixed-type pair such as
    ``["sea", 1]``: ``fixed(text(TYPES), integer(1, 6), shape="[biome type, count]")``).

    ``shape`` names the parts in the allowed-values text (``a list of 2: [biome type, count]``).
    """
    if not items:
        raise ValueError("fixed() needs at least one item check")
    allowed = f"a list of {len(items)}" + (f": {shape}" if shape else "")

    def check(value: Any, where: str, reading: Reading) -> None:
        if not isinstance(value, list) or len(value) != len(items):
            fail(where, f"got {describe(value)}", allowed)
        for i, (item, x) in enumerate(zip(items, value, strict=True)):
            item(x, f"{where}[{i}]", reading)

    return check


def _keys_of(value: Any, where: str, allowed: str) -> dict:
    if not isinstance(value, dict):
        fail(where, f"got {describe(value)}", allowed)
    return value


def _unknown(where: str, key: object, allowed: Sequence[str], hint: str | None) -> NoReturn:
    fail(where, f"unknown key {key_text(key)}" + (f" ({hint})" if hint else ""), names(allowed))


def mapping(
    keys: Sequence[str],
    value: Check,
    *,
    min_size: int = 1,
    every: bool = False,
    hint: str | None = None,
) -> Check:
    """A table from some of ``keys`` (all of them with ``every=True``) to values passing ``value``.

    ``hint`` explains a refused key (why it is not among ``keys``).
    """
    allowed = f"a table with keys from {names(keys)}"

    def check(table: Any, where: str, reading: Reading) -> None:
        table = _keys_of(table, where, allowed)
        for key in table:
            if key not in keys:
                _unknown(where, key, keys, hint)
        missing = [k for k in keys if k not in table] if every else []
        if missing:
            fail(where, f"missing {names(missing)}", f"every one of {names(keys)}")
        if len(table) < min_size:
            fail(where, "is empty", allowed)
        for key, x in table.items():
            value(x, join(where, key), reading)

    return check


def _provenance(table: dict, where: str, prefix: str, reading: Reading) -> None:
    """``{prefix}source`` is printed with a ``{prefix}ref`` or reconstructed with a ``{prefix}reason``."""
    label = prefix + "source"
    need = f"{label} = 'printed' with a {prefix}ref, or 'reconstructed' with a {prefix}reason (strings)"
    source = table.get(label)
    if source not in SOURCES:
        fail(where, f"needs {label}: got {'none' if source is None else describe(source)}", need)
    note, other = prefix + SOURCE_NOTE[source], prefix + SOURCE_NOTE[SOURCES[1 - SOURCES.index(source)]]
    if not isinstance(table.get(note), str) or not table[note].strip():
        got = "none" if note not in table else describe(table[note])
        fail(where, f"needs {label}: {label} = {source!r} needs a {note}, got {got}", need)
    if other in table:
        fail(where, f"needs {label}: {other} goes with the other source, not {source!r}", need)
    if source == "reconstructed":
        reading.reconstructed.append(where if not prefix else join(where, prefix.rstrip("_")))


def provenance_keys(prefix: str = "") -> tuple[str, ...]:
    """The keys that mark where a value comes from."""
    return (prefix + "source", prefix + "ref", prefix + "reason")


def table(
    fields: Mapping[str, Check],
    optional: Mapping[str, Check] | None = None,
    *,
    sourced: bool | Sequence[str] = False,
    hint: str | None = None,
) -> Check:
    """A table with exactly the keys of ``fields`` (each required) and maybe those of ``optional``.

    ``sourced=True`` adds source/ref/reason (the value's provenance, required); a list of
    prefixes (``["rows_", "raid_"]``) adds one provenance per prefix (``rows_source`` ...).
    ``hint`` explains a refused key.
    """
    optional = dict(optional or {})
    prefixes: tuple[str, ...] = ("",) if sourced is True else tuple(sourced or ())
    allowed_keys = [*fields, *optional, *(k for p in prefixes for k in provenance_keys(p))]

    def check(value: Any, where: str, reading: Reading) -> None:
        value = _keys_of(value, where, f"a table with {names(allowed_keys)}")
        for key in value:
            if key not in allowed_keys:
                _unknown(where, key, allowed_keys, hint)
        for key, x in value.items():  # what is there first, in file order, then what is missing
            if key in fields or key in optional:
                (fields.get(key) or optional[key])(x, join(where, key), reading)
        missing = [k for k in fields if k not in value]
        if missing:
            fail(where, f"missing {names(missing)}", f"a table with {names(allowed_keys)}")
        for prefix in prefixes:
            _provenance(value, where, prefix, reading)

    return check


def entry(value: Check) -> Check:
    """One marked value: ``{ value = ..., source = ..., ref = ... | reason = ... }``."""
    return table({"value": value}, sourced=True)


def tables(item: Check, *, key: str = "id", min_size: int = 1) -> Check:
    """An array of tables (``[[name]]``), each passing ``item``, told apart by a unique ``key``.

    Each table's path is ``name.<key value>`` (``cards.wheat-a``) when it has one, else ``name[i]``.
    """
    allowed = f"an array of at least {min_size} tables ([[...]]) with unique {key}s"

    def check(value: Any, where: str, reading: Reading) -> None:
        if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
            fail(where, f"got {describe(value)}", allowed)
        if len(value) < min_size:
            fail(where, f"got {describe(value)}", allowed)
        seen: set[object] = set()
        for i, x in enumerate(value):
            ident = x.get(key)
            plain = isinstance(ident, (str, int)) and not isinstance(ident, bool) and str(ident).strip()
            here = join(where, ident) if plain else f"{where}[{i}]"
            item(x, here, reading)
            if ident in seen:
                fail(here, f"duplicate {key} {ident!r}", f"a {key} used once in {where}")
            seen.add(ident)

    return check


def validate(doc: dict, schema: Check) -> list[str]:
    """Check a whole document; returns the names of its reconstructed values, in file order."""
    reading = Reading()
    schema(doc, "", reading)
    return reading.reconstructed


# --------------------------------------------------------------------------- the file


def load_data_file(
    path: str | Path | None,
    default: Path,
    schema: Check,
    build: Callable[[dict, Path, str, list[str]], T],
) -> T:
    """Read ``path`` (or the packaged ``default``), check it against ``schema`` and build the game's data.

    ``build`` gets (document, path, sha1, names of the reconstructed values) and checks what
    spans tables with ``fail``. An unreadable file, invalid TOML or anything the schema or
    ``build`` rejects becomes a one-line ``SkaldError`` naming the file.
    """
    path = Path(path) if path else default
    if path.is_dir():
        raise SkaldError(f"data file {str(path)!r} is a folder (this game reads one TOML file)")
    try:
        raw = path.read_bytes()
        doc = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise SkaldError(f"cannot read data file {str(path)!r}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SkaldError(f"data file {str(path)!r} is not valid TOML: {exc}") from None
    try:
        reconstructed = validate(doc, schema)
        return build(doc, path, hashlib.sha1(raw).hexdigest(), reconstructed)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
        message = one_line(exc, "")  # whatever the exception said
        raise SkaldError(f"data file {str(path)!r} is malformed: {message}") from None

"""Reading a game's component data file (TOML) with one-line errors for the user."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sim.errors import SkaldError

T = TypeVar("T")


def load_data_file(path: str | Path | None, default: Path, build: Callable[[dict, Path, str], T]) -> T:
    """Read ``path`` (or the packaged ``default``) and hand (document, path, sha1) to ``build``.

    An unreadable file, invalid TOML or anything ``build`` rejects (KeyError, TypeError,
    ValueError, IndexError, AttributeError) becomes a one-line ``SkaldError`` naming the file.
    """
    path = Path(path) if path else default
    try:
        raw = path.read_bytes()
        doc = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise SkaldError(f"cannot read data file {str(path)!r}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SkaldError(f"data file {str(path)!r} is not valid TOML: {exc}") from None
    try:
        return build(doc, path, hashlib.sha1(raw).hexdigest())
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SkaldError(f"data file {str(path)!r} is malformed: {exc!s}") from None

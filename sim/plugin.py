"""Games as plug-ins: one declaration per game, found through the ``skald.games`` entry points.

A game package declares a :class:`GamePlugin` and registers it in its ``pyproject.toml``:

    [project.entry-points."skald.games"]
    tictactoe = "skald_tictactoe.plugin:PLUGIN"

The declaration names, as ``"module:attribute"`` strings imported only when needed:
- ``game``: the rules, an object following the ``sim.game.Game`` protocol;
- ``strategies``: the game's own strategies by name (``random`` plays every game already);
- ``sections``: a function ``(runs) -> list[Section]`` giving the game's own report sections;
- ``studies``: the study files (TOML) it brings, as ``"package:file.toml"`` resources;
and, as plain values, its title, a one-line description, its data folder, whether its own sections
cover seat balance (``own_seats``), and which runs' rule variants its own sections compare
(``own_comparisons``, a ``"module:function"`` taking a run and saying yes or no), and optionally
``picture`` and ``describe`` (``"module:function"``: a state as SVG and a choice in words; see
``sim.picture``), and ``search``: the game's own defaults for a search strategy's parameters
(``"iterations=24:depth=60"``), used where a spec leaves them unset, for a game whose playouts are long
(``sim.specs.parse_spec``).  These optional fields, with the optional methods of the rules object, are
the game's capabilities, declared once in ``sim.game.CAPABILITIES`` (``sim.game.has_capability``).

The core (``sim/``, ``analysis/report/report.py``, ``analysis/study/study.py``) reads games only from here;
adding a game touches no core file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from typing import Any

from sim.errors import SkaldError

#: the entry-point group every game registers in
GROUP = "skald.games"


def load_object(path: str, what: str) -> Any:
    """The object at ``"module:attribute"``; a one-line ``SkaldError`` naming ``what`` otherwise."""
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise SkaldError(f"cannot import {what} {path!r}: {exc}") from None
    return obj


@dataclass(frozen=True)
class GamePlugin:
    """Everything one game brings to Skald (see the module docstring)."""

    name: str
    title: str
    description: str
    game: str
    strategies: dict[str, str] = field(default_factory=dict)
    sections: str | None = None
    studies: tuple[str, ...] = ()
    data: str | None = None
    own_seats: bool = False
    own_comparisons: str | None = None
    picture: str | None = None
    describe: str | None = None
    spaces: str | None = None  # the RL encoding module (sim.rl.codec), "module" path
    search: str = ""  # the game's defaults for a search strategy's parameters ("key=value:key=value")
    #: score spreads (``analysis.report.sections.spreads``): a game whose winner leads by at most
    #: ``close_within`` points is close, and ``spread_margin`` is the change in the mean winner's margin, in
    #: points, that a comparison of rule variants decides against; about a twentieth of a typical winning
    #: score
    close_within: float = 2.0
    spread_margin: float = 2.0

    def load_game(self) -> Any:
        """The game's rules object (``sim.game.Game``)."""
        return load_object(self.game, f"the rules of game {self.name!r}")

    def load_sections(self) -> Callable[[Any], list[Any]] | None:
        """The game's own report sections, ``(runs) -> list[Section]``, or None."""
        return None if self.sections is None else load_object(self.sections, f"the sections of {self.name!r}")

    def compares_itself(self, run: Any) -> bool:
        """Whether the game's own sections compare this run's rule variants (the general comparison
        then leaves it out)."""
        if self.own_comparisons is None:
            return False
        return bool(load_object(self.own_comparisons, f"own_comparisons of {self.name!r}")(run))

    def study_texts(self) -> list[tuple[str, str, Any]]:
        """The game's study files as (shown name, text, the folder they lie in)."""
        from importlib import resources

        out = []
        for spec in self.studies:
            package, _, name = spec.partition(":")
            item = resources.files(package) / name
            out.append((f"{package.replace('.', '/')}/{name}", item.read_text(encoding="utf-8"), item))
        return out


#: the plug-ins that failed to load, by entry-point name: why, in one line (filled by ``registered``)
_BROKEN: dict[str, str] = {}


def _load(entry: metadata.EntryPoint) -> GamePlugin:
    """The ``GamePlugin`` an entry point names; a ``SkaldError`` saying why it failed to load otherwise."""
    where = f"game plug-in {entry.name!r} (entry point {entry.name} = {entry.value}) failed to load"
    try:
        plugin = entry.load()
    except Exception as exc:  # a plug-in's own import error, whatever it is, is the plug-in's failure
        raise SkaldError(f"{where}: {type(exc).__name__}: {exc}") from None
    if not isinstance(plugin, GamePlugin):
        raise SkaldError(f"{where}: it is a {type(plugin).__name__}, not a sim.plugin.GamePlugin")
    if plugin.name != entry.name:
        raise SkaldError(f"{where}: it declares the name {plugin.name!r}")
    return plugin


@cache
def registered() -> dict[str, GamePlugin]:
    """Every game registered under ``skald.games`` that loads, by name, in the order of their names.

    An entry point that does not load to a ``GamePlugin`` of its own name is left out and kept in
    ``broken`` (the command line names it in a note; asking for that game says why it failed); none at
    all means Skald is not installed (``pip install -e .``)."""
    found: dict[str, GamePlugin] = {}
    _BROKEN.clear()
    for entry in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        try:
            plugin = _load(entry)
        except SkaldError as exc:
            _BROKEN.setdefault(entry.name, str(exc))
            continue
        found.setdefault(plugin.name, plugin)
    if not found and not _BROKEN:
        raise SkaldError(
            f"no games are registered under the entry points {GROUP!r} (install Skald: pip install -e .)"
        )
    return found


def broken() -> dict[str, str]:
    """The registered plug-ins that failed to load, by name: why (``game plug-in 'x' (entry point ...)
    failed to load: ImportError: ...``)."""
    registered()
    return dict(_BROKEN)


def broken_notes() -> list[str]:
    """One note per plug-in that failed to load, for the command line to say (the others carry on)."""
    return [f"{why}; skipped" for _, why in sorted(broken().items())]


def plugin(name: str) -> GamePlugin:
    """The plug-in of game ``name``; a ``SkaldError`` lists the registered games otherwise."""
    games = registered()
    if name not in games and name in _BROKEN:
        raise SkaldError(_BROKEN[name])
    if name not in games:
        raise SkaldError(f"unknown game {name!r} (allowed: {', '.join(sorted(games))})")
    return games[name]

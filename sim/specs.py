"""Strategies by name, with parameters from the command line.

A spec is ``NAME`` or ``NAME:key=value:key=value`` for a built-in strategy, or
``package.module:Class[:key=value...]`` for a user's own ``Strategy`` subclass (``sim.strategy``).
``--strategies`` gives them comma-separated (``split_specs``); ``parse_specs`` checks every entry of such
a list before anything counts them.

The built-in strategies are found by name through each game plug-in's declared ``strategies`` mapping
(``sim.plugin.GamePlugin``), beside those that play every game they can: ``random``, the search
``ismcts`` and the one-ply ``learned`` (every game with a fitted judge), named here by their
``"module:Class"`` paths and imported only when asked for.

A *named spec* is a spec with a name of its own, per game, from the packaged ``strategies/tuned.toml``
(``named_specs``): ``tuned`` in Graenaland is the spec a tune found (``greedy:generosity=1.2:...``).  Its
text stays the name as written (the records say ``tuned``), its class and parameters are its spec's.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.errors import SkaldError, one_line
from sim.strategy import TYPE_RANGES, Parameter, Strategy, source_comments

#: the strategy that plays every game
RANDOM = "strategies.random_play:RandomStrategy"
#: the search strategy that plays every game declaring ``determinize`` (``sim.search``)
ISMCTS = "strategies.ismcts:ISMCTSStrategy"
#: the one-ply player judging states with a game's fitted judge (``strategies.value_model``)
LEARNED = "strategies.learned:LearnedStrategy"


def builtin() -> dict[str, list[str]]:
    """Built-in strategies: name -> the ``"module:Class"`` of each game that has one by that name
    (``random`` plays every game, ``ismcts`` every game that declares ``determinize`` and ``learned``
    every such game with a fitted judge; the rest come from the games' plug-ins, ``sim.plugin``)."""
    from sim.games import GAMES

    found: dict[str, list[str]] = {"random": [RANDOM], "ismcts": [ISMCTS]}
    for plugin in GAMES.values():
        for name, path in plugin.strategies.items():
            found.setdefault(name, []).append(path)
    found.setdefault("learned", []).append(LEARNED)
    return found


def import_strategy(path: str) -> type[Strategy]:
    """The ``Strategy`` subclass at ``"module:Class"``; a one-line ``SkaldError`` otherwise."""
    module_name, _, attr = path.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SkaldError(f"cannot import strategy class {path!r}: {exc}") from None
    if not (isinstance(obj, type) and issubclass(obj, Strategy)):
        raise SkaldError(f"{path!r} is not a subclass of sim.strategy.Strategy")
    return obj


def builtin_names(game: str) -> list[str]:
    """Built-in strategy names that play ``game`` (a search strategy only where the game declares
    ``determinize``)."""
    from sim.game import has_capability
    from sim.games import GAMES

    can_search = game in GAMES and has_capability(game, "determinize")
    names = []
    for name, paths in builtin().items():
        classes = [import_strategy(p) for p in paths]
        if any(game in c.games or "*" in c.games for c in classes):
            if can_search or not any(getattr(c, "searches", False) for c in classes):
                names.append(name)
    return names


def best_strategy(name: str) -> str | None:
    """The best scripted strategy of game ``name``: its plug-in's first strategy (the plug-ins list
    their strongest first: greedy in all four games, which no other scripted strategy beats
    significantly in seat-rotated matches against three greedy players, ``tools/search_strength.py``'s
    note in the README); None for a game with no plug-in or no strategies of its own."""
    from sim.games import GAMES

    plugin = GAMES.get(name)
    return None if plugin is None else next(iter(plugin.strategies), None)


def default_strategies(game: str) -> list[str]:
    """The strategies a command plays when ``--strategies`` is not given: the game's best scripted
    strategy (its plug-in's first) against random, or random alone for a game without its own."""
    best = best_strategy(game)
    return [best, "random"] if best else ["random"]


def scripted_names(game: str) -> list[str]:
    """Built-in strategy names that play ``game`` without searching (what a search may play out with)."""
    return [name for name in builtin_names(game)
            if not any(getattr(import_strategy(p), "searches", False) for p in builtin()[name])]


def search_defaults(game: str) -> list[tuple[str, str]]:
    """The game's own defaults for a search strategy's parameters (its plug-in's ``search``, as
    ``(key, value)`` pairs; none for a game without them): a spec of a searching strategy takes each one
    it does not set itself, so ``ismcts`` in Greenland is ``ismcts:iterations=24:depth=60`` unless the
    spec says otherwise.  The spec's text stays as written
    (the records name it so), its ``params`` hold the defaults too."""
    from sim.game import capability

    text = capability(game, "search") or ""
    pairs = [item.partition("=") for item in text.split(":") if item]
    for key, eq, _ in pairs:
        if not eq or not key:
            raise SkaldError(
                f"game plug-in {game!r}: bad search default {text!r} (expected key=value:key=value)"
            )
    return [(key, value) for key, _, value in pairs]


def _with_search_defaults(
    cls: type[Strategy], game: str, params: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """``params`` led by the game's search defaults (``search_defaults``) that ``cls`` takes and they do not
    set; a default the strategy refuses is an error naming the game's plug-in."""
    given = {key for key, _ in params}
    defaults = [item for item in search_defaults(game) if item[0] in cls.params]
    try:
        cls(0, np.random.default_rng(0), **dict(defaults)).check_game(game)
    except (ValueError, TypeError) as exc:
        raise SkaldError(f"game plug-in {game!r}: bad search default: {exc}") from None
    return [item for item in defaults if item[0] not in given] + params


@dataclass(frozen=True)
class StrategySpec:
    """A parsed strategy spec: makes a fresh strategy per game and seat."""

    text: str  # as the user wrote it; recorded with every seat
    cls: type[Strategy]
    params: tuple[tuple[str, str], ...]
    #: the spec a named spec (``tuned``) stood for when parsed; the run's manifest records it
    resolved: str = ""

    def make(self, seat: int, rng: np.random.Generator) -> Strategy:
        return self.cls(seat, rng, **dict(self.params))

    @property
    def time_budgeted(self) -> bool:
        """Whether this spec sets its strategy's time budget (``Strategy.time_budget``, e.g. ismcts's
        ``ms``) above 0: its games then depend on the machine's speed, not only on the seed."""
        name = getattr(self.cls, "time_budget", None)
        value = dict(self.params).get(name, "0") if name else "0"
        try:
            return float(value) > 0
        except ValueError:
            return False


#: the packaged named specs: ``[GAME.NAME]`` tables of ``spec``, ``tune`` and ``measured``
TUNED_FILE = "tuned.toml"
NAMED_KEYS = {"spec", "tune", "measured"}
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class NamedSpec:
    """A spec with a name of its own (``strategies/tuned.toml``): what it stands for, the tune file that
    found it and what it measured there."""

    name: str
    game: str
    spec: str
    tune: str = ""
    measured: str = ""


def tuned_file() -> Path:
    """Where the packaged named specs live: ``tuned.toml`` in the ``strategies`` package (found without
    importing it)."""
    found = importlib.util.find_spec("strategies")
    folders = list(found.submodule_search_locations or []) if found is not None else []
    return Path(folders[0] if folders else ".") / TUNED_FILE


def read_named(path: Path) -> dict[str, dict[str, NamedSpec]]:
    """The named specs of the file at ``path`` by game and name (none when there is no file); a one-line
    ``SkaldError`` naming the entry for a bad file.  The specs themselves are checked when parsed."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SkaldError(f"named specs {str(path)!r}: cannot read it: {exc}") from None
    out: dict[str, dict[str, NamedSpec]] = {}
    for game, table in doc.items():
        if not isinstance(table, dict):
            raise SkaldError(f"named specs {str(path)!r}: {game} must be a table of [{game}.NAME] tables")
        out[game] = {name: _named(path, game, name, entry) for name, entry in table.items()}
    return out


def _named(path: Path, game: str, name: str, entry: object) -> NamedSpec:
    """One checked ``[GAME.NAME]`` entry."""
    where = f"named specs {str(path)!r}: {game}.{name}"
    if not NAME_PATTERN.match(name):
        raise SkaldError(f"{where}: a name is lower-case letters, digits, - and _")
    if not isinstance(entry, dict):
        raise SkaldError(f"{where} must be a table (spec = ..., tune = ..., measured = ...)")
    bad = sorted(set(entry) - NAMED_KEYS)
    if bad:
        raise SkaldError(f"{where}: unknown key {bad[0]!r} (allowed: {', '.join(sorted(NAMED_KEYS))})")
    fields = {key: entry.get(key, "") for key in NAMED_KEYS}
    if not all(isinstance(v, str) for v in fields.values()) or not fields["spec"].strip():
        raise SkaldError(f"{where}: spec (a strategy spec), tune and measured must be strings")
    return NamedSpec(name, game, fields["spec"].strip(), fields["tune"], fields["measured"])


@lru_cache(maxsize=4)
def _named_in(path: str) -> dict[str, dict[str, NamedSpec]]:
    return read_named(Path(path))


def named_specs(game: str) -> dict[str, NamedSpec]:
    """The packaged named specs of ``game`` by name (``strategies/tuned.toml``), built-in names left out
    (a built-in strategy keeps its name)."""
    found = _named_in(str(tuned_file())).get(game, {})
    return {name: named for name, named in found.items() if name not in builtin()}


def parse_spec(text: str, game: str) -> StrategySpec:
    """Parse one spec for ``game``; raise ``SkaldError`` naming what is allowed."""
    text = text.strip()
    head, *rest = text.split(":")
    if "." not in head and head not in builtin():
        named = named_specs(game).get(head)
        if named is not None:
            return _parse_named(text, named, rest)
    if "." in head and rest and "=" not in rest[0]:
        cls = import_strategy(f"{head}:{rest[0]}")
        rest = rest[1:]
        if game not in cls.games and "*" not in cls.games:
            raise SkaldError(
                f"strategy {head}:{cls.__qualname__} does not play {game}: it plays"
                f" {', '.join(cls.games) or 'no game'} (its class's games)"
            )
    else:
        candidates = [import_strategy(p) for p in builtin().get(head, [])]
        matching = [c for c in candidates if game in c.games or "*" in c.games]
        if not matching:
            allowed = ", ".join(builtin_names(game) + list(named_specs(game)))
            raise SkaldError(
                f"unknown strategy {head!r} for {game} (allowed: {allowed}, or package.module:Class)"
            )
        cls = matching[0]
    params = []
    for item in rest:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise SkaldError(f"bad strategy parameter {item!r} in {text!r} (expected key=value)")
        params.append((key, value))
    if getattr(cls, "searches", False):
        params = _with_search_defaults(cls, game, params)
    spec = StrategySpec(text=text, cls=cls, params=tuple(params))
    _check_made(spec, game)
    return spec


def _parse_named(text: str, named: NamedSpec, rest: list[str]) -> StrategySpec:
    """A named spec: its own spec parsed, under the name as written."""
    if rest:
        raise SkaldError(
            f"strategy {text!r}: {named.name} is a named spec ({named.spec}) and takes no parameters"
            f" (write {named.spec}:key=value to change one)"
        )
    if named.spec.split(":")[0] in named_specs(named.game):
        raise SkaldError(f"named spec {named.name!r} of {named.game} names another named spec: {named.spec}")
    try:
        spec = parse_spec(named.spec, named.game)
    except SkaldError as exc:
        where = f"named spec {named.name!r} of {named.game} ({str(tuned_file())!r})"
        raise SkaldError(f"{where}: {exc}") from None
    return replace(spec, text=text, resolved=named.spec)


def resolved_specs(specs: Sequence[StrategySpec]) -> dict[str, str]:
    """The named specs among ``specs`` with the specs they stood for (a run records them: its games are
    a function of them, and a later ``tuned.toml`` may name another)."""
    return {spec.text: spec.resolved for spec in specs if spec.resolved}


def _check_made(spec: StrategySpec, game: str) -> None:
    """Make ``spec``'s strategy once and let it check its parameters against ``game``: a bad parameter, or a
    strategy that fails when made (an exception, ``sys.exit``, a ``KeyboardInterrupt`` of its own), is a
    one-line error naming the spec; the user's Ctrl-C (``sim.signals.Interrupted``) passes through."""
    from sim.signals import Interrupted

    try:
        spec.make(0, np.random.default_rng(0)).check_game(game)
    except (ValueError, TypeError) as exc:
        raise SkaldError(f"strategy {spec.text!r}: {exc}") from None
    except Interrupted:
        raise
    except BaseException as exc:  # noqa: BLE001 - any failure of the user's class is theirs, named in one line
        raise SkaldError(
            f"strategy {spec.text!r} failed when made: {type(exc).__name__}: {one_line(exc, '')}".rstrip(": ")
        ) from None


def split_specs(text: str, option: str = "--strategies") -> list[str]:
    """The comma-separated specs of ``text`` (an option's value), stripped; an empty entry is an error."""
    entries = [entry.strip() for entry in text.split(",")]
    check_entries(entries, option)
    return entries


def check_entries(texts: Sequence[str], option: str = "--strategies") -> None:
    """Refuse an empty entry (``greedy,,random``), naming its position, instead of dropping it."""
    for position, text in enumerate(texts, 1):
        if not text.strip():
            raise SkaldError(
                f"{option}: entry {position} of {','.join(texts)!r} is empty"
                " (give one spec per player, comma-separated, e.g. greedy,random)"
            )


def parse_specs(texts: Sequence[str], game: str, option: str = "--strategies") -> tuple[StrategySpec, ...]:
    """``parse_spec`` for every entry of a spec list, in order: an empty entry or an unknown strategy is
    an error naming its position, found before anyone compares the list's length with the players."""
    check_entries(texts, option)
    specs = []
    for position, text in enumerate(texts, 1):
        try:
            specs.append(parse_spec(text, game))
        except SkaldError as exc:
            where = f"{option}: entry {position}: " if len(texts) > 1 else f"{option}: "
            raise SkaldError(f"{where}{exc}") from None
    return tuple(specs)


# --------------------------------------------------------------------------- the built-ins in words

#: what the parameters of the strategies every game shares mean and which values they take (the games'
#: own strategies' parameters are weights and counts that take any value; their meanings are the comments
#: beside ``params`` in the source, where it has them)
PARAM_DOCS: dict[str, dict[str, tuple[str, str]]] = {
    ISMCTS: {
        "iterations": ("1 or more",
                       "searches per decision: the budget, so a game stays a function of its seed"),
        "c": ("0 or more", "the exploration constant of UCB1"),
        "playout": ("random, or a strategy of the game that does not search",
                    "the policy that plays on from each new node"),
        "depth": ("0 or more", "decisions each playout plays (0: to the end of the game)"),
        "reward": ("win, rank or score",
                   "what a playout scores: the win share, the rank or the normalised score"),
        "widen": ("above 0", "progressive widening: at most widen x N^alpha options tried after N visits"),
        "alpha": ("0 to 1", "the exponent of progressive widening"),
        "ms": ("0 or more", "milliseconds per decision in place of iterations (0: off); games then depend on "
               "the machine's speed"),
        "prior": ("none, or a strategy of the game that does not search",
                  "first arm at a node: empty = the game's best scripted strategy, none = off"),
        "epsilon": ("0 to 1", "chance that a playout choice is made at random instead"),
        "rank": ("1 or more",
                 "root arms in the prior's order (its choice, then its choice of the rest, ...)"),
        "width": ("0 or more", "most arms at the root (0: no cap); with a prior, its first `width` choices"),
        "tree": ("0 or more", "most decision points the tree keeps (0: no cap; 1: the root only)"),
        "keep": ("0 or more", "play the prior's choice unless beaten by `keep` paired standard errors"),
        "judge": ("learned, or empty",
                  "a cut playout's judge: empty = the game's evaluate (else its scores), learned = its "
                  "fitted model"),
    },
    LEARNED: {
        "samples": ("1 or more", "states drawn from the view per decision; each candidate judged on all"),
        "width": ("0 or more", "candidates: the best scripted strategy's first `width` choices (0: all)"),
        "reward": ("win or rank", "a state's worth: the judge's chance to finish first, or rank utility"),
        "margin": ("0 or more", "play the scripted choice unless another is judged better by more than this"),
        "follow": ("0 or more", "own decisions after the option played by the scripted strategy (0: none)"),
        "model": ("a JSON file, or empty", "the fitted judge to use (empty: the game's packaged one)"),
    },
}


def parameters(cls: type[Strategy], game: str | None = None) -> list[Parameter]:
    """The strategy's parameters: name, type, default, the values it takes and what it does; with
    ``game``, a searching strategy's defaults are that game's where it has its own (``search_defaults``)."""
    path = f"{cls.__module__}:{cls.__qualname__}"
    docs = PARAM_DOCS.get(path, {})
    comments = source_comments(cls)
    own = dict(search_defaults(game)) if game is not None and getattr(cls, "searches", False) else {}
    out = []
    for name, (kind, default) in cls.params.items():
        values, meaning = docs.get(name, (TYPE_RANGES.get(kind, kind.__name__), comments.get(name, "")))
        if name in own:
            meaning = f"{meaning} ({game}'s own default; {default} elsewhere)".lstrip()
            default = kind(own[name])
        out.append(Parameter(name, kind.__name__, default, values, meaning))
    return out

"""The tune file (TOML) and its validation: one ``SkaldError`` line naming the key and what is allowed.

[tune]
name = "mainland-castle"        # letters, digits, - and _ (the default output folder results/tune-NAME)
title = "..."                   # optional, and description
game = "mainland"
players = 4
seed = 42                       # the search's own seed (common seeds, sampling, fresh confirmation seeds)
budget = 4000                   # games in all, search and confirmation (--budget overrides it)
seats = "rotate"                # seat mode of every run
rules = { }                     # rule switches fixed for every candidate
# data = "my.toml"              # the base data file (default: the packaged one)
# max_decisions = 3000
candidates = 64                 # at most this many candidates (sampled with the seed when there are more)
eta = 3                         # successive halving keeps 1/eta of the candidates per rung
finalists = 3                   # re-measured on fresh seeds at the end
confirm = 0.3                   # share of the budget for the re-measurement
# player = "builder"            # the tuned player: its base spec (strategy parameters vary it)

[[parameters]]                  # kind = rule | data | permutation | file | strategy (analysis.tune.params)
kind = "rule"
rule = "castle_needs_overlap"
# kind = "strategy"             # one declared parameter of the player (skald strategies GAME)
# param = "climb"
# values = [0.5, 1.0, 2.0]

[[objective]]                   # kind = even_seats | game_length | win_matrix | win_share
kind = "even_seats"             #   (analysis.tune.objectives)
populations = [["greedy"], ["builder"]]
# kind = "win_share"            # the player in one seat against field (default: the game's best
# field = "greedy"              #   scripted strategy) in the others; "player" in a table is the player
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analysis.data.study_file import read_file
from analysis.tune import objectives as obj
from analysis.tune.check import base_docs, check_game, check_strategies, rule_values
from analysis.tune.params import (
    KINDS,
    PLAYER,
    Parameter,
    PathError,
    get,
    label,
    orders,
    parse_path,
    with_values,
)
from analysis.tune.reader import Reader, Tune
from sim import seats as seating
from sim.errors import SkaldError
from sim.specs import best_strategy, named_specs, parse_spec

TUNE_KEYS = {
    "name",
    "title",
    "description",
    "game",
    "players",
    "seed",
    "budget",
    "seats",
    "rules",
    "data",
    "max_decisions",
    "candidates",
    "eta",
    "finalists",
    "confirm",
    "player",
}
PARAM_KEYS = {"name", "kind", "rule", "path", "param", "values", "labels"}
OBJECTIVE_KEYS = {
    "even_seats": {"kind", "weight", "populations", "strategies", "measure", "combine"},
    "game_length": {"kind", "weight", "strategies", "target"},
    "win_matrix": {"kind", "weight", "strategies", "target"},
    "win_share": {"kind", "weight", "field"},
}
#: what each kind of parameter must name
NEEDS = {"rule": "rule", "data": "path", "permutation": "path", "file": "values", "strategy": "param"}
NAME_PLAYER = "[tune] player = SPEC"
#: the seat modes that seat a win_share term's player in every seat equally
SHARE_SEATS = ("rotate", "exhaustive")
#: a strategy parameter's type in words, for the errors of its values
TYPE_WORDS = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
FOLDER_HINT = "; write FILE.toml:path for a folder"  # a tune's data may be a folder of files


def parse(text: str, source: str = "<text>", base: Path | None = None) -> Tune:
    """Parse and check a tune file against its game (rules, strategies, data paths): nothing is written."""
    read = Reader(source)
    doc = read_doc(read, text, ("parameters", "objective"))
    head = read.keys(doc.get("tune"), "tune", TUNE_KEYS)
    tune = _head(read, head, text, base or Path.cwd())
    game = check_game(read, tune)
    tune.player = _player(read, head.get("player"), tune.game)
    params = doc.get("parameters")
    if not isinstance(params, list) or not params:
        raise read.fail("needs at least one [[parameters]] table")
    names: set[str] = set()
    for i, raw in enumerate(params):
        param = _parameter(read, raw, f"parameters[{i}]", tune, game)
        if param.name in names:
            raise read.fail(f"parameters[{i}].name {param.name!r} is used twice (give each its own name)")
        names.add(param.name)
        tune.parameters.append(param)
    varied = [p.target for p in tune.parameters if p.kind == "strategy"]
    if len(set(varied)) < len(varied):
        twice = next(v for v in varied if varied.count(v) > 1)
        raise read.fail(f"the player's parameter {twice!r} is varied by two parameters (give it one)")
    if sum(p.kind == "file" for p in tune.parameters) > 1:
        raise read.fail("at most one parameter of kind 'file' (whole data files replace each other)")
    objectives(read, doc, tune)
    return tune


def _head(read: Reader, head: dict[str, Any], text: str, base: Path) -> Tune:
    name, rules = name_and_rules(read, head)
    return Tune(
        **head_fields(read, head, name, rules, text, base),
        candidates=read.int(head.get("candidates", 64), "tune.candidates", 1, 10_000),
        eta=read.int(head.get("eta", 3), "tune.eta", 2, 10),
        finalists=read.int(head.get("finalists", 3), "tune.finalists", 1, 20),
        confirm=read.number(head.get("confirm", 0.3), "tune.confirm", 0.05, 0.9),
        parameters=[],
        terms=[],
    )


def _player(read: Reader, given: Any, game: str) -> str | None:
    """The tuned player's base spec (``[tune] player``; a named spec stands for its own spec), checked."""
    if given is None:
        return None
    text = read.str(given, "tune.player")
    named = named_specs(game).get(text)
    spec = named.spec if named is not None else text
    try:
        parse_spec(spec, game)
    except SkaldError as exc:
        raise read.fail(f"tune.player: {exc}") from None
    return spec


def read_doc(read: Reader, text: str, lists: tuple[str, ...]) -> dict[str, Any]:
    """The file's TOML, holding no table but its head (``[tune]``, ``[sensitivity]``) and its ``lists``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise read.fail(f"not valid TOML: {exc}") from None
    bad = sorted(set(doc) - {read.head, *lists})
    if bad:
        allowed = ", ".join([f"[{read.head}]"] + [f"[[{t}]]" for t in lists])
        raise read.fail(f"unknown table {bad[0]!r} (allowed: {allowed})")
    return doc


def name_and_rules(read: Reader, head: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The head's checked ``name`` and ``rules`` (read first, before the file's own keys)."""
    t = read.head
    name = read.str(head.get("name"), f"{t}.name")
    if not NAME_RE.match(name):
        raise read.fail(f"{t}.name {name!r} may hold only letters, digits, '-' and '_'")
    rules = head.get("rules", {})
    if not isinstance(rules, dict):
        raise read.fail(f"{t}.rules must be a table of rule switches (name = value)")
    return name, rules


def head_fields(
    read: Reader,
    head: dict[str, Any],
    name: str,
    rules: dict[str, Any],
    text: str,
    base: Path,
    games: bool = False,
) -> dict[str, Any]:
    """The head keys a tune and a sensitivity file share, checked in order (``games``: with ``games``)."""
    t = read.head
    data = head.get("data")
    fields: dict[str, Any] = {
        "name": name,
        "title": read.str(head.get("title", name), f"{t}.title"),
        "description": str(head.get("description", "")).strip(),
        "game": read.str(head.get("game"), f"{t}.game"),
        "players": read.int(head.get("players"), f"{t}.players", 1),
        "seed": read.int(head.get("seed", 42), f"{t}.seed", 0, 2**31 - 1),
        "budget": read.int(head.get("budget", 2000), f"{t}.budget", 1),
    }
    if games:
        fields["games"] = read.int(head.get("games", 40), f"{t}.games", 1)
    fields.update(
        seats=read.str(head.get("seats", "rotate"), f"{t}.seats", tuple(seating.MODES)),
        rules=dict(rules),
        data=None if data is None else str(_relative(base, read.str(data, f"{t}.data"))),
        max_decisions=None
        if "max_decisions" not in head
        else read.int(head["max_decisions"], f"{t}.max_decisions", 1),
        source=read.source,
        text=text,
        base=base,
    )
    return fields


def _relative(base: Path, path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else base / p


def _parameter(read: Reader, raw: Any, where: str, tune: Tune, game: Any) -> Parameter:

    raw = read.keys(raw, where, PARAM_KEYS)
    kind = read.str(raw.get("kind"), f"{where}.kind", KINDS)
    if kind == "strategy" and tune.player is None:
        raise read.fail(f"{where}: kind 'strategy' varies the tuned player: name it with {NAME_PLAYER}")
    need = NEEDS[kind]
    if need not in raw:
        raise read.fail(f"{where}.{need} is missing (a {kind} parameter needs it)")
    values = raw.get("values")
    if values is not None and (not isinstance(values, list) or not values):
        raise read.fail(f"{where}.values must be a non-empty list")
    target = read.str(raw.get(need), f"{where}.{need}") if kind != "file" else ""
    name = read.str(raw.get("name", target or "data file"), f"{where}.name")
    if kind == "rule":
        options = rule_values(read, game, target, values, f"{where}.values")
    elif kind == "strategy":
        options = _strategy_values(read, str(tune.player), tune.game, target, values, where)
    elif kind == "file":
        if values is None:
            raise read.fail(f"{where}.values is missing (a file parameter needs it)")
        options = [
            str(_relative(tune.base, read.str(v, f"{where}.values[{j}]"))) for j, v in enumerate(values)
        ]
        for option in options:
            if not Path(option).exists():
                raise read.fail(f"{where}.values: data file {option!r} not found")
    else:
        if values is None and kind == "data":
            raise read.fail(f"{where}.values is missing (the values a data parameter tries)")
        current = at(read, base_docs(tune, game), target, f"{where}.path", FOLDER_HINT)
        options = _data_options(read, kind, current, values, where)
    named = label if kind != "permutation" else _order_label
    return Parameter(name, kind, target, tuple(options), labels_of(read, raw, where, options, named))


def _strategy_values(read: Reader, player: str, game: str, param: str, values: Any, where: str) -> list[Any]:
    """The values a strategy parameter tries: ``param`` is one the player declares, each value of its type
    and taken by the player (its spec with the value set parses)."""
    if values is None:
        raise read.fail(f"{where}.values is missing (the values the player's {param!r} tries)")
    declared = parse_spec(player, game).cls.params
    if param not in declared:
        allowed = ", ".join(declared) or "none"
        raise read.fail(f"{where}.param {param!r} is not a parameter of {player} (its parameters: {allowed})")
    kind = declared[param][0]
    for j, value in enumerate(values):
        if not _of_type(value, kind):
            words, name = TYPE_WORDS.get(kind, kind.__name__), kind.__name__
            raise read.fail(
                f"{where}.values[{j}] {value!r} is not {words} ({player}'s {param} is of type {name})"
            )
        try:
            parse_spec(with_values(player, [(param, value)]), game)
        except SkaldError as exc:
            raise read.fail(f"{where}.values[{j}]: {exc}") from None
    return list(values)


def _of_type(value: Any, kind: type) -> bool:
    """Whether a TOML value is of a strategy parameter's type (a whole number is a number; text holds no
    ``:`` or ``,``, which a spec list would split at)."""
    if kind is bool or isinstance(value, bool):
        return kind is bool and isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and math.isfinite(value)
    if kind is str:
        return isinstance(value, str) and bool(value) and not set(value) & {":", ",", " "}
    return isinstance(value, kind)


def _order_label(order: Any) -> str:
    return "-".join(map(str, order))


def labels_of(
    read: Reader, raw: dict[str, Any], where: str, options: list[Any], named: Callable[[Any], str] = label
) -> tuple[str, ...]:
    """The table's ``labels``, one per option (``named`` of each option where it gives none)."""
    given = raw.get("labels")
    if given is None:
        return tuple(named(o) for o in options)
    if (
        not isinstance(given, list)
        or len(given) != len(options)
        or not all(isinstance(x, str) for x in given)
    ):
        raise read.fail(f"{where}.labels must be a list of {len(options)} strings, one per value")
    return tuple(given)


def at(read: Reader, docs: dict[str | None, Any], path: str, where: str, hint: str = "") -> Any:
    """The value at a data path (one line naming ``where`` when there is none; ``hint`` ends its list)."""

    try:
        file, steps = parse_path(path)
        if file not in docs:
            files = ", ".join(str(f) for f in docs)
            raise PathError(f"the data has no file {file!r} (files: {files}{hint})")
        return get(docs[file], steps)
    except PathError as exc:
        raise read.fail(f"{where} {path!r}: {exc}") from None


def _data_options(read: Reader, kind: str, current: Any, values: Any, where: str) -> list[Any]:
    if kind == "data":
        return list(values)
    if not isinstance(current, list) or len(current) < 2:
        raise read.fail(f"{where}.path must lead to a list of two or more items to permute")
    if values is None:
        try:
            return orders(len(current))
        except PathError as exc:
            raise read.fail(f"{where}: {exc}; give the orders to try as values") from None
    every = set(range(len(current)))
    for j, v in enumerate(values):
        if not isinstance(v, list) or sorted(v) != sorted(every) or not all(isinstance(x, int) for x in v):
            raise read.fail(f"{where}.values[{j}] must be an order of 0..{len(current) - 1}, not {v!r}")
    return [tuple(v) for v in values]


def objectives(read: Reader, doc: dict[str, Any], spec: Any) -> None:
    """``spec.terms`` from the file's ``[[objective]]`` tables; then every strategy of the file checked."""

    spec.terms = objective_terms(read, doc.get("objective"), spec.players, spec.game)
    check_player(read, spec)
    check_strategies(read, spec)


def check_player(read: Reader, spec: Any) -> None:
    """The tuned player and the objective agree: a table that names ``PLAYER`` needs a player (only a tune
    file has one), a player must be played, and a win share needs seats that move it through every seat."""
    player = getattr(spec, "player", None)
    plays = [run for run in obj.runs_of(spec.terms) if PLAYER in run]
    if plays and player is None:
        if read.head != "tune":
            raise read.fail(f"the objective plays {PLAYER!r}, the tuned player, which only a tune file has")
        raise read.fail(f"the objective plays {PLAYER!r}, the tuned player: name it with {NAME_PLAYER}")
    if player is not None and not plays:
        raise read.fail(
            f"tune.player {player!r} is never played: write {PLAYER!r} in an objective's strategies"
            " or add an objective of kind win_share"
        )
    if any(t.kind == "win_share" for t in spec.terms) and spec.seats not in SHARE_SEATS:
        raise read.fail(
            f"objective kind win_share needs seats that put the player in every seat equally"
            f" (tune.seats {' or '.join(SHARE_SEATS)}, not {spec.seats!r})"
        )


def objective_terms(read: Reader, terms: Any, players: int, game: str | None = None) -> list[obj.Term]:
    """The checked ``[[objective]]`` tables (shared with ``skald sensitivity``, whose measures they are);
    ``game`` gives a win share its default field (the game's best scripted strategy)."""
    if isinstance(terms, dict):
        terms = [terms]
    if not isinstance(terms, list) or not terms:
        raise read.fail(
            "needs an [[objective]] table (kind = even_seats, game_length, win_matrix or win_share)"
        )
    return [_term(read, raw, f"objective[{i}]", players, game) for i, raw in enumerate(terms)]


def _term(read: Reader, raw: Any, where: str, players: int, game: str | None = None) -> obj.Term:
    if not isinstance(raw, dict):
        raise read.fail(f"{where} must be a table")
    kind = read.str(raw.get("kind"), f"{where}.kind", obj.KINDS)
    raw = read.keys(raw, where, OBJECTIVE_KEYS[kind])
    weight = read.number(raw.get("weight", 1.0), f"{where}.weight", 0.0, 1e6)
    if kind == "win_share":
        return _share(read, raw, where, players, weight, game)
    if kind == "even_seats":
        if ("populations" in raw) == ("strategies" in raw):
            raise read.fail(
                f"{where} needs one of populations (a list of strategy lists) or strategies (a list)"
            )
        pops = raw["populations"] if "populations" in raw else [raw["strategies"]]
        if not isinstance(pops, list) or not pops:
            raise read.fail(f"{where}.populations must be a non-empty list of strategy lists")
        runs = [
            obj.table_for(read.strategies(p, f"{where}.populations[{j}]"), players)
            for j, p in enumerate(pops)
        ]
        return obj.Term(
            kind,
            weight,
            tuple(dict.fromkeys(runs)),
            measure=read.str(raw.get("measure", "gap"), f"{where}.measure", obj.MEASURES),
            combine=read.str(raw.get("combine", "max"), f"{where}.combine", obj.COMBINES),
        )
    strategies = read.strategies(raw.get("strategies"), f"{where}.strategies")
    if kind == "game_length":
        target = read.number(raw.get("target"), f"{where}.target", 1e-9, 1e9)
        return obj.Term(kind, weight, (obj.table_for(strategies, players),), target=target)
    return _matrix(read, raw, where, players, strategies, weight)


def _share(
    read: Reader, raw: dict[str, Any], where: str, players: int, weight: float, game: str | None
) -> obj.Term:
    """A win_share term: the player in one seat, ``field`` (default: the game's best scripted strategy)
    in the others."""
    if players < 2:
        raise read.fail(f"{where}: a win share needs two or more players, not {players}")
    default = (best_strategy(game) if game is not None else None) or "random"
    field = read.str(raw.get("field", default), f"{where}.field")
    if field == PLAYER:
        raise read.fail(f"{where}.field must be a strategy other than the tuned player ({PLAYER!r})")
    table = obj.share_table(PLAYER, field, players)
    return obj.Term("win_share", weight, (table,), strategies=(PLAYER, field))


def _matrix(
    read: Reader, raw: dict[str, Any], where: str, players: int, strategies: list[str], weight: float
) -> obj.Term:
    k = len(strategies)
    if k < 2 or len(set(strategies)) != k or players < 2:
        raise read.fail(f"{where}.strategies must be two or more different strategies (and players >= 2)")
    target = raw.get("target")
    ok = (
        isinstance(target, list)
        and len(target) == k
        and all(
            isinstance(row, list)
            and len(row) == k
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1 for x in row)
            for row in target
        )
    )
    if not ok:
        raise read.fail(f"{where}.target must be a {k} x {k} matrix of win rates from 0 to 1")
    runs = tuple(table for _, _, table in obj.pair_runs(tuple(strategies), players))
    return obj.Term("win_matrix", weight, runs, target=target, strategies=tuple(strategies))


def load_file(path: str | Path) -> Tune:
    """Read and check a tune file."""
    return parse(*read_file(path, "tune file"))

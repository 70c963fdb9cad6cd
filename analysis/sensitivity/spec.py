"""The sensitivity file (TOML) and its checks: one ``SkaldError`` line naming the key and what is allowed.

[sensitivity]
name = "mainland"               # letters, digits, - and _ (default output folder results/sensitivity-NAME)
game = "mainland"
players = 4
seed = 42                       # the screen's seed: the common seeds of every point, the design, intervals
budget = 3000                   # games in all (--budget overrides it; it sets the trajectories or samples)
games = 40                      # games per point and strategy table, on the same seeds at every point
seats = "rotate"
method = "morris"               # or "sobol" (scipy.stats.sobol_indices), where the budget allows
levels = 4                      # Morris's grid of p levels (even)
spread = 0.5                    # numbers and scaled tables vary +-50% unless a [[values]] table says
values = "reconstructed"        # every value marked reconstructed (default), or "declared": only [[values]]
exclude = ["board.2", "board.3"]  # names (fnmatch patterns) of reconstructed values left out

[[values]]                      # a range or alternatives for a value (found or not), or a rule switch
path = "board.4"                # name = "...", low/high (numbers: bounds; scaled tables: factors)
low = 0.8                       # or values = [...] (a choice: the alternatives, the packaged one first)
high = 1.2                      # or kind = "rule", rule = "NAME" (values, or low/high for a number)

[[objective]]                   # the verdicts measured: as a tune's (analysis.tune.objectives)
kind = "even_seats"
strategies = ["greedy"]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.sensitivity import values as V
from analysis.tune import objectives as obj
from analysis.tune.params import Parameter, PathError, get, label, parse_path
from analysis.tune.spec import NAME_RE, Reader, _relative, objective_terms
from sim.errors import SkaldError

HEAD_KEYS = {
    "name", "title", "description", "game", "players", "seed", "budget", "games", "seats", "rules", "data",
    "max_decisions", "method", "levels", "spread", "values", "exclude",
}  # fmt: skip
VALUE_KEYS = {"name", "kind", "path", "rule", "low", "high", "values", "labels"}
METHODS = ("morris", "sobol")


@dataclass
class Sensitivity:
    """A checked sensitivity file (its fields named as a tune's, so ``analysis.tune.play`` plays it)."""

    name: str
    title: str
    description: str
    game: str
    players: int
    seed: int
    budget: int
    games: int
    seats: str
    rules: dict[str, Any]
    data: str | None
    max_decisions: int | None
    method: str
    levels: int
    spread: float
    mode: str
    exclude: list[str]
    parameters: list[Parameter] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    terms: list[obj.Term] = field(default_factory=list)
    not_varied: list[dict[str, str]] = field(default_factory=list)
    source: str = ""
    text: str = ""
    base: Path = field(default_factory=Path)


def parse(text: str, source: str = "<text>", base: Path | None = None) -> Sensitivity:
    """Parse and check a sensitivity file against its game: nothing is written, nothing played."""
    read = Reader(source, "sensitivity file")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise read.fail(f"not valid TOML: {exc}") from None
    bad = sorted(set(doc) - {"sensitivity", "values", "objective"})
    if bad:
        raise read.fail(f"unknown table {bad[0]!r} (allowed: [sensitivity], [[values]], [[objective]])")
    head = read.keys(doc.get("sensitivity"), "sensitivity", HEAD_KEYS)
    spec = _head(read, head, text, base or Path.cwd())
    from analysis.tune.check import check_game, check_strategies

    game = check_game(read, spec)
    declared = doc.get("values", [])
    if not isinstance(declared, list):
        raise read.fail("values must be [[values]] tables")
    from analysis.sensitivity.select import select

    select(read, spec, game, [read.keys(v, f"values[{i}]", VALUE_KEYS) for i, v in enumerate(declared)])
    if not spec.parameters:
        raise read.fail("varies no value (every reconstructed value is excluded or has no range: see values)")
    spec.terms = objective_terms(read, doc.get("objective"), spec.players)
    check_strategies(read, spec)
    return spec


def _head(read: Reader, head: dict[str, Any], text: str, base: Path) -> Sensitivity:
    from sim import seats as seating

    name = read.str(head.get("name"), "sensitivity.name")
    if not NAME_RE.match(name):
        raise read.fail(f"sensitivity.name {name!r} may hold only letters, digits, '-' and '_'")
    rules = head.get("rules", {})
    if not isinstance(rules, dict):
        raise read.fail("sensitivity.rules must be a table of rule switches (name = value)")
    levels = read.int(head.get("levels", 4), "sensitivity.levels", 2, 20)
    if levels % 2:
        raise read.fail(f"sensitivity.levels must be even (Morris's jump is levels/2), not {levels}")
    exclude = head.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(x, str) for x in exclude):
        raise read.fail("sensitivity.exclude must be a list of value names (patterns such as 'cards.*')")
    data = head.get("data")
    return Sensitivity(
        name=name,
        title=read.str(head.get("title", name), "sensitivity.title"),
        description=str(head.get("description", "")).strip(),
        game=read.str(head.get("game"), "sensitivity.game"),
        players=read.int(head.get("players"), "sensitivity.players", 1),
        seed=read.int(head.get("seed", 42), "sensitivity.seed", 0, 2**31 - 1),
        budget=read.int(head.get("budget", 2000), "sensitivity.budget", 1),
        games=read.int(head.get("games", 40), "sensitivity.games", 1),
        seats=read.str(head.get("seats", "rotate"), "sensitivity.seats", tuple(seating.MODES)),
        rules=dict(rules),
        data=None if data is None else str(_relative(base, read.str(data, "sensitivity.data"))),
        max_decisions=None
        if "max_decisions" not in head
        else read.int(head["max_decisions"], "sensitivity.max_decisions", 1),
        method=read.str(head.get("method", "morris"), "sensitivity.method", METHODS),
        levels=levels,
        spread=read.number(head.get("spread", 0.5), "sensitivity.spread", 0.01, 0.99),
        mode=read.str(
            head.get("values", "reconstructed"), "sensitivity.values", ("reconstructed", "declared")
        ),
        exclude=list(exclude),
        source=read.source,
        text=text,
        base=base,
    )


def at(read: Reader, docs: dict[str | None, Any], path: str, where: str) -> Any:
    """The value at a data path (one line naming ``where`` when there is none)."""
    try:
        file, steps = parse_path(path)
        if file not in docs:
            raise PathError(f"the data has no file {file!r} (files: {', '.join(str(f) for f in docs)})")
        return get(docs[file], steps)
    except PathError as exc:
        raise read.fail(f"{where} {path!r}: {exc}") from None


def labels_of(read: Reader, raw: dict[str, Any], where: str, options: list[Any]) -> tuple[str, ...]:
    given = raw.get("labels")
    if given is None:
        return tuple(label(o) for o in options)
    if (
        not isinstance(given, list)
        or len(given) != len(options)
        or not all(isinstance(x, str) for x in given)
    ):
        raise read.fail(f"{where}.labels must be a list of {len(options)} strings, one per value")
    return tuple(given)


def load_file(path: str | Path) -> Sensitivity:
    """Read and check a sensitivity file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SkaldError(f"sensitivity file {str(path)!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SkaldError(f"cannot read sensitivity file {str(path)!r}: {exc}") from None
    return parse(text, repr(str(path)), base=path.parent)


__all__ = ["Sensitivity", "V", "load_file", "parse"]

"""Study files: one command from a question to a report, defined in small TOML files; this module
reads and checks them and plans their runs (``analysis.study.study`` runs them).

The packaged studies live in ``analysis/study/studies/*.toml``; copy one, edit it and run it with
``skald study --file my.toml``.  A study file has a ``[study]`` table and one or more
``[[runs]]`` tables; each ``[[runs]]`` expands to one run per player count x strategy mix x
rule variant::

    [study]
    name = "mainland-scores"        # results go to results/<name>/ (letters, digits, - and _)
    title = "Mainland score spreads"
    description = "How Mainland scores spread by seat, strategy and player count."
    games = 400                     # games per run (--games overrides it)
    seed = 42                       # root seed of every run (same seed: common deals across variants)
    seats = "rotate"                # rotate | exhaustive | random | fixed
    jobs = -1                       # worker processes (--jobs overrides it)
    all = true                      # whether `skald study --all` plays it (false: long studies)
    margin = 5                      # the seat verdicts' margin in points of win share (--margin overrides it)
    until_decided = false           # play each rotate/exhaustive run in looks until its questions are decided
    # budget = 3200, looks = 4, spending = "obrien-fleming"   # (sequential_study; --until-decided)

    [[runs]]
    game = "mainland"
    players = [2, 3, 4]             # an integer or a list
    strategies = ["greedy", "builder", "raider", "random"]   # the first <players> of them play
    # mixes = [["greedy", "random", "greedy"], ...]          # instead of strategies: several mixes
    # rungs = ["random", "greedy", "learned"]                # instead: a skill matrix (matrix_mixes)
    # rules = { castle_needs_overlap = false }               # rule switches for every run of this entry
    # variants = [{ label = "strict", castle_needs_overlap = true },
    #             { label = "loose", castle_needs_overlap = false }]
    # games = 200, seats = "fixed", max_decisions = 3000, data = "my-data.toml", name = "prefix"
    # replicates = 4    # each deal played 4 times with fresh strategy generators (with rungs: the mirrors)
    # mirror_games = 200  # with rungs: the games of each mirror (default: games); the cells play games
    # mirror_games = { greedy = 400, learned = 50 }      # or by rung

Every malformed file gets a one-line ``SkaldError`` naming the file and the key.

A study leaves its file beside its run folders (``study.toml``): ``variant_labels`` reads the labels it
gives the runs' rule variants from there.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim import seats as seating
from sim.errors import SkaldError
from sim.games import GAMES, get_game

if TYPE_CHECKING:
    from analysis.data.runs import Runs

#: the ``[study]`` table's keys of a study that plays until decided (``analysis.study.sequential_study``)
SEQUENTIAL_KEYS = ("until_decided", "budget", "looks", "spending")
#: the most looks a study may take (a plan doubles its batches: ten looks start at 1/512 of the budget)
MAX_LOOKS = 10
#: ``analysis.stats.sequential.DEFAULT_LOOKS``, ``DEFAULT_SPENDING`` and ``SPENDING`` (this module imports
#: nothing heavy, so reading a study file stays quick; ``tests/analysis/test_sequential_study.py`` checks
#: they agree)
DEFAULT_LOOKS = 4
DEFAULT_SPENDING = "obrien-fleming"
SPENDING = ("obrien-fleming", "pocock", "bonferroni")


@dataclass(frozen=True)
class Options:
    """How a study plays until decided: whether it does, the most games a run plays (None:
    ``analysis.study.sequential_study.BUDGET_FACTOR`` times its games), the looks and the α-spending
    function."""

    until_decided: bool = False
    budget: int | None = None
    looks: int = DEFAULT_LOOKS
    spending: str = DEFAULT_SPENDING


def parse_options(head: dict[str, Any], fail: Callable[[str], SkaldError]) -> Options:
    """The ``[study]`` table's keys of a study that plays until decided (``SEQUENTIAL_KEYS``), checked;
    ``fail`` makes a message the study file's one-line error."""
    until = head.get("until_decided", False)
    if not isinstance(until, bool):
        raise fail(f"study.until_decided must be true or false, not {until!r}")
    try:
        budget = count(head["budget"], "study.budget") if "budget" in head else None
        looks = count(head.get("looks", DEFAULT_LOOKS), "study.looks", MAX_LOOKS)
    except SkaldError as exc:
        raise fail(str(exc)) from None
    spending = head.get("spending", DEFAULT_SPENDING)
    if spending != DEFAULT_SPENDING and spending not in SPENDING:
        raise fail(f"study.spending must be one of {', '.join(SPENDING)}, not {spending!r}")
    return Options(until, budget, looks, spending)


def count(value: Any, where: str, most: int | None = None) -> int:
    """A whole number from 1 to ``most`` (default ``sim.plan.MAX_GAMES``), or a one-line error naming
    ``where``."""
    from sim.plan import MAX_GAMES, check_count  # deferred: sim.plan loads pyarrow and the games

    if isinstance(value, bool) or not isinstance(value, int):
        raise SkaldError(f"{where} must be a whole number, not {value!r}")
    check_count(value, where, MAX_GAMES if most is None else most)
    return value


STUDY_KEYS = {
    "name",
    "title",
    "description",
    "games",
    "seed",
    "seats",
    "jobs",
    "all",
    "margin",
    *SEQUENTIAL_KEYS,
}


def margin_share(points: Any, where: str = "--margin") -> float:
    """A margin given in percentage points of win share (``5``) as a share (0.05), as a study file
    (``margin = 5``) and the command line (``--margin 5``) give it: a one-line ``SkaldError`` unless it is
    a number above 0 and below 50."""
    ok = isinstance(points, int | float) and not isinstance(points, bool) and math.isfinite(points)
    if not ok or not 0 < points < 50:
        raise SkaldError(f"{where} must be a number of points above 0 and below 50, not {points!r}")
    return float(points) / 100.0


RUN_KEYS = {
    "name",
    "game",
    "players",
    "strategies",
    "mixes",
    "rungs",
    "rules",
    "variants",
    "games",
    "seats",
    "seed",
    "max_decisions",
    "replicates",
    "mirror_games",
    "data",
}
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


@dataclass(frozen=True)
class PlannedRun:
    """One ``skald run`` of a study."""

    name: str
    game: str
    players: int
    strategies: list[str]
    rules: dict[str, Any]
    games: int
    seats: str
    seed: int
    max_decisions: int | None = None
    data: str | None = None
    #: times each deal is played, each time with fresh strategy generators (``sim.seats``)
    replicates: int = 1
    #: a skill matrix's cell (``rungs``): (the spec in one seat, the spec in the others); a study that plays
    #: until decided stops it on the cell's own question, whether the one is as strong as the others
    cell: tuple[str, str] | None = None


@dataclass
class Study:
    """A parsed study file."""

    name: str
    title: str
    description: str
    games: int
    seed: int
    seats: str
    jobs: int
    runs: list[dict[str, Any]]
    source: str  # where it was read from
    text: str = ""
    base: Path = field(default_factory=Path)
    #: whether ``skald study --all`` plays it (``all = false``: a long study, run by its name)
    in_all: bool = True
    #: the margin its seat verdicts are decided at, a share (``margin = 5`` in points); None: the default
    margin: float | None = None
    #: whether (and how) it plays until decided (``analysis.study.sequential_study``)
    sequential: Options = field(default_factory=Options)

    @property
    def games_needed(self) -> list[str]:
        """The games this study simulates, in order of first use."""
        return list(dict.fromkeys(r["game"] for r in self.runs))

    def missing(self) -> str | None:
        """None when every game it needs is available, else a one-line reason."""
        for game in self.games_needed:
            reason = game_unavailable(game)
            if reason:
                return f"study {self.name!r} needs {game}, which is {reason}"
        return None

    def plan(self, games: int | None = None) -> list[PlannedRun]:
        """The runs, expanded; ``games`` replaces every run's game count."""
        if games is not None and games < 1:
            raise SkaldError(f"--games must be at least 1, not {games}")
        planned: list[PlannedRun] = []
        for i, entry in enumerate(self.runs):
            where = f"runs[{i}]"
            players = entry["players"]
            variants = entry["variants"] or [{}]
            for p in players:
                mixes, names = _mixes_for(entry, p)
                for m, mix in enumerate(mixes):
                    strategies = _for_players(mix, p, f"{self.source}: {where}")
                    for variant in variants:
                        label = variant.get("label")
                        rules = {**entry["rules"], **{k: v for k, v in variant.items() if k != "label"}}
                        parts = [entry.get("name") or entry["game"], f"{p}p"]
                        if names:
                            parts.append(names[m])
                        elif len(mixes) > 1:
                            parts.append(f"mix{m + 1}")
                        if len(variants) > 1 or label:
                            parts.append(_slug(label or _rules_label(rules)))
                        planned.append(
                            PlannedRun(
                                name="-".join(parts),
                                game=entry["game"],
                                players=p,
                                strategies=strategies,
                                rules=rules,
                                games=games or _games(entry, strategies) or self.games,
                                seats=entry.get("seats") or self.seats,
                                seed=entry.get("seed", self.seed),
                                max_decisions=entry.get("max_decisions"),
                                data=_data_path(entry.get("data"), self.base),
                                replicates=_replicates(entry, mix),
                                cell=_cell(entry, strategies),
                            )
                        )
        names = [r.name for r in planned]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise SkaldError(
                f"study file {self.source}: two runs would share the folder {dupes[0]!r} "
                "(give the [[runs]] entries different names or variant labels)"
            )
        return planned


def _games(entry: dict[str, Any], strategies: list[str]) -> int | None:
    """An entry's ``games``; a skill matrix's mirrors play ``mirror_games`` where it gives them (a mirror
    decides its seat verdict, which can take more games than a cell's comparison of two rungs)."""
    mirrors = entry.get("mirror_games", {})
    if entry.get("rungs") and len(set(strategies)) == 1 and strategies[0] in mirrors:
        return int(mirrors[strategies[0]])
    return entry.get("games")


def _replicates(entry: dict[str, Any], mix: list[str]) -> int:
    """An entry's ``replicates``; in a skill matrix (``rungs``) only its mirrors (one strategy in every seat)
    replay their deals (the deal's share of a rung's outcome is read from its mirror), the cells play each
    deal once."""
    if entry.get("rungs") and len(set(mix)) > 1:
        return 1
    return int(entry.get("replicates", 1))


def _cell(entry: dict[str, Any], strategies: list[str]) -> tuple[str, str] | None:
    """A skill matrix's cell run as (one, field): the spec listed first against the other; None for its
    mirrors and for every other entry's runs."""
    specs = list(dict.fromkeys(strategies))
    return (specs[0], specs[1]) if entry.get("rungs") and len(specs) == 2 else None


def _data_path(path: str | None, base: Path) -> str | None:
    if path is None:
        return None
    p = Path(path)
    return str(p if p.is_absolute() else base / p)


def matrix_mixes(rungs: list[str], players: int) -> tuple[list[list[str]], list[str]]:
    """A skill matrix's tables and their run names (``analysis.questions.skill``): each rung in every seat
    (its mirror), then each rung in one seat against each other rung in the others (both ways; at two
    players one table holds both, so each pair once)."""
    mixes = [[r] for r in rungs]
    names = [f"{_slug(r)}-mirror" for r in rungs]
    for i, a in enumerate(rungs):
        for j, b in enumerate(rungs):
            if i != j and (players > 2 or i < j):
                mixes.append([a] + [b] * (players - 1))
                names.append(f"{_slug(a)}-vs-{_slug(b)}")
    return mixes, names


def _mixes_for(entry: dict[str, Any], players: int) -> tuple[list[list[str]], list[str]]:
    """An entry's tables at ``players`` and their run names (none: ``mixN`` where there are several)."""
    if entry.get("rungs"):
        return matrix_mixes(entry["rungs"], players)
    return entry["mixes"], []


def _for_players(mix: list[str], players: int, where: str) -> list[str]:
    if len(mix) == 1:
        return mix * players
    if len(mix) < players:
        raise SkaldError(
            f"{where}: {len(mix)} strategies given for {players} players "
            "(give at least one per player, or a single one for every seat)"
        )
    return list(mix[:players])


def _rules_label(rules: dict[str, Any]) -> str:
    return "-".join(f"{k}-{str(v).lower()}" for k, v in sorted(rules.items())) or "defaults"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "-", text).strip("-").lower() or "variant"


def game_unavailable(game: str) -> str | None:
    """None when ``game`` is registered and loads; else why not ("not available yet (...)")."""
    if game not in GAMES:
        return f"not available yet (registered games: {', '.join(sorted(GAMES))})"
    try:
        get_game(game)
    except Exception as exc:
        return f"not loadable yet ({type(exc).__name__}: {exc})"
    return None


# --------------------------------------------------------------------------- parsing


def _fail(source: str, message: str) -> SkaldError:
    return SkaldError(f"study file {source}: {message}")


def _int(value: Any, where: str, source: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(source, f"{where} must be an integer, not {value!r}")
    if minimum is not None and value < minimum:
        raise _fail(source, f"{where} must be at least {minimum}, not {value}")
    return value


def _str(value: Any, where: str, source: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(source, f"{where} must be a non-empty string, not {value!r}")
    return value.strip()


def _bool(value: Any, where: str, source: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(source, f"{where} must be true or false, not {value!r}")
    return value


def _strategy_list(value: Any, where: str, source: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(s, str) and s.strip() for s in value):
        raise _fail(source, f"{where} must be a non-empty list of strategy specs (strings), not {value!r}")
    return [s.strip() for s in value]


def _scalar_rules(value: Any, where: str, source: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, f"{where} must be a table of rule switches (name = value), not {value!r}")
    for k, v in value.items():
        if not isinstance(v, (bool, int, float, str)):
            raise _fail(source, f"{where}.{k} must be a boolean, number or string, not {v!r}")
    return dict(value)


def _margin(value: Any, source: str) -> float | None:
    """``study.margin`` (points) as a share, None where the file leaves it out."""
    if value is None:
        return None
    try:
        return margin_share(value, "study.margin")
    except SkaldError as exc:
        raise _fail(source, str(exc)) from None


def parse(text: str, source: str = "<text>", base: Path | None = None) -> Study:
    """Parse and check a study file's text (a one-line ``SkaldError`` for anything malformed)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(source, f"not valid TOML: {exc}") from None
    unknown = sorted(set(doc) - {"study", "runs"})
    if unknown:
        raise _fail(source, f"unknown table {unknown[0]!r} (allowed: [study] and [[runs]])")
    head = doc.get("study")
    if not isinstance(head, dict):
        raise _fail(source, "needs a [study] table with at least name")
    bad = sorted(set(head) - STUDY_KEYS)
    if bad:
        raise _fail(source, f"unknown key study.{bad[0]} (allowed: {', '.join(sorted(STUDY_KEYS))})")
    name = _str(head.get("name"), "study.name", source)
    if not NAME_RE.match(name):
        raise _fail(source, f"study.name {name!r} may hold only letters, digits, '-' and '_'")

    seats = _str(head.get("seats", seating.DEFAULT_MODE), "study.seats", source)
    if seats not in seating.MODES:
        raise _fail(source, f"study.seats {seats!r} is not a seat mode (allowed: {', '.join(seating.MODES)})")
    jobs = _int(head.get("jobs", -1), "study.jobs", source)
    from sim.backends import check_jobs  # deferred: joblib

    try:
        check_jobs(jobs, "study.jobs")
    except SkaldError as exc:
        raise _fail(source, str(exc)) from None
    study = Study(
        name=name,
        title=_str(head.get("title", name), "study.title", source),
        description=str(head.get("description", "")).strip(),
        games=_int(head.get("games", 200), "study.games", source, 1),
        seed=_int(head.get("seed", 42), "study.seed", source, 0),
        seats=seats,
        jobs=jobs,
        runs=[],
        source=source,
        text=text,
        base=base or Path.cwd(),
        in_all=_bool(head.get("all", True), "study.all", source),
        margin=_margin(head.get("margin"), source),
        sequential=parse_options(head, lambda message: _fail(source, message)),
    )
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs or not all(isinstance(r, dict) for r in runs):
        raise _fail(source, "needs at least one [[runs]] table")
    for i, raw in enumerate(runs):
        study.runs.append(_parse_run(raw, f"runs[{i}]", source, seating.MODES))
    return study


def _parse_run(raw: dict[str, Any], where: str, source: str, modes: tuple[str, ...]) -> dict[str, Any]:
    """One ``[[runs]]`` table, checked key by key (a one-line error naming the key otherwise)."""
    bad = sorted(set(raw) - RUN_KEYS)
    if bad:
        raise _fail(source, f"unknown key {where}.{bad[0]} (allowed: {', '.join(sorted(RUN_KEYS))})")
    entry: dict[str, Any] = {"game": _str(raw.get("game"), f"{where}.game", source)}
    entry["players"] = _parse_players(raw.get("players"), where, source)
    entry["mixes"] = _parse_mixes(raw, where, source)
    if "rungs" in raw:
        entry["rungs"] = [m[0] for m in entry["mixes"]]
    entry["rules"] = _scalar_rules(raw.get("rules", {}), f"{where}.rules", source)
    entry["variants"] = _parse_variants(raw.get("variants", []), where, source)
    entry.update(_parse_optional(raw, where, source, modes))
    if "mirror_games" in raw:
        entry["mirror_games"] = _mirror_games(raw["mirror_games"], entry.get("rungs"), where, source)
    return entry


def _mirror_games(value: Any, rungs: list[str] | None, where: str, source: str) -> dict[str, int]:
    """A ``rungs`` entry's ``mirror_games``, by rung: an integer for every mirror, or a table naming some
    rungs (the others' mirrors play ``games``)."""
    if rungs is None:
        raise _fail(source, f"{where}.mirror_games sizes a skill matrix's mirrors: give it with rungs")
    if not isinstance(value, dict):
        return dict.fromkeys(rungs, _int(value, f"{where}.mirror_games", source, 1))
    unknown = sorted(set(value) - set(rungs))
    if unknown:
        raise _fail(
            source, f"{where}.mirror_games names {unknown[0]!r}, not a rung (rungs: {', '.join(rungs)})"
        )
    return {rung: _int(n, f"{where}.mirror_games.{rung}", source, 1) for rung, n in value.items()}


def _parse_players(players: Any, where: str, source: str) -> list[int]:
    if players is None:
        raise _fail(source, f"{where}.players is missing (an integer or a list of integers)")
    players = players if isinstance(players, list) else [players]
    if not players:
        raise _fail(source, f"{where}.players must not be empty")
    return [_int(p, f"{where}.players", source, 1) for p in players]


def _parse_mixes(raw: dict[str, Any], where: str, source: str) -> list[list[str]]:
    if sum(key in raw for key in ("strategies", "mixes", "rungs")) != 1:
        raise _fail(
            source,
            f"{where} needs exactly one of strategies (a list), mixes (a list of lists) or rungs (a list: a "
            "skill matrix)",
        )
    if "rungs" in raw:
        rungs = _strategy_list(raw["rungs"], f"{where}.rungs", source)
        if len(rungs) < 2 or len(set(rungs)) != len(rungs):
            raise _fail(source, f"{where}.rungs must list two or more different strategies, not {rungs!r}")
        return [[r] for r in rungs]
    if "strategies" in raw:
        return [_strategy_list(raw["strategies"], f"{where}.strategies", source)]
    mixes = raw["mixes"]
    if not isinstance(mixes, list) or not mixes:
        raise _fail(source, f"{where}.mixes must be a non-empty list of strategy lists")
    return [_strategy_list(m, f"{where}.mixes[{j}]", source) for j, m in enumerate(mixes)]


def _parse_variants(variants: Any, where: str, source: str) -> list[dict[str, Any]]:
    if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
        raise _fail(source, f"{where}.variants must be a list of tables (rule = value, optional label)")
    checked_all = []
    for j, v in enumerate(variants):
        checked = _scalar_rules(v, f"{where}.variants[{j}]", source)
        if "label" in checked:
            checked["label"] = _str(checked["label"], f"{where}.variants[{j}].label", source)
        checked_all.append(checked)
    return checked_all


def _parse_optional(raw: dict[str, Any], where: str, source: str, modes: tuple[str, ...]) -> dict[str, Any]:
    """The run's optional keys: name, games, seed, seats, max_decisions, replicates, data."""
    entry: dict[str, Any] = {}
    if "name" in raw:
        entry["name"] = _str(raw["name"], f"{where}.name", source)
        if not NAME_RE.match(entry["name"]):
            raise _fail(source, f"{where}.name {entry['name']!r} may hold only letters, digits, '-' and '_'")
    for key, low in (("games", 1), ("seed", 0)):
        if key in raw:
            entry[key] = _int(raw[key], f"{where}.{key}", source, low)
    if "seats" in raw:
        entry["seats"] = _str(raw["seats"], f"{where}.seats", source)
        if entry["seats"] not in modes:
            raise _fail(
                source, f"{where}.seats {entry['seats']!r} is not a seat mode (allowed: {', '.join(modes)})"
            )
    if "max_decisions" in raw:
        entry["max_decisions"] = _int(raw["max_decisions"], f"{where}.max_decisions", source, 1)
    if "replicates" in raw:
        entry["replicates"] = _int(raw["replicates"], f"{where}.replicates", source, 1)
    if "data" in raw:
        entry["data"] = _str(raw["data"], f"{where}.data", source)
    return entry


def load_file(path: str | Path) -> Study:
    """Read a user's study file."""
    return parse(*read_file(path, "study file"))


def read_file(path: str | Path, what: str) -> tuple[str, str, Path]:
    """A user's file (``what``: "study file", "tune file"...): its text, its name as errors quote it and
    its folder, ``parse``'s arguments; a one-line ``SkaldError`` when it cannot be read."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SkaldError(f"{what} {str(path)!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SkaldError(f"cannot read {what} {str(path)!r}: {exc}") from None
    return text, repr(str(path)), path.parent


# --------------------------------------------------------------------------- the labels a study leaves


def variant_labels(runs: Runs) -> dict[tuple[str, str], str]:
    """The study labels of the runs' rule variants, ``(game, variant) -> label`` (``skali=true`` ->
    ``skali``), read from the ``study.toml`` a study leaves beside its run folders; a variant without a
    label, or labelled two ways, keeps its rules' name."""
    found: dict[tuple[str, str], set[str]] = {}
    plans: dict[Path, dict[str, str]] = {}
    for run in runs:
        spec = run.path.parent / "study.toml"
        if spec not in plans:
            plans[spec] = {}
            if spec.is_file():
                try:
                    study = load_file(spec)
                    for entry, planned in zip(_entries(study), study.plan(), strict=True):
                        if entry:
                            plans[spec][planned.name] = entry
                except (SkaldError, OSError, ValueError):
                    pass  # a study file that no longer parses: keep the rules' names
        label = plans[spec].get(run.path.name)
        if label:
            found.setdefault((run.game, run.variant), set()).add(label)
    return {key: next(iter(labels)) for key, labels in found.items() if len(labels) == 1}


def _entries(study: Study) -> list[str | None]:
    """Each planned run's variant label, in ``Study.plan`` order."""
    labels: list[str | None] = []
    for entry in study.runs:
        for p in entry["players"]:
            for _ in _mixes_for(entry, p)[0]:
                labels.extend(v.get("label") for v in (entry["variants"] or [{}]))
    return labels

"""Studies: one command from a question to a report, defined in small TOML files.

The packaged studies live in ``analysis/studies/*.toml``; copy one, edit it and run it with
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
    # budget = 3200, looks = 4, spending = "obrien-fleming"   # (analysis.sequential_study; --until-decided)

    [[runs]]
    game = "mainland"
    players = [2, 3, 4]             # an integer or a list
    strategies = ["greedy", "builder", "raider", "random"]   # the first <players> of them play
    # mixes = [["greedy", "random", "greedy"], ...]          # instead of strategies: several mixes
    # rules = { castle_needs_overlap = false }               # rule switches for every run of this entry
    # variants = [{ label = "strict", castle_needs_overlap = true },
    #             { label = "loose", castle_needs_overlap = false }]
    # games = 200, seats = "fixed", max_decisions = 3000, data = "my-data.toml", name = "prefix"

Every malformed file gets a one-line ``SkaldError`` naming the file and the key.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis import sequential_study
from sim import outputs
from sim.errors import SkaldError

if TYPE_CHECKING:
    from analysis.runs import Runs

STUDY_KEYS = {"name", "title", "description", "games", "seed", "seats", "jobs", "all", "margin",
              *sequential_study.KEYS}
#: the studies of no one game (``skald study skill-ladder``), beside those the plug-ins bring
CORE_STUDIES = ("analysis.studies:skill-ladder.toml", "analysis.studies:stronger-play.toml")
RUN_KEYS = {
    "name",
    "game",
    "players",
    "strategies",
    "mixes",
    "rules",
    "variants",
    "games",
    "seats",
    "seed",
    "max_decisions",
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
    #: whether (and how) it plays until decided (``analysis.sequential_study``)
    sequential: sequential_study.Options = field(default_factory=sequential_study.Options)

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
            mixes = entry["mixes"]
            variants = entry["variants"] or [{}]
            for p in players:
                for m, mix in enumerate(mixes):
                    strategies = _for_players(mix, p, f"{self.source}: {where}")
                    for variant in variants:
                        label = variant.get("label")
                        rules = {**entry["rules"], **{k: v for k, v in variant.items() if k != "label"}}
                        parts = [entry.get("name") or entry["game"], f"{p}p"]
                        if len(mixes) > 1:
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
                                games=games or entry.get("games") or self.games,
                                seats=entry.get("seats") or self.seats,
                                seed=entry.get("seed", self.seed),
                                max_decisions=entry.get("max_decisions"),
                                data=_data_path(entry.get("data"), self.base),
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


def _data_path(path: str | None, base: Path) -> str | None:
    if path is None:
        return None
    p = Path(path)
    return str(p if p.is_absolute() else base / p)


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
    from sim.games import GAMES, get_game

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
    from analysis.balance import margin_share

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
    from sim import seats as seating

    seats = _str(head.get("seats", seating.DEFAULT_MODE), "study.seats", source)
    if seats not in seating.MODES:
        raise _fail(source, f"study.seats {seats!r} is not a seat mode (allowed: {', '.join(seating.MODES)})")
    jobs = _int(head.get("jobs", -1), "study.jobs", source)
    from sim.backends import check_jobs

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
        sequential=sequential_study.parse_options(head, lambda message: _fail(source, message)),
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
    entry["rules"] = _scalar_rules(raw.get("rules", {}), f"{where}.rules", source)
    entry["variants"] = _parse_variants(raw.get("variants", []), where, source)
    entry.update(_parse_optional(raw, where, source, modes))
    return entry


def _parse_players(players: Any, where: str, source: str) -> list[int]:
    if players is None:
        raise _fail(source, f"{where}.players is missing (an integer or a list of integers)")
    players = players if isinstance(players, list) else [players]
    if not players:
        raise _fail(source, f"{where}.players must not be empty")
    return [_int(p, f"{where}.players", source, 1) for p in players]


def _parse_mixes(raw: dict[str, Any], where: str, source: str) -> list[list[str]]:
    if ("strategies" in raw) == ("mixes" in raw):
        raise _fail(source, f"{where} needs exactly one of strategies (a list) or mixes (a list of lists)")
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
    """The run's optional keys: name, games, seed, seats, max_decisions, data."""
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


def packaged() -> dict[str, Study]:
    """The studies the registered games bring (their plug-ins' ``studies``) and the studies of no one
    game (``CORE_STUDIES``: the skill ladder, verdicts under stronger play), by name, sorted."""
    from sim.games import GAMES
    from sim.plugin import GamePlugin

    core = GamePlugin(name="core", title="", description="", game="", studies=CORE_STUDIES)
    found = {}
    for plugin in [*GAMES.values(), core]:
        for shown, text, item in plugin.study_texts():
            study = parse(text, shown, base=Path(str(item)).parent)
            found[study.name] = study
    return dict(sorted(found.items()))


def get(name: str) -> Study:
    """A packaged study by name."""
    studies = packaged()
    if name not in studies:
        raise SkaldError(f"unknown study {name!r} (allowed: {', '.join(studies)}; or --file my.toml)")
    return studies[name]


# --------------------------------------------------------------------------- running


@dataclass
class StudyResult:
    study: Study
    out: Path
    runs: list[Path]
    report: Path | None
    skipped: list[str] = field(default_factory=list)


class StudyInterrupted(KeyboardInterrupt):
    """A study stopped by Ctrl-C (or SIGTERM); its finished runs are kept for ``resume=True``."""


#: the study folder's log: a first line saying whether the attempt replays an earlier study
#: (``{"study": NAME, "overwrite": true}``), then one line per run it finished (``{"run": NAME}``)
PROGRESS_FILE = outputs.STUDY_LOG


def check_folder(
    folder: Path, overwrite: bool = False, resume: bool = False, runs: Iterable[str] = ()
) -> None:
    """Refuse a study folder that is a run folder, not a folder, or (without ``overwrite`` or
    ``resume``) holds anything already: a study never replays an earlier one without a word.  With
    either, a folder that holds anything must be a study's (its log, ``sim.outputs.is_study_folder``),
    its report a page Skald wrote and, with ``overwrite``, its folders of ``runs`` run folders holding
    only what Skald wrote: a study replaces only what Skald wrote."""
    if overwrite and resume:
        raise SkaldError(
            "give --overwrite (play every run again) or --resume (keep the finished runs), not both"
        )
    if (folder / "manifest.json").exists():
        raise SkaldError(
            f"output folder {str(folder)!r} is a run folder (choose another --out for the study)"
        )
    held = outputs.check_folder(folder)
    if not held:
        return
    if not outputs.is_study_folder(folder):
        raise SkaldError(
            f"output folder {str(folder)!r} exists and is not empty, and holds no study: it holds"
            f" {outputs.holds(held)} (--overwrite and --resume take up only a Skald study folder, with its"
            f" {PROGRESS_FILE}; choose another --out)"
        )
    if not (overwrite or resume):
        raise SkaldError(
            f"study folder {str(folder)!r} exists and is not empty (pass --resume to keep its finished runs"
            " and play the rest, --overwrite to play every run again, or choose another --out)"
        )
    outputs.check_page(folder / "report.html", "--out", "the study's report")
    if overwrite:
        outputs.check_runs(folder, runs)


def _progress(folder: Path) -> tuple[bool, set[str]]:
    """From the folder's log: (whether the attempt replays an earlier study, the runs it finished)."""
    try:
        lines = (folder / PROGRESS_FILE).read_text(errors="replace").splitlines()
    except OSError:
        return False, set()
    docs = []
    for line in lines:
        try:
            doc = json.loads(line)
        except ValueError:
            continue  # a torn last line
        if isinstance(doc, dict):
            docs.append(doc)
    replaying = bool(docs and docs[0].get("overwrite"))
    return replaying, {str(doc["run"]) for doc in docs if "run" in doc}


def _log(folder: Path, doc: dict[str, Any], start: bool = False) -> None:
    with open(folder / PROGRESS_FILE, "w" if start else "a", encoding="utf-8") as log:
        log.write(json.dumps(doc) + "\n")


def run_study(
    study: Study,
    *,
    games: int | None = None,
    jobs: int | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    report: bool = True,
    overwrite: bool = False,
    resume: bool = False,
    on_run: Callable[[PlannedRun, int, int], None] | None = None,
    on_skip: Callable[[str], None] | None = None,
    margin: float | None = None,
    until_decided: bool = False,
    budget: int | None = None,
    looks: int | None = None,
) -> StudyResult:
    """Run every simulation of ``study`` into ``out`` (default ``results/<name>``) and write
    ``report.html``.

    A folder that holds anything already is refused unless ``overwrite`` (every run is played again;
    each run folder is replaced once its new run is done) or ``resume``: the runs finished before are
    kept (each checked to be the very run planned), an interrupted run is finished from its chunks
    (``skald run --resume``) and the rest are played; after an interrupted ``overwrite`` only the runs
    it had replayed count as finished.  Ctrl-C raises ``StudyInterrupted``; ``on_skip`` also receives
    the runs' own notes (a run kept, a run resumed).  ``margin`` (a share) overrides the study's own for
    the report's seat verdicts; ``until_decided``, ``budget`` (games) and ``looks`` the study's own way of
    playing until decided (``analysis.sequential_study``).
    """
    options = sequential_study.override(study.sequential, until_decided, budget, looks)
    margin = margin if margin is not None else study.margin
    sequence = options if options.until_decided else None
    attempt, skipped = _begin(study, games, jobs, out, progress, overwrite, resume, on_skip,
                              (sequence, margin))
    attempt.margin, attempt.sequential = margin, sequence
    planned = attempt.planned
    index = 0
    try:
        for index, planned_run in enumerate(planned):
            if on_run is not None:
                on_run(planned_run, index, len(planned))
            _play(attempt, planned_run)
        written = _write_report(attempt) if report else None
    except KeyboardInterrupt:
        if len(attempt.paths) < len(planned):
            where = f"in run {index + 1} of {len(planned)} ({planned[index].name})"
        else:
            where = "while writing its report"
        raise StudyInterrupted(
            f"study {study.name!r} interrupted {where}; its {len(attempt.paths)} finished runs are kept"
            f" in {str(attempt.folder)!r}"
        ) from None
    return StudyResult(study, attempt.folder, attempt.paths, written, skipped)


@dataclass
class _Attempt:
    """One attempt at a study: its folder, the runs it plays, what an earlier attempt finished (read
    from the folder's log under ``resume``) and the run folders finished so far (``paths``)."""

    study: Study
    folder: Path
    planned: list[PlannedRun]
    jobs: int | None
    overwrite: bool
    resume: bool
    replaying: bool
    finished: set[str]
    on_skip: Callable[[str], None] | None
    progress: bool
    paths: list[Path] = field(default_factory=list)
    margin: float | None = None
    sequential: sequential_study.Options | None = None


def _begin(
    study: Study,
    games: int | None,
    jobs: int | None,
    out: str | Path | None,
    progress: bool,
    overwrite: bool,
    resume: bool,
    on_skip: Callable[[str], None] | None,
    sequence: tuple[sequential_study.Options | None, float | None] = (None, None),
) -> tuple[_Attempt, list[str]]:
    """Check the study and its folder, plan its runs, start (or, under ``resume``, read) the folder's
    log and write ``study.toml`` (and, playing until decided, start ``sequence.json``: ``sequence`` is
    its options and margin): the attempt and the notes of the runs skipped."""
    from sim.backends import check_jobs

    reason = study.missing()
    if reason:
        raise SkaldError(reason)
    if jobs is not None:
        check_jobs(jobs)
    planned, skipped = _runnable(study.plan(games))
    if not planned:
        raise SkaldError(f"study {study.name!r} has no run its games can play: {'; '.join(skipped)}")
    folder = Path(out) if out is not None else Path("results") / study.name
    check_folder(folder, overwrite, resume, [p.name for p in planned])
    sequential_study.check(planned, sequence[0], folder, sequence[1], resume)
    replaying, finished = _progress(folder) if resume else (overwrite, set())
    if resume and replaying:  # the earlier study's runs it has not replayed yet are replaced
        outputs.check_runs(folder, [p.name for p in planned if p.name not in finished])
    for note in skipped:
        if on_skip is not None:
            on_skip(note)
    folder.mkdir(parents=True, exist_ok=True)
    if not resume:
        _log(folder, {"study": study.name, "overwrite": overwrite}, start=True)
    (folder / "study.toml").write_text(study.text, encoding="utf-8")
    if sequence[0] is not None:
        sequential_study.start(folder, study.name, sequence[0], sequence[1], resume)
    attempt = _Attempt(
        study, folder, planned, jobs, overwrite, resume, replaying, finished, on_skip, progress
    )
    return attempt, skipped


def _play(attempt: _Attempt, planned_run: PlannedRun) -> None:
    """Finish one planned run: keep (or resume) the earlier attempt's, copy the same run played by an
    earlier study of this process, or play it (in looks, playing until decided)."""
    from sim.resume import partial_path
    from sim.runner import RunConfig, run

    folder, on_skip = attempt.folder, attempt.on_skip
    target = folder / planned_run.name
    looks = sequential_study.schedule(planned_run, attempt.sequential)
    if looks is not None:  # played in looks until decided: never copied, as its games depend on its records
        sequential_study.play(attempt, planned_run, looks)
        return _finished(folder, planned_run, None, target, attempt.paths)
    key = _run_key(planned_run)
    source = _FINISHED.get(key) if key else None
    earlier = target.exists() or partial_path(target).exists()
    if attempt.resume and earlier:
        replayed = planned_run.name in attempt.finished
        if attempt.replaying and not replayed and (target / "manifest.json").is_file():
            shutil.rmtree(target)  # the earlier study's run, which the interrupted attempt replays
    elif source is not None and (source / "manifest.json").is_file() and source.resolve() != target.resolve():
        _copy_run(source, target)
        if on_skip is not None:
            on_skip(f"run {planned_run.name} is the same run as {source}: copied, not played again")
        _finished(folder, planned_run, key, target, attempt.paths)
        return
    config = RunConfig(
        game=planned_run.game,
        players=planned_run.players,
        games=planned_run.games,
        strategies=planned_run.strategies,
        seats=planned_run.seats,
        jobs=attempt.jobs if attempt.jobs is not None else attempt.study.jobs,
        seed=planned_run.seed,
        out=target,
        rules=planned_run.rules,
        data=planned_run.data,
        max_decisions=planned_run.max_decisions,
        overwrite=attempt.overwrite,
        progress=attempt.progress,
        resume=attempt.resume and earlier,
    )
    try:
        run(config, on_note=on_skip)
    except SkaldError as exc:
        raise type(exc)(f"study {attempt.study.name!r}, run {planned_run.name}: {exc}") from exc
    _finished(folder, planned_run, key, target, attempt.paths)


def _write_report(attempt: _Attempt) -> Path:
    """The study's ``report.html`` over its finished runs."""
    from analysis.report import write_report

    study = attempt.study
    return write_report(
        attempt.paths,
        attempt.folder / "report.html",
        title=study.title,
        study={"name": study.name, "title": study.title, "description": study.description},
        progress=attempt.progress,
        margin=attempt.margin,
    )


def _finished(folder: Path, planned: PlannedRun, key: str | None, target: Path, paths: list[Path]) -> None:
    """Log a run the study has finished (played, resumed, kept or copied)."""
    _log(folder, {"run": planned.name})
    if key:
        _FINISHED[key] = target
    paths.append(target)


def _runnable(planned: list[PlannedRun]) -> tuple[list[PlannedRun], list[str]]:
    """The runs whose rule switches their game has, and a note for each run skipped for lacking one.

    So a study written ahead of a rule switch (e.g. Graenaland's custom start) runs what it can.
    """
    from sim.games import get_game

    keep, notes = [], []
    for planned_run in planned:
        names = {s.name for s in get_game(planned_run.game).rule_switches}
        unknown = sorted(set(planned_run.rules) - names)
        if unknown:
            notes.append(
                f"skipped run {planned_run.name}: {planned_run.game} has no rule switch {unknown[0]!r} yet"
            )
        else:
            keep.append(planned_run)
    return keep, notes


#: the runs this process has finished, by what makes their records (``_run_key``): a study that plans a
#: run another study has already played (``skald study --all``: the Graenaland studies share their
#: standard runs) copies that folder instead of playing the same games again
_FINISHED: dict[str, Path] = {}


def _run_key(planned: PlannedRun) -> str | None:
    """Everything that decides a run's records (not its folder or worker count); None when unknown."""
    try:
        from sim import rules as rulebook
        from sim.games import get_game

        game = get_game(planned.game)
        rules = rulebook.resolve(game, planned.rules)
        _, sha1 = rulebook.data_identity(game, game.load_data(planned.data), planned.data)
    except Exception:
        return None
    return json.dumps(
        {
            "game": planned.game,
            "players": planned.players,
            "games": planned.games,
            "strategies": planned.strategies,
            "seats": planned.seats,
            "seed": planned.seed,
            "rules": rules,
            "data_sha1": sha1,
            "max_decisions": planned.max_decisions,
        },
        sort_keys=True,
        default=str,
    )


def _copy_run(source: Path, target: Path) -> None:
    """Copy a finished run folder to ``target`` (replacing it), through a temporary sibling."""
    tmp = target.with_name(f"{target.name}.partial-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(source, tmp)
    if target.exists():
        shutil.rmtree(target)
    tmp.rename(target)


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
        for _ in entry["players"]:
            for _ in entry["mixes"]:
                labels.extend(v.get("label") for v in (entry["variants"] or [{}]))
    return labels

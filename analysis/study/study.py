"""Studies: one command from a question to a report.  A study file (``analysis.data.study_file``: its
format, checks and planned runs) names the runs; this module finds the packaged studies (the plug-ins'
and ``CORE_STUDIES``) and runs one: its runs played, kept, resumed or copied into its folder, then its
report written.  A study that plays until decided plays its runs in looks
(``analysis.study.sequential_study``).  The runner and the report are imported where they are used, so
listing and checking a study stays quick.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.data.study_file import Options, PlannedRun, Study, parse
from analysis.study import sequential_study
from analysis.study.attempt import Attempt
from sim import outputs
from sim import rules as rulebook
from sim.errors import SkaldError
from sim.games import GAMES, get_game
from sim.plugin import GamePlugin

#: the studies of no one game (``skald study skill-ladder``), beside those the plug-ins bring
CORE_STUDIES = (
    "analysis.study.studies:skill.toml",
    "analysis.study.studies:skill-ladder.toml",
    "analysis.study.studies:stronger-play.toml",
)


def packaged() -> dict[str, Study]:
    """The studies the registered games bring (their plug-ins' ``studies``) and the studies of no one
    game (``CORE_STUDIES``: the skill ladder, verdicts under stronger play), by name, sorted."""
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
    playing until decided (``analysis.study.sequential_study``).
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


def _begin(
    study: Study,
    games: int | None,
    jobs: int | None,
    out: str | Path | None,
    progress: bool,
    overwrite: bool,
    resume: bool,
    on_skip: Callable[[str], None] | None,
    sequence: tuple[Options | None, float | None] = (None, None),
) -> tuple[Attempt, list[str]]:
    """Check the study and its folder, plan its runs, start (or, under ``resume``, read) the folder's
    log and write ``study.toml`` (and, playing until decided, start ``sequence.json``: ``sequence`` is
    its options and margin): the attempt and the notes of the runs skipped."""
    from sim.backends import check_jobs  # deferred: joblib

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
    attempt = Attempt(
        study, folder, planned, jobs, overwrite, resume, replaying, finished, on_skip, progress
    )
    return attempt, skipped


def _play(attempt: Attempt, planned_run: PlannedRun) -> None:
    """Finish one planned run: keep (or resume) the earlier attempt's, copy the same run played by an
    earlier study of this process, or play it (in looks, playing until decided)."""
    from sim.resume import partial_path  # deferred: the runner
    from sim.runner import RunConfig, run  # deferred: the runner

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
        replicates=planned_run.replicates,
        overwrite=attempt.overwrite,
        progress=attempt.progress,
        resume=attempt.resume and earlier,
    )
    try:
        run(config, on_note=on_skip)
    except SkaldError as exc:
        raise type(exc)(f"study {attempt.study.name!r}, run {planned_run.name}: {exc}") from exc
    _finished(folder, planned_run, key, target, attempt.paths)


def _write_report(attempt: Attempt) -> Path:
    """The study's ``report.html`` over its finished runs."""
    from analysis.report.report import write_report  # deferred: the report (matplotlib, statsmodels)

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
        }
        | ({"replicates": planned.replicates} if planned.replicates != 1 else {}),
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

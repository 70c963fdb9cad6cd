"""Studies that play until decided: each run played in looks, stopped at the first look that decides its
questions (docs/studies.md, "Studies that play until decided").

A study file's ``[study]`` table turns it on (``until_decided = true``; ``skald study --until-decided``)
and sizes it: ``budget`` (the most games a run plays; default ``BUDGET_FACTOR`` times its ``games``),
``looks`` (default ``analysis.stats.sequential.DEFAULT_LOOKS``) and ``spending`` (one of
``analysis.stats.sequential.SPENDING``).  A run whose seats are ``rotate`` or ``exhaustive`` then plays in
looks (``Schedule``): look j brings it to n_j blocks (``analysis.stats.sequential.plan_looks`` over the
budget's blocks), then decides its questions at the look's level (``analysis.stats.sequential.look``): the
seat question and, where the records name a start position, the start-position question, on the block matrices
the report uses (``analysis.questions.balance``).  The run stops at the first look where every question is
decided (fair or unfair), or at the last.  Runs under other seat modes play their fixed games.

A look does not replay the games before it: a run of n games is the first n games of a longer run, so the
run folder grows (``sim.resume.grow``: its chunks kept, only the new ones played).  The chunk size divides
every look's games.  The budget's blocks are rounded down to a multiple of 2^(K−1) where that leaves two
blocks at the first look, so the looks double exactly (64, 128, 256, 512 blocks) and share large chunks.

``sequence.json`` in the study folder records, per run, the plan, the spending, each question's decision at
each look taken, the look it stopped at and the games played; it is written whole after each look
(temporary name, then rename).  ``--resume`` takes a run up after its last recorded look; the records do
not depend on where a study stopped, so the same seed gives the same stops and the same report.

The statistics, the records and the runner are imported where they are used (each such import says what
it defers), so listing and checking a study stays quick.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis.data.sequence import SEQUENCE_FILE, STRENGTH, read_sequence, said
from analysis.data.study_file import MAX_LOOKS, Options, PlannedRun, count
from sim import seats as seating
from sim.errors import SkaldError

if TYPE_CHECKING:
    import polars as pl

    from analysis.stats.decide import Decision
    from analysis.study.attempt import Attempt

#: a run's default budget: this many times its games
BUDGET_FACTOR = 8
#: the most games a chunk of a run played in looks holds (``sim.plan.MIN_PART``: parts of a useful size)
CHUNK_GAMES = 100
#: the fewest chunks the first look (and so every look: each adds at least the first's blocks) is cut
#: into where its blocks allow: two a worker on two cores, so that neither waits while the other plays
FIRST_LOOK_CHUNKS = 4
#: the questions a look decides: the position columns of the seats table, by how the page names them
QUESTIONS = {"seat": "seats", "start_position": "start positions"}
#: with a skill matrix cell's one question instead (``PlannedRun.cell``, ``STRENGTH``): is the rung in one
#: seat as strong as the rung in the others, within the margin of its even share?
NAMES = {**QUESTIONS, STRENGTH: "rung strength"}
FORMAT = 1


def override(options: Options, until_decided: bool, budget: int | None, looks: int | None) -> Options:
    """The study's options with the command line's (``--until-decided``, ``--budget``, ``--looks``), checked:
    ``--budget`` and ``--looks`` only for a study that plays until decided."""
    if budget is not None:
        count(budget, "--budget")
    if looks is not None:
        count(looks, "--looks", MAX_LOOKS)
    playing = options.until_decided or until_decided
    if not playing and (budget is not None or looks is not None):
        given = "--budget" if budget is not None else "--looks"
        raise SkaldError(f"{given} sizes a study that plays until decided: give --until-decided too")
    return replace(
        options,
        until_decided=playing,
        budget=options.budget if budget is None else budget,
        looks=options.looks if looks is None else looks,
    )


@dataclass(frozen=True)
class Schedule:
    """One run's looks: games per block, the budget in games (whole blocks), the blocks at each look, the
    chunk size (dividing every look's games) and the spending."""

    block_size: int
    budget: int
    plan: tuple[int, ...]
    chunk_size: int
    spending: str

    def games(self, look_index: int) -> int:
        """The games the run holds after look ``look_index``."""
        return self.plan[look_index] * self.block_size

    def doc(self) -> dict[str, Any]:
        """The schedule as ``sequence.json`` records it."""
        from analysis.stats.decide.core import ALPHA  # deferred: statsmodels, scipy
        from analysis.stats.sequential import look_levels  # deferred: statsmodels, scipy

        return {
            "block_size": self.block_size,
            "budget": self.budget,
            "plan": list(self.plan),
            "games_per_look": [self.games(j) for j in range(len(self.plan))],
            "chunk_size": self.chunk_size,
            "spending": self.spending,
            "levels": list(look_levels(self.plan, ALPHA, self.spending)),
        }


def schedule(planned: PlannedRun, options: Options | None) -> Schedule | None:
    """The looks of ``planned`` under ``options`` (module docstring); None where it plays its fixed games
    (no options, or seats neither ``rotate`` nor ``exhaustive``).  A budget under two blocks is a one-line
    ``SkaldError``."""
    from analysis.data.design import BLOCK_MODES  # deferred: polars
    from analysis.stats.sequential import plan_looks  # deferred: statsmodels, scipy

    if options is None or not options.until_decided or planned.seats not in BLOCK_MODES:
        return None
    size = seating.block_size(
        planned.seats, planned.players, [s.strip() for s in planned.strategies], planned.replicates
    )
    budget = options.budget if options.budget is not None else BUDGET_FACTOR * planned.games
    blocks = budget // size
    step = 2 ** (options.looks - 1)
    if blocks >= 2 * step:
        blocks -= blocks % step
    if blocks < 2:
        raise SkaldError(
            f"run {planned.name}: a budget of {budget:,} games is less than two blocks of {size} games"
            f" ({planned.seats} seats, {planned.players} players): give a budget of {2 * size} games or more"
        )
    plan = plan_looks(blocks, options.looks)
    common = math.gcd(*plan)
    most = max(1, plan[0] // FIRST_LOOK_CHUNKS)
    per_chunk = max((d for d in range(1, most + 1) if common % d == 0 and d * size <= CHUNK_GAMES), default=1)
    return Schedule(size, blocks * size, plan, per_chunk * size, options.spending)


# --------------------------------------------------------------------------- the record


def sequence_path(folder: Path) -> Path:
    """The study folder's ``sequence.json`` (``analysis.data.sequence.SEQUENCE_FILE``)."""
    return folder / SEQUENCE_FILE


def read(folder: Path) -> dict[str, Any] | None:
    """The study folder's ``sequence.json``, or None where there is none to read."""
    return read_sequence(sequence_path(folder)) or None


def write(folder: Path, doc: dict[str, Any]) -> None:
    """Write ``sequence.json`` whole (a temporary name, then a rename)."""
    from sim.manifest import json_text, write_text_atomic  # deferred: pyarrow

    write_text_atomic(json_text(doc), sequence_path(folder))


def _header(study: str, options: Options, margin: float | None) -> dict[str, Any]:
    """What every run of the study shares, as ``sequence.json`` records it (``margin`` None: the default)."""
    from analysis.stats.decide.core import ALPHA, SEAT_MARGIN  # deferred: statsmodels, scipy

    return {"format": FORMAT, "study": study, "margin": SEAT_MARGIN if margin is None else margin,
            "alpha": ALPHA, "looks": options.looks, "spending": options.spending}  # fmt: skip


def check(
    planned: list[PlannedRun], options: Options | None, folder: Path, margin: float | None, resume: bool
) -> None:
    """Before a study writes anything: every run's budget holds two blocks, and under ``resume`` the folder
    was started the same way (playing until decided or not, with the same margin, looks, spending and
    plans): a one-line ``SkaldError`` otherwise."""
    plans = {p.name: schedule(p, options) for p in planned}
    earlier = read(folder) if resume else None
    if earlier is None:
        return
    if options is None or not options.until_decided:
        raise SkaldError(
            f"cannot resume the study in {str(folder)!r}: it was started playing until decided (give"
            " --until-decided as it was, or pass --overwrite)"
        )
    wanted = _header(str(earlier.get("study")), options, margin)
    for key in ("margin", "looks", "spending"):
        if earlier.get(key) != wanted[key]:
            raise _mismatch(folder, key, earlier.get(key), wanted[key])
    for name, entry in earlier["runs"].items():
        now = plans.get(name)
        if now is not None and isinstance(entry, dict) and entry.get("plan") != list(now.plan):
            raise _mismatch(folder, f"{name}'s blocks per look", entry.get("plan"), list(now.plan))


def _mismatch(folder: Path, what: str, then: Any, now: Any) -> SkaldError:
    """The one-line error of a resume with another setting than the folder was started with."""
    return SkaldError(
        f"cannot resume the study in {str(folder)!r}: it was started with {what} {then}, not {now}"
        " (resume with the same options, or pass --overwrite)"
    )


def start(folder: Path, study: str, options: Options, margin: float | None, resume: bool) -> None:
    """Start the study folder's ``sequence.json`` (under ``resume``, keep the one there)."""
    if resume and read(folder) is not None:
        return
    write(folder, {**_header(study, options, margin), "runs": {}})


# --------------------------------------------------------------------------- playing in looks


def play(attempt: Attempt, planned: PlannedRun, plan: Schedule) -> None:
    """Play one run in looks until every question is decided or the budget is spent, recording each look
    in ``sequence.json``; under ``resume`` take it up after its last recorded look (a run that stopped is
    kept as it is)."""
    from analysis.stats.decide import SEAT_MARGIN, UNDECIDED  # deferred: statsmodels, scipy

    folder = attempt.folder
    doc = read(folder) or {"runs": {}}
    entry = doc["runs"].get(planned.name) if attempt.resume else None
    if not isinstance(entry, dict) or entry.get("plan") != list(plan.plan):
        entry = {"seats": planned.seats, **plan.doc(), "looks": [], "stopped_at": None}
    done = entry["looks"]
    if entry.get("stopped_at") is not None:
        if _holds(folder / planned.name, entry.get("run")):
            if attempt.on_skip is not None:
                attempt.on_skip(f"run {planned.name} stopped at look {entry['stopped_at']}: kept as it is")
            return
        del done[entry["stopped_at"] - 1 :]  # its folder is gone or changed: play its last look again
        entry["stopped_at"] = None
    margin = SEAT_MARGIN if attempt.margin is None else attempt.margin
    for j in range(len(done), len(plan.plan)):
        _reach(attempt, planned, plan, j, first=not done)
        run_id, decisions = decide_look(folder / planned.name, plan, j, margin, planned.cell)
        done.append(_look_doc(plan, j, run_id, decisions))
        decided = all(d is None or d.decision != UNDECIDED for d in decisions.values())
        last = j == len(plan.plan) - 1
        if decided or last:
            entry.update(
                stopped_at=j + 1, stopped="decided" if decided else "budget", games=plan.games(j), run=run_id
            )
        doc = read(folder) or doc  # another run's entry, as the file holds it
        doc["runs"][planned.name] = entry
        write(folder, doc)
        if decided or last:
            _announce(attempt, planned, plan, j, decisions)
            return


def _holds(target: Path, run_id: Any) -> bool:
    """Whether the run folder ``target`` holds the finished run ``run_id``."""
    from sim.resume import finished_manifest  # deferred: the runner

    found = finished_manifest(target)
    return found is not None and found.get("run") == run_id


def _reach(attempt: Attempt, planned: PlannedRun, plan: Schedule, j: int, first: bool) -> None:
    """Bring the run folder to look ``j``'s games: the first look as ``analysis.study.study`` plays any run
    (an earlier study's folder replaced under ``--overwrite``, an interrupted one resumed), a later one by
    growing the folder (``sim.resume.grow``)."""
    from sim.resume import grow, partial_path  # deferred: the runner
    from sim.runner import RunConfig, run  # deferred: the runner

    target = attempt.folder / planned.name
    config = RunConfig(
        game=planned.game,
        players=planned.players,
        games=plan.games(j),
        strategies=planned.strategies,
        seats=planned.seats,
        jobs=attempt.jobs if attempt.jobs is not None else attempt.study.jobs,
        seed=planned.seed,
        out=target,
        rules=planned.rules,
        data=planned.data,
        max_decisions=planned.max_decisions,
        replicates=planned.replicates,
        chunk_size=plan.chunk_size,
        progress=attempt.progress,
    )
    try:
        if not first:
            grow(config, on_note=attempt.on_skip)
            return
        earlier = target.exists() or partial_path(target).exists()
        if attempt.resume and earlier and attempt.replaying and planned.name not in attempt.finished:
            if (target / "manifest.json").is_file():
                shutil.rmtree(target)  # the earlier study's run, which the interrupted attempt replays
        run(
            replace(config, overwrite=attempt.overwrite, resume=attempt.resume and earlier),
            on_note=attempt.on_skip,
        )
    except SkaldError as exc:
        raise type(exc)(f"study {attempt.study.name!r}, run {planned.name}: {exc}") from exc


def decide_look(
    target: Path, plan: Schedule, j: int, margin: float, cell: tuple[str, str] | None = None
) -> tuple[str, dict[str, Decision | None]]:
    """The run in ``target`` at look ``j``: its records' ``run`` identity and each question's decision at
    the look's level (None where the records cannot pose it: fewer than two positions, not one per
    player, or no decided game), on the report's block matrices (``analysis.questions.balance``).  A skill
    matrix's ``cell`` asks its own question instead (``STRENGTH``): the matrix reads each rung's seat
    verdict from its mirror, and the cell's from how the rungs compare."""
    import polars as pl  # deferred: polars

    from analysis.data.runs import open_runs  # deferred: polars, pyarrow
    from analysis.questions.balance import _decided_seats  # deferred: statsmodels, scipy, polars

    runs = open_runs(target)
    run = runs.runs[0]
    found: dict[str, Decision | None] = {}
    with pl.Config(engine_affinity="in-memory"):
        if cell is not None:
            seats = _decided_seats(runs, "seat").collect()
            found[STRENGTH] = _strength(seats, cell, run.players, plan, j, margin)
            return str(run.manifest.get("run")), found
        for position in QUESTIONS:
            if position == "seat" or runs.has_column("seats", position):
                frame = _decided_seats(runs, position).collect()
                found[position] = _question(frame, position, run.players, plan, j, margin)
    return str(run.manifest.get("run")), found


def _question(
    frame: pl.DataFrame, position: str, players: int, plan: Schedule, j: int, margin: float
) -> Decision | None:
    """One question at look ``j`` (``analysis.stats.sequential.look``), as ``analysis.questions.balance``
    poses it."""
    from analysis.questions.balance import _block_matrix  # deferred: statsmodels, scipy, polars
    from analysis.stats.sequential import look  # deferred: statsmodels, scipy

    if not frame.height:
        return None
    y, m, positions = _block_matrix(frame, position)
    if len(positions) < 2 or len(positions) != players or not (m > 0).any():
        return None
    return look(y, margin, j, plan.plan, spending=plan.spending, labels=[str(p) for p in positions], games=m)


def _strength(
    frame: pl.DataFrame, cell: tuple[str, str], players: int, plan: Schedule, j: int, margin: float
) -> Decision | None:
    """A cell's question at look ``j``: the one rung's win share (its seats' summed shares, ties split)
    against its even share 1/players, the others' against theirs, as two positions whose deviations are
    each other's negatives (a family of one): equal within the margin, or one stronger."""
    import polars as pl  # deferred: polars

    from analysis.questions.balance import _block_matrix  # deferred: statsmodels, scipy, polars
    from analysis.stats.sequential import look  # deferred: statsmodels, scipy

    one, field = cell
    if not frame.height:
        return None
    sides = frame.with_columns(
        pl.when(pl.col("strategy") == one)
        .then(pl.lit(one if players == 2 else f"{one} (one seat)"))
        .otherwise(pl.lit(field))
        .alias("side")
    )
    y, m, sides_found = _block_matrix(sides, "side")
    if len(sides_found) != 2 or not (m > 0).any():
        return None
    even = [(players - 1) / players if side == field else 1.0 / players for side in sides_found]
    return look(
        y,
        margin,
        j,
        plan.plan,
        spending=plan.spending,
        labels=[str(s) for s in sides_found],
        games=m,
        expected=even,
    )


def decision_doc(decision: Decision | None) -> dict[str, Any] | None:
    """A look's decision as ``sequence.json`` records it: the outcome, the decisive position with its win
    share, that statistic's interval and p (on α's scale), the look's level, the half-width, the games that
    would decide it (undecided), the blocks and games it stands on, and the rule in words."""
    if decision is None:
        return None
    found = decision.to_finding()
    even = decision.expected[decision.decisive]

    def share(x: float | None) -> float | None:
        return None if x is None else even + x

    return {
        "decision": decision.decision,
        "position": found["position"],
        "share": share(found["estimate"]),
        "low": share(found["low"]),
        "high": share(found["high"]),
        "expected": even,
        "p_value": found["p_value"],
        "level": decision.level,
        "half_width": found["half_width"],
        "games_needed": decision.games_needed,
        "blocks": decision.blocks,
        "games": decision.games,
        "stopping": decision.stopping,
    }


def _look_doc(plan: Schedule, j: int, run_id: str, decisions: dict[str, Decision | None]) -> dict[str, Any]:
    """One look as ``sequence.json`` records it."""
    from analysis.stats.decide.core import ALPHA  # deferred: statsmodels, scipy
    from analysis.stats.sequential import look_levels  # deferred: statsmodels, scipy

    return {
        "look": j + 1,
        "blocks": plan.plan[j],
        "games": plan.games(j),
        "level": look_levels(plan.plan, ALPHA, plan.spending)[j],
        "run": run_id,
        "questions": {q: decision_doc(d) for q, d in decisions.items()},
    }


def _announce(
    attempt: Attempt, planned: PlannedRun, plan: Schedule, j: int, decisions: dict[str, Decision | None]
) -> None:
    """A note on where a run stopped and what it decided."""
    if attempt.on_skip is None:
        return
    told = "; ".join(f"{NAMES[q]} {said(q, d.decision)}" for q, d in decisions.items() if d is not None)
    attempt.on_skip(
        f"run {planned.name} stopped at look {j + 1} of {len(plan.plan)} ({plan.games(j):,} of"
        f" {plan.budget:,} games): {told or 'nothing to decide'}"
    )

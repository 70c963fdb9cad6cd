"""Play games between strategies, in parallel chunks, and write their records.

``simulate_chunk`` plays a contiguous range of game indices with the game loop (``sim.play``) and writes
one Parquet part per table (worker side); ``run`` validates a ``RunConfig``, fans chunks out
(``sim.backends``: loky workers or a Dask cluster), logs each finished chunk in ``OUT.partial``
(``sim.resume``, so a stopped run can be resumed, and a finished one grown to more games without
replaying it: ``sim.resume.grow``) and renames that folder to ``OUT`` at the end.  Chunking depends only
on the number of games, never on ``jobs`` or the backend, so every way of running writes byte-identical
parts.  A game whose strategy fails is recorded as errored (``on_error="continue"``) or fails the run
(``"stop"``).

The run's configuration and plan are ``sim.plan``'s, its manifest ``sim.manifest``'s, its totals
``sim.summary``'s and its games ``sim.play``'s; this module re-exports their names that callers know it
by.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sim.errors import SkaldError, one_line
from sim.manifest import (
    code_identity,
    commit_folder,
    manifest,
    missing_ancestor,
    remove_empty,
    versions,
    write_json,
)
from sim.plan import (
    CLUSTER_WORKERS,
    CODE_PACKAGES,
    CODE_ROOT,
    MAX_CHUNK,
    MIN_PART,
    ON_ERROR,
    TARGET_CHUNKS,
    Prepared,
    RunConfig,
    RunPlan,
    check_out,
    check_players,
    chunk_ranges,
    default_chunk_size,
    default_out,
    expand_strategies,
    load_game,
    make_plan,
    planned_workers,
    prepare,
    resolve_game,
    run_id,
)
from sim.play import GameFailure, GameOutcome, Observer, Played, play_game, play_indexed
from sim.resume import RUN_FILE, partial_path, read_progress, stored_identity, write_progress
from sim.signals import marking_interrupts
from sim.summary import BlockTally, ChunkSummary, RunSummary, summarize
from sim.tables import GameRows, TurnLog, part_bytes, part_name, write_part, write_part_bytes

#: the runner's own names, and those of ``sim.plan``, ``sim.manifest`` and ``sim.play`` callers know it by
__all__ = [
    "CLUSTER_WORKERS", "CODE_PACKAGES", "CODE_ROOT", "MAX_CHUNK", "MIN_PART", "ON_ERROR", "TARGET_CHUNKS",
    "ChunkSummary", "GameFailure", "GameOutcome", "Observer", "Played", "Prepared", "RunConfig", "RunPlan",
    "RunSummary",
    "check_out", "check_players", "chunk_ranges", "code_identity", "default_chunk_size", "default_out",
    "expand_strategies", "load_game", "make_plan", "planned_workers", "play_game", "play_indexed", "prepare",
    "resolve_game", "run", "run_id", "simulate_chunk", "versions",
]

#: seconds between a worker's notes of the games done in its chunk, and between the progress bar's reads
PROGRESS_SECONDS = 0.5


# --------------------------------------------------------------------------- plans and chunks


def simulate_chunk(
    plan: RunPlan, chunk: int, start: int, stop: int, out: Path | None, gather: bool = False
) -> ChunkSummary:
    """Play global games ``start..stop-1`` and write ``out/<table>/part-<chunk>.parquet`` for each table.

    With ``out`` None nothing is recorded or written (benchmarks).  With ``gather`` the parts are
    not written but returned as bytes in ``summary.parts`` (the same bytes), for a caller that
    writes them itself (a cluster without a shared filesystem).  A game whose strategy fails is
    recorded as errored (``plan.on_error == "continue"``) or raises ``GameFailure`` (``"stop"``).
    """
    t0 = time.perf_counter()
    game = resolve_game(plan.game_ref)
    n = plan.players
    summary = ChunkSummary(chunk=chunk, share_by_index=[0.0] * n, share_by_seat=[0.0] * n)
    recording = out is not None or gather
    turns = TurnLog() if recording else None
    rows = GameRows(plan.part_fields) if recording else None
    texts = [spec.text for spec in plan.specs]
    tally = BlockTally(texts, n)
    noted = t0
    for game_id in range(start, stop):
        played = play_indexed(plan, game, game_id, turns, rows, texts)
        tally.add(played.base, played.order, played.shares, not played.outcome.truncated)
        if out is not None and time.perf_counter() - noted > PROGRESS_SECONDS:
            write_progress(out, chunk, game_id + 1 - start)  # for the progress bar, between whole chunks
            noted = time.perf_counter()
        summary.games += 1
        summary.decisions += played.outcome.decisions
        summary.truncated += played.outcome.truncated
        if played.failure is not None:
            summary.errored += 1
            if summary.first_error is None:
                summary.first_error = f"game {game_id}: {played.failure}"
        for seat, share in enumerate(played.shares):
            summary.share_by_seat[seat] += share
            summary.share_by_index[played.order[seat]] += share
        for seat, telemetry in played.outcome.search.items():
            summary.add_search(played.order[seat], telemetry)
    summary.tally = tally.finish()
    if rows is not None and turns is not None:
        summary.turns = len(turns)
        name = part_name(chunk)
        tables = plan.part_tables(rows, turns)
        if gather:
            summary.parts = {table: part_bytes(data) for table, data in tables.items()}
        else:
            assert out is not None
            for table, data in tables.items():
                write_part(data, out / table / name)
    summary.seconds = time.perf_counter() - t0
    return summary



# --------------------------------------------------------------------------- the run


def run(
    config: RunConfig,
    on_chunk: Callable[[ChunkSummary], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    on_start: Callable[[Prepared], None] | None = None,
) -> RunSummary:
    """Validate ``config``, play every game in parallel chunks and commit the output folder.

    Nothing is written before validation passes.  The run works in ``OUT.partial`` (see
    ``sim.resume``) and renames it to ``OUT`` when every chunk is done.  If it stops early:

    * interrupted (Ctrl-C, SIGTERM: ``RunInterrupted``) or stopped by an unexpected error (a lost
      worker, a full disk: ``RunStopped``): ``OUT.partial`` is kept, and ``resume=True`` with the
      same configuration plays only the chunks it lacks;
    * a game error with ``on_error="stop"`` (``PlayError``) or any other ``SkaldError``:
      ``OUT.partial`` is removed, so ``out`` is left as it was.

    ``on_note`` receives one-line notes (resuming, parts played again); ``on_start`` the validated run
    once every check has passed (options, output folder, an interrupted run's folder and lock), just
    before the first game, so that what it prints never comes before an error.
    """
    t_start = time.perf_counter()
    note = on_note or (lambda text: None)
    prep = _prepare_resumable(config)
    identity = prep.identity()
    if config.resume:
        finished = _finished_run(prep, identity)
        if finished is not None:
            note(f"{str(prep.out)!r} is already complete: nothing to resume")
            return finished
    check_out(prep.out, config.overwrite)
    folder = _open_workspace(prep, config, identity, note)
    with marking_interrupts():  # Ctrl-C, told apart from a KeyboardInterrupt that a strategy raises
        return _play_and_commit(prep, config, folder, t_start, on_chunk, on_start)


def _prepare_resumable(config: RunConfig) -> Prepared:
    """``prepare(config)``; resuming without ``--chunk-size``, with the chunk size the interrupted attempt
    used (the default follows ``--jobs``, which may differ this time)."""
    prep = prepare(config)
    if config.resume and config.chunk_size is None:
        started = _started_chunk_size(prep.out)
        if started is not None and started != prep.chunk_size:
            prep = prepare(replace(config, chunk_size=started))
    return prep


@dataclass
class _Folder:
    """The run's working folder ``OUT.partial``, opened: its lock and log, the chunks an earlier attempt
    finished (``kept``), the outermost folder this run created (``created``) and whether an earlier
    attempt's chunks are in it (``resumed``: then it is never deleted)."""

    partial: Path
    workspace: Any
    kept: dict[int, ChunkSummary]
    created: Path | None
    resumed: bool


def _open_workspace(prep: Prepared, config: RunConfig, identity: dict[str, Any], note: Callable[[str], None]
                    ) -> _Folder:
    """Create ``OUT.partial``, or take over an interrupted attempt's (``--resume``: its finished chunks are
    checked and kept; ``--overwrite``: removed), refusing one another live run holds."""
    from sim.resume import Workspace, partial_path

    partial = partial_path(prep.out)
    workspace = Workspace(partial)
    created = missing_ancestor(prep.out.parent)
    kept: dict[int, ChunkSummary] = {}
    if partial.exists() and not partial.is_dir():
        raise SkaldError(f"{str(partial)!r} exists and is not a folder (remove it, or choose another --out)")
    if partial.is_dir():
        workspace, kept = _reopen(workspace, prep, config, identity, note)
    elif config.resume:
        note(f"nothing to resume at {str(partial)!r}: starting the run")
    resumed = partial.is_dir()
    if not resumed:
        try:
            prep.out.parent.mkdir(parents=True, exist_ok=True)
            workspace.create(identity)
        except OSError as exc:
            workspace.remove()
            remove_empty(prep.out.parent, created)
            raise SkaldError(f"cannot create {str(partial)!r}: {exc.strerror or exc}") from None
    return _Folder(partial, workspace, kept, created, resumed)


def _reopen(workspace: Any, prep: Prepared, config: RunConfig, identity: dict[str, Any],
            note: Callable[[str], None]) -> tuple[Any, dict[int, ChunkSummary]]:
    """An interrupted attempt's ``OUT.partial``: locked, then resumed (its logged chunks verified and
    kept), removed for ``--overwrite`` or refused."""
    from sim.resume import Workspace

    plan, chunks, partial = prep.plan, prep.chunks, workspace.path
    workspace.lock()  # refuses a folder another live run is writing
    kept: dict[int, ChunkSummary] = {}
    try:
        if config.resume:
            workspace.check_identity(identity)
            logged, notes = workspace.verify(
                chunks, plan.players, plan.action_fields, plan.part_fields, plan.run_id
            )
            kept = {c: ChunkSummary.from_json(doc) for c, doc in logged.items()}
            for text in notes:
                note(text)
            note(
                f"resuming {str(partial)!r}: {len(kept)} of {len(chunks)} chunks done"
                f" ({sum(s.games for s in kept.values()):,} of {prep.games:,} games)"
            )
        elif config.overwrite:
            workspace.remove()
            workspace = Workspace(partial)
        else:
            done = len(workspace.logged())
            raise SkaldError(
                f"an interrupted run left {str(partial)!r} ({done} of {len(chunks)} chunks done):"
                " pass --resume to finish it, or --overwrite to start over"
            )
    except BaseException:
        workspace.release()
        raise
    return workspace, kept


def _play_and_commit(prep: Prepared, config: RunConfig, folder: _Folder, t_start: float,
                     on_chunk: Callable[[ChunkSummary], None] | None,
                     on_start: Callable[[Prepared], None] | None) -> RunSummary:
    """Play the chunks not kept, write the manifest and rename ``OUT.partial`` to ``OUT``; on a stop, keep
    or remove the working folder as ``run`` says and raise what the stop means to the user."""
    plan, kept, workspace = prep.plan, folder.kept, folder.workspace
    kept_games = sum(s.games for s in kept.values())
    try:
        if on_start is not None:
            on_start(prep)
        summaries = list(kept.values())
        todo = _Todo((c for c in prep.chunks if c[0] not in kept), len(prep.chunks) - len(kept))
        workers = _play_chunks(
            plan, todo, folder.partial, config, prep.games, kept_games, summaries, workspace, on_chunk
        )
        summaries.sort(key=lambda s: s.chunk)
        wall = time.perf_counter() - t_start
        played = sum(s.games for s in summaries) - kept_games
        summary = summarize(plan, prep.games, config.games, summaries, wall, prep.out, played)
        summary.resumed_chunks = len(kept)
        summary.manifest = manifest(plan, config, prep, summary, summaries, workers)
        write_json(summary.manifest, folder.partial / "manifest.json")
        workspace.finish()
        commit_folder(folder.partial, prep.out)
        workspace.release()
    except BaseException as exc:
        workspace.release()
        stop = _stopped(exc, prep, folder)
        if stop is exc:
            raise
        raise stop from (None if isinstance(exc, KeyboardInterrupt) else exc)
    return summary


def _stopped(exc: BaseException, prep: Prepared, folder: _Folder) -> BaseException:
    """What a run stopped by ``exc`` raises (its working folder released): a user error as it is, its
    folder removed unless an earlier attempt's chunks are in it; Ctrl-C as ``RunInterrupted`` and any
    other error as ``RunStopped``, both naming the chunks kept for ``--resume``."""
    from sim.resume import RunInterrupted, RunStopped

    partial = folder.partial
    if isinstance(exc, SkaldError):
        if not folder.resumed:
            folder.workspace.remove()
            remove_empty(prep.out.parent, folder.created)
            return exc
        kept_note = type(exc)(f"{exc}; the chunks finished before are still in {str(partial)!r}")
        kept_note.__dict__.update(exc.__dict__)
        return kept_note
    if isinstance(exc, KeyboardInterrupt):
        done = folder.workspace.logged()
        games_done = sum(int(d.get("games", 0)) for d in done.values())
        return RunInterrupted(
            f"interrupted after {len(done)} of {len(prep.chunks)} chunks"
            f" ({games_done:,} of {prep.games:,} games);"
            f" the finished chunks are kept in {str(partial)!r}",
            partial,
        )
    if isinstance(exc, Exception):
        return RunStopped(
            f"the run stopped: {type(exc).__name__}: {one_line(exc, 'no message')}"[:600]
            + f"; the finished chunks are kept in {str(partial)!r}: fix the cause and rerun with --resume"
        )
    return exc


def _started_chunk_size(out: Path) -> int | None:
    """The chunk size an earlier attempt at the run in ``out`` used (its ``OUT.partial`` or finished
    ``OUT``), or None when there is none to read."""
    for path, keys in ((partial_path(out) / RUN_FILE, ("identity",)), (out / "manifest.json", ("config",))):
        try:
            doc = json.loads(path.read_text())
            for key in keys:
                doc = doc[key]
            return int(doc["chunk_size"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def _finished_run(prep: Prepared, identity: dict[str, Any]) -> RunSummary | None:
    """For ``--resume``: the summary of ``OUT`` when it already holds this very run, else None."""
    path = prep.out / "manifest.json"
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
        config = manifest["config"]
        totals = manifest["totals"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if stored_identity(manifest) != identity:
        return None
    plan, games = prep.plan, prep.games
    texts = [spec.text for spec in plan.specs]
    rates = totals.get("win_share_by_strategy", {})
    decided = games - int(totals.get("truncated", 0))
    strategies = [
        {"strategy": text, "seat_games": games * texts.count(text),
         **_stored_rate(rates.get(text), decided * texts.count(text))}
        for text in dict.fromkeys(texts)
    ]
    seat_rates = totals.get("win_share_by_seat", [None] * plan.players)
    seats = [{"seat": s, "games": games, **_stored_rate(seat_rates[s], decided)} for s in range(plan.players)]
    if isinstance(totals.get("strategies"), list) and isinstance(totals.get("seats"), list):
        strategies, seats = totals["strategies"], totals["seats"]  # the rows the summary had
    return RunSummary(
        out=prep.out,
        game=plan.game_name,
        players=plan.players,
        games=games,
        games_requested=int(config.get("games_requested", games)),
        decisions=int(totals.get("decisions", 0)),
        truncated=int(totals.get("truncated", 0)),
        turns=int(totals.get("turns", 0)),
        wall_seconds=0.0,
        games_per_second=float(manifest.get("games_per_second", 0.0)),
        strategies=strategies,
        seats=seats,
        manifest=manifest,
        errored=int(totals.get("errored", 0)),
        already_complete=True,
        draws=totals.get("draws"),
        ties=totals.get("ties"),
        max_decisions=plan.max_decisions,
        default_max_decisions=getattr(resolve_game(plan.game_ref), "default_max_decisions", None),
        seats_mode=plan.seats,
    )


def _stored_rate(rate: Any, decided: int) -> dict[str, Any]:
    """A summary row's rate from a manifest's totals (a rate over the decided games; None without one)."""
    value = None if rate is None else float(rate)
    wins = 0.0 if value is None else value * decided
    return {"decided": decided, "wins": wins, "win_rate": value, "ci_low": None, "ci_high": None,
            "blocks": None}


@dataclass
class _Todo:
    """The chunks left to play, taken one by one as workers are free (a plan of any size starts at
    once), and how many they are."""

    chunks: Iterator[tuple[int, int, int]]
    count: int


def _play_chunks(
    plan: RunPlan,
    todo: _Todo,
    partial: Path,
    config: RunConfig,
    games: int,
    games_done: int,
    results: list[ChunkSummary],
    workspace: Any,
    on_chunk: Callable[[ChunkSummary], None] | None,
) -> dict[str, Any]:
    """Play the chunks in ``todo``, logging each one as it finishes; return how they were run."""
    from joblib import delayed

    from sim.backends import pool
    from sim.report import progress_bar

    target = partial.resolve()
    gather = config.gather
    finished: set[int] = set()
    lock = threading.Lock()  # the finished chunks and their games change together, as the watcher reads them
    with (
        progress_bar(games, enabled=config.progress, label=f"{plan.game_name} {plan.players}p") as show,
        _watch_progress(target, finished, lock, lambda playing: show(games_done, playing), config.progress),
    ):
        show(games_done)
        if not todo.count:
            return {"backend": config.backend, "workers": 0, "scheduler": config.scheduler}
        with pool(config.backend, config.jobs, todo.count, config.scheduler) as workers:
            where = None if gather else target
            tasks = (delayed(simulate_chunk)(plan, c, a, b, where, gather) for c, a, b in todo.chunks)
            stream = workers.map(tasks)
            try:
                for summary in stream:
                    if summary.parts is not None:
                        for table, data in summary.parts.items():
                            write_part_bytes(data, target / table / part_name(summary.chunk))
                        summary.parts = None
                    workspace.log(summary.to_json())
                    results.append(summary)
                    with lock:
                        finished.add(summary.chunk)
                        games_done += summary.games
                        show(games_done)
                    if on_chunk is not None:
                        on_chunk(summary)
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()  # on failure: joblib cancels the chunks not yet started
            return workers.describe()


@contextmanager
def _watch_progress(
    folder: Path, finished: set[int], lock: threading.Lock, show: Callable[[int], None], enabled: bool
) -> Iterator[None]:
    """While the block runs, a thread reads every ``PROGRESS_SECONDS`` the games that workers have noted
    as done in chunks not yet finished (``sim.resume.read_progress``) and passes their sum to ``show``,
    so that the bar moves between whole chunks (workers that share the folder: not with ``--gather``)."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(PROGRESS_SECONDS):
            noted = read_progress(folder)
            with lock:
                show(sum(n for chunk, n in noted.items() if chunk not in finished))

    thread = threading.Thread(target=watch, name="skald-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()

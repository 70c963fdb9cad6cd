"""The folder of a run in progress, and how a stopped run is resumed.

A run writes into ``OUT.partial`` (beside ``OUT``) and renames it to ``OUT`` once every chunk is
done.  While it runs, the folder holds:

    games/ seats/ turns/   the parts of the finished chunks (each written atomically by its worker)
    run.json               the run's identity: what must match for ``--resume`` (written once)
    chunks.jsonl           one JSON line per finished chunk (its counts and win shares), appended by
                           the coordinating process after the chunk's three parts are in place
    .lock                  holds an exclusive lock (flock) while a process works on the folder

A chunk counts as finished when ``chunks.jsonl`` lists it and its three parts are readable Parquet
files with the run's columns and the listed number of rows; anything else is played again.  A
line is written with one ``write`` to a file opened for appending, so a kill leaves at most one
torn last line, which is ignored.  A killed process holds no lock (the kernel drops it).

A finished run also grows (``grow``): every game's seed and seats follow from the root seed and the game's
index, so a run of n games is the first n games of a longer run of the same configuration.  Growing it
starts ``OUT.partial`` of the longer run with the finished run's whole chunks (their parts restamped with
the longer run's identity, their summaries read back from the parts and logged), then resumes it: only the
new chunks are played, and the new manifest and folder are committed as any run's.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.errors import SkaldError
from sim.tables import TABLES, PartError, check_part, is_temporary, part_name, write_part

if TYPE_CHECKING:
    from sim.plan import Prepared, RunConfig, RunPlan
    from sim.summary import ChunkSummary, RunSummary

try:  # POSIX; elsewhere runs go without a lock
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

RUN_FILE = "run.json"
CHUNKS_FILE = "chunks.jsonl"
LOCK_FILE = ".lock"
#: a file per chunk being played, holding how many of its games are done (for the progress bar)
PROGRESS_DIR = ".progress"
FORMAT = 1


def write_progress(folder: Path, chunk: int, games: int) -> None:
    """Note that ``games`` games of ``chunk`` are done (``folder/.progress/<chunk>``, replaced whole).
    Best effort: the progress bar only, so a failed write is ignored."""
    path = folder / PROGRESS_DIR / str(chunk)
    tmp = path.with_name(f".{chunk}.tmp-{os.getpid()}")
    try:
        path.parent.mkdir(exist_ok=True)
        tmp.write_text(str(games))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def read_progress(folder: Path) -> dict[int, int]:
    """The games done per chunk that workers have noted in ``folder`` (what is unreadable is left out)."""
    found: dict[int, int] = {}
    try:
        entries = list((folder / PROGRESS_DIR).iterdir())
    except OSError:
        return found
    for entry in entries:
        try:
            found[int(entry.name)] = int(entry.read_text())
        except (OSError, ValueError):
            continue
    return found


def partial_path(out: Path) -> Path:
    """The in-progress folder of a run writing ``out``: ``OUT.partial``."""
    return out.parent / f"{out.name}.partial"


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (or SIGTERM); its finished chunks are kept for ``--resume``."""

    def __init__(self, message: str, partial: Path) -> None:
        super().__init__(message)
        self.partial = partial


class RunStopped(SkaldError):
    """A run stopped by an unexpected error (a lost worker, a full disk); resumable.

    ``exit_code`` is 1: not bad input, but not a finished run either.
    """

    exit_code = 1


class Workspace:
    """``OUT.partial``: create or reopen it, lock it, log finished chunks, and clean it up."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_fd: int | None = None
        self._log_fd: int | None = None

    # ----------------------------------------------------------------- locking

    def lock(self) -> None:
        """Take the folder's lock; a ``SkaldError`` when another live process holds it."""
        fd = os.open(self.path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 64).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise SkaldError(
                    f"another skald run (pid {holder}) is writing {str(self.path)!r}"
                    " (wait for it, or stop it and pass --resume)"
                ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    def release(self) -> None:
        """Close the log and drop the lock (the folder stays)."""
        for name in ("_log_fd", "_lock_fd"):
            fd = getattr(self, name)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)

    # ----------------------------------------------------------------- a new folder

    def create(self, identity: dict[str, Any]) -> None:
        """Make the folder (its tables and ``run.json``) and lock it."""
        self.path.mkdir(parents=True)
        for table in TABLES:
            (self.path / table).mkdir()
        self.lock()
        write_json_atomic({"format": FORMAT, "identity": identity}, self.path / RUN_FILE)

    def remove(self) -> None:
        """Delete the folder (after a run that failed for good)."""
        self.release()
        shutil.rmtree(self.path, ignore_errors=True)

    # ----------------------------------------------------------------- an existing folder

    def identity(self) -> dict[str, Any]:
        """The identity the folder was started with (a ``SkaldError`` when unreadable)."""
        path = self.path / RUN_FILE
        try:
            doc = json.loads(path.read_text())
            if doc.get("format") != FORMAT or not isinstance(doc.get("identity"), dict):
                raise ValueError(f"unknown format {doc.get('format')!r}")
            return doc["identity"]
        except FileNotFoundError:
            raise SkaldError(
                f"{str(self.path)!r} has no {RUN_FILE}: not a run in progress"
                " (remove it, or pass --overwrite)"
            ) from None
        except (OSError, ValueError, AttributeError) as exc:
            raise SkaldError(
                f"cannot read {str(path)!r}: {exc} (remove the folder, or pass --overwrite)"
            ) from None

    def check_identity(self, identity: dict[str, Any]) -> None:
        """A one-line ``SkaldError`` naming the first setting that differs from the folder's."""
        stored = self.identity()
        for key in sorted(set(stored) | set(identity)):
            if stored.get(key) != identity.get(key):
                raise SkaldError(
                    f"cannot resume {str(self.path)!r}: it was started with {key}={_show(stored.get(key))},"
                    f" not {_show(identity.get(key))} (rerun with the same options, or pass --overwrite to"
                    " start over)"
                )

    def logged(self) -> dict[int, dict[str, Any]]:
        """Finished chunks by number, as logged (a torn or unreadable line is skipped)."""
        found: dict[int, dict[str, Any]] = {}
        try:
            text = (self.path / CHUNKS_FILE).read_text(errors="replace")
        except FileNotFoundError:
            return found
        for line in text.splitlines():
            try:
                doc = json.loads(line)
                found[int(doc["chunk"])] = doc
            except (ValueError, KeyError, TypeError):
                continue
        return found

    def verify(
        self,
        chunks: Sequence[tuple[int, int, int]],
        players: int,
        action_fields: tuple[str, ...],
        part_fields: tuple[str, ...],
        run: str | None = None,
    ) -> tuple[dict[int, dict[str, Any]], list[str]]:
        """The logged chunks whose parts are whole, and notes on the ones that will be played again.

        Removes leftover temporary files and the parts of unfinished chunks.  A Parquet file that is
        no part of this run (a name outside its chunks) is a ``SkaldError`` naming it.
        """
        shutil.rmtree(self.path / PROGRESS_DIR, ignore_errors=True)  # the notes of the stopped attempt
        for table in TABLES:
            folder = self.path / table
            folder.mkdir(exist_ok=True)
            for item in sorted(folder.iterdir()):
                if is_temporary(item):
                    item.unlink(missing_ok=True)
                elif item.suffix == ".parquet" and _chunk_of(item.name, len(chunks)) is None:
                    raise PartError(
                        f"results part {str(item)!r} is no part of this run (it has chunks"
                        f" {part_name(0)} to {part_name(len(chunks) - 1)};"
                        " remove the file, or pass --overwrite)"
                    )
        kept: dict[int, dict[str, Any]] = {}
        notes: list[str] = []
        for chunk, doc in sorted(self.logged().items()):
            if not 0 <= chunk < len(chunks):
                continue
            _, start, stop = chunks[chunk]
            if doc.get("games") != stop - start:
                continue
            want = {"games": stop - start, "seats": (stop - start) * players, "turns": doc.get("turns")}
            try:
                for table in TABLES:
                    path = self.path / table / part_name(chunk)
                    rows = check_part(path, table, action_fields, part_fields, run)
                    if rows != want[table]:
                        raise PartError(f"results part {str(path)!r} holds {rows} rows, not {want[table]}")
            except PartError as exc:
                notes.append(f"{exc}; chunk {chunk} will be played again")
                continue
            kept[chunk] = doc
        for table in TABLES:  # the parts of the chunks to be played again
            for item in (self.path / table).glob("*.parquet"):
                if _chunk_of(item.name, len(chunks)) not in kept:
                    item.unlink(missing_ok=True)
        return kept, notes

    # ----------------------------------------------------------------- while running

    def log(self, summary: dict[str, Any]) -> None:
        """Append one finished chunk's line (one write, so a kill tears at most this line)."""
        if self._log_fd is None:
            self._log_fd = os.open(self.path / CHUNKS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self._log_fd, (json.dumps(summary, separators=(",", ":")) + "\n").encode())

    def finish(self) -> None:
        """Remove the bookkeeping files before the folder becomes ``OUT`` (the lock is still held)."""
        if self._log_fd is not None:
            os.close(self._log_fd)
            self._log_fd = None
        for name in (RUN_FILE, CHUNKS_FILE, LOCK_FILE):
            (self.path / name).unlink(missing_ok=True)
        shutil.rmtree(self.path / PROGRESS_DIR, ignore_errors=True)


def write_json_atomic(obj: Any, path: Path) -> None:
    """Write ``obj`` as JSON to ``path`` through a temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(json.dumps(obj, indent=2, default=str) + "\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _chunk_of(name: str, chunks: int) -> int | None:
    """The chunk number of part file ``name`` in a run of ``chunks`` chunks, or None for a name that is no
    part of it."""
    digits = name.removeprefix("part-").removesuffix(".parquet")
    if not digits.isdigit() or not digits.isascii():
        return None
    chunk = int(digits)
    return chunk if chunk < chunks and part_name(chunk) == name else None


def _show(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str)


# --------------------------------------------------------------------------- growing a finished run


def stored_identity(manifest: dict[str, Any]) -> dict[str, Any]:
    """The identity (``Prepared.identity``) of the finished run a manifest describes."""
    config = manifest.get("config", {})
    return {
        "game": config.get("game"),
        "players": config.get("players"),
        "games": config.get("games"),
        "strategies": config.get("strategies"),
        "named_specs": config.get("named_specs", {}),
        "seats": config.get("seats"),
        "seed": config.get("seed"),
        "rules": config.get("rules"),
        "rules_hash": config.get("rules_hash"),
        "max_decisions": config.get("max_decisions"),
        "chunk_size": config.get("chunk_size"),
        "on_error": config.get("on_error", "stop"),
        "skald": manifest.get("versions", {}).get("skald"),
    } | ({"replicates": config["replicates"]} if config.get("replicates", 1) != 1 else {})


def finished_manifest(out: Path) -> dict[str, Any] | None:
    """``OUT/manifest.json`` as a JSON object, or None where there is none to read."""
    try:
        doc = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("config"), dict) else None


def grow(
    config: RunConfig,
    on_chunk: Callable[[ChunkSummary], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> RunSummary:
    """Bring the run in ``config.out`` to ``config.games`` games without playing again what it holds.

    ``config.out`` may hold the finished run of this configuration with fewer games (the same chunk size:
    ``config.chunk_size``, or the finished run's): its whole chunks are kept, restamped with the longer
    run's identity (module docstring), and only the new chunks are played; the same number of games: it
    is left as it is; nothing yet: the run is played.  An interrupted growth (``OUT.partial``) is resumed.
    Records, manifest totals and folder are then those of a fresh run of ``config.games`` games with the
    same seed, at any ``jobs``; only the search telemetry of the kept chunks is the finished run's totals,
    carried over as one chunk's.  Any other configuration in ``OUT`` is a one-line ``SkaldError``."""
    from sim.plan import check_out, prepare
    from sim.runner import run

    if config.out is None:
        raise SkaldError("growing a run needs its folder (out)")
    out = Path(config.out)
    old = finished_manifest(out)
    held_size = int(old["config"].get("chunk_size") or 0) if old is not None else 0
    config = replace(config, chunk_size=config.chunk_size or held_size or None)
    if old is None or partial_path(out).exists():  # not played yet, or an interrupted growth
        return run(
            replace(config, resume=partial_path(out).exists(), overwrite=old is not None), on_chunk, on_note
        )
    prep = prepare(config)
    held = _growable(prep, old, out)
    if held == prep.games:
        return run(replace(config, resume=True), on_chunk)
    check_out(out, True)  # a folder holding a user's file beside the run is refused before any work
    _seed(prep, out, old, held)
    return run(replace(config, resume=True, overwrite=True), on_chunk)


def _growable(prep: Prepared, old: dict[str, Any], out: Path) -> int:
    """The games of the finished run in ``out`` (``old``: its manifest), checked to be ``prep``'s run with
    no more games than it: a one-line ``SkaldError`` naming the first setting that differs otherwise."""
    stored, wanted = stored_identity(old), prep.identity()
    for key in sorted(set(stored) | set(wanted)):
        if key != "games" and stored.get(key) != wanted.get(key):
            raise SkaldError(
                f"cannot grow {str(out)!r}: it holds a run with {key}={_show(stored.get(key))},"
                f" not {_show(wanted.get(key))}"
            )
    held = int(stored["games"])
    if held > prep.games:
        raise SkaldError(f"cannot grow {str(out)!r} to {prep.games:,} games: it holds {held:,} already")
    return held


def _seed(prep: Prepared, out: Path, old: dict[str, Any], held: int) -> None:
    """Start the grown run's ``OUT.partial`` with the whole chunks of the finished run in ``out`` (``held``
    games): their parts restamped (``restamp``) and their summaries (``part_summary``) logged."""
    workspace = Workspace(partial_path(out))
    workspace.create(prep.identity())
    kept = held // prep.chunk_size
    try:
        for chunk in range(kept):
            for table in TABLES:
                name = part_name(chunk)
                restamp(out / table / name, workspace.path / table / name, table, prep.plan)
            summary = part_summary(workspace.path, chunk, prep.plan)
            if chunk == 0 and kept * prep.chunk_size == held:
                summary.search = carried_search(old, prep.plan)
            workspace.log(summary.to_json())
    except KeyboardInterrupt:
        workspace.release()  # the chunks logged are kept for the resumed growth
        raise
    except Exception as exc:
        workspace.remove()
        if isinstance(exc, SkaldError):
            raise
        raise PartError(f"cannot grow {str(out)!r}: a part of it cannot be read back ({exc})") from None
    workspace.release()


def restamp(source: Path, target: Path, table: str, plan: RunPlan) -> None:
    """Write the part ``source`` of ``table`` to ``target`` as a part of ``plan``'s run: its ``run`` column
    and metadata replaced, every other column as it is, in the table's schema (the bytes ``plan``'s run
    writes for the same games)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sim.tables import expected_schema

    key = plan.part_key
    schema = expected_schema(table, plan.action_fields, plan.part_fields).with_metadata(key.metadata(table))
    data = pq.read_table(source).select(schema.names)
    columns = [*key.columns(data.num_rows)[:1], *data.columns[1:]]
    write_part(pa.Table.from_arrays(columns, names=schema.names).cast(schema), target)


def part_summary(folder: Path, chunk: int, plan: RunPlan) -> ChunkSummary:
    """Chunk ``chunk``'s summary read back from its parts in ``folder``: what ``sim.runner.simulate_chunk``
    counted while it played them (games, decisions, truncated and errored games, turns, win shares by
    strategy index and seat, the block tally), in the same order, so the same numbers; its search
    telemetry and seconds are not in the records (empty and 0)."""
    import pyarrow.parquet as pq

    from sim.summary import BlockTally, ChunkSummary

    name, n = part_name(chunk), plan.players
    wanted = ["game_id", "base_game", "decisions", "truncated", "errored", "error"]
    games = pq.read_table(folder / "games" / name, columns=wanted).to_pydict()
    seats = pq.read_table(folder / "seats" / name, columns=["strategy_index", "win_share"]).to_pydict()
    summary = ChunkSummary(chunk=chunk, share_by_index=[0.0] * n, share_by_seat=[0.0] * n)
    tally = BlockTally([spec.text for spec in plan.specs], n)
    for i, game_id in enumerate(games["game_id"]):
        order = seats["strategy_index"][i * n : (i + 1) * n]
        shares = seats["win_share"][i * n : (i + 1) * n]
        truncated = bool(games["truncated"][i])
        tally.add(games["base_game"][i], order, shares, not truncated)
        summary.games += 1
        summary.decisions += games["decisions"][i]
        summary.truncated += truncated
        if games["errored"][i]:
            summary.errored += 1
            if summary.first_error is None:
                summary.first_error = f"game {game_id}: {games['error'][i]}"
        for seat, share in enumerate(shares):
            summary.share_by_seat[seat] += share
            summary.share_by_index[order[seat]] += share
    summary.tally = tally.finish()
    summary.turns = pq.read_metadata(folder / "turns" / name).num_rows
    return summary


def carried_search(manifest: dict[str, Any], plan: RunPlan) -> dict[str, list[float]]:
    """A finished run's search telemetry (its manifest's ``timings.search`` rows) as one chunk's
    (``ChunkSummary.search``: by the first strategy index of each text), so a grown run's totals keep it."""
    texts = [spec.text for spec in plan.specs]
    found: dict[str, list[float]] = {}
    for row in manifest.get("timings", {}).get("search") or []:
        if isinstance(row, dict) and row.get("strategy") in texts:
            found[str(texts.index(row["strategy"]))] = [
                float(row.get(k) or 0.0) for k in ("decisions", "iterations", "seconds", "departures")
            ]
    return found

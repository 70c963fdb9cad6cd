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
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim.errors import SkaldError
from sim.tables import TABLES, PartError, check_part, is_temporary, part_name

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

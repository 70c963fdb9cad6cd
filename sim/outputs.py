"""What Skald may replace when it writes an output: only what it wrote itself, checked before anything is
deleted or written.

* A **run folder** (``skald run --out``) is one with a run's ``manifest.json``.  ``--overwrite`` replaces
  it, or an empty folder; a run folder that also holds something Skald did not write (``notes.txt``
  beside ``manifest.json``) is refused, naming it, since replacing the folder would delete it.  Skald's
  own entries are the manifest, the table folders (``games/``, ``seats/``, ``turns/``: parts only) and
  the pages written beside them (``skald report``, ``compare``, ``replay --html``) with a report's
  findings, charts and games' pages.
* A **study folder** (``skald study --out``) is one whose log ``progress.jsonl`` starts with the study's
  line; its run folders are replaced as run folders.
* A **page** (``report -o``, ``compare -o``, ``replay --html``) replaces an existing file only when it is
  a page Skald wrote (its head carries ``GENERATOR``; pages from before the mark are known by their
  layout); its folder must exist.  A report's findings, charts and games' pages beside it likewise.

An interrupted run's ``OUT.partial`` is Skald's working folder (``sim.resume``) and is not judged here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from sim.errors import SkaldError

#: the mark in the head of every HTML page Skald writes (the report and replay viewer templates)
GENERATOR = '<meta name="generator" content="Skald">'
#: a study folder's log (``analysis.study.study``): its first line names the study
STUDY_LOG = "progress.jsonl"
#: pages written before ``GENERATOR``, known by their layout: a report's byline, a viewer's data
_OLD_PAGES = (
    ('<p class="meta">Written ', " by Skald "),
    ('<script type="application/json" id="replay-data">',),
)
_HEAD = 65536  # bytes of a page read to find its mark
_CHART = re.compile(r"-\d{2,}-[^/]*\.png")  # a report's chart beside it: <stem>-07-passes.png
_PART = re.compile(r"part-\d+\.parquet")
_PAGE_SUFFIXES = (".html", ".htm")


# --------------------------------------------------------------------------- what Skald wrote


def is_page(path: Path) -> bool:
    """Whether ``path`` is an HTML page Skald wrote (a report, a comparison, a replay viewer)."""
    try:
        with open(path, "rb") as page:
            head = page.read(_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return False
    return GENERATOR in head or any(all(part in head for part in marks) for marks in _OLD_PAGES)


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a run's ``manifest.json`` (a JSON object whose config names its game)."""
    try:
        doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("config"), dict) and "game" in doc["config"]


def is_study_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a study's log whose first line names the study."""
    try:
        with open(folder / STUDY_LOG, encoding="utf-8", errors="replace") as log:
            doc = json.loads(log.readline())
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and "study" in doc


def _is_findings(path: Path) -> bool:
    """Whether ``path`` is a report's findings file (``report.json``)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and "version" in doc and isinstance(doc.get("findings"), list)


def _entries(folder: Path) -> list[Path]:
    """Every entry of ``folder`` (absent: none), sorted by name."""
    try:
        return sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return []


def _beside_page(entry: Path, stems: set[str]) -> bool:
    """Whether ``entry`` is written with a report page of one of ``stems`` (Skald pages in its folder): its
    findings, a chart or its games' pages."""
    for stem in stems:
        rest = entry.name[len(stem):] if entry.name.startswith(stem) else None
        if rest in (".json", "-games") or (rest is not None and _CHART.fullmatch(rest)):
            return True
    return False


def _skald_wrote(entry: Path, stems: set[str]) -> bool:
    """Whether ``entry`` of a run folder (whose Skald pages have ``stems``) is Skald's."""
    from sim.tables import TABLES, is_temporary

    if entry.name == "manifest.json":
        return entry.is_file()
    if entry.name in TABLES and entry.is_dir():
        return all(_PART.fullmatch(p.name) or is_temporary(p) for p in _entries(entry))
    if entry.suffix.lower() in _PAGE_SUFFIXES:
        return entry.is_file() and is_page(entry)
    if _beside_page(entry, stems):
        return True
    if entry.is_dir():  # a report's games' pages, its report gone
        return entry.name.endswith("-games") and all(is_page(p) for p in _entries(entry))
    return entry.suffix == ".json" and _is_findings(entry)


def foreign(folder: Path) -> list[str]:
    """The names of the entries of the run folder ``folder`` that Skald did not write."""
    entries = _entries(folder)
    stems = {p.stem for p in entries if p.suffix.lower() in _PAGE_SUFFIXES and is_page(p)}
    return [p.name for p in entries if not _skald_wrote(p, stems)]


def holds(names: Iterable[str]) -> str:
    """``'a.txt'``, ``'a.txt' and 'b'`` or ``'a.txt' and 3 more``: what a folder holds, in a message."""
    names = list(names)
    if len(names) == 2:
        return f"{names[0]!r} and {names[1]!r}"
    return repr(names[0]) + (f" and {len(names) - 1} more" if len(names) > 1 else "")


# --------------------------------------------------------------------------- folders


def check_folder(out: Path, option: str = "--out") -> list[str]:
    """Refuse ``out`` when it exists and is not a folder; the names of what it holds (none: absent or
    empty)."""
    if out.exists() and not out.is_dir():
        raise SkaldError(f"output {str(out)!r} exists and is not a folder (choose another {option})")
    return [p.name for p in _entries(out)]


def check_run_folder(out: Path, overwrite: bool) -> None:
    """``skald run --out``: ``out`` may be absent or empty, or, with ``overwrite``, a run folder holding
    nothing but what Skald wrote; else a one-line ``SkaldError`` naming what is in the way."""
    names = check_folder(out)
    if not names:
        return
    run = is_run_folder(out)
    alien = foreign(out) if run else names
    if not overwrite:
        hint = _without_overwrite(run, alien)
        raise SkaldError(f"output folder {str(out)!r} exists and is not empty ({hint})")
    refuse_replacing(out, run, alien)


def _without_overwrite(run: bool, alien: list[str]) -> str:
    """What to do about a folder that is not empty, given without ``--overwrite``."""
    if not run:
        return f"it holds {holds(alien)}; --overwrite replaces only a Skald run folder: choose another --out"
    if alien:
        return (
            f"the run folder also holds {holds(alien)}, which Skald did not write and --overwrite would"
            " not delete: choose another --out"
        )
    return "pass --overwrite to replace it, or choose another --out"


def refuse_replacing(out: Path, run: bool, alien: list[str]) -> None:
    """Refuse ``--overwrite`` of ``out`` unless it is a run folder (``run``) and holds nothing else
    (``alien``: the names Skald did not write)."""
    if not run:
        raise SkaldError(
            f"--overwrite replaces only a Skald run folder or an empty folder; {str(out)!r} is neither:"
            f" it has no run's manifest.json and holds {holds(alien)} (choose another --out)"
        )
    if alien:
        raise SkaldError(
            f"--overwrite replaces only what Skald wrote; the run folder {str(out)!r} also holds"
            f" {holds(alien)}, which Skald did not write (move it away, or choose another --out)"
        )


def check_runs(folder: Path, names: Iterable[str]) -> None:
    """A study's run folders ``folder/NAME`` that it is about to replace: each absent, empty, or a run
    folder holding nothing but what Skald wrote (a one-line ``SkaldError`` otherwise)."""
    for name in names:
        target = folder / name
        held = check_folder(target)
        if held:
            run = is_run_folder(target)
            refuse_replacing(target, run, foreign(target) if run else held)


# --------------------------------------------------------------------------- pages


def check_page(
    path: str | Path, option: str, what: str = "the page", new_folder: bool = False, report: bool = True
) -> Path:
    """``path`` as a page Skald may write: not a folder, in a folder that exists (unless ``new_folder``),
    and where a file is there already, a page Skald wrote, as are (``report``) the findings, charts and
    games' pages a report writes beside it.  A one-line ``SkaldError`` naming what is in the way
    otherwise."""
    path = Path(path)
    parent = path.parent
    if path.is_dir():
        raise SkaldError(f"{option} {str(path)!r} is a folder, not a file (give a file name ending in .html)")
    if parent.exists() and not parent.is_dir():
        raise SkaldError(f"cannot write {what} to {str(path)!r}: {str(parent)!r} is not a folder")
    if not parent.exists():
        if new_folder:
            return path
        raise SkaldError(
            f"cannot write {what} to {str(path)!r}: the folder {str(parent)!r} does not exist"
            f" (create it, or choose another {option})"
        )
    if path.exists() and not is_page(path):
        raise SkaldError(
            f"{option} {str(path)!r} is a file Skald did not write (Skald replaces only a page it wrote:"
            f" choose another {option})"
        )
    if not report:
        return path
    stems = {path.stem} if path.exists() else set()
    in_way = [
        entry.name for entry in _entries(parent)
        if entry != path and _beside_page(entry, {path.stem}) and not _skald_wrote(entry, stems)
    ]  # fmt: skip
    if in_way:
        raise SkaldError(
            f"{option} {str(path)!r} would replace {holds(in_way)} beside it, which Skald did not write"
            f" (choose another {option})"
        )
    return path

"""What a finished run writes about itself (``manifest.json``: configuration, code, versions, totals)
and the folder moves that commit it."""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import shutil
import subprocess
from collections.abc import Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim
from sim.plan import CODE_PACKAGES, CODE_ROOT, Prepared, RunConfig, RunPlan
from sim.specs import resolved_specs

if TYPE_CHECKING:
    from sim.summary import ChunkSummary, RunSummary


@lru_cache(maxsize=1)
def code_identity() -> dict[str, Any]:
    """What code wrote the records: Skald's version, the sha1 of its installed sources (every file of
    ``sim``, ``strategies`` and ``analysis`` but caches, by relative path), and, run from a git checkout,
    its commit and whether those sources differ from it."""
    digest = hashlib.sha1()
    for package in CODE_PACKAGES:
        for path in sorted((CODE_ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(CODE_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    found: dict[str, Any] = {"skald": sim.__version__, "sources_sha1": digest.hexdigest()}
    if (CODE_ROOT / ".git").exists():
        git = ["git", "-C", str(CODE_ROOT)]
        try:
            commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
            status = subprocess.run(
                [*git, "status", "--porcelain", "--", *CODE_PACKAGES],
                capture_output=True,
                text=True,
                timeout=10,
            )
        except (OSError, subprocess.SubprocessError):
            return found
        if commit.returncode == 0:
            found["git_commit"] = commit.stdout.strip()
            found["git_dirty"] = bool(status.stdout.strip())
    return found


#: the libraries that shape the records (their versions go into every manifest)
RECORD_PACKAGES = ("numpy", "numba", "polars", "pyarrow", "joblib")


def versions(extra: Sequence[str] = ()) -> dict[str, str]:
    """Versions of Skald, Python, the libraries that shape the records and the ``extra`` ones (the report
    adds those of the analysis), in that order; ``"missing"`` for one not installed."""
    found = {"skald": sim.__version__, "python": platform.python_version()}
    for name in (*RECORD_PACKAGES, *extra):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "missing"
    return found


def manifest(
    plan: RunPlan,
    config: RunConfig,
    prep: Prepared,
    summary: RunSummary,
    summaries: list[ChunkSummary],
    execution: dict[str, Any],
) -> dict[str, Any]:
    return {
        "format": 1,
        "run": plan.run_id,
        "command": config.command,
        "code": code_identity(),
        "config": {
            "game": plan.game_name,
            "players": plan.players,
            "games": prep.games,
            "games_requested": config.games,
            "strategies": [spec.text for spec in plan.specs],
            # a named spec (tuned) with the spec it stood for: replaying and resuming check it is the same
            **({"named_specs": named} if (named := resolved_specs(plan.specs)) else {}),
            "seats": plan.seats,
            # each deal played this many times, each time with fresh strategy generators (1: once)
            **({"replicates": plan.replicates} if plan.replicates != 1 else {}),
            "seed": plan.seed,
            "rules": plan.rules,
            "rules_hash": plan.rules_hash,
            "data": prep.data_info,
            "max_decisions": plan.max_decisions,
            "on_error": plan.on_error,
            "chunk_size": prep.chunk_size,
            "chunks": [list(c) for c in prep.chunks],
            # False where a strategy plays to a time budget (ismcts:ms=...): the records then depend on
            # the machine's speed and load, not only on the seed (--jobs 1 and N may differ)
            "deterministic": not any(spec.time_budgeted for spec in plan.specs),
            "time_budgeted": [spec.text for spec in plan.specs if spec.time_budgeted],
        },
        "tables": {
            "games": "one row per game",
            "seats": "one row per game and seat",
            "turns": "one row per decision",
            "action_fields": list(plan.action_fields),
            "part_fields": list(plan.part_fields),
        },
        "versions": versions(),
        "execution": {
            "jobs": config.jobs,
            **execution,
            "cpus": os.cpu_count(),
            "resumed_chunks": summary.resumed_chunks,
        },
        "timings": {
            "wall_seconds": round(summary.wall_seconds, 6),
            "worker_seconds": round(sum(s.seconds for s in summaries), 6),
            "search": summary.search,  # per search strategy: decisions, iterations, ms/decision
        },
        "games_per_second": round(summary.games_per_second, 3),
        "totals": {
            "games": summary.games,
            "decisions": summary.decisions,
            "truncated": summary.truncated,
            "errored": summary.errored,
            "turns": summary.turns,
            "win_share_by_strategy": {row["strategy"]: row["win_rate"] for row in summary.strategies},
            "win_share_by_seat": [row["win_rate"] for row in summary.seats],
            # the summary's rows: win rates over the decided games with their 95% intervals
            "draws": summary.draws,
            "ties": summary.ties,
            "strategies": summary.strategies,
            "seats": summary.seats,
        },
    }


def finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float (nested in dicts, lists and tuples) replaced by None, so
    that it is valid JSON (``json.dumps`` would write ``NaN``, which JSON readers refuse)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


def json_text(obj: Any) -> str:
    """``obj`` as indented, valid JSON (non-finite floats as null), ending in a newline."""
    return json.dumps(finite(obj), indent=2, default=str, allow_nan=False) + "\n"


def write_text_atomic(text: str, path: str | Path) -> None:
    """Write ``text`` to ``path`` through a temporary name and a rename: never half-written."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(obj: Any, path: Path) -> None:
    write_text_atomic(json.dumps(obj, indent=2, default=str) + "\n", path)


def commit_folder(partial: Path, out: Path) -> None:
    """Move the finished ``partial`` folder to ``out``, replacing what was there."""
    if out.is_dir() and any(out.iterdir()):
        old = out.parent / f"{out.name}.old-{os.getpid()}"
        os.replace(out, old)
        os.replace(partial, out)
        shutil.rmtree(old, ignore_errors=True)
        return
    if out.is_dir():
        out.rmdir()
    os.replace(partial, out)


def missing_ancestor(folder: Path) -> Path | None:
    """The outermost ancestor of ``folder`` (itself included) that does not exist yet."""
    missing = None
    for path in [folder, *folder.parents]:
        if path.exists():
            break
        missing = path
    return missing


def remove_empty(folder: Path, top: Path | None) -> None:
    """Remove the empty folders from ``folder`` up to ``top`` (those this run created)."""
    if top is None:
        return
    for path in [folder, *folder.parents]:
        try:
            path.rmdir()
        except OSError:
            return
        if path == top:
            return

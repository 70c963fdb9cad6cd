"""Several result folders read as one: lazy polars frames with run-level columns added.

    from analysis.data.runs import open_runs
    runs = open_runs(["results/mainland-scores"])      # a run folder, or a folder of run folders
    runs.seats().group_by("players", "seat").agg(pl.col("win_share").mean()).collect()

Every frame carries ``run`` (a label per result folder, unique), ``game`` (game name),
``variant`` (the rule switches that differ from the game's defaults, ``"defaults"`` when none)
and, for games and seats, ``mix`` (the game's strategies, sorted, joined by " + ").
``game_id`` is unique only within a run: join on ``("run", "game_id")``.

``open_runs`` refuses a run whose parts are not the ones its manifest lists, and ``Runs.outcomes``
counts each run's finished, truncated and errored games (``Runs.finished`` keeps the runs with a
finished game, ``Runs.unfinished`` names the others).  ``run_id`` names a run whatever folder it lies
in, and ``identity`` the records a statistic reads (its resamplings are seeded from it:
``analysis.stats.stats.data_seed``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from analysis.data.records import TABLES, scan
from sim.errors import SkaldError
from sim.games import GAMES, get_game
from sim.tables import check_part, part_name

RUN_KEYS = ("run", "game", "variant")


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """The ``manifest.json`` of a run folder (a one-line ``SkaldError`` when missing or unreadable)."""
    path = Path(folder) / "manifest.json"
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise SkaldError(
            f"no manifest.json in {str(folder)!r} (not a folder written by `skald run`)"
        ) from None
    except (OSError, ValueError) as exc:
        raise SkaldError(f"cannot read {str(path)!r}: {exc}") from None


def check_manifest(folder: str | Path, manifest: Any) -> None:
    """A one-line ``SkaldError`` unless ``manifest`` (a run folder's ``manifest.json``) names a game that is
    installed and its player count, as every manifest ``skald run`` writes does."""
    where = str(Path(folder) / "manifest.json")
    config = manifest.get("config") if isinstance(manifest, dict) else None
    if not isinstance(config, dict) or not config.get("game"):
        raise SkaldError(f"{where!r} names no game (no config.game: not a manifest written by `skald run`)")
    game = str(config["game"])
    if game not in GAMES:
        raise SkaldError(
            f"{where!r} names the game {game!r}, which is not installed"
            f" (installed: {', '.join(sorted(GAMES))})"
        )
    players = config.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise SkaldError(f"{where!r} gives no player count (config.players is {players!r})")


def _chunks(folder: str | Path, config: dict[str, Any]) -> list[tuple[int, int, int]] | None:
    """The run's chunks as its manifest lists them, ``(chunk, first game, stop)``; None for a manifest
    that lists none (one written by hand or by an earlier Skald)."""
    chunks = config.get("chunks")
    if chunks is None:
        return None
    try:
        out = [(int(c), int(a), int(b)) for c, a, b in chunks]
    except (TypeError, ValueError):
        raise SkaldError(
            f"{str(Path(folder) / 'manifest.json')!r} lists its chunks wrongly (config.chunks should hold"
            " [chunk, first game, stop] triples)"
        ) from None
    return out


def _check_names(folder: Path, table: str, parts: list[Path], chunks: list[tuple[int, int, int]]) -> None:
    """A ``SkaldError`` naming the first part the manifest lists that is missing, or the first part
    there that it does not list."""
    names = {p.name for p in parts}
    for chunk, start, stop in chunks:
        if part_name(chunk) not in names:
            raise SkaldError(
                f"results part {str(folder / table / part_name(chunk))!r} is missing (the manifest lists"
                f" chunk {chunk}, games {start}-{stop - 1}; the run's records are incomplete)"
            )
    listed = {part_name(chunk) for chunk, _, _ in chunks}
    for part in parts:
        if part.name not in listed:
            ends = f"{part_name(chunks[0][0])} to {part_name(chunks[-1][0])}" if chunks else "none"
            raise SkaldError(
                f"results part {str(part)!r} is no part of this run (its manifest lists the parts {ends};"
                " the file was added or copied there)"
            )


def check_parts(folder: str | Path, manifest: dict[str, Any]) -> None:
    """A one-line ``SkaldError`` unless the run's parts are those its manifest lists: every chunk's part of
    every table there and no other, each a readable part of the run's table (``sim.tables.check_part``)
    holding the chunk's games (and seats: games x players), the turns parts as many rows as the totals
    count.  A manifest without chunks (not written by ``skald run``) has its parts checked one by one."""
    folder = Path(folder)
    config, tables = manifest["config"], manifest.get("tables") or {}
    fields = (list(tables.get("action_fields", [])), list(tables.get("part_fields", [])))
    run_id = str(manifest.get("run") or "") or None
    chunks = _chunks(folder, config)
    turns = (manifest.get("totals") or {}).get("turns")
    for table in TABLES:
        parts = sorted((folder / table).glob("*.parquet"))
        if chunks is not None:
            _check_names(folder, table, parts, chunks)
        rows = {p.name: check_part(p, table, *fields, run_id) for p in parts}
        if chunks is None:
            continue
        if table != "turns":
            _check_rows(folder / table, rows, chunks, 1 if table == "games" else int(config["players"]))
        elif isinstance(turns, int) and sum(rows.values()) != turns:
            raise SkaldError(
                f"the turns parts in {str(folder)!r} hold {sum(rows.values())} rows, not the {turns}"
                " decisions its manifest counts (totals.turns)"
            )


def _check_rows(
    folder: Path, rows: dict[str, int], chunks: list[tuple[int, int, int]], per_game: int
) -> None:
    """A ``SkaldError`` naming the first part of ``folder`` (a table) whose rows are not its chunk's games
    times ``per_game``."""
    for chunk, start, stop in chunks:
        name, want = part_name(chunk), (stop - start) * per_game
        if rows[name] != want:
            raise SkaldError(
                f"results part {str(folder / name)!r} holds {rows[name]} rows, not {want} (the manifest's"
                f" chunk {chunk} holds games {start}-{stop - 1})"
            )


def game_defaults(game: str) -> dict[str, Any] | None:
    """The rule-switch defaults of a registered game, or None when it cannot be loaded."""
    try:
        return {s.name: s.default for s in get_game(game).rule_switches}
    except Exception:
        return None


def variant_label(game: str, rules: dict[str, Any]) -> str:
    """``"defaults"`` or the switches that differ from the game's defaults (``name=value, ...``)."""
    defaults = game_defaults(game)
    if defaults is None:
        changed = dict(rules)
    else:
        changed = {k: v for k, v in rules.items() if defaults.get(k, object()) != v}
    if not changed:
        return "defaults"
    return ", ".join(f"{k}={_show(v)}" for k, v in sorted(changed.items()))


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Run:
    """One result folder and its manifest."""

    label: str
    path: Path
    manifest: dict[str, Any]

    @property
    def config(self) -> dict[str, Any]:
        return self.manifest.get("config", {})

    @property
    def game(self) -> str:
        return str(self.config.get("game", "?"))

    @property
    def players(self) -> int:
        return int(self.config.get("players", 0))

    @property
    def games(self) -> int:
        return int(self.config.get("games", 0))

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.config.get("rules", {}))

    @property
    def variant(self) -> str:
        """Rule switches off their defaults, plus ``data=<sha1>`` when a non-packaged data file was used."""
        label = variant_label(self.game, self.rules)
        data = self.config.get("data") or {}
        if data.get("path"):
            extra = f"data={str(data.get('sha1', '?'))[:8]}"
            label = extra if label == "defaults" else f"{label}, {extra}"
        return label

    @property
    def part_fields(self) -> list[str]:
        return list(self.manifest.get("tables", {}).get("part_fields", []))

    @property
    def action_fields(self) -> list[str]:
        return list(self.manifest.get("tables", {}).get("action_fields", []))


def errored_column(games: pl.LazyFrame) -> pl.Expr:
    """Whether a game of ``games`` errored: its ``errored`` column, false where the records are older than
    it (an errored game is also ``truncated``)."""
    if "errored" in games.collect_schema().names():
        return pl.col("errored").fill_null(False)
    return pl.lit(False)


#: the result files of runs that write no records: ``skald tune`` and ``skald sensitivity``
RESULT_FILES = ("tune.json", "sensitivity.json")


def find_results(paths: Iterable[str | Path], name: str) -> list[Path]:
    """The files ``name`` (``tune.json``, ``sensitivity.json``) under ``paths`` at the depths run folders
    are found at (``find_runs``): in the path, in its subfolders or in theirs; each once, in path order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            continue
        here = path / name
        if here.is_file():
            found.append(here)
            continue
        found += sorted(path.glob(f"*/{name}")) or sorted(path.glob(f"*/*/{name}"))
    unique: dict[Path, Path] = {}
    for f in found:
        unique.setdefault(f.resolve(), f)
    return list(unique.values())


def has_results(paths: Iterable[str | Path]) -> bool:
    """Whether a tune or sensitivity result lies under ``paths`` (``find_results``)."""
    paths = list(paths)
    return any(find_results(paths, name) for name in RESULT_FILES)


def find_runs(paths: Iterable[str | Path], required: bool = True) -> list[Path]:
    """Run folders under ``paths``: each path is a run folder, holds run folders (a study folder), or holds
    study folders (a results folder of ``skald study --all``).  Without ``required``, a folder that holds
    no runs gives none (a folder holding only a tune or sensitivity result)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            raise SkaldError(f"results folder {str(path)!r} not found")
        if (path / "manifest.json").is_file():
            found.append(path)
            continue
        inner = _runs_within(path)
        if not inner and required:
            raise SkaldError(
                f"no runs in {str(path)!r} (expected manifest.json there or in its subfolders, from "
                f"`skald run`)"
            )
        found.extend(inner)
    unique: list[Path] = []
    for p in found:
        if p.resolve() not in {u.resolve() for u in unique}:
            unique.append(p)
    return unique


def _is_run(path: Path) -> bool:
    return path.is_dir() and (path / "manifest.json").is_file()


def _runs_within(path: Path) -> list[Path]:
    """The runs in ``path``'s subfolders, in name order: a subfolder that is a run, and the runs in a
    subfolder that holds them (a study folder beside single runs, as in ``results/`` after ``skald run``
    and ``skald study --all`` both wrote there)."""
    found: list[Path] = []
    for sub in sorted(p for p in path.iterdir() if p.is_dir()):
        if _is_run(sub):
            found.append(sub)
        else:
            found.extend(sorted(p for p in sub.iterdir() if _is_run(p)))
    return found


def _labels(paths: Sequence[Path]) -> list[str]:
    names = [p.name for p in paths]
    labels = []
    for p, name in zip(paths, names, strict=True):
        labels.append(f"{p.parent.name}/{name}" if names.count(name) > 1 else name)
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return out


@dataclass
class Runs:
    """A set of runs read together; frames are lazy and concatenated diagonally (missing columns null).

    ``duplicates`` lists (left out, kept) labels of run folders that hold the same run twice (see
    ``open_runs``)."""

    runs: list[Run] = field(default_factory=list)
    duplicates: list[tuple[str, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.runs)

    def __iter__(self):
        return iter(self.runs)

    @property
    def games_played(self) -> list[str]:
        """Game names present, in first-seen order."""
        return list(dict.fromkeys(r.game for r in self.runs))

    def only(self, game: str | None = None, players: int | None = None) -> Runs:
        """The runs of one game and/or player count."""
        return Runs(
            [
                r
                for r in self.runs
                if (game is None or r.game == game) and (players is None or r.players == players)
            ]
        )

    @cached_property
    def outcomes(self) -> pl.DataFrame:
        """Per run, in run order: ``run`` (its label), ``games``, ``finished`` (games with a result),
        ``truncated`` (cut at the decision cap) and ``errored`` (stopped by an error; the records count
        them as truncated too, this column does not)."""
        counts = []
        for run in self.runs:
            games = scan(run.path, "games")
            row = games.select(
                pl.len().alias("games"),
                (~pl.col("truncated")).sum().alias("finished"),
                errored_column(games).sum().alias("errored"),
            ).collect()
            games_n, finished, errored_n = (int(row[c][0]) for c in ("games", "finished", "errored"))
            counts.append(
                {
                    "run": run.label,
                    "games": games_n,
                    "finished": finished,
                    "truncated": games_n - finished - errored_n,
                    "errored": errored_n,
                }
            )
        schema = {"run": pl.String, **dict.fromkeys(("games", "finished", "truncated", "errored"), pl.Int64)}
        return pl.DataFrame(counts, schema=schema)

    def finished(self) -> Runs:
        """The runs with at least one finished game (those every analysis can use)."""
        done = set(self.outcomes.filter(pl.col("finished") > 0)["run"])
        return Runs([r for r in self.runs if r.label in done])

    def unfinished(self) -> list[tuple[Run, dict[str, int]]]:
        """The runs none of whose games finished (every one truncated or errored), each with its
        ``outcomes`` row (games, finished, truncated, errored)."""
        rows = {r["run"]: r for r in self.outcomes.iter_rows(named=True)}
        return [
            (r, {k: v for k, v in rows[r.label].items() if k != "run"})
            for r in self.runs
            if rows[r.label]["finished"] == 0
        ]

    def _lits(self, run: Run) -> list[pl.Expr]:
        return [
            pl.lit(run.label).alias("run"),
            pl.lit(run.game).alias("game"),
            pl.lit(run.variant).alias("variant"),
        ]

    def _concat(self, frames: list[pl.LazyFrame]) -> pl.LazyFrame:
        if not frames:
            raise SkaldError("no runs to analyse")
        return frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")

    def raw(self, table: str) -> pl.LazyFrame:
        """``table`` of every run with ``run``, ``game`` and ``variant`` columns added."""
        return self._concat([scan(r.path, table).with_columns(self._lits(r)) for r in self.runs])

    @cached_property
    def _mix(self) -> pl.DataFrame:
        return (
            self.raw("seats")
            .group_by("run", "game_id")
            .agg(pl.col("strategy").sort().str.join(" + ").alias("mix"))
            .collect()
        )

    def games(self) -> pl.LazyFrame:
        """Games with run columns and the strategy ``mix``, in the order of the records (runs in folder
        order, then each run's parts)."""
        return self.raw("games").join(
            self._mix.lazy(), on=["run", "game_id"], how="left", maintain_order="left"
        )

    def seats(self) -> pl.LazyFrame:
        """Seats joined with their game's ``players``, ``decisions``, ``truncated``, ``rules_hash`` and
        ``mix``, in the order of the records (a join's default order is not fixed from one call to the
        next)."""
        games = self.raw("games").select("run", "game_id", "players", "decisions", "truncated", "rules_hash")
        return (
            self.raw("seats")
            .join(games, on=["run", "game_id"], how="left", maintain_order="left")
            .join(self._mix.lazy(), on=["run", "game_id"], how="left", maintain_order="left")
        )

    def turns(self) -> pl.LazyFrame:
        """Turns with run columns (and ``players`` from the run's manifest)."""
        return self._concat(
            [
                scan(r.path, "turns").with_columns(
                    *self._lits(r), pl.lit(r.players, dtype=pl.Int64).alias("players")
                )
                for r in self.runs
            ]
        )

    def has_column(self, table: str, name: str) -> bool:
        """Whether every run's ``table`` has column ``name``."""
        return all(name in scan(r.path, table).collect_schema().names() for r in self.runs) and bool(
            self.runs
        )


#: manifest config keys that do not change a run's records (how the work was split, where files were)
_NOT_RECORDS = ("chunk_size", "chunks", "games_requested", "out")


def fingerprint(folder: str | Path, manifest: dict[str, Any]) -> str:
    """What makes two runs' records the same: the configuration (game, players, games, strategies, seats,
    seed, every rule, data file hash, decision cap), the Skald version, the totals and the bytes of the
    games table's parts; not where the files lie.  Runs are deterministic and write byte-identical parts,
    so two folders with one fingerprint hold the same games.  Runs that record their ``run`` identifier
    (every run since schema version 2) are told apart by it and their totals: it hashes the same
    configuration and version, and unlike the parts' bytes does not depend on how the run was chunked."""
    if manifest.get("run"):
        key = {"run": manifest["run"], "totals": manifest.get("totals")}
        return json.dumps(key, sort_keys=True, default=str)
    config = {k: v for k, v in manifest.get("config", {}).items() if k not in _NOT_RECORDS}
    data = dict(config.get("data") or {})
    data.pop("file", None)
    config["data"] = data
    digest = hashlib.sha1()
    for part in sorted((Path(folder) / "games").glob("*.parquet")):
        digest.update(part.name.encode())
        digest.update(part.read_bytes())
    key = {
        "config": config,
        "skald": manifest.get("versions", {}).get("skald"),
        "totals": manifest.get("totals"),
        "games": digest.hexdigest(),
    }
    return json.dumps(key, sort_keys=True, default=str)


def identity(runs: Iterable[Run], labels: Collection[str] | None = None) -> list[tuple[str, str]]:
    """The sorted ``(run_id, rules_hash)`` pairs of ``runs`` (only those whose label is in ``labels``, when
    given): what records a statistic reads, whatever folder they lie in."""
    return sorted(
        {
            (run_id(run), str(run.config.get("rules_hash", "")))
            for run in runs
            if labels is None or run.label in labels
        }
    )


def run_id(run: Run) -> str:
    """A run's identifier: the manifest's ``run`` (schema version 2 on), else a sha1 of
    ``fingerprint`` (configuration, totals and the bytes of the games table).  Unlike the run's
    label it does not depend on the folder's name."""
    name = run.manifest.get("run")
    return str(name) if name else hashlib.sha1(fingerprint(run.path, run.manifest).encode()).hexdigest()


def open_runs(paths: str | Path | Iterable[str | Path], required: bool = True) -> Runs:
    """Read one or several result folders (run folders, or study folders holding run folders); without
    ``required`` a folder holding no runs reads as none (``find_runs``).

    Each run's manifest and parts are checked first (``check_manifest``, ``check_parts``): a one-line
    ``SkaldError`` names the first part missing, extra, unreadable or of the wrong size.

    A run that appears twice (the same configuration, version and totals in two folders, as when two
    studies share a run) is read once: its games are the same, and counting them twice would halve
    every interval's honesty.  The folders left out are listed in ``Runs.duplicates``.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    folders = find_runs(paths, required)
    labels = _labels(folders)
    kept: dict[str, Run] = {}
    duplicates: list[tuple[str, str]] = []
    for label, path in zip(labels, folders, strict=True):
        run = Run(label, path, read_manifest(path))
        check_manifest(path, run.manifest)
        check_parts(path, run.manifest)
        key = fingerprint(path, run.manifest)
        if key in kept:
            duplicates.append((label, kept[key].label))
        else:
            kept[key] = run
    return Runs(list(kept.values()), duplicates)

"""Replay one recorded game from its seed and check it against the records.

    skald replay RESULTS_DIR --game ID

The run's configuration comes from ``RESULTS_DIR/manifest.json``; the game's seats and seed follow
from its index (``sim.seats.assign``, ``sim.seeding.game_seed``), so the game is played alone,
without the games before it.  Every decision is printed as one line, then the replayed rows
(games, seats, turns) are compared with the stored ones, column by column.  The ``error``
message of an errored game is not compared (it may quote object addresses); where and by whom it
errored is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.errors import SkaldError
from sim.plan import RunPlan, make_plan, resolve_game
from sim.play import Observer, Played, play_indexed
from sim.specs import resolved_specs
from sim.tables import GameRows, PartError, TurnLog, check_part, part_name

NOT_COMPARED = {"games": {"error"}, "seats": set(), "turns": set()}


class ReplayMismatch(SkaldError):
    """The replayed game differs from its records (exit code 1)."""

    exit_code = 1


@dataclass
class ReplayResult:
    game_id: int
    decisions: int
    lines: int


def read_manifest(folder: Path) -> dict[str, Any]:
    """``folder/manifest.json`` (a one-line ``SkaldError`` when missing or unreadable)."""
    if not folder.is_dir():
        raise SkaldError(f"results folder {str(folder)!r} not found")
    path = folder / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
        if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
            raise ValueError("no config table")
        if "game" not in manifest["config"]:
            raise ValueError("no config.game")
    except FileNotFoundError:
        raise SkaldError(
            f"no manifest.json in {str(folder)!r} (not a folder written by `skald run`)"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SkaldError(f"cannot read {str(path)!r}: {exc}") from None
    return manifest


def plan_from_manifest(folder: Path, manifest: dict[str, Any]) -> RunPlan:
    """The run's plan, rebuilt from its manifest; refuses data or rules that changed since."""
    config = manifest["config"]
    data = (config.get("data") or {}).get("path")
    if data is not None and not Path(data).exists():
        raise SkaldError(
            f"the run used the data file {data!r}, which is not found from here"
            " (replay from the folder the run was started in)"
        )
    try:
        plan, info = make_plan(
            config["game"],
            int(config["players"]),
            list(config["strategies"]),
            seats=config["seats"],
            seed=int(config["seed"]),
            rules=dict(config.get("rules") or {}),
            data=data,
            max_decisions=config.get("max_decisions"),
            on_error="continue",
            replicates=int(config.get("replicates", 1)),
        )
    except KeyError as exc:
        raise SkaldError(f"{str(folder / 'manifest.json')!r} lacks config.{exc.args[0]}") from None
    named, now = config.get("named_specs") or {}, resolved_specs(plan.specs)
    for name, spec in named.items():
        if now.get(name, spec) != spec:
            raise SkaldError(
                f"the named spec {name!r} stood for {spec!r} in the run and stands for {now[name]!r} now"
                " (strategies/tuned.toml changed since): cannot replay it"
            )
    if config.get("data", {}).get("sha1") not in (None, info["sha1"]):
        raise SkaldError(
            f"the component data changed since the run (sha1 {info['sha1'][:12]}, the run used"
            f" {str(config['data']['sha1'])[:12]}): cannot replay it"
        )
    if config.get("rules_hash") not in (None, plan.rules_hash):
        raise SkaldError("the rules or data differ from the run's (rules_hash): cannot replay it")
    return replace(plan, run_id=str(manifest.get("run") or ""))


def _chunk_of(config: dict[str, Any], game_id: int) -> int:
    for chunk, start, stop in config.get("chunks", []):
        if start <= game_id < stop:
            return int(chunk)
    raise SkaldError(f"game {game_id} is not in the run's chunks (manifest.json config.chunks)")


def _stored(folder: Path, table: str, chunk: int, game_id: int, plan: RunPlan) -> pa.Table:
    path = folder / table / part_name(chunk)
    check_part(path, table, plan.action_fields, plan.part_fields, plan.run_id or None)
    try:
        data = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise PartError(f"results part {str(path)!r} cannot be read: {' '.join(str(exc).split())}") from None
    return data.filter(pc.equal(data["game_id"], game_id))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _first_difference(table: str, stored: pa.Table, replayed: pa.Table) -> str | None:
    if stored.num_rows != replayed.num_rows:
        return f"{table}: {stored.num_rows} rows stored, {replayed.num_rows} replayed"
    for name in replayed.column_names:
        if name in NOT_COMPARED[table] or name not in stored.column_names:
            continue
        was, now = stored[name].to_pylist(), replayed[name].to_pylist()
        for row, (a, b) in enumerate(zip(was, now, strict=True)):
            if not _same(a, b):
                where = {"turns": f"turn {row}", "seats": f"seat {row}"}.get(table, "game row")
                return f"{table}: {where}, column {name}: stored {a!r}, replayed {b!r}"
    return None


def describe(kind: str, names: Sequence[str], values: Sequence[int]) -> str:
    """``kind name=value ...`` with the fields that apply (not -1)."""
    shown = [f"{n}={v}" for n, v in zip(names, values, strict=True) if v != -1]
    return " ".join([kind, *shown])


def _scores(values: Sequence[float]) -> str:
    return "/".join(f"{v:g}" for v in values)


@dataclass
class Recorded:
    """One recorded game ready to be played again: its run's plan and its stored rows."""

    folder: Path
    game_id: int
    plan: RunPlan
    stored: dict[str, pa.Table]


@dataclass
class Replayed:
    """One game played again: what ``play_indexed`` returned, its turns and rows, the seats' strategy
    texts (``seat_texts[seat]``)."""

    played: Played
    turns: TurnLog
    rows: GameRows
    seat_texts: list[str]


def recorded(folder: str | Path, game_id: int) -> Recorded:
    """Game ``game_id`` of the run in ``folder``: its plan from the manifest and its stored rows
    (a one-line ``SkaldError`` on bad input)."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    config = manifest["config"]
    games = int(config.get("games", 0))
    if not 0 <= game_id < games:
        raise SkaldError(f"--game must be a game id from 0 to {games - 1}, not {game_id}")
    plan = plan_from_manifest(folder, manifest)
    chunk = _chunk_of(config, game_id)
    stored = {table: _stored(folder, table, chunk, game_id, plan) for table in ("games", "seats", "turns")}
    if stored["games"].num_rows != 1:
        raise PartError(
            f"results part {str(folder / 'games' / part_name(chunk))!r} has no row for game {game_id}"
        )
    return Recorded(folder, game_id, plan, stored)


def play_again(game: Recorded, observe: Observer | None = None) -> Replayed:
    """Play ``game`` again from its seed (``observe`` as ``play_game`` takes it)."""
    plan = game.plan
    turns, rows = TurnLog(), GameRows(plan.part_fields)
    texts = [spec.text for spec in plan.specs]
    played = play_indexed(plan, resolve_game(plan.game_ref), game.game_id, turns, rows, texts, observe)
    return Replayed(played, turns, rows, [texts[i] for i in played.order])


def check(game: Recorded, again: Replayed) -> None:
    """Raise ``ReplayMismatch`` naming the first difference between ``again`` and ``game``'s records."""
    replayed = game.plan.part_tables(again.rows, again.turns)
    for table in ("games", "seats", "turns"):
        difference = _first_difference(table, game.stored[table], replayed[table])
        if difference is not None:
            raise ReplayMismatch(
                f"game {game.game_id} differs from its records in {str(game.folder)!r}: {difference}"
            )


def replay(folder: str | Path, game_id: int, echo: Callable[[str], None] = print) -> ReplayResult:
    """Replay game ``game_id`` of the run in ``folder``, print it turn by turn, and check it.

    Raises ``ReplayMismatch`` when it differs from the records, ``SkaldError`` on bad input.
    """
    game = recorded(folder, game_id)
    plan = game.plan
    again = play_again(game)
    played, turns, seat_texts = again.played, again.turns, again.seat_texts
    echo(
        f"game {game_id} of {str(game.folder)!r}: {plan.game_name}, {plan.players} players, game seed"
        f" {played.outcome.seed} (base game {played.base}); seats (0 plays first): "
        + ", ".join(f"{s} {t}" for s, t in enumerate(seat_texts))
    )
    width = max(len(t) for t in seat_texts)
    n_fields = len(plan.action_fields)
    scores = turns.scores
    for i in range(len(turns)):
        seat = turns.seat[i]
        fields = turns.flat_fields[i * n_fields : (i + 1) * n_fields]
        echo(
            f"turn {turns.turn[i]:>4}  seat {seat}  {seat_texts[seat]:<{width}}  "
            f"{describe(turns.kind[i], plan.action_fields, fields):<48}  scores {_scores(scores[i])}"
        )
    result = played.outcome.result
    if played.failure is not None:
        echo(f"errored at turn {played.failure.turn}: {played.failure}")
    elif played.outcome.truncated:
        echo(f"truncated after {played.outcome.decisions} decisions (no winner)")
    elif result is not None:
        winners = ", ".join(f"seat {w} ({seat_texts[w]})" for w in sorted(result.winners))
        echo(f"end: scores {_scores(result.scores)}; won by {winners}")
    check(game, again)
    echo(f"ok: game {game_id} matches its records ({played.outcome.decisions} decisions)")
    return ReplayResult(game_id, played.outcome.decisions, len(turns))

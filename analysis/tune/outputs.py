"""A tune's outputs in its folder:

* ``best.toml`` (or ``best/`` for a data folder): the winner's data file, usable as it is with
  ``skald run GAME --data best.toml``; ``rules.txt``: the winner's ``--rule NAME=VALUE`` lines;
* ``tune.json``: every candidate's values, games spent and estimate, the rungs, the finalists' confirmed
  values with intervals and the tests, what the winner changes, the one-step check of the winner
  (``one_step``) and, for a tune with a player, the winner's player as a runnable spec with its confirmed
  win share (``player``);
* ``tune.html``: the report section (``analysis.report.sections.tune``).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from analysis.report.sections.tune import write_html
from analysis.tune import params as P
from analysis.tune.check import base_docs, read_docs
from analysis.tune.play import table_of
from analysis.tune.result import Outcome
from sim import rules as rulebook
from sim.games import get_game
from sim.manifest import json_text, write_text_atomic
from sim.specs import parse_spec
from sim.strategy import convert


def changes(result: Outcome) -> list[dict[str, Any]]:
    """What the winner changes against the base data (packaged unless the tune names one) and rules."""
    tune, game = result.tune, get_game(result.tune.game)
    winner = _candidate(result, result.confirmation["winner"])
    defaults = rulebook.resolve(game, tune.rules)
    docs = mine = None
    out = []
    for param, i in zip(tune.parameters, winner.choice, strict=True):
        if param.kind == "rule":
            before: Any = defaults.get(param.target)
            after: Any = param.options[i]
        elif param.kind == "file":
            before, after = tune.data or "packaged", param.options[i]
        elif param.kind == "strategy":
            before, after = _player_value(tune.player, tune.game, param.target), param.options[i]
        else:
            docs = docs if docs is not None else base_docs(tune, game)
            mine = mine if mine is not None else read_docs(str(winner.data))
            file, steps = P.parse_path(param.target)
            before, after = P.get(docs[file], steps), P.get(mine[file], steps)  # as the winner's file has it
            if isinstance(before, dict) and isinstance(param.options[i], dict):
                before = {k: before.get(k) for k in param.options[i]}
                after = {k: after.get(k) for k in param.options[i]}
        out.append(
            {
                "parameter": param.name,
                "kind": param.kind,
                "target": param.target,
                "before": before,
                "after": after,
                "changed": before != after,
            }
        )
    return out


def _player_value(player: str | None, game: str, key: str) -> Any:
    """The value the tune's player gives its parameter ``key`` (its spec's, else the default)."""
    spec = parse_spec(str(player), game)
    kind, default = spec.cls.params[key]
    given = dict(spec.params).get(key)
    return convert(key, kind, given) if given is not None else kind(default)


def player_part(result: Outcome) -> dict[str, Any] | None:
    """The winner's player: its runnable spec, the table it was measured in and its confirmed win
    share(s); None for a tune without a player."""
    tune = result.tune
    if tune.player is None:
        return None
    winner = _candidate(result, result.confirmation["winner"])
    row = next(r for r in result.confirmation["finalists"] if r["candidate"] == winner.index)
    table = next((run for t in tune.terms if t.kind == "win_share" for run in t.runs), None)
    table = table or next(run for run in result.runs if P.PLAYER in run)
    return {
        "base": tune.player,
        "spec": winner.player,
        "table": table_of(winner, table),
        "win_share": row.get("win_share", []),
    }


def _candidate(result: Outcome, index: int) -> Any:
    return next(c for c in result.candidates if c.index == index)


def document(result: Outcome) -> dict[str, Any]:
    tune, state = result.tune, result.state
    last_rung = {c: (r.games, s) for r in result.rungs for c, s in zip(r.candidates, r.scores, strict=True)}
    candidates = []
    for c in result.candidates:
        games = sum(state.played((c.index, r)) for r in range(len(result.runs)))
        rung = last_rung.get(c.index)
        candidates.append(
            {
                "candidate": c.index,
                "values": P.describe(tune.parameters, c.choice),
                "player": c.player,
                "rules": c.rules,
                "data": None if c.data is None else Path(c.data).name,
                "invalid": c.invalid,
                "games": games,
                "excluded": sum(state.excluded((c.index, r)) for r in range(len(result.runs))),
                "games_per_run": None if rung is None else rung[0],
                "objective": None if rung is None else rung[1],
            }
        )
    return {
        "tune": tune.name,
        "title": tune.title,
        "source": tune.source,
        "game": tune.game,
        "players": tune.players,
        "seed": tune.seed,
        "budget": result.budget,
        "games_spent": state.spent(),
        "excluded_games": state.excluded(),
        "runs": [list(r) for r in result.runs],
        "objective": [
            {
                "kind": t.kind,
                "weight": t.weight,
                "measure": t.measure,
                "combine": t.combine,
                "target": t.target,
                "runs": [list(r) for r in t.runs],
            }
            for t in tune.terms
        ],
        "method": "successive halving on common seeds (analysis.tune.search), eta "
        f"{tune.eta}; the finalists re-measured on fresh seeds",
        "schedule": {
            "survivors": list(result.plan.schedule.survivors),
            "games": list(result.plan.schedule.games),
            "confirm_games_per_run": result.plan.confirm_games,
        },
        "rungs": [
            {"games_per_run": r.games, "candidates": r.candidates, "objective": r.scores}
            for r in result.rungs
        ],
        "candidates": candidates,
        "finalists": result.finalists,
        "confirmation": result.confirmation,
        "history": [{"games_spent": g, "objective": v} for g, v in result.history],
        "winner": result.confirmation["winner"],
        "changes": changes(result),
        "one_step": result.one_step,
        **({"player": player} if (player := player_part(result)) is not None else {}),
    }


def write(result: Outcome, out: Path) -> dict[str, Any]:
    """Write the outputs (each through a temporary name); return the ``tune.json`` document."""

    doc = document(result)
    winner = _candidate(result, doc["winner"])
    lines = [
        f"--rule {k}={v if isinstance(v, str) else str(v).lower()}" for k, v in sorted(winner.rules.items())
    ]
    if winner.data is not None:
        src = Path(winner.data)
        target = out / ("best" + src.suffix if src.is_file() else "best")
        if src.is_file():
            write_text_atomic(src.read_text(encoding="utf-8"), target)
        else:
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(src, target)
        doc["best_data"] = target.name
        lines.append(f"--data {target}")
    write_text_atomic("\n".join(lines) + "\n", out / "rules.txt")
    if "player" in doc:
        lines.append(f"--strategies {','.join(doc['player']['table'])}")
        lines += [] if result.tune.seats == "rotate" else [f"--seats {result.tune.seats}"]
    doc["command"] = f"skald run {result.tune.game} --players {result.tune.players} " + " ".join(lines)
    write_text_atomic(json_text(doc), out / "tune.json")
    write_html(doc, out / "tune.html")
    return doc

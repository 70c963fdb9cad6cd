"""What every game's golden and determinism tests share: a seeded game's full turn log as JSON
lines, the comparison with the stored log (``SKALD_REGEN_GOLDEN=1`` rewrites it), and a run's
Parquet parts as bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sim.games import get_game
from sim.play import play_game
from sim.specs import parse_spec
from sim.tables import TurnLog

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEED = 2026


def golden_lines(
    game_name: str,
    players: int,
    rules: dict[str, Any],
    strategies: list[str],
    *,
    outcome_fields: tuple[str, ...] = (),
) -> list[str]:
    """One JSON line per decision of the game seeded ``GOLDEN_SEED`` (turn, seat, kind, action
    fields, every seat's score after it), then a line with the final scores and winners (plus
    ``ranks``/``truncated`` when named in ``outcome_fields``)."""
    game = get_game(game_name)
    specs = [parse_spec(s, game_name) for s in strategies]
    log = TurnLog()
    outcome = play_game(
        game, players, rules, game.load_data(None), GOLDEN_SEED, specs, game.default_max_decisions, log
    )
    lines = [
        json.dumps({"turn": t, "seat": s, "kind": k, "fields": list(f), "scores": list(sc)})
        for t, s, k, f, sc in zip(log.turn, log.seat, log.kind, log.fields, log.scores, strict=True)
    ]
    end: dict[str, Any] = {"scores": outcome.result.scores, "winners": outcome.result.winners}
    extra = {"ranks": outcome.result.ranks, "truncated": outcome.truncated}
    end |= {name: extra[name] for name in outcome_fields}
    lines.append(json.dumps(end))
    return lines


def assert_matches_golden(lines: list[str], name: str) -> list[str]:
    """Compare ``lines`` with ``tests/golden/<name>`` line by line (rewrite it first when
    ``SKALD_REGEN_GOLDEN`` is set, after an intended rule change); return the stored lines."""
    path = GOLDEN / name
    if os.environ.get("SKALD_REGEN_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    stored = path.read_text().splitlines()
    assert len(lines) == len(stored), f"{name}: {len(lines)} lines now, {len(stored)} stored"
    for i, (now, then) in enumerate(zip(lines, stored, strict=True)):
        assert now == then, f"{name}: decision {i} differs from the golden log"
    return stored


def parquet_parts(folder: Path) -> dict[str, bytes]:
    """Every Parquet part under a run folder, by relative path, as bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}

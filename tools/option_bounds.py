"""Measure the bounds that fix each game's RL encoding (``sim.rl.codec``, ``sim.games.<game>.spaces``).

    python -m tools.option_bounds [--games N] [--scripted N] [--only GAME ...] [--jobs J] [--json FILE]

Plays ``--games`` random games and ``--scripted`` games of the game's scripted strategies (each game a
random lineup drawn from them: greedy and the others reach states random play does not) at every player
count and under every rule configuration in ``CONFIGS`` (the switches that change the option lists).
At every decision of every mover it records, without raising where a cap is passed:

- per action block: for a bounded block (``Block.index`` None) the most legal options of that kind at one
  decision; for a factored block the largest place an option took (and how often one fell outside);
- per observation site (each ``padded`` call of ``observe``, by its source line): the longest entry at
  each depth against the room the layout keeps.

It prints, per game, each block and site with its room, the largest seen, the margin (room / largest) and
where it was seen, and exits 1 if any cap was passed.  Mainland's action space is factored by board
position (no per-kind block object), so only its option counts and encode's acceptance are checked.
"""

from __future__ import annotations

import argparse
import json
import linecache
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: rule configurations per game: the switches that change what the option lists hold
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "knarr": [
        {}, {"skali": True}, {"artifacts": True}, {"skali": True, "artifacts": True},
        {"skali": True, "artifacts": True, "helmet": "cover", "ship": "advanced", "skali_end": "final_raid"},
    ],
    "greenland": [
        {}, {"advanced": False},
        {"contest_success": "all", "conversion": "any", "elder_actions": "per_rank", "war_parties": "none",
         "upkeep": "none"},
    ],
    "graenaland": [
        {}, {"custom_start": True, "victory_cards": True, "five_player_offer": True},
        {"three_player_adjustments": "on"}, {"three_player_adjustments": "off"},
    ],
    "mainland": [{}, {"castle_needs_overlap": False, "card_meets_own_requirements": True}],
}
SKIP_STRATEGIES = {"random", "ismcts"}  # random is the random run; search is too slow for hundreds


@dataclass
class Seen:
    """The largest value of one measured quantity and where it was seen."""

    room: int
    most: int = 0
    where: str = ""
    over: int = 0  # decisions where the room was passed

    def note(self, value: int, where: str) -> None:
        if value > self.most:
            self.most, self.where = value, where
        if value > self.room:
            self.over += 1

    def merge(self, other: Seen) -> None:
        if other.most > self.most:
            self.most, self.where = other.most, other.where
        self.room = max(self.room, other.room)
        self.over += other.over


@dataclass
class Tally:
    """Everything measured in one batch of games."""

    blocks: dict[str, Seen] = field(default_factory=dict)
    sites: dict[str, Seen] = field(default_factory=dict)
    games: int = 0
    decisions: int = 0

    def seen(self, table: str, key: str, room: int) -> Seen:
        found = getattr(self, table)
        if key not in found:
            found[key] = Seen(room)
        return found[key]

    def merge(self, other: Tally) -> None:
        for table in ("blocks", "sites"):
            for key, item in getattr(other, table).items():
                self.seen(table, key, item.room).merge(item)
        self.games += other.games
        self.decisions += other.decisions


def extents(rows: Any, depth: int) -> list[int]:
    """The longest entry at each of ``depth`` nesting levels of ``rows`` (ragged allowed)."""
    if depth == 0 or not hasattr(rows, "__len__") or isinstance(rows, str):
        return []
    out = [len(rows)]
    if depth > 1:
        inner = [extents(row, depth - 1) for row in rows]
        out += [max((e[k] for e in inner if len(e) > k), default=0) for k in range(depth - 1)]
    return out


def _recording_padded(spaces: Any, tally: Tally, where: list[str]) -> Any:
    """A ``padded`` for ``spaces`` that notes each call's extents and never raises for a long entry."""
    original = spaces.padded
    path = spaces.__file__

    def padded(game: str, rows: Any, shape: tuple[int, ...], fill: float = -1) -> np.ndarray:
        line = sys._getframe(1).f_lineno
        label = f"line {line} {tuple(shape)}: {linecache.getline(path, line).strip()[:50]}"
        for depth, (size, room) in enumerate(zip(extents(rows, len(shape)), shape, strict=False)):
            tally.seen("sites", f"{label} [depth {depth}]", room).note(size, where[0])
        try:
            return original(game, rows, shape, fill)
        except Exception:
            return np.full(shape, fill, dtype=np.float32)

    return padded


def _note_options(codec: Any, options: Any, view: Any, tally: Tally, where: str) -> None:
    """Each block's count (bounded) or largest place (factored) among ``options``."""
    ranks: dict[str, int] = {}
    for option in options:
        kind = codec.kind_of(option)
        if kind not in codec.blocks:
            tally.seen("blocks", f"{kind} (no block)", 0).note(1, where)
            continue
        _, block = codec.blocks[kind]
        if block.index is None:
            ranks[kind] = ranks.get(kind, 0) + 1
        else:
            place = block.index(option, view)
            tally.seen("blocks", kind, block.size).note(block.size + 1 if place < 0 else place + 1, where)
    for kind, count in ranks.items():
        tally.seen("blocks", kind, codec.blocks[kind][1].size).note(count, where)


class _Measured:
    """The game, its ``legal_options`` measuring every list it hands out (and the mover's observation)."""

    def __init__(self, game: Any, spaces: Any, tally: Tally, where: list[str]):
        self._game, self._spaces, self._tally, self._where = game, spaces, tally, where

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_options(self, state: Any, seat: int) -> Any:
        options = self._game.legal_options(state, seat)
        view = self._game.view(state, seat)
        tally, where = self._tally, self._where[0]
        tally.decisions += 1
        tally.seen("blocks", "(all options)", self._spaces.ACTIONS).note(len(options), where)
        codec = getattr(self._spaces, "ACTION_CODEC", None)
        if codec is not None:
            _note_options(codec, options, view, tally, where)
        else:
            try:
                self._spaces.encode(options, view)
            except Exception:
                tally.seen("blocks", "(encode refused)", 0).note(1, where)
        self._spaces.observe(view)
        return options


def _lineups(game: str, players: int, scripted: int, seed: int) -> list[list[str]]:
    from sim.specs import builtin_names

    names = [n for n in builtin_names(game) if n not in SKIP_STRATEGIES]
    rng = np.random.default_rng(seed)
    return [[names[int(i)] for i in rng.integers(len(names), size=players)] for _ in range(scripted)]


def measure(task: tuple[str, int, dict[str, Any], int, int, int]) -> Tally:
    """One batch: ``random`` random games and ``scripted`` scripted ones of ``game`` for ``players`` under
    ``rules``, from root seed ``seed``."""
    from sim.plan import make_plan
    from sim.play import play_game
    from sim.plugin import registered
    from sim.rl.spaces import load_spaces
    from sim.seeding import game_seed

    game, players, rules, random, scripted, seed = task
    plugin = registered()[game]
    spaces, tally, where = load_spaces(plugin), Tally(), [""]
    spaces.padded = _recording_padded(spaces, tally, where)
    obj = _Measured(plugin.load_game(), spaces, tally, where)
    rule_text = ",".join(f"{k}={v}" for k, v in rules.items()) or "default rules"
    lineups = [["random"] * players] * random + _lineups(game, players, scripted, seed)
    plans: dict[tuple[str, ...], Any] = {}
    for i, lineup in enumerate(lineups):
        key = tuple(lineup)
        if key not in plans:
            plans[key] = make_plan(game, players, lineup, seed=seed, rules=rules)[0]
        plan = plans[key]
        gs = game_seed(seed, i)
        where[0] = f"{players}p {rule_text}, {'+'.join(sorted(set(lineup)))}, game seed {gs}"
        play_game(obj, players, plan.rules, plan.data, gs, plan.specs, plan.max_decisions)
        tally.games += 1
    return tally


def tasks(game: str, random: int, scripted: int, seed: int) -> list[tuple[str, int, dict, int, int, int]]:
    """One batch per player count and rule configuration (a rule that does not apply at a player count,
    e.g. the five-player offer, simply has no effect there)."""
    from sim.plugin import registered

    obj = registered()[game].load_game()
    return [(game, n, rules, random, scripted, seed + 1000 * n + c)
            for n in range(obj.min_players, obj.max_players + 1) for c, rules in enumerate(CONFIGS[game])]


def report(game: str, tally: Tally) -> list[str]:
    """The printed table of one game."""
    lines = [f"== {game}: {tally.games} games, {tally.decisions} decisions"]
    for table in ("blocks", "sites"):
        for key, s in sorted(getattr(tally, table).items()):
            margin = f"{s.room / s.most:.1f}x" if s.most else "-"
            flag = f"  OVER {s.over}x" if s.over else ""
            lines.append(f"  {key}: room {s.room}, most {s.most} ({margin}){flag}  [{s.where}]")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per player count and rules")
    parser.add_argument("--scripted", type=int, default=100, help="scripted games per player count and rules")
    parser.add_argument("--only", nargs="*", default=list(CONFIGS), help="games to measure")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", help="write the maxima as JSON here")
    args = parser.parse_args(argv)
    batches = [t for g in args.only for t in tasks(g, args.games, args.scripted, args.seed)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(measure, batches))
    totals = {g: Tally() for g in args.only}
    for batch, tally in zip(batches, results, strict=True):
        totals[batch[0]].merge(tally)
    over = False
    for game, tally in totals.items():
        print("\n".join(report(game, tally)), flush=True)
        over |= any(s.over for t in ("blocks", "sites") for s in getattr(tally, t).values())
    if args.json:
        out = {g: {t: {k: vars(s) for k, s in getattr(tl, t).items()} for t in ("blocks", "sites")}
               for g, tl in totals.items()}
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=1)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

"""The checks of a tune file against its game, and reading the base data documents it changes."""

from __future__ import annotations

import copy
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from analysis.tune.objectives import runs_of
from analysis.tune.params import PLAYER
from analysis.tune.reader import Head, Reader, Tune, Varied
from sim import rules as rulebook
from sim.errors import SkaldError
from sim.games import get_game
from sim.plan import check_players, make_plan


def check_game(read: Reader, tune: Head) -> Any:
    """The game object, once its name, player count, fixed rules and base data file pass."""
    try:
        game = get_game(tune.game)
        check_players(game, tune.players)
        tune.rules = rulebook.resolve(game, tune.rules)
    except SkaldError as exc:
        raise read.fail(f"{read.head}: {exc}") from None
    if tune.data is not None and not Path(tune.data).exists():
        raise read.fail(f"{read.head}.data: data file {tune.data!r} not found")
    return game


def rule_values(read: Reader, game: Any, rule: str, values: list[Any] | None, where: str) -> list[Any]:
    """The values a rule parameter tries, each converted as ``--rule`` converts it."""
    switches = {s.name: s for s in game.rule_switches}
    if rule not in switches:
        raise read.fail(
            f"{where[:-7]}.rule {rule!r} is not a rule switch of {game.name} "
            f"(allowed: {', '.join(sorted(switches)) or 'none'})"
        )
    switch = switches[rule]
    if values is None:
        if not switch.choices:
            raise read.fail(
                f"{where} is missing (rule {rule!r} has no fixed choices: list the values to try)"
            )
        values = list(switch.choices)
    try:
        return [rulebook.convert(switch, v) for v in values]
    except SkaldError as exc:
        raise read.fail(f"{where}: {exc}") from None


def base_file(tune: Varied, game: Any) -> str:
    """The data file or folder the candidates start from."""
    if tune.data is not None:
        return tune.data
    if game.default_data_path is None:
        raise SkaldError(
            f"tune file {tune.source}: {game.name} has no data file, so it has no data parameters"
        )
    return str(game.default_data_path)


def base_docs(tune: Varied, game: Any) -> dict[str | None, Any]:
    """Fresh copies of the base data documents (by file name within a folder; None for a single file)."""
    return read_docs(base_file(tune, game))


def read_docs(path: str) -> dict[str | None, Any]:
    """Fresh copies of the TOML documents of a data file (``{None: doc}``) or folder (``{name: doc}``)."""
    return copy.deepcopy(_read_docs(str(Path(path).resolve())))


@lru_cache(maxsize=16)
def _read_docs(path: str) -> dict[str | None, Any]:
    p = Path(path)
    try:
        if p.is_dir():
            return {f.name: tomllib.loads(f.read_text(encoding="utf-8")) for f in sorted(p.glob("*.toml"))}
        return {None: tomllib.loads(p.read_text(encoding="utf-8"))}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SkaldError(f"cannot read data {path!r} as TOML: {exc}") from None


def check_strategies(read: Reader, tune: Tune) -> None:
    """Every run's table is valid for the game (the runner's own checks, nothing played); the tuned player
    (``PLAYER``) plays as its base spec."""
    player = getattr(tune, "player", None)
    for run in runs_of(tune.terms):
        try:
            make_plan(
                tune.game,
                tune.players,
                [player if s == PLAYER and player is not None else s for s in run],
                seats=tune.seats,
                seed=tune.seed,
                rules=tune.rules,
                data=tune.data,
                max_decisions=tune.max_decisions,
            )
        except SkaldError as exc:
            raise read.fail(f"objective strategies {', '.join(run)}: {exc}") from None

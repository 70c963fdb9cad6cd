"""Invariants every registered game must keep, run over all of them (a new game is checked by
being registered in ``sim.games.GAMES``):

* a run is a function of its seed and configuration: ``--jobs 1`` and ``--jobs 2`` write
  byte-identical Parquet parts;
* one game is a function of its game seed: the same seed replays it, other seeds differ;
* nothing reads global random state (numpy's or the ``random`` module's);
* a mid-game snapshot (``to_dict``/``from_dict``) plays on exactly like the original;
* the component data a worker process receives (pickled) equals the data loaded, and its objects keep
  their attributes in slots, not in a ``__dict__``.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.games import GAMES, get_game
from sim.runner import RunConfig, play_game, run
from sim.tables import TurnLog
from strategies.registry import parse_spec
from tests.golden_kit import parquet_parts

#: (game, rule switches) played by the checks: every game with its defaults, plus the variants that
#: switch on whole rule sets
CASES: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in sorted(GAMES)] + [
    ("knarr", {"skali": "true"}),
]


def _players(name: str) -> int:
    game = get_game(name)
    return max(game.min_players, min(3, game.max_players))


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    name, rules = case
    return name + "".join(f"-{k}={v}" for k, v in rules.items())


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_jobs_1_and_2_write_byte_identical_records(case: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    """Determinism: a run is a function of its seed and configuration, not of --jobs."""
    name, rules = case
    common = dict(
        game=name,
        players=_players(name),
        games=4,
        strategies=(["greedy", "random"] * 2)[: _players(name)],
        seed=11,
        chunk_size=2,
        rules=rules,
        progress=False,
    )
    run(RunConfig(**common, jobs=1, out=tmp_path / "a"))
    run(RunConfig(**common, jobs=2, out=tmp_path / "b"))
    a, b = parquet_parts(tmp_path / "a"), parquet_parts(tmp_path / "b")
    assert len(a) >= 6 and a == b  # at least 2 chunks x 3 tables


def _final(name: str, rules: dict[str, Any], seed: int) -> tuple[list[float], int]:
    game = get_game(name)
    n = _players(name)
    specs = [parse_spec("random", name)] * n
    outcome = play_game(game, n, rules, game.load_data(None), seed, specs, game.default_max_decisions)
    return outcome.result.scores, outcome.decisions


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_same_seed_twice_same_game_other_seed_differs(case: tuple[str, dict[str, Any]]) -> None:
    name, rules = case
    assert _final(name, rules, 5) == _final(name, rules, 5)
    assert any(_final(name, rules, 5) != _final(name, rules, s) for s in (6, 7, 8))


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_game_ignores_global_random_state(case: tuple[str, dict[str, Any]]) -> None:
    """Seeding or drawing from the global generators between games changes nothing."""
    name, rules = case
    np.random.seed(1)
    random.seed(1)
    first = _final(name, rules, 17)
    np.random.seed(2)
    random.seed(2)
    np.random.random(100)
    random.random()
    assert _final(name, rules, 17) == first


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_snapshot_plays_on_like_the_original(case: tuple[str, dict[str, Any]]) -> None:
    """``to_dict``/``from_dict`` half-way through: the copy makes the same decisions and ends the same."""
    name, rules = case
    game = get_game(name)
    n = _players(name)
    state = game.new_state(n, rules, game.load_data(None), 23)
    rng = np.random.default_rng(23)

    def step(s: Any, pick: np.random.Generator) -> list[tuple[int, str, tuple[int, ...]]]:
        movers = game.to_move(s)
        choices = {}
        for seat in movers:
            options = game.legal_options(s, seat)
            choices[seat] = options[int(pick.integers(len(options)))]
        logged = [(seat, *game.record(s, seat, choice)) for seat, choice in choices.items()]
        game.apply(s, choices)
        return logged

    for _ in range(60):
        if game.is_terminal(state):
            break
        step(state, rng)
    copy = game.from_dict(game.to_dict(state))
    assert game.to_dict(copy) == game.to_dict(state)
    rng_a, rng_b = np.random.default_rng(99), np.random.default_rng(99)
    for _ in range(200):
        if game.is_terminal(state):
            break
        assert step(copy, rng_b) == step(state, rng_a)
    assert game.is_terminal(copy) == game.is_terminal(state)
    assert game.scores(copy) == game.scores(state)


def _data_objects(obj: Any) -> list[Any]:
    """``obj`` and the dataclass instances inside it (in fields, tuples, lists and dict values)."""
    out, todo = [], [obj]
    while todo:
        item = todo.pop()
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            out.append(item)
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, (tuple, list)):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_component_data_pickles_to_slotted_equal_objects(name: str) -> None:
    """Workers (loky, Dask) get the run's data pickled. An object whose attributes live in a ``__dict__``
    comes out of pickling with a dictionary CPython 3.11 reads attributes from more slowly than from a
    fresh object's (Greenland's decisions ran 6-9% slower in every worker, so 2 workers gave 1.79x):
    the data classes use slots, and a pickled copy equals the original."""
    data = get_game(name).load_data(None)
    copy = pickle.loads(pickle.dumps(data))
    objects = _data_objects(data)
    assert objects and not [type(o).__name__ for o in objects if hasattr(o, "__dict__")]
    assert pickle.dumps(copy) == pickle.dumps(data)  # equal content (numpy arrays have no plain ==)
    assert [type(o) for o in _data_objects(copy)] == [type(o) for o in objects]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_action_columns_are_declared_per_kind_and_named(name: str) -> None:
    """The turns table's action columns: every kind a game records is declared in ``action_kinds``
    with the columns it fills (names of ``action_fields``), every other column of its rows is -1, and
    every column has a line in ``action_docs`` (what ``skald records GAME`` prints)."""
    game = get_game(name)
    kinds = getattr(game, "action_kinds", None)
    docs = getattr(game, "action_docs", None)
    assert isinstance(kinds, dict) and kinds, f"{name}: no action_kinds declaration"
    assert isinstance(docs, dict), f"{name}: no action_docs declaration"
    fields = tuple(game.action_fields)
    assert len(set(fields)) == len(fields), f"{name}: an action column is named twice"
    undocumented = [f for f in fields if not str(docs.get(f, "")).strip()]
    assert not undocumented, f"{name}: action columns without a doc line: {undocumented}"
    for kind, used in kinds.items():
        unknown = set(used) - set(fields)
        assert not unknown, f"{name}: kind {kind!r} declares columns that are not action fields: {unknown}"
    n = _players(name)
    seen: set[str] = set()
    for seed in (1, 2):
        log = TurnLog()
        specs = [parse_spec(s, name) for s in (["greedy", "random"] * 3)[:n]]
        play_game(game, n, {}, game.load_data(None), seed, specs, game.default_max_decisions, log)
        for kind, values in zip(log.kind, log.fields, strict=True):
            assert kind in kinds, f"{name}: kind {kind!r} is recorded but not declared in action_kinds"
            seen.add(kind)
            stray = [f for f, v in zip(fields, values, strict=True) if f not in kinds[kind] and v != -1]
            assert not stray, f"{name}: a {kind!r} row fills columns its declaration leaves out: {stray}"
    assert len(seen) >= 2, f"{name}: the check played fewer than two kinds of decision ({seen})"

"""Invariants every registered game must keep, run over all of them (a new game is checked by
being registered in ``sim.games.GAMES``):

* a run is a function of its seed and configuration: ``--jobs 1`` and ``--jobs 2`` write
  byte-identical Parquet parts;
* one game is a function of its game seed: the same seed replays it, other seeds differ;
* nothing reads global random state (numpy's or the ``random`` module's);
* a mid-game snapshot (``to_dict``/``from_dict``) plays on exactly like the original;
* ``copy`` gives an independent state (no mutable object shared, playing it on leaves the original
  as it was) that equals the original and plays on exactly like it;
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

from sim.game import copy_rng
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


def _scripted(name: str) -> str:
    """The game's first own strategy (greedy for Skald's four), or random where it brings none."""
    return next(iter(GAMES[name].strategies), "random")


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
        strategies=([_scripted(name), "random"] * 2)[: _players(name)],
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


Logged = list[tuple[int, str, tuple[int, ...]]]


def _step(game: Any, state: Any, pick: np.random.Generator) -> Logged:
    """One decision point with choices drawn from ``pick``; the (seat, kind, fields) recorded."""
    choices = {}
    for seat in game.to_move(state):
        options = game.legal_options(state, seat)
        choices[seat] = options[int(pick.integers(len(options)))]
    logged = [(seat, *game.record(state, seat, choice)) for seat, choice in choices.items()]
    game.apply(state, choices)
    return logged


def _mid_game(name: str, rules: dict[str, Any], seed: int, steps: int) -> tuple[Any, Any]:
    """(game, state) after ``steps`` random decision points (fewer if the game ends)."""
    game = get_game(name)
    state = game.new_state(_players(name), rules, game.load_data(None), seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        _step(game, state, rng)
    return game, state


def _play_on_alike(game: Any, a: Any, b: Any, steps: int) -> None:
    """``a`` and ``b`` make the same records for the same choices and end alike."""
    rng_a, rng_b = np.random.default_rng(99), np.random.default_rng(99)
    for _ in range(steps):
        if game.is_terminal(a):
            break
        assert _step(game, b, rng_b) == _step(game, a, rng_a)
    assert game.is_terminal(b) == game.is_terminal(a)
    assert game.scores(b) == game.scores(a)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_snapshot_plays_on_like_the_original(case: tuple[str, dict[str, Any]]) -> None:
    """``to_dict``/``from_dict`` half-way through: the copy makes the same decisions and ends the same."""
    game, state = _mid_game(*case, seed=23, steps=60)
    copy = game.from_dict(game.to_dict(state))
    assert game.to_dict(copy) == game.to_dict(state)
    _play_on_alike(game, state, copy, 200)


_MUTABLE = (list, dict, set, bytearray, np.ndarray, np.random.Generator, np.random.BitGenerator)


def _mutables(obj: Any, path: str, found: dict[int, str]) -> None:
    """Every mutable object reachable from ``obj`` (items, values), by id, with its path (a read-only
    numpy array is not: a state may share one it replaces rather than writes)."""
    if isinstance(obj, _MUTABLE) and not (isinstance(obj, np.ndarray) and not obj.flags.writeable):
        found[id(obj)] = path
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            _mutables(item, f"{path}[{i}]", found)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            _mutables(value, f"{path}[{key!r}]", found)
    elif isinstance(obj, np.random.Generator):
        _mutables(obj.bit_generator, f"{path}.bit_generator", found)


@pytest.mark.parametrize("case", CASES, ids=_ids)
@pytest.mark.parametrize("steps", [0, 45, 90])
def test_copy_is_independent_equal_and_plays_on_like_the_original(
    case: tuple[str, dict[str, Any]], steps: int
) -> None:
    """``copy`` (what search plays on): equal ``to_dict``, no mutable object in common with the
    original (the component data aside), playing the copy to the end leaves the original as it was,
    and a second copy makes the same records as the original for the same choices."""
    game, state = _mid_game(*case, seed=31, steps=steps)
    copy = game.copy(state)
    assert type(copy) is type(state) and game.to_dict(copy) == game.to_dict(state)
    ours: dict[int, str] = {}
    theirs: dict[int, str] = {}
    for key, value in vars(state).items():
        if key != "data":
            _mutables(value, key, ours)
    for key, value in vars(copy).items():
        if key != "data":
            _mutables(value, key, theirs)
    assert sorted(ours[i] for i in ours.keys() & theirs.keys()) == []
    before = game.to_dict(state)
    _play_on_alike(game, game.copy(copy), copy, 4000)  # the copy of a copy too
    assert game.to_dict(state) == before
    _play_on_alike(game, state, game.copy(state), 300)


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


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64])
def test_copy_rng_draws_what_the_original_draws_and_stays_apart(bits: type) -> None:
    """``sim.game.copy_rng`` (every game's ``copy``): the same state and draws, no state in common."""
    rng = np.random.Generator(bits(5))
    rng.random(7)
    copy = copy_rng(rng)
    state = pickle.dumps(rng.bit_generator.state)  # some hold arrays: no plain ==
    assert pickle.dumps(copy.bit_generator.state) == state
    assert (copy.integers(0, 2**40, 100) == rng.integers(0, 2**40, 100)).all()
    copy.random(3)
    assert pickle.dumps(copy.bit_generator.state) != pickle.dumps(rng.bit_generator.state)

"""Every registered game, and the example external game (``examples/skald-tictactoe``), passes the conformance
checker plug-in authors run, ``sim.testing.check_game`` (an importable checker, run over every registered game
and the example): options never empty at any player count, ``record`` as wide as ``action_fields``, result
parts exactly ``part_fields``, an illegal option refused with ``IllegalChoice`` and the state unchanged, a
seat's view unchanged by a ``determinize`` sample of what it cannot see, ``--jobs 1`` and ``--jobs 2`` records
byte-identical, global random state untouched, snapshots and copies playing on identically, and a declared
``evaluate`` (a cut search playout's judge) in [0, 1].

Beside it, what the checker leaves to Skald's own games:

* other game seeds give other games;
* the component data a worker process receives (pickled) equals the data loaded, and its objects keep
  their attributes in slots, not in a ``__dict__``;
* every action kind is declared with its columns, and every column documented (``skald records``).

The example is registered here at run time (its folder on ``sys.path``, the registry patched, as
``tests/sim/test_plugins.py`` does) so that the README's test command checks it without installing it;
CI installs it as well (``.ci/run``).
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sim.games
from sim.game import copy_rng
from sim.games import GAMES, get_game
from sim.play import play_game
from sim.specs import parse_spec
from sim.tables import TurnLog
from sim.testing import check_game, final

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "skald-tictactoe"
# on sys.path from collection on, before any test starts the loky workers (which keep the sys.path they
# were started with, and must import the example's rules for its --jobs 2 run)
if str(EXAMPLE) not in sys.path:
    sys.path.append(str(EXAMPLE))

#: (game, rule switches) checked: every registered game with its defaults, the example, plus the variants
#: that switch on whole rule sets
CASES: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in sorted({*GAMES, "tictactoe"})] + [
    ("knarr", {"skali": "true"}),
    ("tictactoe", {"first": "1"}),
]

#: Skald's own games (the checks below hold them to the project's rules for data files and records docs)
OWN = sorted(name for name, plugin in GAMES.items() if plugin.game.startswith("sim.games."))


@pytest.fixture(autouse=True)
def example_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example game in the registry (already there where it is installed)."""
    if "tictactoe" not in GAMES:
        from skald_tictactoe.plugin import PLUGIN

        monkeypatch.setitem(sim.games.GAMES, "tictactoe", PLUGIN)


def _players(name: str) -> int:
    game = get_game(name)
    return max(game.min_players, min(3, game.max_players))


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    name, rules = case
    return name + "".join(f"-{k}={v}" for k, v in rules.items())


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_game_passes_the_conformance_checker(case: tuple[str, dict[str, Any]]) -> None:
    name, rules = case
    report = check_game(name, rules=rules)
    ran = set(report.checked)
    assert {"playouts", "options", "illegal", "hidden", "seeds", "snapshot", "copy", "jobs"} <= ran, report
    game = get_game(name)
    assert report.checked["playouts"] == 2 * (game.max_players - game.min_players + 1), "every player count"
    if name != "tictactoe":  # the example hides nothing; the four games hide hands and deck orders
        assert report.checked.get("hidden changed", 0) > 0, f"{name}: no sample changed hidden information"
    if callable(getattr(game, "evaluate", None)):  # Greenland judges a cut search playout
        assert report.checked.get("evaluate", 0) > 0, f"{name}: its evaluate was not probed"


@pytest.mark.parametrize("name", sorted({*GAMES, "tictactoe"}))
def test_other_seeds_give_other_games(name: str) -> None:
    game = get_game(name)
    n, cap = _players(name), game.default_max_decisions
    assert any(final(game, n, {}, 5, cap) != final(game, n, {}, s, cap) for s in (6, 7, 8, 9, 10))


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


@pytest.mark.parametrize("name", OWN)
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


@pytest.mark.parametrize("name", OWN)
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

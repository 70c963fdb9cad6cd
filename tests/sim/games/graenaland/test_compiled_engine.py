"""The compiled Graenaland engine against the pure-Python one it is compiled from (``sim.engines``): the
same records, byte for byte, over seeds, player counts (graenaland.txt: 3 to 5 players), rule switches
(the three-player adjustments, the custom start, victory point cards, the five-player offer), scripted
and search players (copies and determinized states), truncated games and both seatings.

The comparison is ``tests.engine_kit``'s; the fallback itself (source chosen, stale build noticed) is tested
here on the source alone.
"""

from __future__ import annotations

import importlib.machinery
import json
import sys
from pathlib import Path

import pytest

from sim import engines
from tests.engine_kit import Config, assert_identical_records, assert_modules_compiled, require_built

PACKAGE = "sim.games.graenaland"

PACKAGES = [PACKAGE, "strategies"]

CONFIGS: list[Config] = [
    (3, "greedy,cooperative,random", [], "rotate", 11, 6, None),
    (4, "random", [], "fixed", 12, 8, None),
    (
        4,
        "greedy,rival,cooperative,warlord",
        ["custom_start=true", "victory_cards=true"],
        "rotate",
        13,
        4,
        None,
    ),
    (3, "warlord,greedy,rival", ["three_player_adjustments=off"], "random", 14, 6, None),
    (5, "greedy,warlord,rival,cooperative,random", ["five_player_offer=true"], "fixed", 15, 2, None),
    (4, "ismcts:iterations=6,greedy,random,rival", [], "fixed", 16, 1, 90),
]


@pytest.fixture(scope="module")
def built() -> None:
    require_built("graenaland", PACKAGES)


def test_compiled_and_python_engines_write_identical_records(built: None) -> None:
    assert_identical_records("graenaland", PACKAGES, CONFIGS)


def test_the_compiled_engine_runs_compiled_modules(built: None) -> None:
    assert_modules_compiled(PACKAGE, [f"{PACKAGE}.rules", "strategies.graenaland"])


def test_the_build_finds_each_declaration_in_the_source() -> None:
    import sim.games.graenaland as package
    import sim.games.greenland as greenland
    import strategies

    root = Path(str(strategies.__file__)).parents[1]
    found = engines.declared(root, ("sim", "strategies", "analysis"))
    expected = {p.__name__: p.COMPILED_MODULES for p in (package, greenland, strategies)}
    assert found == expected


def test_python_is_chosen_on_request_and_a_bad_choice_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import sim.games.graenaland as package

    monkeypatch.setitem(engines.ENGINES, PACKAGE, engines.ENGINES[PACKAGE])  # restored afterwards
    monkeypatch.setitem(engines.REASONS, PACKAGE, engines.REASONS[PACKAGE])
    monkeypatch.setattr("sys.meta_path", list(sys.meta_path))
    monkeypatch.setenv(engines.ENV, "python")
    assert engines.select_engine(PACKAGE, package.COMPILED_MODULES) == "python"
    assert engines.REASONS[PACKAGE] == engines.ASKED
    monkeypatch.setenv(engines.ENV, "fast")
    with pytest.raises(engines.EngineError, match="allowed: auto, python, compiled"):
        engines.select_engine(PACKAGE, package.COMPILED_MODULES)


def test_a_changed_source_or_missing_stamp_falls_back_to_the_source(tmp_path: Path) -> None:
    """A build whose sources changed since (an edited editable install) is not used: the stamp's digests
    of every module of the compiled group are checked against the ``.py`` files, another package's too."""
    group = {"game.rules_pkg": ("rules", "view"), "players": ("scripted",)}
    for package, modules in group.items():
        folder = tmp_path.joinpath(*package.split("."))
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text(f"COMPILED_MODULES = {modules!r}\n")
        for m in modules:
            (folder / f"{m}.py").write_text(f"NAME = {m!r}\n")
    assert engines.declared(tmp_path, ("game", "players")) == group
    folder, modules = tmp_path / "game" / "rules_pkg", group["game.rules_pkg"]
    current, why = engines.compiled_state("game.rules_pkg", modules, folder)
    assert not current and "not built" in why
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for m in modules:
        (folder / f"{m}{suffix}").write_bytes(b"")
    current, why = engines.compiled_state("game.rules_pkg", modules, folder)
    assert not current and engines.STAMP in why
    engines.write_stamps(tmp_path, group)
    stamp = json.loads((folder / engines.STAMP).read_text())
    assert sorted(stamp["modules"]) == ["game.rules_pkg.rules", "game.rules_pkg.view", "players.scripted"]
    assert stamp["shared"] == f"{engines.GROUP}__mypyc"
    stamp["shared"] = "no_such_library__mypyc"
    (folder / engines.STAMP).write_text(json.dumps(stamp))
    current, why = engines.compiled_state("game.rules_pkg", modules, folder)
    assert not current and "shared library no_such_library__mypyc is not importable" in why
    stamp["shared"] = "json"  # stands in for the shared library
    (folder / engines.STAMP).write_text(json.dumps(stamp))
    assert engines.compiled_state("game.rules_pkg", modules, folder) == (True, "")
    (tmp_path / "players" / "scripted.py").write_text("NAME = 'edited'\n")  # another package of the group
    current, why = engines.compiled_state("game.rules_pkg", modules, folder)
    assert not current and "scripted.py changed since the build" in why


def test_the_source_finder_loads_the_py_file(tmp_path: Path) -> None:
    (tmp_path / "alone.py").write_text("VALUE = 7\n")
    finder = engines.SourceFinder({"skald_test_alone": tmp_path / "alone.py"})
    spec = finder.find_spec("skald_test_alone", None)
    assert spec is not None and spec.origin == str(tmp_path / "alone.py")
    assert finder.find_spec("something_else", None) is None


def test_a_run_says_when_the_source_runs_unasked(monkeypatch: pytest.MonkeyPatch) -> None:
    from sim.games import get_game

    game = get_game("graenaland")
    assert engines.engine_for(game) == engines.ENGINES[PACKAGE]
    monkeypatch.setitem(engines.ENGINES, PACKAGE, "python")
    monkeypatch.setitem(engines.REASONS, PACKAGE, "not built (no C compiler or mypyc at install time)")
    note = engines.fallback_note(game)
    assert note is not None and "not built" in note and "the same records" in note
    monkeypatch.setitem(engines.REASONS, PACKAGE, engines.ASKED)  # asked for: nothing to say
    assert engines.fallback_note(game) is None
    monkeypatch.setitem(engines.ENGINES, PACKAGE, "compiled")
    assert engines.fallback_note(game) is None
    assert engines.fallback_note(get_game("mainland")) is None  # no compiled engine to miss
    assert engines.engine_for(get_game("mainland")) == "python"


def test_the_options_take_a_numpy_integer_as_an_index() -> None:
    """A strategy may pick an option with a numpy integer, as it may from a list: the lazily decoded
    proposals (graenaland.txt:88-104, every division of the cards) take one like an int."""
    import numpy as np

    from sim.games import get_game

    game = get_game("graenaland")
    state = game.new_state(3, {}, game.load_data(None), 7)
    while True:
        movers = game.to_move(state)
        options = game.legal_options(state, movers[0])
        if type(options).__name__ != "list" and len(options) > 2:
            break
        game.apply(state, {seat: game.legal_options(state, seat)[0] for seat in movers})
    assert options[np.int64(2)] == options[2] and options[np.int64(-1)] == options[len(options) - 1]

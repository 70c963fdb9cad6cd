"""The compiled Graenaland engine against the pure-Python one it is compiled from (``sim.engines``): the
same records, byte for byte, over seeds, player counts (graenaland.txt: 3 to 5 players), rule switches
(the three-player adjustments, the custom start, victory point cards, the five-player offer), scripted
and search players (copies and determinized states), truncated games and both seatings.

Each engine plays in its own process (``SKALD_ENGINE``), since a process imports one.  Where the compiled
engine is not built the comparison is skipped, unless ``SKALD_REQUIRE_COMPILED=1`` (CI) makes that a
failure; the fallback itself (source chosen, stale build noticed) is tested on the source alone.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import engines

PACKAGE = "sim.games.graenaland"

#: (players, strategies, rule switches, seats, seed, games, max decisions)
CONFIGS: list[tuple[int, str, list[str], str, int, int, int | None]] = [
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

#: plays every configuration into a fresh folder and prints each table's Parquet digests, as JSON
PLAY = """
import hashlib, json, sys, tempfile
from pathlib import Path
from sim.cli import _main
import sim.games.graenaland as package
import strategies
configs = json.loads(sys.argv[1])
out = {"engine": [package.ENGINE, strategies.ENGINE], "records": []}
for i, (players, strategies, rules, seats, seed, games, cap) in enumerate(configs):
    folder = Path(tempfile.mkdtemp()) / "run"
    argv = ["run", "graenaland", "-p", str(players), "-s", strategies, "--seats", seats, "--seed", str(seed),
            "-g", str(games), "-j", "1", "-q", "-o", str(folder)]
    argv += [a for r in rules for a in ("--rule", r)] + (["--max-decisions", str(cap)] if cap else [])
    assert _main(argv) == 0, argv
    parts = sorted(p for p in folder.rglob("*.parquet"))
    digests = {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in parts}
    out["records"].append(digests)
print(json.dumps(out))
"""


def _play(engine: str) -> dict:
    env = {**os.environ, engines.ENV: engine}
    done = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(CONFIGS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _compiled_built() -> bool:
    import sim.games.graenaland as package
    import strategies

    return all(
        engines.compiled_state(p.__name__, p.COMPILED_MODULES, Path(str(p.__file__)).parent)[0]
        for p in (package, strategies)
    )


@pytest.fixture(scope="module")
def built() -> None:
    if not _compiled_built():
        if os.environ.get("SKALD_REQUIRE_COMPILED") == "1":
            pytest.fail("SKALD_REQUIRE_COMPILED=1 but Graenaland's compiled engine is not built")
        pytest.skip("Graenaland's compiled engine is not built here (no C compiler at install time)")


def test_compiled_and_python_engines_write_identical_records(built: None) -> None:
    compiled, python = _play("compiled"), _play("python")
    assert (compiled["engine"], python["engine"]) == (["compiled"] * 2, ["python"] * 2)
    assert all(records for records in compiled["records"])  # every configuration wrote its parts
    for config, a, b in zip(CONFIGS, compiled["records"], python["records"], strict=True):
        assert a == b, f"records differ for {config}"


def test_the_compiled_engine_runs_compiled_modules(built: None) -> None:
    import sim.games.graenaland.rules as rules
    import strategies.graenaland as scripted

    if engines.ENGINES[PACKAGE] == "compiled":
        assert not str(rules.__file__).endswith(".py") and not str(scripted.__file__).endswith(".py")


def test_the_build_finds_each_declaration_in_the_source() -> None:
    import sim.games.graenaland as package
    import strategies

    root = Path(str(strategies.__file__)).parents[1]
    found = engines.declared(root, ("sim", "strategies", "analysis"))
    assert found == {PACKAGE: package.COMPILED_MODULES, "strategies": strategies.COMPILED_MODULES}


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

"""Games as plug-ins, registered in [project.entry-points."skald.games"]. Each entry names one plug-in object
that declares everything the game brings: its rules (the Game protocol); its strategies; its report sections
and studies; its data folder; its documentation strings. Skald's four games register this way in
pyproject.toml. The core names no game: sim/ (with the strategy registry, sim/specs.py), the generic
questions and statistics of analysis/, analysis/report/report.py, analysis/report/sections/general.py,
analysis/study/study.py and analysis/data/study_file.py; a grep of the core for the four game names finds
only comments or docs."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from analysis.study.study import packaged
from sim.game import Game
from sim.games import GAMES, get_game
from sim.plugin import GamePlugin, registered
from sim.search import searchable
from sim.specs import builtin, builtin_names, parse_spec
from strategies.value_model import packaged_games

ROOT = Path(__file__).resolve().parents[2]
OURS = ("graenaland", "greenland", "knarr", "mainland")
CORE = [
    *sorted((ROOT / "sim").glob("*.py")),  # sim/specs.py finds strategies through the plug-ins
    *sorted((ROOT / "analysis" / "questions").glob("*.py")),  # the generic questions
    *sorted((ROOT / "analysis" / "stats").rglob("*.py")),
    ROOT / "analysis" / "report" / "report.py",
    ROOT / "analysis" / "report" / "sections" / "general.py",
    ROOT / "analysis" / "study" / "study.py",
    ROOT / "analysis" / "data" / "study_file.py",
]


def test_our_four_games_register_through_the_entry_points() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["skald.games"]
    assert sorted(declared) == list(OURS), "pyproject.toml registers the four games"
    ours = {name: plugin for name, plugin in registered().items() if name in OURS}
    assert list(ours) == list(OURS), "the installed entry points are pyproject's (pip install -e .)"
    for name, plugin in ours.items():
        assert isinstance(plugin, GamePlugin) and plugin.name == name
        assert declared[name] == f"sim.games.{name}.plugin:PLUGIN"


@pytest.mark.parametrize("name", OURS)
def test_a_plugin_declares_everything_its_game_brings(name: str) -> None:
    plugin = registered()[name]
    game = plugin.load_game()
    assert isinstance(game, Game) and game.name == name, "the rules follow sim.game.Game"
    assert plugin.title and plugin.description, "documentation strings"
    assert plugin.data and (ROOT / plugin.data).is_dir(), f"data folder {plugin.data}"
    for strategy, path in plugin.strategies.items():
        cls = parse_spec(strategy, name).cls
        assert f"{cls.__module__}:{cls.__name__}" in builtin()[strategy] and path in builtin()[strategy]
        assert name in cls.games, f"{path} plays {name}"
    searching = {"ismcts"} if searchable(game) else set()  # search plays every game that declares determinize
    searching |= {"learned"} if searchable(game) and name in packaged_games() else set()  # and a fitted judge
    assert set(builtin_names(name)) == {"random", *searching, *plugin.strategies}
    assert callable(plugin.load_sections()), "report sections"
    studies = [text for _, text, _ in plugin.study_texts()]
    assert studies, "a game brings at least one study"
    named = {study.name for study in packaged().values() if name in study.games_needed}
    assert len(named) >= len(studies)


def _code_strings_and_names(path: Path) -> set[str]:
    """Every string constant and name in ``path``'s code, docstrings left out."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.add(node.value.lower())
        elif isinstance(node, ast.Name):
            found.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            found.add(node.attr.lower())
        elif isinstance(node, ast.alias):
            found.add(node.name.lower())
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.lower())
    return found


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_names_no_game(path: Path) -> None:
    for word in _code_strings_and_names(path):
        for game in OURS:
            assert game not in word, f"{path.relative_to(ROOT)} names {game} in its code: {word!r}"


def test_a_game_registered_at_run_time_plays_and_reports(
    registered: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in added to the registry is found by name everywhere: rules, strategies, run, report."""
    from analysis.report.report import write_report
    from sim.cli import _main

    assert get_game(registered).name == registered and registered in GAMES
    out = tmp_path / "toy"
    assert (
        _main(
            [
                "run",
                registered,
                "-p",
                "2",
                "-s",
                "random",
                "-g",
                "4",
                "--jobs",
                "1",
                "--quiet",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    page = write_report([out], tmp_path / "report.html").read_text()
    assert f'id="{registered}-seat-balance"' in page and "<h2>Secret bid</h2>" in page

"""The public API for plug-in authors (``sim.api``): every name it lists imports, and the example plug-in
(``examples/skald-tictactoe``) takes everything it needs from Skald through it alone."""

from __future__ import annotations

import ast
import importlib
import tomllib
from pathlib import Path

import pytest

import sim.api

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "skald-tictactoe"
#: the public modules: a game's and a strategy's (``sim.api``), a game's report sections' (``analysis.api``)
PUBLIC = ("sim.api", "analysis.api")


def skald_packages() -> set[str]:
    """Skald's own top-level packages, as its ``pyproject.toml`` finds them (``sim*``, ``strategies*``...)."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return {pattern.rstrip("*") for pattern in found["include"]} | {"tools"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (``import a.b``, ``from a.b import c``, at any depth), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("name", sim.api.__all__)
def test_every_name_of_the_public_api_imports(name: str) -> None:
    module = importlib.import_module("sim.api")
    assert getattr(module, name) is not None, name


def test_the_public_api_lists_each_name_once_and_star_imports() -> None:
    assert len(set(sim.api.__all__)) == len(sim.api.__all__)
    namespace: dict[str, object] = {}
    exec("from sim.api import *", namespace)  # noqa: S102 - the star import an author may write
    assert set(sim.api.__all__) <= set(namespace)


def test_the_public_api_has_what_a_game_and_a_strategy_need() -> None:
    needed = {"Game", "GamePlugin", "Strategy", "Params", "check_game", "has_capability", "CAPABILITIES"}
    assert needed <= set(sim.api.__all__)


def test_the_example_plugin_imports_nothing_of_skald_but_the_public_api() -> None:
    ours = skald_packages()
    files = sorted((EXAMPLE / "skald_tictactoe").rglob("*.py"))
    assert files, f"no source files under {EXAMPLE}"
    stray = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in files
        for line, module in imported_modules(path)
        if module.split(".")[0] in ours and module not in PUBLIC
    ]
    assert not stray, "the example imports from Skald other than its public API:\n" + "\n".join(stray)
    assert any(module == "sim.api" for path in files for _, module in imported_modules(path))


def test_the_report_sections_api_lists_what_it_exports() -> None:
    import analysis.api

    assert set(analysis.api.__all__) == {"Section", "Table", "pct"}
    assert all(getattr(analysis.api, name) is not None for name in analysis.api.__all__)

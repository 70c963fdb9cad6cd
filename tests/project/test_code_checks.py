"""The code checks CI runs with the tests: ruff with the complexity rules
(C901, PLR0915, configured in pyproject.toml), mypy on ``sim/``, ``strategies/`` and ``analysis/`` (the
``[tool.mypy]`` section), the size limits (no source file over 800 lines, no function over 80, but where a
``size:`` comment says why), the floors (import-linter's contracts in ``[tool.importlinter]``: tools
above analysis above strategies above sim, the command line the one door up, and the analysis's own
floors) and no import circle in the analysis."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: the test extra installs it (pip install -e '.[test]')")
    return found


def test_ruff_is_clean_with_the_complexity_rules() -> None:
    done = _run(_tool("ruff"), "check", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_mypy_is_clean_on_sim_strategies_and_analysis() -> None:
    done = _run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_no_source_file_or_function_over_its_size_limit() -> None:
    done = _run(sys.executable, "-m", "tools.sizes")
    assert done.returncode == 0, done.stdout[-4000:]


def test_the_floors_hold() -> None:
    """Each package imports only its own layer and those below (``[tool.importlinter]``)."""
    done = _run(_tool("lint-imports"))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout


def test_the_analysis_has_no_import_circle() -> None:
    """No module of ``analysis`` imports, however indirectly, one that imports it back (every import
    counted, function-level ones too: ``tools.import_graph``)."""
    from tools import import_graph

    graph = import_graph.graph_of(import_graph.modules("analysis", ROOT))
    assert len(graph) > 50 and sum(map(len, graph.values())) > 100  # the graph is read, not empty
    assert import_graph.circles(graph) == []
    graph["analysis.present.findings"].add("analysis.report.verdicts")  # a circle, planted: it is found
    assert import_graph.circles(graph)

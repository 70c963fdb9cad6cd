"""The code checks CI runs with the tests: ruff with the complexity rules
(C901, PLR0915, configured in pyproject.toml), mypy on ``sim/`` and ``strategies/`` (the ``[tool.mypy]``
section) and the size limits (no source file over 800 lines, no function over 80, but where a
``size:`` comment says why)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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


def test_mypy_is_clean_on_sim_and_strategies() -> None:
    done = _run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_no_source_file_or_function_over_its_size_limit() -> None:
    done = _run(sys.executable, "-m", "tools.sizes")
    assert done.returncode == 0, done.stdout[-4000:]

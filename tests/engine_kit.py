"""The differential test of a compiled engine against the pure-Python engine it is compiled from
(``sim.engines``): each engine plays the same runs in its own process (``SKALD_ENGINE``, since a process
imports one) and the runs' Parquet parts are compared by digest.

Where the compiled engine is not built the comparison is skipped, unless ``SKALD_REQUIRE_COMPILED=1``
(CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from sim import engines

#: (players, strategies, rule switches, seats, seed, games, max decisions)
Config = tuple[int, str, list[str], str, int, int, int | None]

#: plays every configuration into a fresh folder and prints the engines chosen and each run's Parquet
#: digests, as JSON
PLAY = """
import hashlib, json, sys, tempfile
from importlib import import_module
from pathlib import Path
from sim.cli import _main
game, packages, configs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
out = {"engine": [import_module(p).ENGINE for p in packages], "records": []}
for players, strategies, rules, seats, seed, games, cap in configs:
    folder = Path(tempfile.mkdtemp()) / "run"
    argv = ["run", game, "-p", str(players), "-s", strategies, "--seats", seats, "--seed", str(seed),
            "-g", str(games), "-j", "1", "-q", "-o", str(folder)]
    argv += [a for r in rules for a in ("--rule", r)] + (["--max-decisions", str(cap)] if cap else [])
    assert _main(argv) == 0, argv
    parts = sorted(folder.rglob("*.parquet"))
    digest = {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in parts}
    out["records"].append(digest)
print(json.dumps(out))
"""


def play(game: str, packages: list[str], configs: list[Config], engine: str) -> dict[str, Any]:
    """The engines ``packages`` chose and each configuration's record digests, played under ``engine``."""
    done = subprocess.run(
        [sys.executable, "-c", PLAY, game, json.dumps(packages), json.dumps(configs)],
        env={**os.environ, engines.ENV: engine},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def compiled_built(packages: list[str]) -> bool:
    """Whether every package's compiled modules are built and current."""
    found = [import_module(p) for p in packages]
    return all(
        engines.compiled_state(p.__name__, p.COMPILED_MODULES, Path(str(p.__file__)).parent)[0] for p in found
    )


def require_built(game: str, packages: list[str]) -> None:
    """Skip where the compiled engine is not built, or fail where CI requires it."""
    if compiled_built(packages):
        return
    if os.environ.get("SKALD_REQUIRE_COMPILED") == "1":
        pytest.fail(f"SKALD_REQUIRE_COMPILED=1 but {game}'s compiled engine is not built")
    pytest.skip(f"{game}'s compiled engine is not built here (no C compiler at install time)")


def assert_identical_records(game: str, packages: list[str], configs: list[Config]) -> None:
    """Both engines write byte-identical records for every configuration."""
    compiled, python = (play(game, packages, configs, e) for e in ("compiled", "python"))
    assert (compiled["engine"], python["engine"]) == (
        ["compiled"] * len(packages),
        ["python"] * len(packages),
    )
    assert all(records for records in compiled["records"])  # every configuration wrote its parts
    for config, a, b in zip(configs, compiled["records"], python["records"], strict=True):
        assert a == b, f"records differ for {config}"


def assert_modules_compiled(package: str, modules: list[str]) -> None:
    """Under the compiled engine, the named modules are loaded from their extensions, not their source."""
    if engines.ENGINES[package] == "compiled":
        for name in modules:
            assert not str(import_module(name).__file__).endswith(".py"), name

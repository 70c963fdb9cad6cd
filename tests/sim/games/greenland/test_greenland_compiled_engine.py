"""The compiled Greenland engine against the pure-Python one it is compiled from (``sim.engines``): the
same records, byte for byte (``tests.engine_kit``), over seeds, player counts (2 to 4: the four tribes of
greenland-third-edition.txt line 5), every rule switch (RULINGS.md G6, G13-G16, G22-G24), every scripted
strategy, the search player (copies and determinized states), a truncated game and all three seatings."""

from __future__ import annotations

import pytest

from tests.engine_kit import Config, assert_identical_records, assert_modules_compiled, require_built

PACKAGE = "sim.games.greenland"
PACKAGES = [PACKAGE, "strategies"]

CONFIGS: list[Config] = [
    (2, "greedy,spreader", [], "rotate", 21, 6, None),
    (3, "random", [], "fixed", 22, 6, None),
    (4, "greedy,elder,spreader,random", ["advanced=false", "contest_success=all"], "rotate", 23, 4, None),
    (
        3,
        "elder,greedy,spreader",
        ["conversion=any", "elder_actions=per_rank", "bribes=false"],
        "random",
        24,
        3,
        None,
    ),
    (
        4,
        "greedy,spreader,elder,random",
        ["married_raids=off", "war_parties=none", "upkeep=none"],
        "fixed",
        25,
        2,
        None,
    ),
    (3, "ismcts:iterations=4,greedy,spreader", [], "fixed", 26, 1, 60),
]


@pytest.fixture(scope="module")
def built() -> None:
    require_built("greenland", PACKAGES)


def test_compiled_and_python_engines_write_identical_records(built: None) -> None:
    assert_identical_records("greenland", PACKAGES, CONFIGS)


def test_the_compiled_engine_runs_compiled_modules(built: None) -> None:
    assert_modules_compiled(PACKAGE, [f"{PACKAGE}.rules", f"{PACKAGE}.view", "strategies.greenland"])

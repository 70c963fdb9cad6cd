"""Graenaland's component data: every value marked printed or reconstructed, and clean errors."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from sim.errors import SkaldError
from sim.games.graenaland import data as data_module
from sim.games.graenaland.game import GAME

RAW = data_module.DEFAULT_PATH.read_text()


def test_packaged_data_loads_and_counts():
    """126 resource cards, 16 supply cards, 9 pieces (reference 1.1); village costs 4/5/6 (line 144)."""
    d = data_module.load()
    assert len(d.card_resource) == 126 and len(d.supply_cards) == 16 and len(d.pieces) == 9
    for p in d.pieces.values():
        expected = 6 if p.terrain == data_module.MOUNTAINS else 4 if p.coastal else 5
        assert sum(p.village_cost) == expected
    assert d.costs["army"] == (4, 0, 0, 1) and d.houses == 14 and d.start_army == 1
    assert sorted(p.mark for p in d.pieces.values()) == ["", "", "", "", "3.5", "4.5", "4.5", "4.5", "5"]
    assert "setup.houses" in d.reconstructed and "costs.army" not in d.reconstructed


def test_every_value_is_marked():
    doc = tomllib.loads(RAW)

    def walk(node, where):
        if isinstance(node, dict) and "value" in node or isinstance(node, dict) and "terrain" in node:
            assert node.get("source") in ("printed", "reconstructed"), where
            assert node.get("ref") if node["source"] == "printed" else node.get("reason"), where
            return
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}[{i}]")

    walk(doc, "")


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('value = 14\nsource = "reconstructed"', 'value = 0\nsource = "reconstructed"', "setup.houses"),
        (
            "fortress = { value = { ore = 3, wood = 2 }",
            "fortress = { value = { ore = 3, gold = 2 }",
            "gold is wild",
        ),
        ('ref = "graenaland.txt:44', 'xref = "graenaland.txt:44', "unknown key xref"),
        ('coast = ["U1", "U2", "F2", "F1"]', 'coast = ["U1", "U2", "F2"]', "one piece per player"),
        ("value = { cattle = 14", "value = { cows = 14", "unknown key cows.*allowed: grain"),
    ],
)
def test_bad_data_is_one_clean_error(tmp_path, old, new, message):
    assert old in RAW
    path = tmp_path / "bad.toml"
    path.write_text(RAW.replace(old, new, 1))
    with pytest.raises(SkaldError, match=message) as info:
        data_module.load(path)
    assert "\n" not in str(info.value)


def test_data_option_on_the_command_line(tmp_path):
    """A user's file replaces the packaged one (--data); a broken one is exit 2 with one line."""
    good = tmp_path / "mine.toml"
    good.write_text(
        RAW.replace("army = { value = { grain = 4, ore = 1 }", "army = { value = { grain = 3, ore = 1 }")
    )
    assert GAME.load_data(str(good)).costs["army"] == (3, 0, 0, 1)
    skald = [sys.executable, "-m", "sim.cli"]
    common = ["run", "graenaland", "--games", "2", "--jobs", "1", "--quiet", "--data"]
    ok = subprocess.run(
        [*skald, *common, str(good), "--out", str(tmp_path / "r")], capture_output=True, text=True
    )
    bad = tmp_path / "bad.toml"
    bad.write_text("[setup")
    err = subprocess.run(
        [*skald, *common, str(bad), "--out", str(tmp_path / "s")], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert err.returncode == 2 and "Traceback" not in err.stderr and not (tmp_path / "s").exists()

"""``tools/calibrate.py --mode splits`` at a tiny size: a few null-certain splits of two tiny real runs (one a
3-player Graenaland run, so ``graenaland.three_player`` is exercised), every figure line parsed.

The longer version, with more replicates and real runs, is a script, not a timed test: this test only
checks that the script runs and says what it measured, not the figures themselves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from analysis.data.runs import open_runs
from analysis.games.graenaland import questions as graenaland
from sim.tables import check_part
from tools import calibrate

pytestmark = pytest.mark.slow


TINY = (
    calibrate.RealRun("knarr", 3, 12, "greedy,random,greedy"),
    calibrate.RealRun("graenaland", 3, 12, "greedy,random,greedy"),
)
FIGURE = re.compile(
    r"^  (?P<label>\S.*?)\s+before\s+(?P<before>[\d.]+)% ±\s*(?P<se_before>[\d.]+)"
    r"  after\s+(?P<after>[\d.]+)% ±\s*(?P<se_after>[\d.]+)  \((?P<splits>\d+) splits\)$"
)
HEADER = re.compile(r"^(?P<run>\S+): (?P<blocks>\d+) blocks, halves of \d+ and \d+ blocks$")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny runs, made once."""
    root = tmp_path_factory.mktemp("calibrate-runs")
    for spec in TINY:
        calibrate.make_run(spec, root, jobs=1)
    return root


def test_splits_mode_prints_every_figure(runs: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(calibrate, "SPLIT_RUNS", TINY)
    assert calibrate.main(["--mode", "splits", "--splits", "3", "--runs", str(runs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("null-certain splits of real runs")
    figures: dict[str, list[str]] = {}
    run = ""
    for line in lines[1:]:
        header = HEADER.match(line)
        if header:
            run = header["run"]
            assert int(header["blocks"]) == 4  # 12 games in rotation blocks of 3
            continue
        figure = FIGURE.match(line)
        assert figure, f"unparsed line: {line!r}"
        assert int(figure["splits"]) == 3
        for rate in ("before", "after"):
            assert 0 <= float(figure[rate]) <= 100
        figures.setdefault(run, []).append(figure["label"])
    assert list(figures) == [spec.name for spec in TINY]
    knarr, graen = figures.values()
    assert [label for label in graen if not label.startswith("three-player")] == knarr
    assert any(label.startswith("three-player: any of") for label in graen)
    assert knarr[0].startswith("game length FPR") and any("least-even group" in lab for lab in knarr)


def test_halves_are_runs_of_their_own(runs: Path, tmp_path: Path) -> None:
    """The two halves hold disjoint sets of whole blocks that make up the run, pass ``check_part`` under
    their own run id, read back as two variants (the three-player adjustments on for half a, off for half
    b), and a relabelling moves every game of a block's seats the same way."""
    source = calibrate.Source.read(runs / TINY[1].name)
    keep = np.array([True, False, True, False])
    perm = np.tile(np.array([2, 0, 1]), (4, 1))
    folders = [tmp_path / side for side in calibrate.SIDES]
    for folder, side, half in zip(folders, calibrate.SIDES, (keep, ~keep), strict=True):
        calibrate.write_half(source, half, side, folder, perm)
    ids = []
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text())
        for table in ("games", "seats", "turns"):
            for part in (folder / table).glob("*.parquet"):
                check_part(
                    part,
                    table,
                    manifest["tables"]["action_fields"],
                    manifest["tables"]["part_fields"],
                    run=manifest["run"],
                )
        games = pq.read_table(folder / "games")
        assert set(games["run"].to_pylist()) == {manifest["run"]}
        assert manifest["totals"]["games"] == games.num_rows == 6
        ids.append(set(games["game_id"].to_pylist()))
        blocks = {b: i for i, b in enumerate(sorted(set(source.tables["games"]["base_game"].to_pylist())))}
        assert all(keep[blocks[b]] == (folder.name == "a") for b in games["base_game"].to_pylist())
    assert not ids[0] & ids[1] and ids[0] | ids[1] == set(source.tables["games"]["game_id"].to_pylist())
    read = open_runs(folders)
    assert [graenaland.adjusted(r) for r in read] == [True, False]
    assert len({r.variant for r in read}) == 2
    before = source.tables["seats"].select(["game_id", "seat", "score"]).to_pylist()
    after = pq.read_table(tmp_path / "a" / "seats").select(["game_id", "seat", "score"]).to_pylist()
    moved = {(r["game_id"], int(perm[0, r["seat"]])): r["score"] for r in before if r["game_id"] in ids[0]}
    assert {(r["game_id"], r["seat"]): r["score"] for r in after} == moved

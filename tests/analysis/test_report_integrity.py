"""A run's parts must be the ones its manifest lists before any page is made of them: `skald report`,
`skald compare` and a study's report step (``write_report``) refuse, in one line naming the part, a
finished run with a part missing, a part its manifest does not list, or a part holding other than its
chunk's rows; and a manifest that names no game, or a game that is not installed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analysis.data.runs import open_runs
from analysis.report.report import write_report
from sim.errors import SkaldError
from tests.cli_kit import cli


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of 6 games in 3 chunks (parts 00000 to 00002 of every table)."""
    out = tmp_path_factory.mktemp("integrity") / "run"
    args = ["run", "mainland", "--players", "2", "--games", "6", "--chunk-size", "2", "--jobs", "1"]
    from sim.cli import _main

    assert _main([*args, "--quiet", "--out", str(out)]) == 0
    return out


def _drop_part(run: Path) -> None:
    (run / "turns" / "part-00000.parquet").unlink()


def _extra_part(run: Path) -> None:
    shutil.copy(run / "turns" / "part-00001.parquet", run / "turns" / "part-00007.parquet")


def _short_part(run: Path, table: str) -> None:
    path = run / table / "part-00001.parquet"
    data = pq.read_table(path)
    pq.write_table(data.slice(0, data.num_rows - 1), path)  # the part's own metadata kept: only rows lost


def _manifest(run: Path, change: Callable[[dict], dict]) -> None:
    path = run / "manifest.json"
    path.write_text(json.dumps(change(json.loads(path.read_text()))))


def _game(doc: dict) -> dict:
    doc["config"]["game"] = "nope"
    return doc


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "missing part": (_drop_part, "results part '{run}/turns/part-00000.parquet' is missing"),
    "extra part": (_extra_part, "results part '{run}/turns/part-00007.parquet' is no part of this run"),
    "games part short": (
        lambda run: _short_part(run, "games"),
        "results part '{run}/games/part-00001.parquet' holds 1 rows, not 2 (the manifest's chunk 1",
    ),
    "seats part short": (
        lambda run: _short_part(run, "seats"),
        "results part '{run}/seats/part-00001.parquet' holds 3 rows, not 4",
    ),
    "turns part short": (lambda run: _short_part(run, "turns"), "the turns parts in '{run}' hold"),
    "empty manifest": (
        lambda run: _manifest(run, lambda doc: {}),
        "'{run}/manifest.json' names no game (no config.game",
    ),
    "unregistered game": (
        lambda run: _manifest(run, _game),
        "'{run}/manifest.json' names the game 'nope', which is not installed (installed: ",
    ),
}


@pytest.fixture(params=sorted(DAMAGE))
def damaged(request: pytest.FixtureRequest, whole: Path, tmp_path: Path) -> tuple[Path, str]:
    """A copy of the run, damaged one way, and the start of the line that must refuse it."""
    run = tmp_path / "run"
    shutil.copytree(whole, run)
    damage, message = DAMAGE[request.param]
    damage(run)
    return run, message.format(run=run)


def test_report_refuses_a_run_whose_parts_do_not_match_its_manifest(
    damaged: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`skald run mainland --games 300 --chunk-size 100 --out R; rm R/turns/part-00000.parquet; skald
    report R` exited 0 with a page made of the parts left; a manifest of {} gave a part titled "?"."""
    run, message = damaged
    code, out, err = cli(capsys, "report", str(run))
    assert code == 2 and out == ""
    assert err.startswith(f"error: {message}"), err
    assert err.count("\n") == 1, "one line"
    assert not (run / "report.html").exists() and not (run / "report.json").exists(), "nothing written"


def test_compare_and_a_study_report_refuse_it_too(
    damaged: tuple[Path, str], whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, message = damaged
    code, _, err = cli(capsys, "compare", str(whole), str(run), "-o", str(tmp_path / "c.html"))
    assert code == 2 and err.startswith(f"error: {message}") and err.count("\n") == 1, err
    with pytest.raises(SkaldError) as refused:
        write_report([whole, run], tmp_path / "s.html")  # what a study's report step calls
    assert str(refused.value).startswith(message)
    assert not list(tmp_path.glob("*.htm*")) and not list(tmp_path.glob("*.json")), "nothing written"


def test_a_whole_run_passes(whole: Path) -> None:
    """The parts `skald run` writes are the ones its manifest lists."""
    runs = open_runs(whole)
    assert runs.outcomes.row(0, named=True) == {
        "run": "run", "games": 6, "finished": 6, "truncated": 0, "errored": 0
    }  # fmt: skip

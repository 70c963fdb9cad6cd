"""`skald study` into a folder that holds a study: refused without --overwrite, --resume keeps the finished
runs, and Ctrl-C says how to continue."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from analysis.data import study_file
from analysis.study import study as studies
from sim.cli import _main
from sim.resume import partial_path

pytestmark = pytest.mark.slow


TINY = """
[study]
name = "tiny"
games = 4
seed = 3
jobs = 1

[[runs]]
game = "mainland"
players = [2, 3]
strategies = ["greedy", "random", "random"]
"""
RUNS = ("mainland-2p", "mainland-3p")


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No run finished by an earlier test to copy from (``skald study --all`` shares runs that way)."""
    monkeypatch.setattr(studies, "_FINISHED", {})


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


def parts(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


def study(spec: Path, out: Path, *extra: str) -> list[str]:
    return ["study", "--file", str(spec), "--out", str(out), "--quiet", *extra]


def reference(spec: Path, out: Path, *extra: str) -> dict[str, bytes]:
    """The parts of an uninterrupted study, which later studies of this process must not copy from."""
    assert _main(study(spec, out, *extra)) == 0
    studies._FINISHED.clear()
    return parts(out)


def interrupt_run(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    """Ctrl-C in the first chunk of the study's run with ``players`` players."""
    import sim.runner

    real = sim.runner.simulate_chunk

    def flaky(plan, *args, **kwargs):
        if plan.players == players:
            raise KeyboardInterrupt
        return real(plan, *args, **kwargs)

    monkeypatch.setattr(sim.runner, "simulate_chunk", flaky)


def test_a_study_folder_that_holds_a_study_is_refused_without_overwrite(
    spec: Path, tmp_path: Path, capsys
) -> None:
    """`skald study` replayed and overwrote an existing study folder without a word."""
    out = tmp_path / "out"
    assert _main(study(spec, out)) == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    capsys.readouterr()
    assert _main(study(spec, out)) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: study folder {str(out)!r} exists and is not empty (pass --resume to keep its finished runs"
        " and play the rest, --overwrite to play every run again, or choose another --out)\n"
    )
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before
    assert _main(study(spec, out, "--overwrite", "--resume")) == 2
    assert "not both" in capsys.readouterr().err
    whole = parts(out)
    assert _main(study(spec, out, "--overwrite")) == 0
    assert parts(out) == whole and (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns != before[
        out / "mainland-2p" / "manifest.json"
    ]


def test_all_refuses_before_it_runs_anything(tmp_path: Path, capsys, monkeypatch) -> None:
    tiny = study_file.parse(TINY, "tiny.toml")
    other = study_file.parse(TINY.replace('"tiny"', '"other"'), "other.toml")
    monkeypatch.setattr(studies, "packaged", lambda: {"tiny": tiny, "other": other})
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "study.toml").write_text(TINY)
    assert _main(["study", "--all", "--out", str(tmp_path), "--quiet"]) == 2
    assert "study folder" in capsys.readouterr().err and not (tmp_path / "tiny").exists()


def test_ctrl_c_says_how_to_continue_and_resume_keeps_the_finished_runs(
    spec: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    whole = reference(spec, tmp_path / "whole")
    out = tmp_path / "out"
    with monkeypatch.context() as patch:
        interrupt_run(patch, players=3)
        assert _main(study(spec, out)) == 130
    err = capsys.readouterr().err
    assert err == (
        f"error: study 'tiny' interrupted in run 2 of 2 (mainland-3p); its 1 finished runs are kept in"
        f" {str(out)!r}; resume with: skald {shlex.join(study(spec, out, '--resume'))}\n"
    )
    kept = (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns
    assert not (out / "mainland-3p").exists() and not (out / "report.html").exists()
    assert _main(study(spec, out, "--resume")) == 0
    notes = capsys.readouterr().err
    assert f"note: {str(out / 'mainland-2p')!r} is already complete: nothing to resume" in notes
    assert (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns == kept  # not played again
    assert parts(out) == whole and (out / "report.html").is_file()
    assert not any(partial_path(out / run).exists() for run in RUNS)


def test_resume_finishes_a_run_interrupted_halfway_from_its_chunks(
    spec: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    import sim.plan
    import sim.runner

    monkeypatch.setattr(sim.plan, "default_chunk_size", lambda *args, **kwargs: 1)  # 8 chunks a run
    whole = reference(spec, tmp_path / "whole", "--games", "8")
    out = tmp_path / "out"
    real = sim.runner.simulate_chunk
    calls: list[int] = []

    def flaky(plan, chunk, *args, **kwargs):
        if plan.players == 3 and chunk > 0:
            raise KeyboardInterrupt
        calls.append(plan.players)
        return real(plan, chunk, *args, **kwargs)

    monkeypatch.setattr(sim.runner, "simulate_chunk", flaky)
    assert _main([*study(spec, out), "--games", "8"]) == 130  # chunk 0 of mainland-3p is kept
    assert partial_path(out / "mainland-3p").is_dir()
    monkeypatch.setattr(sim.runner, "simulate_chunk", real)
    capsys.readouterr()
    assert _main([*study(spec, out), "--games", "8", "--resume"]) == 0
    assert ": 1 of 9 chunks done (1 of 9 games)" in capsys.readouterr().err  # 8 rounded up to 3 x 3
    assert parts(out) == whole


def test_resume_after_an_interrupted_overwrite_replays_what_it_had_not_replayed(
    spec: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    """The runs left from the earlier study are not "finished" for an --overwrite that was stopped."""
    out = tmp_path / "out"
    assert _main(study(spec, out)) == 0
    earlier = (out / "mainland-3p" / "manifest.json").read_bytes()  # a user's file there would be refused
    with monkeypatch.context() as patch:
        interrupt_run(patch, players=3)
        assert _main(study(spec, out, "--overwrite")) == 130
    err = capsys.readouterr().err
    again = shlex.join(study(spec, out, "--resume"))
    assert err.strip().endswith(f"resume with: skald {again}")  # without --overwrite
    replayed = (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns
    assert _main(study(spec, out, "--resume")) == 0
    assert (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns == replayed
    assert (out / "mainland-3p" / "manifest.json").read_bytes() != earlier  # the earlier study's, replaced

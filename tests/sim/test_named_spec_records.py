"""A run with a named spec (``tuned``, ``strategies/tuned.toml``) records the spec it stood for, so a run
stays a function of its configuration: a replay refuses once the name stands for another spec, and a
resumed run must have the same resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim import specs
from sim.cli import _main


def _named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str) -> None:
    path = tmp_path / f"tuned-{spec.replace(':', '-')}.toml"
    path.write_text(f'[mainland.tuned]\nspec = "{spec}"\nmeasured = "m"\n')
    monkeypatch.setattr(specs, "tuned_file", lambda: path)


def test_a_named_spec_is_recorded_and_a_changed_one_refuses_to_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _named(tmp_path, monkeypatch, "builder:climb=0.5")
    out = tmp_path / "run"
    args = ["run", "mainland", "-p", "2", "-s", "tuned,greedy", "-g", "2", "-j", "1", "-q", "-o", str(out)]
    assert _main(args) == 0
    config = json.loads((out / "manifest.json").read_text())["config"]
    assert config["strategies"] == ["tuned", "greedy"]
    assert config["named_specs"] == {"tuned": "builder:climb=0.5"}
    assert _main(["replay", str(out), "-g", "0"]) == 0
    _named(tmp_path, monkeypatch, "builder:climb=0.9")
    capsys.readouterr()
    assert _main(["replay", str(out), "-g", "0"]) == 2
    err = capsys.readouterr().err
    assert "'tuned' stood for 'builder:climb=0.5' in the run and stands for 'builder:climb=0.9' now" in err
    assert len(err.strip().splitlines()) == 1


def test_a_run_without_named_specs_records_none(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert _main(["run", "mainland", "-p", "2", "-g", "2", "-j", "1", "-q", "-o", str(out)]) == 0
    assert "named_specs" not in json.loads((out / "manifest.json").read_text())["config"]

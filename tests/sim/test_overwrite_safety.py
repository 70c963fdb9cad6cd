"""``--overwrite`` and output paths never destroy what Skald did not write (``sim.outputs``).

``skald run mainland --players 2 --games 2 --out results --overwrite`` deleted the whole ``results/``
folder (another run and a notes file), and ``--out out --overwrite`` deleted ``out/precious.txt``;
``report -o`` and ``compare -o`` made missing folders and every page command replaced any file.  Each
step is replayed here: the foreign data survives, the refusal is one line and exit 2, and a genuine rerun
still replaces what Skald wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analysis.data import study_file
from analysis.study import study as studies
from sim.cli import _main
from sim.outputs import GENERATOR, check_page, foreign, is_page
from tests.analysis import test_sensitivity, test_tune
from tests.cli_kit import cli

RUN = ["run", "mainland", "--players", "2", "--games", "2", "--jobs", "1", "--quiet"]
KEEP = "keep\n"
STUDY = """
[study]
name = "tiny"
games = 2
seed = 3
jobs = 1

[[runs]]
game = "mainland"
players = [2]
strategies = ["greedy", "random"]
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Mainland run of 2 games with the replay viewer of its game 0 written beside its records."""
    out = tmp_path_factory.mktemp("made") / "run"
    assert _main([*RUN, "--out", str(out)]) == 0
    assert _main(["replay", str(out), "--game", "0", "--html", str(out / "game0.html")]) == 0
    return out


@pytest.fixture
def run_folder(made: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    shutil.copytree(made, folder)
    return folder


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``skald ARGS``: exit 2 with one line on stderr; the line."""
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def keep(path: Path) -> Path:
    path.write_text(KEEP)
    return path


# --------------------------------------------------------------------------- skald run


def test_overwrite_refuses_a_folder_holding_a_file_skald_did_not_write(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    precious = keep(out / "precious.txt")
    err = refused(capsys, *RUN, "--out", str(out), "--overwrite")
    assert "--overwrite replaces only a Skald run folder" in err and "'precious.txt'" in err
    assert precious.read_text() == KEEP and [p.name for p in out.iterdir()] == ["precious.txt"]


def test_overwrite_refuses_the_parent_of_a_run(run_folder: Path, capsys) -> None:
    """``--out results --overwrite`` where results/ holds a run and a notes file: both survive."""
    results = run_folder.parent
    notes = keep(results / "notes.txt")
    manifest = (run_folder / "manifest.json").read_bytes()
    err = refused(capsys, *RUN, "--out", str(results), "--overwrite")
    assert "no run's manifest.json" in err and "'notes.txt'" in err
    assert notes.read_text() == KEEP and (run_folder / "manifest.json").read_bytes() == manifest
    assert not (results.parent / f"{results.name}.partial").exists()


def test_overwrite_refuses_a_run_folder_holding_a_user_file_and_names_it(run_folder: Path, capsys) -> None:
    notes = keep(run_folder / "notes.txt")
    before = sorted(p.name for p in run_folder.iterdir())
    err = refused(capsys, *RUN, "--out", str(run_folder), "--overwrite")
    assert "the run folder" in err and "also holds 'notes.txt', which Skald did not write" in err
    assert notes.read_text() == KEEP and sorted(p.name for p in run_folder.iterdir()) == before
    err = refused(capsys, *RUN, "--out", str(run_folder))  # and without --overwrite, no hint to pass it
    assert "exists and is not empty" in err and "--overwrite would not delete" in err


def test_a_genuine_rerun_replaces_the_run_and_the_pages_skald_wrote_beside_it(
    run_folder: Path, capsys
) -> None:
    assert foreign(run_folder) == []  # the manifest, the tables and the viewer page are Skald's
    first = json.loads((run_folder / "manifest.json").read_text())["command"]
    code, _, err = cli(capsys, *RUN, "--out", str(run_folder), "--overwrite", "--seed", "7")
    assert code == 0, err
    assert json.loads((run_folder / "manifest.json").read_text())["config"]["seed"] == 7
    assert first != json.loads((run_folder / "manifest.json").read_text())["command"]
    assert not (run_folder / "game0.html").exists()  # the old run's page went with it


def test_a_refused_overwrite_leaves_an_interrupted_runs_partial_folder_alone(tmp_path: Path, capsys) -> None:
    """Nothing is deleted before the check: ``OUT.partial`` (Skald's, removed by a real --overwrite) stays."""
    out = tmp_path / "out"
    out.mkdir()
    keep(out / "precious.txt")
    partial = tmp_path / "out.partial"
    partial.mkdir()
    keep(partial / "run.json")
    refused(capsys, *RUN, "--out", str(out), "--overwrite")
    assert (partial / "run.json").read_text() == KEEP


# --------------------------------------------------------------------------- pages: report, compare, replay


@pytest.mark.parametrize("command", ["report", "compare", "replay"])
def test_a_missing_folder_for_a_page_is_refused_naming_it(
    command: str, run_folder: Path, tmp_path: Path, capsys
) -> None:
    """``report -o`` and ``compare -o`` made the missing folders; now all three refuse, as README says."""
    target = tmp_path / "nowhere" / "deeper" / "x.html"
    args = {
        "report": ["report", str(run_folder), "-o", str(target)],
        "compare": ["compare", str(run_folder), str(run_folder), "-o", str(target)],
        "replay": ["replay", str(run_folder), "--game", "0", "--html", str(target)],
    }[command]
    err = refused(capsys, *args)
    assert f"the folder {str(target.parent)!r} does not exist" in err
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", ["report", "compare", "replay"])
def test_a_page_refuses_to_replace_a_file_skald_did_not_write(
    command: str, run_folder: Path, tmp_path: Path, capsys
) -> None:
    mine = keep(tmp_path / "mine.html")
    option = "--html" if command == "replay" else "-o"
    args = {
        "report": ["report", str(run_folder), "-o", str(mine)],
        "compare": ["compare", str(run_folder), str(run_folder), "-o", str(mine)],
        "replay": ["replay", str(run_folder), "--game", "0", "--html", str(mine)],
    }[command]
    err = refused(capsys, *args)
    assert f"{option} {str(mine)!r} is a file Skald did not write" in err
    assert mine.read_text() == KEEP and sorted(p.name for p in tmp_path.iterdir()) == ["mine.html", "run"]


def test_a_report_refuses_to_replace_findings_skald_did_not_write_beside_it(
    run_folder: Path, tmp_path: Path, capsys
) -> None:
    """The report writes NAME.json beside NAME.html: a user's data.json is not replaced by -o data.html."""
    data = keep(tmp_path / "data.json")
    err = refused(capsys, "report", str(run_folder), "-o", str(tmp_path / "data.html"))
    assert "would replace 'data.json' beside it" in err
    assert data.read_text() == KEEP and not (tmp_path / "data.html").exists()


def test_a_page_skald_wrote_is_replaced(run_folder: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    """A viewer page, and a report page (the report's work itself stubbed: this checks the output path)."""
    import analysis.report.report

    page = run_folder / "game0.html"
    code, out, err = cli(capsys, "replay", str(run_folder), "--game", "1", "--html", str(page))
    assert code == 0 and out.strip() == f"replay viewer: {page}", err
    report = tmp_path / "report.html"
    report.write_text(f"<!DOCTYPE html>\n<html>\n<head>\n<meta charset='utf-8'>\n{GENERATOR}\n")
    monkeypatch.setattr(analysis.report.report, "write_report", lambda paths, out, **kw: Path(out))
    code, out, err = cli(capsys, "report", str(run_folder), "-o", str(report))
    assert code == 0, err


def test_every_page_template_carries_the_mark_and_older_pages_are_known(made: Path, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    for template in ("analysis/report/templates/report.html.j2", "sim/templates/viewer.html.j2"):
        head = (root / template).read_text().split("</head>")[0]
        assert GENERATOR in head, template
    viewer = (made / "game0.html").read_text()
    old = tmp_path / "old.html"  # a viewer page written before the mark
    old.write_text(viewer.replace(GENERATOR + "\n", ""))
    assert GENERATOR not in old.read_text() and is_page(old)
    assert not is_page(keep(tmp_path / "mine.html"))
    with pytest.raises(Exception, match="does not exist"):
        check_page(tmp_path / "missing" / "x.html", "-o")


# --------------------------------------------------------------------------- skald study


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(studies, "_FINISHED", {})
    path = tmp_path / "tiny.toml"
    path.write_text(STUDY)
    return path


@pytest.mark.parametrize("flag", ["--overwrite", "--resume"])
def test_a_study_refuses_a_folder_that_holds_no_study(flag: str, spec: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    precious = keep(out / "precious.txt")
    err = refused(capsys, "study", "--file", str(spec), "--out", str(out), "--quiet", flag)
    assert "holds no study" in err and "'precious.txt'" in err
    assert precious.read_text() == KEEP and [p.name for p in out.iterdir()] == ["precious.txt"]


def test_a_study_overwrite_replaces_its_runs_keeps_other_files_and_refuses_a_run_with_user_files(
    spec: Path, tmp_path: Path, capsys
) -> None:
    study = study_file.load_file(spec)
    out = tmp_path / "study"
    studies.run_study(study, out=out, progress=False, report=False)
    notes = keep(out / "notes.txt")
    inner = keep(out / "mainland-2p" / "notes.txt")
    err = refused(capsys, "study", "--file", str(spec), "--out", str(out), "--quiet", "--overwrite")
    assert "the run folder" in err and "mainland-2p" in err and "'notes.txt'" in err
    assert inner.read_text() == KEEP
    inner.unlink()
    studies._FINISHED.clear()
    before = (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns
    studies.run_study(study, out=out, progress=False, report=False, overwrite=True)
    assert (out / "mainland-2p" / "manifest.json").stat().st_mtime_ns != before  # played again
    assert notes.read_text() == KEEP  # beside the runs, not in the way: kept


def test_study_all_refuses_a_combined_report_path_holding_a_user_file(tmp_path: Path, capsys) -> None:
    """Checked with every study's folder, before any is played (the long studies' skip notes come first)."""
    mine = keep(tmp_path / "report.html")
    code, _, err = cli(capsys, "study", "--all", "--out", str(tmp_path), "--quiet")
    last = err.splitlines()[-1]
    assert code == 2 and last.startswith("error: ") and "is a file Skald did not write" in last
    assert all(line.startswith("skipped: ") for line in err.splitlines()[:-1])
    assert mine.read_text() == KEEP and [p.name for p in tmp_path.iterdir()] == ["report.html"]


# --------------------------------------------------------------------------- skald tune and sensitivity


@pytest.mark.parametrize(
    ("command", "text"), [("tune", test_tune.TOY), ("sensitivity", test_sensitivity.TOY)]
)
@pytest.mark.parametrize("resume", [False, True])
def test_tune_and_sensitivity_refuse_a_folder_that_is_not_theirs(
    command: str, text: str, resume: bool, registered: str, tmp_path: Path, capsys
) -> None:
    (tmp_path / "spec.toml").write_text(text)
    out = tmp_path / "out"
    out.mkdir()
    precious = keep(out / "precious.txt")
    args = [command, str(tmp_path / "spec.toml"), "--out", str(out), "--quiet"]
    err = refused(capsys, *args, *(["--resume"] if resume else []))
    assert ("nothing to resume" in err) if resume else ("holds no" in err and "'precious.txt'" in err)
    assert precious.read_text() == KEEP and [p.name for p in out.iterdir()] == ["precious.txt"]

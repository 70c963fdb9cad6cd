"""`skald report -o PATH`: a path the report cannot be written to is one line and exit 2, found before the
work; the files are written under temporary names and renamed into place."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import _main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "run"
    args = ["run", "mainland", "--players", "2", "--games", "6", "--strategies", "greedy,random"]
    assert _main([*args, "--jobs", "1", "--seed", "5", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("/proc/nope/r.html", "the folder '/proc/nope' does not exist"),
        ("{file}/r.html", "is not a folder"),
    ],
)
def test_an_unwritable_or_missing_output_path_is_one_line_before_the_work(
    run_folder: Path, tmp_path: Path, capsys, monkeypatch, target: str, reason: str
) -> None:
    """`skald report RUN -o /proc/nope/r.html` printed a 51-line traceback with exit 1."""
    import analysis.data.runs

    checked: list[Path] = []
    monkeypatch.setattr(analysis.data.runs, "check_parts", lambda folder, *args: checked.append(folder))
    (tmp_path / "file").write_text("x")
    path = target.format(file=tmp_path / "file")
    assert _main(["report", str(run_folder), "-o", path]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: cannot write the report to {path!r}: ") and reason in captured.err
    assert captured.err.count("\n") == 1
    assert captured.out == "" and checked == []  # refused before reading a part


def test_a_folder_given_as_the_report_file_is_refused(run_folder: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "r.html").mkdir()
    assert _main(["report", str(run_folder), "-o", str(tmp_path / "r.html")]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_a_report_stopped_halfway_leaves_the_previous_one_whole(
    run_folder: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    import analysis.report.report

    target = tmp_path / "new" / "r.html"
    target.parent.mkdir()  # a missing folder is refused (tests/sim/test_overwrite_safety.py)
    assert _main(["report", str(run_folder), "-o", str(target)]) == 0

    def files() -> dict[str, bytes]:  # the report, its charts and its games' viewer pages (r-games/)
        found = target.parent.rglob("*")
        return {str(p.relative_to(target.parent)): p.read_bytes() for p in found if p.is_file()}

    before = files()
    assert "r.html" in before and any(name.endswith(".png") for name in before)

    def broken(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis.report.report, "render", broken)
    assert _main(["report", str(run_folder), "-o", str(target)]) == 130
    assert files() == before  # no temporary file left
    capsys.readouterr()

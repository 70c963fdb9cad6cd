"""`skald report` and `skald compare` show what they are doing on stderr, as `skald run` does: a line with
a bar, the steps done of all and the step under way (the records read, each game's sections, the page
written), on a terminal only and not with --quiet; the page is the same with or without it."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.console import Console

import analysis.report.report
import sim.report
from analysis.report.report import write_report
from tests.analysis_testkit import write_results
from tests.cli_kit import cli

pytestmark = pytest.mark.slow

PARTS = {
    "mainland_tiles": [[3, 1], [2, 4], [1, 1], [0, 2]],
    "mainland_items": [[2, 1], [1, 1], [0, 0], [1, 0]],
    "minor_items": [[0, 0]] * 4,
    **{k: [[1, 1]] * 4 for k in ("placements", "passes", "forced_passes", "replaces", "gatherings")},
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_results(
        tmp_path / "run", [[5, 2], [2, 5], [5, 2], [4, 4]], ["greedy", "random"], parts=PARTS
    )


def test_the_report_shows_each_step_and_the_page_does_not_depend_on_it(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skald report results` over the quick start's results took about 21 s with nothing shown."""
    shown: list[tuple[str, int | None]] = []

    @contextmanager
    def recorded(label: str, *, enabled: bool = True) -> Iterator[sim.report.ShowStep]:
        assert label == "report" and enabled
        yield lambda what, total=None: shown.append((what, total))

    monkeypatch.setattr(analysis.report.report, "step_bar", recorded)
    with_bar = write_report([folder], tmp_path / "a" / "r.html", progress=True)
    steps = [what for what, _ in shown]
    assert steps[0] == "reading and checking the records" and steps[-1] == "writing the page"
    assert "Mainland: seat balance" in steps and "Across games: sample size" in steps
    totals = {total for _, total in shown if total is not None}
    assert totals == {len(steps)}, "the total counts every step, the first and last included"
    monkeypatch.undo()
    without = write_report([folder], tmp_path / "b" / "r.html", progress=False)
    stamp = re.compile(rb'^<p class="meta">Written [^\n]*$', re.M)
    assert stamp.sub(b"", with_bar.read_bytes()) == stamp.sub(b"", without.read_bytes())
    assert with_bar.with_suffix(".json").read_bytes() == without.with_suffix(".json").read_bytes()


def test_the_line_shows_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    for terminal, shows in ((True, True), (False, False)):
        screen = io.StringIO()
        monkeypatch.setattr(sim.report, "stderr", Console(file=screen, force_terminal=terminal, width=120))
        with sim.report.step_bar("report") as show:
            show("reading and checking the records")
            show("writing the page", 2)
        assert ("writing the page" in screen.getvalue()) == shows
        assert bool(screen.getvalue()) == shows, "nothing at all off a terminal"


@pytest.mark.parametrize("quiet", [False, True])
def test_report_and_compare_pass_quiet_on(
    folder: Path,
    tmp_path: Path,
    quiet: bool,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asked: list[bool] = []

    def fake(paths: object, out: Path, **options: object) -> Path:
        asked.append(bool(options["progress"]))
        return out

    monkeypatch.setattr(analysis.report.report, "write_report", fake)
    flag = ["--quiet"] if quiet else []
    assert cli(capsys, "report", str(folder), "-o", str(tmp_path / "r.html"), *flag)[0] == 0
    assert cli(capsys, "compare", str(folder), str(folder), "-o", str(tmp_path / "c.html"), *flag)[0] == 0
    assert asked == [not quiet, not quiet]

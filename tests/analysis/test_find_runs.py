"""Which run folders a results path names (``analysis.data.runs.find_runs``): a run, a study folder of runs,
and a results folder where single runs and study folders stand side by side."""

from __future__ import annotations

from pathlib import Path

from analysis.data.runs import find_runs
from tests.analysis_testkit import write_results

SCORES = [[3, 1], [2, 5]]


def test_single_runs_and_study_folders_side_by_side_are_all_found(tmp_path: Path) -> None:
    """``skald run --out results/demo`` then ``skald study --all --out results``: both kinds are read."""
    results = tmp_path / "results"
    demo = write_results(results / "demo", SCORES, ["greedy", "random"])
    study_a = write_results(results / "start-positions" / "a", SCORES, ["greedy", "random"])
    study_b = write_results(results / "start-positions" / "b", SCORES, ["greedy", "random"])
    (results / "notes").mkdir()
    assert find_runs([results]) == [demo, study_a, study_b]


def test_a_run_and_a_study_folder_are_read_as_before(tmp_path: Path) -> None:
    run = write_results(tmp_path / "study" / "a", SCORES, ["greedy", "random"])
    other = write_results(tmp_path / "study" / "b", SCORES, ["greedy", "random"])
    assert find_runs([run]) == [run]
    assert find_runs([tmp_path / "study"]) == [run, other]
    assert find_runs([tmp_path]) == [run, other]

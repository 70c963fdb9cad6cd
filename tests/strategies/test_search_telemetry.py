"""Per-decision cost telemetry (iterations/s, ms per decision) in `skald bench` and in the
summary, and the time budget `ms=`: a run that uses it is marked non-deterministic in its
manifest.  Played on the toy game (``tests.toy_game``), which declares ``determinize``."""

from __future__ import annotations

import json
from pathlib import Path

from sim.bench import bench
from sim.runner import RunConfig, run
from sim.specs import parse_spec
from sim.summary import ChunkSummary, search_rows
from tests.toy_game import HIGH


def test_the_summary_and_manifest_count_what_each_search_spent(registered: str, tmp_path: Path) -> None:
    """A fixed budget: every searched decision ran exactly ``iterations`` iterations; scripted strategies
    have no row; the manifest keeps the same rows and says the run is deterministic."""
    summary = run(RunConfig(game=registered, players=3, games=6, strategies=["ismcts:iterations=15", "random",
                                                                              HIGH],
                            jobs=1, seed=2, progress=False, out=tmp_path / "run"))
    assert [row["strategy"] for row in summary.search] == ["ismcts:iterations=15"]
    row = summary.search[0]
    assert row["decisions"] > 0
    assert row["iterations"] == 15 * row["decisions"]
    assert row["ms_per_decision"] > 0 and row["iterations_per_second"] > 0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["timings"]["search"] == summary.search
    assert manifest["config"]["deterministic"] is True and manifest["config"]["time_budgeted"] == []


def test_a_time_budget_is_marked_non_deterministic(registered: str, tmp_path: Path) -> None:
    """``ms=``: the games depend on the machine's speed, and the manifest says so; at least one
    iteration per searched decision."""
    summary = run(RunConfig(game=registered, players=2, games=2, strategies=["ismcts:ms=2", HIGH],
                            jobs=1, seed=2, progress=False, out=tmp_path / "run"))
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["config"]["deterministic"] is False
    assert manifest["config"]["time_budgeted"] == ["ismcts:ms=2"]
    row = summary.search[0]
    assert row["iterations"] >= row["decisions"] > 0


def test_time_budgeted_reads_the_declared_parameter(registered: str) -> None:
    assert parse_spec("ismcts:ms=5", registered).time_budgeted
    assert not parse_spec("ismcts:ms=0", registered).time_budgeted
    assert not parse_spec("ismcts:iterations=5", registered).time_budgeted
    assert not parse_spec(HIGH, registered).time_budgeted


def test_bench_reports_a_search_strategys_cost_per_decision(registered: str) -> None:
    rows = list(bench(registered, 2, strategies=["ismcts:iterations=10", HIGH], jobs=(1,), games=2,
                      recording=False, copying=False))
    searched, scripted = rows
    assert searched["search_ms_per_decision"] > 0 and searched["search_iterations_per_s"] > 0
    assert "search_ms_per_decision" not in scripted


def test_chunk_telemetry_survives_the_resume_log() -> None:
    """The resume log keeps each chunk's summary as JSON: the search totals come back whole."""
    chunk = ChunkSummary(chunk=0, share_by_index=[0.0, 0.0], share_by_seat=[0.0, 0.0])
    chunk.add_search(1, {"decisions": 3.0, "iterations": 30.0, "seconds": 0.5})
    chunk.add_search(1, {"decisions": 1.0, "iterations": 10.0, "seconds": 0.25})
    back = ChunkSummary.from_json(json.loads(json.dumps(chunk.to_json())))
    assert back.search == {"1": [4.0, 40.0, 0.75, 0.0]}


def test_a_chunk_logged_before_departures_were_counted_still_sums() -> None:
    """A resume log written before the fourth total (departures) existed: its three totals still count,
    and its chunk adds no departures."""
    old = ChunkSummary.from_json({"chunk": 0, "search": {"0": [2.0, 20.0, 1.0]}})
    new = ChunkSummary(chunk=1)
    new.add_search(0, {"decisions": 2.0, "iterations": 20.0, "seconds": 1.0, "departures": 1.0})
    (row,) = search_rows(["ismcts:iterations=10"], [old, new])
    assert (row["decisions"], row["iterations"], row["departures"], row["left_prior"]) == (4, 40, 1, 0.25)


def test_departures_count_the_moves_that_are_not_the_priors(registered: str, tmp_path: Path) -> None:
    """The telemetry of how often search changed the scripted move: with ``keep`` so large that
    no arm can beat the prior's on the paired samples the search never leaves it; trusting the visit
    counts (``keep=0``) it does, sometimes; without a prior there is nothing to leave.  The toy game's
    plug-in has no scripted strategy, so the prior is named (``random``: a blind first arm to leave)."""

    def left(spec: str) -> tuple[int, float]:
        summary = run(RunConfig(game=registered, players=2, games=8, strategies=[spec, HIGH], jobs=1, seed=3,
                                progress=False, out=tmp_path / spec.replace(":", "_").replace("=", "-")))
        (row,) = summary.search
        return row["departures"], row["left_prior"]

    assert left("ismcts:iterations=24:prior=random:keep=1000") == (0, 0.0)
    departures, share = left("ismcts:iterations=24:prior=random:keep=0")
    assert departures > 0 and 0 < share < 1
    assert left("ismcts:iterations=24:prior=none:keep=0") == (0, 0.0)

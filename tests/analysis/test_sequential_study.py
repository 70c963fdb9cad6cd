"""Studies that play until decided: the study file's options and the command's refusals, the stopping rule
on planted block matrices, a run grown without replaying (the same records as a fresh run), and a real
tiny sequential study that writes ``sequence.json``, a report whose seat decisions are the stopping look's,
and resumes after an interruption mid-sequence to the same sequence and the same page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import polars as pl
import pytest

from analysis.data import study_file
from analysis.stats import sequential
from analysis.stats.decide import seat_decision
from analysis.stats.sequential import first_decision, look
from analysis.study import sequential_study
from analysis.study import study as studies
from sim.cli import _main
from sim.errors import SkaldError
from sim.resume import grow, partial_path
from sim.runner import RunConfig, run
from tests.analysis.test_report_determinism import STAMP

pytestmark = pytest.mark.slow


STUDY = """
[study]
name = "until"
title = "Until decided"
games = 8
seed = 3
jobs = 1
until_decided = true
budget = 64
looks = 2

[[runs]]
game = "mainland"
players = 4
strategies = ["greedy", "random", "random", "random"]

[[runs]]
name = "fixed"
game = "mainland"
players = 2
strategies = ["greedy", "random"]
seats = "random"
"""
SEQUENTIAL, FIXED = "mainland-4p", "fixed-2p"


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No run finished by an earlier test to copy from."""
    monkeypatch.setattr(studies, "_FINISHED", {})


def parse(text: str) -> study_file.Study:
    return study_file.parse(text, "'s.toml'")


# --------------------------------------------------------------------------- the options


def test_the_options_parse_with_their_defaults() -> None:
    plain = parse(STUDY.replace("until_decided = true\nbudget = 64\nlooks = 2\n", ""))
    assert plain.sequential == study_file.Options()
    assert plain.sequential.looks == sequential.DEFAULT_LOOKS == study_file.DEFAULT_LOOKS
    assert plain.sequential.spending == sequential.DEFAULT_SPENDING == study_file.DEFAULT_SPENDING
    assert sequential.SPENDING == study_file.SPENDING
    spec = parse(STUDY.replace("looks = 2", 'looks = 2\nspending = "pocock"'))
    assert spec.sequential == study_file.Options(True, 64, 2, "pocock")
    planned = spec.plan()
    looks = sequential_study.schedule(planned[0], spec.sequential)
    assert looks is not None and looks.plan == (8, 16) and looks.block_size == 4 and looks.budget == 64
    assert all(looks.games(j) % looks.chunk_size == 0 for j in range(len(looks.plan)))
    assert sequential_study.schedule(planned[1], spec.sequential) is None  # random seats: fixed games


def test_the_default_budget_is_eight_times_the_games_and_the_looks_double() -> None:
    spec = parse(STUDY.replace("budget = 64\nlooks = 2\n", "").replace("games = 8", "games = 200"))
    looks = sequential_study.schedule(spec.plan()[0], spec.sequential)
    assert looks is not None and looks.budget == 1600 and looks.plan == (50, 100, 200, 400)
    assert looks.games(0) == 200  # the first look is the study's games
    # cut into at least four chunks (two a worker on two cores): 10 of its 50 blocks, 40 games, a chunk
    assert looks.chunk_size == 40 and looks.games(0) // looks.chunk_size >= sequential_study.FIRST_LOOK_CHUNKS
    odd = sequential_study.schedule(spec.plan()[0], study_file.Options(True, 1000, 4))
    assert odd is not None and odd.plan == (31, 62, 124, 248)  # 250 blocks rounded down to a multiple of 8
    assert all(odd.games(j) % odd.chunk_size == 0 for j in range(4))


BAD = [
    ("until_decided = 'yes'", "study.until_decided must be true or false"),
    ("budget = 0", "study.budget must be at least 1"),
    ("budget = 2.5", "study.budget must be a whole number"),
    ("looks = 11", "study.looks must be at least 1 and at most 10"),
    ("spending = 'sometimes'", "study.spending must be one of obrien-fleming, pocock, bonferroni"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_bad_options_get_one_line_errors(line: str, message: str) -> None:
    plain = STUDY.replace("until_decided = true\nbudget = 64\nlooks = 2\n", "")
    with pytest.raises(SkaldError) as info:
        parse(plain.replace("[study]\n", f"[study]\n{line}\n"))
    assert str(info.value).startswith("study file 's.toml': ") and message in str(info.value)
    assert "\n" not in str(info.value)


REFUSED = [
    (
        ("--until-decided", "--budget", "0"),
        "error: --budget must be at least 1 and at most 1,000,000,000, not 0",
    ),
    (("--until-decided", "--looks", "12"), "error: --looks must be at least 1 and at most 10, not 12"),
    (("--budget", "100"), "error: --budget sizes a study that plays until decided: give --until-decided too"),
    (("--until-decided", "--budget", "7"), "error: run mainland-4p: a budget of 7 games is less than two"),
]


@pytest.mark.parametrize(("extra", "message"), REFUSED)
def test_the_command_refuses_bad_values_before_writing(
    extra: tuple[str, ...], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = STUDY if "--until-decided" in extra else STUDY.replace("until_decided = true\nbudget = 64\n", "")
    (tmp_path / "s.toml").write_text(text)
    code = _main(
        ["study", "--file", str(tmp_path / "s.toml"), "--out", str(tmp_path / "out"), "--quiet", *extra]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(message)
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- the stopping rule


def planted(blocks: int, shares: list[float], seed: int) -> np.ndarray:
    """``blocks`` blocks of one game each, won by seat i with chance ``shares[i]`` (one-hot rows)."""
    rng = np.random.default_rng(seed)
    return np.eye(len(shares))[rng.choice(len(shares), size=blocks, p=shares)]


def stubbed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, matrices: dict[str, np.ndarray]
) -> tuple[SimpleNamespace, list[int], list[str]]:
    """An attempt whose looks play nothing: each look's questions are decided on the first n_j rows of
    ``matrices`` (by question), as ``sequential_study.decide_look`` would on the records."""
    reached: list[int] = []

    def reach(attempt: Any, planned: Any, plan: Any, j: int, first: bool) -> None:
        reached.append(j)

    def decide(
        target: Path, plan: Any, j: int, margin: float, cell: Any = None
    ) -> tuple[str, dict[str, Any]]:
        n = plan.plan[j]
        return f"run-{j}", {q: look(y[:n], margin, j, plan.plan) for q, y in matrices.items()}

    monkeypatch.setattr(sequential_study, "_reach", reach)
    monkeypatch.setattr(sequential_study, "decide_look", decide)
    notes: list[str] = []
    tmp_path.mkdir(exist_ok=True)
    attempt = SimpleNamespace(folder=tmp_path, resume=False, margin=None, on_skip=notes.append)
    return attempt, reached, notes


def recorded(folder: Path) -> dict[str, Any]:
    """The planted run's entry in the ``sequence.json`` of ``folder``."""
    doc = sequential_study.read(folder)
    assert doc is not None
    return doc["runs"]["planted"]


PLAN = sequential_study.Schedule(block_size=1, budget=512, plan=(64, 128, 256, 512), chunk_size=64,
                                 spending="obrien-fleming")  # fmt: skip
RUN: Any = SimpleNamespace(name="planted", seats="rotate", cell=None)


def test_a_planted_big_effect_stops_at_the_first_look(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    y = planted(512, [0.7, 0.1, 0.1, 0.1], seed=1)
    attempt, reached, notes = stubbed(monkeypatch, tmp_path, {"seat": y})
    sequential_study.play(attempt, RUN, PLAN)
    entry = recorded(tmp_path)
    assert reached == [0] and entry["stopped_at"] == 1 and entry["stopped"] == "decided"
    assert entry["games"] == 64 and entry["run"] == "run-0" and entry["plan"] == [64, 128, 256, 512]
    seat = entry["looks"][0]["questions"]["seat"]
    assert seat["decision"] == "unfair" and seat["position"] == "0" and "look 1 of 4" in seat["stopping"]
    assert first_decision(y, looks=PLAN.plan)[1] == 0
    assert notes == ["run planted stopped at look 1 of 4 (64 of 512 games): seats unfair"]


def test_a_run_stops_when_every_question_is_decided_or_at_the_budget(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    quick, slow = planted(512, [0.7, 0.1, 0.1, 0.1], seed=2), planted(512, [0.31, 0.23, 0.23, 0.23], seed=3)
    decision, stop = first_decision(slow, looks=PLAN.plan)
    assert decision.decision == "unfair"
    attempt, reached, _ = stubbed(monkeypatch, tmp_path, {"seat": quick, "start_position": slow})
    sequential_study.play(attempt, RUN, PLAN)
    entry = recorded(tmp_path)
    assert stop > 0 and reached == list(range(stop + 1)) and entry["stopped_at"] == stop + 1
    assert [d["questions"]["seat"]["decision"] for d in entry["looks"]] == ["unfair"] * (stop + 1)
    close = planted(512, [0.28, 0.24, 0.24, 0.24], seed=4)  # a gap near the margin: never decided
    assert first_decision(close, looks=PLAN.plan)[0].decision == "undecided"
    attempt, reached, _ = stubbed(monkeypatch, tmp_path / "close", {"seat": close})
    sequential_study.play(attempt, RUN, PLAN)
    entry = recorded(tmp_path / "close")
    assert reached == [0, 1, 2, 3] and entry["stopped_at"] == 4 and entry["stopped"] == "budget"
    assert entry["looks"][-1]["questions"]["seat"]["decision"] == "undecided" and entry["games"] == 512


# --------------------------------------------------------------------------- growing a run


def frames(folder: Path) -> dict[str, pl.DataFrame]:
    keys = {"games": ["game_id"], "seats": ["game_id", "seat"], "turns": ["game_id", "turn"]}
    return {t: pl.read_parquet(folder / t / "*.parquet").sort(k) for t, k in keys.items()}


def test_a_grown_run_holds_the_records_of_a_fresh_run(tmp_path: Path) -> None:
    base: dict[str, Any] = {"game": "mainland", "players": 3, "strategies": ["greedy", "random", "random"],
                            "seed": 11, "chunk_size": 12, "progress": False}  # fmt: skip
    run(RunConfig(games=72, jobs=1, out=tmp_path / "fresh", **base))
    fresh = frames(tmp_path / "fresh")
    totals = json.loads((tmp_path / "fresh" / "manifest.json").read_text())["totals"]
    for first, then in ((1, 2), (2, 1)):
        out = tmp_path / f"grown-{first}"
        run(RunConfig(games=24, jobs=first, out=out, **base))
        summary = grow(RunConfig(games=72, jobs=then, out=out, **base))
        assert summary.resumed_chunks == 2 and summary.games == 72 and not partial_path(out).exists()
        grown = frames(out)
        assert all(grown[t].equals(fresh[t]) for t in fresh)
        assert json.loads((out / "manifest.json").read_text())["totals"] == totals
    assert grow(RunConfig(games=72, jobs=1, out=out, **base)).already_complete
    with pytest.raises(SkaldError, match=r"cannot grow .*: it holds a run with seed=11, not 12"):
        grow(RunConfig(games=96, jobs=1, out=out, **{**base, "seed": 12}))
    with pytest.raises(SkaldError, match="it holds 72 already"):
        grow(RunConfig(games=48, jobs=1, out=out, **base))


# --------------------------------------------------------------------------- a real study


def study_args(spec: Path, out: Path, *extra: str) -> list[str]:
    return ["study", "--file", str(spec), "--out", str(out), "--quiet", *extra]


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny study that plays until decided, uninterrupted."""
    root = tmp_path_factory.mktemp("until")
    (root / "s.toml").write_text(STUDY)
    assert _main(study_args(root / "s.toml", root / "whole")) == 0
    studies._FINISHED.clear()
    return root / "whole"


def test_a_study_plays_in_looks_and_records_its_sequence(whole: Path) -> None:
    doc = json.loads((whole / "sequence.json").read_text())
    assert doc["looks"] == 2 and doc["spending"] == "obrien-fleming" and doc["margin"] == 0.05
    assert list(doc["runs"]) == [SEQUENTIAL]  # the run under random seats plays its fixed games
    entry = doc["runs"][SEQUENTIAL]
    assert entry["plan"] == [8, 16] and entry["budget"] == 64 and entry["games_per_look"] == [32, 64]
    stop = entry["stopped_at"]
    assert [d["look"] for d in entry["looks"]] == list(range(1, stop + 1))
    assert entry["games"] == 32 * stop and entry["stopped"] in ("decided", "budget")
    manifest = json.loads((whole / SEQUENTIAL / "manifest.json").read_text())
    assert manifest["config"]["games"] == entry["games"] and manifest["run"] == entry["run"]
    assert json.loads((whole / FIXED / "manifest.json").read_text())["config"]["games"] == 8


def test_the_report_decides_at_the_stopping_look(whole: Path) -> None:
    report = json.loads((whole / "report.json").read_text())
    assert {"id": "mainland-sequential", "title": "How long each question played"} in report["sections"]
    entry = json.loads((whole / "sequence.json").read_text())["runs"][SEQUENTIAL]
    stopped = entry["looks"][entry["stopped_at"] - 1]["questions"]["seat"]
    fairness = {f["groups"]["players"]: f for f in report["findings"] if f["metric"] == "seat fairness"}
    page = fairness[4]
    assert (
        f"look {entry['stopped_at']} of 2 (blocks 8, 16)" in page["test"]
        and "look" not in fairness[2]["test"]
    )
    assert (page["decision"], page["estimate"], page["low"], page["high"], page["p_value"]) == (
        stopped["decision"],
        stopped["share"],
        stopped["low"],
        stopped["high"],
        stopped["p_value"],
    )
    seats = pl.read_parquet(whole / SEQUENTIAL / "seats" / "*.parquet")
    y = seats.pivot(on="seat", index="game_id", values="win_share").sort("game_id").drop("game_id").to_numpy()
    blocks = y.reshape(-1, 4, 4).sum(axis=1)  # rotate: four games a block, in game order
    fixed = seat_decision(blocks)  # at full α, as a study of fixed size would decide it
    assert stopped["half_width"] > fixed.half_width  # the look's (1 - 2α_j) intervals, α_j < α
    section = [f for f in report["findings"] if f["section"] == "mainland-sequential"]
    assert {f["metric"] for f in section} >= {"stopping look", "games played until decided", "games budget",
                                              "seat decision at a look", "level of a look"}  # fmt: skip
    html = (whole / "report.html").read_text()
    assert "How long each question played" in html and "Where each run stopped" in html


def test_resume_after_an_interruption_mid_sequence_gives_the_same_sequence_and_page(
    whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sim.runner

    spec, out = whole.parent / "s.toml", tmp_path / "out"
    real = sim.runner.simulate_chunk

    entry = json.loads((whole / "sequence.json").read_text())["runs"][SEQUENTIAL]
    first = entry["looks"][0]["games"] // entry["chunk_size"]  # the first look's chunks

    def flaky(plan: Any, chunk: int, *args: Any, **kwargs: Any) -> Any:
        if plan.players == 4 and chunk >= first:  # in the second look's chunks
            raise KeyboardInterrupt
        return real(plan, chunk, *args, **kwargs)

    monkeypatch.setattr(sim.runner, "simulate_chunk", flaky)
    assert entry["stopped_at"] == 2, (
        "the planted study stops at its last look, so it can be interrupted there"
    )
    assert _main(study_args(spec, out)) == 130
    interrupted = json.loads((out / "sequence.json").read_text())["runs"][SEQUENTIAL]
    assert len(interrupted["looks"]) == 1 and interrupted["stopped_at"] is None
    assert partial_path(out / SEQUENTIAL).is_dir() and not (out / "report.html").exists()
    monkeypatch.setattr(sim.runner, "simulate_chunk", real)
    assert _main(study_args(spec, out, "--resume", "--budget", "128")) == 2  # another plan: refused
    assert "started with mainland-4p's blocks per look [8, 16], not [16, 32]" in capsys.readouterr().err
    assert _main(study_args(spec, out, "--resume")) == 0
    kept = f"{first} of {2 * first} chunks done (32 of 64 games)"
    assert first >= 2 and kept in capsys.readouterr().err  # the first look's chunks kept
    assert (out / "sequence.json").read_bytes() == (whole / "sequence.json").read_bytes()
    assert frames(out / SEQUENTIAL)["games"].equals(frames(whole / SEQUENTIAL)["games"])
    for name in ("report.html", "report.json"):
        mine, theirs = ((folder / name).read_bytes().replace(str(folder).encode(), b"STUDY")
                        for folder in (out, whole))  # fmt: skip
        assert STAMP.sub(b"", mine) == STAMP.sub(b"", theirs), name
    shutil.rmtree(out / SEQUENTIAL)  # a run folder lost after its stop is played again, to the same stop
    assert _main(study_args(spec, out, "--resume")) == 0
    assert (out / "sequence.json").read_bytes() == (whole / "sequence.json").read_bytes()

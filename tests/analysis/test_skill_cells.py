"""A skill matrix's cells in a study that plays until decided: each cell stops on its own question, whether
its two rungs are even (the one rung's win share within the margin of its even share) or uneven, and its
mirrors play their own size (``mirror_games``).

The stopping rule is checked in the loop on synthetic cells of known truth (reference/decisive-verdicts.md,
sections 1-2: a false verdict either way at most α whichever look a cell stops at), and once end to end on
a small real matrix.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data import study_file
from analysis.stats.decide.core import ALPHA, FAIR, UNDECIDED, UNFAIR
from analysis.stats.sequential import look
from analysis.study import sequential_study
from sim.cli import _main
from sim.errors import SkaldError

# --------------------------------------------------------------------------- the study file

MATRIX = """
[study]
name = "cells"
title = "Cells"
games = 8
seed = 3
jobs = 1
until_decided = true
looks = 2

[[runs]]
game = "mainland"
players = 4
rungs = ["random", "greedy"]
mirror_games = 16

[[runs]]
name = "plain"
game = "mainland"
players = 4
strategies = ["greedy", "random", "random", "random"]
"""


def parse(text: str) -> study_file.Study:
    return study_file.parse(text, "'s.toml'")


def test_mirrors_play_mirror_games_and_cells_know_their_rungs() -> None:
    planned = {r.name: r for r in parse(MATRIX).plan()}
    mirror, cell = planned["mainland-4p-greedy-mirror"], planned["mainland-4p-random-vs-greedy"]
    assert (mirror.games, mirror.cell) == (16, None)
    assert (cell.games, cell.cell) == (8, ("random", "greedy"))
    assert planned["mainland-4p-greedy-vs-random"].cell == ("greedy", "random")
    # an entry that is not a matrix has no cells, even where one strategy sits once against another
    assert planned["plain-4p"].cell is None and planned["plain-4p"].games == 8
    # --games replaces every run's size, the mirrors' too
    assert {r.games for r in parse(MATRIX).plan(games=5)} == {5}


def test_mirror_games_by_rung_sizes_the_named_mirrors_only() -> None:
    text = MATRIX.replace("mirror_games = 16", "mirror_games = { greedy = 24 }")
    planned = {r.name: r.games for r in parse(text).plan()}
    assert planned["mainland-4p-greedy-mirror"] == 24 and planned["mainland-4p-random-mirror"] == 8
    assert planned["mainland-4p-random-vs-greedy"] == 8
    with pytest.raises(
        SkaldError, match=r"runs\[0\]\.mirror_games names 'tuned', not a rung \(rungs: random, greedy\)"
    ):
        parse(MATRIX.replace("mirror_games = 16", "mirror_games = { tuned = 24 }"))
    with pytest.raises(SkaldError, match=r"runs\[0\]\.mirror_games\.greedy must be at least 1, not 0"):
        parse(MATRIX.replace("mirror_games = 16", "mirror_games = { greedy = 0 }"))


def test_mirror_games_needs_rungs_and_a_positive_count() -> None:
    no_rungs = MATRIX.replace('strategies = ["greedy", "random", "random", "random"]',
                              'strategies = ["greedy"]\nmirror_games = 4')  # fmt: skip
    with pytest.raises(SkaldError, match=r"runs\[1\]\.mirror_games sizes a skill matrix's mirrors"):
        parse(no_rungs)
    with pytest.raises(SkaldError, match=r"runs\[0\]\.mirror_games must be at least 1, not 0"):
        parse(MATRIX.replace("mirror_games = 16", "mirror_games = 0"))
    with pytest.raises(SkaldError, match=r"runs\[0\]\.mirror_games must be an integer"):
        parse(MATRIX.replace("mirror_games = 16", 'mirror_games = "lots"'))


# --------------------------------------------------------------------------- the question, on a frame


def cell_frame(blocks: int, p_one: float, players: int, seed: int) -> pl.DataFrame:
    """A cell's decided seats: ``blocks`` deals, each played ``players`` times with the one rung moved round
    the seats; the one wins a game with chance ``p_one``, else one of the others at random."""
    rng = np.random.default_rng(seed)
    rows = []
    for b in range(blocks):
        for g in range(players):
            game = b * players + g
            one_wins = rng.random() < p_one
            winner = g if one_wins else int(rng.choice([s for s in range(players) if s != g]))
            for seat in range(players):
                rows.append(
                    {
                        "block": b,
                        "game_id": game,
                        "seat": seat,
                        "strategy": "learned" if seat == g else "greedy",
                        "win_share": float(seat == winner),
                    }
                )
    return pl.DataFrame(rows)


PLAN4 = sequential_study.Schedule(block_size=4, budget=1024, plan=(32, 64, 128, 256), chunk_size=64,
                                  spending="obrien-fleming")  # fmt: skip


def test_the_question_reads_the_one_rung_against_its_even_share() -> None:
    frame = cell_frame(64, 0.55, 4, seed=1)
    d = sequential_study._strength(frame, ("learned", "greedy"), 4, PLAN4, 1, 0.05)
    assert d is not None and d.decision == UNFAIR
    share = dict(zip(d.labels, d.expected, strict=True))
    assert share == {"learned (one seat)": 0.25, "greedy": 0.75}
    wins = frame.filter(pl.col("strategy") == "learned")["win_share"].mean()
    found = d.to_finding()
    assert found["position"] in d.labels
    sign = 1 if found["position"] == "learned (one seat)" else -1
    assert math.isclose(found["estimate"], sign * (wins - 0.25), abs_tol=1e-9)
    # at two players each rung holds one seat: no "(one seat)" label, even shares of one half
    two = cell_frame(64, 0.5, 2, seed=2)
    d2 = sequential_study._strength(two, ("learned", "greedy"), 2, PLAN4, 3, 0.05)
    assert d2 is not None and set(d2.labels) == {"learned", "greedy"} and d2.expected == (0.5, 0.5)
    assert sequential_study._strength(two.head(0), ("learned", "greedy"), 2, PLAN4, 0, 0.05) is None


# --------------------------------------------------------------------------- the rule in the loop

REPS = 800
PLAN = (32, 64, 128, 256)
EXPECTED = (0.75, 0.25)  # (the field, the one rung in one seat) at four players


def cells(p_one: float, reps: int, seed: int) -> np.ndarray:
    """``reps`` synthetic cells of ``PLAN[-1]`` blocks: (reps x blocks x 2) summed win shares of the field
    and the one rung, each block a deal played four times with the one rung in each seat once."""
    rng = np.random.default_rng(seed)
    one = rng.binomial(4, p_one, size=(reps, PLAN[-1])).astype(float)
    return np.stack([4.0 - one, one], axis=-1)


def played(y: np.ndarray) -> tuple[str, int]:
    """The stopping rule in the loop: the first look that decides, or the last."""
    for j, n in enumerate(PLAN):
        d = look(y[:n], 0.05, j, PLAN, labels=["greedy", "learned (one seat)"], expected=EXPECTED)
        if d.decision != UNDECIDED:
            break
    return d.decision, j


def tolerance(reps: int) -> float:
    return 3 * math.sqrt(ALPHA * (1 - ALPHA) / reps)


@pytest.mark.parametrize(
    ("p_one", "wrong", "why"),
    [
        (0.25, UNFAIR, "even rungs called uneven"),
        (0.30, FAIR, "rungs a margin apart called even"),
        (0.20, FAIR, "rungs a margin apart (the other way) called even"),
    ],
)
def test_a_false_verdict_either_way_is_rare_whichever_look_stops(p_one: float, wrong: str, why: str) -> None:
    outcomes = [played(y)[0] for y in cells(p_one, REPS, seed=int(100 * p_one))]
    assert np.mean([o == wrong for o in outcomes]) <= ALPHA + tolerance(REPS), why


def test_clear_cells_stop_early_and_even_ones_are_shown_even() -> None:
    strong = [played(y) for y in cells(0.55, 200, seed=7)]
    assert all(d == UNFAIR for d, _ in strong) and np.mean([j <= 1 for _, j in strong]) > 0.95
    even = [played(y) for y in cells(0.25, 200, seed=8)]
    assert np.mean([d == FAIR for d, _ in even]) > 0.9  # power: the budget shows even rungs even


# --------------------------------------------------------------------------- end to end


@pytest.mark.slow
def test_a_small_matrix_plays_its_cells_on_their_own_question(tmp_path: Path) -> None:
    spec = tmp_path / "cells.toml"
    spec.write_text(MATRIX.split("[[runs]]\nname")[0], encoding="utf-8")
    out = tmp_path / "out"
    assert _main(["study", "--file", str(spec), "--out", str(out), "--quiet"]) == 0
    runs = json.loads((out / "sequence.json").read_text(encoding="utf-8"))["runs"]
    mirror, cell = runs["mainland-4p-greedy-mirror"], runs["mainland-4p-random-vs-greedy"]
    assert set(mirror["looks"][0]["questions"]) == {"seat"} and mirror["budget"] == 128
    assert set(cell["looks"][0]["questions"]) == {"strength"} and cell["budget"] == 64
    # random in one seat against three greedy is far weaker: shown uneven within the budget
    strength = cell["looks"][cell["stopped_at"] - 1]["questions"]["strength"]
    assert cell["stopped"] == "decided" and strength["decision"] == UNFAIR
    weaker = -1 if strength["position"] == "random (one seat)" else 1  # else the field, greedy, stronger
    assert strength["position"] in {"random (one seat)", "greedy"}
    assert weaker * (strength["share"] - strength["expected"]) > 0.05
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "rung strengths uneven" in page
    found = json.loads((out / "report.json").read_text(encoding="utf-8"))["findings"]
    decided = [f for f in found if f["metric"] == "rung strength decision at a look"]
    assert decided and {f["decision"] for f in decided} <= {"same", "differs", "undecided"}

"""The skill matrix and the verdicts by skill (``analysis.questions.skill``): the study file's ``rungs``,
the cells found from the records, and every decision rule on synthetic records whose truth is known: the
cells' win shares and their intervals, the rung order, the first seat's trend along the rungs (its false
change rate under no change, and holds / grows at large samples) and the deal's share of the outcome."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data import study_file
from analysis.data.runs import open_runs
from analysis.questions import skill
from analysis.report.sections.skill import skill_sections
from analysis.stats.decide import ALPHA
from sim.errors import SkaldError
from tests.analysis_testkit import as_rotation, write_results


def test_cells_are_read_from_a_runs_seat_specs() -> None:
    assert skill.cells_of(["a", "a", "a"]) == [("a", "a")]
    assert skill.cells_of(["a", "b", "b"]) == [("a", "b")]
    assert skill.cells_of(["b", "b", "a"]) == [("a", "b")]
    assert skill.cells_of(["a", "b"]) == [("a", "b"), ("b", "a")]
    assert skill.cells_of(["a", "b", "a", "b"]) == []  # two of each: no one seat against a field
    assert skill.cells_of(["a", "b", "c"]) == []


def test_a_study_entry_with_rungs_plans_the_mirrors_and_the_cells() -> None:
    text = """
[study]
name = "m"
games = 6
[[runs]]
game = "mainland"
players = [2, 3]
rungs = ["random", "greedy", "builder"]
"""
    plan = study_file.parse(text).plan()
    two = [r for r in plan if r.players == 2]
    three = [r for r in plan if r.players == 3]
    # 3 mirrors and each pair once at two players; 3 mirrors and both orders at three
    assert [r.name for r in two] == [
        "mainland-2p-random-mirror", "mainland-2p-greedy-mirror", "mainland-2p-builder-mirror",
        "mainland-2p-random-vs-greedy", "mainland-2p-random-vs-builder", "mainland-2p-greedy-vs-builder",
    ]  # fmt: skip
    assert len(three) == 3 + 6
    assert ["greedy", "random", "random"] in [r.strategies for r in three]
    assert ["builder", "builder", "builder"] in [r.strategies for r in three]


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        ('rungs = ["greedy"]', "rungs must list two or more different strategies"),
        ('rungs = ["greedy", "greedy"]', "rungs must list two or more different strategies"),
        ('rungs = ["greedy", "random"]\nstrategies = ["greedy"]', "exactly one of strategies"),
    ],
)
def test_bad_rungs_get_one_line_naming_what_is_allowed(runs: str, message: str) -> None:
    text = f'[study]\nname = "m"\n[[runs]]\ngame = "mainland"\nplayers = 2\n{runs}\n'
    with pytest.raises(SkaldError, match=message) as err:
        study_file.parse(text, "m.toml")
    assert "\n" not in str(err.value)


# --------------------------------------------------------------------------- synthetic records


def _write_cell(
    folder: Path, one: str, field: str, players: int, deals: int, p_one: float, rng: np.random.Generator
) -> None:
    """A rotated cell run: ``one`` in one seat against ``field``, each deal played ``players`` times with
    ``one`` in every seat, ``one`` winning each game with probability ``p_one`` (else a field seat at
    random)."""
    scores, strategies = [], []
    for _ in range(deals):
        for shift in range(players):
            seat_one = shift
            table = [field] * players
            table[seat_one] = one
            winner = (
                seat_one
                if rng.random() < p_one
                else int(rng.choice([s for s in range(players) if s != seat_one]))
            )
            scores.append([1.0 if s == winner else 0.0 for s in range(players)])
            strategies.append(table)
    write_results(folder, scores, strategies)
    as_rotation(folder, players)


def _write_mirror(
    folder: Path,
    rung: str,
    players: int,
    games: int,
    first: float,
    rng: np.random.Generator,
    replicates: int = 1,
    luck: float = 0.0,
) -> None:
    """A mirror run of ``rung`` (every deal played ``replicates`` times, as ``--replicates`` plays them),
    seat 0 winning with probability ``first`` and the other seats equally often otherwise.  With
    probability ``luck`` a deal decides its winner (every replicate the same), else each replicate draws
    its own: the deal's share of a seat's outcome is then ``luck`` exactly."""

    def draw() -> int:
        return 0 if rng.random() < first else int(rng.integers(1, players))

    scores = []
    for _ in range(games // replicates):
        fixed = draw() if rng.random() < luck else None
        for _ in range(replicates):
            winner = fixed if fixed is not None else draw()
            scores.append([1.0 if s == winner else 0.0 for s in range(players)])
    write_results(folder, scores, [rung] * players)
    as_rotation(folder, replicates)
    manifest = json.loads((folder / "manifest.json").read_text())
    if replicates > 1:
        manifest["config"]["replicates"] = replicates
    (folder / "manifest.json").write_text(json.dumps(manifest))


#: the planted truth: each (one, field) pair's chance that the one wins, three players
STRENGTH = {("weak", "mid"): 0.20, ("mid", "weak"): 0.50, ("weak", "top"): 0.10, ("top", "weak"): 0.70,
            ("mid", "top"): 0.25, ("top", "mid"): 0.45}  # fmt: skip


def _matrix(
    root: Path, deals: int, firsts: dict[str, float], seed: int, replicates: int = 1, luck: float = 0.0
) -> Path:
    rng = np.random.default_rng(seed)
    for (one, field), p in STRENGTH.items():
        _write_cell(root / f"{one}-vs-{field}", one, field, 3, deals, p, rng)
    for rung, first in firsts.items():
        _write_mirror(root / f"{rung}-mirror", rung, 3, 3 * deals, first, rng, replicates, luck)
    return root


def test_the_matrix_recovers_the_planted_strengths_and_orders_the_rungs(tmp_path: Path) -> None:
    runs = open_runs(_matrix(tmp_path, 400, {"weak": 1 / 3, "mid": 1 / 3, "top": 1 / 3}, 1))
    tables = skill.skill_tables(runs, 0.05)
    cells = tables["cells"]
    assert cells.height == 6 and set(cells["expected"].round(6).to_list()) == {round(1 / 3, 6)}
    for row in cells.iter_rows(named=True):
        truth = STRENGTH[(row["one"], row["field"])]
        assert row["ci_low"] <= truth <= row["ci_high"], row
        assert row["games"] == 1200 and row["blocks"] == 400 and row["excluded"] == 0
    assert tables["order"] == {("mainland", 3, "defaults"): ["weak", "mid", "top"]}
    assert tables["balance"]["rung"].to_list() == ["weak", "mid", "top"]


@pytest.mark.slow
def test_a_constant_first_seat_edge_holds_and_a_growing_one_grows(tmp_path: Path) -> None:
    """With 3,600 mirror games a rung, a first seat at 1/3 at every rung holds within 5 points, and one
    rising from 1/3 to 1/3 + 0.15 grows."""
    flat = open_runs(_matrix(tmp_path / "flat", 1200, {"weak": 1 / 3, "mid": 1 / 3, "top": 1 / 3}, 2))
    trend = skill.skill_tables(flat, 0.05)["trends"][("mainland", 3, "defaults")]
    assert trend.words == "holds"
    rising = {"weak": 1 / 3, "mid": 1 / 3 + 0.075, "top": 1 / 3 + 0.15}
    grown = open_runs(_matrix(tmp_path / "grown", 1200, rising, 3))
    trend = skill.skill_tables(grown, 0.05)["trends"][("mainland", 3, "defaults")]
    assert trend.words == "grows" and trend.end > trend.start
    low, high = trend.decision.interval
    assert low <= 0.15 <= high


def test_a_small_matrix_is_undecided_and_says_the_games_it_needs(tmp_path: Path) -> None:
    runs = open_runs(_matrix(tmp_path, 20, {"weak": 1 / 3, "mid": 1 / 3, "top": 1 / 3}, 4))
    trend = skill.skill_tables(runs, 0.05)["trends"][("mainland", 3, "defaults")]
    assert trend.words == "undecided" and trend.decision.games_needed and trend.decision.games_needed > 0


@pytest.mark.slow
def test_the_trend_rarely_shows_a_change_that_is_not_there() -> None:
    """Under no change (the first seat's advantage the same at four rungs, each estimate its true value
    plus normal noise of its SE), "grows" or "shrinks" is decided at most about α of the time: 2,000
    replicates, α = 0.05, binomial SE about 0.5 points."""
    rng = np.random.default_rng(11)
    reps, rungs, se = 2000, 4, 0.02
    shown = 0
    for _ in range(reps):
        est = rng.normal(0.03, se, rungs)
        t = 1.9720174778338955  # t_0.975 on 199 df: the interval the section's SE is read from
        frame = pl.DataFrame(
            {
                "game": "fake", "players": 3, "variant": "defaults", "rank": list(range(rungs)),
                "first_advantage": est, "first_adv_low": est - t * se, "first_adv_high": est + t * se,
                "blocks": 200, "decided": 600,
            }
        )  # fmt: skip
        words = skill.seat_trend(frame, 0.05)[("fake", 3, "defaults")].words
        shown += words in ("grows", "shrinks")
    assert shown / reps <= ALPHA + 0.015, shown / reps


def test_the_deals_share_is_near_one_when_the_deal_decides_and_near_zero_when_it_does_not() -> None:
    rng = np.random.default_rng(5)
    blocks = np.repeat(np.arange(300), 4)
    decided = np.repeat(rng.random(300) < 0.5, 4).astype(float)  # every game of a deal the same
    share, low, high, k = skill.luck_share(decided, blocks, "decided")
    assert share == pytest.approx(1.0) and k == 300 and low > 0.9
    free = (rng.random(1200) < 0.5).astype(float)
    share, low, high, _ = skill.luck_share(free, blocks, "free")
    assert share < 0.1 and low <= 0.0 + 1e-12 <= high
    half = np.where(np.repeat(rng.random(300) < 0.5, 4), decided, free)  # the deal decides half the deals
    share, low, high, _ = skill.luck_share(half, blocks, "half")
    assert 0.2 < share < 0.8 and low < share < high
    again = skill.luck_share(half, blocks, "half")
    assert again == (share, low, high, 300)  # seeded from the data: the same interval every time


@pytest.mark.parametrize("luck", [0.0, 0.3, 0.7, 1.0])
def test_a_mirror_with_replicates_recovers_the_planted_seed_effect(tmp_path: Path, luck: float) -> None:
    """Mirrors whose deals decide their winner with probability ``luck`` (else each replay draws its own),
    600 deals of 4 replicates at 3 players: the deal's share lies within 0.08 of ``luck`` (four standard
    errors: its spread over replicate studies is 0.02) inside an interval about 0.08 wide, and a mirror
    played once a deal has none.  The interval's coverage is checked below."""
    runs = open_runs(_matrix(tmp_path, 800, {"weak": 1 / 3, "mid": 0.4, "top": 0.5}, 11, 4, luck))
    found = skill.skill_tables(runs, 0.05)["luck"]
    assert found["rung"].to_list() == ["weak", "mid", "top"]
    for row in found.iter_rows(named=True):
        assert row["blocks"] == 600 and row["games"] == 2400
        if luck == 1.0:
            assert row["luck"] == pytest.approx(1.0)
        else:
            assert abs(row["luck"] - luck) < 0.08 and row["luck_low"] < row["luck"] < row["luck_high"], row
            assert row["luck_high"] - row["luck_low"] < 0.12, row
    once = open_runs(_matrix(tmp_path / "once", 100, {"weak": 1 / 3, "top": 0.5}, 12))
    assert skill.skill_tables(once, 0.05)["luck"].is_empty()


def test_the_seed_effects_interval_covers_the_truth_at_its_level() -> None:
    """Coverage over 200 replicate studies (60 deals of 3 replicates, truth 0.4): the 95% percentile
    interval misses at most 10% of the time (it is a percentile bootstrap on 60 clusters)."""
    rng = np.random.default_rng(21)
    deals, reps, players, truth = 60, 3, 3, 0.4
    missed = 0
    for r in range(200):
        fixed = np.where(rng.random(deals) < truth, rng.integers(players, size=deals), -1)
        winners = np.where(
            np.repeat(fixed, reps) >= 0, np.repeat(fixed, reps), rng.integers(players, size=deals * reps)
        )
        seats = np.tile(np.arange(players), deals * reps)
        y = (np.repeat(winners, players) == seats).astype(float)
        deal = np.repeat(np.arange(deals), reps * players)
        _, low, high, _ = skill.luck_share(y, deal * players + seats, f"r{r}", clusters=deal)
        missed += not low <= truth <= high
    assert missed / 200 <= 0.10, missed


def test_icc_matches_its_anova_definition() -> None:
    values = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 0.0])
    groups = np.array([0, 0, 1, 1, 2, 2])
    # group means 1, 0, 0.5; grand 0.5; MSB = 2 * (0.25 + 0.25 + 0) / 2 = 0.5; MSW = (0 + 0 + 0.5) / 3
    msb, msw = 0.5, 0.5 / 3
    assert skill.icc(values, groups) == pytest.approx((msb - msw) / (msb + msw))
    assert math.isnan(skill.icc(values, np.zeros(6)))


def test_the_section_and_its_findings(tmp_path: Path) -> None:
    runs = open_runs(_matrix(tmp_path, 60, {"weak": 1 / 3, "mid": 1 / 3, "top": 0.45}, 6, 2, 0.5))
    (section,) = skill_sections(runs, sid="mainland-skill")
    assert "weakest to strongest are weak, mid, top" in section.reading
    questions = {f.question for f in section.findings}
    assert {"skill matrix", "seat effect by skill", "luck share"} <= questions
    matrix = [f for f in section.findings if f.question == "skill matrix"]
    assert len(matrix) == 6 and all(f.low <= f.estimate <= f.high and f.excluded == 0 for f in matrix)
    trend = next(f for f in section.findings if f.question == "seat effect by skill")
    assert trend.decision in ("holds", "grows", "shrinks", "undecided") and trend.margin == 0.05


def test_records_without_a_matrix_give_no_section(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    _write_mirror(tmp_path / "only-mirror", "greedy", 3, 30, 1 / 3, rng)
    _write_cell(tmp_path / "a-cell", "random", "greedy", 3, 10, 0.2, rng)  # random has no mirror
    assert skill_sections(open_runs(tmp_path)) == []


@pytest.mark.parametrize(
    ("decision", "words"),
    [
        ("holds", "holds within 5 points (a change of +1.0 points [-2.0, 4.0])"),
        ("grows", "grows: a change of +1.0 points [-2.0, 4.0] (p = 0.010)"),
        ("undecided", "undecided at a margin of 5 points (a change of +1.0 points [-2.0, 4.0]; about 900"),
    ],
)
def test_the_seats_by_skill_verdict_says_the_decision(decision: str, words: str) -> None:
    from analysis.present.findings import SEAT_BY_SKILL, Finding
    from analysis.report.verdicts import verdicts

    f = Finding(
        "mainland", "mainland-skill", "first seat's advantage by skill", {"players": 3},
        0.01, -0.02, 0.04, p_value=0.01, decision=decision, margin=0.05, games_needed=900,
        question=SEAT_BY_SKILL, subject="first seat",
    )  # fmt: skip
    (verdict,) = verdicts([f])
    assert words in verdict.text and verdict.kind == "seats by skill"
    assert verdict.significant == (decision == "grows")

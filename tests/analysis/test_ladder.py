"""The skill ladder and the verdicts under stronger play: calibration on synthetic records whose truth is
known, the comparison rule on planted cases, the study format's ``all`` key, and one small study end to end on
the toy game."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data import study_file
from analysis.questions import ladder, stronger
from analysis.questions.stronger import CHANGES, HOLDS, UNDECIDED
from analysis.study import study as studies
from sim.cli import _main
from sim.errors import SkaldError

pytestmark = pytest.mark.slow


def synthetic_seats(p: np.ndarray, blocks: int, rng: np.random.Generator, budget: int = 8) -> pl.DataFrame:
    """Two-player rung records: per replicate ``variant=rep<i>``, ``blocks`` deals each played twice
    (seats swapped), the larger budget winning each game with probability ``p[i]``."""
    reps = len(p)
    games = blocks * 2
    wins = rng.random((reps, games)) < p[:, None]
    rep = np.repeat(np.arange(reps), games * 2)
    game = np.tile(np.repeat(np.arange(games), 2), reps)
    high = np.tile(np.array([True, False]), reps * games)
    won = np.repeat(wins.reshape(-1), 2)
    return pl.DataFrame(
        {
            "game": "fake",
            "players": 2,
            "variant": [f"rep{r}" for r in rep],
            "budget": budget,
            "larger": 2 * budget,
            "block": [f"b{g // 2}" for g in game],
            "game_id": game,
            "high": high,
            "win_share": np.where(high == won, 1.0, 0.0),
        }
    )


@pytest.mark.parametrize("p", [0.5, 0.65, 0.8])
def test_rung_interval_covers_the_planted_share_at_about_95_percent(p: float) -> None:
    """Over 400 fake rungs of 30 deals, the larger budget winning each game with probability p, the
    clustered interval covers p about 95% of the time (the binomial spread of 400 replicates is ±2.2
    points), and the even share is 1/2."""
    rates = ladder.rung_rates(synthetic_seats(np.full(400, p), 30, np.random.default_rng(int(100 * p))))
    assert rates.height == 400 and set(rates["expected"].to_list()) == {0.5}
    covered = ((rates["ci_low"] <= p) & (p <= rates["ci_high"])).mean()
    assert 0.91 <= covered <= 0.985, covered


def test_trend_slope_sign_and_skill_pays() -> None:
    """A ladder where the edge of the larger budget shrinks by 5 points per doubling (80% at k=4 to 65% at
    k=32) fits a negative slope whose interval holds -0.05 and excludes 0; a flat 70% ladder fits a slope
    whose interval holds 0; skill pays at a rung whose interval lies above 1/2."""
    rng = np.random.default_rng(7)
    budgets = [4, 8, 16, 32]
    falling = [0.8 - 0.05 * i for i in range(4)]
    rows = pl.concat(
        [ladder.rung_rates(synthetic_seats(np.array([q]), 400, rng, k)) for q, k in zip(falling, budgets)]
    )
    trend = ladder.fit_trend(rows["budget"], rows["win_rate"], rows["se"])
    assert trend.slope < 0 and trend.high < 0 and trend.low <= -0.05 <= trend.high, trend
    assert trend.at(4) == pytest.approx(trend.intercept + 2 * trend.slope)
    assert all(ladder.skill_pays(r) for r in rows.iter_rows(named=True))
    flat = pl.concat([ladder.rung_rates(synthetic_seats(np.array([0.7]), 400, rng, k)) for k in budgets])
    level = ladder.fit_trend(flat["budget"], flat["win_rate"], flat["se"])
    assert level.low <= 0 <= level.high, level
    even = ladder.rung_rates(synthetic_seats(np.array([0.5]), 20, np.random.default_rng(3)))
    assert not ladder.skill_pays(even.row(0, named=True))
    assert math.isnan(ladder.fit_trend([8], [0.6], [0.05]).slope)  # one rung: no trend


def test_rungs_are_found_from_the_specs_alone() -> None:
    rung = ladder.rung_of(["ismcts:iterations=8", "ismcts:iterations=16"])
    assert rung is not None and (rung.high, rung.low, rung.budget, rung.label) == (
        "ismcts:iterations=16",
        "ismcts:iterations=8",
        8,
        "16 vs 8",
    )
    assert ladder.rung_of(["ismcts:c=1:iterations=4", "ismcts:iterations=8:c=1"]) is not None
    assert ladder.rung_of(["ismcts:iterations=8", "ismcts:iterations=24"]) is None  # not doubled
    assert ladder.rung_of(["ismcts:iterations=8", "ismcts:iterations=16:c=2"]) is None  # not only the budget
    assert ladder.rung_of(["greedy", "random"]) is None and ladder.rung_of(["ismcts:iterations=8"]) is None


def test_study_all_key_is_checked_and_long_studies_stay_out_of_all() -> None:
    with pytest.raises(SkaldError, match=r"study.all must be true or false, not 'no'$"):
        study_file.parse(
            "[study]\nname='x'\nall='no'\n[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['greedy']"
        )
    found = studies.packaged()
    long = ("skill", "skill-ladder", "stronger-play")
    for name in long:
        assert not found[name].in_all and f"skald study {name}" in found[name].description
    assert all(s.in_all for n, s in found.items() if n not in long)
    ladder_plan = found["skill-ladder"].plan()
    rungs = [(r.game, r.players, ladder.rung_of(r.strategies).label) for r in ladder_plan]  # type: ignore[union-attr]
    labels = ["8 vs 4", "16 vs 8", "32 vs 16", "64 vs 32"]
    # for each game: budget 2k against budget k over doubling budgets, at its smallest count
    assert rungs == [
        (game, players, label)
        for game, players in (("mainland", 2), ("knarr", 2), ("graenaland", 3), ("greenland", 2))
        for label in labels
    ]


def test_the_packaged_stronger_play_study_searches_every_game_at_two_budgets() -> None:
    """Verdicts under stronger play: every game's scripted mirror beside mirrors of a search
    strategy in every seat at two budgets, the same players and rules; the search is the default rollout
    search (no open-tree parameters), the one measured to beat greedy (README, Search strategies)."""
    plan = studies.packaged()["stronger-play"].plan()
    for game in ("mainland", "knarr", "greenland", "graenaland"):
        runs = [r for r in plan if r.game == game]
        scripted = [r for r in runs if not stronger.searches(r.strategies[0], game)]
        search = [r for r in runs if stronger.searches(r.strategies[0], game)]
        assert len(scripted) == 1 and len(search) == 2, game
        assert all(len(set(r.strategies)) == 1 for r in runs), game  # mirrors
        assert {(r.players, str(r.rules)) for r in runs} == {(scripted[0].players, str(scripted[0].rules))}
        budgets = sorted(ladder.split_spec(r.strategies[0])[1] or 0 for r in search)
        assert budgets[0] > 0 and budgets[1] == 4 * budgets[0], (game, budgets)
        assert all(ladder.split_spec(r.strategies[0])[0] == "ismcts" for r in search), game

TOY_STUDY = """
[study]
name = "toy-search"
games = 24
seed = 5
jobs = 1
all = false

[[runs]]
name = "rung1"
game = "secretbid"
players = 2
strategies = ["ismcts:iterations=4", "ismcts:iterations=2"]

[[runs]]
name = "rung2"
game = "secretbid"
players = 2
strategies = ["ismcts:iterations=8", "ismcts:iterations=4"]

[[runs]]
name = "scripted"
game = "secretbid"
players = 2
strategies = ["tests.toy_game:HighBidder"]

[[runs]]
name = "search"
game = "secretbid"
players = 2
strategies = ["ismcts:iterations=4"]
"""


def test_a_small_study_end_to_end(
    registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``skald study --file`` on the toy game: the report holds the ladder and stronger-play sections and
    their verdicts, and report.json every number they state."""
    spec = tmp_path / "toy.toml"
    spec.write_text(TOY_STUDY)
    out = tmp_path / "study"
    assert _main(["study", "--file", str(spec), "--out", str(out), "--quiet"]) == 0
    page = (out / "report.html").read_text()
    assert 'id="secretbid-skill-ladder"' in page and 'id="secretbid-stronger-play"' in page
    assert "Skill ladder" in page and "Verdicts under stronger play" in page
    assert any(word in page for word in (HOLDS, CHANGES, UNDECIDED))
    doc = json.loads((out / "report.json").read_text())
    ids = {f["id"]: f for f in doc["findings"]}
    share = ids["secretbid-skill-ladder/larger-budget-win-share/players=2/variant=defaults/budget=4/larger=8"]
    assert share["games"] == 24 and share["clusters"] == 12 and share["expected"] == 0.5
    assert share["low"] <= share["estimate"] <= share["high"]
    trend = ids["secretbid-skill-ladder/skill-trend-per-doubling/players=2/variant=defaults"]
    assert trend["low"] <= trend["estimate"] <= trend["high"] and trend["clusters"] == 2
    assert ids["secretbid-skill-ladder/ladder-cpu-seconds/players=2/variant=defaults"]["estimate"] > 0
    assert (
        ids[
            "secretbid-skill-ladder/ms-per-decision-of-the-larger-budget/players=2/variant=defaults/budget=2/"
            "larger=4"
        ]["estimate"]
        > 0
    )
    verdicts = [f for f in doc["findings"] if f["metric"] == "verdict under stronger play"]
    assert len(verdicts) == 1 and verdicts[0]["decision"] in ("holds", "changes", "undecided")
    assert verdicts[0]["margin"] == 0.05 and verdicts[0]["position"] in ("0", "1")
    sides = [f for f in doc["findings"] if f["metric"] in ("scripted seat test", "search seat test")]
    assert verdicts[0]["games"] == 48 == sum(f["games"] for f in sides)  # both sides' games and blocks
    assert verdicts[0]["clusters"] == sum(f["clusters"] for f in sides)
    assert {f["metric"] for f in doc["findings"] if f["section"] == "secretbid-stronger-play"} >= {
        "scripted seat test",
        "search seat test",
        "position win rate",
    }
    said = verdicts[0]["decision"].capitalize()
    assert said in page.split('id="secretbid-stronger-play"')[0]  # on the verdict page too


@pytest.mark.parametrize("name", ["skill-ladder-rollout", "stronger-play-told"])
def test_the_measurement_study_files_in_tools_parse_and_plan(name: str) -> None:
    """The study files behind the search figures (tools/studies/, run with ``skald study --file``) stay
    valid: the rollout ladder's runs are rungs of the default search, the told study's search runs are as
    large as their scripted mirrors."""
    path = Path(__file__).resolve().parents[2] / "tools" / "studies" / f"{name}.toml"
    plan = study_file.parse(path.read_text(), str(path)).plan()
    if name == "skill-ladder-rollout":
        rungs = [ladder.rung_of(r.strategies) for r in plan]
        assert all(r is not None and ladder.split_spec(r.high)[0] == "ismcts" for r in rungs)
        labels = [r.label for r in rungs if r is not None]
        assert labels == ["10 vs 5", "20 vs 10", "40 vs 20", "80 vs 40"] * 2
    else:
        for game in ("mainland", "knarr"):
            runs = [r for r in plan if r.game == game]
            scripted = [r for r in runs if not stronger.searches(r.strategies[0], game)]
            assert len(scripted) == 1 and all(r.games == scripted[0].games for r in runs), game

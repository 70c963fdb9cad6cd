"""Greenland's tribes decided against the margin (``analysis.games.greenland.questions.tribe_decision``, the
``tribe fairness`` finding): synthetic seat records of known truth (an even game whose tribes are seated
unevenly, a strong tribe, fewer seats than tribes) and tiny real runs through the section and the verdict."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.data.runs import open_runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.tribes import tribes_section
from analysis.questions.balance import with_margin
from analysis.report import verdicts
from analysis.stats.decide import SEAT_MARGIN, seat_decision
from sim.cli import _main

pytestmark = pytest.mark.slow

TRIBES = ["Tunit", "Norse", "Sea Sámi", "Thule"]


def synthetic(
    blocks: int,
    players: int,
    rng: np.random.Generator,
    strength: dict[str, float] | None = None,
    seated: dict[str, float] | None = None,
) -> pl.DataFrame:
    """Decided seats of ``blocks`` rotation blocks of ``players`` games each (one deal: the same tribes
    in every game of a block), the tribes of a deal drawn without replacement with chances ∝ ``seated``
    (default even) and each game won by one seat with chances ∝ the seated tribes' ``strength``."""
    strength = strength or {}
    weights = np.array([(seated or {}).get(t, 1.0) for t in TRIBES])
    rows: dict[str, list] = {k: [] for k in ("run", "block", "game_id", "players", "tribe", "win_share")}
    game = 0
    for b in range(blocks):
        chosen = rng.choice(len(TRIBES), players, replace=False, p=weights / weights.sum())
        power = np.array([strength.get(TRIBES[i], 1.0) for i in chosen])
        for _ in range(players):
            winner = rng.choice(players, p=power / power.sum())
            for seat, tribe in enumerate(chosen):
                rows["run"].append("r")
                rows["block"].append(f"r#{b}")
                rows["game_id"].append(game)
                rows["players"].append(players)
                rows["tribe"].append(TRIBES[tribe])
                rows["win_share"].append(1.0 if seat == winner else 0.0)
            game += 1
    return pl.DataFrame(rows)


def test_even_shares_follow_how_often_each_tribe_is_seated() -> None:
    """An even game whose deals seat the Thule a third as often as each other tribe: the Thule's even
    share of the wins is well below a quarter, and the game is fair within the margin against it (against
    1/4 for every tribe it would be unfair)."""
    frame = synthetic(1500, 2, np.random.default_rng(1), seated={"Thule": 1 / 3})
    wins, even, total, tribes = greenland.tribe_blocks(frame)
    assert tribes == TRIBES and np.allclose(even.sum(axis=1), total) and total.sum() == 3000
    games_seated = frame.filter(pl.col("tribe") == "Thule")["game_id"].n_unique()
    expected = even.sum(axis=0) / total.sum()
    assert expected[3] == pytest.approx(games_seated / 2 / 3000) and expected[3] < 0.15
    assert expected.sum() == pytest.approx(1.0) and wins.sum() == pytest.approx(3000)
    d = greenland.tribe_decision(frame)
    assert d is not None and d.decision == "fair" and d.margin == SEAT_MARGIN
    assert d.expected == pytest.approx(tuple(expected))
    assert seat_decision(wins, SEAT_MARGIN, games=total).decision == "unfair"  # an even 1/4 is wrong here


def test_a_strong_tribe_is_unfair() -> None:
    frame = synthetic(400, 3, np.random.default_rng(2), strength={"Thule": 2.0})
    d = greenland.tribe_decision(frame)
    assert d is not None and d.decision == "unfair" and d.labels[d.decisive] == "Thule"
    assert d.estimate > SEAT_MARGIN  # about 0.4 - 0.25
    fields = greenland.tribe_decision_fields(frame)
    assert fields["decision"] == "unfair" and fields["decisive"] == "Thule"
    assert fields["decisive_low"] <= fields["decisive_rate"] <= fields["decisive_high"]
    assert fields["decisive_rate"] == pytest.approx(fields["decision_expected"] + d.estimate)
    assert fields["decision_p"] < 0.05 and fields["games_needed"] is None


def test_the_seated_tribes_are_taken_as_given() -> None:
    """With fewer seats than tribes a tribe sits out some deals; deciding on each block's wins against its
    seated tribes' even wins leaves that out of the standard error (the raw block matrix counts it as
    chance and needs far more games for the same interval); the estimates are the same."""
    frame = synthetic(300, 2, np.random.default_rng(3))
    wins, even, total, _ = greenland.tribe_blocks(frame)
    expected = even.sum(axis=0) / total.sum()
    seated = greenland.tribe_decision(frame)
    raw = seat_decision(wins, SEAT_MARGIN, games=total, expected=expected)
    assert seated is not None and seated.estimates == pytest.approx(raw.estimates)
    assert seated.half_width < 0.85 * raw.half_width


def test_no_decision_without_two_tribes() -> None:
    frame = synthetic(5, 2, np.random.default_rng(4), seated={"Tunit": 0.0, "Norse": 0.0})
    assert greenland.tribe_decision(frame.filter(pl.col("tribe") == "Thule")) is None
    assert set(greenland.tribe_decision_fields(frame.filter(pl.col("tribe") == "Thule")).values()) == {None}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("greenland-fairness")
    for players, strategies in ((2, "elder,greedy"), (4, "elder,greedy,spreader,random")):
        args = ["run", "greenland", "-p", str(players), "-g", "8", "-j", "1", "--seed", "11", "--quiet"]
        assert _main([*args, "--strategies", strategies, "--out", str(Path(root) / f"{players}p")]) == 0
    return open_runs(root)


def test_each_tribe_test_has_its_fairness_and_the_verdict_words_it(runs) -> None:
    with with_margin(0.1):
        section = tribes_section(runs)
    tests = [f for f in section.findings if f.metric == "tribe equal chances"]
    assert len(tests) == 2
    for test in tests:
        fair = verdicts.fairness_of(test, section.findings)
        assert fair is not None and fair.metric == "tribe fairness" and fair.groups == test.groups
        assert fair.decision in ("fair", "unfair", "undecided") and fair.margin == 0.1
        assert fair.position in TRIBES and fair.unit == "share" and fair.games == test.games
        assert (
            fair.low is not None and fair.high is not None and fair.low <= (fair.estimate or 0) <= fair.high
        )
    verdict = verdicts.equal_chances_verdict(tests, section.findings, True)
    assert "10-point margin" in verdict.text or "within 10 points" in verdict.text
    assert "tribe" in verdict.text and "beyond chance" not in verdict.text
    assert "decided against the margin" in section.reading
    assert any("margin of 10 points" in note for note in section.notes)

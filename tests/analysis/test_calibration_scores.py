"""Calibration of ``scores.summarize``'s interval of a mean (score spreads, winner's margin, game length,
the heroes' vote share, score curves) where rotation blocks share a deal (the means
once covered 88.9-92%; 95% coverage must lie within 93.5-96.5%, with a deal effect as strong as the
Greenland one, DEFF about 2.9).

One frame holds every replicate as a group (``rep``), so the function is called once, as the report
calls it: ``tests.analysis.test_calibration.game_values`` draws game values whose deal (block) share of the
variance gives DEFF = 2.9 at four games a block.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.questions.scores import summarize
from tests.analysis.test_calibration import COVERAGE_BAND, GREENLAND, Design, game_values

pytestmark = pytest.mark.slow

REPS = 1000


def summary_coverage(rng: np.random.Generator, reps: int, blocks: int = GREENLAND.blocks) -> dict[str, float]:
    """Coverage of the true mean by ``summarize``'s interval with the frame's ``block`` column ("new")
    and without it, every game independent ("old"), and the mean DEFF (variance ratio of the means)."""
    design = Design(blocks=blocks)
    values = game_values(rng, reps, design)  # reps x blocks x games
    games = values.shape[1] * values.shape[2]
    frame = pl.DataFrame(
        {
            "rep": np.repeat(np.arange(reps), games),
            "block": np.tile(np.repeat(np.arange(values.shape[1]), values.shape[2]), reps),
            "value": values.reshape(-1),
        }
    )
    new = summarize(frame, "value", ["rep"])
    old = summarize(frame.drop("block"), "value", ["rep"])
    truth = design.mean

    def covers(t: pl.DataFrame) -> float:
        return float(((t["low"] <= truth) & (truth <= t["high"])).mean())

    naive = values.reshape(reps, -1).var(axis=1, ddof=1).mean() / games
    return {
        "new": covers(new),
        "old": covers(old),
        "deff": float(values.reshape(reps, -1).mean(axis=1).var(ddof=1) / naive),
        "blocks": float(new["blocks"].mean()),
    }


def test_summarize_means_cover_with_a_deal_effect() -> None:
    """95% coverage within 93.5-96.5% with a deal effect as strong as the Greenland one
    (DEFF about 2.9); treating the games as independent covers far less."""
    rates = summary_coverage(np.random.default_rng(1601), REPS)
    assert 2.5 < rates["deff"] < 3.3, rates
    assert rates["blocks"] == GREENLAND.blocks
    assert COVERAGE_BAND[0] <= rates["new"] <= COVERAGE_BAND[1], rates
    assert rates["old"] < 0.9, rates


def test_summarize_few_blocks_use_t_on_blocks() -> None:
    """t intervals for small-n means: 12 blocks of 4 games cover 95% too (t on 11
    degrees of freedom, not z on the 48 games)."""
    rates = summary_coverage(np.random.default_rng(1602), REPS, blocks=12)
    assert COVERAGE_BAND[0] <= rates["new"] <= COVERAGE_BAND[1], rates

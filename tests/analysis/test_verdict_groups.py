"""A comparison made in several groups ("game length in k of N groups") is corrected across the N groups,
not only across each group's metrics: under a global null some group is flagged at most 5% of the time."""

from __future__ import annotations

import numpy as np

from analysis.present.findings import DIFFERENCE, Finding
from analysis.report.verdicts import comparisons, holm

METRICS = ("game length", "winner's margin", "seat gap")


def page(p_values: np.ndarray) -> list[list[Finding]]:
    """One group per row of ``p_values`` (one p per metric), each group Holm-corrected over its metrics as
    the variant sections correct it."""
    groups = []
    for g, row in enumerate(p_values):
        adjusted = holm(list(row))
        groups.append(
            [
                Finding(
                    game="mainland",
                    section="variants",
                    metric=f"{m} difference",
                    question=DIFFERENCE,
                    subject=m,
                    groups={"players": g + 2},
                    estimate=0.01,
                    p_value=float(p),
                    p_adjusted=a,
                    correction="Holm",
                    family=len(METRICS),
                    unit="rounds",
                )
                for m, p, a in zip(METRICS, row, adjusted, strict=True)
            ]
        )
    return groups


def test_k_of_n_groups_holds_its_level_under_a_global_null() -> None:
    rng = np.random.default_rng(7)
    pages = 2000
    flagged = sum(comparisons(page(rng.uniform(size=(7, len(METRICS)))))[1] for _ in range(pages))
    rate = flagged / pages
    # within-group correction alone flags some group about 1 - 0.95**7 = 30% of the time
    assert rate <= 0.05 + 3 * (0.05 * 0.95 / pages) ** 0.5, rate


def test_a_real_difference_still_shows_and_names_the_family() -> None:
    p = np.full((7, len(METRICS)), 0.5)
    p[2, 0] = 1e-6
    text, flagged = comparisons(page(p))
    assert flagged
    assert "game length in 1 of 7 groups" in text
    assert f"Holm-corrected over all {7 * len(METRICS)} tests of the 7 groups" in text

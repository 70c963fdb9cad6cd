"""The Greenland report's score section: score spreads and the mean score per tribe."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from analysis.data.runs import Runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.common import (
    GAME,
    SPREAD_AXIS,
    SPREADS,
    bars,
    chart_tribes,
    count_words,
    groups_of,
    rulebook,
    run_columns,
    variant_name,
    words_list,
)
from analysis.present import charts
from analysis.present.blocks import (
    Chart,
    Section,
    Table,
    interval,
    num,
)
from analysis.present.findings import Finding
from analysis.present.tables import findings_for, mean_columns, stats_table, with_interval

SCORES_NOTE = (
    "Score (ruling G18, reconstructed): living tribesmen plus Trophy VP for a polytheist, or iron "
    "and ivory for a monotheist; a tribe that died out scores what the scoring data give it (0 in "
    "the packaged data). The sole remaining culture wins whatever the scores, so a winner can score "
    "less than the runner-up. Intervals are 95% t intervals of the mean clustered on the blocks; box "
    "plots show quartiles, whiskers 5-95%, diamonds the mean."
)
#: the measures of a spread row (``<m>_mean``, ``_low``, ``_high``, ``_sd``) the findings and table give
MEASURES = {**SPREADS, "mean_score": "mean score"}


def _scores_reading(spread: pl.DataFrame, by_tribe: pl.DataFrame) -> str:
    """The rulebook's spreads per player count, and the tribes scoring most and least."""
    head = rulebook(spread).sort("players")
    rows = head.to_dicts()
    counts = count_words([r["players"] for r in rows])

    def each(m: str, with_interval: bool = False) -> str:
        return words_list(
            [
                f"{r[f'{m}_mean']:.1f}"
                + (f" {interval(r[f'{m}_low'], r[f'{m}_high'])}" if with_interval else "")
                for r in rows
            ]
        )

    pooled = (
        rulebook(by_tribe)
        .group_by("tribe")
        .agg(((pl.col("mean") * pl.col("seats")).sum() / pl.col("seats").sum()).alias("mean"))
        .sort(["mean", "tribe"], descending=[True, False])
    )
    top, bottom = pooled.row(0, named=True), pooled.row(pooled.height - 1, named=True)
    return (
        f"With {counts} tribes{variant_name(head)} the winner beats the runner-up by "
        f"{each('first_minus_second', True)} points on average and the last by {each('first_minus_last')}; "
        f"the winning score averages {each('winning_score')}. Among the tribes the {top['tribe']} score "
        f"most ({top['mean']:.1f} points on average) and the {bottom['tribe']} least ({bottom['mean']:.1f})."
    )


def _scores_findings(spread: pl.DataFrame, by_tribe: pl.DataFrame) -> list[Finding]:
    found = findings_for(section="greenland-scores", clusters="blocks", unit="points", game=GAME)
    keys = groups_of(spread)
    findings = []
    for m, label in MEASURES.items():
        findings += found(
            spread,
            metric=label,
            groups=keys,
            estimate=f"{m}_mean",
            low=f"{m}_low",
            high=f"{m}_high",
            games="games",
        )
    return findings + found(
        by_tribe,
        metric="tribe mean score",
        groups=groups_of(by_tribe, "tribe"),
        estimate="mean",
        low="low",
        high="high",
        games="seats",
    )


def _scores_charts(runs: Runs, spread: pl.DataFrame) -> list[Chart]:
    """The spreads as bars per variant, and the final scores per tribe as boxes."""
    long = pl.concat(
        [
            spread.select(
                "players",
                "variant",
                *[c for c in ("mix", "run") if c in spread.columns],
                pl.lit(label).alias("measure"),
                pl.col(f"{m}_mean").alias("mean"),
                pl.col(f"{m}_low").alias("low"),
                pl.col(f"{m}_high").alias("high"),
            )
            for m, label in SPREAD_AXIS.items()
        ]
    )
    boxes = rulebook(greenland.seats(runs))
    return [
        Chart(
            "greenland-spreads",
            charts.png(
                charts.grouped_means(
                    bars(long, "measure", "variant"),
                    "measure",
                    "variant",
                    "points",
                    "Greenland score spreads (mean, 95% interval)",
                )
            ),
            "Greenland score spreads",
        ),
        Chart(
            "greenland-tribe-scores",
            charts.png(
                charts.score_boxes(
                    chart_tribes(boxes),
                    "tribe",
                    "score",
                    "final score (points)",
                    "Greenland final scores by tribe",
                )
            ),
            "Greenland final scores by tribe",
        ),
    ]


def _scores_tables(spread: pl.DataFrame, by_tribe: pl.DataFrame) -> list[Table]:
    def spread_cell(m: str) -> Callable[[dict], str]:
        cell = with_interval(f"{m}_mean", f"{m}_low", f"{m}_high")
        return lambda r: cell(r) + f", {num(r[f'{m}_sd'], 1)}"

    return [
        stats_table(
            "Score spreads per game (points)",
            spread,
            [
                *run_columns(spread),
                ("strategy mix", "mix"),
                "games",
                *[(f"{label} (mean [95%], sd)", spread_cell(m)) for m, label in MEASURES.items()],
            ],
        ),
        stats_table(
            "Mean score by tribe (points)",
            by_tribe,
            [
                *run_columns(by_tribe),
                "tribe",
                "seats",
                *mean_columns(header="mean score"),
            ],
        ),
    ]


def scores_section(runs: Runs) -> Section:
    """How far apart Greenland scores are, and whether a tribe scores more than the others."""
    spread = greenland.score_spread(runs)
    by_tribe = greenland.tribe_scores(runs)
    return Section(
        "greenland-scores",
        "Greenland score spreads",
        "How far apart are Greenland scores, and does a tribe score more than the others?",
        _scores_reading(spread, by_tribe),
        charts=_scores_charts(runs, spread),
        findings=_scores_findings(spread, by_tribe),
        tables=_scores_tables(spread, by_tribe),
        notes=[SCORES_NOTE],
    )

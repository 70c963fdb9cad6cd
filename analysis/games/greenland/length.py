"""The Greenland report's length section: game length in generations, and how often and
when tribes die out."""

from __future__ import annotations

import math

import polars as pl

from analysis.data.runs import Runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.common import (
    GAME,
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
    col,
    interval,
    num,
    pct,
)
from analysis.present.findings import Finding
from analysis.present.tables import Spec, findings_for, mean_columns, share_interval, stats_table

LENGTH_NOTE = (
    "A game lasts until the last generation of the event deck, or ends at once when one culture or "
    "none is left (line 5, ruling G18): that is 'ended early'. A tribe dies out when it has no "
    "living tribesman (Alpha, elders, colonists and husbands count); the generation is the one it "
    "died in. Game length and the share of games with a death: intervals clustered on the blocks "
    "(t on the blocks, Wilson at the blocks' effective size); a tribe's or strategy's died-out "
    "share: Wilson on seat-games."
)


def _length_words(rows: list[dict]) -> str:
    """How long the rulebook's games last: the full deck every time, else the means, range and early ends."""
    low = min(r["generations_min"] for r in rows)
    high = max(r["generations_max"] for r in rows)
    early = [pct(r["ended_early"], 0) for r in rows]
    means = words_list([f"{r['generations_mean']:.1f}" for r in rows])
    return (
        f"every game lasts the full {high} generations"
        if low == high
        else f"games last {means} generations on average (range {low}-{high}) and "
        f"{words_list(early)} end early with one tribe or none left"
    )


def _most_died(frame: pl.DataFrame, what: str) -> dict:
    """The ``what`` (tribe or strategy) dying out most often in the rulebook's runs; ties by name."""
    return (
        rulebook(frame)
        .group_by(what)
        .agg(pl.col("died").sum(), pl.col("seats").sum())
        .with_columns((pl.col("died") / pl.col("seats")).alias("share"))
        .sort(["share", what], descending=[True, False])  # ties by name: the same pick every time
        .row(0, named=True)
    )


def _length_reading(length: pl.DataFrame, by_tribe: pl.DataFrame, by_strategy: pl.DataFrame) -> str:
    head = rulebook(length).sort("players")
    rows = head.to_dicts()
    died = [
        f"{pct(r['any_died'], 0)} {interval(r['any_low'], r['any_high'], as_pct=True, digits=0)}"
        for r in rows
    ]
    first = [(r["players"], r["first_death_mean"]) for r in rows if not math.isnan(r["first_death_mean"])]
    when = (
        "; the first death comes in generation "
        + words_list([f"{x:.1f} with {p} tribes" for p, x in first])
        + " on average"
        if first
        else ""
    )
    most, worst = _most_died(by_tribe, "tribe"), _most_died(by_strategy, "strategy")
    return (
        f"With {count_words([r['players'] for r in rows])} tribes{variant_name(head)} {_length_words(rows)}. "
        f"A tribe dies out in "
        f"{words_list(died)} of the games{when}. The {most['tribe']} die out most often "
        f"({pct(most['share'])} of their {most['seats']:,} games), and of the strategies {worst['strategy']} "
        f"({pct(worst['share'])})."
    )


def _extinction_curve(timing: pl.DataFrame) -> tuple[pl.DataFrame, list[int]]:
    """One curve per tribe and player count: the rulebook runs of a player count pooled (their seats
    summed), and only the player counts in which some tribe died out (a flat 0% line says nothing); and
    the player counts left out."""
    pooled = (
        rulebook(timing)
        .group_by("players", "tribe", "generation", maintain_order=True)
        .agg(pl.col("dead").sum(), pl.col("seats").sum())
        .with_columns((pl.col("dead") / pl.col("seats")).alias("dead_share"))
    )
    pooled = greenland.with_wilson(pooled, "dead", "seats", "low", "high")
    deadly = pooled.group_by("players").agg(pl.col("dead").max()).filter(pl.col("dead") > 0)["players"]
    curve = (
        pooled.filter(pl.col("players").is_in(deadly.implode()))
        .sort("players", "tribe", "generation")
        .select(
            "players",
            pl.col("tribe").alias("strategy"),
            pl.col("generation").alias("x"),
            (pl.col("dead_share") * 100).alias("mean"),
            (pl.col("low") * 100).alias("low"),
            (pl.col("high") * 100).alias("high"),
            pl.lit("generation").alias("x_name"),
        )
    )
    return curve, sorted(set(pooled["players"].to_list()) - set(deadly.to_list()))


def _length_charts(runs: Runs, timing: pl.DataFrame) -> list[Chart]:
    curve, quiet = _extinction_curve(timing)
    found = [
        Chart(
            "greenland-generations",
            charts.png(
                charts.histogram(
                    rulebook(greenland.per_game(runs)),
                    "generations",
                    "generations played",
                    "Greenland game length",
                )
            ),
            "Greenland game length in generations",
        )
    ]
    if curve.height:
        found.append(
            Chart(
                "greenland-extinctions",
                charts.png(
                    charts.curves(
                        curve,
                        "tribes died out (%)",
                        "Share of tribes died out by the end of each generation, rulebook runs "
                        "(band: 95% Wilson interval)",
                    )
                ),
                "Greenland: tribes died out by generation"
                + (f" (no tribe died out at {count_words(quiet)} tribes)" if quiet else ""),
            )
        )
    return found


def _length_findings(
    length: pl.DataFrame, by_tribe: pl.DataFrame, by_strategy: pl.DataFrame
) -> list[Finding]:
    found = findings_for(section="greenland-length", game=GAME)
    per_run = findings_for(section="greenland-length", games="games", game=GAME, groups=groups_of(length))
    findings = per_run(
        length,
        metric="game length",
        estimate="generations_mean",
        low="generations_low",
        high="generations_high",
        clusters="blocks",
        unit="generations",
        excluded="truncated",
    )
    findings += per_run(
        length,
        metric="games with a tribe dying out",
        estimate="any_died",
        low="any_low",
        high="any_high",
        clusters="blocks",
        unit="share",
    )
    findings += per_run(length, metric="games ended early", estimate="ended_early", unit="share")
    for frame, what in ((by_tribe, "tribe"), (by_strategy, "strategy")):
        findings += found(
            frame,
            metric=f"{what} died-out share",
            groups=groups_of(frame, what),
            estimate="died_share",
            low="low",
            high="high",
            games="seats",
            unit="share",
        )
    return findings


def _length_tables(length: pl.DataFrame, by_tribe: pl.DataFrame, by_strategy: pl.DataFrame) -> list[Table]:
    death_columns: list[Spec] = [
        "seats",
        ("died out", "died"),
        ("share", col("died_share", pct)),
        share_interval("low", "high"),
        ("generation (mean)", col("died_mean", lambda x: num(x, 1))),
        ("earliest", "died_first"),
        ("latest", "died_last"),
    ]
    return [
        stats_table(
            "Game length and extinctions per run",
            length,
            [
                *run_columns(length),
                ("strategy mix", "mix"),
                "games",
                ("truncated (left out)", "truncated"),
                *mean_columns(
                    "generations_mean",
                    "generations_low",
                    "generations_high",
                    header="generations (mean)",
                    digits=2,
                ),
                ("range", lambda r: f"{r['generations_min']}-{r['generations_max']}"),
                ("ended early", col("ended_early", pct)),
                ("a tribe died out", col("any_died", pct)),
                share_interval("any_low", "any_high", "95% interval "),
                ("tribes died per game", col("deaths_per_game", lambda x: num(x, 2))),
                ("none left", col("none_left", pct)),
                ("first death (generation)", col("first_death_mean", lambda x: num(x, 1))),
            ],
        ),
        stats_table(
            "How often and when each tribe dies out",
            by_tribe,
            [*run_columns(by_tribe), ("strategy mix", "mix"), "tribe", *death_columns],
        ),
        stats_table(
            "How often and when each strategy's tribe dies out",
            by_strategy,
            [*run_columns(by_strategy), "strategy", *death_columns],
        ),
    ]


def length_section(runs: Runs) -> Section:
    """How many generations games last, and how often and when tribes die out."""
    length = greenland.game_length(runs)
    by_tribe = greenland.deaths(runs, "tribe")
    by_strategy = greenland.deaths(runs, "strategy")
    return Section(
        "greenland-length",
        "Greenland game length and extinctions",
        "How many generations do games last, and how often and when do tribes die out?",
        _length_reading(length, by_tribe, by_strategy),
        charts=_length_charts(runs, greenland.extinctions(runs, "tribe")),
        findings=_length_findings(length, by_tribe, by_strategy),
        tables=_length_tables(length, by_tribe, by_strategy),
        notes=[LENGTH_NOTE],
    )

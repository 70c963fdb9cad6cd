"""The Greenland report's length section (issue 7): game length in generations, and how often and
when tribes die out."""

from __future__ import annotations

import math

import polars as pl

from analysis import charts, greenland
from analysis.findings import from_frame
from analysis.runs import Runs
from analysis.sections.blocks import (
    Chart,
    Section,
    col,
    interval,
    num,
    pct,
    table,
)
from analysis.sections.greenland_common import (
    GAME,
    count_words,
    groups_of,
    rulebook,
    run_columns,
    variant_name,
    words_list,
)


def length_section(g: Runs) -> Section:
    length = greenland.game_length(g)
    by_tribe = greenland.deaths(g, "tribe")
    by_strategy = greenland.deaths(g, "strategy")
    timing = greenland.extinctions(g, "tribe")
    head = rulebook(length).sort("players")
    rows = head.to_dicts()
    counts = count_words([r["players"] for r in rows])
    low = min(r["generations_min"] for r in rows)
    high = max(r["generations_max"] for r in rows)
    early = [pct(r["ended_early"], 0) for r in rows]
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
    means = words_list([f"{r['generations_mean']:.1f}" for r in rows])
    length_words = (
        f"every game lasts the full {high} generations"
        if low == high
        else f"games last {means} generations on average (range {low}-{high}) and "
        f"{words_list(early)} end early with one tribe or none left"
    )
    tribes = rulebook(by_tribe)
    pooled = (
        tribes.group_by("tribe")
        .agg(pl.col("died").sum(), pl.col("seats").sum())
        .with_columns((pl.col("died") / pl.col("seats")).alias("share"))
        .sort(["share", "tribe"], descending=[True, False])  # ties by name: the same pick every time
    )
    most = pooled.row(0, named=True)
    strategies = rulebook(by_strategy)
    worst = (
        strategies.group_by("strategy")
        .agg(pl.col("died").sum(), pl.col("seats").sum())
        .with_columns((pl.col("died") / pl.col("seats")).alias("share"))
        .sort(["share", "strategy"], descending=[True, False])
        .row(0, named=True)
    )
    reading = (
        f"With {counts} tribes{variant_name(head)} {length_words}. A tribe dies out in "
        f"{words_list(died)} of the games{when}. The {most['tribe']} die out most often "
        f"({pct(most['share'])} of their {most['seats']:,} games), and of the strategies {worst['strategy']} "
        f"({pct(worst['share'])})."
    )
    # one curve per tribe and player count: the rulebook runs of a player count pooled (their seats
    # summed), and only the player counts in which some tribe died out (a flat 0% line says nothing)
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
    quiet = sorted(set(pooled["players"].to_list()) - set(deadly.to_list()))
    keys = groups_of(length)
    common = {"section": "greenland-length", "games": "games", "game": GAME}
    found = from_frame(
        length,
        metric="game length",
        groups=keys,
        estimate="generations_mean",
        low="generations_low",
        high="generations_high",
        clusters="blocks",
        unit="generations",
        excluded="truncated",
        **common,
    )
    found += from_frame(
        length,
        metric="games with a tribe dying out",
        groups=keys,
        estimate="any_died",
        low="any_low",
        high="any_high",
        clusters="blocks",
        unit="share",
        **common,
    )
    found += from_frame(
        length, metric="games ended early", groups=keys, estimate="ended_early", unit="share", **common
    )
    for frame, what in ((by_tribe, "tribe"), (by_strategy, "strategy")):
        found += from_frame(
            frame,
            section="greenland-length",
            metric=f"{what} died-out share",
            groups=groups_of(frame, what),
            estimate="died_share",
            low="low",
            high="high",
            games="seats",
            unit="share",
            game=GAME,
        )
    death_columns = [
        ("seats", col("seats")),
        ("died out", col("died")),
        ("share", col("died_share", pct)),
        ("95% interval", lambda r: interval(r["low"], r["high"], as_pct=True)),
        ("generation (mean)", col("died_mean", lambda x: num(x, 1))),
        ("earliest", col("died_first")),
        ("latest", col("died_last")),
    ]
    return Section(
        "greenland-length",
        "Greenland game length and extinctions",
        "How many generations do games last, and how often and when do tribes die out?",
        reading,
        charts=[
            Chart(
                "greenland-generations",
                charts.png(
                    charts.histogram(
                        rulebook(greenland.per_game(g)),
                        "generations",
                        "generations played",
                        "Greenland game length",
                    )
                ),
                "Greenland game length in generations",
            ),
            *(
                [
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
                ]
                if curve.height
                else []
            ),
        ],
        findings=found,
        tables=[
            table(
                "Game length and extinctions per run",
                length,
                [
                    *run_columns(length),
                    ("strategy mix", col("mix")),
                    ("games", col("games")),
                    ("truncated (left out)", col("truncated")),
                    ("generations (mean)", col("generations_mean", lambda x: num(x, 2))),
                    (
                        "95% interval",
                        lambda r: interval(r["generations_low"], r["generations_high"], digits=2),
                    ),
                    ("range", lambda r: f"{r['generations_min']}-{r['generations_max']}"),
                    ("ended early", col("ended_early", pct)),
                    ("a tribe died out", col("any_died", pct)),
                    ("95% interval ", lambda r: interval(r["any_low"], r["any_high"], as_pct=True)),
                    ("tribes died per game", col("deaths_per_game", lambda x: num(x, 2))),
                    ("none left", col("none_left", pct)),
                    ("first death (generation)", col("first_death_mean", lambda x: num(x, 1))),
                ],
            ),
            table(
                "How often and when each tribe dies out",
                by_tribe,
                [
                    *run_columns(by_tribe),
                    ("strategy mix", col("mix")),
                    ("tribe", col("tribe")),
                    *death_columns,
                ],
            ),
            table(
                "How often and when each strategy's tribe dies out",
                by_strategy,
                [*run_columns(by_strategy), ("strategy", col("strategy")), *death_columns],
            ),
        ],
        notes=[
            "A game lasts until the last generation of the event deck, or ends at once when one culture or "
            "none is left (line 5, ruling G18): that is 'ended early'. A tribe dies out when it has no "
            "living tribesman (Alpha, elders, colonists and husbands count); the generation is the one it "
            "died in. Game length and the share of games with a death: intervals clustered on the blocks "
            "(t on the blocks, Wilson at the blocks' effective size); a tribe's or strategy's died-out "
            "share: Wilson on seat-games."
        ],
    )

"""Report sections on Mainland: score spreads, where the points come from, how the game is played."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

import polars as pl

from analysis.data.runs import Runs
from analysis.games.mainland import questions
from analysis.present import charts
from analysis.present.blocks import (
    Chart,
    Section,
    Table,
    col,
    interval,
    num,
    pct,
    players_words,
)
from analysis.present.findings import Finding, from_frame
from analysis.present.tables import Spec, mean_columns, stats_table
from analysis.questions import scores

#: the spread columns a score table shows beside its mean and interval
SPREAD = ("sd", "p10", "median", "p90", "max")


def summary_findings(
    frame: pl.DataFrame,
    *,
    section: str,
    metric: str,
    groups: Sequence[str],
    unit: str,
    spread: Sequence[str] = (),
    rows: str | None = None,
) -> list[Finding]:
    """The findings of a ``scores.summarize`` table as the page shows it: per row the mean with its
    interval (on its blocks), one finding per ``spread`` column shown (``<metric> sd``, ...), and where
    the table shows its row count ``n``, that count: as the mean's ``games`` where a row is a game
    (``rows="games"``), as a ``<metric> seats`` count where a row is a seat in a game (``rows="seats"``)."""
    found = from_frame(
        frame,
        section=section,
        metric=metric,
        groups=groups,
        estimate="mean",
        low="low",
        high="high",
        games="n" if rows == "games" else None,
        clusters="blocks",
        unit=unit,
        game="mainland",
    )
    named = [(f"{metric} {stat}", stat, unit) for stat in spread]
    if rows == "seats":
        named.append((f"{metric} seats", "n", "count"))
    for name, column, kind in named:
        found += from_frame(
            frame, section=section, metric=name, groups=groups, estimate=column, unit=kind, game="mainland"
        )
    return found


def _score_findings(by_strategy: pl.DataFrame, by_seat: pl.DataFrame, margin: pl.DataFrame) -> list[Finding]:
    sid = "mainland-scores"
    summary = functools.partial(summary_findings, section=sid, unit="points", spread=SPREAD)
    return [
        *summary(by_strategy, metric="final score", groups=("players", "strategy"), rows="seats"),
        *summary(by_seat, metric="final score", groups=("players", "seat"), rows="seats"),
        *summary(margin, metric="winner's margin", groups=("players",), rows="games"),
        *from_frame(
            margin,
            section=sid,
            metric="decided by 2 points or fewer",
            groups=("players",),
            estimate="close",
            games="n",
            unit="share",
            game="mainland",
        ),
    ]


def mainland_score_section(runs: Runs) -> Section:
    seats = scores.final_seats(runs).select("players", "seat", "strategy", "score").collect()
    by_strategy = scores.score_distribution(runs, ("players", "strategy"))
    by_seat = scores.score_distribution(runs, ("players", "seat"))
    margin = scores.winner_margin(runs, ("players",))
    m = margin.sort("n", descending=True).row(0, named=True)
    top = by_strategy.sort("mean", descending=True).row(0, named=True)
    reading = (
        f"In {m['n']:,} {players_words(m['players'])} games the winner beat the runner-up by "
        f"{m['mean']:.1f} points on average {interval(m['low'], m['high'])} (median {m['median']:.0f}; "
        f"{pct(m['close'], 0)} of games were decided by 2 points or fewer), and {top['strategy']} scored "
        f"most, "
        f"{top['mean']:.1f} points {interval(top['low'], top['high'])} at {top['players']} players."
    )
    frame = scores.margins(runs).select("players", "margin")
    stats_cols: list[Spec] = [
        "n",
        *mean_columns(),
        ("sd", col("sd", lambda x: num(x, 1))),
        ("p10", col("p10", lambda x: num(x, 1))),
        ("median", col("median", lambda x: num(x, 1))),
        ("p90", col("p90", lambda x: num(x, 1))),
        ("max", col("max", lambda x: num(x, 0))),
    ]
    return Section(
        "mainland-scores",
        "Mainland score spreads",
        "How do Mainland scores spread, and how close are games?",
        reading,
        charts=[
            Chart(
                "scores-by-strategy",
                charts.png(
                    charts.score_boxes(
                        seats,
                        "strategy",
                        title="Final score by strategy (box: quartiles; whiskers: 5-95%; diamond: mean)",
                    )
                ),
                "Final score by strategy",
            ),
            Chart(
                "scores-by-seat",
                charts.png(charts.score_boxes(seats, "seat", title="Final score by seat")),
                "Final score by seat",
            ),
            Chart(
                "winner-margin",
                charts.png(
                    charts.histogram(
                        frame, "margin", "winner's margin (points)", "Winner's margin over the runner-up"
                    )
                ),
                "Winner's margin histogram",
            ),
        ],
        tables=[
            stats_table(
                "Final score by strategy (points)",
                by_strategy,
                ["players", "strategy", *stats_cols],
            ),
            stats_table(
                "Final score by seat (points)",
                by_seat,
                ["players", "seat", *stats_cols],
            ),
            stats_table(
                "Winner's margin (points)",
                margin,
                ["players", *stats_cols, ("decided by <= 2", col("close", pct))],
            ),
        ],
        findings=_score_findings(by_strategy, by_seat, margin),
        notes=["Truncated games are left out. Intervals are 95% normal-approximation intervals of the mean."],
    )


def _points_reading(overall: pl.DataFrame, size: pl.DataFrame) -> str:
    """The sources' shares at the largest player count and the strategy with the largest Mainland."""
    biggest = overall.filter(pl.col("players") == overall["players"].max())
    share = {r["source"]: r["share"] for r in biggest.iter_rows(named=True)}
    s = (
        size.filter(pl.col("players") == size["players"].max())
        .sort(["mean", "strategy"], descending=[True, False])
        .row(0, named=True)
    )
    return (
        f"At {biggest['players'][0]} players, Mainland tiles give {pct(share.get('mainland_tiles'))} of "
        f"all points, "
        f"items inside the Mainland {pct(share.get('mainland_items'))} and items in minor territories "
        f"{pct(share.get('minor_items'))}; {s['strategy']} builds the largest Mainland, {s['mean']:.1f} "
        f"tiles "
        f"{interval(s['low'], s['high'])}."
    )


def _points_charts(sources: pl.DataFrame, size: pl.DataFrame) -> list[Chart]:
    return [
        Chart(
            "point-sources",
            charts.png(
                charts.grouped_means(
                    sources,
                    "strategy",
                    "label",
                    "mean points per seat and game",
                    "Points by source (bars: mean; error bars: 95% interval)",
                )
            ),
            "Points by source and strategy",
        ),
        Chart(
            "mainland-size",
            charts.png(
                charts.grouped_means(
                    size.with_columns(pl.lit("Mainland size").alias("series")),
                    "strategy",
                    "series",
                    "Mainland size (tiles)",
                    "Mainland size by strategy",
                )
            ),
            "Mainland size by strategy",
        ),
    ]


def _points_tables(overall: pl.DataFrame, sources: pl.DataFrame, size: pl.DataFrame) -> list[Table]:
    return [
        stats_table(
            "Share of points by source",
            overall,
            [
                "players",
                ("source", "label"),
                ("share of points", col("share", pct)),
                *mean_columns(header="mean points"),
            ],
        ),
        stats_table(
            "Points by source and strategy",
            sources,
            [
                "players",
                "strategy",
                ("source", "label"),
                ("share", col("share", pct)),
                *mean_columns(header="mean points"),
            ],
        ),
        stats_table(
            "Mainland size (tiles)",
            size,
            [
                "players",
                "strategy",
                ("seats", "n"),
                *mean_columns(),
                ("median", col("median", lambda x: num(x, 0))),
                ("max", col("max", lambda x: num(x, 0))),
            ],
        ),
    ]


def _points_findings(overall: pl.DataFrame, sources: pl.DataFrame, size: pl.DataFrame) -> list[Finding]:
    """The shares and mean points of each source (overall and per strategy) and the Mainland sizes."""
    sid = "mainland-points"
    found = []
    for frame, groups in ((overall, ("players", "source")), (sources, ("players", "strategy", "source"))):
        found += from_frame(
            frame,
            section=sid,
            metric="share of points",
            groups=groups,
            estimate="share",
            unit="share",
            game="mainland",
        )
        found += summary_findings(frame, section=sid, metric="points by source", groups=groups, unit="points")
    return found + summary_findings(
        size,
        section=sid,
        metric="Mainland size",
        groups=("players", "strategy"),
        unit="count",
        spread=("median", "max"),
        rows="seats",
    )


def mainland_points_section(runs: Runs) -> Section:
    """How big Mainlands get and where the points come from (tiles, Mainland items, minor territories)."""
    sources = questions.point_sources(runs, ("players", "strategy")).sort("players", "strategy", "source")
    overall = questions.point_sources(runs, ("players",)).sort("players", "source")
    size = questions.mainland_size(runs, ("players", "strategy"))
    return Section(
        "mainland-points",
        "Where Mainland points come from",
        "How big do Mainlands get, and which share of the points comes from tiles, Mainland items and minor "
        "territories?",
        _points_reading(overall, size),
        charts=_points_charts(sources, size),
        tables=_points_tables(overall, sources, size),
        findings=_points_findings(overall, sources, size),
        notes=[
            "A seat's score is exactly Mainland tiles + Mainland items + minor-territory items; shares are "
            "ratios of sums over all seats of the group."
        ],
    )


def mainland_play_section(runs: Runs) -> Section:
    play = questions.play_stats(runs, ("players", "strategy"))
    focus = play.filter(pl.col("stat").is_in(["passes", "forced_passes", "gatherings"]))
    overall = questions.play_stats(runs, ("players",)).filter(
        pl.col("stat").is_in(["passes", "forced_passes", "gatherings"])
    )
    most = cast(int, overall["players"].max())
    o = {r["stat"]: r for r in overall.filter(pl.col("players") == most).iter_rows(named=True)}
    reading = (
        f"At {most} players a seat passes {o['passes']['mean']:.2f} times by choice and "
        f"{o['forced_passes']['mean']:.2f} times by force per game, and calls "
        f"{o['gatherings']['mean']:.2f} clan "
        f"gatherings {interval(o['gatherings']['low'], o['gatherings']['high'], digits=2)}."
    )
    return Section(
        "mainland-play",
        "Passes and clan gatherings",
        "How often do players pass and call clan gatherings?",
        reading,
        charts=[
            Chart(
                "passes-gatherings",
                charts.png(
                    charts.grouped_means(
                        focus.with_columns(pl.col("label").alias("what")),
                        "strategy",
                        "what",
                        "count per seat and game",
                        "Passes and clan gatherings per seat and game (95% intervals)",
                    )
                ),
                "Passes and gatherings by strategy",
            )
        ],
        tables=[
            stats_table(
                "Play statistics per seat and game",
                play,
                [
                    "players",
                    "strategy",
                    ("statistic", "label"),
                    *mean_columns(digits=2),
                    ("max", col("max", lambda x: num(x, 0))),
                ],
            )
        ],
        findings=_play_findings(play, overall),
    )


def _play_findings(play: pl.DataFrame, overall: pl.DataFrame) -> list[Finding]:
    """Per strategy each statistic's mean per seat and game, its interval and maximum (the table), and
    per player count the passes and gatherings the reading states."""
    sid = "mainland-play"
    found = []
    for (stat,), rows in play.group_by("stat", maintain_order=True):
        found += summary_findings(
            rows,
            section=sid,
            metric=f"{stat} per seat and game",
            groups=("players", "strategy"),
            unit="count",
            spread=("max",),
        )
    for (stat,), rows in overall.group_by("stat", maintain_order=True):
        found += summary_findings(
            rows, section=sid, metric=f"{stat} per seat and game", groups=("players",), unit="count"
        )
    return found


def mainland_sections(runs: Runs) -> list[Section]:
    """The Mainland sections, when the records hold Mainland runs."""
    mainland = runs.only(game="mainland")
    if not len(mainland):
        return []
    return [
        mainland_score_section(mainland),
        mainland_points_section(mainland),
        mainland_play_section(mainland),
    ]

"""Report sections on Knarr: seat advantage under the round-completion rule, score spreads with and
without the skáli/raid expansion, what the winners hold, and raids."""

from __future__ import annotations

import math
from collections.abc import Callable

import polars as pl

from analysis import balance, charts, knarr
from analysis.runs import Runs
from analysis.sections.blocks import (
    Chart,
    Section,
    col,
    correction_words,
    interval,
    num,
    pct,
    players_words,
    seat_test_words,
    significant_groups,
    table,
    tests_table,
    unavailable,
    variant_column,
)
from sim.errors import SkaldError

# --------------------------------------------------------------------------- Knarr


KNARR_MEASURES = {
    "first_minus_last": "winner minus last",
    "first_minus_second": "winner minus runner-up",
    "winning_score": "winning score",
}


def run_columns(frame: pl.DataFrame) -> list[tuple[str, Callable[[dict], str]]]:
    return [("players", col("players")), ("expansion", col("expansion")), *variant_column(frame)]


def knarr_seat_section(k: Runs) -> Section:
    """Knarr's only seat section: win rate by seat per run (``analysis.knarr.seat_advantage``) and the
    game-agnostic tests of equal chances (``balance.balance_tests``) on the same records; the generic
    seat-balance section leaves Knarr out (``OWN_SEAT_SECTIONS``)."""
    rates = knarr.seat_advantage(k)
    tests = balance.balance_tests(k)
    low = tests.sort("p_value").row(0, named=True)
    significant = significant_groups(tests)
    gaps = rates.group_by("run", maintain_order=True).agg(
        pl.col("players").first(),
        pl.col("expansion").first(),
        pl.col("games").max(),
        pl.col("seat").sort_by("win_rate").last().alias("best"),
        pl.col("win_rate").max().alias("best_rate"),
        pl.col("ci_low").sort_by("win_rate").last().alias("best_low"),
        pl.col("ci_high").sort_by("win_rate").last().alias("best_high"),
        (pl.col("win_rate").max() - pl.col("win_rate").min()).alias("gap"),
    )
    w = gaps.sort("gap", descending=True).row(0, named=True)
    inside = w["best_low"] <= 1 / w["players"] <= w["best_high"]
    reading = (
        f"The largest seat gap is in the {players_words(w['players'])} {w['expansion']} game: seat "
        f"{w['best']} wins {pct(w['best_rate'])} {interval(w['best_low'], w['best_high'], as_pct=True)} of "
        f"{w['games']:,} games against equal chances of {pct(1 / w['players'])}, "
        + (
            "inside its interval, so no seat advantage shows at this sample size."
            if inside
            else f"outside its interval, though it is the largest of {rates.height} seat rates and its "
            "interval is not corrected for that choice."
        )
        + f" Of the tests of equal seat chances the lowest is in the {players_words(low['players'])} "
        f"{low['variant']} group ({low['decided']:,} decided games): {seat_test_words(low, 'seat')}"
        + (
            f"; {significant} of {tests.height} groups differ by more than chance"
            if significant
            else f"; no group of {tests.height} shows a seat advantage beyond chance"
        )
        + f" ({correction_words(low)})."
    )
    return Section(
        "knarr-seats",
        "Knarr seat advantage",
        "With the round completed after the 40-point trigger, does the seat you play from change your chance "
        "to win?",
        reading,
        charts=[
            Chart(
                "knarr-seats",
                charts.png(
                    charts.win_rates(
                        rates.with_columns(pl.format("{} ({})", "variant", "mix").alias("variant")),
                        "seat",
                        "Knarr win rate by seat (95% Wilson intervals)",
                    )
                ),
                "Knarr win rate by seat with 95% intervals",
            )
        ],
        tables=[
            table(
                "Win rate and mean score by seat",
                rates,
                [
                    *run_columns(rates),
                    ("strategy mix", col("mix")),
                    ("seat", col("seat")),
                    ("games", col("games")),
                    ("wins", col("wins")),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    ("equal chances", col("expected", pct)),
                    ("mean score", col("mean_score", lambda x: num(x, 1))),
                ],
            ),
            tests_table(
                "Tests of equal seat chances, Balance and first-seat advantage", tests, "seat", ties=True
            ),
        ],
        notes=[
            "The game ends when the round in which someone reaches 40 points is complete, so every seat has "
            "had as many turns; ties split the win. Seats rotate between games (strategies move with them). "
            "Intervals are Wilson 95% intervals. This is Knarr's only seat section: the report's general "
            "seat balance section leaves Knarr out. The tests pool the runs of one player count, variant "
            "and strategy mix and count decided games only (truncated games have no winner); Balance = 1 - "
            "the largest gap between two seats' win rates (1 = even)."
        ],
    )


def knarr_score_section(k: Runs) -> Section:
    spread = knarr.score_spread(k)
    long = pl.concat(
        [
            spread.select(
                "players",
                "expansion",
                pl.lit(label).alias("measure"),
                pl.col(f"{m}_mean").alias("mean"),
                (pl.col(f"{m}_mean") - 1.96 * pl.col(f"{m}_sd") / pl.col("games").sqrt()).alias("low"),
                (pl.col(f"{m}_mean") + 1.96 * pl.col(f"{m}_sd") / pl.col("games").sqrt()).alias("high"),
            )
            for m, label in KNARR_MEASURES.items()
        ]
    )
    by = spread.group_by("expansion").agg(
        (pl.col("first_minus_second_mean") * pl.col("games")).sum() / pl.col("games").sum()
    )
    margin = dict(by.rows())
    words = " and ".join(f"{v:.1f} points {e}" for e, v in sorted(margin.items()))
    if {"base", "skáli"} <= set(margin):
        diff = margin["skáli"] - margin["base"]
        more = "wider" if diff > 0 else "narrower"
        words += f", so the expansion makes the winner's margin {abs(diff):.1f} points {more}"
    return Section(
        "knarr-scores",
        "Knarr score spreads",
        "How far apart are Knarr scores, with and without the skáli/raid expansion?",
        f"The winner beats the runner-up by {words} on average (games weighted equally across runs).",
        charts=[
            Chart(
                "knarr-scores",
                charts.png(
                    charts.grouped_means(
                        long, "measure", "expansion", "points", "Knarr score spreads (mean, 95% interval)"
                    )
                ),
                "Knarr score spreads with and without the expansion",
            )
        ],
        tables=[
            table(
                "Score spreads per game (points)",
                spread,
                [
                    *run_columns(spread),
                    ("strategy mix", col("mix")),
                    ("games", col("games")),
                    *[
                        (
                            f"{label} (mean, sd)",
                            lambda r, m=m: f"{num(r[f'{m}_mean'], 1)} ({num(r[f'{m}_sd'], 1)})",
                        )
                        for m, label in KNARR_MEASURES.items()
                    ],
                ],
            )
        ],
        notes=[
            "Intervals in the chart are 95% normal-approximation intervals of the mean (sd / sqrt(games))."
        ],
    )


def knarr_holdings_section(k: Runs) -> Section:
    dest = knarr.holdings(k, "explore").with_columns(pl.lit("destination").alias("kind"))
    build = knarr.holdings(k, "develop")
    frames = [dest] + ([build.with_columns(pl.lit("Building").alias("kind"))] if not build.is_empty() else [])
    held = (
        pl.concat([f for f in frames if not f.is_empty()], how="diagonal_relaxed")
        if any(not f.is_empty() for f in frames)
        else pl.DataFrame()
    )
    if held.is_empty():
        raise SkaldError("no destination or Building is held by 10 or more seats in one run")
    top = held.sort("ci_low", descending=True).row(0, named=True)
    above = held.filter(pl.col("ci_low") > pl.col("expected")).height
    reading = (
        f"{top['kind'].capitalize()} {top['card']} ({top['expansion']}, {top['players']} players) has "
        f"the best record: its holders win {pct(top['win_rate'])} "
        f"{interval(top['ci_low'], top['ci_high'], as_pct=True)} of {top['held']:,} games against a "
        f"base rate of {pct(top['expected'])}; {above} of {held.height} cards' intervals lie wholly "
        "above the base rate."
    )
    # the chart: per player count, the 8 cards held most often (all runs together), base before skáli
    most = (
        held.group_by("players", "card")
        .agg(pl.col("held").sum().alias("_n"))
        .sort("players", "_n", "card", descending=[False, True, False])
        .group_by("players", maintain_order=True)
        .head(8)
    )
    shown = (
        held.join(most.select("players", "card"), on=["players", "card"])
        .sort("expansion", "players", "card")
        .with_columns(
            (pl.col("win_rate") * 100).alias("mean"),
            (pl.col("ci_low") * 100).alias("low"),
            (pl.col("ci_high") * 100).alias("high"),
        )
    )
    return Section(
        "knarr-holdings",
        "Knarr destinations and Buildings",
        "Does holding a particular destination or Building go with winning?",
        reading,
        charts=[
            Chart(
                "knarr-holdings",
                charts.png(
                    charts.grouped_means(
                        shown,
                        "card",
                        "expansion",
                        "win rate when held (%)",
                        "Win rate when held, the 8 most held cards (95% Wilson intervals)",
                    )
                ),
                "Knarr win rate when a destination or Building is held",
            )
        ],
        tables=[
            table(
                "Win rate when held",
                held.sort("players", "expansion", "kind", "win_rate", descending=[False, False, False, True]),
                [
                    *run_columns(held),
                    ("kind", col("kind")),
                    ("card", col("card")),
                    ("seats holding it", col("held")),
                    ("win rate when held", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    ("base rate", col("expected", pct)),
                ],
            )
        ],
        notes=[
            "Destinations (D<id><deck>) come from explore turns, Buildings (B<id>, expansion only) from "
            "develop turns; neither is ever lost, so explored means held at the end. Cards held by fewer "
            "than 10 seats in a run are left out. Holding a card is not chosen at random, so a high rate "
            "is an association, not proof that the card is strong."
        ],
    )


def knarr_raid_section(k: Runs) -> Section:
    freq = knarr.raid_frequency(k)
    favour = knarr.raid_favour(k)
    if freq.is_empty() or favour.is_empty():
        raise SkaldError("the expansion runs have no raid records (seats column raids_in_game)")
    f = freq.sort("games", descending=True).row(0, named=True)
    part = favour.filter(pl.col("run") == f["run"])
    up = part.filter(pl.col("raid_net") > 0)
    down = part.filter(pl.col("raid_net") < 0)

    def rate(frame: pl.DataFrame) -> float:
        return float(frame["wins"].sum() / frame["seats"].sum()) if frame.height else math.nan

    reading = (
        f"In {f['games']:,} {players_words(f['players'])} expansion games raids fire "
        f"{f['raids_per_game']:.1f} times a game ({pct(f['share_with_raid'], 0)} of games have one); "
        f"seats that won more raids than they lost win {pct(rate(up))} of the time, seats that lost "
        f"more {pct(rate(down))}."
    )
    return Section(
        "knarr-raids",
        "Knarr raids",
        "How often do raids fire in the expansion, and whom do they favour?",
        reading,
        charts=[
            Chart(
                "knarr-raids",
                charts.png(
                    charts.grouped_means(
                        favour.with_columns(
                            (pl.col("win_rate") * 100).alias("mean"),
                            (pl.col("ci_low") * 100).alias("low"),
                            (pl.col("ci_high") * 100).alias("high"),
                        ),
                        "raid_net",
                        "mix",
                        "win rate (%)",
                        "Win rate by raids won minus lost (95% Wilson intervals)",
                    )
                ),
                "Knarr win rate by raids won minus raids lost",
            )
        ],
        tables=[
            table(
                "Raid frequency",
                freq,
                [
                    *run_columns(freq),
                    ("strategy mix", col("mix")),
                    ("games", col("games")),
                    ("raids per game", col("raids_per_game")),
                    ("games with a raid", col("share_with_raid", pct)),
                ],
            ),
            table(
                "Win rate by raids won minus lost",
                favour,
                [
                    *run_columns(favour),
                    ("raids won - lost", col("raid_net")),
                    ("seats", col("seats")),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                ],
            ),
        ],
        notes=["Raids won minus lost is clipped to -3..3; a seat's count covers the whole game."],
    )


def knarr_sections(runs: Runs) -> list[Section]:
    """Seat advantage, score spreads, destinations and Buildings held, raids; only with Knarr records."""
    k = runs.only(game=knarr.GAME)
    if not len(k):
        return []
    parts: list[tuple[Callable[[Runs], Section], str, str, str]] = [
        (
            knarr_seat_section,
            "knarr-seats",
            "Knarr seat advantage",
            "Does the seat change your chance to win?",
        ),
        (knarr_score_section, "knarr-scores", "Knarr score spreads", "How far apart are Knarr scores?"),
        (
            knarr_holdings_section,
            "knarr-holdings",
            "Knarr destinations and Buildings",
            "Does holding a card go with winning?",
        ),
    ]
    if any(knarr.has_expansion(r) for r in k):
        parts.append((knarr_raid_section, "knarr-raids", "Knarr raids", "How often do raids fire?"))
    sections = []
    for build, sid, title, question in parts:
        try:
            sections.append(build(k))
        except Exception as exc:  # a reshaped column: say so, keep the rest
            sections.append(unavailable(sid, title, question, exc))
    return sections

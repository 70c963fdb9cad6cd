"""Report sections on Knarr: seat advantage under the round-completion rule, score spreads with and
without the skáli/raid expansion, what the winners hold, and raids."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import polars as pl

from analysis.data.runs import Runs
from analysis.games.knarr import questions as knarr
from analysis.present import charts
from analysis.present.blocks import (
    Chart,
    Section,
    Table,
    balance_findings,
    col,
    correction_words,
    guarded_sections,
    interval,
    num,
    p_is,
    pct,
    players_words,
    pval,
    seat_test_words,
    tests_table,
    variant_column,
)
from analysis.present.findings import Finding, from_frame
from analysis.present.tables import (
    Spec,
    bounds,
    findings_for,
    mean_columns,
    mean_interval,
    sample_columns,
    share_interval,
    stats_table,
    win_rate_columns,
)
from analysis.questions import balance
from sim.errors import SkaldError

# --------------------------------------------------------------------------- Knarr

KEYS = ("players", "variant", "mix")


def run_columns(frame: pl.DataFrame) -> list[Spec]:
    return [
        "players",
        "expansion",
        *variant_column(frame),
        ("strategy mix", "mix"),
    ]


def _groups_words(row: dict) -> str:
    """``three-player skáli game (greedy + random + random)``, with the variant where it says more than
    the expansion."""
    variant = (
        "" if row["variant"] in ("defaults", f"{knarr.EXPANSION_SWITCH}=true") else f", {row['variant']}"
    )
    return f"{players_words(row['players'])} {row['expansion']} game ({row['mix']}{variant})"


SEAT_NOTE = (
    "The game ends when the round in which someone reaches 40 points is complete, so every seat has "
    "had as many turns; ties split the win. Seats rotate between games (strategies move with them). "
    "Rates and scores count decided games (truncated and errored games have no winner and are left "
    "out, counted in the table), per player count, variant and strategy mix (never pooled). The "
    "independent unit is the block (one deal replayed under every seat shift): intervals are "
    "Wilson's at the blocks' effective size (scores: t on blocks - 1 df), the design-aware p is the "
    "Rao-Scott corrected chi-square on the blocks, and the verdict counts groups whose Holm-adjusted "
    "p over the table's groups is below 5%; a seat's own interval is not a verdict (the largest of "
    "several rates lies outside its interval by chance more often than 5%). This is Knarr's only "
    "seat section: the report's general seat balance section leaves Knarr out. Balance = 1 - the "
    "largest gap between two seats' win rates (1 = even)."
)
SCORE_NOTE = (
    "Every estimate is per player count, variant and strategy mix (never pooled across them), over "
    "decided games. Intervals are 95% t intervals on blocks - 1 degrees of freedom from the blocks' "
    "totals (one deal replayed under every seat shift is one block). The expansion's effect pairs "
    "the two variants' blocks where they share their deals (same seed and seats), else it is a "
    "cluster-robust difference. Game length is the last round played."
)
HOLDINGS_NOTE = (
    "Destinations (D<id><deck>) come from explore turns, Buildings (B<id>, expansion only) from "
    "develop turns; neither is ever lost, so explored means held at the end. Decided games only, per "
    "player count, variant and strategy mix; cards held by fewer than 10 seats in a group are left "
    "out. A strong strategy holds more cards and wins more, so the base rate is not 1/players: the "
    "expected rate is the mean over the card's holders of their own strategy's win rate in the "
    "group (a residual comparison; a logistic model would say the same to first order and needs no "
    "fit). The test permutes who holds the card among the seats of the holders' strategies: whole "
    "blocks (one deal replayed under every seat shift, the independent unit) change places, and so do "
    "a block's games, so the p value is valid however few the holders (9,999 draws, seeded from the "
    "records); the interval is that test inverted. The verdict corrects over every card in the table by "
    "Benjamini-Hochberg (a false discovery rate of 5%); the intervals are not corrected. Holding a "
    "card is not chosen at random, so even a corrected difference is an association, not proof "
    "that the card is strong."
)
RAID_NOTE = (
    "Raids won minus lost is clipped to -3..3; a seat's count covers the whole game. Decided games "
    "only, per player count, variant and strategy mix; intervals are clustered on blocks (one deal "
    "replayed under every seat shift). Raids won go with winning in part because strong play wins "
    "both: these rates are associations."
)


# --------------------------------------------------------------------------- seats


def _seat_verdict(tests: pl.DataFrame) -> str:
    """The groups whose seats differ after Holm's correction, the clearest named; else the lowest p."""
    low = tests.sort("p_value", "players", "variant", "mix").row(0, named=True)
    significant = tests.filter(pl.col("p_adjusted") < 0.05).sort("p_adjusted", "players", "variant", "mix")
    if significant.height:
        s = significant.row(0, named=True)
        return (
            f"The seats differ by more than chance in {significant.height} of {tests.height} group"
            f"{'s' if tests.height != 1 else ''} ({correction_words(s)}); the clearest is the "
            f"{players_words(s['players'])} {s['variant']} group ({s['mix']}), where seat {s['best']} wins "
            f"{pct(s['best_rate'])} and seat {s['worst']} {pct(s['worst_rate'])} of {s['decided']:,} decided "
            f"games: {seat_test_words(s, 'seat')}."
        )
    return (
        f"No group of {tests.height} shows a seat advantage beyond chance ({correction_words(low)}). "
        f"The lowest p is in the {players_words(low['players'])} {low['variant']} group ({low['mix']}, "
        f"{low['decided']:,} decided games, seat {low['best']} {pct(low['best_rate'])} against "
        f"{pct(1 / low['players'])} for equal chances): {seat_test_words(low, 'seat')}."
    )


def _seat_findings(tests: pl.DataFrame, rates: pl.DataFrame) -> list[Finding]:
    return balance_findings("knarr-seats", tests, rates, "seat", "seat") + from_frame(
        rates,
        section="knarr-seats",
        metric="mean score",
        groups=(*KEYS, "seat"),
        **bounds("mean_score", "score_low", "score_high"),
        games="games",
        clusters="blocks",
        unit="points",
        excluded="excluded",
        game=knarr.GAME,
    )


def _seat_chart(rates: pl.DataFrame) -> Chart:
    return Chart(
        "knarr-seats",
        charts.png(
            charts.win_rates(
                rates.with_columns(pl.format("{} ({})", "variant", "mix").alias("variant")),
                "seat",
                "Knarr win rate by seat (95% intervals clustered on blocks)",
            )
        ),
        "Knarr win rate by seat with 95% intervals",
    )


def knarr_seat_section(runs: Runs) -> Section:
    """Knarr's only seat section: win rate by seat per group
    (``analysis.games.knarr.questions.seat_advantage``) and the design-aware tests of equal chances
    (``balance.balance_tests``) on the same records; the verdict is Holm's over the groups (no seat is said to
    have an edge from the largest of several rates); the generic seat-balance section leaves Knarr out
    (``OWN_SEAT_SECTIONS``)."""
    rates = knarr.seat_advantage(runs)
    tests = balance.balance_tests(runs)
    return Section(
        "knarr-seats",
        "Knarr seat advantage",
        "With the round completed after the 40-point trigger, does the seat you play from change your chance "
        "to win?",
        _seat_verdict(tests),
        charts=[_seat_chart(rates)],
        tables=[
            stats_table(
                "Win rate and mean score by seat",
                rates,
                [
                    *run_columns(rates),
                    "seat",
                    *sample_columns(),
                    *win_rate_columns(col("wins")),
                    *mean_columns(
                        "mean_score",
                        "score_low",
                        "score_high",
                        header="mean score",
                        interval_header="95% interval of the score",
                    ),
                ],
            ),
            tests_table(
                "Tests of equal seat chances, Balance and first-seat advantage", tests, "seat", ties=True
            ),
        ],
        findings=_seat_findings(tests, rates),
        notes=[SEAT_NOTE],
    )


# --------------------------------------------------------------------------- scores


def _score_reading(spread: pl.DataFrame, effect: pl.DataFrame) -> str:
    """The winner's margin per group, and what the expansion does to it."""
    margin = spread.filter(pl.col("measure") == "first_minus_second").sort(
        "players", "expansion", "variant", "mix"
    )
    words = "; ".join(
        f"{num(r['mean'], 1)} points {interval(r['low'], r['high'])} in the {_groups_words(r)}"
        for r in margin.iter_rows(named=True)
    )
    reading = f"The winner beats the runner-up by {words}."
    for e in effect.iter_rows(named=True):
        more = "wider" if e["diff"] > 0 else "narrower"
        reading += (
            f" In the {players_words(e['players'])} game ({e['mix']}) the expansion ({e['variant']}) "
            f"makes the margin {num(abs(e['diff']), 1)} points {more} "
            f"{interval(e['diff_low'], e['diff_high'])} "
            f"({e['test']} on {e['blocks']:,} blocks, {p_is(e['p_value'])})"
            + (", more than chance." if e["p_value"] < 0.05 else ", within chance.")
        )
    return reading


def _score_findings(spread: pl.DataFrame, effect: pl.DataFrame) -> list[Finding]:
    found = findings_for(
        section="knarr-scores", groups=KEYS, games="games", clusters="blocks", game=knarr.GAME
    )
    findings = []
    for m, label in knarr.MEASURES.items():
        findings += found(
            spread.filter(pl.col("measure") == m),
            metric=label,
            estimate="mean",
            low="low",
            high="high",
            unit="rounds" if m == "rounds" else "points",
            excluded="excluded",
        )
    if effect.height:
        findings += found(
            effect,
            metric="winner's margin difference (expansion - base)",
            estimate="diff",
            low="diff_low",
            high="diff_high",
            p_value="p_value",
            test="test",
            unit="points",
            expected=0.0,
        )
    return findings


def _score_chart(spread: pl.DataFrame) -> Chart:
    chart = spread.filter(pl.col("measure") != "rounds").with_columns(
        pl.format("{}p {}", "players", "expansion").alias("group")
    )
    return Chart(
        "knarr-scores",
        charts.png(
            charts.grouped_means(
                chart.rename({"label": "spread"}),
                "spread",
                "group",
                "points",
                "Knarr score spreads per player count (mean, 95% interval clustered on blocks)",
            )
        ),
        "Knarr score spreads with and without the expansion",
    )


def _effect_table(effect: pl.DataFrame) -> Table:
    return stats_table(
        "The expansion's effect on the winner's margin (expansion - base)",
        effect,
        [
            "players",
            ("strategy mix", "mix"),
            "variant",
            ("base", col("base", lambda x: num(x, 1))),
            ("expansion", col("value", lambda x: num(x, 1))),
            *mean_columns("diff", "diff_low", "diff_high", header="difference"),
            ("p", col("p_value", pval)),
            "test",
            "games",
            "blocks",
        ],
    )


def knarr_score_section(runs: Runs) -> Section:
    """Score spreads and game length per group, and the expansion's effect on the winner's margin."""
    spread = knarr.score_spread(runs)
    effect = knarr.expansion_effect(runs)
    spreads = stats_table(
        "Score spreads and game length per game",
        spread,
        [*run_columns(spread), ("measure", "label"), *sample_columns(), *mean_columns()],
    )
    return Section(
        "knarr-scores",
        "Knarr score spreads",
        "How far apart are Knarr scores, with and without the skáli/raid expansion?",
        _score_reading(spread, effect),
        charts=[_score_chart(spread)],
        tables=[spreads, *([_effect_table(effect)] if effect.height else [])],
        findings=_score_findings(spread, effect),
        notes=[SCORE_NOTE],
    )


# --------------------------------------------------------------------------- holdings


def _holdings_verdict(held: pl.DataFrame) -> str:
    """The cards that go with winning after Benjamini-Hochberg's correction, and what the sample could
    detect."""
    family = int(held["family"][0])
    found = held.filter(pl.col("p_adjusted") < 0.05).sort("p_adjusted", "card")
    above = found.filter(pl.col("diff") > 0).height
    detect = held["detectable"].median()  # null where no card's holders could be compared
    if found.height:
        t = found.row(0, named=True)
        verdict = (
            f"{found.height} of {family} cards go with winning more or less than their holders' strategies "
            f"predict ({above} more, {found.height - above} less; Benjamini-Hochberg over the {family} "
            f"cards, false discovery rate 5%). The clearest is {t['kind']} {t['card']} in the "
            f"{_groups_words(t)}: its holders win {pct(t['win_rate'])} of {t['held']:,} games against "
            f"{pct(t['expected'])} expected "
            f"from their strategies, {100 * t['diff']:+.1f} points "
            f"{interval(t['diff_low'], t['diff_high'], as_pct=True)} ({p_is(t['p_value'])}, adjusted "
            f"{p_is(t['p_adjusted'])})."
        )
    else:
        raw = held.filter(pl.col("p_value") < 0.05).height
        verdict = (
            f"No card goes with winning beyond what its holders' strategies predict: none of {family} "
            f"tests survives Benjamini-Hochberg's correction over the cards ({raw} would at an uncorrected "
            f"5%, where chance alone gives about {0.05 * family:.0f})."
        )
    if detect is None:
        return verdict
    detectable = float(cast(float, detect))  # the median of a float column
    return verdict + (
        f" The sample could not detect smaller effects: a card's holders would have to win about "
        f"{100 * detectable:.0f} points more or less than expected (the median over the cards) for one "
        "test to find it with 80% power, and more after the correction."
    )


def _holdings_findings(held: pl.DataFrame) -> list[Finding]:
    found = findings_for(
        section="knarr-holdings",
        groups=(*KEYS, "kind", "card"),
        games="held",
        clusters="blocks",
        game=knarr.GAME,
    )
    return found(
        held,
        metric="win rate when held minus strategy-expected",
        estimate="diff",
        low="diff_low",
        high="diff_high",
        p_value="p_value",
        p_adjusted="p_adjusted",
        test="test",
        correction="correction",
        family="family",
        unit="difference",
        expected=0.0,
        detectable="detectable",
    ) + found(held, metric="win rate when held", estimate="win_rate", unit="share", expected="expected")


def _holdings_chart(held: pl.DataFrame) -> Chart:
    """Per player count, the 8 cards held most often, held minus expected."""
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
            pl.format("{}p {}", "players", "expansion").alias("group"),
            (pl.col("diff") * 100).alias("mean"),
            (pl.col("diff_low") * 100).fill_null(float("nan")).alias("low"),
            (pl.col("diff_high") * 100).fill_null(float("nan")).alias("high"),
        )
    )
    return Chart(
        "knarr-holdings",
        charts.png(
            charts.grouped_means(
                shown,
                "card",
                "group",
                "win rate when held minus expected (points)",
                "Held minus strategy-expected win rate, the 8 most held cards (95% intervals, uncorrected)",
            )
        ),
        "Knarr win rate when a destination or Building is held, minus its holders' strategies' rate",
    )


def _points(x: float | None) -> str:
    """A share as whole points, "-" where there is none."""
    return "-" if x is None else f"{100 * x:.0f}"


def _holdings_table(held: pl.DataFrame) -> Table:
    return stats_table(
        "Win rate when held against the holders' strategies",
        held,
        [
            *run_columns(held),
            "kind",
            "card",
            ("seats holding it", "held"),
            "blocks",
            ("win rate when held", col("win_rate", pct)),
            ("expected from the holders' strategies", col("expected", pct)),
            ("difference (pp)", col("diff", lambda x: f"{100 * x:+.1f}")),
            share_interval("diff_low", "diff_high"),
            ("p", col("p_value", pval)),
            ("Benjamini-Hochberg p", col("p_adjusted", pval)),
            ("detectable (pp, 80% power)", col("detectable", _points)),
            ("equal chances", col("even", pct)),
        ],
    )


def knarr_holdings_section(runs: Runs) -> Section:
    """Whether holding a destination or Building goes with winning, beyond the holders' strategies."""
    held = knarr.holdings(runs)
    if held.is_empty():
        raise SkaldError("no destination or Building is held by 10 or more seats in one group")
    return Section(
        "knarr-holdings",
        "Knarr destinations and Buildings",
        "Does holding a particular destination or Building go with winning, beyond what the holders' "
        "strategies predict?",
        _holdings_verdict(held),
        charts=[_holdings_chart(held)],
        tables=[_holdings_table(held)],
        findings=_holdings_findings(held),
        notes=[HOLDINGS_NOTE],
    )


# --------------------------------------------------------------------------- raids


def _raid_reading(freq: pl.DataFrame, sides: pl.DataFrame) -> str:
    """Per group, how often raids fire and how seats that won or lost more raids fare."""
    parts = []
    for f in freq.iter_rows(named=True):
        side = {
            r["raid_side"]: r
            for r in sides.filter(pl.all_horizontal([pl.col(c) == f[c] for c in KEYS])).iter_rows(named=True)
        }

        def rate(name: str, side: dict = side) -> str:
            r = side.get(name)
            return (
                "-"
                if r is None
                else f"{pct(r['win_rate'])} {interval(r['ci_low'], r['ci_high'], as_pct=True)}"
            )

        parts.append(
            f"in {f['games']:,} decided games of the {_groups_words(f)} raids fire "
            f"{num(f['raids_per_game'], 1)} {interval(f['raids_low'], f['raids_high'])} times a game "
            f"({pct(f['share_with_raid'], 0)} of games have one); seats that won more raids than they lost "
            f"win {rate('won more')}, seats that lost more {rate('lost more')}"
        )
    reading = "; ".join(parts)
    return reading[0].upper() + reading[1:] + " (95% intervals clustered on blocks)."


def _raid_findings(freq: pl.DataFrame, favour: pl.DataFrame, sides: pl.DataFrame) -> list[Finding]:
    found = findings_for(section="knarr-raids", clusters="blocks", excluded="excluded", game=knarr.GAME)
    rates = {"estimate": "win_rate", "low": "ci_low", "high": "ci_high", "games": "seats", "unit": "share"}
    return (
        found(
            freq, metric="raids per game", groups=KEYS, estimate="raids_per_game", low="raids_low",
            high="raids_high", games="games", unit="count",
        )
        + found(
            freq, metric="games with a raid", groups=KEYS, estimate="share_with_raid", low="share_low",
            high="share_high", games="games", unit="share",
        )
        + found(sides, metric="win rate by raid balance", groups=(*KEYS, "raid_side"), **rates)
        + found(favour, metric="win rate by raids won minus lost", groups=(*KEYS, "raid_net"), **rates)
    )  # fmt: skip


def _raid_chart(favour: pl.DataFrame) -> Chart:
    return Chart(
        "knarr-raids",
        charts.png(
            charts.grouped_means(
                favour.with_columns(
                    (pl.col("win_rate") * 100).alias("mean"),
                    (pl.col("ci_low") * 100).alias("low"),
                    (pl.col("ci_high") * 100).alias("high"),
                    pl.format("{}p {}", "players", "mix").alias("group"),
                ),
                "raid_net",
                "group",
                "win rate (%)",
                "Win rate by raids won minus lost (95% intervals clustered on blocks)",
            )
        ),
        "Knarr win rate by raids won minus raids lost",
    )


def _raid_tables(freq: pl.DataFrame, favour: pl.DataFrame) -> list[Table]:
    return [
        stats_table(
            "Raid frequency",
            freq,
            [
                *run_columns(freq),
                *sample_columns(),
                ("raids per game", "raids_per_game"),
                mean_interval("raids_low", "raids_high", digits=2),
                ("games with a raid", col("share_with_raid", pct)),
                share_interval("share_low", "share_high", "95% interval "),
            ],
        ),
        stats_table(
            "Win rate by raids won minus lost",
            favour,
            [
                *run_columns(favour),
                ("raids won - lost", "raid_net"),
                "seats",
                "blocks",
                *win_rate_columns(expected=False),
            ],
        ),
    ]


def knarr_raid_section(runs: Runs) -> Section:
    """How often raids fire in the expansion, and the win rate by raids won minus lost."""
    freq = knarr.raid_frequency(runs)
    favour = knarr.raid_favour(runs)
    sides = knarr.raid_favour(runs, "raid_side")
    if freq.is_empty() or favour.is_empty():
        raise SkaldError("the expansion runs have no raid records (seats column raids_in_game)")
    return Section(
        "knarr-raids",
        "Knarr raids",
        "How often do raids fire in the expansion, and whom do they favour?",
        _raid_reading(freq, sides),
        charts=[_raid_chart(favour)],
        tables=_raid_tables(freq, favour),
        findings=_raid_findings(freq, favour, sides),
        notes=[RAID_NOTE],
    )


def knarr_sections(runs: Runs) -> list[Section]:
    """Seat advantage, score spreads, destinations and Buildings held, raids; only with Knarr records."""
    knarr_runs = runs.only(game=knarr.GAME)
    if not len(knarr_runs):
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
    if any(knarr.has_expansion(r) for r in knarr_runs):
        parts.append((knarr_raid_section, "knarr-raids", "Knarr raids", "How often do raids fire?"))
    return guarded_sections(knarr_runs, parts)

"""The Greenland report's conversion section: converted against unconverted tribes within a
strategy, and the paired effect of letting any tribe convert."""

from __future__ import annotations

import math
from collections.abc import Callable

import polars as pl

from analysis.data.runs import Runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.common import (
    GAME,
    groups_of,
    rulebook,
    run_columns,
    variant_name,
)
from analysis.present import charts
from analysis.present.blocks import (
    Chart,
    Section,
    Table,
    col,
    interval,
    num,
    p_is,
    pct,
    players_words,
    pval,
)
from analysis.present.findings import Finding
from analysis.present.tables import findings_for, share_interval, stats_table


def _split_reading(split: pl.DataFrame) -> str:
    rule = rulebook(split)
    compared = rule.filter((pl.col("converted") > 0) & (pl.col("not_converted") > 0))
    # the headline: a strategy that wins at all, with the most seats in the smaller group
    both = compared.filter((pl.col("wins_conv") + pl.col("wins_not")) > 0)
    if not both.height:
        both = compared
    if not both.height:
        converting = rule.filter(pl.col("converted") > 0)["strategy"].unique().to_list()
        return (
            "No strategy both converted and stayed polytheist in the same run, so converted and unconverted "
            "tribes of one strategy cannot be compared"
            + (f" ({', '.join(sorted(converting))} converted)." if converting else " (no tribe converted).")
        )
    r = (
        both.with_columns(pl.min_horizontal("converted", "not_converted").alias("_n"))
        .sort(["_n", "run", "strategy"], descending=[True, False, False])
        .row(0, named=True)
    )
    higher = compared.filter(pl.col("diff") > 0).height
    verdict = (
        "a difference beyond chance"
        if r["p_value"] < 0.05
        else "no difference beyond chance at this sample size"
    )
    return (
        f"Under the rulebook's rule (convert only with no elders) {r['strategy']} converts in "
        f"{pct(r['converted_share'], 0)} of its {r['seats']:,} {players_words(r['players'])} games, in "
        f"generation {num(r['mean_converted_in'], 1)} on average; its converted tribes win "
        f"{pct(r['win_conv'])} against {pct(r['win_not'])} for its unconverted ones "
        f"({100 * r['diff']:+.1f} pp {interval(100 * r['diff_low'], 100 * r['diff_high'])}, "
        f"{p_is(r['p_value'])}: {verdict}) and survive {pct(r['surv_conv'])} against {pct(r['surv_not'])}"
        + (
            f"; converted tribes win more often in {higher} of the {compared.height} runs and strategies "
            "with both groups."
            if compared.height > 1
            else "."
        )
    )


def _variants_reading(paired: pl.DataFrame) -> str:
    if paired.is_empty():
        return (
            " No run with conversion=any paired with a rulebook run (same players, strategies and seed) is "
            "among these records."
        )
    every = paired.filter(pl.col("strategy") == "all")
    conv = every.filter(pl.col("metric") == "converted").sort("pairs", descending=True).row(0, named=True)
    run = conv["run"]
    score = every.filter((pl.col("run") == run) & (pl.col("metric") == "score")).row(0, named=True)
    surv = every.filter((pl.col("run") == run) & (pl.col("metric") == "survived")).row(0, named=True)
    wins = paired.filter(
        (pl.col("run") == run) & (pl.col("metric") == "win_share") & (pl.col("strategy") != "all")
    )
    text = (
        f" Letting any tribe convert (conversion=any, the same {conv['pairs'] // conv['players']:,} "
        f"{players_words(conv['players'])} deals) raises the share of tribes converting from "
        f"{pct(conv['base'], 0)} to {pct(conv['value'], 0)}; the mean score changes by "
        f"{score['diff']:+.1f} points {interval(score['diff_low'], score['diff_high'])} "
        f"({p_is(score['p_value'])}) "
        f"and survival by {100 * surv['diff']:+.1f} pp "
        f"{interval(100 * surv['diff_low'], 100 * surv['diff_high'])}"
    )
    if wins.height:
        w = wins.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
        text += (
            f"; the largest change in a strategy's win rate is {w['strategy']}'s, "
            f"{pct(w['base'])} to {pct(w['value'])} ({100 * w['diff']:+.1f} pp "
            f"{interval(100 * w['diff_low'], 100 * w['diff_high'])}, {p_is(w['p_value'])})"
        )
    return text + "."


CONVERSION_NOTE = (
    "Converted = the tribe flipped its placard to monotheism during the game (line 27; a monotheist "
    "scores iron and ivory instead of Trophies, ruling G15). Within a strategy the comparison is an "
    "association, not an effect: a tribe converts when its strategy judges it pays, and only a tribe "
    "alive and without elders may (the rulebook's rule). The paired comparison is an experiment: the "
    "conversion=any run plays the same deals (game seeds) with the switch flipped, and each seat is "
    "compared with itself (mean of the differences, t interval and test on the blocks' mean "
    "differences, a rotation block replaying one deal); games "
    "diverge from the first conversion on. Win shares sum to one a game, so the all-seats row has no "
    "win rate. Intervals of the within-strategy difference are Newcombe's, with a two-proportion z "
    "test."
)
#: the paired measures that are shares (the rest, the score, are points)
PROPORTIONS = ("converted", "win_share", "survived")


def _split_chart(split: pl.DataFrame) -> Chart:
    """Every panel holds both groups in the same order (a missing group is an empty bar), so the colours
    mean the same in every panel; the rulebook's runs only (under conversion=any every tribe converts)."""
    head = rulebook(split)
    bars = pl.concat(
        [
            head.select(
                "players",
                "strategy",
                pl.lit(label).alias("group"),
                *[
                    pl.when(pl.col(n) > 0).then(pl.col(c) * 100).otherwise(float("nan")).alias(name)
                    for c, name in ((rate, "mean"), (low, "low"), (high, "high"))
                ],
            )
            for n, label, rate, low, high in (
                ("converted", "converted", "win_conv", "conv_low", "conv_high"),
                ("not_converted", "not converted", "win_not", "not_low", "not_high"),
            )
        ]
    )
    return Chart(
        "greenland-conversion",
        charts.png(
            charts.grouped_means(
                bars,
                "strategy",
                "group",
                "win rate (%)",
                "Win rate of converted and unconverted tribes by strategy"
                f"{variant_name(head)} (95% Wilson intervals)",
            )
        ),
        "Greenland win rate of converted and unconverted tribes within each strategy",
    )


def _paired_chart(paired: pl.DataFrame) -> Chart:
    labels = {m: label for m, label in greenland.PAIRED_METRICS.items()}
    forest = paired.with_columns(
        pl.format(
            "{}: {}",
            "strategy",
            pl.col("metric").replace_strict(labels, return_dtype=pl.String),
        ).alias("metric")
    )
    return Chart(
        "greenland-conversion-any",
        charts.png(charts.effects(forest, {}, "conversion=any minus the rulebook, same deals")),
        "Greenland: the effect of letting any tribe convert, paired games",
    )


def _split_difference(r: dict) -> str:
    if r["diff"] is None or math.isnan(r["diff"]):
        return "-"
    return f"{100 * r['diff']:+.1f} pp " + interval(100 * r["diff_low"], 100 * r["diff_high"])


def _split_table(split: pl.DataFrame) -> Table:
    return stats_table(
        "Converted against unconverted tribes within a strategy",
        split,
        [
            *run_columns(split),
            "strategy",
            "seats",
            "converted",
            ("not converted", "not_converted"),
            ("generation converted (mean)", col("mean_converted_in", lambda x: num(x, 1))),
            ("win rate converted", col("win_conv", pct)),
            share_interval("conv_low", "conv_high"),
            ("win rate not", col("win_not", pct)),
            share_interval("not_low", "not_high", "95% interval "),
            ("difference [95%]", _split_difference),
            ("p", col("p_value", pval)),
            ("survival converted", col("surv_conv", pct)),
            ("survival not", col("surv_not", pct)),
            ("score converted", col("score_conv", lambda x: num(x, 1))),
            ("score not", col("score_not", lambda x: num(x, 1))),
        ],
    )


def _paired_value(key: str) -> Callable[[dict], str]:
    return lambda r: pct(r[key]) if r["metric"] in PROPORTIONS else num(r[key], 2)


def _paired_difference(r: dict) -> str:
    if r["metric"] in PROPORTIONS:
        return f"{100 * r['diff']:+.1f} pp " + interval(100 * r["diff_low"], 100 * r["diff_high"])
    return f"{r['diff']:+.2f} " + interval(r["diff_low"], r["diff_high"], digits=2)


def _paired_table(paired: pl.DataFrame) -> Table:
    return stats_table(
        "conversion=any against the rulebook (no elders), the same seats of the same deals",
        paired,
        [
            "players",
            ("strategy mix", "mix"),
            "strategy",
            ("measure", lambda r: greenland.PAIRED_METRICS[r["metric"]]),
            ("seat-games", "pairs"),
            ("rulebook", _paired_value("base")),
            ("any", _paired_value("value")),
            ("difference [95%]", _paired_difference),
            "blocks",
            ("paired t p (blocks)", col("p_value", pval)),
        ],
    )


def _conversion_findings(split: pl.DataFrame, paired: pl.DataFrame) -> list[Finding]:
    found = findings_for(section="greenland-conversion", game=GAME)
    keys = groups_of(split, "strategy")
    findings = found(
        split, metric="share converting", groups=keys, estimate="converted_share", games="seats", unit="share"
    )
    findings += found(
        split,
        metric="win rate, converted minus not converted",
        groups=keys,
        estimate="diff",
        low="diff_low",
        high="diff_high",
        p_value="p_value",
        test="Newcombe interval, two-proportion z on seat-games (an association)",
        games="seats",
        unit="difference",
        expected=0.0,
    )
    if paired.is_empty():
        return findings
    pair_keys = groups_of(paired.unique(["run", "strategy", "metric"]), "strategy")
    for (metric,), rows in paired.group_by("metric", maintain_order=True):
        findings += found(
            rows,
            metric=f"{greenland.PAIRED_METRICS[str(metric)]} change with conversion=any",
            groups=[k for k in pair_keys if k != "variant"],
            estimate="diff",
            low="diff_low",
            high="diff_high",
            p_value="p_value",
            test="paired t on block differences",
            games="pairs",
            clusters="blocks",
            unit="points" if metric == "score" else "difference",
            expected=0.0,
        )
    return findings


def conversion_section(runs: Runs) -> Section:
    """Whether converting to monotheism pays, within a strategy and when any tribe may convert."""
    split = greenland.conversion_split(runs)
    paired = greenland.conversion_variants(runs)
    figs, tables = [_split_chart(split)], [_split_table(split)]
    if not paired.is_empty():
        figs.append(_paired_chart(paired))
        tables.append(_paired_table(paired))
    return Section(
        "greenland-conversion",
        "Greenland conversion to monotheism",
        "Does converting to monotheism pay, within a strategy and when any tribe may convert?",
        _split_reading(split) + _variants_reading(paired),
        charts=figs,
        tables=tables,
        findings=_conversion_findings(split, paired),
        notes=[CONVERSION_NOTE],
    )

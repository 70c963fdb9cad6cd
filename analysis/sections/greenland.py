"""Report sections on Greenland (issue 7): win and survival rate per tribe (does the game agree with the
history, in which only the Thule survived?), the effect of converting to monotheism, score spreads, and
game length with how often and when tribes die out."""

from __future__ import annotations

import math
from collections.abc import Callable

import polars as pl

from analysis import charts, greenland
from analysis.findings import Finding, from_frame
from analysis.runs import Runs
from analysis.sections.blocks import (
    Chart,
    Section,
    col,
    interval,
    mix_words,
    num,
    p_is,
    pct,
    players_words,
    pval,
    table,
    unavailable,
    variant_column,
)

SPREADS = {
    "first_minus_second": "winner minus runner-up",
    "first_minus_last": "winner minus last",
    "winning_score": "winning score",
}
#: the same measures on a chart's axis, on two lines each: three panels side by side leave each tick
#: label little room, and one-line labels ran together ("over lastwin score")
SPREAD_AXIS = {
    "first_minus_second": "over\n2nd",
    "first_minus_last": "over\nlast",
    "winning_score": "winning\nscore",
}
RULEBOOK = "the rulebook's conversion rule"
GAME = greenland.GAME
KEYS = ("players", "variant", "mix")
TRIBE_TEST = "Wald chi-square given each game's seated tribes (Rao-Scott on blocks)"


def _groups(frame: pl.DataFrame, *extra: str) -> list[str]:
    """The groups that name a row of ``frame`` in its findings: players, variant, mix and ``extra``, and
    the run first where two runs share them."""
    keys = [k for k in (*KEYS, *extra) if k in frame.columns]
    if frame.height and bool(frame.select(keys).is_duplicated().any()):
        keys.insert(0, "run")
    return keys


def _rate_findings(
    frame: pl.DataFrame, sid: str, what: str, keys: list[str], *, games: str = "seats", suffix: str = ""
) -> list[Finding]:
    """``<what> win rate`` and ``<what> survival rate`` (with ``suffix``) of ``greenland.outcomes`` rows."""
    common = {
        "section": sid,
        "groups": keys,
        "games": games,
        "clusters": "blocks",
        "unit": "share",
        "game": GAME,
    }
    return from_frame(
        frame,
        metric=f"{what} win rate{suffix}",
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        expected="expected",
        **common,
    ) + from_frame(
        frame,
        metric=f"{what} survival rate{suffix}",
        estimate="survival_rate",
        low="surv_low",
        high="surv_high",
        **common,
    )


def _rulebook(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the runs with every switch at its default (else the rulebook's conversion rule, else
    all): the headline population of a reading."""
    if frame.is_empty():
        return frame
    for keep in (pl.col("variant") == "defaults", pl.col("conversion") == greenland.CONVERSION_TEXT):
        part = frame.filter(keep)
        if part.height:
            return part
    return frame


def _variant_name(frame: pl.DataFrame) -> str:
    variants = frame["variant"].unique().to_list()
    return "" if variants == ["defaults"] else f" ({', '.join(map(str, variants))})"


def _chart_tribes(frame: pl.DataFrame) -> pl.DataFrame:
    """Tribe names short enough for a chart's axis ("Sea Sámi" as "Sámi")."""
    return frame.with_columns(pl.col("tribe").str.replace("^Sea ", ""))


def _bars(frame: pl.DataFrame, group: str, series: str, order: list[str] | None = None) -> pl.DataFrame:
    """Every (players, ``group``, ``series``) combination of ``frame`` (mean, low, high), the series in one
    order in every panel (``order``, else "defaults" first), so that a colour means the same series
    everywhere; a missing combination is an empty bar."""
    repeated = frame.group_by("players", group, series).len()["len"].max()
    if "mix" in frame.columns and repeated is not None and int(repeated) > 1:  # several mixes: name them
        frame = frame.with_columns((pl.col(series) + ", " + mix_words(pl.col("mix"))).alias(series))
        order = None
    names = order or sorted(
        frame[series].unique().to_list(), key=lambda v: (not v.startswith("defaults"), str(v))
    )
    rank = {v: i for i, v in enumerate(names)}
    grid = (
        frame.select("players")
        .unique()
        .join(frame.select(group).unique(), how="cross")
        .join(pl.DataFrame({series: names}), how="cross")
    )
    out = grid.join(
        frame.select("players", group, series, "mean", "low", "high"),
        on=["players", group, series],
        how="left",
    )
    return (
        out.with_columns(pl.col(series).replace_strict(rank, return_dtype=pl.Int64).alias("_order"))
        .sort("players", "_order", group)
        .drop("_order")
        .with_columns(pl.col("mean", "low", "high").cast(pl.Float64).fill_null(float("nan")))
    )


def _columns(frame: pl.DataFrame) -> list[tuple[str, Callable[[dict], str]]]:
    return [("players", col("players")), *variant_column(frame)]


def _count_words(counts: list) -> str:
    return _count_words_values([str(c) for c in sorted(int(c) for c in counts)])


def _count_words_values(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _names(rows: list[dict]) -> str:
    names = [r["tribe"] for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------------- tribes


def _thule_sentence(v: dict, others: list[dict]) -> str:
    thule, best = v["thule"], v["best"]
    kind = v["verdict"]
    if kind == "no_thule":
        return "No Thule seats are among these games, so the history cannot be checked."
    if kind == "agrees":
        text = (
            "The game agrees with the history that the Thule are the best survivors: their interval lies "
            "above every other tribe's"
        )
    elif kind == "leans":
        overlap = [o for o in others if o["surv_high"] >= thule["surv_low"]]
        text = (
            "The Thule survive most often, as in the history, but their interval overlaps those of the "
            f"{_names(overlap)}, so the edge is not established at this sample size"
        )
    elif kind == "no_edge":
        text = (
            f"The game does not single out the Thule: the {best['tribe']} survive most often "
            f"({pct(best['survival_rate'])}) and the intervals overlap"
        )
    else:
        above = [o for o in others if o["surv_low"] > thule["surv_high"]]
        text = (
            f"The game disagrees with the history: the {_names(above)} survive more often than the Thule, "
            "beyond the intervals"
        )
    if v.get("others_low", 0) >= 0.5:
        text += "; and unlike the history, where they died out, the other tribes survive most games too"
    elif v.get("others_high", 1) < 0.5:
        text += "; and, as in the history, the other tribes die out in most games"
    return text + "."


def tribes_section(g: Runs, sid: str = "greenland-tribes") -> Section:
    rates = greenland.outcomes(g, "tribe")
    by_strategy = greenland.outcomes(g, "strategy")
    pooled = greenland.pooled_outcomes(g, "tribe")
    tests = greenland.tribe_tests(g)
    head = _rulebook(pooled)
    variant = head["variant"][0]
    head = head.filter(pl.col("variant") == variant)
    verdict = greenland.thule_verdict(head)
    thule = verdict["thule"]
    others = [r for r in head.to_dicts() if r["tribe"] != greenland.THULE]
    games = _rulebook(tests).filter(pl.col("variant") == variant)["games"].sum()
    first = head.row(0, named=True)
    tribes = _count_words(first["counts"].split(", "))
    if thule is not None:
        lead = (
            f"Over {games:,} games{_variant_name(head)} with {tribes} tribes, the Thule survive "
            f"{pct(thule['survival_rate'])} {interval(thule['surv_low'], thule['surv_high'], as_pct=True)} "
            f"of their {thule['seats']:,} games and win {pct(thule['win_rate'])} "
            f"{interval(thule['ci_low'], thule['ci_high'], as_pct=True)} (equal chances "
            f"{pct(thule['expected'])}); the other tribes survive {pct(verdict['others_low'])} to "
            f"{pct(verdict['others_high'])}. "
        )
    else:
        lead = f"Over {games:,} games{_variant_name(head)}: "
    reading = (
        lead
        + _thule_sentence(verdict, others)
        + " Given the tribes seated in each game, the test that every tribe survives equally often gives "
        f"{p_is(first['chi2_p'])} and the test that every tribe wins equally often (one winner per game) "
        f"{p_is(first['win_chi2_p'])}."
    )
    keys = _groups(tests)
    gaps = rates.group_by(keys).agg((pl.col("win_rate").max() - pl.col("win_rate").min()).alias("gap"))
    tested = tests.join(gaps, on=keys, how="left")
    test_fields = {"section": sid, "groups": keys, "games": "games", "clusters": "blocks", "test": TRIBE_TEST}
    found = from_frame(
        tested,
        metric="tribe equal chances",
        estimate="gap",
        p_value="win_chi2_p",
        unit="difference",
        expected=0.0,
        game=GAME,
        **test_fields,
    )
    found += from_frame(tested, metric="tribe survival test", p_value="surv_chi2_p", game=GAME, **test_fields)
    found += _rate_findings(rates, sid, "tribe", [*keys, "tribe"])
    found += _rate_findings(pooled, sid, "tribe", ["variant", "tribe"], suffix=", every player count")
    variants = pooled.unique("variant", keep="first", maintain_order=True)
    for metric, column in (
        ("tribe equal chances, every player count", "win_chi2_p"),
        ("tribe survival test, every player count", "surv_chi2_p"),
    ):
        found += from_frame(
            variants,
            section=sid,
            metric=metric,
            groups=["variant"],
            p_value=column,
            test=TRIBE_TEST,
            game=GAME,
        )
    found += _rate_findings(by_strategy, sid, "strategy", _groups(by_strategy, "strategy"))
    survival = rates.with_columns(
        (pl.col("survival_rate") * 100).alias("mean"),
        (pl.col("surv_low") * 100).alias("low"),
        (pl.col("surv_high") * 100).alias("high"),
    )
    rate_columns = [
        ("seats", col("seats")),
        ("wins", col("wins", lambda x: num(x, 1))),
        ("win rate", col("win_rate", pct)),
        ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
        ("equal chances", col("expected", pct)),
        ("survived", col("survivors")),
        ("survival rate", col("survival_rate", pct)),
        ("95% interval ", lambda r: interval(r["surv_low"], r["surv_high"], as_pct=True)),
        ("mean score", col("mean_score", lambda x: num(x, 1))),
    ]
    return Section(
        sid,
        "Greenland tribes: winning and surviving",
        "How often does each tribe win and survive? The history says only the Thule survived: does the "
        "game agree?",
        reading,
        charts=[
            Chart(
                "greenland-tribe-wins",
                charts.png(
                    charts.win_rates(
                        _chart_tribes(rates),
                        "tribe",
                        "Greenland win rate by tribe (95% intervals clustered on blocks)",
                    )
                ),
                "Greenland win rate by tribe with 95% intervals",
            ),
            Chart(
                "greenland-tribe-survival",
                charts.png(
                    charts.grouped_means(
                        _bars(_chart_tribes(survival), "tribe", "variant"),
                        "tribe",
                        "variant",
                        "survival rate (%)",
                        "Greenland survival rate by tribe (95% intervals clustered on blocks)",
                    )
                ),
                "Greenland survival rate by tribe with 95% intervals",
            ),
        ],
        tables=[
            table(
                "Win and survival rate by tribe, every player count together",
                pooled,
                [
                    ("variant", col("variant")),
                    ("tribes in play", col("counts")),
                    ("tribe", col("tribe")),
                    *rate_columns,
                ],
            ),
            table(
                "Win and survival rate by tribe and player count",
                rates,
                [*_columns(rates), ("strategy mix", col("mix")), ("tribe", col("tribe")), *rate_columns],
            ),
            table(
                "Do the tribes differ? Survival and wins given each game's seated tribes",
                tests,
                [
                    *_columns(tests),
                    ("strategy mix", col("mix")),
                    ("games", col("games")),
                    ("blocks", col("blocks")),
                    ("tribes", col("tribes")),
                    ("survival p", col("surv_chi2_p", pval)),
                    ("win p", col("win_chi2_p", pval)),
                ],
            ),
            table(
                "How the strategies fare: win and survival rate by strategy",
                by_strategy,
                [*_columns(by_strategy), ("strategy", col("strategy")), *rate_columns],
            ),
        ],
        findings=found,
        notes=[
            "Tribes are dealt to seats at random each game (line 13) while the strategies rotate through the "
            "seats, so every strategy plays every tribe about equally often. With 2 or 3 tribes the tribes "
            "in play are a random subset, so a tribe's seat count varies. Survival = the tribe is alive at "
            "the end; the sole remaining culture wins whatever the scores (line 5), and ties split the win. "
            "Intervals are Wilson's at the blocks' effective size (a rotation block replays one deal under "
            "every seat shift); the pooled rows add every player count together (equal chances is then the "
            "mean of 1/tribes). Each tribe is seated at most once a game, so the tests take each game's "
            "tribes as given: the win test one winner per game, each seat with chance 1/players; the "
            "survival test the game's survivors falling on a random set of its seats (a permutation among "
            "the seats of each game); each compares a tribe's wins or survivals with what its games give "
            "(a Wald chi-square, Rao-Scott corrected on the blocks). A 2×k table of seat-games would "
            "ignore that one game's outcomes go together. Truncated games are left out."
        ],
    )


# --------------------------------------------------------------------------- conversion


def _split_reading(split: pl.DataFrame) -> str:
    rule = _rulebook(split)
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


def conversion_section(g: Runs) -> Section:
    split = greenland.conversion_split(g)
    paired = greenland.conversion_variants(g)
    reading = _split_reading(split) + _variants_reading(paired)
    # every panel holds both groups in the same order (a missing group is an empty bar), so the colours
    # mean the same in every panel; the rulebook's runs only (under conversion=any every tribe converts)
    head = _rulebook(split)
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
    figs = [
        Chart(
            "greenland-conversion",
            charts.png(
                charts.grouped_means(
                    bars,
                    "strategy",
                    "group",
                    "win rate (%)",
                    "Win rate of converted and unconverted tribes by strategy"
                    f"{_variant_name(head)} (95% Wilson intervals)",
                )
            ),
            "Greenland win rate of converted and unconverted tribes within each strategy",
        )
    ]
    tables = [
        table(
            "Converted against unconverted tribes within a strategy",
            split,
            [
                *_columns(split),
                ("strategy", col("strategy")),
                ("seats", col("seats")),
                ("converted", col("converted")),
                ("not converted", col("not_converted")),
                ("generation converted (mean)", col("mean_converted_in", lambda x: num(x, 1))),
                ("win rate converted", col("win_conv", pct)),
                ("95% interval", lambda r: interval(r["conv_low"], r["conv_high"], as_pct=True)),
                ("win rate not", col("win_not", pct)),
                ("95% interval ", lambda r: interval(r["not_low"], r["not_high"], as_pct=True)),
                (
                    "difference [95%]",
                    lambda r: (
                        "-"
                        if r["diff"] is None or math.isnan(r["diff"])
                        else f"{100 * r['diff']:+.1f} pp "
                        + interval(100 * r["diff_low"], 100 * r["diff_high"])
                    ),
                ),
                ("p", col("p_value", pval)),
                ("survival converted", col("surv_conv", pct)),
                ("survival not", col("surv_not", pct)),
                ("score converted", col("score_conv", lambda x: num(x, 1))),
                ("score not", col("score_not", lambda x: num(x, 1))),
            ],
        )
    ]
    if not paired.is_empty():
        labels = {m: label for m, label in greenland.PAIRED_METRICS.items()}
        forest = paired.with_columns(
            pl.format(
                "{}: {}",
                "strategy",
                pl.col("metric").replace_strict(labels, return_dtype=pl.String),
            ).alias("metric")
        )
        figs.append(
            Chart(
                "greenland-conversion-any",
                charts.png(charts.effects(forest, {}, "conversion=any minus the rulebook, same deals")),
                "Greenland: the effect of letting any tribe convert, paired games",
            )
        )
        proportion = ("converted", "win_share", "survived")
        tables.append(
            table(
                "conversion=any against the rulebook (no elders), the same seats of the same deals",
                paired,
                [
                    ("players", col("players")),
                    ("strategy mix", col("mix")),
                    ("strategy", col("strategy")),
                    ("measure", lambda r: greenland.PAIRED_METRICS[r["metric"]]),
                    ("seat-games", col("pairs")),
                    (
                        "rulebook",
                        lambda r: pct(r["base"]) if r["metric"] in proportion else num(r["base"], 2),
                    ),
                    ("any", lambda r: pct(r["value"]) if r["metric"] in proportion else num(r["value"], 2)),
                    (
                        "difference [95%]",
                        lambda r: (
                            f"{100 * r['diff']:+.1f} pp "
                            + interval(100 * r["diff_low"], 100 * r["diff_high"])
                            if r["metric"] in proportion
                            else f"{r['diff']:+.2f} " + interval(r["diff_low"], r["diff_high"], digits=2)
                        ),
                    ),
                    ("blocks", col("blocks")),
                    ("paired t p (blocks)", col("p_value", pval)),
                ],
            )
        )
    keys = _groups(split, "strategy")
    found = from_frame(
        split,
        section="greenland-conversion",
        metric="share converting",
        groups=keys,
        estimate="converted_share",
        games="seats",
        unit="share",
        game=GAME,
    )
    found += from_frame(
        split,
        section="greenland-conversion",
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
        game=GAME,
    )
    if not paired.is_empty():
        pair_keys = _groups(paired.unique(["run", "strategy", "metric"]), "strategy")
        for (metric,), rows in paired.group_by("metric", maintain_order=True):
            found += from_frame(
                rows,
                section="greenland-conversion",
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
                game=GAME,
            )
    return Section(
        "greenland-conversion",
        "Greenland conversion to monotheism",
        "Does converting to monotheism pay, within a strategy and when any tribe may convert?",
        reading,
        charts=figs,
        tables=tables,
        findings=found,
        notes=[
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
        ],
    )


# --------------------------------------------------------------------------- scores


def scores_section(g: Runs) -> Section:
    spread = greenland.score_spread(g)
    by_tribe = greenland.tribe_scores(g)
    head = _rulebook(spread).sort("players")
    rows = head.to_dicts()
    counts = _count_words([r["players"] for r in rows])

    def each(m: str, with_interval: bool = False) -> str:
        return _count_words_values(
            [
                f"{r[f'{m}_mean']:.1f}"
                + (f" {interval(r[f'{m}_low'], r[f'{m}_high'])}" if with_interval else "")
                for r in rows
            ]
        )

    tribes = _rulebook(by_tribe)
    pooled = (
        tribes.group_by("tribe")
        .agg(((pl.col("mean") * pl.col("seats")).sum() / pl.col("seats").sum()).alias("mean"))
        .sort(["mean", "tribe"], descending=[True, False])
    )
    top, bottom = pooled.row(0, named=True), pooled.row(pooled.height - 1, named=True)
    reading = (
        f"With {counts} tribes{_variant_name(head)} the winner beats the runner-up by "
        f"{each('first_minus_second', True)} points on average and the last by {each('first_minus_last')}; "
        f"the winning score averages {each('winning_score')}. Among the tribes the {top['tribe']} score "
        f"most ({top['mean']:.1f} points on average) and the {bottom['tribe']} least ({bottom['mean']:.1f})."
    )
    long = pl.concat(
        [
            spread.select(
                "players",
                "variant",
                *(["mix"] if "mix" in spread.columns else []),
                pl.lit(label).alias("measure"),
                pl.col(f"{m}_mean").alias("mean"),
                pl.col(f"{m}_low").alias("low"),
                pl.col(f"{m}_high").alias("high"),
            )
            for m, label in SPREAD_AXIS.items()
        ]
    )
    boxes = _rulebook(greenland.seats(g))
    keys = _groups(spread)
    found = []
    for m, label in {**SPREADS, "mean_score": "mean score"}.items():
        found += from_frame(
            spread,
            section="greenland-scores",
            metric=label,
            groups=keys,
            estimate=f"{m}_mean",
            low=f"{m}_low",
            high=f"{m}_high",
            games="games",
            clusters="blocks",
            unit="points",
            game=GAME,
        )
    found += from_frame(
        by_tribe,
        section="greenland-scores",
        metric="tribe mean score",
        groups=_groups(by_tribe, "tribe"),
        estimate="mean",
        low="low",
        high="high",
        games="seats",
        clusters="blocks",
        unit="points",
        game=GAME,
    )
    return Section(
        "greenland-scores",
        "Greenland score spreads",
        "How far apart are Greenland scores, and does a tribe score more than the others?",
        reading,
        charts=[
            Chart(
                "greenland-spreads",
                charts.png(
                    charts.grouped_means(
                        _bars(long, "measure", "variant"),
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
                        _chart_tribes(boxes),
                        "tribe",
                        "score",
                        "final score (points)",
                        "Greenland final scores by tribe",
                    )
                ),
                "Greenland final scores by tribe",
            ),
        ],
        findings=found,
        tables=[
            table(
                "Score spreads per game (points)",
                spread,
                [
                    *_columns(spread),
                    ("strategy mix", col("mix")),
                    ("games", col("games")),
                    *[
                        (
                            f"{label} (mean [95%], sd)",
                            lambda r, m=m: (
                                f"{num(r[f'{m}_mean'], 1)} "
                                + interval(r[f"{m}_low"], r[f"{m}_high"])
                                + f", {num(r[f'{m}_sd'], 1)}"
                            ),
                        )
                        for m, label in {**SPREADS, "mean_score": "mean score"}.items()
                    ],
                ],
            ),
            table(
                "Mean score by tribe (points)",
                by_tribe,
                [
                    *_columns(by_tribe),
                    ("tribe", col("tribe")),
                    ("seats", col("seats")),
                    ("mean score", col("mean", lambda x: num(x, 1))),
                    ("95% interval", lambda r: interval(r["low"], r["high"])),
                ],
            ),
        ],
        notes=[
            "Score (ruling G18, reconstructed): living tribesmen plus Trophy VP for a polytheist, or iron "
            "and ivory for a monotheist; a tribe that died out scores what the scoring data give it (0 in "
            "the packaged data). The sole remaining culture wins whatever the scores, so a winner can score "
            "less than the runner-up. Intervals are 95% t intervals of the mean clustered on the blocks; box "
            "plots show quartiles, whiskers 5-95%, diamonds the mean."
        ],
    )


# --------------------------------------------------------------------------- length


def length_section(g: Runs) -> Section:
    length = greenland.game_length(g)
    by_tribe = greenland.deaths(g, "tribe")
    by_strategy = greenland.deaths(g, "strategy")
    timing = greenland.extinctions(g, "tribe")
    head = _rulebook(length).sort("players")
    rows = head.to_dicts()
    counts = _count_words([r["players"] for r in rows])
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
        + _count_words_values([f"{x:.1f} with {p} tribes" for p, x in first])
        + " on average"
        if first
        else ""
    )
    means = _count_words_values([f"{r['generations_mean']:.1f}" for r in rows])
    length_words = (
        f"every game lasts the full {high} generations"
        if low == high
        else f"games last {means} generations on average (range {low}-{high}) and "
        f"{_count_words_values(early)} end early with one tribe or none left"
    )
    tribes = _rulebook(by_tribe)
    pooled = (
        tribes.group_by("tribe")
        .agg(pl.col("died").sum(), pl.col("seats").sum())
        .with_columns((pl.col("died") / pl.col("seats")).alias("share"))
        .sort(["share", "tribe"], descending=[True, False])  # ties by name: the same pick every time
    )
    most = pooled.row(0, named=True)
    strategies = _rulebook(by_strategy)
    worst = (
        strategies.group_by("strategy")
        .agg(pl.col("died").sum(), pl.col("seats").sum())
        .with_columns((pl.col("died") / pl.col("seats")).alias("share"))
        .sort(["share", "strategy"], descending=[True, False])
        .row(0, named=True)
    )
    reading = (
        f"With {counts} tribes{_variant_name(head)} {length_words}. A tribe dies out in "
        f"{_count_words_values(died)} of the games{when}. The {most['tribe']} die out most often "
        f"({pct(most['share'])} of their {most['seats']:,} games), and of the strategies {worst['strategy']} "
        f"({pct(worst['share'])})."
    )
    # one curve per tribe and player count: the rulebook runs of a player count pooled (their seats
    # summed), and only the player counts in which some tribe died out (a flat 0% line says nothing)
    pooled = (
        _rulebook(timing)
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
    keys = _groups(length)
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
            groups=_groups(frame, what),
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
                        _rulebook(greenland.per_game(g)),
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
                        + (f" (no tribe died out at {_count_words(quiet)} tribes)" if quiet else ""),
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
                    *_columns(length),
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
                [*_columns(by_tribe), ("strategy mix", col("mix")), ("tribe", col("tribe")), *death_columns],
            ),
            table(
                "How often and when each strategy's tribe dies out",
                by_strategy,
                [*_columns(by_strategy), ("strategy", col("strategy")), *death_columns],
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


def greenland_sections(runs: Runs) -> list[Section]:
    """Tribes, conversion, score spreads, game length and extinctions; only with Greenland records."""
    g = runs.only(game=greenland.GAME)
    if not len(g):
        return []
    parts: list[tuple[Callable[[Runs], Section], str, str, str]] = [
        (
            tribes_section,
            "greenland-tribes",
            "Greenland tribes: winning and surviving",
            "How often does each tribe win and survive?",
        ),
        (
            conversion_section,
            "greenland-conversion",
            "Greenland conversion to monotheism",
            "Does converting to monotheism pay?",
        ),
        (
            scores_section,
            "greenland-scores",
            "Greenland score spreads",
            "How far apart are Greenland scores?",
        ),
        (
            length_section,
            "greenland-length",
            "Greenland game length and extinctions",
            "How long do games last, and how often do tribes die out?",
        ),
    ]
    sections = []
    for build, sid, title, question in parts:
        try:
            sections.append(build(g))
        except Exception as exc:
            sections.append(
                unavailable(sid, title, question, exc)
            )  # a reshaped column: say so, keep the rest
    return sections

"""The Greenland report's tribes section: win and survival rate per tribe, and whether the
game agrees with the history, in which only the Thule survived."""

from __future__ import annotations

import functools

import polars as pl

from analysis.data.runs import Runs
from analysis.games.greenland import questions as greenland
from analysis.games.greenland.common import (
    GAME,
    TRIBE_TEST,
    bars,
    chart_tribes,
    count_words,
    groups_of,
    names,
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
    fairness_findings,
    interval,
    num,
    p_is,
    pct,
    pval,
)
from analysis.present.findings import EQUAL_CHANCES, WIN_RATE, Finding, from_frame
from analysis.present.tables import Spec, findings_for, share_interval, stats_table, win_rate_columns
from analysis.questions.balance import seat_margin


def _rate_findings(
    frame: pl.DataFrame,
    sid: str,
    what: str,
    keys: list[str],
    *,
    games: str = "seats",
    suffix: str = "",
    position: bool = False,
) -> list[Finding]:
    """``<what> win rate`` and ``<what> survival rate`` (with ``suffix``) of ``greenland.outcomes`` rows;
    ``position``: the win rates are a position's (``what``) against the even share, for the verdict on
    the tribes' equal chances (question ``WIN_RATE``)."""
    rows = functools.partial(
        from_frame, frame, section=sid, groups=keys, games=games, clusters="blocks", unit="share", game=GAME
    )
    return rows(
        metric=f"{what} win rate{suffix}",
        question=WIN_RATE if position else None,
        subject=what if position else None,
        estimate="win_rate",
        low="ci_low",
        high="ci_high",
        expected="expected",
    ) + rows(
        metric=f"{what} survival rate{suffix}",
        estimate="survival_rate",
        low="surv_low",
        high="surv_high",
    )


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
            f"{names(overlap)}, so the edge is not established at this sample size"
        )
    elif kind == "no_edge":
        text = (
            f"The game does not single out the Thule: the {best['tribe']} survive most often "
            f"({pct(best['survival_rate'])}) and the intervals overlap"
        )
    else:
        above = [o for o in others if o["surv_low"] > thule["surv_high"]]
        text = (
            f"The game disagrees with the history: the {names(above)} survive more often than the Thule, "
            "beyond the intervals"
        )
    if v.get("others_low", 0) >= 0.5:
        text += "; and unlike the history, where they died out, the other tribes survive most games too"
    elif v.get("others_high", 1) < 0.5:
        text += "; and, as in the history, the other tribes die out in most games"
    return text + "."


TRIBES_NOTE = (
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
)


def decision_note(margin: float) -> str:
    """How the tribes are decided against ``margin`` (a share), in words."""
    m = f"{100 * margin:.4g}"
    return (
        f"Each run's tribes are also decided against a margin of {m} points of win share (skald report "
        "--margin), as the seats are: a tribe's share of all the games' wins against its even share, "
        "what its seats would win under equal chances (1/players of each game it is seated in; about a "
        "quarter for each of four tribes at every player count). Fair within the margin: every tribe's "
        "90% interval lies inside it (a two-one-sided test per tribe; intersection-union, so no "
        "correction is needed); unfair: Holm over the tribes rejects an even share for one (its "
        "simultaneous 95% interval is shown, and whether it lies beyond the margin); undecided: "
        "neither, with the widest 90% interval's half-width and about how many more games would decide "
        "it if the estimates held. Like the tests it takes each block's seated tribes as given (each "
        "block's wins against its seated tribes' even wins, the standard error from the block totals, "
        "a score test at the blocks' effective size with t on blocks - 1 degrees of freedom), so a "
        "tribe sitting out a deal adds nothing to its uncertainty."
    )


#: the columns of a win-and-survival row of ``greenland.outcomes``
RATE_COLUMNS: list[Spec] = [
    "seats",
    *win_rate_columns(col("wins", lambda x: num(x, 1))),
    ("survived", "survivors"),
    ("survival rate", col("survival_rate", pct)),
    share_interval("surv_low", "surv_high", "95% interval "),
    ("mean score", col("mean_score", lambda x: num(x, 1))),
]


def _tribes_reading(pooled: pl.DataFrame, tests: pl.DataFrame) -> str:
    """The Thule against the history in the headline population (the rulebook's runs), and the tests."""
    head = rulebook(pooled)
    variant = head["variant"][0]
    head = head.filter(pl.col("variant") == variant)
    verdict = greenland.thule_verdict(head)
    thule = verdict["thule"]
    others = [r for r in head.to_dicts() if r["tribe"] != greenland.THULE]
    games = rulebook(tests).filter(pl.col("variant") == variant)["games"].sum()
    first = head.row(0, named=True)
    tribes = count_words(first["counts"].split(", "))
    if thule is not None:
        lead = (
            f"Over {games:,} games{variant_name(head)} with {tribes} tribes, the Thule survive "
            f"{pct(thule['survival_rate'])} {interval(thule['surv_low'], thule['surv_high'], as_pct=True)} "
            f"of their {thule['seats']:,} games and win {pct(thule['win_rate'])} "
            f"{interval(thule['ci_low'], thule['ci_high'], as_pct=True)} (equal chances "
            f"{pct(thule['expected'])}); the other tribes survive {pct(verdict['others_low'])} to "
            f"{pct(verdict['others_high'])}. "
        )
    else:
        lead = f"Over {games:,} games{variant_name(head)}: "
    return (
        lead
        + _thule_sentence(verdict, others)
        + " Given the tribes seated in each game, the test that every tribe survives equally often gives "
        f"{p_is(first['chi2_p'])} and the test that every tribe wins equally often (one winner per game) "
        f"{p_is(first['win_chi2_p'])}."
        + _decisions_reading(rulebook(tests).filter(pl.col("variant") == variant))
    )


def _decision_words(row: dict) -> str:
    """One run's tribe decision in a few words, on the statistic it rests on."""
    m = f"{100 * row['margin']:.4g}"
    share = f"{pct(row['decisive_rate'])} {interval(row['decisive_low'], row['decisive_high'], as_pct=True)}"
    even = pct(row["decision_expected"])
    if row["decision"] == "fair":
        return (
            f"fair within {m} points (widest: the {row['decisive']} win {share} against an even {even}; "
            f"intersection-union {p_is(row['decision_p'])})"
        )
    if row["decision"] == "unfair":
        where = {True: "beyond", False: "inside"}.get(row["beyond_margin"], "not shown beyond")
        test = (
            f"Holm {p_is(row['decision_p'])}"
            if (row["decision_family"] or 1) > 1
            else p_is(row["decision_p"])
        )
        return (
            f"unfair: the {row['decisive']} win {share} against an even {even} ({test}), {where} the "
            f"{m}-point margin"
        )
    more = (
        f"about {row['games_needed']:,} more games would decide it"
        if row["games_needed"] is not None
        else "the estimates do not say how many more games would decide it"
    )
    return f"undecided at a {m}-point margin (shares known to ±{100 * row['half_width']:.1f} points; {more})"


def _decisions_reading(tests: pl.DataFrame) -> str:
    """The headline runs' tribe decisions against the margin, one clause per player count."""
    decided = [r for r in tests.sort("players").iter_rows(named=True) if r.get("decision") is not None]
    if not decided:
        return ""
    clauses = [f"at {r['players']} players, {_decision_words(r)}" for r in decided]
    return " The tribes decided against the margin: " + "; ".join(clauses) + "."


def _tribes_findings(
    sid: str, rates: pl.DataFrame, pooled: pl.DataFrame, tests: pl.DataFrame, by_strategy: pl.DataFrame
) -> list[Finding]:
    """The tests per group (the equal-chances estimate: the largest gap between two tribes' win rates),
    the rates per group and pooled, the pooled tests per variant, and the rates per strategy."""
    keys = groups_of(tests)
    gaps = rates.group_by(keys).agg((pl.col("win_rate").max() - pl.col("win_rate").min()).alias("gap"))
    tested = tests.join(gaps, on=keys, how="left")
    found = findings_for(section=sid, test=TRIBE_TEST, game=GAME)
    per_group = findings_for(
        section=sid, groups=keys, games="games", clusters="blocks", test=TRIBE_TEST, game=GAME
    )
    findings = per_group(
        tested,
        metric="tribe equal chances",
        question=EQUAL_CHANCES,
        subject="tribe",
        estimate="gap",
        p_value="win_chi2_p",
        unit="difference",
        expected=0.0,
    )
    findings += per_group(tested, metric="tribe survival test", p_value="surv_chi2_p")
    findings += fairness_findings(sid, _decided(tests), "tribe", keys)
    findings += _rate_findings(rates, sid, "tribe", [*keys, "tribe"], position=True)
    findings += _rate_findings(pooled, sid, "tribe", ["variant", "tribe"], suffix=", every player count")
    variants = pooled.unique("variant", keep="first", maintain_order=True)
    for metric, column in (
        ("tribe equal chances, every player count", "win_chi2_p"),
        ("tribe survival test, every player count", "surv_chi2_p"),
    ):
        findings += found(variants, metric=metric, groups=["variant"], p_value=column)
    return findings + _rate_findings(by_strategy, sid, "strategy", groups_of(by_strategy, "strategy"))


def _decided(tests: pl.DataFrame) -> pl.DataFrame:
    """``tribe_tests`` rows as ``blocks.fairness_findings`` reads them: the game, its decided games and
    the games left out (not counted here: ``seats`` drops the truncated ones before)."""
    return tests.with_columns(
        pl.lit(GAME).alias("game"), pl.col("games").alias("decided"), pl.lit(None).alias("excluded")
    )


def _tribes_charts(rates: pl.DataFrame) -> list[Chart]:
    survival = rates.with_columns(
        (pl.col("survival_rate") * 100).alias("mean"),
        (pl.col("surv_low") * 100).alias("low"),
        (pl.col("surv_high") * 100).alias("high"),
    )
    return [
        Chart(
            "greenland-tribe-wins",
            charts.png(
                charts.win_rates(
                    chart_tribes(rates),
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
                    bars(chart_tribes(survival), "tribe", "variant"),
                    "tribe",
                    "variant",
                    "survival rate (%)",
                    "Greenland survival rate by tribe (95% intervals clustered on blocks)",
                )
            ),
            "Greenland survival rate by tribe with 95% intervals",
        ),
    ]


def _decisive_share(row: dict) -> str:
    """The decisive tribe's share of the wins with the interval of the statistic its decision rests on."""
    if row.get("decision") is None:
        return "-"
    return f"{pct(row['decisive_rate'])} " + interval(row["decisive_low"], row["decisive_high"], as_pct=True)


def _tribes_tables(
    rates: pl.DataFrame, pooled: pl.DataFrame, tests: pl.DataFrame, by_strategy: pl.DataFrame
) -> list[Table]:
    return [
        stats_table(
            "Win and survival rate by tribe, every player count together",
            pooled,
            [
                "variant",
                ("tribes in play", "counts"),
                "tribe",
                *RATE_COLUMNS,
            ],
        ),
        stats_table(
            "Win and survival rate by tribe and player count",
            rates,
            [*run_columns(rates), ("strategy mix", "mix"), "tribe", *RATE_COLUMNS],
        ),
        stats_table(
            "Do the tribes differ? Survival and wins given each game's seated tribes, and the tribes "
            "decided against the margin",
            tests,
            [
                *run_columns(tests),
                ("strategy mix", "mix"),
                "games",
                "blocks",
                "tribes",
                ("survival p", col("surv_chi2_p", pval)),
                ("win p", col("win_chi2_p", pval)),
                ("margin (pp)", lambda r: "-" if r.get("margin") is None else f"{100 * r['margin']:.4g}"),
                ("decision", lambda r: r.get("decision") or "-"),
                ("decisive tribe", lambda r: r.get("decisive") or "-"),
                ("its share of the wins [interval]", _decisive_share),
                ("its even share", lambda r: pct(r.get("decision_expected"))),
                ("p (its statistic)", lambda r: pval(r.get("decision_p"))),
                (
                    "half-width (pp)",
                    lambda r: num(None if r.get("half_width") is None else 100 * r["half_width"], 1),
                ),
                ("more games to decide", lambda r: num(r.get("games_needed"))),
            ],
        ),
        stats_table(
            "How the strategies fare: win and survival rate by strategy",
            by_strategy,
            [*run_columns(by_strategy), "strategy", *RATE_COLUMNS],
        ),
    ]


def tribes_section(runs: Runs, sid: str = "greenland-tribes") -> Section:
    """How often each tribe wins and survives, and whether the game agrees with the history."""
    rates = greenland.outcomes(runs, "tribe")
    by_strategy = greenland.outcomes(runs, "strategy")
    pooled = greenland.pooled_outcomes(runs, "tribe")
    tests = greenland.tribe_tests(runs)
    return Section(
        sid,
        "Greenland tribes: winning and surviving",
        "How often does each tribe win and survive? The history says only the Thule survived: does the "
        "game agree?",
        _tribes_reading(pooled, tests),
        charts=_tribes_charts(rates),
        tables=_tribes_tables(rates, pooled, tests, by_strategy),
        findings=_tribes_findings(sid, rates, pooled, tests, by_strategy),
        notes=[TRIBES_NOTE, decision_note(seat_margin())],
    )

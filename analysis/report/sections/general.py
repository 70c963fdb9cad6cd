"""Report sections for any game: seat balance, strategy strength, score curves, rule variants and
the precision the game counts give."""

from __future__ import annotations

from typing import TypedDict, cast

import polars as pl

from analysis.data.runs import Runs
from analysis.present import charts
from analysis.present.blocks import (
    Chart,
    Section,
    Table,
    balance_findings,
    col,
    correction_words,
    fairness_change_findings,
    interval,
    num,
    p_is,
    pct,
    players_words,
    pval,
    seat_test_words,
    significant_groups,
    tests_table,
    variant_words,
)
from analysis.present.findings import Finding, from_frame
from analysis.present.tables import (
    change_reading,
    comparison_findings,
    findings_for,
    mean_columns,
    mean_interval,
    share_interval,
    stats_table,
    win_rate_columns,
)
from analysis.questions import balance, fairness_change, scores, strength
from analysis.report.sections import unfinished
from sim.games import GAMES

# --------------------------------------------------------------------------- sections


SEAT_NOTE = (
    "Win rates count decided games; "
    + balance.TIES_NOTE
    + ". Truncated and errored games have no winner and are left out (counted in the table). "
    "The independent unit is the block (one deal replayed under every seat shift with --seats "
    "rotate or exhaustive, else one game): intervals are Wilson's at the blocks' effective size, "
    "the design-aware p is the Rao-Scott corrected chi-square on the blocks (the plain chi-square "
    "where every block is one game), Holm-adjusted over the table's groups for the verdict; the "
    "plain chi-square and G p assume independent games. Balance = 1 - the largest gap between "
    "two win rates (1 = even); its interval holds the positions' intervals at a "
    "Bonferroni-adjusted level (simultaneous 95%, conservative). Even a perfectly fair game shows "
    "a Balance below 1 (about 0.87 at 4 players and 60 games, 0.95 at 400): the table gives what "
    "one would show at each group's size. Ludii's Balance is computed over rank utilities "
    "((u + 1) / 2, so a second place counts) rather than win shares: at 3 or more players the two "
    "differ. First-player advantage = first "
    "position's win rate - 1/players, in percentage points (pp). The decision is against the page's "
    "margin: fair where every position's 90% interval lies within the margin of even (intersection-"
    "union of one-sided tests), unfair where Holm over the positions rejects an even share, else "
    "undecided; the half-width is the widest 90% interval's, and the games to decide are about how "
    "many more would decide it if the estimates held."
)
RATINGS_NOTE = (
    "Ratings: Bradley-Terry by MM iterations on every pair of different strategies in each finished "
    "game (rank breaking; shared ranks count 1/2), intervals from 200 bootstrap resamples of whole "
    "games. 1500 is the geometric mean; +200 means finishing ahead about 76% of the time."
)


def _seat_reading(tests: pl.DataFrame, label: str) -> str:
    """The least even group in words, with its test, and how many groups differ."""
    worst = tests.sort("balance").row(0, named=True)
    significant = significant_groups(tests)
    verdict = (
        f"so the {label}s differ by more than chance"
        if worst["p_adjusted"] < 0.05
        else f"so the data do not show a {label} advantage at this sample size"
    )
    return (
        f"In {worst['decided']:,} decided {players_words(worst['players'])} games ({worst['game']}, "
        f"{worst['variant']}), {label} {worst['best']} won most often ({pct(worst['best_rate'])}) "
        f"and {label} {worst['worst']} least ({pct(worst['worst_rate'])}), a Balance of "
        f"{worst['balance']:.2f} {interval(worst['balance_low'], worst['balance_high'], digits=2)} (a"
        f" perfectly fair game would show about {worst['balance_fair']:.2f} at this size); "
        f"{seat_test_words(worst, label)}, {verdict}"
        + (
            f" ({significant} of {tests.height} groups differ at the 5% level, {correction_words(worst)})."
            if tests.height > 1
            else "."
        )
    )


def seat_section(
    runs: Runs, position: str = "seat", sid: str = "seat-balance", title: str = "Seat balance"
) -> Section:
    """Win rate by ``position`` and the design-aware tests of equal chances, Balance and first-player
    advantage (``balance.seat_balance``, ``balance.balance_tests``)."""
    rates = balance.seat_balance(runs, position=position)
    tests = balance.balance_tests(runs, position=position)
    label = position.replace("_", " ")
    chart = charts.win_rates(rates, position, f"Win rate by {label} (95% intervals clustered on blocks)")
    return Section(
        sid,
        title,
        f"Does the {label} you play from change your chance to win?",
        _seat_reading(tests, label),
        charts=[Chart(sid, charts.png(chart), f"Win rate by {label} with 95% intervals")],
        tables=[
            tests_table(
                "Tests of equal chances, Balance and first-player advantage",
                tests,
                label,
                by_game=True,
                ties=True,
            ),
            stats_table(
                f"Win rate by {label}",
                rates,
                [
                    "players",
                    "variant",
                    ("strategy mix", "mix"),
                    (label, col(position)),
                    "games",
                    *win_rate_columns(col("wins")),
                ],
            ),
        ],
        findings=balance_findings(sid, tests, rates, position, label),
        notes=[SEAT_NOTE],
    )


def pooled_words(runs: Runs, players: bool = True) -> str:
    """`` (pooled over 2, 3 and 4 players and 2 rule variants)`` where an estimate pools the runs' player
    counts or variants, else nothing: a title says what it pools."""
    counts = sorted({r.players for r in runs}) if players else []
    variants = sorted({r.variant for r in runs})
    parts = []
    if len(counts) > 1:
        parts.append(", ".join(map(str, counts[:-1])) + f" and {counts[-1]} players")
    if len(variants) > 1:
        parts.append(f"{len(variants)} rule variants")
    return f" (pooled over {' and '.join(parts)})" if parts else ""


def _strength_reading(rated: pl.DataFrame, h2h: pl.DataFrame, pooled: str) -> str:
    """The highest and lowest rated strategies, and how often the one finishes ahead of the other."""
    best = rated.row(0, named=True)
    worst = rated.row(rated.height - 1, named=True)
    pair = h2h.filter((pl.col("strategy") == best["strategy"]) & (pl.col("opponent") == worst["strategy"]))
    versus = (
        f", and finishes ahead of {worst['strategy']} in {pct(pair['rate'][0], 0)} of their meetings"
        if pair.height
        else ""
    )
    return (
        f"{best['strategy']} is rated highest{pooled} ({best['rating']:.0f} "
        f"{interval(best['rating_low'], best['rating_high'], digits=0)}) and {worst['strategy']} lowest "
        f"({worst['rating']:.0f} {interval(worst['rating_low'], worst['rating_high'], digits=0)}){versus}."
    )


def _strength_charts(rated: pl.DataFrame, h2h: pl.DataFrame, pooled: str) -> list[Chart]:
    """The ratings with their intervals, and one head-to-head matrix per game."""
    ratings = charts.ratings(rated, f"Bradley-Terry rating{pooled} (95% game-bootstrap intervals)")
    matrices = [
        Chart(
            f"head-to-head-{game}",
            charts.png(
                charts.head_to_head(
                    h2h.filter(pl.col("game") == game), f"{game}: row finishes ahead of column"
                )
            ),
            f"Head-to-head matrix, {game}",
        )
        for game in h2h["game"].unique(maintain_order=True).to_list()
    ]
    return [Chart("ratings", charts.png(ratings), "Ratings with intervals"), *matrices]


def _strength_tables(rated: pl.DataFrame, h2h: pl.DataFrame, pooled: str) -> list[Table]:
    return [
        stats_table(
            f"Bradley-Terry ratings (Elo scale){pooled}",
            rated,
            [
                "game",
                "strategy",
                ("rating", col("rating", lambda x: f"{x:.0f}")),
                mean_interval("rating_low", "rating_high", digits=0),
                "games",
                ("pairwise meetings", "meetings"),
            ],
        ),
        stats_table(
            "Head to head: strategy finishes ahead of opponent",
            h2h,
            [
                "game",
                "strategy",
                "opponent",
                "meetings",
                "ahead",
                ("rate", col("rate", pct)),
                share_interval(),
            ],
        ),
    ]


def _strength_findings(sid: str, rated: pl.DataFrame, h2h: pl.DataFrame) -> list[Finding]:
    found = findings_for(section=sid, low="ci_low", high="ci_high")
    return found(
        rated,
        metric="rating",
        groups=("strategy",),
        estimate="rating",
        low="rating_low",
        high="rating_high",
        games="games",
        unit="rating",
        expected=1500.0,
    ) + found(
        h2h,
        metric="finishes ahead",
        groups=("strategy", "opponent"),
        estimate="rate",
        games="meetings",
        unit="share",
        expected=0.5,
    )


def strength_section(runs: Runs, sid: str = "strength") -> Section:
    """Bradley-Terry ratings and the head-to-head matrix of one game's strategies; with a single
    strategy in every seat (a mirror match) there is nothing to rate, and the section says so."""
    h2h = strength.head_to_head(runs, ("game",))
    rated = strength.ratings(runs, ("game",))
    question = "Which strategy is strongest, and against whom?"
    if rated.height < 2:
        return Section(
            sid,
            "Strategy strength",
            question,
            "Every seat played the same strategy (a mirror match), so there is no strategy to compare: "
            "run two or more strategies to rate them.",
        )
    pooled = pooled_words(runs)
    return Section(
        sid,
        "Strategy strength",
        question,
        _strength_reading(rated, h2h, pooled),
        charts=_strength_charts(rated, h2h, pooled),
        tables=_strength_tables(rated, h2h, pooled),
        findings=_strength_findings(sid, rated, h2h),
        notes=[RATINGS_NOTE],
    )


def curves_section(runs: Runs, sid: str = "curves") -> Section:
    curve = strength.score_curves(runs, ("players", "strategy"))
    changes = strength.lead_changes(runs, ("game", "players", "variant"))
    per_game = strength.count_lead_changes(runs.turns().select("run", "game_id", "turn", "scores")).join(
        runs.games().filter(~pl.col("truncated")).select("run", "game_id", "players").collect(),
        on=["run", "game_id"],
    )
    c = changes.sort("n", descending=True).row(0, named=True)
    reading = (
        f"In {players_words(c['players'])} games{variant_words(c['variant'])} the sole lead changes hands "
        f"{c['mean']:.1f} times per game on "
        f"average {interval(c['low'], c['high'])}, and {pct(c['none'], 0)} of games have the same leader "
        f"from start "
        f"to end."
    )
    x_name = curve["x_name"][0] if curve.height else "round"
    return Section(
        sid,
        "Score curves and lead changes",
        "How do scores build up over a game, and how often does the lead change?",
        reading,
        charts=[
            Chart(
                "score-curves",
                charts.png(
                    charts.curves(
                        curve,
                        title=f"Mean score at the end of each {x_name}{pooled_words(runs, players=False)} "
                        f"that at least half the games reach "
                        "(band: 95% interval)",
                    )
                ),
                "Score curves by strategy",
            ),
            Chart(
                "lead-changes",
                charts.png(
                    charts.histogram(
                        per_game, "lead_changes", "lead changes per game", "Lead changes per game"
                    )
                ),
                "Lead changes histogram",
            ),
        ],
        tables=[
            stats_table(
                "Lead changes per game",
                changes,
                [
                    "players",
                    "variant",
                    ("games", "n"),
                    *mean_columns(digits=2),
                    ("median", col("median", lambda x: num(x, 0))),
                    "max",
                    ("never changed", col("none", pct)),
                ],
            )
        ],
        findings=from_frame(
            changes,
            section=sid,
            metric="lead changes per game",
            groups=("players", "variant"),
            estimate="mean",
            low="low",
            high="high",
            games="n",
            unit="count",
        ),
        notes=[
            "The leader is the seat with the strictly highest score after a decision; a tie for the lead "
            "keeps "
            "the previous sole leader, so a change is counted only when a different seat takes the lead "
            "alone."
        ],
    )


def _comparison_table(title: str, frame: pl.DataFrame) -> Table:
    return stats_table(
        title,
        frame,
        [
            "game",
            "players",
            ("strategy mix", "mix"),
            ("metric", lambda r: charts.METRIC_LABELS.get(r["metric"].split(" (")[0], r["metric"])),
            ("baseline", "base"),
            ("compared", "value"),
            "games",
            "blocks",
            ("baseline value", lambda r: _corrected(r, "base_estimate", "base_corrected")),
            ("value", lambda r: _corrected(r, "estimate", "corrected")),
            ("difference", col("diff", lambda x: num(x, 3))),
            ("95% interval", lambda r: interval(r["diff_low"], r["diff_high"], digits=3)),
            ("effect", lambda r: f"{num(r['effect'], 2)} ({r['effect_name']})"),
            ("p", col("p_value", pval)),
            ("Holm p", col("p_adjusted", pval)),
            ("test", lambda r: r["test"] + (f"; interval: {r['interval']}" if r.get("interval") else "")),
        ],
    )


def _corrected(row: dict, plain: str, corrected: str) -> str:
    """A value, with its bias-corrected value beside it where the metric has one (the seat gap)."""
    text = num(row[plain], 3)
    fixed = row.get(corrected)
    return text if fixed is None else f"{text} (bias-corrected {num(fixed, 3)})"


def _comparison_reading(frame: pl.DataFrame, what: str) -> str:
    """The comparison in one sentence, on the Holm-adjusted p over each comparison's metrics."""
    adjusted = "p_adjusted" if "p_adjusted" in frame.columns else "p_value"
    sig = frame.filter(pl.col(adjusted) < 0.05)
    family = int(cast(int, frame["family"].max())) if "family" in frame.columns else 1
    correction = (
        f"after {frame['correction'][0]}'s correction over each comparison's {family} metrics"
        if adjusted == "p_adjusted" and family > 1
        else "at the 5% level"
    )
    if sig.height == 0:
        return (
            f"None of the {frame.height} differences between {what} is significant {correction}; "
            f"the intervals show how large an effect the data can still hide."
        )
    r = sig.sort(adjusted).row(0, named=True)
    metric = r["metric"].split(" (")[0]
    label = charts.METRIC_LABELS.get(metric, metric)
    unit = r["metric"].split(" (")[1].rstrip(")") if " (" in r["metric"] else ""
    return (
        f"{sig.height} of {frame.height} differences between {what} {'is' if sig.height == 1 else 'are'} "
        f"significant {correction}; the "
        f"clearest is the {label} at {r['players']} players: {num(r['base_estimate'], 3)} {unit} under "
        f"{r['base']} versus {num(r['estimate'], 3)} {unit} under {r['value']} (adjusted "
        f"{p_is(r[adjusted])}, {r['test']})."
    ).replace("  ", " ")


def variants_section(runs: Runs, sid: str = "variants") -> Section | None:
    # runs whose rule variants their game's own sections compare (Graenaland's three-player adjustments)
    rest = Runs([r for r in runs if r.game not in GAMES or not GAMES[r.game].compares_itself(r)])
    if not len(rest):
        return None
    comp = balance.compare_variants(rest)
    changes = fairness_change.fairness_changes(rest)
    words, left, dead = unfinished.left_out(balance.unfinished_values(rest), "variant", sid)
    title = "Rule variants compared"
    question = "Do the rule switches change balance, game length or truncation?"
    if comp.is_empty():
        if not words:
            return None
        return Section(
            sid, title, question, f"{words} Nothing is left to compare.", tables=left, findings=dead
        )
    return Section(
        sid,
        title,
        question,
        f"{change_reading(changes, 'seat')}{_comparison_reading(comp, 'rule variants')} {words}".strip(),
        charts=[
            Chart(
                "variants",
                charts.png(charts.differences(comp, "Rule variant minus baseline (95% intervals)")),
                "Differences between rule variants",
            )
        ],
        tables=[_comparison_table("Rule variants against the baseline", comp), *left],
        findings=comparison_findings(sid, comp) + fairness_change_findings(sid, changes, "seat") + dead,
        notes=[
            "The largest seat win-rate gap is biased upwards in a finite sample, so its difference is "
            "bias-corrected by a bootstrap of whole blocks (paired by block where the two runs share seeds), "
            "with a jackknife t interval; its test is the homogeneity chi-square of the seats' wins across "
            "the two, referred to relabellings of whole blocks. Game length and the truncated rate: t on "
            "the blocks' differences where paired, else on the blocks' means. Holm's correction over each "
            "comparison's metrics gives the adjusted p the reading uses."
        ],
    )


def comparison_section(runs: Runs, baseline: str, sid: str = "comparison") -> Section:
    """Every run compared with ``baseline`` (a run's label), whatever differs between them (rules,
    strategies, data): the seat gap, game length and truncated games, paired by block where the runs
    share seeds and seats."""
    comp = balance.compare_variants(runs, key="run", baseline=baseline, by=("game", "players"))
    changes = fairness_change.fairness_changes(runs, key="run", baseline=baseline, by=("game", "players"))
    dead = balance.unfinished_values(runs, key="run", baseline=baseline, by=("game", "players"))
    words, left, named = unfinished.left_out(dead, "run", sid)
    question = "What changes between these runs?"
    if comp.is_empty():
        apart = "The runs share no player count, so nothing compares."
        reading = f"{words} Nothing is left to compare." if words else apart
        return Section(sid, "Runs compared", question, reading, tables=left, findings=named, lead=True)
    return Section(
        sid,
        "Runs compared",
        question,
        f"{change_reading(changes, 'seat')}{_comparison_reading(comp, 'the runs')} {words}".strip(),
        charts=[
            Chart(
                sid,
                charts.png(charts.differences(comp, f"Each run minus {baseline} (95% intervals)")),
                f"Differences between each run and {baseline}",
            )
        ],
        tables=[_comparison_table(f"Each run against {baseline}", comp), *left],
        findings=comparison_findings(sid, comp) + fairness_change_findings(sid, changes, "seat") + named,
        lead=True,
        notes=[
            "The runs are paired by block where they share seeds and seat mode (the same deals), else "
            "compared as independent samples of blocks; see the rule-variant notes for each metric's "
            "method. Holm's correction over each comparison's metrics gives the adjusted p."
        ],
    )


class _Precision(TypedDict):
    """One row of the precision section's table: a headline estimate with its interval's half-width and
    the games that would halve it."""

    estimate: str
    value: str
    interval: str
    halfwidth: float
    unit: str
    games: int
    to_halve: int


def _widest_words(rows: list[_Precision]) -> str:
    """The precision section's reading: the widest seat win-rate interval and the games that halve it."""
    widest = max((r for r in rows if r["unit"] == "percentage points"), key=lambda r: r["halfwidth"])
    return (
        f"The widest seat win-rate interval is ±{widest['halfwidth']:.1f} percentage points "
        f"({widest['estimate']}, "
        f"from {widest['games']:,} games); intervals shrink with the square root of the games, so "
        f"{widest['to_halve']:,} games ({widest['to_halve'] - widest['games']:,} more) would halve it."
    )


def precision_section(runs: Runs) -> Section:
    rates = balance.seat_balance(runs)
    rated = strength.ratings(runs, ("game",))  # the strength section's table: one interval per rating
    rows: list[_Precision] = [
        {
            "estimate": f"{r['game']} {r['players']}p seat {r['seat']} win rate ({r['variant']})",
            "value": pct(r["win_rate"]),
            "interval": interval(r["ci_low"], r["ci_high"], as_pct=True),
            "halfwidth": 100 * r["halfwidth"],
            "unit": "percentage points",
            "games": r["games"],
            "to_halve": r["games_to_halve"],
        }
        for r in rates.iter_rows(named=True)
    ]
    margin = scores.winner_margin(runs, ("game", "players", "variant"))
    for r in margin.iter_rows(named=True):
        rows.append(
            {
                "estimate": f"{r['game']} {r['players']}p winner's margin ({r['variant']})",
                "value": f"{r['mean']:.1f} points",
                "interval": interval(r["low"], r["high"]),
                "halfwidth": (r["high"] - r["low"]) / 2,
                "unit": "points",
                "games": r["n"],
                "to_halve": 4 * r["n"],
            }
        )
    for r in rated.iter_rows(named=True):
        rows.append(
            {
                "estimate": f"{r['game']} rating of {r['strategy']}",
                "value": f"{r['rating']:.0f}",
                "interval": interval(r["rating_low"], r["rating_high"], digits=0),
                "halfwidth": (r["rating_high"] - r["rating_low"]) / 2,
                "unit": "rating points",
                "games": r["games"],
                "to_halve": 4 * r["games"],
            }
        )
    frame = pl.DataFrame(rows)
    reading = _widest_words(rows)
    wr = frame.filter(pl.col("unit") == "percentage points")
    return Section(
        "sample-size",
        "Sample size",
        "How sure are these numbers, and how many more games would make them twice as precise?",
        reading,
        charts=[
            Chart(
                "precision",
                charts.png(
                    charts.precision(wr, "Seat win-rate intervals: half-width now and with 4x the games")
                ),
                "Interval half-widths",
            )
        ],
        tables=[
            stats_table(
                "Every headline estimate with its interval",
                frame,
                [
                    "estimate",
                    "value",
                    ("95% interval", "interval"),
                    ("half-width", lambda r: f"±{r['halfwidth']:.1f} {r['unit']}"),
                    "games",
                    ("games to halve it", "to_halve"),
                    ("more games needed", lambda r: f"{r['to_halve'] - r['games']:,}"),
                ],
            )
        ],
        findings=_precision_findings(rates, margin, rated),
        notes=["A 95% interval's half-width is proportional to 1/sqrt(games): 4x the games halve it."],
    )


def _precision_findings(rates: pl.DataFrame, margin: pl.DataFrame, rated: pl.DataFrame) -> list[Finding]:
    """Every row of the precision table: the estimate with its interval and games, its half-width and
    the games that would halve it (4x the games, or the win rate's design-aware count)."""
    sid = "sample-size"

    def sized(frame: pl.DataFrame, low: str, high: str, games: str) -> pl.DataFrame:
        # a table with no rows (one strategy has no rating) may have no columns either
        if frame.is_empty():
            return frame
        halfwidth = ((pl.col(high) - pl.col(low)) / 2).alias("halfwidth")
        return frame.with_columns(halfwidth, (4 * pl.col(games)).alias("to_halve"))

    margin = sized(margin, "low", "high", "n")
    rated = sized(rated, "rating_low", "rating_high", "games")
    rows = [
        (
            rates,
            "seat win rate",
            ("game", "players", "variant", "mix", "seat"),
            "win_rate",
            "ci_low",
            "ci_high",
        ),
        (margin, "winner's margin", ("game", "players", "variant"), "mean", "low", "high"),
        (rated, "rating", ("game", "strategy"), "rating", "rating_low", "rating_high"),
    ]
    found = []
    for frame, metric, groups, estimate, low, high in rows:
        games = "n" if metric == "winner's margin" else "games"
        unit = {"seat win rate": "share", "winner's margin": "points"}.get(metric, "rating")
        to_halve = "games_to_halve" if metric == "seat win rate" else "to_halve"
        found += from_frame(
            frame,
            section=sid,
            metric=metric,
            groups=groups,
            estimate=estimate,
            low=low,
            high=high,
            games=games,
            clusters="blocks" if "blocks" in frame.columns else None,
            unit=unit,
        )
        found += from_frame(
            frame, section=sid, metric=f"{metric} half-width", groups=groups, estimate="halfwidth", unit=unit
        )
        found += from_frame(
            frame,
            section=sid,
            metric=f"{metric} games to halve",
            groups=groups,
            estimate=to_halve,
            games=games,
            unit="count",
        )
    return found

"""The HTML report: one self-contained file (charts embedded as base64 PNG, no network) plus the
charts as PNG files beside it (``<stem>-NN-<section>.png``).

    from analysis.report import write_report
    write_report(["results/mainland-scores"], "results/mainland-scores/report.html")

Sections answer one question each, with a chart, tables and one sentence read off the numbers;
sections whose records are absent are left out (Graenaland sections appear with Graenaland
records).  The head of the report lists every run's configuration and seed, package versions,
and which component data values are reconstructed rather than printed.  The template is
rendered by jinja2 with autoescaping on, so every name from the records (strategies, folders,
rule values) is escaped.
"""

from __future__ import annotations

import base64
import html
import math
import platform
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import jinja2
import polars as pl

from analysis import balance, charts, graenaland, scores, strength
from analysis.runs import Runs, open_runs
from sim.errors import SkaldError

TEMPLATES = Path(__file__).parent / "templates"
PACKAGES = ("numpy", "numba", "polars", "pyarrow", "joblib", "scipy", "matplotlib", "jinja2")


# --------------------------------------------------------------------------- building blocks


@dataclass
class Chart:
    name: str
    png: bytes
    alt: str
    file: str = ""

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Section:
    id: str
    title: str
    question: str
    reading: str
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}%"


def num(x: Any, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if math.isnan(x):
            return "-"
        if x.is_integer() and abs(x) < 1e15 and digits <= 2:
            return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.{digits}f}"
        return f"{x:,.{digits}f}"
    return str(x)


def pval(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "-"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def interval(low: float, high: float, as_pct: bool = False, digits: int = 1) -> str:
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "-"
    if as_pct:
        return f"[{100 * low:.{digits}f}, {100 * high:.{digits}f}]%"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def table(title: str, frame: pl.DataFrame, columns: Sequence[tuple[str, Callable[[dict], str]]]) -> Table:
    """A display table: (header, formatter of a row dict) per column."""
    rows = [[fmt(row) for _, fmt in columns] for row in frame.iter_rows(named=True)]
    return Table(title, [header for header, _ in columns], rows)


def col(name: str, fmt: Callable[[Any], str] = num) -> Callable[[dict], str]:
    return lambda row: fmt(row.get(name))


def players_words(n: int) -> str:
    return {2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n)) + "-player"


# --------------------------------------------------------------------------- sections


def seat_section(
    runs: Runs, position: str = "seat", sid: str = "seat-balance", title: str = "Seat balance"
) -> Section:
    rates = balance.seat_balance(runs, position=position)
    tests = balance.balance_tests(runs, position=position)
    worst = tests.sort("balance").row(0, named=True)
    significant = tests.filter(pl.col("chi2_p") < 0.05).height
    label = position.replace("_", " ")
    verdict = (
        f"so the {label}s differ by more than chance"
        if worst["chi2_p"] < 0.05
        else f"so the data do not show a {label} advantage at this sample size"
    )
    reading = (
        f"In {worst['decided']:,} decided {players_words(worst['players'])} games ({worst['game']}, "
        f"{worst['variant']}), {position.replace('_', ' ')} {worst['best']} won most often "
        f"({pct(worst['best_rate'])}) "
        f"and {position.replace('_', ' ')} {worst['worst']} least ({pct(worst['worst_rate'])}), a Balance of "
        f"{worst['balance']:.2f} {interval(worst['balance_low'], worst['balance_high'], digits=2)}; the "
        f"chi-square "
        f"test of equal chances gives p = {pval(worst['chi2_p'])}, {verdict}"
        + (f" ({significant} of {tests.height} groups differ at the 5% level)." if tests.height > 1 else ".")
    )
    return Section(
        sid,
        title,
        f"Does the {label} you play from change your chance to win?",
        reading,
        charts=[
            Chart(
                sid,
                charts.png(charts.win_rates(rates, position, f"Win rate by {label} (95% Wilson intervals)")),
                f"Win rate by {label} with 95% intervals",
            )
        ],
        tables=[
            table(
                "Tests of equal chances, Balance and first-player advantage",
                tests,
                [
                    ("game", col("game")),
                    ("players", col("players")),
                    ("variant", col("variant")),
                    ("strategy mix", col("mix")),
                    ("decided games", col("decided")),
                    ("truncated", col("truncated")),
                    ("tie games", col("tie_games")),
                    ("chi-square p", col("chi2_p", pval)),
                    ("G-test p", col("g_p", pval)),
                    (
                        "Balance [95%]",
                        lambda r: (
                            f"{r['balance']:.3f} " + interval(r["balance_low"], r["balance_high"], digits=3)
                        ),
                    ),
                    (
                        f"first {label} advantage [95%]",
                        lambda r: (
                            f"{100 * r['first_advantage']:+.1f} pp "
                            + interval(r["first_adv_low"], r["first_adv_high"], as_pct=True)
                        ),
                    ),
                ],
            ),
            table(
                f"Win rate by {label}",
                rates,
                [
                    ("players", col("players")),
                    ("variant", col("variant")),
                    ("strategy mix", col("mix")),
                    (label, col(position)),
                    ("games", col("games")),
                    ("wins", col("wins")),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    ("equal chances", col("expected", pct)),
                ],
            ),
        ],
        notes=[
            "Win rates count decided games; "
            + balance.TIES_NOTE
            + ". Truncated games have no winner and are "
            "left out (counted in the table). Balance = 1 - the largest gap between two win rates (1 = "
            "even); "
            "its interval holds the positions' Wilson intervals at a Bonferroni-adjusted level "
            "(simultaneous 95%, conservative). First-player advantage = first position's win "
            "rate - "
            "1/players, in percentage points (pp). With fewer than 5 expected wins per position the "
            "chi-square and G p-values are only rough.",
        ],
    )


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
    stats_cols = [
        ("n", col("n")),
        ("mean", col("mean", lambda x: num(x, 1))),
        ("95% interval", lambda r: interval(r["low"], r["high"])),
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
            table(
                "Final score by strategy (points)",
                by_strategy,
                [("players", col("players")), ("strategy", col("strategy")), *stats_cols],
            ),
            table(
                "Final score by seat (points)",
                by_seat,
                [("players", col("players")), ("seat", col("seat")), *stats_cols],
            ),
            table(
                "Winner's margin (points)",
                margin,
                [("players", col("players")), *stats_cols, ("decided by <= 2", col("close", pct))],
            ),
        ],
        notes=["Truncated games are left out. Intervals are 95% normal-approximation intervals of the mean."],
    )


def mainland_points_section(runs: Runs) -> Section:
    sources = scores.point_sources(runs, ("players", "strategy")).sort("players", "strategy", "source")
    overall = scores.point_sources(runs, ("players",)).sort("players", "source")
    size = scores.mainland_size(runs, ("players", "strategy"))
    biggest = overall.filter(pl.col("players") == overall["players"].max())
    share = {r["source"]: r["share"] for r in biggest.iter_rows(named=True)}
    s = (
        size.filter(pl.col("players") == size["players"].max())
        .sort("mean", descending=True)
        .row(0, named=True)
    )
    reading = (
        f"At {biggest['players'][0]} players, Mainland tiles give {pct(share.get('mainland_tiles'))} of "
        f"all points, "
        f"items inside the Mainland {pct(share.get('mainland_items'))} and items in minor territories "
        f"{pct(share.get('minor_items'))}; {s['strategy']} builds the largest Mainland, {s['mean']:.1f} "
        f"tiles "
        f"{interval(s['low'], s['high'])}."
    )
    return Section(
        "mainland-points",
        "Where Mainland points come from",
        "How big do Mainlands get, and which share of the points comes from tiles, Mainland items and minor "
        "territories?",
        reading,
        charts=[
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
        ],
        tables=[
            table(
                "Share of points by source",
                overall,
                [
                    ("players", col("players")),
                    ("source", col("label")),
                    ("share of points", col("share", pct)),
                    ("mean points", col("mean", lambda x: num(x, 1))),
                    ("95% interval", lambda r: interval(r["low"], r["high"])),
                ],
            ),
            table(
                "Points by source and strategy",
                sources,
                [
                    ("players", col("players")),
                    ("strategy", col("strategy")),
                    ("source", col("label")),
                    ("share", col("share", pct)),
                    ("mean points", col("mean", lambda x: num(x, 1))),
                    ("95% interval", lambda r: interval(r["low"], r["high"])),
                ],
            ),
            table(
                "Mainland size (tiles)",
                size,
                [
                    ("players", col("players")),
                    ("strategy", col("strategy")),
                    ("seats", col("n")),
                    ("mean", col("mean", lambda x: num(x, 1))),
                    ("95% interval", lambda r: interval(r["low"], r["high"])),
                    ("median", col("median", lambda x: num(x, 0))),
                    ("max", col("max", lambda x: num(x, 0))),
                ],
            ),
        ],
        notes=[
            "A seat's score is exactly Mainland tiles + Mainland items + minor-territory items; shares are "
            "ratios of sums over all seats of the group."
        ],
    )


def mainland_play_section(runs: Runs) -> Section:
    play = scores.play_stats(runs, ("players", "strategy"))
    focus = play.filter(pl.col("stat").is_in(["passes", "forced_passes", "gatherings"]))
    overall = scores.play_stats(runs, ("players",)).filter(
        pl.col("stat").is_in(["passes", "forced_passes", "gatherings"])
    )
    o = {
        r["stat"]: r
        for r in overall.filter(pl.col("players") == overall["players"].max()).iter_rows(named=True)
    }
    reading = (
        f"At {overall['players'].max()} players a seat passes {o['passes']['mean']:.2f} times by choice and "
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
            table(
                "Play statistics per seat and game",
                play,
                [
                    ("players", col("players")),
                    ("strategy", col("strategy")),
                    ("statistic", col("label")),
                    ("mean", col("mean", lambda x: num(x, 2))),
                    ("95% interval", lambda r: interval(r["low"], r["high"], digits=2)),
                    ("max", col("max", lambda x: num(x, 0))),
                ],
            )
        ],
    )


def strength_section(runs: Runs) -> Section:
    h2h = strength.head_to_head(runs, ("game",))
    rated = strength.ratings(runs, ("game",))
    best = rated.row(0, named=True)
    worst = rated.row(rated.height - 1, named=True)
    pair = h2h.filter((pl.col("strategy") == best["strategy"]) & (pl.col("opponent") == worst["strategy"]))
    versus = (
        f", and finishes ahead of {worst['strategy']} in {pct(pair['rate'][0], 0)} of their meetings"
        if pair.height
        else ""
    )
    reading = (
        f"{best['strategy']} is rated highest ({best['rating']:.0f} "
        f"{interval(best['rating_low'], best['rating_high'], digits=0)}) and {worst['strategy']} lowest "
        f"({worst['rating']:.0f} {interval(worst['rating_low'], worst['rating_high'], digits=0)}){versus}."
    )
    figs = [
        Chart(
            f"head-to-head-{g}",
            charts.png(
                charts.head_to_head(h2h.filter(pl.col("game") == g), f"{g}: row finishes ahead of column")
            ),
            f"Head-to-head matrix, {g}",
        )
        for g in h2h["game"].unique(maintain_order=True).to_list()
    ]
    return Section(
        "strength",
        "Strategy strength",
        "Which strategy is strongest, and against whom?",
        reading,
        charts=[
            Chart(
                "ratings",
                charts.png(charts.ratings(rated, "Bradley-Terry rating (95% game-bootstrap intervals)")),
                "Ratings with intervals",
            ),
            *figs,
        ],
        tables=[
            table(
                "Bradley-Terry ratings (Elo scale)",
                rated,
                [
                    ("game", col("game")),
                    ("strategy", col("strategy")),
                    ("rating", col("rating", lambda x: f"{x:.0f}")),
                    ("95% interval", lambda r: interval(r["rating_low"], r["rating_high"], digits=0)),
                    ("games", col("games")),
                    ("pairwise meetings", col("meetings")),
                ],
            ),
            table(
                "Head to head: strategy finishes ahead of opponent",
                h2h,
                [
                    ("game", col("game")),
                    ("strategy", col("strategy")),
                    ("opponent", col("opponent")),
                    ("meetings", col("meetings")),
                    ("ahead", col("ahead")),
                    ("rate", col("rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                ],
            ),
        ],
        notes=[
            "Ratings: Bradley-Terry by MM iterations on every pair of different strategies in each finished "
            "game (rank breaking; shared ranks count 1/2), intervals from 200 bootstrap resamples of whole "
            "games. 1500 is the geometric mean; +200 means finishing ahead about 76% of the time."
        ],
    )


def curves_section(runs: Runs) -> Section:
    curve = strength.score_curves(runs, ("players", "strategy"))
    changes = strength.lead_changes(runs, ("players",))
    per_game = strength.count_lead_changes(runs.turns().select("run", "game_id", "turn", "scores")).join(
        runs.games().filter(~pl.col("truncated")).select("run", "game_id", "players").collect(),
        on=["run", "game_id"],
    )
    c = changes.sort("n", descending=True).row(0, named=True)
    reading = (
        f"In {players_words(c['players'])} games the sole lead changes hands {c['mean']:.1f} times per "
        f"game on "
        f"average {interval(c['low'], c['high'])}, and {pct(c['none'], 0)} of games have the same leader "
        f"from start "
        f"to end."
    )
    x_name = curve["x_name"][0] if curve.height else "round"
    return Section(
        "curves",
        "Score curves and lead changes",
        "How do scores build up over a game, and how often does the lead change?",
        reading,
        charts=[
            Chart(
                "score-curves",
                charts.png(
                    charts.curves(
                        curve,
                        title=f"Mean score at the end of each {x_name} "
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
            table(
                "Lead changes per game",
                changes,
                [
                    ("players", col("players")),
                    ("games", col("n")),
                    ("mean", col("mean", lambda x: num(x, 2))),
                    ("95% interval", lambda r: interval(r["low"], r["high"], digits=2)),
                    ("median", col("median", lambda x: num(x, 0))),
                    ("max", col("max")),
                    ("never changed", col("none", pct)),
                ],
            )
        ],
        notes=[
            "The leader is the seat with the strictly highest score after a decision; a tie for the lead "
            "keeps "
            "the previous sole leader, so a change is counted only when a different seat takes the lead "
            "alone."
        ],
    )


def _comparison_table(title: str, frame: pl.DataFrame) -> Table:
    return table(
        title,
        frame,
        [
            ("game", col("game")),
            ("players", col("players")),
            ("strategy mix", col("mix")),
            ("metric", col("metric")),
            ("baseline", col("base")),
            ("compared", col("value")),
            ("baseline value", col("base_estimate", lambda x: num(x, 3))),
            ("value", col("estimate", lambda x: num(x, 3))),
            ("difference", col("diff", lambda x: num(x, 3))),
            ("95% interval", lambda r: interval(r["diff_low"], r["diff_high"], digits=3)),
            ("effect", lambda r: f"{num(r['effect'], 2)} ({r['effect_name']})"),
            ("p", col("p_value", pval)),
            ("test", col("test")),
        ],
    )


def _comparison_reading(frame: pl.DataFrame, what: str) -> str:
    sig = frame.filter(pl.col("p_value") < 0.05)
    if sig.height == 0:
        return (
            f"None of the {frame.height} differences between {what} is significant at the 5% level; "
            f"the intervals show how large an effect the data can still hide."
        )
    r = sig.sort("p_value").row(0, named=True)
    metric = r["metric"].split(" (")[0]
    label = charts.METRIC_LABELS.get(metric, metric)
    unit = r["metric"].split(" (")[1].rstrip(")") if " (" in r["metric"] else ""
    return (
        f"{sig.height} of {frame.height} differences between {what} {'is' if sig.height == 1 else 'are'} "
        "significant at the 5% level; the "
        f"clearest is the {label} at {r['players']} players: {num(r['base_estimate'], 3)} {unit} under "
        f"{r['base']} versus {num(r['estimate'], 3)} {unit} under {r['value']} (p = {pval(r['p_value'])}, "
        f"{r['test']})."
    ).replace("  ", " ")


def variants_section(runs: Runs) -> Section | None:
    # the three-player Graenaland variants have their own section
    rest = Runs([r for r in runs if not (r.game == graenaland.GAME and r.players == 3)])
    if not len(rest):
        return None
    comp = balance.compare_variants(rest)
    if comp.is_empty():
        return None
    return Section(
        "variants",
        "Rule variants compared",
        "Do the rule switches change balance, game length or truncation?",
        _comparison_reading(comp, "rule variants"),
        charts=[
            Chart(
                "variants",
                charts.png(charts.differences(comp, "Rule variant minus baseline (95% intervals)")),
                "Differences between rule variants",
            )
        ],
        tables=[_comparison_table("Rule variants against the baseline", comp)],
        notes=[
            "balance_gap = largest pairwise seat win-rate gap (bootstrap interval; chi-square homogeneity "
            "test of "
            "seat wins); game length: Welch t test, Cohen's d; truncated rate: two-proportion z, Cohen's h."
        ],
    )


def graenaland_sections(runs: Runs) -> list[Section]:
    g = runs.only(game=graenaland.GAME)
    if not len(g):
        return []
    sections = []
    position = graenaland.position_column(g)
    try:
        s = seat_section(g, position, "start-positions", "Graenaland start positions")
        s.question = "Are the standard start positions fair?"
        table_ = graenaland.start_positions(g)
        extra = [c for c in table_.columns if c.startswith(("mean_", "rate_")) or c == "start_territories"]
        s.tables.append(
            table(
                "Start positions: length, goals and territories",
                table_,
                [
                    ("players", col("players")),
                    ("variant", col("variant")),
                    (position, col(position)),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    *[(c.replace("_", " "), col(c)) for c in extra],
                ],
            )
        )
        sections.append(s)
    except Exception as exc:  # a new game's records may lack or reshape a column: say so, keep the rest
        sections.append(
            Section(
                "start-positions",
                "Graenaland start positions",
                "Are the standard start positions fair?",
                f"Not available from these records: {exc}",
            )
        )
    try:
        parts = graenaland.three_player(g)
        comp = parts["compare"]
        s = Section(
            "three-player",
            "Three-player adjustments",
            "Do the three-player adjustments do their job?",
            _comparison_reading(comp, "three-player variants")
            if not comp.is_empty()
            else "No three-player runs with and without the adjustments among these records.",
        )
        if not comp.is_empty():
            s.charts.append(
                Chart(
                    "three-player",
                    charts.png(
                        charts.differences(comp, "With versus without the adjustments (95% intervals)")
                    ),
                    "Three-player comparison",
                )
            )
            s.tables.append(_comparison_table("Three players, each variant against the default", comp))
        side = parts["side_by_side"]
        s.tables.append(
            table(
                "Seat balance by player count and variant",
                side,
                [
                    ("players", col("players")),
                    ("variant", col("variant")),
                    ("decided", col("decided")),
                    ("truncated", col("truncated")),
                    ("largest gap", col("max_gap", pct)),
                    (
                        "Balance",
                        lambda r: (
                            f"{r['balance']:.3f} " + interval(r["balance_low"], r["balance_high"], digits=3)
                        ),
                    ),
                    ("chi-square p", col("chi2_p", pval)),
                ],
            )
        )
        s.tables.append(
            table(
                "Game length",
                parts["lengths"],
                [
                    ("players", col("players")),
                    ("variant", col("variant")),
                    ("games", col("n")),
                    ("mean", lambda r: f"{r['mean']:.1f} {r['unit']}"),
                    ("95% interval", lambda r: interval(r["low"], r["high"])),
                ],
            )
        )
        if "votes" in parts:
            s.tables.append(
                table(
                    "Share of votes from heroes",
                    parts["votes"],
                    [
                        ("players", col("players")),
                        ("variant", col("variant")),
                        ("mean", col("mean", pct)),
                        ("95% interval", lambda r: interval(r["low"], r["high"], as_pct=True)),
                    ],
                )
            )
        if "goals" in parts:
            s.tables.append(
                table(
                    "Goals the winners reach",
                    parts["goals"],
                    [
                        ("players", col("players")),
                        ("variant", col("variant")),
                        ("goal", col("label")),
                        ("winners", col("winners")),
                        ("rate", col("rate", pct)),
                        ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    ],
                )
            )
        sections.append(s)
    except Exception as exc:  # a new game's records may lack or reshape a column: say so, keep the rest
        sections.append(
            Section(
                "three-player",
                "Three-player adjustments",
                "Do the three-player adjustments do their job?",
                f"Not available from these records: {exc}",
            )
        )
    return sections


def precision_section(runs: Runs) -> Section:
    rates = balance.seat_balance(runs)
    rated = strength.ratings(runs, ("game",), reps=100)
    rows = [
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
    margin = scores.winner_margin(runs, ("game", "players"))
    for r in margin.iter_rows(named=True):
        rows.append(
            {
                "estimate": f"{r['game']} {r['players']}p winner's margin",
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
    widest = max((r for r in rows if r["unit"] == "percentage points"), key=lambda r: r["halfwidth"])
    reading = (
        f"The widest seat win-rate interval is ±{widest['halfwidth']:.1f} percentage points "
        f"({widest['estimate']}, "
        f"from {widest['games']:,} games); intervals shrink with the square root of the games, so "
        f"{widest['to_halve']:,} games ({widest['to_halve'] - widest['games']:,} more) would halve it."
    )
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
            table(
                "Every headline estimate with its interval",
                frame,
                [
                    ("estimate", col("estimate")),
                    ("value", col("value")),
                    ("95% interval", col("interval")),
                    ("half-width", lambda r: f"±{r['halfwidth']:.1f} {r['unit']}"),
                    ("games", col("games")),
                    ("games to halve it", col("to_halve")),
                    ("more games needed", lambda r: f"{r['to_halve'] - r['games']:,}"),
                ],
            )
        ],
        notes=["A 95% interval's half-width is proportional to 1/sqrt(games): 4x the games halve it."],
    )


def build_sections(runs: Runs) -> list[Section]:
    """Every section the records support, in reading order."""
    sections = [seat_section(runs)]
    if len(runs.only(game="mainland")):
        mainland = runs.only(game="mainland")
        sections += [
            mainland_score_section(mainland),
            mainland_points_section(mainland),
            mainland_play_section(mainland),
        ]
    sections += [strength_section(runs), curves_section(runs)]
    sections += graenaland_sections(runs)
    variants = variants_section(runs)
    if variants is not None:
        sections.append(variants)
    sections.append(precision_section(runs))
    return sections


# --------------------------------------------------------------------------- provenance


def versions() -> dict[str, str]:
    """Versions of Skald, Python and the analysis libraries now."""
    import sim

    found = {"skald": sim.__version__, "python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "missing"
    return found


def data_provenance(runs: Runs) -> list[dict[str, Any]]:
    """Per game and data file: path, sha1 and the reconstructed (not printed) component values."""
    out = []
    seen = set()
    for run in runs:
        data = run.config.get("data") or {}
        key = (run.game, data.get("path"), data.get("sha1"))
        if key in seen:
            continue
        seen.add(key)
        entry: dict[str, Any] = {
            "game": run.game,
            "path": data.get("path") or "(packaged)",
            "file": data.get("file") or "",
            "sha1": data.get("sha1") or "",
            "runs": [],
            "reconstructed": [],
            "note": "",
        }
        try:
            from sim.games import get_game

            loaded = get_game(run.game).load_data(data.get("path"))
            entry["reconstructed"] = list(getattr(loaded, "reconstructed", ()) or ())
            now = getattr(loaded, "sha1", None)
            if now and data.get("sha1") and now != data.get("sha1"):
                entry["note"] = f"the data file has changed since the run (sha1 now {now})"
            if not hasattr(loaded, "reconstructed"):
                entry["note"] = "this game's data object does not list reconstructed values"
        except Exception as exc:
            entry["note"] = f"could not load the data file: {exc}"
        out.append(entry)
    for entry in out:
        entry["runs"] = [
            r.label
            for r in runs
            if r.game == entry["game"] and ((r.config.get("data") or {}).get("sha1") or "") == entry["sha1"]
        ]
    return out


def run_rows(runs: Runs) -> list[dict[str, str]]:
    rows = []
    for r in runs:
        c = r.config
        totals = r.manifest.get("totals", {})
        rules = ", ".join(f"{k}={v}" for k, v in (c.get("rules") or {}).items()) or "-"
        rows.append(
            {
                "run": r.label,
                "folder": str(r.path),
                "game": r.game,
                "players": str(r.players),
                "games": f"{r.games:,}",
                "strategies": ", ".join(c.get("strategies", [])),
                "seats": str(c.get("seats")),
                "seed": str(c.get("seed")),
                "rules": rules,
                "variant": r.variant,
                "rules_hash": str(c.get("rules_hash", ""))[:12],
                "truncated": str(totals.get("truncated", "-")),
                "skald": str(r.manifest.get("versions", {}).get("skald", "?")),
            }
        )
    return rows


# --------------------------------------------------------------------------- writing


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


def render(runs: Runs, sections: list[Section], title: str, study: dict[str, Any] | None = None) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    template = env.get_template("report.html.j2")
    run_versions = {}
    for r in runs:
        for k, v in (r.manifest.get("versions") or {}).items():
            run_versions.setdefault(k, set()).add(str(v))
    return template.render(
        title=title,
        created=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        sections=sections,
        runs=run_rows(runs),
        versions=versions(),
        run_versions={k: ", ".join(sorted(v)) for k, v in run_versions.items()},
        provenance=data_provenance(runs),
        study=study,
        graenaland_note=graenaland.unavailable(),
    )


def write_report(
    paths: str | Path | Sequence[str | Path],
    out: str | Path,
    title: str | None = None,
    study: dict[str, Any] | None = None,
) -> Path:
    """Analyse the runs under ``paths`` and write ``out`` (HTML) and its charts as PNG files beside it."""
    runs = open_runs(paths)
    out = Path(out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise SkaldError(f"report file {str(out)!r} should end in .html")
    out.parent.mkdir(parents=True, exist_ok=True)
    sections = build_sections(runs)
    number = 0
    for section in sections:
        for chart in section.charts:
            number += 1
            chart.file = f"{out.stem}-{number:02d}-{_slug(chart.name)}.png"
            (out.parent / chart.file).write_bytes(chart.png)
    games = ", ".join(runs.games_played)
    text = render(runs, sections, title or f"Skald balance report: {games}", study)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out


def escape(text: str) -> str:
    """HTML-escape ``text`` (for callers composing HTML outside the template)."""
    return html.escape(text, quote=True)

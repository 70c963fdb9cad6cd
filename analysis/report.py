"""The HTML report: one self-contained file (charts embedded as base64 PNG, no network) plus the
charts as PNG files beside it (``<stem>-NN-<section>.png``).

    from analysis.report import write_report
    write_report(["results/mainland-scores"], "results/mainland-scores/report.html")

Sections answer one question each, with a chart, tables and one sentence read off the numbers;
sections whose records are absent are left out (Graenaland and Knarr sections appear with their games'
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

from analysis import balance, charts, graenaland, knarr, scores, strength
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
    return "<\u00a00.001" if p < 0.001 else f"{p:.3f}"  # no line break inside


def p_is(p: float | None) -> str:
    """A p-value inside a sentence: ``p < 0.001`` or ``p = 0.042``."""
    text = pval(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def interval(low: float, high: float, as_pct: bool = False, digits: int = 1) -> str:
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "-"
    if as_pct:
        low, high = 100 * low, 100 * high

    def show(x: float) -> str:
        text = f"{x:.{digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.0"

    return f"[{show(low)}, {show(high)}]" + ("%" if as_pct else "")


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
        f"test of equal chances gives {p_is(worst['chi2_p'])}, {verdict}"
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
        f"{r['base']} versus {num(r['estimate'], 3)} {unit} under {r['value']} ({p_is(r['p_value'])}, "
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


def _unavailable(sid: str, title: str, question: str, exc: Exception) -> Section:
    """A section saying why the records cannot answer it (a new game's records may lack a column)."""
    return Section(sid, title, question, f"Not available from these records: {exc}")


def _several(frame: pl.DataFrame, column: str, within: Sequence[str] = ("players",)) -> bool:
    """Whether ``column`` takes more than one value within some group of ``within`` (so a table needs it)."""
    if column not in frame.columns or frame.is_empty():
        return False
    keys = [k for k in within if k in frame.columns]
    if not keys:
        return frame[column].n_unique() > 1
    return int(frame.group_by(keys).agg(pl.col(column).n_unique().alias("k"))["k"].max()) > 1


def _variant_column(frame: pl.DataFrame) -> list[tuple[str, Callable[[dict], str]]]:
    """The variant column, where the table holds more than one variant."""
    return [("variant", col("variant"))] if _several(frame, "variant", ()) else []


def _pp(row: dict, digits: int = 1) -> str:
    """A difference of proportions in percentage points with its interval: ``+3.2 pp [-1.0, 7.5]``."""
    return f"{100 * row['diff']:+.{digits}f} pp " + interval(
        100 * row["diff_low"], 100 * row["diff_high"], digits=digits
    )


def _variant_words(variant: str) -> str:
    return "" if variant == "defaults" else f" ({variant})"


def _tests_table(title: str, tests: pl.DataFrame, label: str) -> Table:
    return table(
        title,
        tests,
        [
            ("players", col("players")),
            ("variant", col("variant")),
            ("strategy mix", col("mix")),
            ("decided games", col("decided")),
            ("truncated", col("truncated")),
            ("chi-square p", col("chi2_p", pval)),
            ("G-test p", col("g_p", pval)),
            (
                "Balance [95%]",
                lambda r: f"{r['balance']:.3f} " + interval(r["balance_low"], r["balance_high"], digits=3),
            ),
            (
                f"first {label} advantage [95%]",
                lambda r: (
                    f"{100 * r['first_advantage']:+.1f} pp "
                    + interval(r["first_adv_low"], r["first_adv_high"], as_pct=True)
                ),
            ),
        ],
    )


def _panel_label() -> pl.Expr:
    return pl.concat_str(
        [
            pl.col("players").cast(pl.String),
            pl.lit(" players"),
            pl.when(pl.col("variant") == "defaults").then(pl.lit("")).otherwise(", " + pl.col("variant")),
        ]
    ).alias("panel")


GRAENALAND_NOTE = (
    "Ties are split fractionally (a k-way tie gives each tied winner 1/k of a win); truncated games are left "
    "out of win rates and counted in the tables. Balance = 1 - the largest gap between two win rates; its "
    "interval holds the Wilson intervals at a Bonferroni-adjusted level (simultaneous 95%, conservative). "
    "With fewer than 5 expected wins per cell the chi-square p-values are rough."
)


def start_positions_section(g: Runs) -> Section:
    """Graenaland's standard start positions: win rate, length, goals and territories per position."""
    std = graenaland.standard_runs(g)
    position = graenaland.position_column(std)
    positions = graenaland.start_positions(std)
    tests = balance.balance_tests(std, position=position).sort("players", "variant", "mix")
    worst = tests.sort("balance").row(0, named=True)
    rows = positions.filter(
        (pl.col("players") == worst["players"])
        & (pl.col("variant") == worst["variant"])
        & (pl.col("mix") == worst["mix"])
    )
    best = rows.sort("win_rate", descending=True).row(0, named=True)
    low = rows.sort("win_rate").row(0, named=True)

    def where(r: dict) -> str:
        plain = re.sub(r"[()]", "", r.get("start_territories") or "")
        return f"start position {r[position]}" + (f" ({plain})" if plain else "")

    significant = tests.filter(pl.col("chi2_p") < 0.05).height
    verdict = (
        "more than chance explains"
        if worst["chi2_p"] < 0.05
        else "no more than chance can explain at this size"
    )
    goals = ""
    if "goals_met" in rows.columns:
        goals = (
            f", their seats ending with {best['goals_met']:.1f} and {low['goals_met']:.1f} goals on average"
        )
    game = f"{players_words(worst['players'])} Graenaland{_variant_words(worst['variant'])}"
    reading = (
        f"The least even case is {game}: in {worst['decided']:,} decided games {where(best)} wins "
        f"{pct(best['win_rate'])} {interval(best['ci_low'], best['ci_high'], as_pct=True)} and {where(low)} "
        f"{pct(low['win_rate'])} {interval(low['ci_low'], low['ci_high'], as_pct=True)}{goals}; the Balance "
        f"of {worst['balance']:.2f} {interval(worst['balance_low'], worst['balance_high'], digits=2)} "
        f"(chi-square {p_is(worst['chi2_p'])}) is {verdict}"
        + (
            f", and {significant} of {tests.height} player counts and variants differ at the 5% level."
            if tests.height > 1
            else "."
        )
    )
    goal_cols = [c for c in graenaland.GOALS if f"rate_{c}" in positions.columns]
    unit = "rounds" if "rounds_won" in positions.columns else "decisions"
    columns: list[tuple[str, Callable[[dict], str]]] = [
        ("players", col("players")),
        *_variant_column(positions),
        *([("strategy mix", col("mix"))] if _several(positions, "mix", ("players", "variant")) else []),
        ("position", col(position)),
        ("start territories", col("start_territories")),
        ("games", col("games")),
        ("win rate", col("win_rate", pct)),
        ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
        (
            f"{unit} of its wins [95%]",
            lambda r: f"{num(r[f'{unit}_won'], 1)} " + interval(r[f"{unit}_won_low"], r[f"{unit}_won_high"]),
        ),
    ]
    if "goals_met" in positions.columns:
        columns.append(
            (
                "goals met [95%]",
                lambda r: (
                    f"{r['goals_met']:.2f} " + interval(r["goals_met_low"], r["goals_met_high"], digits=2)
                ),
            )
        )
    found = [
        Chart(
            "start-positions",
            charts.png(
                charts.win_rates(
                    balance.seat_balance(std, position=position),
                    position,
                    "Win rate by start position (95% Wilson intervals)",
                )
            ),
            "Win rate by standard start position with 95% intervals",
        )
    ]
    if goal_cols:
        rates = graenaland.goal_rates(std, position, by=("players", "variant")).with_columns(_panel_label())
        found.append(
            Chart(
                "start-position-goals",
                charts.png(
                    charts.goal_heatmap(
                        rates,
                        position,
                        title="Seats meeting each goal at the end of the game, by start position (%)",
                        row_label="start position",
                    )
                ),
                "Share of seats meeting each goal at the end, by start position",
            )
        )
    return Section(
        "start-positions",
        "Graenaland start positions",
        "Are the standard start positions fair? How often does each win, how long do its wins take, which "
        "goals do its seats reach, and where does it start?",
        reading,
        charts=found,
        tables=[
            _tests_table("Tests of equal chances, Balance and first-player advantage", tests, "position"),
            table("Each start position", positions, columns),
        ],
        notes=[
            "Runs with the custom-start draft are left out here (see the draft section). Strategies rotate "
            "through the seats, so a position's win rate is not one strategy's. Position n is the seat that "
            "settles the spaces marked n (seat 1 starts). "
            f"'{unit} of its wins' is the mean length of the games the position won (only the main player "
            "announces and the main player changes every round, so a position's wins fall on every n-th "
            "round); 'goals met' counts "
            "the goals a seat meets at the end (the announcer needs 3 of 5: 8 settlements; 2+ settlements on "
            "3 territories; 4 settlements on one territory; 2 buildings, 3 with the three-player "
            "adjustments; army strength 3). " + GRAENALAND_NOTE
        ],
    )


def draft_section(g: Runs) -> Section:
    """The custom-start draft: win rate by draft order and by the territory of the first village."""
    parts = graenaland.draft(g)
    order, order_tests = parts["order"], parts["order_tests"]
    territory, territory_tests = parts["territory"], parts["territory_tests"]
    main = order_tests.sort("decided", descending=True).row(0, named=True)
    same = (
        (pl.col("players") == main["players"])
        & (pl.col("variant") == main["variant"])
        & (pl.col("mix") == main["mix"])
    )
    o = order.filter(same).sort("draft_order")
    first, last = o.row(0, named=True), o.row(o.height - 1, named=True)
    t = territory.filter(same).sort("win_rate", descending=True)
    top, bottom = t.row(0, named=True), t.row(t.height - 1, named=True)
    tt = territory_tests.filter(same)
    t_p = tt["p"][0] if tt.height else math.nan
    differ = [
        what
        for what, p in (("the picks", main["chi2_p"]), ("the territories", t_p))
        if not math.isnan(p) and p < 0.05
    ]
    verdict = (
        f"{' and '.join(differ)} differ by more than chance"
        if differ
        else "neither differs by more than chance at this sample size"
    )
    reading = (
        f"In {main['decided']:,} decided {players_words(main['players'])} games with the draft, the first "
        f"pick won {pct(first['win_rate'])} {interval(first['ci_low'], first['ci_high'], as_pct=True)} and "
        f"the last {pct(last['win_rate'])} {interval(last['ci_low'], last['ci_high'], as_pct=True)} "
        f"(chi-square {p_is(main['chi2_p'])}); first villages on {top['territory_name']} won "
        f"{pct(top['win_rate'])} of {top['picks']:,} and on {bottom['territory_name']} "
        f"{pct(bottom['win_rate'])} of {bottom['picks']:,} ({p_is(t_p)}): {verdict}."
    )
    return Section(
        "draft",
        "Graenaland custom-start draft",
        "With the custom-start draft, does the pick order or the territory a player settles first change the "
        "chance to win?",
        reading,
        charts=[
            Chart(
                "draft",
                charts.png(
                    charts.draft_rates(
                        order, territory, "The custom-start draft: win rate (95% Wilson intervals)"
                    )
                ),
                "Win rate by draft order and by the territory of the first village",
            )
        ],
        tables=[
            _tests_table(
                "Draft order: tests of equal chances, Balance and first-pick advantage", order_tests, "pick"
            ),
            table(
                "Win rate by draft order",
                order,
                [
                    ("players", col("players")),
                    *_variant_column(order),
                    *(
                        [("strategy mix", col("mix"))]
                        if _several(order, "mix", ("players", "variant"))
                        else []
                    ),
                    ("draft order", col("draft_order")),
                    ("games", col("games")),
                    ("wins", col("wins")),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                    ("equal chances", col("expected", pct)),
                ],
            ),
            table(
                "Win rate by the territory of the first village",
                territory,
                [
                    ("players", col("players")),
                    *_variant_column(territory),
                    *(
                        [("strategy mix", col("mix"))]
                        if _several(territory, "mix", ("players", "variant"))
                        else []
                    ),
                    ("territory", col("territory_name")),
                    ("first villages", col("picks")),
                    ("share of first villages", col("pick_share", pct)),
                    ("chosen by the first pick", col("first_picks")),
                    ("wins", col("wins")),
                    ("win rate", col("win_rate", pct)),
                    ("95% interval", lambda r: interval(r["ci_low"], r["ci_high"], as_pct=True)),
                ],
            ),
            table(
                "Do the territories win equally often?",
                territory_tests,
                [
                    ("players", col("players")),
                    ("variant", col("variant")),
                    ("first villages", col("picks")),
                    ("chi-square", col("chi2")),
                    ("degrees of freedom", col("dof")),
                    ("p", col("p", pval)),
                ],
            ),
        ],
        notes=[
            "Draft order 1 places its first village (with its warrior) first and its second village last "
            "(the order reverses). The territory is that of the seat's first village when the draft ends "
            "(after any weighing anchor). Territories are not dealt at random: strong picks choose some more "
            "often, so a territory's win rate mixes the territory with who picks it. The territory test is a "
            "chi-square test of the wins and non-wins of each territory (equal win rates); the draft-order "
            "test compares the picks' summed wins "
            "with equal chances. " + GRAENALAND_NOTE
        ],
    )


def _three_player_reading(parts: dict[str, pl.DataFrame]) -> str:
    comp = parts["compare"].filter(pl.col("players") == 3)
    if comp.is_empty():
        comp = parts["compare"]
    players = int(comp["players"][0])
    row = {r["metric"].split(" (")[0]: r for r in comp.iter_rows(named=True)}
    side = parts["side_by_side"]
    bits = []
    if "hero_vote_share" in row:
        r = row["hero_vote_share"]
        others = side.filter(pl.col("players") != players) if "hero_share" in side.columns else side.clear()
        beside = "".join(
            f"; {x['population']} {pct(x['hero_share'], 0)}" for x in others.iter_rows(named=True)
        )
        bits.append(
            f"the heroes' share of the votes from {pct(r['base_estimate'], 0)} to {pct(r['estimate'], 0)} "
            f"({p_is(r['p_value'])}{beside})"
        )
    if "game_length" in row:
        r = row["game_length"]
        unit = r["metric"].split(" (")[1].rstrip(")") if " (" in r["metric"] else ""
        bits.append(
            f"the game length from {num(r['base_estimate'], 1)} to {num(r['estimate'], 1)} {unit} "
            f"({r['diff']:+.1f} {interval(r['diff_low'], r['diff_high'])}, {p_is(r['p_value'])})"
        )
    if "balance_gap" in row:
        r = row["balance_gap"]
        bits.append(
            f"the largest gap between two seats' win rates from {100 * r['base_estimate']:.0f} to "
            f"{100 * r['estimate']:.0f} percentage points ({100 * r['diff']:+.0f} "
            f"{interval(100 * r['diff_low'], 100 * r['diff_high'], digits=0)}, {p_is(r['p_value'])})"
        )
    listed = (
        ", ".join(bits[:-1]) + (" and " if len(bits) > 1 else "") + bits[-1] if bits else "nothing measured"
    )
    sig = comp.filter(pl.col("p_value") < 0.05).height
    return (
        f"Against the same {players_words(players)} population without them, the adjustments change "
        f"{listed}; {sig} of {comp.height} differences are significant at the 5% level."
    )


def three_player_section(g: Runs) -> Section | None:
    """The three-player adjustments, with and without, beside 4 and 5 players; None without a
    comparison to make."""
    parts = graenaland.three_player(g)
    comp = parts["compare"]
    if comp.is_empty():
        return None
    side = parts["side_by_side"]
    labels = {**charts.METRIC_LABELS, **graenaland.METRIC_NAMES}
    unit = parts["lengths"]["unit"][0] if parts["lengths"].height else "rounds"
    metrics = [
        ("max_gap", "gap_low", "gap_high", "largest seat win-rate gap (pp)", 100.0),
        (unit, f"{unit}_low", f"{unit}_high", f"game length ({unit})", 1.0),
    ]
    if "hero_share" in side.columns:
        metrics.append(
            ("hero_share", "hero_share_low", "hero_share_high", "heroes' share of votes (%)", 100.0)
        )
    metrics.append(("truncated_rate", "trunc_low", "trunc_high", "truncated games (%)", 100.0))
    several = _several(side, "mix", ("population",))
    side = side.with_columns(
        (
            pl.col("population") + pl.when(pl.lit(several)).then(": " + pl.col("mix")).otherwise(pl.lit(""))
        ).alias("label")
    )
    found = [
        Chart(
            "three-player-side-by-side",
            charts.png(
                charts.populations(
                    side,
                    metrics,
                    "label",
                    "Three players with and without the adjustments, beside 4 and 5 (95% intervals)",
                )
            ),
            "Seat-balance spread, game length, heroes' vote share and truncated games per population",
        ),
        Chart(
            "three-player-effects",
            charts.png(
                charts.effects(
                    comp,
                    {**labels, **graenaland.METRIC_CHART_NAMES},
                    "Adjustments on minus off, three players (95% intervals)",
                )
            ),
            "Differences the adjustments make, with intervals",
        ),
    ]
    tables = [
        table(
            "With minus without the adjustments",
            comp,
            [
                ("players", col("players")),
                *([("strategy mix", col("mix"))] if _several(comp, "mix") else []),
                ("metric", lambda r: labels.get(r["metric"].split(" (")[0], r["metric"])),
                ("without", lambda r: _metric_value(r, "base_estimate")),
                ("with", lambda r: _metric_value(r, "estimate")),
                ("difference [95%]", _metric_diff),
                ("effect size", lambda r: f"{num(r['effect'], 2)} ({r['effect_name']})"),
                ("p", col("p_value", pval)),
                ("test", col("test")),
            ],
        ),
        table(
            "Side by side: three players with and without the adjustments, and more players",
            side,
            [
                ("population", col("label")),
                ("games", col("games")),
                (
                    "truncated [95%]",
                    lambda r: (
                        f"{pct(r['truncated_rate'])} "
                        + interval(r["trunc_low"], r["trunc_high"], as_pct=True)
                    ),
                ),
                (
                    "largest seat gap [95%]",
                    lambda r: f"{pct(r['max_gap'])} " + interval(r["gap_low"], r["gap_high"], as_pct=True),
                ),
                ("Balance", col("balance", lambda x: num(x, 3))),
                ("equal chances p", col("chi2_p", pval)),
                (
                    f"{unit} [95%]",
                    lambda r: f"{num(r[unit], 1)} " + interval(r[f"{unit}_low"], r[f"{unit}_high"]),
                ),
                *(
                    [
                        (
                            "heroes' vote share [95%]",
                            lambda r: (
                                f"{pct(r['hero_share'])} "
                                + interval(r["hero_share_low"], r["hero_share_high"], as_pct=True)
                            ),
                        )
                    ]
                    if "hero_share" in side.columns
                    else []
                ),
            ],
        ),
    ]
    if "goals" in parts:
        goals = parts["goals"]
        found.append(
            Chart(
                "three-player-goals",
                charts.png(
                    charts.goal_bars(goals, "population", "Goals the winners meet (95% Wilson intervals)")
                ),
                "Share of winners meeting each goal, per population",
            )
        )
        wide = (
            goals.with_columns(
                pl.concat_str(
                    [
                        (pl.col("rate") * 100).round(0).cast(pl.Int64).cast(pl.String),
                        pl.lit("% ["),
                        (pl.col("ci_low") * 100).round(0).cast(pl.Int64).cast(pl.String),
                        pl.lit(", "),
                        (pl.col("ci_high") * 100).round(0).cast(pl.Int64).cast(pl.String),
                        pl.lit("]"),
                    ]
                ).alias("cell")
            )
            .group_by("population", "players", "adjusted", "mix", maintain_order=True)
            .agg(
                pl.col("winners").first(),
                *[pl.col("cell").filter(pl.col("goal") == c).first().alias(c) for c in graenaland.GOALS],
            )
        )
        tables.append(
            table(
                "Share of winners meeting each goal [95%]",
                wide,
                [
                    ("population", col("population")),
                    ("winners", col("winners")),
                    *[(label, col(c)) for c, label in graenaland.GOALS.items()],
                ],
            )
        )
    return Section(
        "three-player",
        "Graenaland three-player adjustments",
        "Do the three-player adjustments do their job? The same three-player population with and without "
        "them, beside four and five players: seat balance, game length, heroes' versus settlements' votes, "
        "the goals "
        "winners reach and truncated games.",
        _three_player_reading(parts),
        charts=found,
        tables=tables,
        notes=[
            "Populations: '3p adjusted' plays the rulebook (three_player_adjustments auto or on), '3p "
            "unadjusted' the same strategies and seeds with them off; 4p and 5p play without them (auto). "
            "Runs with the custom-start draft, victory cards or the five-player offer are left out. "
            "Differences are with minus without. Largest seat gap: bootstrap interval (400 resamples of "
            "games) and a permutation test (game labels shuffled); game length and heroes' share of each "
            "game's votes: normal interval, Cohen's d, Welch t test; truncated games and each goal's share "
            "among winners: Newcombe interval, Cohen's h, two-proportion z test. The same seeds deal the "
            "same start in both variants, but games part ways at "
            "once, so they are treated as independent (conservative). " + GRAENALAND_NOTE
        ],
    )


def _metric_value(row: dict, key: str) -> str:
    value = row[key]
    if row["metric"].startswith("game_length"):
        return num(value, 1)
    return pct(value)


def _metric_diff(row: dict) -> str:
    if row["metric"].startswith("game_length"):
        return f"{row['diff']:+.2f} " + interval(row["diff_low"], row["diff_high"], digits=2)
    return _pp(row)


def graenaland_sections(runs: Runs) -> list[Section]:
    """Start positions, the custom-start draft and the three-player adjustments, as the records allow."""
    g = runs.only(game=graenaland.GAME)
    if not len(g):
        return []
    sections = []
    if len(graenaland.standard_runs(g)):
        try:
            sections.append(start_positions_section(g))
        except Exception as exc:  # a reshaped column: say so, keep the rest
            sections.append(
                _unavailable(
                    "start-positions", "Graenaland start positions", "Are the start positions fair?", exc
                )
            )
    if len(graenaland.draft_runs(g)):
        try:
            sections.append(draft_section(g))
        except Exception as exc:
            sections.append(
                _unavailable("draft", "Graenaland custom-start draft", "Does the draft favour a pick?", exc)
            )
    basic = {(r.players, graenaland.adjusted(r)) for r in g if graenaland.is_basic(r)}
    if not any((p, not a) in basic for p, a in basic):
        return sections  # no player count played both with and without the three-player adjustments
    try:
        three = three_player_section(g)
    except Exception as exc:
        three = _unavailable(
            "three-player", "Graenaland three-player adjustments", "Do the adjustments do their job?", exc
        )
    if three is not None:
        sections.append(three)
    return sections


# --------------------------------------------------------------------------- Knarr


KNARR_MEASURES = {
    "first_minus_last": "winner minus last",
    "first_minus_second": "winner minus runner-up",
    "winning_score": "winning score",
}


def _run_columns(frame: pl.DataFrame) -> list[tuple[str, Callable[[dict], str]]]:
    return [("players", col("players")), ("expansion", col("expansion")), *_variant_column(frame)]


def knarr_seat_section(k: Runs) -> Section:
    """Knarr's only seat section: win rate by seat per run (``analysis.knarr.seat_advantage``) and the
    game-agnostic tests of equal chances (``balance.balance_tests``) on the same records; the generic
    seat-balance section leaves Knarr out (``OWN_SEAT_SECTIONS``)."""
    rates = knarr.seat_advantage(k)
    tests = balance.balance_tests(k)
    low = tests.sort("chi2_p").row(0, named=True)
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
            else "outside its interval, so that seat has an edge."
        )
        + f" The chi-square test of equal seat chances is lowest at {p_is(low['chi2_p'])} "
        f"({players_words(low['players'])}, {low['variant']}, {low['decided']:,} decided games)"
        + (
            f", so the seats differ by more than chance there (of {tests.height} groups)."
            if low["chi2_p"] < 0.05
            else f", so no group of {tests.height} shows a seat advantage beyond chance."
        )
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
                    *_run_columns(rates),
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
            table(
                "Tests of equal seat chances, Balance and first-seat advantage",
                tests,
                [
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
                        "first seat advantage [95%]",
                        lambda r: (
                            f"{100 * r['first_advantage']:+.1f} pp "
                            + interval(r["first_adv_low"], r["first_adv_high"], as_pct=True)
                        ),
                    ),
                ],
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
                    *_run_columns(spread),
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
                    *_run_columns(held),
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
                    *_run_columns(freq),
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
                    *_run_columns(favour),
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
            sections.append(_unavailable(sid, title, question, exc))
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


#: Games whose seats their own sections cover, left out of the general seat-balance section: Graenaland's
#: seats are its start positions or draft picks; Knarr's seat section reads the round-completion rule.
OWN_SEAT_SECTIONS = (graenaland.GAME, knarr.GAME)


def build_sections(runs: Runs) -> list[Section]:
    """Every section the records support, in reading order."""
    rest = Runs([r for r in runs if r.game not in OWN_SEAT_SECTIONS])
    sections = [seat_section(rest)] if len(rest) else []
    if len(runs.only(game="mainland")):
        mainland = runs.only(game="mainland")
        sections += [
            mainland_score_section(mainland),
            mainland_points_section(mainland),
            mainland_play_section(mainland),
        ]
    sections += [strength_section(runs), curves_section(runs)]
    sections += graenaland_sections(runs)
    sections += knarr_sections(runs)
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
        duplicates=runs.duplicates,
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

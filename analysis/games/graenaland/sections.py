"""Report sections on Graenaland: the standard start positions, the custom-start draft and the
three-player adjustments."""

from __future__ import annotations

import math
import re
from typing import cast

import polars as pl

from analysis.data.runs import Runs
from analysis.games.graenaland import questions as graenaland
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
    panel_label,
    pct,
    players_words,
    pp,
    pval,
    seat_test_words,
    several,
    significant_groups,
    tests_table,
    unavailable,
    variant_column,
    variant_words,
)
from analysis.present.findings import Finding
from analysis.present.tables import (
    WIN_RATE,
    Spec,
    bounds,
    change_reading,
    comparison_findings,
    findings_for,
    mix_column,
    share_with_interval,
    stats_table,
    win_rate_columns,
    with_interval,
)
from analysis.questions import balance
from analysis.stats import inference

GAME = graenaland.GAME
KEYS = ("players", "variant", "mix")
#: how the three-player comparison names its two sides (``base`` and ``value`` of its findings)
WITHOUT, WITH = "without the adjustments", "with the adjustments"

GRAENALAND_NOTE = (
    "Ties are split fractionally (a k-way tie gives each tied winner 1/k of a win); truncated games are left "
    "out of win rates and counted in the tables. Balance = 1 - the largest gap between two win rates; its "
    "interval holds the Wilson intervals at a Bonferroni-adjusted level (simultaneous 95%, conservative). "
    "With fewer than 5 expected wins per cell the chi-square p-values are rough."
)


START_NOTE = (
    "Runs with the custom-start draft are left out here (see the draft section). Strategies rotate "
    "through the seats, so a position's win rate is not one strategy's. Position n is the seat that "
    "settles the spaces marked n (seat 1 starts). "
    "'{unit} of its wins' is the mean length of the games the position won (only the main player "
    "announces and the main player changes every round, so a position's wins fall on every n-th "
    "round); 'goals met' counts "
    "the goals a seat meets at the end (the announcer needs 3 of 5: 8 settlements; 2+ settlements on "
    "3 territories; 4 settlements on one territory; 2 buildings, 3 with the three-player "
    "adjustments; army strength 3). "
)


def _same_group(row: dict) -> pl.Expr:
    """The rows of ``row``'s player count, variant and strategy mix."""
    return (
        (pl.col("players") == row["players"])
        & (pl.col("variant") == row["variant"])
        & (pl.col("mix") == row["mix"])
    )


def _start_reading(tests: pl.DataFrame, positions: pl.DataFrame, position: str) -> str:
    """The least even group: its best and worst start positions, their goals, and the test."""
    worst = tests.sort("balance").row(0, named=True)
    rows = positions.filter(_same_group(worst))
    best = rows.sort("win_rate", descending=True).row(0, named=True)
    low = rows.sort("win_rate").row(0, named=True)

    def where(r: dict) -> str:
        plain = re.sub(r"[()]", "", r.get("start_territories") or "")
        return f"start position {r[position]}" + (f" ({plain})" if plain else "")

    significant = significant_groups(tests)
    verdict = (
        "more than chance explains"
        if worst["p_adjusted"] < 0.05
        else "no more than chance can explain at this size"
    )
    goals = ""
    if "goals_met" in rows.columns:
        goals = (
            f", their seats ending with {best['goals_met']:.1f} and {low['goals_met']:.1f} goals on average"
        )
    game = f"{players_words(worst['players'])} Graenaland{variant_words(worst['variant'])}"
    return (
        f"The least even case is {game}: in {worst['decided']:,} decided games {where(best)} wins "
        f"{pct(best['win_rate'])} {interval(best['ci_low'], best['ci_high'], as_pct=True)} and {where(low)} "
        f"{pct(low['win_rate'])} {interval(low['ci_low'], low['ci_high'], as_pct=True)}{goals}; the Balance "
        f"of {worst['balance']:.2f} {interval(worst['balance_low'], worst['balance_high'], digits=2)} "
        f"is {verdict} ({seat_test_words(worst, 'position')})"
        + (
            f", and {significant} of {tests.height} player counts and variants differ at the 5% level "
            f"({correction_words(worst)})."
            if tests.height > 1
            else "."
        )
    )


def _start_columns(positions: pl.DataFrame, position: str, unit: str) -> list[Spec]:
    columns: list[Spec] = [
        "players",
        *variant_column(positions),
        *mix_column(positions),
        ("position", col(position)),
        ("start territories", "start_territories"),
        "games",
        *win_rate_columns(expected=False),
        (f"{unit} of its wins [95%]", with_interval(f"{unit}_won", f"{unit}_won_low", f"{unit}_won_high")),
    ]
    if "goals_met" in positions.columns:
        goals = with_interval("goals_met", "goals_met_low", "goals_met_high", lambda x: f"{x:.2f}", digits=2)
        columns.append(("goals met [95%]", goals))
    return columns


def _start_charts(std: Runs, positions: pl.DataFrame, position: str) -> list[Chart]:
    """Win rate by start position, and the goals its seats meet where the records have them."""
    found = [
        Chart(
            "start-positions",
            charts.png(
                charts.win_rates(
                    balance.seat_balance(std, position=position),
                    position,
                    "Win rate by start position (95% intervals clustered on blocks)",
                )
            ),
            "Win rate by standard start position with 95% intervals",
        )
    ]
    if any(f"rate_{c}" in positions.columns for c in graenaland.GOALS):
        rates = graenaland.goal_rates(std, position, by=("players", "variant")).with_columns(panel_label())
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
    return found


def _start_findings(tests: pl.DataFrame, positions: pl.DataFrame, position: str, unit: str) -> list[Finding]:
    found = balance_findings("start-positions", tests, positions, position, "start position")
    per_position = findings_for(section="start-positions", groups=(*KEYS, position), games="games", game=GAME)
    for column, metric in ((f"{unit}_won", f"{unit} of its wins"), (graenaland.GOALS_MET, "goals met")):
        if column in positions.columns:
            kind = unit if column.endswith("_won") else "count"
            found += per_position(positions, metric=f"start position {metric}", unit=kind, **bounds(column))
    return found


def start_positions_section(runs: Runs) -> Section:
    """Graenaland's standard start positions: win rate, length, goals and territories per position."""
    std = graenaland.standard_runs(runs)
    position = graenaland.position_column(std)
    positions = graenaland.start_positions(std)
    tests = balance.balance_tests(std, position=position).sort("players", "variant", "mix")
    unit = "rounds" if "rounds_won" in positions.columns else "decisions"
    return Section(
        "start-positions",
        "Graenaland start positions",
        "Are the standard start positions fair? How often does each win, how long do its wins take, which "
        "goals do its seats reach, and where does it start?",
        _start_reading(tests, positions, position),
        charts=_start_charts(std, positions, position),
        tables=[
            tests_table("Tests of equal chances, Balance and first-player advantage", tests, "position"),
            stats_table("Each start position", positions, _start_columns(positions, position, unit)),
        ],
        findings=_start_findings(tests, positions, position, unit),
        notes=[START_NOTE.format(unit=unit) + GRAENALAND_NOTE],
    )


DRAFT_NOTE = (
    "Draft order 1 places its first village (with its warrior) first and its second village last "
    "(the order reverses). The territory is that of the seat's first village when the draft ends "
    "(after any weighing anchor). Territories are not dealt at random: strong picks choose some more "
    "often, so a territory's win rate mixes the territory with who picks it. The territory test "
    "takes one winner per game, each seat with chance 1/players, and compares each territory's "
    "wins with the seats it had (a Wald chi-square; a 2×k table of wins and non-wins would "
    "ignore that a game's wins sum to one, and so inflate the statistic); the draft-order test "
    "compares the picks' summed wins with equal chances on the rotation blocks. "
)


def _draft_reading(parts: dict[str, pl.DataFrame]) -> str:
    """The largest draft group: first and last pick, the best and worst first-village territories, and
    both tests under one correction."""
    order, order_tests = parts["order"], parts["order_tests"]
    territory, territory_tests = parts["territory"], parts["territory_tests"]
    main = order_tests.sort("decided", descending=True).row(0, named=True)
    same = _same_group(main)
    o = order.filter(same).sort("draft_order")
    first, last = o.row(0, named=True), o.row(o.height - 1, named=True)
    t = territory.filter(same).sort(["win_rate", "territory_name"], descending=[True, False])
    top, bottom = t.row(0, named=True), t.row(t.height - 1, named=True)
    tt = territory_tests.filter(same)
    t_p = tt["p"][0] if tt.height else math.nan
    both = inference.adjust([main["p_value"], t_p], balance.GROUP_CORRECTION)
    differ = [
        what
        for what, p in zip(("the picks", "the territories"), both.p_adjusted, strict=True)
        if not math.isnan(p) and p < 0.05
    ]
    verdict = (
        f"{' and '.join(differ)} differ by more than chance"
        if differ
        else "neither differs by more than chance at this sample size"
    ) + f" ({both.method}'s correction over {both.family} tests)"
    return (
        f"In {main['decided']:,} decided {players_words(main['players'])} games with the draft, the first "
        f"pick won {pct(first['win_rate'])} {interval(first['ci_low'], first['ci_high'], as_pct=True)} and "
        f"the last {pct(last['win_rate'])} {interval(last['ci_low'], last['ci_high'], as_pct=True)} "
        f"({seat_test_words(main, 'pick')}); first villages on {top['territory_name']} won "
        f"{pct(top['win_rate'])} of {top['picks']:,} and on {bottom['territory_name']} "
        f"{pct(bottom['win_rate'])} of {bottom['picks']:,} (one winner per game given who settled where, "
        f"{p_is(t_p)}): {verdict}."
    )


def _draft_findings(parts: dict[str, pl.DataFrame]) -> list[Finding]:
    found = balance_findings("draft", parts["order_tests"], parts["order"], graenaland.DRAFT_ORDER, "pick")
    draft = findings_for(section="draft", game=GAME)
    territory = parts["territory"]
    found += draft(
        territory,
        metric="first-village territory win rate",
        groups=(*KEYS, "territory_name"),
        games="picks",
        unit="share",
        expected="expected",
        **WIN_RATE,
    )
    return found + draft(
        parts["territory_tests"],
        metric="first-village territory test",
        groups=KEYS,
        p_value="p",
        test="Wald chi-square, one winner per game given who settled where (Rao-Scott on blocks)",
    )


def _draft_tables(parts: dict[str, pl.DataFrame]) -> list[Table]:
    order, territory = parts["order"], parts["territory"]
    return [
        tests_table(
            "Draft order: tests of equal chances, Balance and first-pick advantage",
            parts["order_tests"],
            "pick",
        ),
        stats_table(
            "Win rate by draft order",
            order,
            [
                "players",
                *variant_column(order),
                *mix_column(order),
                ("draft order", "draft_order"),
                "games",
                *win_rate_columns(col("wins")),
            ],
        ),
        stats_table(
            "Win rate by the territory of the first village",
            territory,
            [
                "players",
                *variant_column(territory),
                *mix_column(territory),
                ("territory", "territory_name"),
                ("first villages", "picks"),
                ("share of first villages", col("pick_share", pct)),
                ("chosen by the first pick", "first_picks"),
                *win_rate_columns(col("wins"), expected=False),
            ],
        ),
        stats_table(
            "Do the territories win equally often?",
            parts["territory_tests"],
            [
                "players",
                "variant",
                ("first villages", "picks"),
                ("Wald chi-square (one winner per game)", "chi2"),
                ("degrees of freedom", "dof"),
                ("p", col("p", pval)),
            ],
        ),
    ]


def draft_section(runs: Runs) -> Section:
    """The custom-start draft: win rate by draft order and by the territory of the first village."""
    parts = graenaland.draft(runs)
    chart = charts.draft_rates(
        parts["order"], parts["territory"], "The custom-start draft: win rate (95% Wilson intervals)"
    )
    return Section(
        "draft",
        "Graenaland custom-start draft",
        "With the custom-start draft, does the pick order or the territory a player settles first change the "
        "chance to win?",
        _draft_reading(parts),
        charts=[
            Chart(
                "draft",
                charts.png(chart),
                "Win rate by draft order and by the territory of the first village",
            )
        ],
        tables=_draft_tables(parts),
        findings=_draft_findings(parts),
        notes=[DRAFT_NOTE + GRAENALAND_NOTE],
    )


def named_sides(changes: pl.DataFrame) -> pl.DataFrame:
    """``fairness_change.fairness_changes`` of the adjustments with its sides named as the page names them."""
    if changes.is_empty():
        return changes
    return changes.with_columns(
        pl.col("base").replace({"off": WITHOUT, "on": WITH}),
        pl.col("value").replace({"off": WITHOUT, "on": WITH}),
    )


def position_label(changes: pl.DataFrame) -> str:
    """``start position`` or ``seat``: what a fairness change of the adjustments is about."""
    starts = not changes.is_empty() and changes["position"][0] == "start_position"
    return "start position" if starts else "seat"


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
            f"({_holm_p(r)}{beside})"
        )
    if "game_length" in row:
        r = row["game_length"]
        unit = r["metric"].split(" (")[1].rstrip(")") if " (" in r["metric"] else ""
        bits.append(
            f"the game length from {num(r['base_estimate'], 1)} to {num(r['estimate'], 1)} {unit} "
            f"({r['diff']:+.1f} {interval(r['diff_low'], r['diff_high'])}, {_holm_p(r)})"
        )
    if "balance_gap" in row:
        r = row["balance_gap"]
        bits.append(
            f"the largest gap between two seats' win rates from {100 * r['base_estimate']:.0f} to "
            f"{100 * r['estimate']:.0f} percentage points ({100 * r['diff']:+.0f} "
            f"{interval(100 * r['diff_low'], 100 * r['diff_high'], digits=0)}, {_holm_p(r)})"
        )
    listed = (
        ", ".join(bits[:-1]) + (" and " if len(bits) > 1 else "") + bits[-1] if bits else "nothing measured"
    )
    sig = comp.filter(pl.col("p_adjusted") < 0.05).height
    family = int(cast(int, comp["family"].max()))
    changes = parts.get("changes", pl.DataFrame())
    lead = change_reading(named_sides(changes), position_label(changes))
    return lead + (
        f"Against the same {players_words(players)} population without them, the adjustments change "
        f"{listed}; {sig} of {comp.height} differences are significant at the 5% level after "
        f"{comp['correction'][0]}'s correction over the {family} metrics of each comparison."
    )


def _holm_p(row: dict) -> str:
    """A p with its Holm-adjusted p over the comparison's metrics: ``p = 0.012, Holm p = 0.09``."""
    return f"{p_is(row['p_value'])}, {row['correction']} {p_is(row['p_adjusted'])}"


THREE_PLAYER_NOTE = (
    "Populations: '3p adjusted' plays the rulebook (three_player_adjustments auto or on), '3p "
    "unadjusted' the same strategies and seeds with them off; 4p and 5p play without them (auto). "
    "Runs with the custom-start draft, victory cards or the five-player offer are left out. "
    "Differences are with minus without, by the design: paired by block where the two runs share "
    "seeds (the same deals), else on each side's blocks (cluster-robust). Largest seat gap: "
    "bias-corrected by a bootstrap of whole blocks, jackknife t interval, and the seats' "
    "homogeneity chi-square as a permutation test relabelling whole blocks; game length, heroes' "
    "share of each game's votes, truncated games and each goal's share among a game's winners: one "
    "value per game, t on the blocks (effect sizes Cohen's d or h). Holm's correction over each "
    "comparison's metrics gives the adjusted p. "
)


def _population_metrics(side: pl.DataFrame, unit: str) -> list[tuple[str, str, str, str, float]]:
    """The side-by-side chart's metrics: (column, low, high, label, scale)."""
    metrics = [
        ("max_gap", "gap_low", "gap_high", "largest seat win-rate gap (pp)", 100.0),
        (unit, f"{unit}_low", f"{unit}_high", f"game length ({unit})", 1.0),
    ]
    if "hero_share" in side.columns:
        metrics.append(
            ("hero_share", "hero_share_low", "hero_share_high", "heroes' share of votes (%)", 100.0)
        )
    metrics.append(("truncated_rate", "trunc_low", "trunc_high", "truncated games (%)", 100.0))
    return metrics


def _three_player_charts(
    side: pl.DataFrame, comp: pl.DataFrame, unit: str, labels: dict[str, str]
) -> list[Chart]:
    return [
        Chart(
            "three-player-side-by-side",
            charts.png(
                charts.populations(
                    side,
                    _population_metrics(side, unit),
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


def _difference_table(comp: pl.DataFrame, labels: dict[str, str]) -> Table:
    return stats_table(
        "With minus without the adjustments",
        comp,
        [
            "players",
            *mix_column(comp, ("players",)),
            ("metric", lambda r: labels.get(r["metric"].split(" (")[0], r["metric"])),
            ("without", lambda r: _metric_value(r, "base_estimate")),
            ("with", lambda r: _metric_value(r, "estimate")),
            ("difference [95%]", _metric_diff),
            ("effect size", lambda r: f"{num(r['effect'], 2)} ({r['effect_name']})"),
            ("p", col("p_value", pval)),
            ("Holm p (over the comparison's metrics)", col("p_adjusted", pval)),
            "test",
        ],
    )


def _side_table(side: pl.DataFrame, unit: str) -> Table:
    heroes = [
        ("heroes' vote share [95%]", share_with_interval("hero_share", "hero_share_low", "hero_share_high"))
    ]
    return stats_table(
        "Side by side: three players with and without the adjustments, and more players",
        side,
        [
            ("population", "label"),
            "games",
            ("truncated [95%]", share_with_interval("truncated_rate", "trunc_low", "trunc_high")),
            ("largest seat gap [95%]", share_with_interval("max_gap", "gap_low", "gap_high")),
            ("Balance", col("balance", lambda x: num(x, 3))),
            ("equal chances p (design-aware)", col("p_value", pval)),
            ("Holm p", col("p_adjusted", pval)),
            (f"{unit} [95%]", with_interval(unit, f"{unit}_low", f"{unit}_high")),
            *(heroes if "hero_share" in side.columns else []),
        ],
    )


def _goals_chart(goals: pl.DataFrame) -> Chart:
    return Chart(
        "three-player-goals",
        charts.png(charts.goal_bars(goals, "population", "Goals the winners meet (95% Wilson intervals)")),
        "Share of winners meeting each goal, per population",
    )


def _goals_table(goals: pl.DataFrame) -> Table:
    """One row per population, one ``rate% [low, high]`` cell per goal."""
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
    return stats_table(
        "Share of winners meeting each goal [95%]",
        wide,
        [
            "population",
            "winners",
            *[(label, col(c)) for c, label in graenaland.GOALS.items()],
        ],
    )


def three_player_section(runs: Runs) -> Section | None:
    """The three-player adjustments, with and without, beside 4 and 5 players; None without a
    comparison to make."""
    parts = graenaland.three_player(runs)
    comp = parts["compare"]
    if comp.is_empty():
        return None
    side = parts["side_by_side"]
    labels = {**charts.METRIC_LABELS, **graenaland.METRIC_NAMES}
    unit = parts["lengths"]["unit"][0] if parts["lengths"].height else "rounds"
    mixes = several(side, "mix", ("population",))
    side = side.with_columns(
        (
            pl.col("population") + pl.when(pl.lit(mixes)).then(": " + pl.col("mix")).otherwise(pl.lit(""))
        ).alias("label")
    )
    found = _three_player_charts(side, comp, unit, labels)
    tables = [_difference_table(comp, labels), _side_table(side, unit)]
    if "goals" in parts:
        found.append(_goals_chart(parts["goals"]))
        tables.append(_goals_table(parts["goals"]))
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
        findings=_three_player_findings(parts, unit),
        notes=[THREE_PLAYER_NOTE + GRAENALAND_NOTE],
    )


def _three_player_findings(parts: dict[str, pl.DataFrame], unit: str) -> list[Finding]:
    """The comparison (``<metric> difference`` with Holm's p over its metrics, one family per player
    count and mix, ``with the adjustments`` against ``without``), each population's seat gap with its
    test, length, heroes' share and truncated games, and the winners' goals."""
    names = graenaland.METRIC_NAMES
    comp = parts["compare"].with_columns(
        pl.col("metric").map_elements(
            lambda m: (
                names.get(m.split(" (")[0], m.split(" (")[0]) + (m[m.index(" (") :] if " (" in m else "")
            ),
            pl.String,
        ),
        pl.col("base").replace({"off": WITHOUT, "on": WITH}),
        pl.col("value").replace({"off": WITHOUT, "on": WITH}),
    )
    found = comparison_findings("three-player", comp)
    changes = parts.get("changes", pl.DataFrame())
    found += fairness_change_findings("three-player", named_sides(changes), position_label(changes))
    side, keys = parts["side_by_side"], ("population", "mix")
    population = findings_for(section="three-player", groups=keys, game=GAME)
    found += population(
        side,
        metric="largest seat win-rate gap",
        **bounds("max_gap", "gap_low", "gap_high"),
        p_value="p_value",
        p_adjusted="p_adjusted",
        test="test",
        correction="correction",
        family="family",
        games="decided",
        clusters="blocks",
        unit="difference",
        expected=0.0,
        excluded="excluded",
    )
    for column, metric, kind in (
        (unit, "game length", unit),
        ("hero_share", "heroes' share of the votes", "share"),
        ("truncated_rate", "share of truncated games", "share"),
    ):
        if column in side.columns:
            limits = (
                bounds(column, "trunc_low", "trunc_high") if column == "truncated_rate" else bounds(column)
            )
            found += population(side, metric=metric, games="games", unit=kind, **limits)
    if "goals" in parts:
        found += population(
            parts["goals"],
            metric="winners meeting the goal",
            groups=(*keys, "label"),
            games="winners",
            unit="share",
            **bounds("rate", "ci_low", "ci_high"),
        )
    return found


def _metric_value(row: dict, key: str) -> str:
    value = row[key]
    if row["metric"].startswith("game_length"):
        return num(value, 1)
    return pct(value)


def _metric_diff(row: dict) -> str:
    if row["metric"].startswith("game_length"):
        return f"{row['diff']:+.2f} " + interval(row["diff_low"], row["diff_high"], digits=2)
    return pp(row)


def graenaland_sections(runs: Runs) -> list[Section]:
    """Start positions, the custom-start draft and the three-player adjustments, as the records allow."""
    own = runs.only(game=graenaland.GAME)
    if not len(own):
        return []
    sections = []
    if len(graenaland.standard_runs(own)):
        try:
            sections.append(start_positions_section(own))
        except Exception as exc:  # a reshaped column: say so, keep the rest
            sections.append(
                unavailable(
                    "start-positions", "Graenaland start positions", "Are the start positions fair?", exc
                )
            )
    if len(graenaland.draft_runs(own)):
        try:
            sections.append(draft_section(own))
        except Exception as exc:
            sections.append(
                unavailable("draft", "Graenaland custom-start draft", "Does the draft favour a pick?", exc)
            )
    basic = {(r.players, graenaland.adjusted(r)) for r in own if graenaland.is_basic(r)}
    if not any((p, not a) in basic for p, a in basic):
        return sections  # no player count played both with and without the three-player adjustments
    try:
        three = three_player_section(own)
    except Exception as exc:
        three = unavailable(
            "three-player", "Graenaland three-player adjustments", "Do the adjustments do their job?", exc
        )
    if three is not None:
        sections.append(three)
    return sections

"""Score spreads for any game: by how many points the winner leads the runner-up, and how often a game is
close, per player count, rule variant and strategy mix; and, where a group holds two or more rule
variants, each variant against the baseline, decided against a margin (``analysis.stats.decide``).

* The winner's margin of a game is its highest final score minus its second highest
  (``analysis.questions.scores.margins``); a tie for first is a margin of 0.  Its mean per group carries the
  block-aware 95% interval (``analysis.stats.estimates.cluster_mean``: block totals, t on B − 1 df).
* A game is *close* where its margin is at most the game's close-game threshold (``SpreadScale.close``:
  its plug-in's ``close_within``); the share of close games carries the block-aware interval of a rate
  (``analysis.stats.estimates.cluster_proportion``: Wilson's at n_eff with a t quantile).
* Truncated and errored games have no final scores: they are left out and counted beside every number.
* Rule variants at the same game, player count and strategy mix are compared with the baseline
  (``defaults`` where present: ``analysis.questions.balance._baseline``) by ``score_spread_decisions``, paired
  by deal where both hold the same deals (``analysis.questions.balance._paired``): the winner's margin against
  the game's margin in points (``SpreadScale.margin``) and the share of close games against ``SHARE_MARGIN``.

The findings (``SPREAD_METRICS``) are every number the section states; ``spread_verdicts`` words the
first screen's verdict of each game from them alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis.data.design import design_games
from analysis.data.runs import Runs
from analysis.present.blocks import Section, Table, col, num, pct, pval
from analysis.present.decision_words import many_decisions
from analysis.present.findings import (
    SPREAD_CLOSE,
    SPREAD_CLOSE_CHANGE,
    SPREAD_MARGIN,
    SPREAD_MARGIN_CHANGE,
    SPREAD_THRESHOLD,
    Finding,
    from_frame,
)
from analysis.present.tables import share_with_interval, stats_table, with_interval
from analysis.questions import scores
from analysis.questions.balance import _baseline, _block_seeds, _paired
from analysis.report.verdict import Verdict, group_words
from analysis.report.verdict import claim as decision_claim
from analysis.stats import inference
from analysis.stats.decide import SHARE_MARGIN, Decision, score_spread_decisions
from analysis.stats.decide.core import DIFFERS, SAME, UNDECIDED
from analysis.stats.decide.differences import CLOSE_WITHIN
from sim.games import GAMES

TITLE = "Score spreads"
QUESTION = "How wide are the score spreads: by how much does the winner lead, and how often is a game close?"

#: the metrics of the section's findings (the verdict finds its own by their questions: ``SPREAD_*``)
MARGIN = "winner's margin"
MEDIAN = "winner's margin median"
CLOSE = "close games"
THRESHOLD = "close-game threshold"
BELOW_TOP = "winner below the top score"
#: the decisions of a rule variant against the baseline (``SPREAD_MARGIN_CHANGE``, ``SPREAD_CLOSE_CHANGE``:
#: not the page's plain differences)
MARGIN_DECISION = "winner's margin decision"
CLOSE_DECISION = "close games decision"
#: the question each decision answers
DECISION_QUESTIONS = {MARGIN_DECISION: SPREAD_MARGIN_CHANGE, CLOSE_DECISION: SPREAD_CLOSE_CHANGE}
SPREAD_METRICS = (MARGIN, MEDIAN, CLOSE, THRESHOLD, BELOW_TOP, MARGIN_DECISION, CLOSE_DECISION)
#: the groups a spread is never pooled over
GROUP = ("game", "players", "variant", "mix")


@dataclass(frozen=True)
class SpreadScale:
    """A game's scale for score spreads: ``close`` (a game whose winner's margin is at most this many
    points is close) and ``margin`` (δ: the difference in the mean winner's margin, in points, that a
    comparison of rule variants decides against)."""

    close: float
    margin: float


def spread_scale(game: str) -> SpreadScale:
    """The close-game threshold and comparison margin ``game``'s plug-in declares (``close_within``,
    ``spread_margin``: about a twentieth of a typical winning score), or the plug-in defaults
    (``CLOSE_WITHIN`` points and a 2-point margin) for a game not installed."""
    plugin = GAMES.get(game)
    if plugin is None:
        return SpreadScale(close=CLOSE_WITHIN, margin=2.0)
    return SpreadScale(close=float(plugin.close_within), margin=float(plugin.spread_margin))


def has_final_scores(runs: Runs) -> bool:
    """Whether every run's seats record a final ``score`` (every game of Skald's does)."""
    return bool(len(runs)) and runs.has_column("seats", "score")


# --------------------------------------------------------------------------- tables


def game_margins(runs: Runs, scale: SpreadScale | None = None) -> pl.DataFrame:
    """Per finished game: ``run``, ``game_id``, ``block``, ``game_seed``, the ``GROUP`` columns, the winner's
    ``margin`` (highest minus second highest score; 0 on a tie for first), ``close`` (the margin at most
    the game's threshold: ``scale`` or ``spread_scale``), ``close_within`` (that threshold) and
    ``below_top`` (a winner of the game did not hold the highest score: Graenaland's announcer can win
    with fewer goals).  Games without a runner-up (one seat) are left out."""
    frame = scores.margins(runs).filter(pl.col("margin").is_not_null())
    seats = (
        scores.final_seats(runs)
        .group_by("run", "game_id")
        .agg(
            (pl.col("score").filter(pl.col("win_share") > 0).min() < pl.col("score").max())
            .fill_null(False)
            .alias("below_top")
        )
    )
    seeds = runs.games().select("run", "game_id", "game_seed")
    threshold = (
        pl.lit(scale.close)
        if scale is not None
        else pl.col("game").map_elements(lambda g: spread_scale(str(g)).close, return_dtype=pl.Float64)
    )
    return (
        frame.lazy()
        .join(seats, on=["run", "game_id"], how="left")
        .join(seeds, on=["run", "game_id"], how="left")
        .with_columns(threshold.alias("close_within"))
        .with_columns((pl.col("margin") <= pl.col("close_within")).alias("close"))
        .sort("run", "game_id")
        .collect()
    )


def spread_table(runs: Runs, margins: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per group (``GROUP``): ``games`` (finished), ``blocks``, ``excluded`` (truncated or errored games
    left out), the winner's margin ``mean`` with ``low``/``high`` (block-aware 95%) and ``median``, the
    share of ``close`` games with ``close_low``/``close_high`` (block-aware 95%), ``close_within`` (the
    threshold) and ``below_top`` (games whose winner did not hold the highest score)."""
    frame = game_margins(runs) if margins is None else margins
    keys = list(GROUP)
    if frame.is_empty():
        return pl.DataFrame()
    means = inference.means_by(frame, keys, "margin").select(*keys, "games", "mean", "low", "high", "blocks")
    rates = inference.proportions_by(frame.with_columns(pl.col("close").cast(pl.Float64)), keys, "close")
    rates = rates.select(
        *keys,
        pl.col("win_rate").alias("close"),
        pl.col("ci_low").alias("close_low"),
        pl.col("ci_high").alias("close_high"),
    )
    extra = frame.group_by(keys).agg(
        pl.col("margin").median().alias("median"),
        pl.col("close_within").first(),
        pl.col("below_top").sum().cast(pl.Int64),
    )
    excluded = design_games(runs).group_by(keys).agg(pl.col("excluded").sum().cast(pl.Int64)).collect()
    return (
        means.join(rates, on=keys, how="left", nulls_equal=True)
        .join(extra, on=keys, how="left", nulls_equal=True)
        .join(excluded, on=keys, how="left", nulls_equal=True)
        .with_columns(pl.col("excluded").fill_null(0))
        .sort("game", "players", pl.col("variant") != "defaults", "variant", "mix")
    )


@dataclass(frozen=True)
class Comparison:
    """One rule variant against the baseline in one group: the ``value`` and ``base`` variants, the
    group (``game``, ``players``, ``mix``), whether the two were ``paired`` by deal, the games each side
    left out (``excluded``) and the two decisions (``MARGIN_DECISION``, ``CLOSE_DECISION``)."""

    game: str
    players: int
    mix: str
    base: str
    value: str
    paired: bool
    excluded: int
    decisions: dict[str, Decision]


def spread_comparisons(
    runs: Runs, margins: pl.DataFrame | None = None, scale: SpreadScale | None = None
) -> list[Comparison]:
    """Each rule variant against its group's baseline (``_baseline``: ``defaults`` where present) at
    the same game, player count and strategy mix: ``score_spread_decisions`` on the games' margins, paired
    by deal where both hold the same deals (``_paired``: one game seed a block on each side, the same
    seeds), with the game's margin in points and close-game threshold (``scale`` or ``spread_scale``)
    and ``SHARE_MARGIN``."""
    frame = game_margins(runs, scale) if margins is None else margins
    if frame.is_empty():
        return []
    excluded = design_games(runs).group_by(*GROUP).agg(pl.col("excluded").sum().cast(pl.Int64)).collect()
    out = []
    for key, group in frame.group_by("game", "players", "mix", maintain_order=True):
        game, players, mix = key
        played = excluded.filter(
            (pl.col("game") == game) & (pl.col("players") == players) & (pl.col("mix") == mix)
        )
        values = sorted(played["variant"].unique().to_list(), key=str)
        done = set(group["variant"])
        base = _baseline(values, None)
        if len(values) < 2 or base not in done:
            continue  # one variant, or a baseline none of whose games finished: nothing to compare with
        used = scale if scale is not None else spread_scale(str(game))
        a = group.filter(pl.col("variant") == base)
        for value in values:
            if value == base or value not in done:
                continue
            b = group.filter(pl.col("variant") == value)
            paired = _paired(_block_seeds(a), _block_seeds(b))
            ids = "game_seed" if paired else "block"
            decisions = score_spread_decisions(
                a["margin"].to_numpy(),
                a[ids].to_list(),
                b["margin"].to_numpy(),
                b[ids].to_list(),
                points=used.margin,
                share=SHARE_MARGIN,
                close_within=used.close,
                paired=paired,
            )
            left = played.filter(pl.col("variant").is_in([base, value]))["excluded"].sum()
            named = {MARGIN_DECISION: decisions["winner's margin"], CLOSE_DECISION: decisions["close games"]}
            out.append(
                Comparison(str(game), int(players), str(mix), str(base), str(value), paired, int(left), named)
            )
    return out


# --------------------------------------------------------------------------- findings


def spread_findings(sid: str, table: pl.DataFrame, comparisons: Sequence[Comparison]) -> list[Finding]:
    """Every number of the section: per game its close-game threshold; per group the winner's margin
    (mean with interval, and median), the share of close games (with interval) and, where any, the games
    whose winner did not hold the highest score; per comparison its two decisions."""
    keys = ("players", "variant", "mix")
    found = [
        Finding(
            game=str(row["game"]),
            section=sid,
            metric=THRESHOLD,
            estimate=row["close_within"],
            unit="points",
            question=SPREAD_THRESHOLD,
        )
        for row in table.unique("game", maintain_order=True).iter_rows(named=True)
    ]
    shared: dict[str, Any] = {"section": sid, "groups": keys, "games": "games", "excluded": "excluded"}
    found += from_frame(
        table, metric=MARGIN, estimate="mean", low="low", high="high", clusters="blocks", unit="points",
        test="cluster t (B-1 df)", question=SPREAD_MARGIN, **shared,
    )  # fmt: skip
    found += from_frame(table, metric=MEDIAN, estimate="median", unit="points", **shared)
    found += from_frame(
        table, metric=CLOSE, estimate="close", low="close_low", high="close_high", clusters="blocks",
        unit="share", test="cluster Wilson (t, B-1 df)", question=SPREAD_CLOSE, **shared,
    )  # fmt: skip
    found += from_frame(
        table.filter(pl.col("below_top") > 0), metric=BELOW_TOP, estimate="below_top", unit="count", **shared
    )
    for comp in comparisons:
        for metric, decision in comp.decisions.items():
            found.append(decision_finding(sid, comp, metric, decision))
    return found


def decision_finding(sid: str, comp: Comparison, metric: str, decision: Decision) -> Finding:
    """One decision of a comparison as a finding: ``Decision.to_finding``'s decisive statistic (its
    interval with the p of the same statistic), ``decision`` and ``margin``, the comparison's groups
    (``players``, ``mix``, ``base``, ``value``) and the games both sides left out.  The p is the
    decision's own (one test: no correction), as for the seat decisions."""
    row = decision.to_finding()
    return Finding(
        game=comp.game,
        section=sid,
        metric=metric,
        question=DECISION_QUESTIONS[metric],
        groups={"players": comp.players, "mix": comp.mix, "base": comp.base, "value": comp.value},
        estimate=row["estimate"],
        low=row["low"],
        high=row["high"],
        p_value=row["p_value"],
        test=row["test"],
        games=row["games"],
        clusters=row["clusters"],
        correction=row["correction"],
        family=row["family"],
        unit="points" if metric == MARGIN_DECISION else "difference",
        expected=0.0,
        excluded=comp.excluded,
        decision=row["decision"],
        margin=row["margin"],
        position=row["position"],
        half_width=row["half_width"],
        games_needed=row["games_needed"],
    )


# --------------------------------------------------------------------------- the section


def _points(x: float) -> str:
    """A threshold or margin in points: ``5``, ``0.5``."""
    return f"{x:g}"


def _amount(x: float, unit: str) -> str:
    """``5 points``, ``1 point``, ``1 percentage point``."""
    return f"{_points(x)} {unit.removesuffix('s') if x == 1 else unit}"


def close_words(within: float) -> str:
    """What a close game is: ``within 2 points``, ``within 1 point``, ``tied for the top score``."""
    if within <= 0:
        return "tied for the top score"
    return f"within {_points(within)} point{'' if within == 1 else 's'}"


def _group_label(row: dict[str, Any], table: pl.DataFrame) -> str:
    """``at 4 players`` with the variant and the mix where the table holds more than one."""
    parts = [f"at {row['players']} players"]
    if table["variant"].n_unique() > 1 or row["variant"] != "defaults":
        parts.append(str(row["variant"]))
    if table["mix"].n_unique() > 1:
        parts.append(str(row["mix"]))
    return ", ".join(parts)


def _excluded_words(n: int) -> str:
    return "none excluded" if not n else f"{n:,} truncated or errored left out"


def _reading(table: pl.DataFrame, comparisons: Sequence[Comparison]) -> str:
    """The largest group's spread in words, and how the rule variants compare."""
    row = table.sort("games", descending=True).row(0, named=True)
    text = (
        f"In the largest group ({_group_label(row, table)}, {row['games']:,} finished games, "
        f"{_excluded_words(row['excluded'])}) the winner leads the runner-up by {num(row['mean'], 1)} "
        f"points on average {_span(row['low'], row['high'])} (median {num(row['median'], 1)}); "
        f"{pct(row['close'], 0)} {_span(row['close_low'], row['close_high'], 100, 0)} of games are close "
        f"({close_words(row['close_within'])})."
    )
    if table.height > 1:
        text += f" The table gives all {table.height} groups."
    if comparisons:
        decided = [d for c in comparisons for d in c.decisions.values()]
        counts = {word: sum(d.decision == word for d in decided) for word in (SAME, DIFFERS, UNDECIDED)}
        many = len(comparisons) != 1
        text += (
            f" Against the baseline, {len(comparisons)} rule variant{'s give' if many else ' gives'} "
            f"{len(decided)} decisions: {counts[SAME]} the same within the margin, {counts[DIFFERS]} "
            f"different, {counts[UNDECIDED]} undecided."
        )
    return text


def _span(low: float | None, high: float | None, scale: float = 1.0, digits: int = 1) -> str:
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "[no interval]"
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def _spread_table(table: pl.DataFrame) -> Table:
    variant = [("variant", "variant")] if table["variant"].n_unique() > 1 else []
    mix = [("strategy mix", "mix")] if table["mix"].n_unique() > 1 else []
    below = [("winner below the top score", "below_top")] if table["below_top"].sum() else []
    return stats_table(
        "Winner's margin over the runner-up and close games",
        table,
        [
            "players",
            *variant,
            *mix,
            ("finished games", "games"),
            "blocks",
            ("excluded (truncated or errored)", "excluded"),
            ("winner's margin, mean points [95%]", with_interval("mean", "low", "high")),
            ("median", col("median", lambda x: num(x, 1))),
            ("close within (points)", col("close_within", lambda x: _points(x))),
            ("close games [95%]", share_with_interval("close", "close_low", "close_high")),
            *below,
        ],
    )


def _comparison_frame(comparisons: Sequence[Comparison]) -> pl.DataFrame:
    rows = []
    for comp in comparisons:
        for metric, d in comp.decisions.items():
            share = metric == CLOSE_DECISION
            scale, unit = (100.0, "pp") if share else (1.0, "points")
            low, high = d.interval
            rows.append(
                {
                    "players": comp.players,
                    "mix": comp.mix,
                    "value": comp.value,
                    "base": comp.base,
                    "metric": "close games" if share else "winner's margin",
                    "decision": d.decision,
                    "margin": f"{_points(scale * d.margin)} {unit}",
                    "difference": f"{scale * d.estimate:+.1f} {_span(low, high, scale)} {unit}",
                    "interval": "95% simultaneous" if d.shown == "difference" else "90% (equivalence)",
                    "p": pval(d.p_value),
                    "paired": "yes" if comp.paired else "no",
                    "games": int(d.games),
                    "blocks": d.blocks,
                    "excluded": comp.excluded,
                    "needed": "-" if d.games_needed is None else f"{d.games_needed:,}",
                }
            )
    return pl.DataFrame(rows)


def _comparison_table(comparisons: Sequence[Comparison]) -> Table:
    frame = _comparison_frame(comparisons)
    mix = [("strategy mix", "mix")] if frame["mix"].n_unique() > 1 else []
    return stats_table(
        "Rule variants against the baseline",
        frame,
        [
            "players",
            *mix,
            ("variant", "value"),
            ("baseline", "base"),
            "metric",
            "decision",
            "margin",
            ("difference (variant - baseline)", "difference"),
            "interval",
            ("p of that interval's test", "p"),
            ("paired by deal", "paired"),
            "games",
            "blocks",
            ("excluded (truncated or errored)", "excluded"),
            ("more games to decide", "needed"),
        ],
    )


def _notes(table: pl.DataFrame, scale: SpreadScale | None, compared: bool) -> list[str]:
    game = str(table["game"][0])
    used = scale if scale is not None else spread_scale(game)
    notes = [
        "The winner's margin is the highest final score minus the second highest (a tie for first is 0), "
        "over finished games; truncated and errored games have no final scores and are left out (counted "
        "in the table). Means and shares are estimated from block totals (a block is one deal replayed "
        "under every seat shift, else one game): the mean's interval is t on blocks - 1 degrees of "
        "freedom, the share's Wilson's at the blocks' effective size.",
        f"A game is close where the winner leads by at most {_points(used.close)} points "
        f"({close_words(used.close)}). Each game has its "
        "own threshold, about a twentieth of its typical winning score under scripted play rounded to "
        "whole points (Mainland 5, Knarr 2, Greenland 1; Graenaland, scored in goals met, 0: a tie on "
        "goals), so that close means one good turn could have turned the game.",
    ]
    if table["below_top"].sum():
        notes.append(
            "The winner did not always hold the highest score (Graenaland's announcer wins with the goals "
            "announced while another seat can end with more): the margin is still the gap between the two "
            "highest scores, the spread at the top of the table."
        )
    if compared:
        notes.append(
            "Each rule variant is compared with the baseline (the default rules where present) at the same "
            "player count and strategy mix, paired by deal where both hold the same deals (the same seeds "
            "and seats), and decided against a margin (docs/decisions.md): the winner's margin against "
            f"{_points(used.margin)} points, the share of close games against {_points(100 * SHARE_MARGIN)} "
            "percentage points. Same: the 90% interval lies inside the margin (two one-sided tests, its p "
            "the larger); differs: the 95% interval excludes 0 (its p the two-sided test's); else "
            "undecided, with about how many more games would decide it if the estimates held."
        )
    return notes


def spread_section(
    runs: Runs, sid: str = "score-spreads", scale: SpreadScale | None = None
) -> Section | None:
    """The score-spread section of one game's runs (``scale``: the close-game threshold and comparison
    margin, default ``spread_scale`` of each game): the winner's margin and close games per group, each
    rule variant against the baseline; None where the records have no final scores or no finished game
    with two seats."""
    if not has_final_scores(runs):
        return None
    margins = game_margins(runs, scale)
    if margins.is_empty():
        return None
    table = spread_table(runs, margins)
    comparisons = spread_comparisons(runs, margins, scale)
    tables = [_spread_table(table)] + ([_comparison_table(comparisons)] if comparisons else [])
    return Section(
        sid,
        TITLE,
        QUESTION,
        _reading(table, comparisons),
        tables=tables,
        notes=_notes(table, scale, bool(comparisons)),
        findings=spread_findings(sid, table, comparisons),
    )


# --------------------------------------------------------------------------- verdicts


def _share(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _interval(f: Finding, scale: float = 1.0, digits: int = 1) -> str:
    if f.low is None or f.high is None:
        return "(no interval)"
    return f"[{scale * f.low:.{digits}f}, {scale * f.high:.{digits}f}]"


def _p(p: float | None) -> str:
    return "p = -" if p is None else "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _games(f: Finding) -> str:
    games = f"{f.games or 0:,} games"
    if f.clusters and f.clusters != f.games:
        games += f" in {f.clusters:,} blocks"
    return f"{games}, {_excluded_words(f.excluded or 0)}"


def group_clause(margin: Finding, close: Finding | None, within: float, several: dict[str, bool]) -> str:
    """One group's spread: ``At 4 players the winner leads by 7.3 [6.1, 8.5] points on average; 18%
    [14, 23] of games are close (within 2 points); 400 games, none excluded``."""
    g = margin.groups
    where = f"At {g.get('players')} players"
    shown = {"variant": several["variant"] or g.get("variant") != "defaults", "mix": several["mix"]}
    extra = [group_words({k: g[k]}) for k in ("variant", "mix") if k in g and shown[k]]
    where += f" ({', '.join(extra)})" if extra else ""
    text = f"{where} the winner leads by {num(margin.estimate, 1)} {_interval(margin)} points on average"
    if close is not None:
        share = f"{_share(close.estimate)} {_interval(close, 100, 0)}"
        text += f"; {share} of games are close ({close_words(within)})"
    return text + f"; {_games(margin)}"


def decision_clause(f: Finding) -> str:
    """One decision of a rule variant against the baseline in words, with the interval and p of the
    statistic it rests on: the 90% interval and the equivalence (TOST) p where the two are the same
    within the margin or undecided, the 95% interval and the two-sided p where they differ."""
    share = f.question == SPREAD_CLOSE_CHANGE
    scale, unit = (100.0, " pp") if share else (1.0, " points")
    what = "the share of close games" if share else "the winner's margin"
    m = _amount(scale * (f.margin or 0), "percentage points" if share else "points")
    amount = f"{scale * (f.estimate or 0):+.1f} {_interval(f, scale)}{unit}"
    equivalence = f"({amount}, 90% interval; equivalence {_p(f.p_value)})"
    if f.low is None or f.high is None:
        amount = equivalence = (
            f"({scale * (f.estimate or 0):+.1f}{unit}; no interval: the blocks do not vary)"
        )
    if f.decision == SAME:
        return f"{what} is the same within {m} {equivalence}"
    if f.decision == DIFFERS:
        low, high, delta = f.low, f.high, f.margin or 0
        beyond = low is not None and high is not None and (low > delta or high < -delta)
        where = f"beyond the margin of {m}" if beyond else f"not shown beyond the margin of {m}"
        return f"{what} differs: {amount}, 95% interval ({_p(f.p_value)}), {where}"
    more = (
        f"about {f.games_needed:,} more games would decide it if the estimates held"
        if f.games_needed is not None
        else "the estimates do not say how many more games would decide it"
    )
    return f"{what} is undecided at a margin of {m} {equivalence}: {more}"


def comparison_sentence(pair: Sequence[Finding], several_mixes: bool) -> str:
    """Both decisions of one rule variant against the baseline in one sentence."""
    g = pair[0].groups
    where = f"at {g.get('players')} players" + (
        f", {group_words({'mix': g['mix']})}" if several_mixes else ""
    )
    clauses = "; ".join(decision_clause(f) for f in pair)
    first = pair[0]
    games = f"{first.games or 0:,} games, {first.clusters or 0:,} " + (
        "deals paired" if "paired" in (first.test or "") else "blocks"
    )
    return f"{g.get('value')} against {g.get('base')} {where}: {clauses} ({games})."


def claim(f: Finding) -> float:
    """A decision's p for the page's rule over its verdicts' decisions (``analysis.report.verdict.claim``)."""
    return decision_claim(f, DIFFERS)


def _extremes(found: Sequence[Finding], scale: float, digits: int, suffix: str = "") -> str:
    """``37.7 [33.2, 42.2] to 48.6 [42.8, 54.4]``: the smallest and largest estimates with their
    intervals (one where they agree)."""
    low = min(found, key=lambda f: f.estimate or 0.0)
    high = max(found, key=lambda f: f.estimate or 0.0)
    one = f"{scale * (low.estimate or 0):.{digits}f}{suffix} {_interval(low, scale, digits)}"
    other = f"{scale * (high.estimate or 0):.{digits}f}{suffix} {_interval(high, scale, digits)}"
    return one if one == other else f"{one} to {other}"


def spread_summary(margins: Sequence[Finding], closes: Sequence[Finding], within: float) -> str:
    """Many groups' spreads in one sentence: the range of the mean winner's margin and of the share of
    close games across the groups, each end with its interval, and the games they stand on."""
    counts = sorted({int(f.groups.get("players", 0)) for f in margins})
    players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    games = sum(f.games or 0 for f in margins)
    excluded = sum(f.excluded or 0 for f in margins)
    text = (
        f"Across {len(margins)} groups ({players} players) the winner leads by "
        f"{_extremes(margins, 1.0, 1)} points on average"
    )
    if closes:
        close = _extremes(closes, 100.0, 0, "%")
        text += f", and {close} of games are close ({close_words(within)})"
    return text + f"; {games:,} games, {_excluded_words(excluded)}."


def comparisons_summary(decided: Sequence[Finding], several_mixes: bool) -> str:
    """Several rule variants' spreads against their baselines in one sentence per quantity: the
    differences shown, and how many are the same within the margin or undecided
    (``analysis.present.decision_words.many_decisions``)."""
    sentences = []
    for question, what, scale, unit in (
        (SPREAD_MARGIN_CHANGE, "the winner's margin", 1.0, "points"),
        (SPREAD_CLOSE_CHANGE, "the share of close games", 100.0, "percentage points"),
    ):
        found = [f for f in decided if f.question == question]
        if not found:
            continue
        items = []
        for f in found:
            g = f.groups
            where = f"{g.get('value')} against {g.get('base')} at {g.get('players')} players"
            items.append(
                (where + (f", {group_words({'mix': g['mix']})}" if several_mixes and "mix" in g else ""), f)
            )
        m = _amount(scale * (found[0].margin or 0), unit)
        summed = many_decisions(
            items,
            lambda f: decision_clause(f).split(": ", 1)[-1],
            (DIFFERS, SAME, f"the same within {m}"),
            scale,
            unit,
        )
        sentences.append(f"Rule variants, {what} at a margin of {m}: {summed}.")
    return " ".join(sentences)


def spread_verdicts(findings: Sequence[Finding], known: set[Any]) -> list[Verdict]:
    """One verdict per game with a score-spread section among the ``findings`` (kind and heading
    ``score spreads``): per player count (variant, mix) the winner's margin and the share of close games
    with their intervals, the games and those left out; then each rule variant against the baseline,
    decided against the margin.  ``significant`` where some difference is shown; ``known`` holds the
    section ids on the page (the verdict links there)."""
    sections = list(dict.fromkeys((f.game, f.section) for f in findings if f.question == SPREAD_THRESHOLD))
    out = []
    for game, sid in sections:
        own = [f for f in findings if f.game == game and f.section == sid]
        threshold = next(f for f in own if f.question == SPREAD_THRESHOLD)
        within = threshold.estimate or 0.0
        margins = [f for f in own if f.question == SPREAD_MARGIN]
        closes = {tuple(f.groups.items()): f for f in own if f.question == SPREAD_CLOSE}
        several = {k: len({f.groups.get(k) for f in margins}) > 1 for k in ("variant", "mix")}
        if len(margins) <= 2:
            parts = [
                group_clause(f, closes.get(tuple(f.groups.items())), within, several) + "." for f in margins
            ]
        else:
            parts = [spread_summary(margins, list(closes.values()), within)]
        decided = [f for f in own if f.question in (SPREAD_MARGIN_CHANGE, SPREAD_CLOSE_CHANGE) and f.decision]
        pairs: dict[tuple, list[Finding]] = {}
        for f in decided:
            pairs.setdefault(tuple(f.groups.items()), []).append(f)
        if len(pairs) <= 1:
            parts += [comparison_sentence(pair, several["mix"]) for pair in pairs.values()]
        else:
            parts.append(comparisons_summary(decided, several["mix"]))
        text = " ".join(parts)
        href = f"#{sid}" if sid in known else ""
        significant = any(f.decision == DIFFERS for f in decided)
        claims = tuple(claim(f) for f in decided)
        out.append(Verdict(game, "score spreads", text, href, significant, "score spreads", claims))
    return out

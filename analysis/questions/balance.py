"""Seat and start-position balance, and comparisons between rule variants or result folders.

Win rates are mean win shares over *decided* games: a k-way tie gives each tied winner 1/k
of a win (ties are split fractionally, never dropped), and truncated and errored games, which
have no winner, are left out and counted beside every rate (``excluded``).

The independent unit is the block (``analysis.stats.inference``; reference/analysis-methods.md section
1): under ``--seats rotate``/``exhaustive`` the games of one ``base_game`` replay one deal, so
every interval and test here is computed from block totals and states its ``games`` and
``blocks``.  Rates carry a cluster-robust Wilson-style 95% interval (Wilson's at n_eff = n / DEFF,
t quantile on blocks - 1 df).

Groups are ``GROUP = ("game", "players", "variant", "mix")`` by default: player count, rule
variant (switches off their defaults; see ``analysis.data.runs``) and strategy mix are never pooled.
The position column is ``seat`` for Mainland; pass ``position="start_position"`` (or any
per-seat column) for games whose records name a start position (Graenaland).

* ``seat_balance``: per group and position, win rate with its interval, DEFF, n_eff and blocks.
* ``balance_tests``: per group, the design-aware test of equal chances (``p_value``: the Rao-Scott
  corrected chi-square on the blocks, or the chi-square where every block is one game;
  ``p_adjusted``: Holm over the table's groups), the plain chi-square and G tests, the Balance
  metric (1 - largest pairwise win-rate gap, with a simultaneous interval), first-player advantage,
  the smallest gap the sample could detect, ties and excluded games.
* ``balance_tests`` also decides each group against the report's margin δ
  (``analysis.stats.decide.seat_decision``, docs/decisions.md): ``decision`` fair within δ / unfair /
  undecided, with its decisive position and that statistic's interval and p, the half-width and the games
  that would decide it.  The margin is ``SEAT_MARGIN`` unless a report sets another (``with_margin``;
  ``skald report --margin``).
* ``compare_variants``: the same population under two or more rule variants (or any other
  key, e.g. two result folders via ``compare_folders``), side by side: seat-balance spread,
  game length, truncated games, with an effect size and a test of each difference.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

import numpy as np
import polars as pl
from scipy import stats as sps

from analysis.data.design import design_games, design_seats
from analysis.data.runs import Runs, errored_column, open_runs
from analysis.questions.stops import stop_for
from analysis.stats import inference, stats
from analysis.stats.decide import SEAT_MARGIN, Decision, seat_decision

GROUP: tuple[str, ...] = ("game", "players", "variant", "mix")
BOOTSTRAP = 400
PERMUTATIONS = 2000
TIES_NOTE = "ties split fractionally: a k-way tie gives each tied winner 1/k of a win"
#: how ``balance_tests`` corrects its groups' p values for picking the least even (``p_adjusted``)
GROUP_CORRECTION = "holm"
#: the margin δ the seat decisions of ``balance_tests`` are made at (a share: 0.05 is 5 points)
_MARGIN: ContextVar[float] = ContextVar("seat_margin", default=SEAT_MARGIN)


def seat_margin() -> float:
    """The margin δ the seat decisions are made at now: ``SEAT_MARGIN`` unless ``with_margin`` set one."""
    return _MARGIN.get()


@contextmanager
def with_margin(margin: float | None) -> Iterator[float]:
    """Decide the seat verdicts computed inside at ``margin`` (a share; None: the default)."""
    token = _MARGIN.set(SEAT_MARGIN if margin is None else float(margin))
    try:
        yield _MARGIN.get()
    finally:
        _MARGIN.reset(token)


def _position_ints(frame: pl.LazyFrame, position: str) -> pl.LazyFrame:
    """A float position column holding whole numbers (part fields) as Int64."""
    if frame.collect_schema().get(position) in (pl.Float64, pl.Float32):
        frame = frame.with_columns(pl.col(position).round(0).cast(pl.Int64))
    return frame


def _decided_seats(runs: Runs, position: str = "seat") -> pl.LazyFrame:
    """Seats of decided games (truncated and errored games left out), with their ``block``."""
    return _position_ints(design_seats(runs), position).filter(~pl.col("excluded"))


def seat_balance(runs: Runs, position: str = "seat", by: Sequence[str] = GROUP) -> pl.DataFrame:
    """Per group and ``position``: games (decided), wins (summed shares), win_rate, ci_low, ci_high, and

    ``expected`` (1/players), ``halfwidth`` (half the interval), ``games_to_halve`` (the games that
    would halve the interval: 4x the games), ``blocks`` (independent blocks), ``excluded`` (truncated
    or errored games left out), ``se``, ``deff``, ``n_eff`` and ``interval_note``.

    The interval is ``inference.cluster_proportion``'s (Wilson's at n_eff with a t quantile on
    blocks - 1 df); where every block is one game it is close to the plain Wilson interval.
    """
    keys = [*by, position]
    design = _position_ints(design_seats(runs), position)
    rates = inference.proportions_by(design.filter(~pl.col("excluded")), keys)
    excluded = design.group_by(keys).agg(pl.col("excluded").sum().cast(pl.Int64)).collect()
    expected = (1.0 / pl.col("players")) if "players" in by else pl.lit(None)
    return (
        rates.join(excluded, on=keys, how="left")
        .sort(keys)
        .with_columns(
            expected.alias("expected"),
            ((pl.col("ci_high") - pl.col("ci_low")) / 2).alias("halfwidth"),
            (pl.col("games") * 4).alias("games_to_halve"),
        )
    )


def _block_matrix(frame: pl.DataFrame, position: str) -> tuple[np.ndarray, np.ndarray, list]:
    """(blocks x positions) summed win shares, the decided games per block, and the positions."""
    wide = frame.pivot(on=position, index="block", values="win_share", aggregate_function="sum").join(
        frame.group_by("block").agg(pl.col("game_id").n_unique().alias("_games")), on="block"
    )
    wide = wide.sort("block")
    matrix, order = _ordered(wide.drop("_games"), ("block",))
    return matrix, wide["_games"].cast(pl.Float64).to_numpy(), order


def _ordered(wide: pl.DataFrame, index: Sequence[str]) -> tuple[np.ndarray, list]:
    cols = sorted(c for c in wide.columns if c not in index)
    order = sorted(cols, key=lambda c: (float(c) if _is_number(c) else math.inf, c))
    return wide.select(order).fill_null(0.0).to_numpy(), order


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def balance_interval(wins: np.ndarray, n: float, n_eff: np.ndarray | None = None) -> tuple[float, float]:
    """A conservative simultaneous 95% interval of the Balance metric.

    Each position's Wilson interval is taken at the Bonferroni level 1 - 0.05/k, so all k hold
    together with probability >= 95%; then the largest gap lies between
    max(0, max(low) - min(high)) and max(high) - min(low).  (A bootstrap of a max-minus-min
    statistic is biased: its resamples always show some spread, so its percentile interval can
    miss an estimate near 1 altogether.)  With blocks each position's Wilson interval is taken at
    its ``n_eff`` = n / DEFF (``inference.cluster_proportion``) instead of n.
    """
    k = len(wins)
    if k < 2 or n <= 0:
        return math.nan, math.nan
    size = np.full(k, float(n)) if n_eff is None else np.asarray(n_eff, dtype=float)
    z = float(sps.norm.ppf(1 - 0.025 / k))
    low, high = stats.wilson_interval(np.asarray(wins, dtype=float) / n * size, size, z)
    return float(1 - (high.max() - low.min())), float(1 - max(0.0, low.max() - high.min()))


def balance_tests(runs: Runs, position: str = "seat", by: Sequence[str] = GROUP) -> pl.DataFrame:
    """Per group: games, decided, truncated, excluded (truncated or errored), errored, tie_games, blocks;

    * the design-aware test of equal chances (``inference.shares_test``): ``p_value`` with ``test``,
      ``statistic``, ``df_num``/``df_den`` and ``deff``: the second-order Rao-Scott corrected
      chi-square on the blocks' win shares (``deff`` its mean generalized design effect), or the
      chi-square where every block is one game; ``p_adjusted`` is Holm's over this table's groups
      (``family`` tests, ``correction``), the p value for a verdict about "the least even group";
    * chi2, chi2_p, g, g_p, dof: the plain chi-square and G tests, which treat every decided game as
      independent (valid only where every block is one game; under rotation ``p_value`` replaces them);
    * balance with balance_low/high (each position's Wilson interval at its n_eff) and ``balance_fair``,
      what a perfectly fair game would show at this size (``stats.fair_balance`` at n_eff); best and worst
      position with max_gap; the first position's win rate (first_rate with the cluster interval
      first_low/high) and ``first_advantage`` = first_rate - 1/players (with first_adv_low/high);
    * ``detectable_gap``: the smallest max-min gap between win rates the test finds with 80% power at
      n_eff, ``games_to_halve``, and ``ties`` (how ties were counted)."""
    design = _position_ints(design_seats(runs), position).collect()
    games = runs.games().collect()
    rows = []
    for key, all_seats in design.group_by(list(by), maintain_order=True):
        if all_seats.filter(~pl.col("excluded")).height:
            rows.append(_balance_row(dict(zip(by, key, strict=True)), all_seats, games, position))
    table = pl.DataFrame(rows)
    if not table.height:
        return table
    adjusted = inference.adjust(table["p_value"].to_numpy(), GROUP_CORRECTION)
    return table.with_columns(
        pl.Series("p_adjusted", adjusted.p_adjusted),
        pl.lit(adjusted.family).alias("family"),
        pl.lit(adjusted.method).alias("correction"),
    )


def _balance_row(
    keyd: dict[str, Any], all_seats: pl.DataFrame, games: pl.DataFrame, position: str
) -> dict[str, Any]:
    """One group's row of ``balance_tests``: its counts, the design-aware and plain tests, then the
    Balance metric, best/worst and first position and the detectable gap (in that column order)."""
    frame = all_seats.filter(~pl.col("excluded"))
    mask = pl.all_horizontal([pl.col(k) == v for k, v in keyd.items()])
    in_group = games.filter(mask)
    y, m, positions = _block_matrix(frame, position)
    n_decided = int(m.sum())
    design_test = inference.shares_test(y, m)
    return {
        **keyd,
        "position": position,
        **_group_counts(in_group, all_seats, n_decided),
        "blocks": int(design_test.clusters),
        **_test_fields(design_test, stats.equal_chances_test(y.sum(axis=0))),
        **_balance_fields(keyd, y, m, positions, float(design_test.deff)),
        **_decision_fields(keyd, y, m, positions),
    }


#: the columns ``_decision_fields`` adds to a ``balance_tests`` row
DECISION_COLUMNS = (
    "decision",
    "margin",
    "decisive",
    "decisive_rate",
    "decisive_low",
    "decisive_high",
    "decision_expected",
    "decision_p",
    "decision_test",
    "decision_correction",
    "decision_family",
    "beyond_margin",
    "half_width",
    "games_needed",
)


def _decision_fields(keyd: dict[str, Any], y: np.ndarray, m: np.ndarray, positions: list) -> dict[str, Any]:
    """The group decided at the margin (``seat_decision``): the outcome, the margin, the decisive
    position with its win share and that statistic's interval and p (the simultaneous interval and Holm's
    p for "unfair", else the widest (1 − 2α) interval and the intersection-union p), whether an unfair
    interval lies beyond the margin, the half-width and, undecided, the games that would decide it (a run
    that played until decided: at its stopping look, ``analysis.questions.stops.stop_for``, its test naming
    it). None throughout where there is no decision (fewer than two positions, or not one per player)."""
    players = int(keyd.get("players") or len(positions))
    if len(positions) < 2 or len(positions) != players or not (m > 0).any():
        return dict.fromkeys(DECISION_COLUMNS)
    stop = stop_for(keyd, len(y))  # a run that played until decided: its stopping look's level
    decide = seat_decision if stop is None else stop.decide
    decision = decide(y, seat_margin(), labels=[str(p) for p in positions], games=m)
    test = f"{decision.test}; {decision.stopping}" if decision.stopping else decision.test
    return decision_columns(decision, test)


def decision_columns(decision: Decision, test: str) -> dict[str, Any]:
    """``DECISION_COLUMNS`` of one decision: the outcome and the margin, the decisive position with its
    share (the even share plus its deviation) and that statistic's interval and p, ``test`` as its test,
    the correction, whether an unfair interval lies beyond the margin, the half-width and the games that
    would decide it."""
    found = decision.to_finding()
    even = decision.expected[decision.decisive]

    def share(x: float | None) -> float | None:
        return None if x is None else even + x

    return {
        "decision": decision.decision,
        "margin": decision.margin,
        "decisive": found["position"],
        "decisive_rate": share(found["estimate"]),
        "decisive_low": share(found["low"]),
        "decisive_high": share(found["high"]),
        "decision_expected": even,
        "decision_p": found["p_value"],
        "decision_test": test,
        "decision_correction": found["correction"],
        "decision_family": found["family"],
        "beyond_margin": decision.beyond_margin,
        "half_width": found["half_width"],
        "games_needed": decision.games_needed,
    }


def _group_counts(games: pl.DataFrame, all_seats: pl.DataFrame, n_decided: int) -> dict[str, int]:
    """games, decided, truncated, excluded (truncated or errored), errored and tie_games of one group."""
    ties = int(games.filter(~pl.col("truncated") & (pl.col("winners").list.len() > 1)).height)
    excluded = all_seats.filter(pl.col("excluded")).select("run", "game_id").unique().height
    errored = int(games["errored"].fill_null(False).sum()) if "errored" in games.columns else 0
    return {
        "games": games.height,
        "decided": n_decided,
        "truncated": int(games["truncated"].sum()),
        "excluded": excluded,
        "errored": errored,
        "tie_games": ties,
    }


def _test_fields(design_test: inference.SharesTest, test: stats.EqualChances) -> dict[str, Any]:
    """The design-aware test (``p_value`` ... ``deff``) and the plain chi-square and G tests."""
    return {
        "p_value": float(design_test.p_value),
        "test": design_test.test,
        "statistic": float(design_test.statistic),
        "df_num": float(design_test.df_num),
        "df_den": float(design_test.df_den),
        "deff": float(design_test.deff),
        "chi2": test.chi2,
        "chi2_p": test.chi2_p,
        "g": test.g,
        "g_p": test.g_p,
        "dof": test.dof,
    }


def _balance_fields(
    keyd: dict[str, Any], y: np.ndarray, m: np.ndarray, positions: list, deff: float
) -> dict[str, Any]:
    """Balance with its interval and the fair game's, best and worst position, the first position's
    rate and advantage with cluster intervals, the detectable gap, games to halve and the ties note."""
    n_decided = int(m.sum())
    wins = y.sum(axis=0)
    rates = wins / n_decided if n_decided else np.full(len(wins), math.nan)
    rate = inference.cluster_proportion(y.T, m)
    b_low, b_high = balance_interval(wins, n_decided, rate.n_eff)
    n_eff = n_decided / deff if deff > 0 else n_decided  # the test's effective number of games
    players = int(keyd.get("players", len(positions)) or len(positions))
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    return {
        "balance": stats.balance_metric(rates),
        "balance_low": b_low,
        "balance_high": b_high,
        "balance_fair": stats.fair_balance(len(positions), n_eff),
        "best": str(positions[best]),
        "best_rate": float(rates[best]),
        "worst": str(positions[worst]),
        "worst_rate": float(rates[worst]),
        "max_gap": float(rates[best] - rates[worst]),
        "first": str(positions[0]),
        "first_rate": float(rates[0]),
        "first_low": float(rate.low[0]),
        "first_high": float(rate.high[0]),
        "first_advantage": float(rates[0] - 1.0 / players),
        "first_adv_low": float(rate.low[0] - 1.0 / players),
        "first_adv_high": float(rate.high[0] - 1.0 / players),
        "detectable_gap": inference.detectable_gap(n_decided, len(positions), deff),
        "games_to_halve": 4 * n_decided,
        "ties": TIES_NOTE,
    }


def game_lengths(runs: Runs) -> tuple[pl.DataFrame, str]:
    """(per game ``run, game_id, length``, unit): the game length in the best unit the records hold.

    ``rounds`` from the games table, else from the seats table (its largest value in the game), else
    the turns table's highest ``round`` (Mainland: round 0 is the camp placement), else decisions.
    """
    if runs.has_column("games", "rounds"):
        frame = runs.games().select("run", "game_id", pl.col("rounds").cast(pl.Float64).alias("length"))
        return frame.collect(), "rounds"
    if runs.has_column("seats", "rounds"):
        frame = (
            runs.seats()
            .group_by("run", "game_id")
            .agg(pl.col("rounds").max().cast(pl.Float64).alias("length"))
        )
        return frame.collect(), "rounds"
    if runs.has_column("turns", "round"):
        frame = (
            runs.turns()
            .group_by("run", "game_id")
            .agg(pl.col("round").max().cast(pl.Float64).alias("length"))
        )
        return frame.collect(), "rounds"
    frame = runs.games().select("run", "game_id", pl.col("decisions").cast(pl.Float64).alias("length"))
    return frame.collect(), "decisions"


def compare_variants(
    runs: Runs,
    key: str = "variant",
    baseline: str | None = None,
    by: Sequence[str] = ("game", "players", "mix"),
    position: str = "seat",
) -> pl.DataFrame:
    """Within each ``by`` group holding two or more values of ``key``, compare each value with the baseline.

    The baseline is ``baseline`` when given and present, else ``"defaults"`` when present, else the
    first value in sort order.  One row per (group, value, metric) with ``base`` and ``value``, the
    difference (``diff``, ``diff_low``, ``diff_high``), an effect size and a test, ``games`` and
    ``blocks`` (what they stand on) and ``paired``; every test is designed for the blocks (the two sides
    are paired by block where they hold the same deals, one game seed a block on each side: variants of
    one study, same seed and seats):

    * ``balance_gap`` (largest pairwise seat win-rate gap): ``base_estimate``/``estimate`` are the plain
      gaps, ``base_corrected``/``corrected`` the bias-corrected ones, ``diff`` their difference with a
      jackknife t interval (``inference.gap_difference``, ``interval``) and ``p_value`` the same t's;
      ``homogeneity_p`` (``homogeneity_test``) is the homogeneity test of the seats' share of the wins
      across the two, by relabelling whole blocks (``inference.homogeneity_test``): a changed pattern
      can keep the same gap.  Whether seat fairness changes by more than the margin is
      ``analysis.questions.fairness_change.fairness_changes``' question.
    * ``game_length`` (``rounds`` when the records have it, else decisions), Cohen's d, and
      ``truncated_rate``, Cohen's h: ``_design_comparison`` (paired t on block differences, else a
      cluster-robust difference).

    ``p_adjusted`` is Holm's over the metrics of one comparison (``family`` tests, ``correction``): the p
    value for a verdict about "a metric that changed".
    """
    lengths, unit = game_lengths(runs)
    length = "length"
    rows = []
    for keyd, base, value, (base_games, other_games), (base_seats, other_seats) in _pairs(
        runs, key, baseline, by, position, lengths
    ):
        common = {"key": key, "base": str(base), "value": str(value), **keyd}
        family = [{**common, **_gap_row(base_seats, other_seats, position)}]
        comp = stats.two_means(base_games[length].to_numpy(), other_games[length].to_numpy())
        family.append(
            {
                **common,
                "metric": f"game_length ({unit})",
                "base_estimate": float(cast(float, base_games[length].mean())),
                "estimate": float(cast(float, other_games[length].mean())),
                **_design_comparison(base_games, other_games, length, comp),
            }
        )
        comp = stats.two_proportions(
            float(base_games["truncated"].sum()),
            base_games.height,
            float(other_games["truncated"].sum()),
            other_games.height,
        )
        family.append(
            {
                **common,
                "metric": "truncated_rate",
                "base_estimate": float(cast(float, base_games["truncated"].mean())),
                "estimate": float(cast(float, other_games["truncated"].mean())),
                **_design_comparison(base_games, other_games, "truncated", comp),
            }
        )
        rows += with_adjusted(family)
    return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()


#: (the baseline's frame, the compared value's)
_Sides = tuple[pl.DataFrame, pl.DataFrame]


def _pairs(
    runs: Runs,
    key: str,
    baseline: str | None,
    by: Sequence[str],
    position: str,
    lengths: pl.DataFrame | None = None,
) -> Iterator[tuple[dict[str, Any], Any, Any, _Sides, _Sides]]:
    """The comparisons ``compare_variants`` and ``analysis.questions.fairness_change.fairness_changes`` make:
    within each ``by`` group holding two or more values of ``key``, each value against the group's baseline
    (``_baseline``), skipping a baseline or a value none of whose games finished: (the group's keys, the
    baseline, the value, (the baseline's games, the value's games) with their design columns and ``lengths``
    joined where given, (the baseline's decided seats, the value's) with ``block`` and ``game_seed``)."""
    seats = _decided_seats(runs, position).collect()
    games = design_games(runs).collect()
    if lengths is not None:
        games = games.join(lengths, on=["run", "game_id"], how="left")
    seats = seats.join(games.select("run", "game_id", "game_seed"), on=["run", "game_id"], how="left")
    for gkey, gframe in games.group_by(list(by), maintain_order=True):
        keyd = dict(zip(by, gkey, strict=True))
        values = sorted(gframe[key].unique().to_list(), key=str)
        if len(values) < 2:
            continue
        base = _baseline(values, baseline)
        done = set(gframe.filter(~pl.col("truncated"))[key].unique().to_list())
        if base not in done:
            continue  # a baseline none of whose games finished is compared with nothing (unfinished_values)
        mask = pl.all_horizontal([pl.col(k) == v for k, v in keyd.items()])
        sframe = seats.filter(mask)
        base_games = gframe.filter(pl.col(key) == base)
        base_seats = sframe.filter(pl.col(key) == base)
        for value in values:
            if value == base or value not in done:
                continue
            other = (gframe.filter(pl.col(key) == value), sframe.filter(pl.col(key) == value))
            yield keyd, base, value, (base_games, other[0]), (base_seats, other[1])


def _baseline(values: list[Any], baseline: str | None) -> Any:
    """The baseline of one group's ``values`` (sorted): ``baseline`` when given and present, else
    ``"defaults"`` when present, else the first."""
    return baseline if baseline in values else ("defaults" if "defaults" in values else values[0])


def unfinished_values(
    runs: Runs,
    key: str = "variant",
    baseline: str | None = None,
    by: Sequence[str] = ("game", "players", "mix"),
) -> pl.DataFrame:
    """What ``compare_variants`` (same ``key``, ``baseline`` and ``by``) leaves out: each value of ``key``
    in a group of two or more none of whose games finished (every one truncated or errored), so that
    there is nothing to compare it on.  One row per such value: the ``by`` columns, ``value``, ``base``
    (the group's baseline: when it is the value, nothing in the group is compared), ``games``,
    ``truncated`` (cut at the decision cap) and ``errored``."""
    games = runs.games()
    errored = errored_column(games)
    counts = (
        games.group_by([*by, key], maintain_order=True)
        .agg(
            pl.len().alias("games"),
            (~pl.col("truncated")).sum().alias("finished"),
            errored.sum().alias("errored"),
        )
        .collect()
    )
    rows = []
    for gkey, group in counts.group_by(list(by), maintain_order=True):
        values = sorted(group[key].to_list(), key=str)
        if len(values) < 2:
            continue
        base = _baseline(values, baseline)
        dead = group.filter(pl.col("finished") == 0).sort(pl.col(key).cast(pl.String))
        for row in dead.iter_rows(named=True):
            rows.append(
                {
                    **dict(zip(by, gkey, strict=True)),
                    "value": str(row[key]),
                    "base": str(base),
                    "games": int(row["games"]),
                    "truncated": int(row["games"] - row["errored"]),
                    "errored": int(row["errored"]),
                }
            )
    return pl.DataFrame(rows) if rows else pl.DataFrame()


#: how ``compare_variants`` corrects the metrics of one comparison (``p_adjusted``)
METRIC_CORRECTION = "holm"


def with_adjusted(family: list[dict]) -> list[dict]:
    """The rows of one comparison (one family of tests, one per metric) with ``p_adjusted`` (Holm's over
    their ``p_value``), ``family`` (the tests with a p value) and ``correction``."""
    adjusted = inference.adjust([r["p_value"] for r in family], METRIC_CORRECTION)
    return [
        {**r, "p_adjusted": float(p), "family": adjusted.family, "correction": adjusted.method}
        for r, p in zip(family, adjusted.p_adjusted, strict=True)
    ]


def _block_means(games: pl.DataFrame, value: str) -> pl.DataFrame:
    """Per block: its ``game_seed`` (one deal), games ``m``, and sum ``y`` and squares ``q`` of ``value``."""
    return inference.block_totals(games.with_columns(pl.col(value).cast(pl.Float64)), [], value).join(
        _block_seeds(games), on="block"
    )


def _block_seeds(frame: pl.DataFrame) -> pl.DataFrame:
    """Per block of ``frame``: its first ``game_seed`` and ``_seeds``, how many distinct seeds it holds."""
    return frame.group_by("block").agg(
        pl.col("game_seed").first(), pl.col("game_seed").n_unique().alias("_seeds")
    )


def _paired(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Whether two sides' blocks (``_block_seeds`` frames) pair by deal: one game seed a block on each
    side, more than one block, and the same seeds on both (variants of one study: same seed and seats)."""
    return bool(
        a.height > 1
        and a["_seeds"].max() == 1
        and b["_seeds"].max() == 1
        and a["game_seed"].n_unique() == a.height == b.height == b["game_seed"].n_unique()
        and set(a["game_seed"]) == set(b["game_seed"])
    )


def _design_comparison(base: pl.DataFrame, other: pl.DataFrame, value: str, effect: stats.Comparison) -> dict:
    """``other - base`` of the mean of ``value`` per game, by the design (methods section 2):

    * paired by block (``inference.paired_difference``) where the two sides hold the same deals
      (``_paired``);
    * otherwise ``inference.cluster_difference`` of the two cluster-robust means.

    The effect size (Cohen's d or h) is ``effect``'s; ``games`` and ``blocks`` count both sides."""
    a, b = _block_means(base, value), _block_means(other, value)
    paired = _paired(a, b)
    if paired:
        a, b = a.sort("game_seed"), b.sort("game_seed")
        diff = inference.paired_difference((a["y"] / a["m"]).to_numpy(), (b["y"] / b["m"]).to_numpy())
        blocks = a.height
    else:
        ea, eb = (
            inference.cluster_mean(f["y"].to_numpy(), f["m"].to_numpy(), f["q"].to_numpy()) for f in (a, b)
        )
        diff = inference.cluster_difference(ea, eb)
        blocks = a.height + b.height
    return {
        "diff": float(diff.estimate),
        "diff_low": float(diff.low),
        "diff_high": float(diff.high),
        "effect": effect.effect,
        "effect_name": effect.effect_name,
        "p_value": float(diff.p_value),
        "test": diff.test,
        "games": base.height + other.height,
        "blocks": blocks,
        "paired": paired,
    }


def _seat_blocks(frame: pl.DataFrame, position: str) -> tuple[pl.DataFrame, list]:
    """Per block of decided seats: ``game_seed``, ``_seeds``, ``_games`` and each position's summed win
    shares (the positions, in order, are returned beside)."""
    wide = frame.pivot(on=position, index="block", values="win_share", aggregate_function="sum")
    games = frame.group_by("block").agg(pl.col("game_id").n_unique().cast(pl.Float64).alias("_games"))
    wide = wide.join(games, on="block").join(_block_seeds(frame), on="block")
    _, order = _ordered(wide.drop("_games", "game_seed", "_seeds"), ("block",))
    return wide.with_columns(pl.col(order).fill_null(0.0)), order


def seat_seeds(a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """The seeds of ``_gap_row``'s bootstrap and relabellings, from the two (blocks x positions) matrices."""
    return (
        stats.data_seed(a, b, "balance.gap_difference", BOOTSTRAP),
        stats.data_seed(a, b, "balance.homogeneity_test", PERMUTATIONS),
    )


def _gap_row(base: pl.DataFrame, other: pl.DataFrame, position: str) -> dict:
    """The ``balance_gap`` row of ``compare_variants`` from the two sides' decided seats (with ``block``
    and ``game_seed``): paired by block where the two hold the same deals (``_paired``), the blocks in
    seed order; otherwise each side's blocks in one canonical order, so that the records' order does
    not move the resampling."""
    a, pos_a = _seat_blocks(base, position)
    b, pos_b = _seat_blocks(other, position)
    row: dict = {"metric": "balance_gap", "games": int(float(a["_games"].sum()) + float(b["_games"].sum()))}
    paired = _paired(a, b)
    nan = math.nan
    if pos_a != pos_b or not a.height or not b.height:
        return (
            row
            | dict.fromkeys(("base_estimate", "estimate", "diff", "diff_low", "diff_high"), nan)
            | {
                "blocks": a.height + b.height,
                "paired": paired,
                "p_value": nan,
                "homogeneity_p": nan,
                "homogeneity_test": "seat positions differ",
                "test": "seat positions differ",
            }
        )
    if paired:
        a, b = a.sort("game_seed"), b.sort("game_seed")
    ya, yb = a.select(pos_a).to_numpy(), b.select(pos_b).to_numpy()
    ma, mb = a["_games"].to_numpy(), b["_games"].to_numpy()
    if not paired:
        ya, yb = (stats.canonical_rows(np.column_stack([m, y])) for m, y in ((ma, ya), (mb, yb)))
        ma, mb, ya, yb = ya[:, 0], yb[:, 0], ya[:, 1:], yb[:, 1:]
    gap_seed, test_seed = seat_seeds(ya, yb)
    gap = inference.gap_difference(ya, ma, yb, mb, paired=paired, seed=gap_seed, resamples=BOOTSTRAP)
    test = inference.homogeneity_test(
        ya, ma, yb, mb, paired=paired, seed=test_seed, permutations=PERMUTATIONS
    )
    se = float(gap.se)
    return row | {
        "base_estimate": float(gap.base),
        "estimate": float(gap.value),
        "base_corrected": float(gap.base_corrected),
        "corrected": float(gap.corrected),
        "diff": float(gap.estimate),
        "diff_low": float(gap.low),
        "diff_high": float(gap.high),
        "interval": gap.test,
        "effect": float(gap.estimate) / se if se > 0 else nan,
        "effect_name": "diff / SE",
        "p_value": float(gap.p_value),
        "test": gap.test,
        "homogeneity_p": float(test.p_value),
        "homogeneity_test": test.test,
        "blocks": int(gap.clusters),
        "paired": paired,
    }


def compare_folders(a: str, b: str, position: str = "seat") -> pl.DataFrame:
    """Compare two result folders (each a run or a study folder) with ``compare_variants`` keyed by folder.

    Groups are game and player count only, so the two folders may differ in anything else
    (rules, data file, strategies).
    """
    runs_a, runs_b = open_runs(a), open_runs(b)
    labelled = Runs([*runs_a.runs, *runs_b.runs])
    folder = {r.label: "A" for r in runs_a.runs} | {r.label: "B" for r in runs_b.runs}
    if len(folder) < len(labelled.runs):
        raise ValueError("the two folders share runs")

    class _Keyed(Runs):
        def games(self) -> pl.LazyFrame:
            return super().games().with_columns(pl.col("run").replace_strict(folder).alias("folder"))

        def seats(self) -> pl.LazyFrame:
            return super().seats().with_columns(pl.col("run").replace_strict(folder).alias("folder"))

    return compare_variants(
        _Keyed(labelled.runs), key="folder", baseline="A", by=("game", "players"), position=position
    )


def by_rule_switch(runs: Runs, switch: str) -> pl.DataFrame:
    """Seat balance grouped by the value of rule switch ``switch`` as recorded in each run's manifest.

    Runs whose manifest lacks the switch are left out; the result is ``balance_tests`` with a
    ``switch`` and ``switch_value`` column in front.
    """
    chosen = [r for r in runs if switch in r.rules]
    if not chosen:
        return pl.DataFrame()
    value = {r.label: str(r.rules[switch]) for r in chosen}

    class _Switched(Runs):
        def seats(self) -> pl.LazyFrame:
            return super().seats().with_columns(pl.col("run").replace_strict(value).alias("switch_value"))

        def games(self) -> pl.LazyFrame:
            return super().games().with_columns(pl.col("run").replace_strict(value).alias("switch_value"))

    table = balance_tests(_Switched(chosen), by=("game", "players", "switch_value", "mix"))
    return table.with_columns(pl.lit(switch).alias("switch")).select("switch", pl.exclude("switch"))

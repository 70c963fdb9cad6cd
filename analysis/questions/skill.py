"""The skill matrix (the CoG game-balancing competition's criterion; TAG's skill ladder read from it) and
the balance verdicts by skill (reference/search-agents.md, "How balance studies use search").

The records hold a matrix where, for one game, player count and rule variant, two or more strategy specs
(the *rungs*: random, scripted, tuned, learned, search at two budgets...) each have a *mirror* run (the
spec in every seat) and some pairs of them a *cell* run: one spec in one seat against the other in every
other seat (the study lists it first), seats rotated so the one plays every seat of every deal.  At two
players a run of two specs is both cells.  All of it is found from the records, as the ladder is: no
study key says "matrix".

* ``cell_rates``: per cell, the one's win share (ties split fractionally) with its 95% interval clustered
  on the block (the deal replayed with the seats rotated: reference/analysis-methods.md section 1),
  against its even share 1/n, with the first seat's win rate in the cell's games and the games left out
  as truncated or errored.
* ``rung_order``: the rungs weakest to strongest by their measured strength, the mean of their cells'
  win shares over the even share (so skill is what the records show, not what a name promises).
* ``rung_balance``: each rung's mirror run decided fair, unfair or undecided at the margin
  (``analysis.questions.balance.balance_tests``), with the first seat's advantage and its interval.
* ``seat_trend``: whether the first seat's advantage grows, shrinks or holds from the weakest rung to the
  strongest: the change along a weighted least-squares line over the rungs (each weighted 1/SE²),
  decided against the margin (``analysis.stats.decide.decide_difference``).
* ``luck_shares``: at each rung whose mirror replays its deals (``replicates``: the same deal and chance,
  fresh strategy generators), the share of the variance of a seat's outcome that the deal explains (an
  intra-class correlation by deal and seat: Goodman, Perez-Liebana and Lucas's seed effect), with a
  percentile bootstrap interval over the deals, seeded from the data.  A deterministic player's replays
  are the same game, so its share is 1: the deal decides everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Run, Runs
from analysis.questions import balance
from analysis.questions.ladder import fit_line
from analysis.stats import inference, stats
from analysis.stats.decide import Decision, decide_difference

KEYS: tuple[str, ...] = ("game", "players", "variant")
#: the bootstrap resamples of a luck share's interval
BOOTSTRAP = 400


def cells_of(strategies: list[str]) -> list[tuple[str, str]]:
    """The cells a run's seat specs make, as (one, field): a mirror ``(a, a)``; one spec once and another
    in every other seat ``(one, other)``; both cells at two players; none otherwise."""
    specs = list(dict.fromkeys(strategies))
    if len(specs) == 1:
        return [(specs[0], specs[0])]
    if len(specs) != 2:
        return []
    a, b = specs
    if len(strategies) == 2:
        return [(a, b), (b, a)]
    once = [s for s in specs if strategies.count(s) == 1]
    return [(once[0], b if once[0] == a else a)] if len(once) == 1 else []


def matrix_runs(runs: Runs) -> list[tuple[Run, tuple[str, str]]]:
    """The runs of every complete-enough matrix, each with its cell: per group (``KEYS``), the rungs are
    the specs with a mirror run, and a matrix needs two rungs and one cell between two of them."""
    found: dict[tuple, list[tuple[Run, tuple[str, str]]]] = {}
    for run in runs:
        for cell in cells_of([str(s) for s in run.config.get("strategies", [])]):
            found.setdefault((run.game, run.players, run.variant), []).append((run, cell))
    out = []
    for group in found.values():
        rungs = {one for _, (one, field) in group if one == field}
        cells = [(run, c) for run, c in group if c[0] in rungs and c[1] in rungs]
        if len(rungs) >= 2 and any(one != field for _, (one, field) in cells):
            out.extend(cells)
    return out


def matrix_seats(runs: Runs) -> pl.DataFrame:
    """The seats of the matrix runs' games: ``KEYS``, ``one``, ``field``, ``run``, ``block``, ``game_id``,
    ``seat``, ``is_one`` (the seat plays the cell's one), ``win_share`` and ``excluded``."""
    chosen = matrix_runs(runs)
    if not chosen:
        return pl.DataFrame()
    table = pl.DataFrame(
        {
            "run": [r.label for r, _ in chosen],
            "one": [c[0] for _, c in chosen],
            "field": [c[1] for _, c in chosen],
        }
    )
    unique = {r.label: r for r, _ in chosen}
    seats = design_seats(Runs(list(unique.values()))).collect()
    seats = seats.join(table, on="run", how="inner", maintain_order="left")
    return seats.select(
        *KEYS,
        "one",
        "field",
        "run",
        "block",
        "game_id",
        "seat",
        (pl.col("strategy") == pl.col("one")).alias("is_one"),
        pl.col("win_share").fill_null(0.0),
        "excluded",
    )


def _games(seats: pl.DataFrame) -> pl.DataFrame:
    """One row per game of a cell: the one's share (``share``, its seats' win shares; one seat of it in a
    mirror), the first seat's (``first``), the one's seat count over the players (``seat_share``) and
    ``excluded``."""
    cell = [*KEYS, "one", "field"]
    return (
        seats.group_by([*cell, "block", "game_id"], maintain_order=True)
        .agg(
            pl.col("win_share").filter(pl.col("is_one")).sum().alias("share"),
            pl.col("win_share").filter(pl.col("seat") == 0).sum().alias("first"),
            (pl.col("is_one").sum() / pl.len()).alias("seat_share"),
            pl.col("excluded").first(),
        )
        .sort([*cell, "block", "game_id"])
    )


def _rate(group: pl.DataFrame, value: str) -> inference.Estimate:
    totals = group.group_by("block").agg(pl.col(value).sum(), pl.len().alias("m")).sort("block")
    return inference.cluster_proportion(totals[value].to_numpy(), totals["m"].to_numpy())


def cell_rates(seats: pl.DataFrame) -> pl.DataFrame:
    """Per cell off the diagonal (``KEYS``, ``one``, ``field``): ``games`` decided, ``excluded``,
    ``win_rate`` of the one with ``ci_low``/``ci_high``, ``se``, ``blocks``, ``expected`` (its even share)
    and the first seat's win rate ``first_rate`` with ``first_low``/``first_high``."""
    games = _games(seats.filter(pl.col("one") != pl.col("field")))
    rows = []
    for key, group in games.group_by([*KEYS, "one", "field"], maintain_order=True):
        decided = group.filter(~pl.col("excluded"))
        if not decided.height:
            continue
        est, first = _rate(decided, "share"), _rate(decided, "first")
        rows.append(
            {
                **dict(zip((*KEYS, "one", "field"), key, strict=True)),
                "games": int(est.games),
                "excluded": group.height - decided.height,
                "win_rate": float(est.estimate),
                "ci_low": float(est.low),
                "ci_high": float(est.high),
                "se": float(est.se),
                "blocks": int(est.clusters),
                "expected": float(cast(float, decided["seat_share"].mean())),
                "first_rate": float(first.estimate),
                "first_low": float(first.low),
                "first_high": float(first.high),
            }
        )
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def rung_order(cells: pl.DataFrame) -> dict[tuple, list[str]]:
    """Per group (``KEYS``), the rungs weakest to strongest: by the mean over their cells of the one's win
    share minus its even share (ties by name)."""
    order = {}
    for key, group in cells.group_by(list(KEYS), maintain_order=True):
        edge = group.group_by("one").agg((pl.col("win_rate") - pl.col("expected")).mean().alias("edge"))
        fields = set(group["field"].to_list()) - set(edge["one"].to_list())
        rows = [*edge.iter_rows(), *((f, -math.inf) for f in sorted(fields))]
        order[key] = [name for name, _ in sorted(rows, key=lambda r: (r[1], r[0]))]
    return order


def rung_balance(runs: Runs, order: dict[tuple, list[str]]) -> pl.DataFrame:
    """Each rung's mirror run decided at the margin (``balance.balance_tests`` on the mirror runs: the
    decision columns and the first seat's advantage), with ``rung`` (its spec) and ``rank`` (0 weakest)."""
    mirrors = {run.label: (run, one) for run, (one, field) in matrix_runs(runs) if one == field}
    if not mirrors:
        return pl.DataFrame()
    tests = balance.balance_tests(Runs([run for run, _ in mirrors.values()]), by=(*KEYS, "run"))
    rows = []
    for row in tests.iter_rows(named=True):
        rung = mirrors[row["run"]][1]
        rungs = order.get(tuple(row[k] for k in KEYS), [])
        if rung in rungs:
            rows.append({**row, "rung": rung, "rank": rungs.index(rung)})
    return pl.DataFrame(rows).sort([*KEYS, "rank"]) if rows else pl.DataFrame()


@dataclass(frozen=True)
class SeatTrend:
    """The first seat's advantage along the rungs: the fitted change from the weakest to the strongest
    (``decision``: same within the margin reads "holds", a shown difference "grows" or "shrinks"), the
    fitted advantage at each end, and the rungs it rests on."""

    decision: Decision
    start: float
    end: float
    rungs: int
    method: str = (
        "weighted least squares of the first seat's advantage on the rung's rank, weights 1/SE² (known "
        "variances); the change from the weakest rung to the strongest decided against the margin (TOST "
        "for holds, a two-sided t test for a change, on the fewest blocks of a rung - 1 df)"
    )

    @property
    def words(self) -> str:
        """holds, grows, shrinks or undecided."""
        outcome = self.decision.decision
        if outcome == "same":
            return "holds"
        if outcome == "differs":
            return "grows" if abs(self.end) > abs(self.start) else "shrinks"
        return "undecided"


def seat_trend(balanced: pl.DataFrame, margin: float) -> dict[tuple, SeatTrend]:
    """Per group with two rungs or more, the ``SeatTrend`` of ``rung_balance``'s first seat advantage
    (its SE from the interval's half-width over the t quantile on its blocks)."""
    out: dict[tuple, SeatTrend] = {}
    if balanced.is_empty():
        return out
    for key, group in balanced.group_by(list(KEYS), maintain_order=True):
        group = group.sort("rank")
        blocks = group["blocks"].to_numpy().astype(float)
        se = _se_of(group["first_adv_low"].to_numpy(), group["first_adv_high"].to_numpy(), blocks)
        y = group["first_advantage"].to_numpy().astype(float)
        x = group["rank"].to_numpy().astype(float)
        line = fit_line(x, y, se)
        if not math.isfinite(line.slope):
            continue
        span = float(x.max() - x.min())
        df = max(float(blocks.min()) - 1.0, 1.0)
        decision = decide_difference(
            line.slope * span,
            line.se * span,
            df,
            margin,
            blocks=int(blocks.min()),
            games=float(group["decided"].sum()),
            test=line.method,
            label="first seat's advantage, strongest rung minus weakest",
        )
        start, end = line.intercept + line.slope * x.min(), line.intercept + line.slope * x.max()
        out[key] = SeatTrend(decision, float(start), float(end), len(x))
    return out


def _se_of(low: np.ndarray, high: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """A standard error from a 95% interval's half-width and the t quantile on blocks - 1 df."""
    from scipy import stats as sps

    t = sps.t.ppf(0.975, np.maximum(blocks - 1, 1))
    return (np.asarray(high, float) - np.asarray(low, float)) / (2 * t)


def icc(values: np.ndarray, groups: np.ndarray) -> float:
    """The one-way random-effects intra-class correlation ICC(1) of ``values`` grouped by ``groups``
    (ANOVA estimator, unequal group sizes through n0), not clipped: below 0 where the games of a group
    share out their outcomes (one wins where another loses) more than chance would; nan with fewer than
    two groups or no variation."""
    labels, inverse, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    k, n = len(labels), len(values)
    if k < 2 or n <= k:
        return math.nan
    means = np.bincount(inverse, weights=values) / sizes
    grand = values.mean()
    msb = float((sizes * (means - grand) ** 2).sum() / (k - 1))
    msw = float(((values - means[inverse]) ** 2).sum() / (n - k))
    n0 = (n - (sizes**2).sum() / n) / (k - 1)
    total = msb + (n0 - 1) * msw
    if total <= 0:
        return math.nan
    return float(min((msb - msw) / total, 1.0))


def luck_share(
    values: np.ndarray, groups: np.ndarray, name: str, clusters: np.ndarray | None = None
) -> tuple[float, float, float, int]:
    """``icc`` of ``values`` by ``groups`` with a 95% percentile bootstrap interval over the ``clusters``
    (default: the groups; a cluster may hold several groups, every seat of one deal) drawn with
    replacement, ``BOOTSTRAP`` resamples seeded from the data and ``name``: (share, low, high, clusters)."""
    clusters = groups if clusters is None else clusters
    point = icc(values, groups)
    _, cluster_of = np.unique(clusters, return_inverse=True)
    _, group_of = np.unique(groups, return_inverse=True)
    k, width = int(cluster_of.max()) + 1 if len(values) else 0, int(group_of.max()) + 1 if len(values) else 0
    if not math.isfinite(point):
        return point, math.nan, math.nan, k
    rng = np.random.default_rng(
        stats.data_seed(values, group_of, cluster_of, "skill.luck_share", name, BOOTSTRAP)
    )
    members = [np.flatnonzero(cluster_of == i) for i in range(k)]
    draws = []
    for _ in range(BOOTSTRAP):
        picks = rng.integers(k, size=k)
        index = np.concatenate([members[p] for p in picks])
        label = np.concatenate([j * width + group_of[members[p]] for j, p in enumerate(picks)])
        draws.append(icc(values[index], label))
    finite = np.asarray([d for d in draws if math.isfinite(d)])
    if len(finite) < BOOTSTRAP // 2:
        return point, math.nan, math.nan, k
    low, high = np.percentile(finite, [2.5, 97.5])
    return point, float(low), float(high), k


def luck_shares(seats: pl.DataFrame, order: dict[tuple, list[str]]) -> pl.DataFrame:
    """Per rung, the deal's share of the outcome (Goodman, Perez-Liebana and Lucas's seed effect): in its
    mirror played with replicates (each deal again with the same chance and fresh strategy generators,
    ``sim.seats``), the intra-class correlation of each seat's win share grouped by (deal, seat), after
    the seats' own means are removed (the seat's effect is not the deal's), with ``luck_share``'s interval
    over the deals.  1: the deal decides who wins; 0: the players' own chance does.  A rung whose mirror
    plays each deal once has none (``replicates`` in the study file)."""
    games = (
        seats.filter((pl.col("one") == pl.col("field")) & ~pl.col("excluded"))
        .select(*KEYS, "one", "block", "game_id", "seat", "win_share")
        .sort([*KEYS, "one", "block", "game_id", "seat"])
    )
    rows = []
    for key, group in games.group_by([*KEYS, "one"], maintain_order=True):
        keyd = dict(zip((*KEYS, "rung"), key, strict=True))
        rungs = order.get(tuple(key[:3]), [])
        if keyd["rung"] not in rungs:
            continue
        if int(cast(int, group.group_by("block", "seat").len()["len"].max())) < 2:
            continue  # each deal played once: the deal's share cannot be told from the players' chance
        centred = group.with_columns(
            (pl.col("win_share") - pl.col("win_share").mean().over("seat")).alias("y"),
            pl.concat_str([pl.col("block"), pl.lit("@"), pl.col("seat").cast(pl.String)]).alias("cell"),
        )
        share, low, high, blocks = luck_share(
            centred["y"].to_numpy(),
            centred["cell"].to_numpy(),
            "|".join(map(str, key)),
            clusters=centred["block"].to_numpy(),
        )
        rows.append(
            {
                **keyd,
                "rank": rungs.index(keyd["rung"]),
                "luck": share,
                "luck_low": low,
                "luck_high": high,
                "games": group["game_id"].n_unique(),
                "blocks": blocks,
            }  # fmt: skip
        )
    return pl.DataFrame(rows).sort([*KEYS, "rank"]) if rows else pl.DataFrame()


def skill_tables(runs: Runs, margin: float) -> dict[str, Any]:
    """Everything the skill section shows: ``cells``, ``order``, ``balance``, ``trends`` and ``luck``."""
    seats = matrix_seats(runs)
    if seats.is_empty():
        return {}
    cells = cell_rates(seats)
    order = rung_order(cells) if not cells.is_empty() else {}
    balanced = rung_balance(runs, order)
    return {
        "cells": cells,
        "order": order,
        "balance": balanced,
        "trends": seat_trend(balanced, margin),
        "luck": luck_shares(seats, order),
    }

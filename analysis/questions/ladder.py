"""The skill ladder (TAG ``SkillLadder``, Ludii SkillTrace; reference/search-agents.md, "How balance
studies use search"): one search strategy at budget 2k against itself at budget k, over doubling k.

A *rung* is a run whose seats hold exactly two strategy specs that differ only in ``iterations=`` and
whose budgets are k and 2k (``rung_of``): a mirror match in which only the budget differs, found from
the records alone, so no study key says "ladder".

* ``rung_rates``: per rung, the share of the wins taken by the larger budget's seats (ties split
  fractionally), with its 95% interval clustered on the block (the deal, ``base_game``, replayed with
  the seats rotated: reference/analysis-methods.md section 1), and the share it would take if the budget
  did not matter (its seats over the players, 1/2 at two players).
* ``fit_trend``: the win share against log2 k by weighted least squares, each rung weighted by
  1/SE² with the variances taken as known (statsmodels WLS, ``cov_type="fixed scale"``), so the slope's
  interval is a normal one from the rungs' own standard errors and needs no residual degrees of freedom.
* ``ladder_rows``: ``rung_rates`` with each rung's ms per decision (the run manifest's
  ``timings.search``) and its CPU seconds (``timings.worker_seconds``).

Whether skill still pays at the largest budget tried: that rung's interval lies above its even share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Run, Runs
from analysis.stats import inference

BUDGET = "iterations"
#: a rung's groups: the game, player count, rule variant and the two budgets
KEYS: tuple[str, ...] = ("game", "players", "variant", "budget", "larger")


@dataclass(frozen=True)
class Rung:
    """One rung: the larger budget's spec (``high``, 2k iterations) and the smaller's (``low``, k)."""

    high: str
    low: str
    budget: int  # k

    @property
    def label(self) -> str:
        return f"{2 * self.budget} vs {self.budget}"


def split_spec(spec: str) -> tuple[str, int | None]:
    """A strategy spec without its ``iterations=`` parameter, and that budget (None where absent or not
    a whole number): ``ismcts:c=1:iterations=8`` -> (``ismcts:c=1``, 8)."""
    head, *params = spec.split(":")
    budget = None
    rest = [head]
    for item in params:
        key, _, value = item.partition("=")
        if key == BUDGET and value.isdigit():
            budget = int(value)
        else:
            rest.append(item)
    return ":".join(rest), budget


def rung_of(strategies: list[str]) -> Rung | None:
    """The rung a run's seat specs make, or None: exactly two distinct specs, the same but for their
    budgets, one twice the other."""
    specs = list(dict.fromkeys(strategies))
    if len(specs) != 2:
        return None
    (base_a, a), (base_b, b) = split_spec(specs[0]), split_spec(specs[1])
    if base_a != base_b or a is None or b is None or min(a, b) < 1 or max(a, b) != 2 * min(a, b):
        return None
    high, low = (specs[0], specs[1]) if a > b else (specs[1], specs[0])
    return Rung(high, low, min(a, b))


def ladder_runs(runs: Runs) -> list[tuple[Run, Rung]]:
    """The runs that are rungs, each with its rung."""
    found = []
    for run in runs:
        rung = rung_of([str(s) for s in run.config.get("strategies", [])])
        if rung is not None:
            found.append((run, rung))
    return found


def rung_seats(runs: Runs) -> pl.DataFrame:
    """The seats of the rungs' decided games: ``KEYS``, ``block``, ``game_id``, ``run``, ``high`` (the
    seat plays the larger budget) and ``win_share``; with ``high_seats`` (the larger budget's seats)."""
    rungs = ladder_runs(runs)
    if not rungs:
        return pl.DataFrame()
    chosen = Runs([run for run, _ in rungs])
    table = pl.DataFrame(
        {
            "run": [run.label for run, _ in rungs],
            "budget": [rung.budget for _, rung in rungs],
            "larger": [2 * rung.budget for _, rung in rungs],
            "high_spec": [rung.high for _, rung in rungs],
        }
    )
    seats = design_seats(chosen).filter(~pl.col("excluded")).collect()
    seats = seats.join(table, on="run", how="left", maintain_order="left")
    return seats.select(
        *KEYS,
        "run",
        "block",
        "game_id",
        (pl.col("strategy") == pl.col("high_spec")).alias("high"),
        "win_share",
    )


def rung_rates(seats: pl.DataFrame) -> pl.DataFrame:
    """Per rung (``KEYS``): games, wins (of the larger budget), win_rate with ci_low/ci_high (Wilson's at
    the blocks' effective size, t on blocks - 1 df: ``inference.cluster_proportion``), se, blocks and
    ``expected`` (the larger budget's seats over the players: its share if budget did not matter).

    ``seats`` has ``KEYS``, ``block``, ``game_id``, ``high`` and ``win_share``, one row per seat of a
    decided game (``rung_seats``, or synthetic records in the calibration tests)."""
    games = (
        seats.group_by([*KEYS, "block", "game_id"], maintain_order=True)
        .agg(
            pl.col("win_share").filter(pl.col("high")).sum().alias("share"),
            (pl.col("high").sum() / pl.len()).alias("seat_share"),
        )
        .sort([*KEYS, "block", "game_id"])
    )
    rows = []
    for key, group in games.group_by(list(KEYS), maintain_order=True):
        totals = group.group_by("block").agg(pl.col("share").sum(), pl.len().alias("m")).sort("block")
        est = inference.cluster_proportion(totals["share"].to_numpy(), totals["m"].to_numpy())
        rows.append(
            {
                **dict(zip(KEYS, key, strict=True)),
                "games": int(est.games),
                "wins": float(group["share"].sum()),
                "win_rate": float(est.estimate),
                "ci_low": float(est.low),
                "ci_high": float(est.high),
                "se": float(est.se),
                "blocks": int(est.clusters),
                "expected": float(cast(float, group["seat_share"].mean())),
            }
        )
    return pl.DataFrame(rows).sort("game", "players", "variant", "budget") if rows else pl.DataFrame()


@dataclass(frozen=True)
class Trend:
    """The fitted line: win share = intercept + slope x log2 k, the slope's 95% interval and the p of
    a zero slope (nan where fewer than two rungs or a rung lacks a standard error)."""

    slope: float
    low: float
    high: float
    p_value: float
    intercept: float
    rungs: int
    method: str = "weighted least squares on log2 budget, weights 1/SE² (known variances), normal interval"

    def at(self, budget: float) -> float:
        return self.intercept + self.slope * math.log2(budget)


@dataclass(frozen=True)
class Line:
    """A weighted least-squares line y = intercept + slope x with the slope's standard error (nan where
    fewer than two distinct x or a point lacks a standard error)."""

    slope: float
    se: float
    low: float
    high: float
    p_value: float
    intercept: float
    points: int
    method: str = "weighted least squares, weights 1/SE² (known variances), normal interval"


def fit_line(x: Any, y: Any, se: Any) -> Line:
    """The line of ``y`` on ``x``, each point weighted by 1/``se``² with the variances taken as known
    (statsmodels WLS, ``cov_type="fixed scale"``), so the slope's interval is a normal one."""
    import statsmodels.api as sm  # deferred: statsmodels' models take seconds to import

    x, y, s = (np.asarray(v, dtype=float) for v in (x, y, se))
    ok = np.isfinite(x) & np.isfinite(y) & np.isfinite(s) & (s > 0)
    x, y, s = x[ok], y[ok], s[ok]
    if len(np.unique(x)) < 2:
        return Line(math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, len(x))
    fit = sm.WLS(y, sm.add_constant(x), weights=1.0 / s**2).fit(
        cov_type="fixed scale", cov_kwds={"scale": 1.0}
    )
    low, high = fit.conf_int(0.05)[1]
    return Line(
        float(fit.params[1]), float(fit.bse[1]), float(low), float(high), float(fit.pvalues[1]),
        float(fit.params[0]), len(x),
    )  # fmt: skip


def fit_trend(budgets: Any, shares: Any, se: Any) -> Trend:
    """The trend of the larger budget's win share against log2 k (``budgets``), weighted by 1/SE²."""
    k = np.asarray(budgets, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(k > 0, np.log2(np.where(k > 0, k, 1.0)), np.nan)
    line = fit_line(x, shares, se)
    return Trend(line.slope, line.low, line.high, line.p_value, line.intercept, line.points)


def _timing(run: Run, spec: str, field: str) -> float:
    """One search strategy's ``timings.search`` field in a run's manifest (nan where not recorded)."""
    for row in (run.manifest.get("timings") or {}).get("search") or []:
        if row.get("strategy") == spec and row.get(field) is not None:
            return float(row[field])
    return math.nan


def ladder_rows(runs: Runs) -> pl.DataFrame:
    """``rung_rates`` of the runs' rungs with ``ms_high`` / ``ms_low`` (ms per decision of each budget),
    ``cpu_seconds`` (the run's worker seconds) and ``rung`` (``16 vs 8``); empty without rungs."""
    seats = rung_seats(runs)
    rates = pl.DataFrame() if seats.is_empty() else rung_rates(seats)
    if rates.is_empty():
        return rates
    extra = []
    for run, rung in ladder_runs(runs):
        extra.append(
            {
                "game": run.game,
                "players": run.players,
                "variant": run.variant,
                "budget": rung.budget,
                "rung": rung.label,
                "high_spec": rung.high,
                "low_spec": rung.low,
                "ms_high": _timing(run, rung.high, "ms_per_decision"),
                "ms_low": _timing(run, rung.low, "ms_per_decision"),
                "cpu_seconds": float((run.manifest.get("timings") or {}).get("worker_seconds") or math.nan),
            }
        )
    keys = ["game", "players", "variant", "budget"]
    timings = (
        pl.DataFrame(extra)
        .group_by(keys, maintain_order=True)
        .agg(
            pl.col("rung", "high_spec", "low_spec").first(),
            pl.col("ms_high", "ms_low").mean(),
            pl.col("cpu_seconds").sum(),
        )
    )
    return rates.join(timings, on=keys, how="left", maintain_order="left")


def skill_pays(row: dict[str, Any]) -> bool:
    """Whether a rung shows the larger budget winning more than its even share: its interval above."""
    return row["ci_low"] > row["expected"]

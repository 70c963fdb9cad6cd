"""Re-measuring the finalists on fresh seeds, so that the winner is not the luckiest candidate.

Every finalist plays the same fresh games (the tune's confirmation seed, common to the finalists), and:

* its objective gets a 95% percentile bootstrap interval (``REPS`` resamples of the games, the same
  resamples for every finalist, seeded from the tune's seed);
* the winner is the finalist with the lowest confirmed objective; that it beats each other finalist is
  tested one-sided with the paired bootstrap of the difference, and the p values are Holm-corrected over
  those comparisons (a family of finalists - 1 tests);
* for an even-seats objective, each finalist's seat win shares per population get Wilson intervals and
  the chi-square test of equal chances, Holm-corrected over all finalists x populations.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.stats.multiplicity import adjust
from analysis.stats.stats import equal_chances_test, wilson_interval
from analysis.tune import objectives as obj
from analysis.tune.result import Outcome, derived_seed
from analysis.tune.search import rank_key

REPS = 2000


def _rows(result: Outcome, cand: int, r: int) -> np.ndarray:
    return np.asarray(result.state.confirm.get(f"{cand}:{r}", []), dtype=np.int64)


def _values(result: Outcome, cand: int, weights: np.ndarray | None) -> np.ndarray:
    n, unit = result.tune.players, obj.scale(result.tune.players)
    stats = {
        run: obj.Stats.of(_rows(result, cand, r), n, len(obj.distinct(run)), unit, weights)
        for r, run in enumerate(result.runs)
    }
    return obj.total(result.tune.terms, stats)


def confirm(result: Outcome) -> dict[str, Any]:
    """The finalists' confirmed objective, intervals, the winner and the corrected tests."""

    finalists, m = result.finalists, result.plan.confirm_games
    rng = np.random.default_rng(derived_seed(result.tune.seed, 2))
    weights = rng.multinomial(m, np.full(m, 1.0 / m), size=REPS).astype(float)
    point = {c: float(_values(result, c, None)[0]) for c in finalists}
    boot = {c: _values(result, c, weights) for c in finalists}
    winner = min(finalists, key=lambda c: (rank_key(point[c]), finalists.index(c)))  # unmeasured (NaN) last
    others = [c for c in finalists if c != winner]
    # no test where either side could not be measured (every game truncated or errored)
    raw = [float((1 + np.sum(boot[c] - boot[winner] <= 0)) / (REPS + 1))
           if np.isfinite(point[c]) and np.isfinite(point[winner]) else float("nan") for c in others]
    holm = adjust(raw).p_adjusted if raw else np.array([])
    rows = []
    for c in finalists:
        low, high = np.percentile(boot[c], [2.5, 97.5])
        k = others.index(c) if c in others else None
        rows.append(
            {
                "candidate": c,
                "objective": point[c],
                "low": float(low),
                "high": float(high),
                "p_winner_better": None if k is None or np.isnan(raw[k]) else raw[k],
                "p_holm": None if k is None or np.isnan(holm[k]) else float(holm[k]),
                "runs": _run_details(result, c),
            }
        )
    _seat_tests(rows)
    return {
        "seed": result.confirm_seed,
        "games_per_run": m,
        "resamples": REPS,
        "winner": winner,
        "finalists": rows,
        "test": "one-sided paired bootstrap: the winner's confirmed objective below each other finalist's;"
        f" Holm-corrected over the {len(others)} comparisons",
        "seat_test": "chi-square of equal chances per finalist and population; Holm over all of them",
    }


def _run_details(result: Outcome, cand: int) -> list[dict[str, Any]]:
    """Per run: the seat win shares with Wilson intervals, the equal-chances test and the mean length."""
    unit, out = obj.scale(result.tune.players), []
    for r, run in enumerate(result.runs):
        rows = _rows(result, cand, r)
        games = len(rows)
        failed = int(rows[:, -1].sum()) if games else 0
        completed = games - failed  # the shares are over the games with a winner
        wins = rows[:, : result.tune.players].sum(axis=0) / unit if games else np.zeros(result.tune.players)
        low, high = wilson_interval(wins, completed)
        test = equal_chances_test(wins.tolist())
        out.append(
            {
                "strategies": list(run),
                "games": games,
                "completed": completed,
                "seat_share": (wins / max(completed, 1)).tolist(),
                "seat_low": low.tolist(),
                "seat_high": high.tolist(),
                "equal_chances_p": test.chi2_p,
                "mean_decisions": float(rows[:, -2].mean()) if games else None,
                "failed": failed,
            }
        )
    return out


def _seat_tests(rows: list[dict[str, Any]]) -> None:
    """Holm over every finalist x run's equal-chances p value (in place: ``equal_chances_p_holm``)."""
    flat = [run for row in rows for run in row["runs"]]
    adjusted = adjust([run["equal_chances_p"] for run in flat]).p_adjusted
    for run, p in zip(flat, adjusted, strict=True):
        run["equal_chances_p_holm"] = None if np.isnan(p) else float(p)
        if np.isnan(run["equal_chances_p"]):
            run["equal_chances_p"] = None

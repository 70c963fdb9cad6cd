"""Re-measuring the finalists on fresh seeds, so that the winner is not the luckiest candidate.

Every finalist plays the same fresh games (the tune's confirmation seed, common to the finalists), and:

* its objective gets a 95% percentile bootstrap interval (``REPS`` resamples of the deals, the same
  resamples for every finalist, seeded from the tune's seed): a seat block of ``rotate`` or ``exhaustive``
  replays one deal under every seating, so its games are not independent and are resampled together
  (``deal_size`` games: a whole number of every run's blocks; one game for self-play, whose block is one
  game);
* the winner is the finalist with the lowest confirmed objective; that it beats each other finalist is
  tested one-sided with the paired bootstrap of the difference, and the p values are Holm-corrected over
  those comparisons (a family of finalists - 1 tests);
* for an even-seats objective, each finalist's seat win shares per population get Wilson intervals and
  the chi-square test of equal chances, Holm-corrected over all finalists x populations;
* for a win-share objective, each finalist's player gets its win share in one seat against the field
  with a 95% interval from the same resamples of the deals (``win_share``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analysis.stats.multiplicity import adjust
from analysis.stats.stats import equal_chances_test, wilson_interval
from analysis.tune import objectives as obj
from analysis.tune.result import Outcome, derived_seed
from analysis.tune.search import rank_key
from sim import seats as seating

REPS = 2000


def _rows(result: Outcome, cand: int, r: int) -> np.ndarray:
    return np.asarray(result.state.confirm.get(f"{cand}:{r}", []), dtype=np.int64)


def deal_size(result: Outcome) -> int:
    """Games per deal common to every run: a whole number of each run's seat blocks (the search's and the
    confirmation's game counts are multiples of it)."""
    tune = result.tune
    return math.lcm(*(seating.block_size(tune.seats, tune.players, list(run)) for run in result.runs))


def _values(result: Outcome, cand: int, weights: np.ndarray | None, block: int) -> np.ndarray:
    n, unit = result.tune.players, obj.scale(result.tune.players)
    stats = {
        run: obj.Stats.of_deals(_rows(result, cand, r), n, len(obj.distinct(run)), unit, block, weights)
        for r, run in enumerate(result.runs)
    }
    return obj.total(result.tune.terms, stats)


def confirm(result: Outcome) -> dict[str, Any]:
    """The finalists' confirmed objective, intervals, the winner and the corrected tests."""

    finalists, block = result.finalists, deal_size(result)
    deals = result.plan.confirm_games // block
    rng = np.random.default_rng(derived_seed(result.tune.seed, 2))
    weights = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=REPS).astype(float)
    point = {c: float(_values(result, c, None, block)[0]) for c in finalists}
    boot = {c: _values(result, c, weights, block) for c in finalists}
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
                **_player_part(result, c, block, weights),
            }
        )
    _seat_tests(rows)
    return {
        "seed": result.confirm_seed,
        "games_per_run": result.plan.confirm_games,
        "resamples": REPS,
        "deal_size": block,
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


def _player_part(result: Outcome, cand: int, block: int, weights: np.ndarray) -> dict[str, Any]:
    """A finalist's player and its win share against each win-share term's field (nothing for a tune
    without a player)."""
    tune = result.tune
    if tune.player is None:
        return {}
    player = next(c.player for c in result.candidates if c.index == cand)
    shares = []
    for term in tune.terms:
        if term.kind == "win_share":
            rows = _rows(result, cand, result.runs.index(term.runs[0]))
            shares.append({"field": term.strategies[1], **win_share(rows, tune.players, block, weights)})
    return {"player": player, "win_share": shares}


def win_share(rows: np.ndarray, players: int, block: int, weights: np.ndarray) -> dict[str, Any]:
    """The win share of a win-share table's player (its first strategy) over the completed games, with a
    95% percentile bootstrap interval over the ``weights``' resamples of the deals (``block`` consecutive
    games each), and whether the interval lies above, below or across parity (1/players)."""
    unit, parity = obj.scale(players), 1.0 / players
    deals = len(rows) // block
    point = obj.Stats.of_deals(rows, players, 2, unit, block)
    share = float(obj.player_share(point)[0])
    boot = obj.player_share(obj.Stats.of_deals(rows, players, 2, unit, block, weights))
    measured = bool(np.isfinite(share))
    low, high = (float(x) for x in np.nanpercentile(boot, [2.5, 97.5])) if measured else (math.nan, math.nan)
    verdict = (
        "not measured"
        if not measured
        else "above parity"
        if low > parity
        else "below parity"
        if high < parity
        else "includes parity"
    )
    return {
        "share": share if measured else None,
        "low": low if measured else None,
        "high": high if measured else None,
        "parity": parity,
        "verdict": verdict,
        "games": deals * block,
        "completed": int(point.completed[0]),
        "excluded": int(point.failed[0]) if point.failed is not None else 0,
        "deals": deals,
        "interval": f"95% bootstrap over {deals} deals of {block} games ({len(weights)} resamples)",
    }


def _seat_tests(rows: list[dict[str, Any]]) -> None:
    """Holm over every finalist x run's equal-chances p value (in place: ``equal_chances_p_holm``)."""
    flat = [run for row in rows for run in row["runs"]]
    adjusted = adjust([run["equal_chances_p"] for run in flat]).p_adjusted
    for run, p in zip(flat, adjusted, strict=True):
        run["equal_chances_p_holm"] = None if np.isnan(p) else float(p)
        if np.isnan(run["equal_chances_p"]):
            run["equal_chances_p"] = None

"""The one-step check of a tune's winner (the neighbourhood idea of NTBEA, Lucas, Liu and Perez-Liebana
2018, as the TAG framework uses it): is each configuration one step away really worse?

A neighbour changes one parameter of the winner to the next value down or up in that parameter's declared
list, all else kept.  Most neighbours were played by the search (successive halving plays every candidate
on the first rung), on the same games as the winner (common seeds): the check compares the two on the
games both played, paired, with a 95% percentile bootstrap of the difference that resamples whole deals
(a seat block of the rotation replays one deal; ``REPS`` resamples, seeded from the tune's seed).  A
neighbour that is not among the candidates (sampled out) or whose data the game refuses is "not
measured"; nothing is played for the check.

These are the search's own games, which also chose the winner, so the winner's lead over a neighbour is
optimistic there (a neighbour dropped early had few games); only the finalists are re-measured on fresh
games (``analysis.tune.confirm``).  The verdicts: ``worse`` (the interval of neighbour minus winner lies
above 0), ``better`` (below 0), ``not clearly worse`` (it holds 0), ``not measured``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analysis.tune import objectives as obj
from analysis.tune.confirm import deal_size
from analysis.tune.params import Parameter
from analysis.tune.play import Candidate
from analysis.tune.result import Outcome, derived_seed

REPS = 2000
METHOD = (
    "each parameter moved one step (the next value down or up in its list), all else the winner's; compared"
    " with the winner on the search games both played (common seeds), neighbour minus winner, with a 95%"
    f" bootstrap interval over deals ({REPS} resamples); the search's own games, which also chose the"
    " winner, so a lead there is optimistic"
)


def check(result: Outcome) -> dict[str, Any]:
    """The winner's one-step neighbours, each with its verdict, and a summary in words."""
    tune = result.tune
    winner = _by_index(result, result.confirmation["winner"])
    by_choice = {c.choice: c for c in result.candidates}
    rng = np.random.default_rng(derived_seed(tune.seed, 3))
    rows = []
    for p, param in enumerate(tune.parameters):
        at = winner.choice[p]
        for j in (at - 1, at + 1):
            if 0 <= j < param.size:
                choice = winner.choice[:p] + (j,) + winner.choice[p + 1 :]
                rows.append(compare(result, winner, by_choice.get(choice), param, (at, j), rng))
    return {"method": METHOD, "neighbours": rows, "summary": summary(rows)}


def _by_index(result: Outcome, index: int) -> Candidate:
    return next(c for c in result.candidates if c.index == index)


def _rows(result: Outcome, cand: int, games: int) -> list[np.ndarray]:
    return [
        np.asarray(result.state.search.get(f"{cand}:{r}", [])[:games], dtype=np.int64)
        for r in range(len(result.runs))
    ]


def _values(result: Outcome, rows: list[np.ndarray], block: int, weights: np.ndarray | None) -> np.ndarray:
    n, unit = result.tune.players, obj.scale(result.tune.players)
    stats = {
        run: obj.Stats.of_deals(r, n, len(obj.distinct(run)), unit, block, weights)
        for run, r in zip(result.runs, rows, strict=True)
    }
    return obj.total(result.tune.terms, stats)


def compare(
    result: Outcome,
    winner: Candidate,
    other: Candidate | None,
    param: Parameter,
    step: tuple[int, int],
    rng: np.random.Generator,
) -> dict[str, Any]:
    """One neighbour against the winner on the search games both played (``step``: the winner's option
    index and the neighbour's)."""
    row: dict[str, Any] = {
        "parameter": param.name,
        "kind": param.kind,
        "winner_value": param.labels[step[0]],
        "neighbour_value": param.labels[step[1]],
        "candidate": None if other is None else other.index,
        "finalist": other is not None and other.index in result.finalists,
    }
    block = deal_size(result)
    runs = range(len(result.runs))
    played = (
        0 if other is None else min(result.state.played((c.index, r)) for c in (winner, other) for r in runs)
    )
    games = played // block * block
    if other is None or other.invalid is not None or games == 0:
        why = (
            "not among the candidates (sampled out)"
            if other is None
            else f"the game refuses its data: {other.invalid}"
            if other.invalid is not None
            else "never played"
        )
        return {**row, "verdict": "not measured", "reason": why, "words": _words(row, "not measured", why)}
    mine, theirs = _rows(result, winner.index, games), _rows(result, other.index, games)
    deals = games // block
    weights = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=REPS).astype(float)
    w, o = float(_values(result, mine, block, None)[0]), float(_values(result, theirs, block, None)[0])
    diff = _values(result, theirs, block, weights) - _values(result, mine, block, weights)
    measured = math.isfinite(w) and math.isfinite(o) and bool(np.isfinite(diff).any())
    low, high = (float(x) for x in np.nanpercentile(diff, [2.5, 97.5])) if measured else (math.nan, math.nan)
    verdict = (
        "not measured"
        if not measured
        else "worse"
        if low > 0
        else "better"
        if high < 0
        else "not clearly worse"
    )
    numbers = {
        "games_per_run": games,
        "winner": w,
        "neighbour": o,
        "difference": o - w,
        "low": low,
        "high": high,
    }
    same = o == w and not diff.any()
    why = "no completed games" if not measured else "the same objective in every resample" if same else ""
    return {
        **row,
        **numbers,
        "verdict": verdict,
        "reason": why,
        "words": _words({**row, **numbers}, verdict, why),
    }


def _words(row: dict[str, Any], verdict: str, why: str) -> str:
    """One neighbour in a sentence."""
    head = f"{row['parameter']} {row['winner_value']} -> {row['neighbour_value']}"
    if verdict == "not measured":
        return f"{head}: not measured ({why})"
    text = (
        f"{head}: {verdict}; objective {row['neighbour']:.4f} against the winner's {row['winner']:.4f} on the"
        f" same {row['games_per_run']:,} games per run (difference {row['difference']:+.4f}, 95% interval"
        f" {row['low']:+.4f} to {row['high']:+.4f})"
    )
    text += f"; {why}" if why else ""
    return text + ("; also a finalist, re-measured on fresh games" if row["finalist"] else "")


def summary(rows: list[dict[str, Any]]) -> str:
    """The check in one sentence."""
    if not rows:
        return "no one-step neighbours (every parameter has a single value)"
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("worse", "not clearly worse", "better")}
    unmeasured = len(rows) - sum(count.values())
    parts = [f"{n} {v}" for v, n in count.items() if n]
    text = f"of {len(rows)} one-step neighbours, {len(rows) - unmeasured} measured"
    text += f" ({', '.join(parts)})" if parts else ""
    text += f" and {unmeasured} not measured" if unmeasured else ""
    if count["worse"] == len(rows):
        return text + ": every neighbour is worse on the search's games"
    if count["better"]:
        return (
            text
            + ": a neighbour did better on the search's games, so the winner is not a local optimum there"
        )
    return text

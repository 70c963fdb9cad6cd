"""The verdicts a screen measures at every point, from the games' whole-number rows (``objectives.Stats``):

* each ``[[objective]]`` term (``analysis.tune.objectives``): an ``even_seats`` term is the seat verdict
  (the largest seat win-share gap from 1/n, or the chi-square of equal chances per game, under its
  strategy populations); ``game_length`` and ``win_matrix`` terms as a tune reads them;
* ``game length``: the mean decisions per game over every run (always);
* ``objective``: the terms' weighted sum, when there are several.
"""

from __future__ import annotations

import numpy as np

from analysis.sensitivity.screen import Measure, Screen, Sensitivity
from analysis.tune import objectives as obj


def _term_words(t: obj.Term) -> str:
    tables = "; ".join(" / ".join(dict.fromkeys(run)) for run in t.runs)
    if t.kind == "even_seats":
        what = (
            "largest seat win-share gap from 1/n"
            if t.measure == "gap"
            else "chi-square of equal chances per game"
        )
        return f"{what} ({t.combine} over {tables})"
    if t.kind == "game_length":
        return f"relative distance of the mean decisions per game from {t.target:g} ({tables})"
    return f"root mean square distance from the target win-rate matrix ({', '.join(t.strategies)})"


def measures_of(spec: Sensitivity) -> list[Measure]:
    out: list[Measure] = []
    seen: dict[str, int] = {}
    for i, t in enumerate(spec.terms):
        base = "seat verdict" if t.kind == "even_seats" else t.kind.replace("_", " ")
        seen[base] = seen.get(base, 0) + 1
        name = base if seen[base] == 1 else f"{base} {seen[base]}"
        out.append(Measure(name, _term_words(t), t.kind == "even_seats", i))
    out.append(Measure("game length", "mean decisions per game over every strategy table", False, None))
    if len(spec.terms) > 1:
        out.append(Measure("objective", "the weighted sum of the objective terms", False, -1))
    return out


def point_values(screen: Screen, cand: int) -> np.ndarray:
    """The measures at candidate ``cand`` (its first ``games`` games of every run)."""
    spec = screen.spec
    n, unit, games = spec.players, obj.scale(spec.players), spec.games
    stats, decisions = {}, 0.0
    for r, run in enumerate(screen.runs):
        total = screen.state.totals((cand, r), games)
        stats[run] = obj.Stats.totals(total, games, n, len(obj.distinct(run)), unit)
        decisions += float(stats[run].decisions[0])
    out = []
    for m in screen.measures:
        if m.term is None:
            out.append(decisions / (games * len(screen.runs)))
        elif m.term == -1:
            out.append(float(obj.total(spec.terms, stats)[0]))
        else:
            out.append(float(spec.terms[m.term].value(stats)[0]))
    return np.asarray(out)

"""A screen's outputs in its folder, each written through a temporary name:

* ``sensitivity.json``: every value and its options, every point (its options, data file, measures), the
  effects per measure ranked with intervals, the no-effect dummy's band per measure (Morris:
  ``analysis.sensitivity.noise``), and per seat verdict the values that could overturn it (their effect
  interval reaches the verdict's margin, the seat gap or chi-square at the packaged values, and they are
  told apart from noise) and those that cannot be told (their interval reaches it, but they are not told
  apart from noise at the screen's size);
* ``sensitivity.html``: the report section (``analysis.report.sections.sensitivity``).

Nothing in them depends on the time, the folder or ``--jobs``: the same file and seed give the same bytes.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from analysis.report.sections.sensitivity import write_html
from analysis.sensitivity import morris, noise, sobol
from analysis.sensitivity.screen import Screen
from analysis.tune import params as P
from analysis.tune.result import derived_seed
from sim.manifest import json_text, write_text_atomic

WHY_MORRIS = (
    "Morris is the default: it ranks k values with r (k + 1) points, where Sobol's first-order and total "
    "indices need n (k + 2) with n at least 64 or so to be stable; every point is a few dozen noisy games, "
    "so a few well-measured points spend the budget better than many thin ones; and the question is a "
    "screen (which values matter, by how much in the verdict's own units), not a share of variance."
)
WHY_SOBOL = (
    "Sobol' indices (scipy.stats.sobol_indices): the share of the verdict's variance each value explains."
)


def _num(x: Any) -> float | None:
    x = float(x)
    return None if math.isnan(x) else x


def _y(screen: Screen, candidates: list[int], m: int) -> np.ndarray:
    return np.asarray([screen.values[c][m] if c in screen.values else np.nan for c in candidates])


def morris_effects(screen: Screen) -> tuple[dict[str, list[dict[str, Any]]], dict[str, dict[str, Any]]]:
    """Per measure the values' effects ranked (each with its test against the dummy), and the dummy's."""
    plan, k = screen.layout.morris, len(screen.spec.parameters)
    assert plan is not None
    out, bands = {}, {}
    for m, measure in enumerate(screen.measures):
        y = _y(screen, screen.layout.candidate_of, m).reshape(len(plan.points), k + 1)
        ee = morris.effects(plan, y, k)
        rng = np.random.default_rng(derived_seed(screen.spec.seed, 23))
        s = morris.summarise(ee, rng)
        again = _y(screen, [noise.replicate_key(t) for t in range(len(y))], m)
        dummy = noise.dummy_effects(y[:, 0], again, plan.delta)
        band = morris.summarise(dummy[:, None], np.random.default_rng(derived_seed(screen.spec.seed, 25)))
        tests = noise.told_apart(ee, dummy)
        bands[measure.name] = {
            "mu_star": _num(band.mu_star[0]),
            "mu_star_low": _num(band.mu_star_low[0]),
            "mu_star_high": _num(band.mu_star_high[0]),
            "effects": int(band.counted[0]),
            "test": "one-sided Wilcoxon signed-rank of |value effect| - |dummy effect| over trajectories",
            "correction": noise.CORRECTION,
            "family": k,
            "alpha": noise.ALPHA,
            "smallest_p": noise.smallest_p(len(dummy)),
            "trajectories_to_tell": noise.trajectories_to_tell(k),
            "can_tell": noise.can_tell(len(dummy), k),
        }
        rows = [
            {
                "value": p.name,
                "mu_star": _num(s.mu_star[i]),
                "mu_star_low": _num(s.mu_star_low[i]),
                "mu_star_high": _num(s.mu_star_high[i]),
                "mu": _num(s.mu[i]),
                "sigma": _num(s.sigma[i]),
                "sigma_low": _num(s.sigma_low[i]),
                "sigma_high": _num(s.sigma_high[i]),
                "effects": int(s.counted[i]),
                "noise_p": float(tests.p[i]),
                "noise_p_holm": float(tests.p_adjusted[i]),
                "told_apart": bool(tests.told_apart[i]),
            }
            for i, p in enumerate(screen.spec.parameters)
        ]
        out[measure.name] = _ranked(rows, "mu_star", "mu_star_high")
    return out, bands


def _ranked(rows: list[dict[str, Any]], key: str, reach: str) -> list[dict[str, Any]]:
    order = sorted(range(len(rows)), key=lambda i: (-(rows[i][key] if rows[i][key] is not None else -1), i))
    ranked = [rows[i] for i in order]
    for rank, row in enumerate(ranked, 1):
        row["rank"] = rank
        row["reach"] = row[reach]
    return ranked


def sobol_effects(screen: Screen) -> dict[str, list[dict[str, Any]]]:
    spec, k = screen.spec, len(screen.spec.parameters)
    by_point = dict(zip(screen.layout.points, screen.layout.candidate_of, strict=True))

    def measure(point: tuple[int, ...]) -> np.ndarray:
        c = by_point[point]
        return screen.values.get(c, np.full(len(screen.measures), np.nan))

    ind = sobol.indices(
        k, screen.layout.size, spec.levels, derived_seed(spec.seed, 22), measure, len(screen.measures)
    )
    out = {}
    for m, name in enumerate(x.name for x in screen.measures):
        y = _y(screen, screen.layout.candidate_of, m)
        rows = []
        for i, p in enumerate(spec.parameters):
            levels = np.asarray([pt[i] for pt in screen.layout.points])
            means = [
                np.nanmean(y[levels == lv])
                for lv in sorted(set(levels.tolist()))
                if np.any(~np.isnan(y[levels == lv]))
            ]
            rows.append(
                {
                    "value": p.name,
                    "first": _num(ind.first[m, i]),
                    "first_low": _num(ind.first_low[m, i]),
                    "first_high": _num(ind.first_high[m, i]),
                    "total": _num(ind.total[m, i]),
                    "total_low": _num(ind.total_low[m, i]),
                    "total_high": _num(ind.total_high[m, i]),
                    "main_effect_range": _num(max(means) - min(means)) if means else None,
                }
            )
        out[name] = _ranked(rows, "total", "main_effect_range")
    return out


def document(screen: Screen) -> dict[str, Any]:
    spec, lay = screen.spec, screen.layout
    effects, bands = morris_effects(screen) if lay.method == "morris" else (sobol_effects(screen), {})
    base = screen.values.get(0)
    measures, hinges, untold = [], {}, {}
    for m, measure in enumerate(screen.measures):
        margin = None if base is None else abs(float(base[m]))
        measures.append(
            {"name": measure.name, "words": measure.words, "seat": measure.seat, "packaged": margin}
        )
        if measure.seat and margin is not None:
            reach = [r for r in effects[measure.name] if r["reach"] is not None and r["reach"] >= margin]
            hinges[measure.name] = [r["value"] for r in reach if r.get("told_apart", True)]
            untold[measure.name] = [r["value"] for r in reach if not r.get("told_apart", True)]
    points, runs = [], len(screen.runs)
    for cand in screen.candidates:
        values = (
            P.describe(spec.parameters, cand.choice)
            if cand.choice
            else {"(packaged)": "every value as packaged"}
        )
        vals = screen.values.get(cand.index)
        points.append(
            {
                "point": cand.index,
                "values": values,
                "data": None if cand.data is None else Path(cand.data).name,
                "invalid": cand.invalid,
                "excluded": sum(screen.state.excluded((cand.index, r), spec.games) for r in range(runs)),
                "measures": None
                if vals is None
                else {m.name: float(v) for m, v in zip(screen.measures, vals, strict=True)},
            }
        )
    return {
        "sensitivity": spec.name,
        "title": spec.title,
        "description": spec.description,
        "game": spec.game,
        "players": spec.players,
        "seed": spec.seed,
        "seats": spec.seats,
        "rules": spec.rules,
        "budget": screen.budget,
        "games_spent": screen.state.spent(),
        "excluded_games": screen.state.excluded(),
        "games_per_point": spec.games,
        "runs": [list(r) for r in screen.runs],
        "method": lay.method,
        "why": WHY_MORRIS if lay.method == "morris" else WHY_SOBOL,
        "levels": spec.levels,
        "trajectories" if lay.method == "morris" else "samples": lay.size,
        "values": [
            {"name": p.name, "kind": k, "target": p.target, "options": list(p.labels)}
            for p, k in zip(spec.parameters, spec.kinds, strict=True)
        ],
        "not_varied": spec.not_varied,
        "measures": measures,
        "effects": effects,
        "noise": bands,
        "could_overturn": hinges,
        "cannot_tell": untold,
        "design": [
            lay.candidate_of[t * (len(spec.parameters) + 1) : (t + 1) * (len(spec.parameters) + 1)]
            for t in range(lay.size)
        ]
        if lay.method == "morris"
        else lay.candidate_of,
        "points": points,
    }


def write(screen: Screen, out: Path) -> dict[str, Any]:
    """Write ``sensitivity.json`` and ``sensitivity.html``; return the document."""

    doc = document(screen)
    write_text_atomic(json_text(doc), out / "sensitivity.json")
    write_html(doc, out / "sensitivity.html")
    return doc

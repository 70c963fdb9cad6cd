"""Win rates of one run folder, per seat and per strategy, as the report computes them.

    from analysis.questions.win_rates import strategy_win_rates
    print(strategy_win_rates("results/mainland-demo"))

Win rates are mean win shares over decided games (a k-way tie gives each winner 1/k); truncated
and errored games have no winner and are left out, as everywhere in ``analysis`` (their count is
the ``excluded`` column).  The 95% interval knows the design: Wilson's at n_eff = n / DEFF over the
run's blocks (``analysis.stats.inference.cluster_proportion``); ``analysis.data.records.wilson`` is the
plain formula.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import open_runs
from analysis.stats import inference


def _rates(results_dir: str | Path, by: str) -> pl.DataFrame:
    """Per ``by`` value: ``inference.proportions_by`` of the win shares of decided games, and
    ``excluded`` (seat rows of truncated or errored games left out)."""
    design = design_seats(open_runs(results_dir))
    rates = inference.proportions_by(design.filter(~pl.col("excluded")), [by])
    excluded = design.group_by(by).agg(pl.col("excluded").sum().cast(pl.Int64)).collect()
    # a value seen only in excluded games keeps its row, with null rates
    return excluded.join(rates, on=by, how="left").select(*rates.columns, "excluded").sort(by)


def seat_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per seat: games (decided), wins (summed win share), win_rate, ci_low, ci_high, excluded
    (truncated or errored games left out), blocks, se, deff, n_eff and interval_note."""
    return _rates(results_dir, "seat")


def strategy_win_rates(results_dir: str | Path) -> pl.DataFrame:
    """Per strategy spec: decided seat-games (``games``), wins, win_rate, ci_low, ci_high, excluded
    (seat-games of truncated or errored games), blocks, se, deff, n_eff and interval_note."""
    return _rates(results_dir, "strategy")

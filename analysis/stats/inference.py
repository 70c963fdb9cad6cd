"""Inference that knows the design: the block is the independent unit (reference/analysis-methods.md).

Under ``--seats rotate`` and ``exhaustive`` the games of one block replay one deal under every seat
arrangement, so their outcomes are correlated; under ``random`` and ``fixed`` every game is its own
block (methods section 1; the ``block`` column and the ``excluded`` flag of truncated and errored games
come with the records: ``analysis.data.design``).  Every function here works on *block totals*, with the
blocks on the last axis (and the positions after them where there are several), and broadcasts over any
leading axes: the analysis calls them on one group's blocks, the calibration suite
(``tests/analysis/test_calibration.py``) on a thousand replicates at once.

This module gathers the names of the modules that do the work, one job each, so callers
keep writing ``inference.shares_test``:

* ``analysis.stats.estimates``: ``cluster_proportion`` / ``cluster_mean``, the ratio estimator with its
  block-total standard error, the design effect (DEFF), n_eff = n / DEFF, a Wilson-style interval on
  n_eff (proportions) or a t interval with B - 1 degrees of freedom (means);
  ``paired_difference`` (variants on the same seeds and seats, paired by block) and
  ``cluster_difference`` (two sets of different blocks).
* ``analysis.stats.grouped``: ``proportions_by`` / ``means_by`` apply them per group of a frame.
* ``analysis.stats.shares``: ``shares_test``, seat balance, the second-order Rao-Scott corrected chi-square
  on the blocks' win-share vectors (Hotelling's T² as the calibration's contrast), or the plain
  chi-square where every block is one game, the right test too where each category appears once per
  game (methods section 4); ``category_win_test`` / ``category_wins``: do categories (tribes, drafted
  territories) seated 0, 1 or several times per game win equally often, one winner per game.
* ``analysis.stats.variant_tests``: two variants' seats, ``gap_difference`` (block bootstrap) and
  ``homogeneity_test`` (block permutation).
* ``analysis.stats.multiplicity``: ``adjust``, Holm or Benjamini-Hochberg over a named family of tests
  (statsmodels ``multipletests``; methods section 5).
* ``analysis.stats.power``: ``detectable_gap`` / ``games_needed``, power of the equal-chances chi-square at
  n_eff = n / DEFF, and ``detectable_difference``.
* ``analysis.stats.held``: ``held_vs_expected``, held cards against their stratum's expectation.
"""

from __future__ import annotations

from analysis.stats.estimates import (
    Array,
    Difference,
    Estimate,
    cluster_difference,
    cluster_mean,
    cluster_proportion,
    paired_difference,
    t_result,
)
from analysis.stats.grouped import MEAN_COLUMNS, RATE_COLUMNS, block_totals, means_by, proportions_by
from analysis.stats.held import HeldTest, held_vs_expected
from analysis.stats.multiplicity import ALPHA, METHODS, Adjusted, adjust
from analysis.stats.power import detectable_difference, detectable_gap, games_needed
from analysis.stats.shares import SharesTest, category_win_test, category_wins, one_per_game_test, shares_test
from analysis.stats.variant_tests import GapDifference, HomogeneityTest, gap_difference, homogeneity_test

__all__ = [
    "ALPHA",
    "MEAN_COLUMNS",
    "METHODS",
    "RATE_COLUMNS",
    "Adjusted",
    "Array",
    "Difference",
    "Estimate",
    "GapDifference",
    "HeldTest",
    "HomogeneityTest",
    "SharesTest",
    "adjust",
    "block_totals",
    "category_win_test",
    "category_wins",
    "cluster_difference",
    "cluster_mean",
    "cluster_proportion",
    "detectable_difference",
    "detectable_gap",
    "games_needed",
    "gap_difference",
    "held_vs_expected",
    "homogeneity_test",
    "means_by",
    "one_per_game_test",
    "paired_difference",
    "proportions_by",
    "shares_test",
    "t_result",
]

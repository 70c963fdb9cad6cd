"""Reading and summarising Skald records (Parquet) with polars.

Modules, each returning tidy polars DataFrames:

* ``records``: one run folder: ``scan``, win rates per seat and strategy (kept for scripts).
* ``runs``: several run or study folders read as one (``open_runs``), with run, game, variant and mix.
* ``stats``: Wilson intervals, chi-square/G tests, Bradley-Terry (MM), effect sizes, games to halve.
* ``inference``: intervals and tests that know the blocks, gathered from ``design``, ``estimates``,
  ``grouped``, ``shares``, ``variant_tests``, ``multiplicity``, ``power`` and ``held``.
* ``balance``: seat and start-position balance, Balance metric, first-player advantage, variant comparisons.
* ``scores``: score spreads, winner's margin, Mainland size, point sources, passes and gatherings.
* ``strength``: head to head, Bradley-Terry ratings, score curves, lead changes.
* ``graenaland``: start positions, the draft and the three-player adjustments (named columns).
* ``charts``, ``report``: matplotlib charts and the self-contained HTML report.
* ``study``: study files (``studies/*.toml``) and running them.
"""

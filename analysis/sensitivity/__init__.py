"""``skald sensitivity FILE.toml``: how much each reconstructed value moves each verdict.

* ``values``: the values marked ``source = "reconstructed"`` in a game's data file, and their ranges;
  ``select``: with the file's ``[[values]]`` and ``exclude``; ``spec``: the file and its checks;
* ``screen``: what a screen is (the checked file, its measures, its design and what it found);
* ``morris`` (the default) and ``sobol``: the designs and the effects with intervals;
* ``measures``: the verdicts measured at every point (the seat verdict, game length, tune objectives);
* ``engine``: the run (``run_sensitivity``: points played on common seeds with ``analysis.tune.play``,
  resumable); ``outputs``: ``sensitivity.json`` and ``sensitivity.html`` (the page and the report's
  section: ``analysis.report.sections.sensitivity``).

The packaged screens are the ``*.toml`` files beside this module, one per game.
"""

"""``skald sensitivity FILE.toml``: how much each reconstructed value moves each verdict.

* ``values``: the values marked ``source = "reconstructed"`` in a game's data file, and their ranges;
  ``select``: with the file's ``[[values]]`` and ``exclude``; ``spec``: the file and its checks;
* ``morris`` (the default) and ``sobol``: the designs and the effects with intervals;
* ``measures``: the verdicts measured at every point (the seat verdict, game length, tune objectives);
* ``engine``: the run (points played on common seeds with ``analysis.tune.play``, resumable);
  ``outputs`` and ``report``: ``sensitivity.json`` and ``sensitivity.html``, and the report's section.

The packaged screens are the ``*.toml`` files beside this module, one per game.
"""

from analysis.sensitivity.engine import SensitivityInterrupted, run_sensitivity
from analysis.sensitivity.spec import Sensitivity, load_file, parse

__all__ = ["Sensitivity", "SensitivityInterrupted", "load_file", "parse", "run_sensitivity"]

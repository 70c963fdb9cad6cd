"""``skald tune FILE.toml``: search declared parameters for the configuration that best meets an objective.

* ``spec``: the tune file and its checks (``check``: against the game);
* ``params``: what a tune varies (rule switches, data values by path, permutations, whole data files),
  shared with the sensitivity screen to come;
* ``objectives``: even seats, game length, a target win-rate matrix, weighted sums;
* ``search``: successive halving on common seeds (why: its docstring);
* ``play``: the candidates' data files and their games (``sim.plan`` / ``sim.runner``);
* ``confirm``: the finalists re-measured on fresh seeds, with intervals and Holm-corrected tests;
* ``engine``: the whole run, resumable (``state``); ``outputs`` and ``report``: what it writes.

optuna is not used (``search`` says why), so the ``[tune]`` extra is not needed to run a tune.
"""

from analysis.tune.engine import Outcome, TuneInterrupted, run_tune
from analysis.tune.spec import Tune, load_file, parse

__all__ = ["Outcome", "Tune", "TuneInterrupted", "load_file", "parse", "run_tune"]

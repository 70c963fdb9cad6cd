"""``skald tune FILE.toml``: search declared parameters for the configuration that best meets an objective.

* ``spec``: the tune file and its checks (``reader``: what a checked file is; ``check``: against the game);
* ``params``: what a tune varies (rule switches, data values by path, permutations, whole data files,
  the tuned player's strategy parameters), shared with the sensitivity screen;
* ``objectives``: even seats, game length, a target win-rate matrix, the tuned player's win share,
  weighted sums;
* ``search``: successive halving on common seeds (why: its docstring);
* ``play``: the candidates' data files and their games (``sim.plan`` / ``sim.runner``);
* ``confirm``: the finalists re-measured on fresh seeds, with intervals and Holm-corrected tests;
* ``neighbours``: the one-step check of the winner against each configuration one parameter step away;
* ``engine``: the whole run (``run_tune``), resumable (``state``); ``result``: what it found; ``outputs``:
  what it writes (the page: ``analysis.report.sections.tune``).

optuna is not used (``search`` says why), so the ``[tune]`` extra is not needed to run a tune.
"""

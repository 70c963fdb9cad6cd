"""The balance questions any game's records answer, as tidy polars frames: ``balance`` (seats, start
positions and rule variants), ``fairness_change``, ``scores``, ``strength``, ``ladder``, ``stronger``,
``win_rates`` (one run folder's) and ``stops`` (where the runs of a study that played until decided
stopped)."""

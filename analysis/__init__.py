"""Reading and summarising Skald records (Parquet) with polars, in floors: a module imports only its own
floor and the floors below it, and no two modules import each other (``python -m tools.import_graph``).

From the ground up:

1. ``data``: the records and what lies beside them: ``records`` (``scan``), ``runs`` (several run or
   study folders read as one, ``open_runs``), ``design`` (the blocks), ``study_file`` (study files and
   the variant labels a study leaves) and ``sequence`` (the stops of a study that played until decided).
2. ``stats``: the statistics, on numbers and frames: ``stats`` (Wilson intervals, chi-square/G tests,
   Bradley-Terry, effect sizes), ``inference`` (intervals and tests that know the blocks, gathered from
   ``estimates``, ``grouped``, ``shares``, ``variant_tests``, ``multiplicity``, ``power`` and ``held``),
   ``decide`` (verdicts against a margin) and ``sequential`` (stopping rules).
3. ``present``: ``findings`` (every number as plain data), ``charts`` (matplotlib) and the report's
   building blocks (``blocks``, ``tables``, ``decision_words``).
4. ``questions``: what any game's records answer: ``balance``, ``fairness_change``, ``scores``,
   ``strength``, ``ladder``, ``stronger``, ``win_rates`` and ``stops``.
5. ``games``: each game's room, its own questions and report sections (``games.<game>``).
6. ``report``: the self-contained HTML report, its verdicts and the sections of any game.
7. ``study``, ``tune`` and ``sensitivity``: running studies, tunes and sensitivity screens.
"""

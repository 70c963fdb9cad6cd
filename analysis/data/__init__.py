"""The ground floor of the analysis: the records and what lies beside them, read.

* ``records``: one run's Parquet parts (``scan``);
* ``runs``: several run or study folders read as one (``open_runs``), each run's identity (``run_id``,
  ``identity``);
* ``design``: the ``block`` column and the ``excluded`` flag every estimate works on;
* ``study_file``: a study file (its format, checks and planned runs) and the variant labels a study
  leaves beside its runs (``study.toml``);
* ``sequence``: the ``sequence.json`` a study that played until decided leaves beside its runs.

Nothing here imports the rest of the analysis.
"""

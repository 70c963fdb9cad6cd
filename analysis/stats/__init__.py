"""The statistics, on plain numbers, numpy arrays and frames with a ``block`` column (never on runs):
``stats`` (Wilson intervals, tests of equal chances, Bradley-Terry, the seeds of resamplings),
``estimates``, ``grouped``, ``shares``, ``variant_tests``, ``multiplicity``, ``power`` and ``held``
(gathered by ``inference``), ``decide`` (verdicts against a margin) and ``sequential`` (stopping rules
that look several times)."""

"""Mainland: the report's Mainland sections (``sections``); its questions are the general ones
(``analysis.questions.scores``)."""

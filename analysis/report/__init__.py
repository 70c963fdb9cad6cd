"""The HTML report (``report``: ``write_report``), its verdicts (``verdicts``, each a ``verdict.Verdict``),
the sections of any game (``sections``) and its template (``templates/``)."""

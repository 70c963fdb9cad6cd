"""How the analysis shows what it found: ``findings`` (every number as plain data, ``report.json``),
``charts`` (matplotlib), and the report's building blocks: ``blocks`` (sections, tables, charts and the
formatting of numbers), ``tables`` (the statistics tables the sections repeat) and ``decision_words``
(decisions against a margin in plain words)."""

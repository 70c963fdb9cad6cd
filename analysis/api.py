"""What a game's own report sections need from Skald's analysis, in one place: import from here (the
rest of ``analysis`` is internal and may change).  A game's rules and strategies take theirs from
``sim.api``; a plug-in declares its sections' builder in ``GamePlugin.sections``.

* ``Section``: one section of the report (id, title, question, reading, charts, tables, findings, notes);
* ``Table``: a table of a section, and ``pct``, a share as a percentage for its cells.
"""

from __future__ import annotations

from analysis.present.blocks import Section, Table, pct

__all__ = ["Section", "Table", "pct"]

"""The ``sequence.json`` a study that played until decided leaves beside its run folders
(``analysis.study.sequential_study`` writes it): each run's plan, the spending, each question's decision at
each look taken and the look it stopped at.  This module reads it; ``analysis.questions.stops`` makes the
report's stops of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analysis.data.runs import Run, Runs

#: the file a study that plays until decided writes beside its run folders
SEQUENCE_FILE = "sequence.json"
#: the report's groups a stop is known for: one run's games, players, rule variant and strategy mix
GROUP_KEYS = ("game", "players", "variant", "mix")
#: a skill matrix cell's question (``analysis.study.sequential_study``): are its two rungs even?  It is
#: decided as two positions' shares are, and recorded in their words ("fair", "unfair"); said in its own
STRENGTH = "strength"
STRENGTH_WORDS = {"fair": "even", "unfair": "uneven"}


def said(question: str, decision: str) -> str:
    """A recorded decision in the question's words (``STRENGTH_WORDS`` for a cell's strength)."""
    return STRENGTH_WORDS.get(decision, decision) if question == STRENGTH else decision


def read_sequence(path: Path) -> dict[str, Any]:
    """A ``sequence.json`` as a JSON object (empty where there is none, or it cannot be read)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) and isinstance(doc.get("runs"), dict) else {}


def entries(runs: Runs) -> dict[str, tuple[Any, dict[str, Any]]]:
    """By run label: the run's entry in the ``sequence.json`` beside its folder (None where that names
    none) and the whole file (empty where there is none)."""
    found: dict[str, tuple[Any, dict[str, Any]]] = {}
    docs: dict[Path, dict[str, Any]] = {}
    for run in runs:
        where = run.path.parent / SEQUENCE_FILE
        if where not in docs:
            docs[where] = read_sequence(where)
        found[run.label] = (docs[where].get("runs", {}).get(run.path.name), docs[where])
    return found


def group_key(run: Run) -> tuple[Any, ...]:
    """The report's group (``GROUP_KEYS``) of a run's games: its mix is its strategies sorted, joined by
    " + " (as ``analysis.data.runs.Runs`` names it)."""
    mix = " + ".join(sorted(str(s) for s in run.config.get("strategies", [])))
    return (run.game, run.players, run.variant, mix)

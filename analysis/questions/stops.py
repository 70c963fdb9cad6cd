"""Where each run of a study that played until decided stopped, as the report reads it from the
``sequence.json`` beside the runs (``analysis.data.sequence``): the report decides the seat and
start-position questions of such a run at its stopping look (``stop_for``, ``Stop.decide``), not at full α.
``reading_stops`` is set by ``analysis.report.report.write_report``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from analysis.data.runs import Run, Runs
from analysis.data.sequence import GROUP_KEYS, entries, group_key
from analysis.stats.decide.core import ALPHA
from analysis.stats.sequential import SPENDING, Stop

_STOPS: ContextVar[Mapping[tuple[Any, ...], Stop] | None] = ContextVar("sequential_stops", default=None)


def sequences(runs: Runs) -> dict[str, dict[str, Any]]:
    """Each run's entry in the ``sequence.json`` beside its folder, by run label, with the study's α and
    margin: only a run that stopped and whose records are those it stopped with (the manifest's ``run``
    identity the entry names)."""
    found: dict[str, dict[str, Any]] = {}
    read = entries(runs)
    for run in runs:
        entry, study = read[run.label]
        if _stopped_with(entry, run):
            found[run.label] = {**entry, "alpha": study.get("alpha", ALPHA), "margin": study.get("margin")}
    return found


def _stopped_with(entry: Any, run: Run) -> bool:
    """Whether a sequence entry stopped, with a plan, on the records ``run`` holds."""
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("stopped_at"), int)
        and isinstance(entry.get("plan"), list)
        and 1 <= entry["stopped_at"] <= len(entry["plan"])
        and isinstance(entry.get("looks"), list)
        and len(entry["looks"]) >= entry["stopped_at"]
        and entry.get("run") == run.manifest.get("run")
        and entry.get("spending") in SPENDING
    )


def run_stops(runs: Runs) -> dict[tuple[Any, ...], Stop]:
    """The stops of the report's groups that are one run which played until decided (a group of several
    runs is decided as a fixed sample)."""
    stopped = sequences(runs)
    by_group: dict[tuple[Any, ...], list[Run]] = {}
    for run in runs:
        by_group.setdefault(group_key(run), []).append(run)
    stops = {}
    for key, members in by_group.items():
        entry = stopped.get(members[0].label) if len(members) == 1 else None
        if entry is not None:
            stops[key] = Stop(
                tuple(int(n) for n in entry["plan"]),
                entry["stopped_at"] - 1,
                entry["spending"],
                float(entry["alpha"]),
            )
    return stops


@contextmanager
def reading_stops(runs: Runs) -> Iterator[Mapping[tuple[Any, ...], Stop]]:
    """Within: the seat decisions of ``runs``' groups that played until decided are made at their stops
    (``stop_for``)."""
    token = _STOPS.set(run_stops(runs))
    try:
        yield _STOPS.get() or {}
    finally:
        _STOPS.reset(token)


def stop_for(groups: Mapping[str, Any], blocks: int) -> Stop | None:
    """The stop of the group ``groups`` (exactly ``GROUP_KEYS``) whose decided games fill ``blocks`` blocks,
    where ``reading_stops`` knows one and the blocks are no more than the run held at its stop; else None."""
    stops = _STOPS.get()
    if not stops or set(groups) != set(GROUP_KEYS):
        return None
    stop = stops.get(tuple(groups[k] for k in GROUP_KEYS))
    return stop if stop is not None and blocks <= stop.blocks else None

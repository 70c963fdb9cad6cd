"""What a run reports: each chunk's counts and win shares (``ChunkSummary``, sent back by workers and
logged for resuming) and the run's totals (``RunSummary``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.plan import RunPlan

#: a search strategy's telemetry (``Strategy.telemetry``), summed per strategy in this order
SEARCH_KEYS: tuple[str, ...] = ("decisions", "iterations", "seconds", "departures")


def add_telemetry(totals: list[float], telemetry: dict[str, float]) -> None:
    """Add one seat's ``telemetry`` to ``totals`` (``SEARCH_KEYS`` order; a key it lacks adds 0)."""
    for i, key in enumerate(SEARCH_KEYS):
        totals[i] += telemetry.get(key, 0.0)


@dataclass
class ChunkSummary:
    """What a chunk reports back: counts and win shares, never the records (unless gathered)."""

    chunk: int
    games: int = 0
    decisions: int = 0
    truncated: int = 0  # games cut short, errored ones included (like the games table's column)
    errored: int = 0
    turns: int = 0
    share_by_index: list[float] = field(default_factory=list)  # summed win share per strategy index
    share_by_seat: list[float] = field(default_factory=list)  # summed win share per seat
    seconds: float = 0.0
    first_error: str | None = None  # message of the chunk's first errored game
    parts: dict[str, bytes] | None = None  # the Parquet parts' bytes, when the caller writes them
    #: search telemetry by strategy index (as a string: JSON keys), in ``SEARCH_KEYS`` order
    search: dict[str, list[float]] = field(default_factory=dict)

    def add_search(self, index: int, telemetry: dict[str, float]) -> None:
        """Add one seat's search telemetry (``GameOutcome.search``) to its strategy's totals."""
        add_telemetry(self.search.setdefault(str(index), [0.0] * len(SEARCH_KEYS)), telemetry)

    def to_json(self) -> dict[str, Any]:
        """The summary without the parts, as a JSON object (the resume log's line)."""
        doc = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "parts"}
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ChunkSummary:
        known = {k: doc[k] for k in cls.__dataclass_fields__ if k in doc and k != "parts"}
        return cls(**known)


@dataclass
class RunSummary:
    """What ``run`` reports: totals, win shares and where the records are."""

    out: Path
    game: str
    players: int
    games: int
    games_requested: int
    decisions: int
    truncated: int
    turns: int
    wall_seconds: float
    games_per_second: float
    strategies: list[dict[str, Any]]  # strategy, seat_games, wins, win_rate
    seats: list[dict[str, Any]]  # seat, games, wins, win_rate
    manifest: dict[str, Any]
    errored: int = 0  # games whose strategy failed (counted in truncated too)
    first_error: str | None = None
    resumed_chunks: int = 0  # chunks taken from an earlier, interrupted attempt
    already_complete: bool = False  # --resume found OUT finished: nothing was played
    #: per search strategy: decisions searched, iterations, seconds, ms per decision, iterations/s
    search: list[dict[str, Any]] = field(default_factory=list)


def summarize(
    plan: RunPlan,
    games: int,
    requested: int,
    summaries: list[ChunkSummary],
    wall: float,
    out: Path,
    played: int | None = None,
) -> RunSummary:
    """Totals and win shares over ``summaries``; ``played``: games played by this attempt (for games/s)."""
    n = plan.players
    by_index = [sum(s.share_by_index[i] for s in summaries) for i in range(n)]
    by_seat = [sum(s.share_by_seat[i] for s in summaries) for i in range(n)]
    texts = [spec.text for spec in plan.specs]
    strategies = []
    for text in dict.fromkeys(texts):
        idx = [i for i, t in enumerate(texts) if t == text]
        wins = sum(by_index[i] for i in idx)
        seat_games = games * len(idx)
        strategies.append(
            {"strategy": text, "seat_games": seat_games, "wins": wins, "win_rate": wins / seat_games}
        )
    seat_rows = [
        {"seat": s, "games": games, "wins": by_seat[s], "win_rate": by_seat[s] / games} for s in range(n)
    ]
    decisions = sum(s.decisions for s in summaries)
    played = games if played is None else played
    search = search_rows(texts, summaries)
    return RunSummary(
        out=out,
        game=plan.game_name,
        players=n,
        games=games,
        games_requested=requested,
        decisions=decisions,
        truncated=sum(s.truncated for s in summaries),
        turns=sum(s.turns for s in summaries),
        wall_seconds=wall,
        games_per_second=played / wall if wall > 0 else float("inf"),
        strategies=strategies,
        seats=seat_rows,
        manifest={},
        errored=sum(s.errored for s in summaries),
        first_error=next((s.first_error for s in summaries if s.first_error), None),
        search=search,
    )


def search_rows(texts: list[str], summaries: list[ChunkSummary]) -> list[dict[str, Any]]:
    """One row per search strategy of the run: its decisions searched (those with a choice), iterations,
    seconds, ms per decision and iterations per second (timings: they vary from run to run), and the
    share of its decisions that departed from its prior's move (``left_prior``; a function of the
    seed).  A chunk logged before departures were counted adds none (its totals have three entries)."""
    rows = []
    for text in dict.fromkeys(texts):
        idx = {str(i) for i, t in enumerate(texts) if t == text}
        if not any(str(i) in s.search for s in summaries for i in idx):
            continue
        totals = [0.0] * len(SEARCH_KEYS)
        for s in summaries:
            for i in idx:
                for k, value in enumerate(s.search.get(i, [])):
                    totals[k] += value
        decisions, iterations, seconds, departures = totals
        rows.append({
            "strategy": text,
            "decisions": int(decisions),
            "iterations": int(iterations),
            "seconds": round(seconds, 3),
            "ms_per_decision": round(1000 * seconds / decisions, 3) if decisions else None,
            "iterations_per_second": round(iterations / seconds, 1) if seconds > 0 else None,
            "departures": int(departures),
            "left_prior": round(departures / decisions, 4) if decisions else None,
        })
    return rows

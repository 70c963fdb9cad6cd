"""What a run reports: each chunk's counts and win shares (``ChunkSummary``, sent back by workers and
logged for resuming) and the run's totals (``RunSummary``).

Win rates are those of the analysis (``analysis.questions.win_rates``, ``analysis.questions.balance``): the
mean win share over the *decided* games, truncated and errored games left out (and counted beside the rates),
a k-way tie giving each tied winner 1/k of a win (a draw, where every seat ties, 1/n to each).  Each rate has
the analysis' 95% interval (``analysis.stats.estimates.cluster_proportion``: Wilson's at n_eff = n / DEFF with
a t quantile on blocks - 1 df), clustered on the block of games that replay one deal (``base_game``
under ``--seats rotate``/``exhaustive``; every game its own block under ``random``/``fixed``).  To get
it without holding every block, each chunk sends its blocks' totals as integer moments (``BlockTally``),
the one or two blocks it may share with a neighbouring chunk apart, so the run's figures are exact sums
whatever the chunking.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sim.plan import RunPlan, resolve_game

#: a search strategy's telemetry (``Strategy.telemetry``), summed per strategy in this order
SEARCH_KEYS: tuple[str, ...] = ("decisions", "iterations", "seconds", "departures")


def add_telemetry(totals: list[float], telemetry: dict[str, float]) -> None:
    """Add one seat's ``telemetry`` to ``totals`` (``SEARCH_KEYS`` order; a key it lacks adds 0)."""
    for i, key in enumerate(SEARCH_KEYS):
        totals[i] += telemetry.get(key, 0.0)


#: how the summary's intervals are computed (the name ``analysis.stats.estimates.cluster_proportion`` gives
#: it)
INTERVAL_METHOD = "cluster Wilson (t, B-1 df)"
#: the share of truncated games above which the run ends with a note to raise --max-decisions
MOSTLY_TRUNCATED = 0.5


def share_unit(players: int) -> int:
    """The least common multiple of 1..players: every win share (1/k of a k-way tie) is a whole number
    of 1/unit, so block totals are exact integers."""
    return math.lcm(*range(1, max(1, players) + 1))


class BlockTally:
    """One chunk's decided games by block: draws, ties, and per group (each distinct strategy text, then
    each seat) the summed win shares ``y`` (in 1/``share_unit`` of a win) and decided seat-games ``m`` of
    every block (the games of one ``base_game``).

    The chunk's first and last blocks may hold games of a neighbouring chunk too: they are kept whole
    (``edges``, keyed by block); every block between them is folded into ``moments`` (per group: Σy, Σm,
    Σy², Σym, Σm² and the blocks with m > 0), all the ratio estimator's interval needs."""

    def __init__(self, texts: Sequence[str], players: int) -> None:
        distinct = list(dict.fromkeys(texts))
        self.group = [distinct.index(text) for text in texts]  # group of each strategy index
        self.strategies = len(distinct)
        self.players = players
        self.unit = share_unit(players)
        self.draws = 0
        self.ties = 0
        size = self.strategies + players
        self.moments = [[0] * 6 for _ in range(size)]
        self.edges: dict[str, list[list[int]]] = {}
        self._block: int | None = None
        self._first = True  # no block closed yet: the next one closed is the chunk's first
        self._seats = [self.group.count(g) for g in range(self.strategies)] + [1] * players  # per game
        self._y = [0] * size  # the open block's win shares, and its decided games
        self._decided = 0

    def add(self, block: int, order: Sequence[int], shares: Sequence[float], decided: bool) -> None:
        """One game of block ``block``, with strategy index ``order[seat]`` and win share ``shares[seat]``
        per seat (a game that is not ``decided`` is left out, but still ends the block before it)."""
        if block != self._block:
            self._close(last=False)
            self._block = block
        if not decided:
            return
        self._decided += 1  # every group's m grows by its seats in the game (``_seats``)
        winners = [seat for seat, share in enumerate(shares) if share > 0]
        if not winners or len(winners) == self.players > 1:
            self.draws += 1
        elif len(winners) > 1:
            self.ties += 1
        if winners:
            units = self.unit // len(winners)
            for seat in winners:
                self._y[self.group[order[seat]]] += units
                self._y[self.strategies + seat] += units

    def _close(self, last: bool) -> None:
        """Put the block being added to into ``edges`` (the chunk's first or last) or ``moments``."""
        if self._block is None:
            return
        if self._decided:
            totals = [[y, self._decided * seats] for y, seats in zip(self._y, self._seats, strict=True)]
            if last or self._first:
                self._first = False
                self.edges[str(self._block)] = totals
            else:
                for row, (y, m) in zip(self.moments, totals, strict=True):
                    add_block(row, y, m)
        self._y = [0] * len(self._y)
        self._decided = 0

    def finish(self) -> dict[str, Any]:
        """The tally as JSON (``ChunkSummary.tally``), the last block closed."""
        self._close(last=True)
        self._block = None
        return {"draws": self.draws, "ties": self.ties, "moments": self.moments, "edges": self.edges}


def add_block(row: list[int], y: int, m: int) -> None:
    """Fold one block's totals ``y`` and ``m`` into a group's moments (Σy, Σm, Σy², Σym, Σm², blocks)."""
    if m:
        row[0] += y
        row[1] += m
        row[2] += y * y
        row[3] += y * m
        row[4] += m * m
        row[5] += 1


def cluster_interval(moments: Sequence[int], unit: int) -> tuple[float, float] | None:
    """The 95% interval of a win rate from its groups' block moments (``BlockTally``), as
    ``analysis.stats.estimates.cluster_proportion`` computes it from the blocks themselves: the ratio
    estimator's block-total SE, DEFF = SE² / (p(1 - p)/n), Wilson's interval at n_eff = n / DEFF with the
    t quantile on B - 1 df; where no block differs from p, DEFF = B/n; an all-or-none rate takes n_eff = B;
    below two blocks [0, 1].  None without a decided game."""
    y, n, yy, ym, mm, blocks = moments
    if n == 0:
        return None
    p = Fraction(y, unit * n)
    if blocks < 2:
        return 0.0, 1.0
    resid = Fraction(yy, unit * unit) - 2 * p * Fraction(ym, unit) + p * p * mm  # Σ (y_b - p m_b)², exact
    se2 = float(Fraction(blocks, blocks - 1) * resid / (n * n))
    naive = float(p * (1 - p)) / n
    if p <= 0 or p >= 1:
        n_eff = float(blocks)
    elif se2 <= 1e-12 * naive:
        n_eff = n * n / blocks
    else:
        n_eff = n * naive / se2
    from scipy.special import stdtrit  # scipy.stats.t.ppf's own function, without importing scipy.stats

    return wilson(float(p), n_eff, float(stdtrit(blocks - 1, 0.975)))


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval of rate ``p`` over ``n`` (``analysis.stats.stats.wilson_interval``)."""
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


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
    #: draws, ties and block totals of the decided games (``BlockTally.finish``); None in a chunk logged
    #: by a version that did not count them
    tally: dict[str, Any] | None = None

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
    #: strategy, seat_games (all), decided (seat-games of decided games), wins, win_rate (wins / decided;
    #: None without a decided game), ci_low, ci_high (95%; None where not known), blocks
    strategies: list[dict[str, Any]]
    seats: list[dict[str, Any]]  # seat, games, decided, wins, win_rate, ci_low, ci_high, blocks
    manifest: dict[str, Any]
    errored: int = 0  # games whose strategy failed (counted in truncated too)
    first_error: str | None = None
    resumed_chunks: int = 0  # chunks taken from an earlier, interrupted attempt
    already_complete: bool = False  # --resume found OUT finished: nothing was played
    #: per search strategy: decisions searched, iterations, seconds, ms per decision, iterations/s
    search: list[dict[str, Any]] = field(default_factory=list)
    #: decided games with every seat a winner (or none), and with several but not every seat a winner
    #: (None where a chunk logged by an earlier version did not count them)
    draws: int | None = None
    ties: int | None = None
    max_decisions: int | None = None  # the run's cap, and the game's own default cap
    default_max_decisions: int | None = None
    seats_mode: str = "rotate"
    interval: str = INTERVAL_METHOD

    @property
    def decided(self) -> int:
        """Games that ended with a result: the win rates' games (neither truncated nor errored)."""
        return self.games - self.truncated

    @property
    def capped(self) -> int:
        """Games cut off at ``max_decisions`` (truncated, not errored)."""
        return self.truncated - self.errored

    def closing_notes(self) -> list[str]:
        """What the end of the run says besides the tables: that most games were cut off (raise
        --max-decisions), or that none finished."""
        if self.games == 0 or self.capped <= MOSTLY_TRUNCATED * self.games:
            return []
        default = self.default_max_decisions
        hint = f"; {self.game}'s default is {default:,}" if default and default != self.max_decisions else ""
        cap = "" if self.max_decisions is None else f" at --max-decisions {self.max_decisions:,}"
        finished = "no game finished" if self.decided == 0 else f"only {self.decided:,} finished"
        return [
            f"{self.capped:,} of {self.games:,} games ({self.capped / self.games:.0%}) were cut off{cap}"
            f" before they ended: {finished}, and the win rates leave the cut-off games out"
            f" (raise --max-decisions{hint})"
        ]


def summarize(
    plan: RunPlan,
    games: int,
    requested: int,
    summaries: list[ChunkSummary],
    wall: float,
    out: Path,
    played: int | None = None,
) -> RunSummary:
    """Totals and win shares over ``summaries``; ``played``: games played by this attempt (for games/s).
    Win rates and their intervals are over the decided games (see the module's docstring)."""
    n = plan.players
    texts = [spec.text for spec in plan.specs]
    truncated = sum(s.truncated for s in summaries)
    decided = games - truncated
    moments = merged_moments(summaries, len(dict.fromkeys(texts)) + n)
    unit = share_unit(n)
    by_index = [sum(s.share_by_index[i] for s in summaries) for i in range(n)]
    by_seat = [sum(s.share_by_seat[i] for s in summaries) for i in range(n)]
    strategies = []
    for group, text in enumerate(dict.fromkeys(texts)):
        idx = [i for i, t in enumerate(texts) if t == text]
        row = _rate_row(sum(by_index[i] for i in idx), decided * len(idx), moments, group, unit)
        strategies.append({"strategy": text, "seat_games": games * len(idx), **row})
    first_seat = len(strategies)
    seat_rows = [
        {"seat": s, "games": games, **_rate_row(by_seat[s], decided, moments, first_seat + s, unit)}
        for s in range(n)
    ]
    played = games if played is None else played
    tallies = [s.tally for s in summaries]
    known = all(t is not None for t in tallies)
    return RunSummary(
        out=out,
        game=plan.game_name,
        players=n,
        games=games,
        games_requested=requested,
        decisions=sum(s.decisions for s in summaries),
        truncated=truncated,
        turns=sum(s.turns for s in summaries),
        wall_seconds=wall,
        games_per_second=played / wall if wall > 0 else float("inf"),
        strategies=strategies,
        seats=seat_rows,
        manifest={},
        errored=sum(s.errored for s in summaries),
        first_error=next((s.first_error for s in summaries if s.first_error), None),
        search=search_rows(texts, summaries),
        draws=sum(t["draws"] for t in tallies if t is not None) if known else None,
        ties=sum(t["ties"] for t in tallies if t is not None) if known else None,
        max_decisions=plan.max_decisions,
        default_max_decisions=getattr(resolve_game(plan.game_ref), "default_max_decisions", None),
        seats_mode=plan.seats,
    )


def _rate_row(wins: float, decided: int, moments: list[list[int]] | None, group: int, unit: int
              ) -> dict[str, Any]:
    """decided, wins, win_rate (None without a decided game), ci_low, ci_high and blocks of one group."""
    interval = None if moments is None else cluster_interval(moments[group], unit)
    return {
        "decided": decided,
        "wins": wins,
        "win_rate": wins / decided if decided else None,
        "ci_low": None if interval is None else interval[0],
        "ci_high": None if interval is None else interval[1],
        "blocks": None if moments is None else moments[group][5],
    }


def merged_moments(summaries: Sequence[ChunkSummary], groups: int) -> list[list[int]] | None:
    """Each group's block moments over the chunks' tallies, the blocks at chunk edges merged first (a
    block two chunks share counts once); None where a chunk has no tally."""
    moments = [[0] * 6 for _ in range(groups)]
    edges: dict[str, list[list[int]]] = {}
    for summary in summaries:
        if summary.tally is None:
            return None
        for row, more in zip(moments, summary.tally["moments"], strict=True):
            for k, value in enumerate(more):
                row[k] += value
        for block, pairs in summary.tally["edges"].items():
            merged = edges.setdefault(block, [[0, 0] for _ in range(groups)])
            for pair, (y, m) in zip(merged, pairs, strict=True):
                pair[0] += y
                pair[1] += m
    for pairs in edges.values():
        for row, (y, m) in zip(moments, pairs, strict=True):
            add_block(row, y, m)
    return moments


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

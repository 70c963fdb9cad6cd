"""Objectives: what a tune minimises, read off the games of the runs it needs (lower is better).

Every term needs one or more runs, each a table of strategies (one text per seat); the games of a run
are summarised per game as whole numbers (``Stats``: win shares scaled by ``scale(players)`` so that
sums are exact and do not depend on the order games finish in):

* ``even_seats``: for each strategy population (a table, self-play when one strategy is given), the
  largest gap of a seat's win share from 1/n (``measure = "gap"``) or the chi-square statistic of the
  seats' wins against equal chances divided by the games (``"chi2"``: per game, so rungs of different
  lengths compare); the populations combine by their ``max`` (the worst, default) or ``mean``;
* ``game_length``: ``|mean decisions per game - target| / target``;
* ``win_matrix``: the root mean square distance between the win rates of strategy i against strategy j
  (two-strategy tables, seats alternating and rotated) and a ``target`` matrix, as in the Tabletop Games
  balancing competition (the diagonal is ignored);
* ``win_share``: the tuned player (``params.PLAYER``) in one seat against a ``field`` strategy in the
  others, the seats rotated so that it sits in every seat equally; the value is ``1/n - share``, the gap
  of its win share below parity (negative: it wins more than its seat's share), over the completed games;
* several ``[[objective]]`` tables: their ``weight``-ed sum.

``score`` works on arrays with a leading axis of resamples, so the confirmation's bootstrap uses it too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

KINDS = ("even_seats", "game_length", "win_matrix", "win_share")
MEASURES = ("gap", "chi2")
COMBINES = ("max", "mean")


def scale(players: int) -> int:
    """A whole number every tie share 1/k (k <= players) divides: lcm(1..players)."""
    return math.lcm(*range(1, players + 1))


def table_for(strategies: list[str], players: int) -> tuple[str, ...]:
    """One strategy per seat: a single strategy in every seat, else the list (repeated) cut to ``players``."""
    return tuple(strategies[i % len(strategies)] for i in range(players))


def distinct(run: tuple[str, ...]) -> tuple[str, ...]:
    """The run's strategies, each once, in seat order (the columns of its per-strategy wins)."""
    return tuple(dict.fromkeys(run))


@dataclass(frozen=True)
class Stats:
    """Sums over games (leading axis: resamples): ``games``, ``seat`` wins and ``strategy`` wins (scaled),
    ``decisions`` and ``failed`` (games truncated or errored: no winner).

    Win shares are over the ``completed`` games only: a truncated or errored game is excluded from the
    rates (and counted), as everywhere in Skald, not scored as a game nobody won; the game length is over
    every game (a truncated one at the decisions it reached)."""

    games: np.ndarray
    seat: np.ndarray
    strategy: np.ndarray
    decisions: np.ndarray
    unit: int  # the scale of the wins
    failed: np.ndarray | None = None

    @property
    def completed(self) -> np.ndarray:
        """Games with a winner: the denominator of the win shares."""
        return self.games if self.failed is None else self.games - self.failed

    @staticmethod
    def of(rows: np.ndarray, n: int, k: int, unit: int, weights: np.ndarray | None = None) -> Stats:
        """From per-game rows ``[seat x n, strategy x k, decisions, failed]`` (weights: resample counts)."""
        w = np.ones((1, len(rows))) if weights is None else weights
        sums = w @ rows.astype(float) if len(rows) else np.zeros((w.shape[0], n + k + 2))
        return Stats(w.sum(axis=1), sums[:, :n], sums[:, n : n + k], sums[:, n + k], unit, sums[:, n + k + 1])

    @staticmethod
    def of_deals(
        rows: np.ndarray, n: int, k: int, unit: int, block: int, weights: np.ndarray | None = None
    ) -> Stats:
        """From per-game rows summed per deal (``block`` consecutive games: a seat block replays one deal),
        ``weights`` counting each deal (resamples of whole deals: a bootstrap clustered on deals)."""
        rows = np.asarray(rows, dtype=float).reshape(-1, n + k + 2)
        deals = len(rows) // block
        ext = np.hstack([rows[: deals * block], np.ones((deals * block, 1))])
        per_deal = ext.reshape(deals, block, n + k + 3).sum(axis=1)
        w = np.ones((1, deals)) if weights is None else weights
        sums = w @ per_deal if deals else np.zeros((w.shape[0], n + k + 3))
        return Stats(sums[:, -1], sums[:, :n], sums[:, n : n + k], sums[:, n + k], unit, sums[:, n + k + 1])

    @staticmethod
    def totals(total: list[int], games: int, n: int, k: int, unit: int) -> Stats:
        """From the column sums of the first ``games`` rows (``State.totals``)."""
        row = np.asarray([total], dtype=float)
        return Stats(np.asarray([float(games)]), row[:, :n], row[:, n : n + k], row[:, n + k], unit,
                     row[:, n + k + 1])


@dataclass(frozen=True)
class Term:
    """One weighted term of the objective and the runs it reads."""

    kind: str
    weight: float
    runs: tuple[tuple[str, ...], ...]
    measure: str = "gap"
    combine: str = "max"
    target: Any = None
    strategies: tuple[str, ...] = ()

    def value(self, stats: dict[tuple[str, ...], Stats]) -> np.ndarray:
        per_run = [stats[run] for run in self.runs]
        if self.kind == "even_seats":
            parts = np.stack([_seat_term(s, self.measure) for s in per_run])
            return parts.max(axis=0) if self.combine == "max" else parts.mean(axis=0)
        if self.kind == "game_length":
            s = per_run[0]
            return np.abs(s.decisions / np.maximum(s.games, 1) - self.target) / self.target
        if self.kind == "win_share":
            s = per_run[0]
            return 1.0 / s.seat.shape[1] - player_share(s)
        return _matrix_term(self, per_run)


def player_share(s: Stats) -> np.ndarray:
    """The win share of the run's first strategy (the tuned player of a ``win_share`` table) over the
    completed games (NaN where none completed)."""
    done = s.completed
    return np.where(done > 0, s.strategy[:, 0] / (np.maximum(done, 1) * s.unit), np.nan)


def share_table(player: str, field: str, players: int) -> tuple[str, ...]:
    """The table of a ``win_share`` term: the player in the first seat, the field in the others."""
    return (player,) + (field,) * (players - 1)


def _seat_term(s: Stats, measure: str) -> np.ndarray:
    """The seat measure over the completed games (NaN where none completed: nothing to measure)."""
    done = s.completed
    games = np.maximum(done, 1)[:, None]
    n = s.seat.shape[1]
    if measure == "gap":
        value = np.abs(s.seat / (s.unit * games) - 1.0 / n).max(axis=1)
    else:
        wins = s.seat / s.unit
        expected = wins.sum(axis=1, keepdims=True) / n
        with np.errstate(divide="ignore", invalid="ignore"):
            chi2 = np.where(expected > 0, ((wins - expected) ** 2 / np.where(expected > 0, expected, 1)), 0.0)
        value = chi2.sum(axis=1) / games[:, 0]
    return np.where(done > 0, value, np.nan)


def pair_runs(strategies: tuple[str, ...], players: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """The two-strategy tables of a win matrix: ``(i, j, table)`` for i < j, seats alternating i, j."""
    return [
        (i, j, table_for([strategies[i], strategies[j]], players))
        for i in range(len(strategies))
        for j in range(i + 1, len(strategies))
    ]


def _matrix_term(term: Term, per_run: list[Stats]) -> np.ndarray:
    target = np.asarray(term.target, dtype=float)
    errors = []
    players = len(term.runs[0])
    for (i, j, _), s in zip(pair_runs(term.strategies, players), per_run, strict=True):
        done = s.completed
        games = np.maximum(done, 1) * s.unit
        share_i = np.where(done > 0, s.strategy[:, 0] / games, np.nan)
        share_j = np.where(done > 0, s.strategy[:, 1] / games, np.nan)
        errors.append((share_i - target[i, j]) ** 2)
        errors.append((share_j - target[j, i]) ** 2)
    return np.sqrt(np.mean(np.stack(errors), axis=0))


def total(terms: list[Term], stats: dict[tuple[str, ...], Stats]) -> np.ndarray:
    """The weighted sum of the terms (one value per resample)."""
    return np.sum([t.weight * t.value(stats) for t in terms], axis=0)


def runs_of(terms: list[Term]) -> list[tuple[str, ...]]:
    """The distinct runs the objective needs, in order of first use."""
    return list(dict.fromkeys(run for t in terms for run in t.runs))

"""What a search strategy is given in place of the true state: a sampler of determinized states and the
game's forward model (Cowling, Powley and Whitehouse 2012, information-set MCTS).

A strategy that declares ``searches = True`` is handed a ``SearchContext`` once per game (``attach``),
beside the views it gets at every decision.  The context never exposes the true state: ``sample(rng)``
returns ``game.determinize(state, seat, rng)``, a full state in which everything hidden from ``seat``
is resampled consistently with what ``seat`` has seen, and which depends on nothing else (the
conformance suite checks that two states differing only in what ``seat`` cannot see give the same
determinization for the same generator).  What the strategy does with a sample is its own: the sample
is a fresh state, so playing it on changes nothing in the game.

``rewards`` turns a state into a reward vector in [0, 1], one component per seat: at the end of the
game from its result, before it (a truncated playout) from ``game.evaluate`` where the game declares
one, else from the current scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.errors import SkaldError
from sim.game import Game, capability, has_capability, ranks_from_scores

#: what a reward component measures: the win share (1/k for each of k tied winners), the rank utility
#: (1 for the best, 0 for the worst, ties sharing) or the score normalised between the seats' lowest
#: and highest
REWARDS = ("win", "rank", "score")


class SearchContext:
    """The determinized samples and forward model one seat's search may use (never the true state)."""

    __slots__ = ("game", "seat", "_state", "_determinize")

    def __init__(self, game: Game, seat: int, state: Any) -> None:
        determinize = capability(game, "determinize")
        if determinize is None:
            raise SkaldError(
                f"{game.name} cannot be searched: it does not declare determinize(state, seat, rng)"
            )
        self.game = game
        self.seat = seat
        self._state = state  # the live state, read only through determinize
        self._determinize = determinize

    def sample(self, rng: np.random.Generator) -> Any:
        """A fresh full state consistent with everything this seat has seen, its hidden parts drawn from
        ``rng``: a function of the seat's information and ``rng`` only."""
        return self._determinize(self._state, self.seat, rng)


def searchable(game: Game) -> bool:
    """Whether ``game`` declares ``determinize``, which search strategies need (``sim.game.has_capability``
    answers it)."""
    return has_capability(game, "determinize")


def rank_utility(scores: Sequence[float]) -> list[float]:
    """1 for the best score, 0 for the worst, evenly between; tied seats share the mean of the places
    they cover (so the components of a tie sum like distinct places)."""
    n = len(scores)
    if n < 2:
        return [1.0] * n
    ranks = ranks_from_scores(scores)
    utility = []
    for rank in ranks:
        tied = ranks.count(rank)
        places = range(rank - 1, rank - 1 + tied)  # 0 = best
        utility.append(sum(1.0 - p / (n - 1) for p in places) / tied)
    return utility


def normalised(scores: Sequence[float]) -> list[float]:
    """Each score between the seats' lowest (0) and highest (1); 0.5 for all when they are equal."""
    low, high = min(scores), max(scores)
    if high == low:
        return [0.5] * len(scores)
    return [(s - low) / (high - low) for s in scores]


def win_shares(winners: Sequence[int], n: int) -> list[float]:
    """1/k for each of ``k`` winners, 0 for the others."""
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)] if winners else [0.0] * n


def rewards(game: Game, state: Any, n: int, kind: str) -> list[float]:
    """The reward vector of ``state`` for the reward ``kind`` (one of ``REWARDS``)."""
    if game.is_terminal(state):
        result = game.result(state)
        if kind == "win":
            return win_shares(result.winners, n)
        return rank_utility(result.scores) if kind == "rank" else normalised(result.scores)
    evaluate = capability(game, "evaluate")
    if evaluate is not None:
        return [float(evaluate(state, seat)) for seat in range(n)]
    scores = game.scores(state)
    return normalised(scores) if kind == "score" else rank_utility(scores)


def option_key(option: Any) -> Any:
    """A hashable key naming one option (a numpy row by its bytes, anything else as it is)."""
    if isinstance(option, np.ndarray):
        return option.tobytes()
    try:
        hash(option)
    except TypeError:
        return repr(option)
    return option

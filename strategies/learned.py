"""``learned``: a one-ply player that judges the state each of its options leads to with the game's fitted
judge (``strategies.value_model``), for every game with a packaged model.

At a decision with a choice it takes the game's best scripted strategy's favourite options (its choice,
then its choice among the rest, ..., ``width`` of them; ``width=0``: every option, the scripted choice
first), draws ``samples`` states from its own view (``SearchContext.sample``: the game's ``determinize``,
never the true state), and in each applies every candidate in turn to a copy of the sample, beside the
choices of the seats that move at the same time (the best scripted strategy's, each from that seat's view
of the sample, as ``ismcts`` plays the other seats).  While the seat is still to move after its option (the
payment of a build, a re-roll, the placement after the start of a turn) the best scripted strategy plays on
for it, at most ``follow`` decision points, so that every candidate is judged where its turn's effect
shows.  Every candidate sees the same samples and the same chance (common random numbers).  The state
reached is worth the judge's chance to finish first (``reward=win``) or expected rank utility
(``reward=rank``), or its result where the game is over.  It plays the candidate worth most on average
unless that beats the scripted choice by no more than ``margin`` (then the scripted choice); on a tie the
earlier in the scripted ranking.

The defaults (2 samples, 4 candidates, ``follow=20``, ``margin=0.02``, ``reward=win``) were chosen on
seat-rotated matches against the best scripted strategy (docs/search.md has the figures): without the
margin the judge's preferences where the scripted strategy sees costs it cannot (Greenland's energy spent
on breeding) lose games, and without ``follow`` a build is judged before it is paid for.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.errors import IllegalChoice
from sim.search import SearchContext, option_key, rewards
from sim.specs import best_strategy, parse_spec
from sim.strategy import Strategy
from strategies import value_model


class LearnedStrategy(Strategy):
    """Looks one move ahead with a fitted judge: it takes the best scripted strategy's four favourite moves,
    plays each on a couple of states drawn from what it has seen (never the hidden truth), and plays the one
    after which the judge, a pairwise logistic model of who finishes ahead fitted on the scripted strategy's
    self-play, gives it the best chance to win, keeping the scripted move unless another is clearly better.
    It plays every game with a packaged judge."""

    name = "learned"
    games = value_model.packaged_games()
    searches = True
    params = {
        "samples": (int, 2),  # states drawn from the view per decision, each candidate judged on all of them
        "width": (int, 4),  # candidates: the best scripted strategy's first `width` choices (0: every option)
        "reward": (str, "win"),  # a state's worth: win (chance to finish first) or rank (rank utility)
        "margin": (float, 0.02),  # play the scripted choice unless another is judged better by more than this
        "follow": (int, 20),  # own decisions after the option played on by the scripted strategy (0: none)
        "model": (str, ""),  # a model file (JSON) in place of the game's packaged one
    }
    samples: int
    width: int
    reward: str
    margin: float
    follow: int
    model: str

    def __init__(self, seat: int, rng: np.random.Generator, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        if self.samples < 1:
            raise ValueError(f"samples must be at least 1, not {self.samples}")
        if self.width < 0:
            raise ValueError(f"width must be at least 0, not {self.width}")
        if self.margin < 0:
            raise ValueError(f"margin must be at least 0, not {self.margin}")
        if self.follow < 0:
            raise ValueError(f"follow must be at least 0, not {self.follow}")
        if self.reward not in value_model.KINDS:
            raise ValueError(f"reward must be one of {', '.join(value_model.KINDS)}, not {self.reward!r}")
        self.context: SearchContext | None = None
        self._judge: value_model.ValueModel | None = None
        self._spec: Any = None
        self._own: Strategy | None = None  # the scripted player of this seat, kept for the game (its memory)
        self.decisions_judged = 0
        self.states_judged = 0
        self.seconds_spent = 0.0
        self.departures = 0

    def check_game(self, game: str) -> None:
        """Refuse a game without a judge (no ``value`` module, no packaged model or no ``model`` file) or
        without a scripted strategy to rank the options by."""
        if value_model.load(game, self.model) is None:
            where = self.model or str(value_model.path_of(game))
            raise ValueError(f"no fitted judge of {game} at {where} (tools/fit_value.py makes one)")
        if best_strategy(game) is None:
            raise ValueError(f"{game} has no scripted strategy to rank the options by")

    def attach(self, context: SearchContext) -> None:
        """Receive the game's sampler and forward model (the runner calls this once per game)."""
        self.context = context

    def telemetry(self) -> dict[str, float]:
        """Decisions judged (those with more than one option), sampled states judged (as iterations),
        seconds spent and departures: the decisions whose move is not the scripted strategy's choice."""
        return {
            "decisions": float(self.decisions_judged),
            "iterations": float(self.states_judged),
            "seconds": self.seconds_spent,
            "departures": float(self.departures),
        }

    # ----------------------------------------------------------------- the decision

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        if len(options) == 1:
            return options[0]
        if self.context is None:
            raise RuntimeError("learned was not given a search context (the runner attaches one)")
        start = time.perf_counter()
        game = self.context.game
        if self._judge is None:
            self._judge = value_model.load(game.name, self.model)
            if self._judge is None:
                raise RuntimeError(f"no fitted judge of {game.name}")
            self._spec = parse_spec(best_strategy(game.name) or "random", game.name)
            self._own = self._spec.make(self.seat, np.random.default_rng(int(self.rng.integers(0, 2**63))))
        ranked = self._ranked(view, options)
        best = 0
        if len(ranked) > 1:
            best = pick(self._judged(game, ranked), self.margin)
            self.decisions_judged += 1
            self.departures += best != 0
        self.seconds_spent += time.perf_counter() - start
        return ranked[best]

    def _ranked(self, view: Any, options: Sequence[Any]) -> list[Any]:
        """The candidates: the scripted player's choice, then its choice among the rest, up to ``width``
        (with ``width=0`` the choice and then every other option in order).  A scripted strategy need not
        cope with part of its options: where it fails, or picks what it picked before, the ranking stops
        there.  Its choice is played as it gives it, even where it is a legal option written otherwise
        than in ``options`` (an equal division of identical cards, say)."""
        assert self._own is not None
        player, seen = self._own, view if self._own.reads_view else None
        first = player.choose(seen, options)
        order, keys = [first], {option_key(first)}
        if self.width == 0:
            return order + [o for o in options if option_key(o) not in keys]
        left = options
        while len(order) < min(self.width, len(options)):
            keep = [i for i, o in enumerate(left) if option_key(o) not in keys]
            if not keep:
                break
            left = left[keep] if isinstance(left, np.ndarray) else [left[i] for i in keep]
            try:
                choice = player.choose(seen, left)
            except Exception:  # a scripted strategy need not cope with part of its options
                break
            key = option_key(choice)
            if key in keys:
                break
            order.append(choice)
            keys.add(key)
        return order

    def _judged(self, game: Any, candidates: list[Any]) -> list[float]:
        """Each candidate's mean worth over ``samples`` states drawn from the view (-inf for one that no
        sample allows)."""
        assert self.context is not None and self._judge is not None
        total = [0.0] * len(candidates)
        counted = [0] * len(candidates)
        for _ in range(self.samples):
            rng = np.random.default_rng(int(self.rng.integers(0, 2**63)))
            sample = self.context.sample(rng)
            movers = list(game.to_move(sample))
            others = self._others(game, sample, movers, rng)
            then = int(rng.integers(0, 2**63))  # every candidate's play-on sees the same chance
            n = len(game.scores(sample))
            for k, option in enumerate(candidates):
                state = game.copy(sample)
                try:
                    game.apply(state, {s: option if s == self.seat else others[s] for s in movers})
                except IllegalChoice:
                    continue
                if self.follow:
                    self._play_on(game, state, n, np.random.default_rng(then))
                total[k] += self._worth(game, state, n)
                counted[k] += 1
                self.states_judged += 1
        return [t / c if c else -np.inf for t, c in zip(total, counted, strict=True)]

    def _play_on(self, game: Any, state: Any, n: int, rng: np.random.Generator) -> None:
        """Play ``state`` on while this seat is to move (the rest of its turn: a payment, a re-roll, the
        placement after the start of a turn), at most ``follow`` decision points, every mover by the
        best scripted strategy from its view of ``state`` (its players made afresh from ``rng``)."""
        players: dict[int, Strategy] = {}
        for _ in range(self.follow):
            if game.is_terminal(state):
                return
            movers = list(game.to_move(state))
            if self.seat not in movers:
                return
            choices = {}
            for seat in movers:
                player = players.get(seat)
                if player is None:
                    player = players[seat] = self._spec.make(
                        seat, np.random.default_rng(int(rng.integers(0, 2**63)))
                    )
                seen = game.view(state, seat) if player.reads_view else None
                choices[seat] = player.choose(seen, game.legal_options(state, seat))
            game.apply(state, choices)

    def _others(self, game: Any, sample: Any, movers: list[int], rng: np.random.Generator) -> dict[int, Any]:
        """The choices of the other seats that move now: the best scripted strategy's, each from that seat's
        view of ``sample`` (its players made afresh from ``rng``)."""
        out = {}
        for seat in movers:
            if seat == self.seat:
                continue
            player = self._spec.make(seat, np.random.default_rng(int(rng.integers(0, 2**63))))
            seen = game.view(sample, seat) if player.reads_view else None
            out[seat] = player.choose(seen, game.legal_options(sample, seat))
        return out

    def _worth(self, game: Any, state: Any, n: int) -> float:
        """This seat's worth of ``state``: its result where the game is over, else the judge's."""
        assert self._judge is not None
        if game.is_terminal(state):
            return rewards(game, state, n, self.reward)[self.seat]
        return value_model.utilities_of(self._judge.strengths(state, n), self.reward)[self.seat]


def pick(worth: Sequence[float], margin: float) -> int:
    """The index played: the first (the scripted choice) unless another's worth beats it by more than
    ``margin``; then the best, the earliest on a tie."""
    best = max(range(len(worth)), key=lambda k: (worth[k], -k))
    return best if worth[best] > worth[0] + margin else 0

"""Scripted Mainland strategies: ``greedy``, ``builder`` and ``raider``.

All of them see only their seat's view and use the look-ahead in
``sim.games.mainland.evaluate`` (one ply: every legal placement of every card in hand).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.mainland.evaluate import Evaluation, best_gains, evaluate, playable_cards
from sim.games.mainland.items import (
    CASTLE,
    GOLD,
    RIDER,
    TOWER,
    VILLAGE,
    WARRIOR,
    WHEAT,
    WOOD,
)
from sim.games.mainland.lookahead import ties
from sim.games.mainland.state import GATHER, KEEP, PASS, REPLACE, START
from sim.games.mainland.view import MainlandView
from sim.strategy import Strategy

REQUIREMENT_ITEMS = np.array([WHEAT, WOOD, GOLD, VILLAGE, TOWER, WARRIOR, RIDER])
#: how far up the chain village -> tower -> warrior -> rider -> castle an item stands
CHAIN_LEVEL = {VILLAGE: 1, TOWER: 2, WARRIOR: 3, RIDER: 4, CASTLE: 5}


class OnePlyStrategy(Strategy):
    """Shared turn logic; subclasses rate placements with ``value``.

    Start of turn: replace a card that cannot be placed anywhere (step 1, line 89); with
    no playable card and an empty deck, gather the clan (line 143) while at least two
    tokens remain (with one it is useless, line 241); otherwise keep.
    Placement: the best ``value``; ties go to the option that leaves opponents lowest, then
    to the strategy's own random draw.  Pass only when nothing can be placed.
    """

    games = ("mainland",)

    def value(self, view: MainlandView, ev: Evaluation) -> np.ndarray:
        raise NotImplementedError

    def choose(self, view: MainlandView, options: Any) -> Any:  # options: an (n, 5) integer array
        if view.phase == START:
            return self.start_of_turn(view, options)
        ev = evaluate(view, options)
        if len(ev.rows) == 0:
            return options[np.flatnonzero(options[:, 0] == PASS)[0]]
        # the best values, then the lowest opponents' totals (whole numbers: sums in any order are exact)
        best = ties(self.value(view, ev), ev.scores_after, view.seat)
        return options[ev.rows[best[int(self.rng.integers(len(best)))]]]

    def start_of_turn(self, view: MainlandView, options: np.ndarray) -> Any:
        """Keep, replace the first dead card, or gather (the class docstring); on plain lists, the start
        options being a handful of rows (numpy calls on arrays this small cost more than the work)."""
        rows = options[:, :2].tolist()  # (kind, hand_index)
        kinds = [kind for kind, _ in rows]
        playable = playable_cards(view).tolist()
        if all(playable):
            return options[kinds.index(KEEP)]
        if REPLACE in kinds:  # the replace rows cover the whole hand (rules._start_options)
            return options[next(i for i, (kind, index) in enumerate(rows) if kind == REPLACE
                                and not playable[index])]
        if not any(playable) and view.tokens[view.seat] >= 2 and view.discards[view.seat]:
            return options[kinds.index(GATHER)]
        return options[kinds.index(KEEP)]


class GreedyStrategy(OnePlyStrategy):
    """Looks one card ahead: it lays the card, turned and placed where its own score rises most at once,
    and between equal placements the one that leaves its opponents lowest, then one at random. At the start
    of its turn it replaces a card that fits nowhere, gathers its clan when no card fits and it still has at
    least two tokens and a discard pile, and otherwise keeps its hand; it passes only when nothing fits."""

    name = "greedy"

    def choose(self, view: MainlandView, options: Any) -> Any:
        """``OnePlyStrategy.choose`` with the value and the ties worked out in compiled code
        (``evaluate.best_gains``): the same candidates, and the same draw among them (a generator asked
        for one of one draws nothing, so a single candidate is taken without asking)."""
        if view.phase == START or type(self).value is not GreedyStrategy.value:
            return super().choose(view, options)
        best = best_gains(view, options)
        if not best:
            return options[np.flatnonzero(options[:, 0] == PASS)[0]]
        return options[best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]]

    def value(self, view: MainlandView, ev: Evaluation) -> np.ndarray:
        return ev.scores_after[:, view.seat] - ev.scores_now[view.seat]  # ev.gain[:, seat], one column


class BuilderStrategy(OnePlyStrategy):
    """Plays like greedy but climbs the chain village, tower, warrior, rider, castle and guards what its
    items need: a placement is worth its own gain, plus climb times the chain level of the advanced items it
    lays, less protect times the number of its own requirement items it covers.

    value = own gain + climb x (chain level of the advanced items laid)
            - protect x (own requirement items covered).
    """

    name = "builder"
    params = {"climb": (float, 1.0), "protect": (float, 1.5)}
    climb: float
    protect: float

    def value(self, view: MainlandView, ev: Evaluation) -> np.ndarray:
        climb = sum(level * ev.placed[:, item] for item, level in CHAIN_LEVEL.items())
        guarded = ev.covered_own[:, REQUIREMENT_ITEMS].sum(axis=1)
        return ev.gain[:, view.seat] + self.climb * climb - self.protect * guarded


class RaiderStrategy(OnePlyStrategy):
    """Plays like greedy but attacks: a placement is worth its own gain plus aggression times both the
    score its opponents lose and the number of their requirement items it covers, so it buries what their
    items need and breaks up their Mainland.

    value = own gain + aggression x (opponents' total score lost)
            + aggression x (opponents' requirement items covered).
    """

    name = "raider"
    params = {"aggression": (float, 1.0)}
    aggression: float

    def value(self, view: MainlandView, ev: Evaluation) -> np.ndarray:
        gain = ev.gain
        harm = -np.delete(gain, view.seat, axis=1).sum(axis=1)
        raided = ev.covered_other[:, REQUIREMENT_ITEMS].sum(axis=1)
        return gain[:, view.seat] + self.aggression * (harm + raided)

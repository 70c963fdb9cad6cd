"""Look-ahead helpers for Mainland strategies: they work on a seat's view, never the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.games.mainland import kernels
from sim.games.mainland.lookahead import evaluate_options, greedy_candidates
from sim.games.mainland.rules import COVER, REQ_PAIRS
from sim.games.mainland.state import CAMP, PLACE_CAMP, PLACE_CARD
from sim.games.mainland.view import MainlandView


def hand_placements(view: MainlandView) -> np.ndarray:
    """Legal ``(hand_index, rotation, row, col)`` for the viewer's hand as it is now."""
    return _over_hand(kernels.legal_placements, view)


def playable_cards(view: MainlandView) -> np.ndarray:
    """For each card of the viewer's hand: can it be placed now (has it a row in ``hand_placements``)?"""
    return _over_hand(kernels.playable_cards, view)


def _over_hand(kernel: Any, view: MainlandView) -> np.ndarray:
    camp = view.phase == CAMP
    cards = np.array([view.data.camp_card] if camp else view.hand, dtype=np.int64)
    return kernel(
        view.items, view.owner, view.counts, view.seat, cards, view.data.rotations,
        view.data.unique_rotation, view.data.is_castle_card, COVER, REQ_PAIRS,
        bool(view.rules["castle_needs_overlap"]), camp, bool(view.rules["card_meets_own_requirements"]),
    )


@dataclass(frozen=True)
class Evaluation:
    """What each placement option would do: rows match the ``options`` passed in."""

    rows: np.ndarray  # indices into options of the placement rows
    scores_after: np.ndarray  # (m, n_players) total scores after the placement
    covered_own: np.ndarray  # (m, n_items) own items covered
    covered_other: np.ndarray  # (m, n_items) opponents' items covered
    placed: np.ndarray  # (m, n_items) items laid down
    scores_now: np.ndarray  # (n_players,) total scores before the placement

    @property
    def gain(self) -> np.ndarray:
        """Change of each seat's score, (m, n_players)."""
        return self.scores_after - self.scores_now


def evaluate(view: MainlandView, options: np.ndarray) -> Evaluation:
    """Score every placement row of ``options`` for every seat (camp rows included)."""
    cards = np.array([view.data.camp_card] if view.phase == CAMP else view.hand, dtype=np.int64)
    rows, after, own, other, placed = evaluate_options(
        view.items, view.owner, view.n_players, view.seat, cards, view.data.rotations, options,
        view.data.points, PLACE_CARD, PLACE_CAMP,
    )
    return Evaluation(rows, after, own, other, placed, view.scores[:, 0].copy())


def best_gains(view: MainlandView, options: np.ndarray) -> list[int]:
    """The rows of ``options`` that the greedy strategy draws from: the placements with the highest own
    gain, and among them those that leave the opponents lowest (``lookahead.greedy_candidates``, the same
    values as ``evaluate`` and ``lookahead.ties`` give); empty when no row places a card."""
    cards = np.array([view.data.camp_card] if view.phase == CAMP else view.hand, dtype=np.int64)
    return greedy_candidates(
        view.items, view.owner, view.n_players, view.seat, cards, view.data.rotations, options,
        view.data.points, PLACE_CARD, PLACE_CAMP, float(view.scores[view.seat, 0]),
    ).tolist()

"""What Graenaland's learned judge (``strategies.value_model``) reads of a state: a few public numbers per
seat and the stage of the game.

* ``score``: goals met now (graenaland.txt:223-231; victory points with the victory point cards, 286),
  the game's score (``turns.seat_scores``);
* ``settlements``: settlements on the board, the first goal and the votes of every distribution (94-98);
* ``buildings``: fortresses, churches and halls owned (151-158);
* ``army``: army strength (163-169);
* ``cards``: resource and supply cards in hand (public counts), the builds still to pay for.

The stage is the round in blocks of three (rounds 1-2, 3-5, 6-8, 9-11, 12 and later): greedy games last
11 to 17 rounds.
"""

from __future__ import annotations

from sim.games.graenaland.state import GraenalandState
from sim.games.graenaland.turns import seat_scores
from sim.games.graenaland.victory import goal_values_by_seat

FEATURES = ("score", "settlements", "buildings", "army", "cards")
STAGES = 5


def seat_features(state: GraenalandState, seat: int) -> tuple[float, ...]:
    """(score, settlements, buildings owned, army, cards in hand) of ``seat`` now."""
    values = goal_values_by_seat(state, state.data)[seat]
    owned = sum(1 for row in state.buildings for owner in row if owner == seat)
    cards = len(state.hands[seat]) + len(state.supplies[seat])
    return (seat_scores(state)[seat], float(values[0]), float(owned), float(state.army[seat]), float(cards))


def stage(state: GraenalandState) -> int:
    """The round in blocks of three, 0 to ``STAGES - 1``."""
    return min(max(state.round, 0) // 3, STAGES - 1)

"""What Mainland's learned judge (``strategies.value_model``) reads of a state: a few public numbers per
seat and the stage of the game.

* ``score``: the seat's total now (``state.totals``: Mainland tiles, Mainland items and minor items,
  mainland.txt:197-227), what the game is won on (line 235);
* ``mainland``: the tiles of its Mainland, the largest territory (lines 197-207), which later cards tend to
  extend where minor territories get covered;
* ``tokens``: chieftain tokens left, the turns a seat can still lose to passes and gatherings before its
  game is over (lines 73, 137, 143);
* ``cards``: cards left in hand and deck (public counts), the placements still to come (line 131).

The stage is the round in blocks of four (rounds 0-3, 4-7, ..., 24 and later): greedy games last 14 to 29
rounds.
"""

from __future__ import annotations

from sim.games.mainland.state import MainlandState

FEATURES = ("score", "mainland", "tokens", "cards")
STAGES = 7


def seat_features(state: MainlandState, seat: int) -> tuple[float, ...]:
    """(score, Mainland tiles, tokens left, cards left) of ``seat`` now."""
    scores = state.scores
    mainland = float(scores[seat, 1]) if scores is not None else 0.0
    total = float(state.totals[seat]) if state.totals else 0.0
    cards = len(state.hands[seat]) + len(state.decks[seat])
    return total, mainland, float(state.tokens[seat]), float(cards)


def stage(state: MainlandState) -> int:
    """The round in blocks of four, 0 to ``STAGES - 1``."""
    return min(max(state.round, 0) // 4, STAGES - 1)

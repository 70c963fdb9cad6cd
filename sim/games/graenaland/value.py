"""What Graenaland's learned judge (``strategies.value_model``) reads of a state: a few public numbers per
seat and the stage of the game.

* ``score``: goals met now (graenaland.txt:223-231; victory points with the victory point cards, 286),
  the game's score (``turns.seat_scores``);
* ``settlements``: settlements on the board, the first goal and the votes of every distribution (94-98);
* ``buildings``: fortresses, churches and halls owned (151-158);
* ``army``: army strength (163-169);
* ``cards``: resource and supply cards in hand (public counts), the builds still to pay for;
* ``short``: how far the seat is from its third goal (a win needs three of five, line 225): the steps
  still missing on its third-nearest goal, 0 with three goals met.  The steps are settlements for the
  number of settlements (227), the settlements still missing on the three territories nearest to two
  for the number of territories (228), settlements for the largest territory (229), buildings counted
  (230; the first not counted at three players, 249) and army strength (231), from
  ``victory.goal_values``;
* ``two``: 1 with at least two goals met (one short of announcing victory, 221), else 0;
* ``two_near``: 1 with at least two goals met and an unmet goal one step short, else 0;
* ``order``: how far the seat sits after the main player in turn order, as a fraction of the players
  (0: the main player, the only one who builds this round, 54, and may announce victory after it, 221;
  the ship marker passes left every round, 55);
* ``claim``: the resource cards lying on the territories (66-68) times the seat's share of the votes
  there (94-98, ``votes.votes_on``), summed: what the distributions may bring it (88-123);
* ``majorities``: territories where the seat holds more than half the votes, enough to pass a proposal
  alone (117).

All of them are public: the board, the heroes, the army track, the cards lying on the territories, the
counts of the cards in hand and the ship marker.
The stage is the round in blocks of three (rounds 1-2, 3-5, 6-8, 9-11, 12 and later): greedy games last
11 to 17 rounds.
"""

from __future__ import annotations

from sim.games.graenaland.data import GOALS
from sim.games.graenaland.state import GraenalandState
from sim.games.graenaland.turns import seat_scores
from sim.games.graenaland.victory import goal_counts, goal_values_by_seat
from sim.games.graenaland.votes import settlements_on, votes_by_territory

FEATURES = (
    "score",
    "settlements",
    "buildings",
    "army",
    "cards",
    "short",
    "two",
    "two_near",
    "order",
    "claim",
    "majorities",
)
STAGES = 5


def seat_features(state: GraenalandState, seat: int) -> tuple[float, ...]:
    """``FEATURES`` of ``seat`` now (the module docstring)."""
    data = state.data
    values = goal_values_by_seat(state, data)[seat]
    owned = sum(1 for row in state.buildings for owner in row if owner == seat)
    cards = len(state.hands[seat]) + len(state.supplies[seat])
    needed = data.goals["needed"]
    goals = data.goals
    deficits = [max(0, goals[name] - v) for v, name in zip(values, GOALS, strict=True)]
    size = goals["territory_size"]
    missing = sorted(max(0, size - settlements_on(state, t, seat)) for t in range(len(state.villages)))
    deficits[GOALS.index("territories")] = sum(missing[: goals["territories"]])
    deficits.sort()
    claim = 0.0
    majorities = 0
    for t, votes in enumerate(votes_by_territory(state)):
        mine = votes[seat]
        if mine:
            total = sum(votes)
            claim += mine / total * len(state.cards[t])
            majorities += 2 * mine > total
    met = goal_counts(state, data)[seat]
    two = met >= needed - 1
    near = any(d == 1 for d in deficits)
    return (
        seat_scores(state)[seat],
        float(values[0]),
        float(owned),
        float(state.army[seat]),
        float(cards),
        float(deficits[needed - 1]),
        float(two),
        float(two and near),
        ((seat - state.main) % state.n_players) / state.n_players,
        claim,
        float(majorities),
    )


def stage(state: GraenalandState) -> int:
    """The round in blocks of three, 0 to ``STAGES - 1``."""
    return min(max(state.round, 0) // 3, STAGES - 1)

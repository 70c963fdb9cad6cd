"""Greenland's judge of a search playout cut before the end: ``evaluate(state, seat)``.

The scores of the moment judge a cut playout badly: at two players the normalised scores give the leader 1
and the other 0 whatever the gap and the generations left, and the seats tie (0.5 each) at 13% of greedy's
decision points.  ``evaluate`` is instead a seat's chance of finishing ahead of each other seat, averaged
over them: its expected rank utility (1 ahead of all, 0 behind all, the scale of ``reward=rank``; at two
players its chance to win, the scale of ``reward=win``).  The chance that seat ``i`` finishes ahead of seat
``j`` is ``sigmoid(w_score * (score_i - score_j) + w_pop * (population_i - population_j))``, with weights
for the generation of the moment and the number of players, since a lead of 3 points means little in
generation 2 and much in generation 10, and population (line 14: at most 18 tribesmen and the Alpha; babies
need pieces in Valhalla, ruling G7) reverts to the mean while Trophies stay won.

The weights are **fitted, not printed**: a logistic regression of who finished ahead on those differences
at every seventh decision point of greedy self-play, one fit per player count and generation
(``tools/fit_greenland_value.py``, which re-makes the table, says how well it predicts held-out games and
prints it).  A dead tribe scores 0 and finishes behind every living one (reference B.3.7), and the sole
surviving culture wins whatever the scores (line 5), so a dead seat is behind a living one for certain.

The generic learned judge (``strategies.value_model``, fitted by ``tools/fit_value.py``) reads
``seat_features`` (``FEATURES``) and ``stage`` (the generation, 1-10, as 0-9), as it does in every game:
the score and living tribesmen, and beside them the energy a tribe holds (its upkeep is one energy per
``upkeep_per`` living tribesmen at the end of phase H, each missing energy a life, ruling G16; breeding
costs energy, line 26) and its elders (their actions, line 51).  ``evaluate`` and its ``WEIGHTS`` stay
as fitted here.
"""

from __future__ import annotations

import math

from sim.games.greenland.scoring import current_scores
from sim.games.greenland.state import GreenlandState
from sim.games.greenland.table import population

#: (w_score, w_pop) by player count, for generations 1-10 (index 0 = generation 1):
#: ``tools/fit_greenland_value.py --games 400 --test-games 200 --seed 1000`` (greedy self-play, every 7th
#: decision point).  On its 200 held-out games per count, Brier score of who finishes ahead of whom, these
#: chances against the scores of the moment: 2 players 0.125 (0.191), 3 players 0.118 (0.176), 4 players
#: 0.106 (0.168).
WEIGHTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.129, -0.131), (0.492, -0.422), (0.476, -0.312), (0.462, -0.269), (0.503, -0.226), (0.558, -0.341),
        (0.655, -0.412), (0.779, -0.611), (1.07, -0.798), (1.59, -1.152)),
    3: ((0.701, -0.674), (0.594, -0.534), (0.486, -0.363), (0.519, -0.374), (0.656, -0.5), (0.771, -0.56),
        (0.882, -0.602), (0.957, -0.616), (1.22, -0.753), (1.793, -0.934)),
    4: ((0.478, -0.458), (0.608, -0.563), (0.625, -0.531), (0.666, -0.557), (0.734, -0.598), (0.806, -0.59),
        (0.861, -0.556), (0.985, -0.543), (1.264, -0.575), (1.719, -0.743)),
}


#: the names of ``seat_features``, and the stages of ``stage`` (the generic learned judge,
#: ``strategies.value_model``)
FEATURES = ("score", "population")
STAGES = 10


def stage(state: GreenlandState) -> int:
    """The generation (1-10) as 0 to ``STAGES - 1``."""
    return min(max(state.generation, 1), STAGES) - 1


def seat_features(state: GreenlandState, seat: int) -> tuple[float, ...]:
    """(score, living tribesmen) of ``seat`` now: what the learned judge compares (``features``)."""
    return features(state, seat)


def features(state: GreenlandState, seat: int) -> tuple[float, float]:
    """(score, living tribesmen) of ``seat`` now: what ``evaluate`` compares between seats."""
    return current_scores(state, state.data)[seat], float(population(state, seat))


def ahead_chance(
    weights: tuple[float, float], mine: tuple[float, float], theirs: tuple[float, float]
) -> float:
    """The fitted chance of finishing ahead of a seat with features ``theirs`` (``features``)."""
    z = weights[0] * (mine[0] - theirs[0]) + weights[1] * (mine[1] - theirs[1])
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def evaluate(state: GreenlandState, seat: int) -> float:
    """``seat``'s expected rank utility in [0, 1]: its mean fitted chance of finishing ahead of each other
    seat (a dead seat: behind every living one; two dead seats: even)."""
    n = state.n_players
    if n < 2:
        return 1.0
    table = WEIGHTS[min(max(n, min(WEIGHTS)), max(WEIGHTS))]
    weights = table[min(max(state.generation, 1), len(table)) - 1]
    alive = state.alive
    mine = features(state, seat) if alive[seat] else (0.0, 0.0)
    total = 0.0
    for other in range(n):
        if other == seat:
            continue
        if alive[seat] != alive[other]:
            total += 1.0 if alive[seat] else 0.0
        elif not alive[seat]:
            total += 0.5
        else:
            total += ahead_chance(weights, mine, features(state, other))
    return total / (n - 1)

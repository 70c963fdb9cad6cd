"""What Knarr's learned judge (``strategies.value_model``) reads of a state: a few public numbers per seat
and the stage of the race.

* ``vp``: victory points now, what the game is won on (knarr.md A.6);
* ``reputation``: the reputation track, which pays victory points at the start of every turn
  (A.5 step 1, ``rules.start_turn``);
* ``crew``: Vikings in the seat's crew, what every later recruit and exploration draws on;
* ``bracelets`` and ``recruits``: spent on trades and explorations, and the tie-break (A.6).

The stage is the leader's victory points in steps of eight (0-7, 8-15, ..., 32 and more): the game ends
with the round in which a seat reaches 40 (A.6).
"""

from __future__ import annotations

from sim.games.knarr.state import KnarrState

FEATURES = ("vp", "reputation", "crew", "bracelets", "recruits")
STAGES = 5


def seat_features(state: KnarrState, seat: int) -> tuple[float, ...]:
    """(victory points, reputation, crew size, bracelets, recruits) of ``seat`` now."""
    crew = sum(len(cards) for cards in state.crews[seat])
    return (
        float(state.vp[seat]),
        float(state.rep[seat]),
        float(crew),
        float(state.bracelets[seat]),
        float(state.recruits[seat]),
    )


def stage(state: KnarrState) -> int:
    """The leader's victory points in steps of eight, 0 to ``STAGES - 1``."""
    return min(max(state.vp) // 8, STAGES - 1)

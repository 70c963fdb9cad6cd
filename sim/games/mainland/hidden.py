"""Mainland's ``determinize(state, seat, rng)``: a new full state in which everything hidden from
``seat`` is drawn again from ``rng``, consistently with what ``seat`` has seen; a function of what ``seat``
has seen and of ``rng`` only.  The input state is left as it is.

What a seat is shown is ``view.view_of``: the board, every seat's visible items, the scores, its own hand
(in its order), every hand's and deck's size, the discard piles (face up, ruling R9), the tokens and the
rules.  Line 77: "You can look at the cards you have in hand, but you must not look at your opponent's
cards"; line 79: "At no time is it permitted to look at the cards in your deck".

**Drawn again** (each from the sorted cards it may hold, so the draw cannot depend on the hidden order):

* every other seat's hand and deck, dealt together from that seat's cards off the board and out of its
  discard pile (its hand + deck, a multiset ``seat`` knows: each clan has the same cards, ruling R15, and
  the cards placed and discarded were all seen, lines 91 and 93); the hand keeps its size and the deck
  its size (both public: ``hand_sizes``, ``deck_sizes``; a hand may be short once the deck is empty,
  ruling R6).  Each clan has its own deck (line 77), so cards never move between seats;
* the order of ``seat``'s own deck (line 79: nobody sees deck order, ruling R9), its contents kept;
* the game's own generator (``state.rng``: the shuffles of future clan gatherings, line 143) and
  ``state.seed``, which would give the deal away (``rules.new_game`` deals from it): both from ``rng``;
* whether another seat's past passes were forced: the state counts forced and voluntary passes apart
  (``stats``), but a pass is offered even when a card fits (ruling R5, line 239), so ``seat`` sees only
  that a token was lost, not whether the hand could have played.  Every other seat's passes are counted
  voluntary in the result (their total kept), which any history allows; ``seat``'s own split is kept.

**Kept as they are:** everything ``view_of`` shows, ``seat``'s own hand and its order, the phase, the
seat to move and the round, the other counters behind the records (placements, replaces and gatherings
are all public moves), and the count of choices applied.  No secret choice is ever pending: a Mainland
turn is one seat's open decisions (R5), so there is none to resample.  The ``placeable`` cache (built
from the true hand) is dropped.

**Perfect recall.**  The state records enough for every card ``seat`` saw: a card seen in a seat's hand
is one it placed or discarded (face up), and those are out of the pools above; a clan gathering (line 143)
shuffles the gatherer's cards unseen, so nothing seen before it stays in a hand.  No card ``seat`` saw is
hidden now.  **Approximation:** the deal is uniform over the hidden cards; it does not weigh what the
other seats' own choices suggest about their hands (a kept hand, a replaced card, a card placed in place
of another, a pass): that is inference about strategies, not about the rules.
"""

from __future__ import annotations

import numpy as np

from sim.games.mainland.state import MainlandState

#: the largest seed drawn for the new state's generator
_SEED_BOUND = 2**63


def determinize(state: MainlandState, seat: int, rng: np.random.Generator) -> MainlandState:
    """A new state: ``state`` as ``seat`` sees it, the rest drawn from ``rng`` (see the module docstring);
    ``state`` itself is unchanged."""
    from sim.games.mainland.game import GAME  # late: game.py may import this module for its method

    new = GAME.copy(state)
    for p in range(state.n_players):
        if p == seat:
            new.decks[p] = _shuffled(state.decks[p], rng)  # line 79: own deck order unseen
            continue
        size = len(state.hands[p])
        cards = _shuffled([*state.hands[p], *state.decks[p]], rng)  # lines 77, 79
        new.hands[p], new.decks[p] = cards[:size], cards[size:]
    _forget_forced_passes(new, state, seat)
    new.seed = int(rng.integers(_SEED_BOUND))
    new.rng = np.random.default_rng(np.random.SeedSequence(new.seed))
    new.placeable = None
    return new


def _forget_forced_passes(new: MainlandState, state: MainlandState, seat: int) -> None:
    """Every other seat's passes counted voluntary, their total kept (ruling R5: a pass is always offered,
    so ``seat`` cannot tell a forced one)."""
    passes, forced = state.stats.get("passes"), state.stats.get("forced_passes")
    if passes is None or forced is None:
        return
    new.stats["passes"] = [n if p == seat else n + forced[p] for p, n in enumerate(passes)]
    new.stats["forced_passes"] = [n if p == seat else 0 for p, n in enumerate(forced)]


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in an order drawn from ``rng`` that does not depend on the order they came in."""
    if len(cards) < 2:
        return list(cards)
    return np.sort(np.asarray(cards, dtype=np.int64))[rng.permutation(len(cards))].tolist()

"""Knarr's ``determinize(state, seat, rng)``: a fresh full state in which everything hidden from
``seat`` is drawn again from ``rng``, consistently with what ``seat`` sees; a function of what ``seat``
sees and of ``rng`` only.

What a seat is shown is ``view.view_of``: ruling R9 ('Hands are secret ... Crews, destinations, tokens,
the board, Buildings and the discard pile are public; deck order and other hands are not').

**Drawn again** (each from the sorted cards it may hold, so the draw cannot depend on the hidden order):

* the other players' hands and the Viking deck's order, dealt together from the Vikings ``seat`` cannot
  see (every Viking of the game, knarr.md A.2 'remove the cards marked 3 and 4', less its own hand, the
  board, every crew and the discard pile; A.4 step 3 'draws a hand of 3 Viking cards'); each hand keeps
  its size (public: ``hand_sizes``) and the deck its size (``deck_size``);
* the order of the Trading Land and Land of Influence decks, each within its own deck (A.4 step 1 'Shuffle
  the Trading Lands ... Shuffle the Lands of Influence'; expansion lines 9-10); their contents are the
  deck's destinations less those on display, owned or reserved, hence public;
* the order of the Building deck (expansion line 28 'A new Building card is revealed');
* the game's own generator (``state.rng``: future reshuffles of the discard pile, A.5 'Empty Viking deck:
  shuffle the discard pile to form a new deck') and ``state.seed``, which would give the deal away: both
  from ``rng``.

**Kept as they are:** everything ``view_of`` shows (the seat's own hand in its order, the board, the
display, crews, destinations owned, covered and reserved, tokens, scores, the discard pile, the phase and
pending bonuses, the artifacts, the rules) and the counters behind the records (``stats``, ``raid_log``).
No secret choice is ever pending in the state: the deck-exhaustion discards (ruling R6, simultaneous and
secret) are applied together by ``Knarr.apply``, so there is none to resample.

**Approximations (perfect recall the state does not record).**  A seat that remembers the game knows more
than the state keeps, and this function cannot use it:

* every Viking entering a hand after the deal comes from the face-up board (A.5 Recruit step 3 'Take into
  your hand the Viking in the board slot'), so a seat has seen all of another hand but what is left of its
  3 dealt cards; the state does not say which hand cards came from the board, so the other hands are dealt
  from the whole unseen pool;
* after the discard pile is shuffled into a new deck (A.5), a seat knows which cards were in it; the state
  does not record when that happened, so the deck and the hands share one pool;
* Buildings renewed 'under the deck' (expansion line 30, ruling R19) are seen going to its bottom; the state
  does not say which Building cards those are, so the whole Building deck is reshuffled.

A determinization may so give an opponent a card ``seat`` saw go elsewhere: it is consistent with the
view, not with the whole history.
"""

from __future__ import annotations

import numpy as np

from sim.games.knarr.state import KnarrState

#: the largest seed drawn for the new state's generator
_SEED_BOUND = 2**63


def determinize(state: KnarrState, seat: int, rng: np.random.Generator) -> KnarrState:
    """A new state: ``state`` as ``seat`` sees it, the rest drawn from ``rng`` (see the module docstring);
    ``state`` itself is unchanged."""
    from sim.games.knarr.game import GAME  # late: game.py imports this module for its method

    new = GAME.copy(state)
    _deal_vikings(new, seat, rng)
    new.deck_a = _shuffled(state.deck_a, rng)
    new.deck_b = _shuffled(state.deck_b, rng)
    if state.building_deck:
        new.building_deck = _shuffled(state.building_deck, rng)
    new.seed = int(rng.integers(_SEED_BOUND))
    new.rng = np.random.default_rng(new.seed)
    new.legal = None
    return new


def _deal_vikings(new: KnarrState, seat: int, rng: np.random.Generator) -> None:
    """The Viking deck and every hand but ``seat``'s dealt again from the Vikings ``seat`` cannot see, each
    keeping its size (A.4 step 3; ruling R9)."""
    others = [p for p in range(new.n_players) if p != seat]
    pool = list(new.deck)
    for p in others:
        pool.extend(new.hands[p])
    cards = _shuffled(pool, rng)
    start = 0
    for p in others:
        size = len(new.hands[p])
        new.hands[p] = cards[start : start + size]
        start += size
    new.deck = cards[start:]


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in an order drawn from ``rng`` that does not depend on the order they came in."""
    ordered = sorted(cards)
    return [ordered[i] for i in rng.permutation(len(ordered))]

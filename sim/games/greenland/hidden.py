"""Greenland's ``determinize(state, seat, rng)``: a fresh full state in which everything hidden
from ``seat`` is drawn again from ``rng``, consistently with what ``seat`` has seen; a function of what
``seat`` has seen and of ``rng`` only (each pool is sorted before it is shuffled, so the draw cannot depend
on the hidden order).

What a seat is shown is ``view.view_of``: the whole table, 'nothing hidden in a deck'; of another tribe's
hand only its size (ruling G19); the trade-ship bids are simultaneous (ruling G3).  Rulebook lines are those
of ``greenland-third-edition.txt``.

**Drawn again:**

* the event deck, contents and order: line 9 'randomly select 10 of them to form a face-down, shuffled
  deck. The remaining cards will not be used', so the deck is a sample of the events not yet revealed
  (every event card less those in ``log``, line 22 'Reveal an event card'), of the deck's size (public:
  ``events_left``);
* the order of the North and South biome decks (line 10 'face-down, shuffled deck'); their contents are
  public: every card leaves a deck face up (line 11, the rows; a migration's new card and a Trophy's
  replacement, ruling G12, are dealt to the rows);
* the other tribes' hands, the Invention deck and the discard pile, dealt together from the Inventions
  ``seat`` cannot see (every Invention less those in a tableau and its own hand; ruling G19: the Crafter's
  'invent' draws the top Invention face down into the hand, 'cards must be immediately discarded'), each
  keeping its size; a hand card named by a pending bribe (line 59, ruling G23) stays in the briber's hand;
* the Import deck (line 22 'auction its imported good'), a sample of the deck's size from the Imports in no
  tableau and not on offer now;
* the game's generator (``state.rng``: after set-up it draws only dice, ``dice.peek_dice``), the die faces
  drawn ahead (``faces``: rolls not yet made) and ``state.seed``, which would give the deal away: all from
  ``rng``.

**Kept as they are:** everything ``view_of`` shows (the rows, tribesmen, elders, discs, tableaus, Trophies,
the seat's own hand in its order, the pending roll's dice, the phase and whose turn it is); what the view
leaves out but was done openly on the table: the other tribes' sent tribesmen (``placed``, line 42), elder
actions used (``used``, line 27) and animals bred (``bred``, line 26), the biome cards gone (a migration),
the pending bribe and counter-offer (line 59 'you can initiate negotiations'; its taker answers it in the
open); the flow, the records (``stats``, ``log``) and the rules.  No secret choice is ever pending in the
state: the trade-ship bids (ruling G3) and the starting farm animals (line 13, ruling G2) are simultaneous
decisions that ``Greenland.apply`` plays together, so there is none to resample.  Hand cards score nothing
until tabled (ruling G19), so the cached scores stay valid; they are dropped anyway (``score_memo``).

**Approximations (perfect recall the state does not record).**  A seat that remembers the game knows more
than the state keeps, and this function cannot use it:

* a hand card ``seat`` gave in a bribe or was offered (line 59) is known to be in the taker's or offerer's
  hand; the state does not record it, so the other hands are dealt from the whole unseen pool;
* the discard pile holds the cards ``seat`` discarded itself too (ruling G19), and the view does not show
  the pile: the state does not say whose each card was, so the whole pile is dealt again from the pool;
* an Import offered to the table and left unsold 'sails on' (ruling G3): ``seat`` saw it (the view's
  ``offer`` during the auction) and knows it is not in the deck, but the state does not keep it, so it may
  come back in the deck drawn here; one that sailed on with nobody able to bid was never shown, which is
  why the deck is drawn from every unplaced Import and not only from its present contents.

A determinization may so give an opponent a card ``seat`` saw go elsewhere: it is consistent with the view,
not with the whole history.
"""

from __future__ import annotations

import numpy as np

from sim.games.greenland.state import CARD, GreenlandState

#: the largest seed drawn for the new state's generator
_SEED_BOUND = 2**63


def determinize(state: GreenlandState, seat: int, rng: np.random.Generator) -> GreenlandState:
    """A new state: ``state`` as ``seat`` sees it, the rest drawn from ``rng`` (see the module docstring);
    ``state`` itself is unchanged."""
    from sim.games.greenland.game import GAME  # late: game.py may import this module for its method

    new = GAME.copy(state)
    new.events = _events(state, rng)
    new.decks = [_shuffled(deck, rng) for deck in state.decks]
    _deal_inventions(new, seat, rng)
    new.imports = _imports(state, rng)
    new.seed = int(rng.integers(_SEED_BOUND))
    new.rng = np.random.default_rng(new.seed)
    new.faces = []
    new.score_memo = None
    return new


def _events(state: GreenlandState, rng: np.random.Generator) -> list[int]:
    """The face-down event deck: as many events as it holds, from those not revealed yet (lines 9, 22)."""
    revealed = {event for _, event in state.log} | {state.event}
    unseen = [e for e in range(len(state.data.events)) if e not in revealed]
    return _shuffled(unseen, rng)[: len(state.events)]


def _imports(state: GreenlandState, rng: np.random.Generator) -> list[int]:
    """The Import deck: as many Imports as it holds, from those in no tableau and not on offer (line 22)."""
    placed = {c for tableau in state.tableau for c in tableau} | {state.offer}
    unplaced = [c for c in state.data.tcards_of("import") if c not in placed]
    return _shuffled(unplaced, rng)[: len(state.imports)]


def _pinned(state: GreenlandState) -> tuple[int, int]:
    """(briber, hand card) of a pending bribe that offers a card of the briber's hand (line 59), else
    (-1, -1): the card was shown at the table, so it stays where it is."""
    if state.bribe >= CARD and state.attacker >= 0 and state.bribe - CARD in state.hands[state.attacker]:
        return state.attacker, state.bribe - CARD
    return -1, -1


def _deal_inventions(new: GreenlandState, seat: int, rng: np.random.Generator) -> None:
    """The Invention deck, the discard pile and every hand but ``seat``'s dealt again from the Inventions
    ``seat`` cannot see, each keeping its size (ruling G19); a card a pending bribe names stays put."""
    briber, card = _pinned(new)
    seen = {c for tableau in new.tableau for c in tableau} | set(new.hands[seat]) | {card}
    pool = [c for c in new.data.tcards_of("invention") if c not in seen]
    others = [p for p in range(new.n_players) if p != seat]
    cards = _shuffled(pool, rng)
    start = 0
    for p in others:
        size = len(new.hands[p]) - (p == briber)
        hand = cards[start : start + size]
        new.hands[p] = [card, *hand] if p == briber else hand
        start += size
    size = len(new.discards)
    new.discards = cards[start : start + size]
    new.inventions = cards[start + size :]


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in an order drawn from ``rng`` that does not depend on the order they came in."""
    ordered = sorted(cards)
    return [ordered[i] for i in rng.permutation(len(ordered))]

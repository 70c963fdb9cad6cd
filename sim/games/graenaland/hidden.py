"""``determinize(state, seat, rng)``: a Graenaland state resampled from what ``seat`` has seen.

What a seat is shown is ``view.view_of`` (graenaland.txt:49, 115, 182); everything else that is hidden
from it is drawn again from ``rng``, consistently with what it has seen.  The input is not changed.

Resampled (hidden from ``seat``):

* **The other players' resource cards** (line 49: "held hidden by each player"): the view shows only
  their number, so each other hand keeps its size and is dealt again from the cards ``seat`` has not seen.
* **The order and contents of the four terrain decks** (line 34: shuffled, face down), **the face-down
  road cards** at the territories (line 182: "no one knows what resource it is") and **the face-down
  start cards** of the custom start draft (line 269).  Each of these keeps its size and its terrain (a
  deck, road card or start card of a territory is of that territory's terrain, lines 34, 66, 269); the
  cards ``seat`` has not seen are dealt uniformly among all these places and the other hands, subject
  to the terrains: every consistent deal is equally likely.
* **The order of the supply deck** (line 33: shuffled, face down).  Its contents are known: every supply
  card not in the face-up row, in a hand or on the discard pile.
* **The other players' victory point cards** (lines 283-284: dealt and kept face down): the three cards
  dealt to each while they choose, and the one kept afterwards, drawn from the cards ``seat`` was not
  dealt; the announcer's card is kept once it is revealed (line 315).
* **The game's own generator**, which draws the future: the reshuffle of a discard pile (line 126), of
  the supply discards (ruling), the victory card deal (line 283).  It is replaced by one seeded from
  ``rng``, so the sample's future is not the true game's.
* **The other players' claims** (the most victory points each could announce, lines 311-313): worked
  out again from their resampled cards during the announcements; who may announce stays as it is (the
  game asks exactly those seats, so that is public), a resampled claim is clamped to agree with it.
  Outside the announcements the claims are not read, and the other seats' are set to 0.

Kept (what ``seat`` sees, or has seen and the state records):

* the board, heroes, armies, face-up cards at the territories (line 66), the supply row (line 33),
  ``seat``'s own hand in its order (including face-down cards it received, line 182) and its own
  victory card, every proposal and vote (line 115), the phase and whose turn it is;
* **the discard piles** (line 126: used cards are laid openly on them; a yield card that does not match
  is turned over, line 188);
* **every player's supply cards**: each was taken from the face-up row in view of all (lines 132, 217)
  and each one used is shown in the payment, so a seat that recalls the game knows them all;
* **cards offered to a joint public building** (lines 210-211: offered openly) and still in their
  owners' hands: they stay in those hands, first, so the joint building takes them as in the true game.

Consistency with what the other seats have done: a player paying for a build chose something it can pay
(lines 125-128), so while another seat is paying its hand is dealt again until it can pay (at most
``PAY_TRIES`` deals; after that its true hand is kept, a leak: in 210 such samples of seeded random
games none needed it).

Documented approximations (the state does not record enough to do better):

* Cards another player received face up in an accepted proposal (lines 66, 117) were seen by ``seat``,
  but the state keeps only how many cards each seat received (``ProposalRecord.shares``), so they are
  dealt again like any unseen card.  The same holds for a palisade fee card handed over (line 203).
  (Cards a player showed by spending them have left its hand, for the discard piles, which are kept.)
* The back of a card shows its terrain (line 126), so a player sees how many cards of each terrain the
  others hold; the view shows only hand sizes, and so does the sample.
* The two victory cards ``seat`` set aside (line 283) are not recorded once chosen, so they may be dealt
  to another player; the fact that a player did not announce is not used to constrain its card.
* The start cards left after the draft are set aside face down (line 277) but are put on the discard
  piles, which are kept whole: a seat knows which cards were set aside.
* A deck formed again from its discard pile (line 126) holds cards every seat saw on that pile, less
  those drawn since; the state does not record the pile it was formed from, so its cards are dealt again
  like any unseen card of its terrain (its size is kept).
* A card id stands for one physical card; cards of the same resource and terrain play alike, and the
  cards ``seat`` has seen keep their ids.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim.games.graenaland import advanced
from sim.games.graenaland.board import Board, build_board
from sim.games.graenaland.building import payment_options
from sim.games.graenaland.data import GraenalandData
from sim.games.graenaland.state import ANNOUNCE, PAY, GraenalandState, copy_state

#: deals tried while another seat pays, before its true hand is kept
PAY_TRIES = 200


def determinize(state: GraenalandState, seat: int, rng: np.random.Generator) -> GraenalandState:
    """A new full state in which everything hidden from ``seat`` is drawn again from ``rng`` (see the
    module docstring); a function of ``seat``'s information and ``rng`` only."""
    data: GraenalandData = state.data
    board = build_board(data, state.n_players)
    new = copy_state(state)
    new.rng = np.random.default_rng(int(rng.integers(2**63)))
    _deal_resources(new, state, board, data, seat, rng)
    new.supply_deck = [int(c) for c in rng.permutation(np.array(sorted(state.supply_deck), dtype=np.int64))]
    _deal_victory_cards(new, state, data, seat, rng)
    _claims(new, state, board, data, seat)
    return new


def offered_cards(state: GraenalandState, data: GraenalandData, p: int) -> list[int]:
    """The cards of ``p``'s hand a joint building will take (``building.remove_cards``: the earliest held
    first), from the resources it offered (lines 210-211)."""
    want = list(state.taken.get(p, ()))
    if not any(want):
        return []
    out = []
    for card in state.hands[p]:
        r = data.card_resource[card]
        if want[r] > 0:
            want[r] -= 1
            out.append(card)
    return out


def _deal_resources(new: GraenalandState, state: GraenalandState, board: Board, data: GraenalandData,
                    seat: int, rng: np.random.Generator) -> None:
    """The resource cards ``seat`` has not seen, dealt again (lines 34, 49, 182, 269); while another seat
    pays, dealt again until it can pay (lines 125-128)."""
    known = {p: offered_cards(state, data, p) for p in range(state.n_players) if p != seat}
    payer = state.builder if state.phase == PAY and state.builder != seat else -1
    for _ in range(PAY_TRIES):
        _deal(new, state, board, data, seat, known, rng)
        if payer < 0 or _can_pay(new, board, data, payer):
            return
    known[payer] = list(state.hands[payer])
    _deal(new, state, board, data, seat, known, rng)


def _can_pay(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> bool:
    kind, t, _k, need = state.pending  # type: ignore[misc]
    return bool(payment_options(state, board, data, seat, kind, t, tuple(need) if kind == "joint" else None))


def _deal(new: GraenalandState, state: GraenalandState, board: Board, data: GraenalandData, seat: int,
          known: dict[int, list[int]], rng: np.random.Generator) -> None:
    """One deal: per terrain, the unseen cards of that terrain shuffled onto its deck, the face-down road
    cards and start cards of its territories; what is left of every terrain shuffled into the other hands
    (after the cards known to be in them)."""
    seen = set(state.hands[seat])
    for pile, down in zip(state.cards, state.face_down, strict=True):
        seen.update(c for c, d in zip(pile, down, strict=True) if not d)
    for pile in state.discards:
        seen.update(pile)
    for cards in known.values():
        seen.update(cards)
    n_terrains = len(state.decks)
    unseen: list[list[int]] = [[] for _ in range(n_terrains)]
    for card, deck in enumerate(data.card_deck):
        if card not in seen:
            unseen[deck].append(card)
    pools = [[int(c) for c in rng.permutation(np.array(u, dtype=np.int64))] for u in unseen]
    for d in range(n_terrains):
        new.decks[d] = _take(pools[d], len(state.decks[d]))
    for t, (pile, down) in enumerate(zip(state.cards, state.face_down, strict=True)):
        if any(down):
            pool = pools[board.terrain[t]]
            new.cards[t] = [pool.pop() if d else c for c, d in zip(pile, down, strict=True)]
    for t, pile in enumerate(state.draft_cards):
        new.draft_cards[t] = _take(pools[board.terrain[t]], len(pile))
    rest = [int(c) for c in rng.permutation(np.array(sorted(c for p in pools for c in p), dtype=np.int64))]
    for p, hand in enumerate(state.hands):
        if p != seat:
            kept = known[p]
            new.hands[p] = list(kept) + sorted(_take(rest, len(hand) - len(kept)))
    assert not rest, "every unseen card has a place"


def _take(pool: list[int], k: int) -> list[int]:
    """The last ``k`` cards of ``pool``, removed from it."""
    if k == 0:
        return []
    taken = pool[-k:]
    del pool[-k:]
    return taken


def _deal_victory_cards(new: GraenalandState, state: GraenalandState, data: GraenalandData, seat: int,
                        rng: np.random.Generator) -> None:
    """The other players' victory cards drawn from those ``seat`` was not dealt (lines 283-284); the
    announcer's once revealed (line 315) and ``seat``'s own are kept."""
    n = state.n_players
    if any(state.vp_offer):  # choosing one of three (line 283)
        pool = _shuffled([c for c in range(len(data.victory_cards)) if c not in state.vp_offer[seat]], rng)
        new.vp_offer = [list(state.vp_offer[p]) if p == seat else sorted(_take(pool, 3)) for p in range(n)]
        return
    keep = {seat, state.announcer}
    hidden = [p for p in range(n) if p not in keep and state.vp_card[p] >= 0]
    if not hidden:
        return
    shown = {state.vp_card[p] for p in keep if p >= 0}
    pool = _shuffled([c for c in range(len(data.victory_cards)) if c not in shown], rng)
    for p in hidden:
        new.vp_card[p] = pool.pop()


def _shuffled(items: Sequence[int], rng: np.random.Generator) -> list[int]:
    return [int(c) for c in rng.permutation(np.array(sorted(items), dtype=np.int64))]


def _claims(new: GraenalandState, state: GraenalandState, board: Board, data: GraenalandData,
            seat: int) -> None:
    """The other seats' claims from their resampled cards while announcing (lines 311-313), clamped so
    the seats asked stay those the true game asks; elsewhere not read, so set to 0."""
    if not state.claims:
        return
    points = data.victory_points
    for p in range(state.n_players):
        if p == seat:
            continue
        if state.phase != ANNOUNCE:
            new.claims[p] = 0
            continue
        claim = advanced.claim(new, board, data, p)
        new.claims[p] = max(claim, points) if state.claims[p] >= points else min(claim, points - 1)

"""Resource production (graenaland.txt:63-68, 126, 179-190)."""

from __future__ import annotations

from sim.games.graenaland.board import Board
from sim.games.graenaland.data import GraenalandData
from sim.games.graenaland.state import ROAD, YIELD, GraenalandState
from sim.games.graenaland.votes import settlements_on


def restock(state: GraenalandState, deck: int) -> None:
    """An exhausted terrain deck is formed again at once from its shuffled discard pile (line 126).

    Called whenever a deck or its discard pile changes, so a deck is never empty while its discard pile
    holds cards: cards paid after the last card is drawn start a new discard pile.
    """
    if state.decks[deck] or not state.discards[deck]:
        return
    pile = sorted(state.discards[deck])  # the order before shuffling must not depend on history
    state.rng.shuffle(pile)
    state.decks[deck] = pile
    state.discards[deck] = []


def discard(state: GraenalandState, deck: int, cards: list[int]) -> None:
    """Cards laid on the discard pile of ``deck`` (line 126), the deck formed again if it was exhausted."""
    state.discards[deck].extend(cards)
    restock(state, deck)


def draw(state: GraenalandState, deck: int) -> int | None:
    """The top card of a terrain deck; the deck is formed again from its discard pile the moment it is
    exhausted (line 126).

    None when both are empty (every card of that terrain is in hands or on the board).
    """
    restock(state, deck)
    if not state.decks[deck]:
        return None
    card = state.decks[deck].pop()
    restock(state, deck)
    return card


def settled_total(state: GraenalandState, t: int) -> int:
    return sum(settlements_on(state, t, p) for p in range(state.n_players))


def produce(state: GraenalandState, board: Board, data: GraenalandData) -> None:
    """Every settled territory: the ordinary card face up (line 66), the road card face down (182),
    the yield-improvement card kept only if it matches the symbol (188), in that order, never past
    settlements + 1 cards at the territory (68, 189)."""
    for t in range(board.n):
        settled = settled_total(state, t)
        if settled == 0:
            continue
        limit = settled + 1
        pile, down = state.cards[t], state.face_down[t]
        deck = board.terrain[t]
        if len(pile) < limit:
            card = draw(state, deck)
            if card is not None:
                pile.append(card)
                down.append(False)
        if state.public[t][ROAD] and len(pile) < limit:
            card = draw(state, deck)
            if card is not None:
                pile.append(card)
                down.append(True)
        if state.public[t][YIELD] and len(pile) < limit:
            card = draw(state, deck)
            if card is not None:
                if data.card_resource[card] == board.yield_resource[t]:
                    pile.append(card)
                    down.append(False)
                else:
                    discard(state, deck, [card])

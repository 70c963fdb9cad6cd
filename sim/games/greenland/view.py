"""What one Greenland seat may see: the whole table, nothing hidden in a deck.

Tribesmen, discs, tableaus, trophies, placards, the rows and the current event are on the table;
the order of the event, biome, invention and import decks is not, the cards in another tribe's hand are
not (only how many it holds, ruling G19), and in a trade-ship auction the other tribes' bids are secret
until every bid is in (the bids are simultaneous, ruling G3).
"""

from __future__ import annotations

from typing import NamedTuple

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.rules import current
from sim.games.greenland.state import BID, NEGOTIATE, OVER, SETUP, GreenlandState


class GreenlandView(NamedTuple):
    seat: int
    n_players: int
    tribe: tuple[int, ...]
    generation: int
    phase: int
    event: int
    order: tuple[int, ...]
    to_act: int  # the seat deciding now (-1 in an auction)
    warm: tuple[tuple[int, ...], tuple[int, ...]]
    cold: tuple[tuple[int, ...], tuple[int, ...]]
    hostile: tuple[int, ...]
    decks_left: tuple[int, int]
    events_left: int
    offer: int  # import being auctioned, -1 none
    pool: tuple[int, ...]
    alpha: tuple[int, ...]
    elders: tuple[tuple[int, ...], ...]
    hunters: tuple[dict[int, int], ...]
    colonists: tuple[dict[int, int], ...]
    husbands: tuple[dict[int, int], ...]
    placed: dict[int, int]  # own tribesmen sent this generation (transport)
    valhalla: tuple[int, ...]
    energy: tuple[int, ...]
    ivory: tuple[int, ...]
    iron: tuple[int, ...]
    tableau: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]  # own hand cards only (line 59)
    hand_sizes: tuple[int, ...]  # how many cards each tribe holds (the cards of others are hidden)
    trophies: tuple[tuple[int, ...], ...]
    religion: tuple[int, ...]
    alive: tuple[bool, ...]
    won: tuple[int, ...]
    used: tuple[int, ...]  # own elder actions used this generation, per rank
    moves: int
    dice: tuple[int, ...]  # the pending hunt roll's dice (G9)
    rerolls: int  # re-rolls left on it, -1 none pending
    roll_flags: int  # its flags (Option roll b: 1 the Alpha's hit, 2 iron spent)
    kills: int  # casualties awaiting a choice (G10), -1 none
    briber: int  # the tribe whose offer (or the counter to it) awaits an answer on this card, -1 none
    offers_made: tuple[int, ...]  # offers each tribe made on the card negotiated now (G23)
    cards_left: tuple[int, ...]  # cards still to negotiate (phase F) or hunt (phase G)
    rules: dict
    data: GreenlandData


def view_of(state: GreenlandState, data: GreenlandData, seat: int) -> GreenlandView:
    return GreenlandView(
        seat=seat,
        n_players=state.n_players,
        tribe=tuple(state.tribe),
        generation=state.generation,
        phase=state.phase,
        event=state.event,
        order=tuple(state.order),
        to_act=current(state) if state.phase not in (BID, OVER, SETUP) else -1,
        warm=(tuple(state.warm[0]), tuple(state.warm[1])),
        cold=(tuple(state.cold[0]), tuple(state.cold[1])),
        hostile=tuple(state.hostile),
        decks_left=(len(state.decks[0]), len(state.decks[1])),
        events_left=len(state.events),
        offer=state.offer,
        pool=tuple(state.pool),
        alpha=tuple(state.alpha),
        elders=tuple(tuple(e) for e in state.elders),
        hunters=tuple(dict(h) for h in state.hunters),
        colonists=tuple(dict(c) for c in state.colonists),
        husbands=tuple(dict(h) for h in state.husbands),
        placed=dict(state.placed[seat]),
        valhalla=tuple(state.valhalla),
        energy=tuple(state.energy),
        ivory=tuple(state.ivory),
        iron=tuple(state.iron),
        tableau=tuple(tuple(t) for t in state.tableau),
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        trophies=tuple(tuple(t) for t in state.trophies),
        religion=tuple(state.religion),
        alive=tuple(state.alive),
        won=tuple(state.won),
        used=tuple(state.used[seat]),
        moves=state.moves,
        dice=tuple(state.dice),
        rerolls=state.rerolls,
        roll_flags=state.flags,
        kills=state.kills,
        briber=state.attacker if state.bribe >= 0 else -1,
        offers_made=tuple(state.offers),
        cards_left=tuple(state.contests if state.phase == NEGOTIATE else state.left_cards),
        rules=dict(state.rules),
        data=data,
    )

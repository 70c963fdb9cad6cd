"""What one Graenaland seat may see (graenaland.txt:49, 77, 115, 182).

Public: the board (settlements, buildings, public buildings, heroes, armies), the face-up
resources at each territory and how many face-down cards lie there, the face-up supply cards,
hand sizes, deck sizes, every proposal and vote so far. Private: the seat's own resource cards
(including face-down cards it received, line 182) and supply cards. Simultaneous hero moves,
votes and contributions are applied together, so nobody sees another's choice before its own.
"""

from __future__ import annotations

from typing import NamedTuple

from sim.games.graenaland.board import Board
from sim.games.graenaland.building import hand_counts, markets_available, supply_pairs
from sim.games.graenaland.data import GraenalandData
from sim.games.graenaland.state import PALISADE, GraenalandState, ProposalRecord
from sim.games.graenaland.victory import goal_values_by_seat
from sim.games.graenaland.votes import votes_from


class GraenalandView(NamedTuple):
    """A read-only snapshot for one seat (tuples throughout)."""

    seat: int
    n_players: int
    round: int
    phase: int  # state.HEROES / PROPOSE / VOTE / BUILD / PAY / FEE / CONTRIBUTE / JOINT / RELOCATE
    main: int
    builder: int
    final: bool
    three: bool  # three-player adjustments in force
    villages: tuple[tuple[int, ...], ...]  # [territory][seat]
    buildings: tuple[tuple[int, ...], ...]  # [territory][fortress, church, hall] -> owner or -1
    public: tuple[tuple[bool, ...], ...]  # [territory][road, yield, market, palisade]
    cards: tuple[tuple[int, ...], ...]  # resources at each territory; -1 for a face-down card
    heroes: tuple[tuple[int, ...], ...]  # [seat][warrior, priest, skald] -> territory or -1
    waiting: tuple[tuple[int, ...], ...]
    army: tuple[int, ...]
    houses: tuple[int, ...]
    tokens: tuple[int, ...]
    votes: tuple[tuple[int, ...], ...]  # [territory][seat]
    goals: tuple[tuple[int, ...], ...]  # [seat] goal values (victory.goal_values)
    hand: tuple[int, ...]  # own resource cards (resource per card)
    hand_counts: tuple[int, ...]  # own cards per resource
    supplies: tuple[tuple[int, int], ...]  # own supply cards (sorted pairs)
    hand_sizes: tuple[int, ...]
    supply_counts: tuple[int, ...]
    supply_row: tuple[tuple[int, int], ...]
    supply_deck_size: int
    deck_sizes: tuple[int, ...]
    proposal: tuple | None  # (proposer, territory, receivers) being voted on
    voters: tuple[int, ...]
    vote_weights: tuple[int, ...]
    pending: tuple | None  # (kind, territory, index, remaining cost) of the build being paid
    supply_taken: bool
    joint_used: bool
    markets: int  # marketplaces the builder may still use this phase
    fee_to: tuple[int, ...]
    announcer: int
    history: tuple[ProposalRecord, ...]
    draft_cards: tuple[int, ...]  # face-down cards left at each territory during the custom start draft
    victory_card: tuple | None  # own victory point card's levels per goal (advanced rules), else None
    victory_offer: tuple[tuple, ...]  # levels of the three dealt cards while choosing one
    board: Board
    data: GraenalandData
    rules: dict


def view_of(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> GraenalandView:
    n = state.n_players
    resource = data.card_resource
    villages, buildings = tuple(map(tuple, state.villages)), tuple(map(tuple, state.buildings))
    public, heroes, army = tuple(map(tuple, state.public)), tuple(map(tuple, state.heroes)), tuple(state.army)
    face_up = resource.__getitem__
    cards = tuple([(tuple(map(face_up, pile)) if not any(hidden) else  # face-down cards show -1
                    tuple([-1 if down else resource[c] for c, down in zip(pile, hidden, strict=True)]))
                   if pile else () for pile, hidden in zip(state.cards, state.face_down, strict=True)])
    return GraenalandView(
        seat=seat, n_players=n, round=state.round, phase=state.phase, main=state.main, builder=state.builder,
        final=state.final, three=state.three, villages=villages, buildings=buildings, public=public,
        cards=cards,
        heroes=heroes, waiting=tuple(map(tuple, state.waiting)),
        army=army, houses=tuple(state.houses), tokens=tuple(state.tokens),
        votes=votes_from(state.three, villages, buildings, tuple([row[PALISADE] for row in public]), heroes,
                         army),
        goals=goal_values_by_seat(state, data),
        hand=tuple([resource[c] for c in state.hands[seat]]),
        hand_counts=hand_counts(state, data, seat), supplies=supply_pairs(state, data, seat),
        hand_sizes=tuple(map(len, state.hands)), supply_counts=tuple(map(len, state.supplies)),
        supply_row=tuple([tuple(sorted(data.supply_cards[c])) for c in state.supply_row]),  # type: ignore[misc]
        supply_deck_size=len(state.supply_deck), deck_sizes=tuple(map(len, state.decks)),
        proposal=state.proposal, voters=state.voters, vote_weights=state.vote_weights,
        pending=state.pending, supply_taken=state.supply_taken, joint_used=state.joint_used,
        markets=len(markets_available(state, seat)) if seat == state.builder else 0,
        fee_to=tuple(state.fee_queue), announcer=state.announcer, history=tuple(state.history),
        draft_cards=tuple(map(len, state.draft_cards)),
        victory_card=data.victory_cards[state.vp_card[seat]].levels if state.vp_card[seat] >= 0 else None,
        victory_offer=tuple(data.victory_cards[c].levels for c in state.vp_offer[seat]) if state.vp_offer
        else (),
        board=board, data=data, rules=dict(state.rules),
    )

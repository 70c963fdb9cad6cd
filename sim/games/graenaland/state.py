"""Graenaland's game state: plain lists, mutated in place by ``rules``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sim.game import copy_state as copy_fields

if TYPE_CHECKING:
    from sim.games.graenaland.data import GraenalandData

# Phases (graenaland.txt:56-61) and the decisions inside them.
HEROES, PROPOSE, VOTE, BUILD, PAY, FEE, CONTRIBUTE, JOINT, RELOCATE, OVER = range(10)
DRAFT, ANCHOR, CHOOSE_CARD, ANNOUNCE = range(10, 14)  # advanced rules (graenaland.txt:267-316)
PHASES = ("heroes", "propose", "vote", "build", "pay", "fee", "contribute", "joint", "relocate", "over",
          "draft", "anchor", "choose_card", "announce")
WARRIOR, PRIEST, SKALD = range(3)
HEROES_NAMES = ("warrior", "priest", "skald")
FORTRESS, CHURCH, HALL = range(3)
ROAD, YIELD, MARKET, PALISADE = range(4)

STATS = ("rounds_main", "proposals", "proposals_approved", "votes_cast", "votes_yes", "cards_received",
         "villages_built", "buildings_built", "army_built", "public_built", "joint_offered",
         "contributed", "supply_taken", "votes_settlements", "votes_heroes")


@dataclass(frozen=True)
class ProposalRecord:
    """One proposal and its vote, public to everyone (graenaland.txt:115)."""

    round: int
    proposer: int
    territory: int
    shares: tuple[int, ...]  # cards per seat
    yes: tuple[int, ...]  # seats voting yes
    no: tuple[int, ...]
    approved: bool


@dataclass
class GraenalandState:
    """Everything about one game. Decks are lists with the top card last."""

    n_players: int
    seed: int
    rules: dict
    three: bool  # three-player adjustments in force (graenaland.txt:243-249)
    villages: list[list[int]]  # [territory][seat]
    buildings: list[list[int]]  # [territory][FORTRESS/CHURCH/HALL] -> owner seat or -1
    public: list[list[bool]]  # [territory][ROAD/YIELD/MARKET/PALISADE]
    cards: list[list[int]]  # resource cards lying at each territory
    face_down: list[list[bool]]  # parallel to cards
    heroes: list[list[int]]  # [seat][WARRIOR/PRIEST/SKALD] -> territory or -1
    waiting: list[list[int]]  # [seat][hero] -> first church/hall where a priest/skald waits (an own hero
    # stood there when it was built) to enter, or -1
    army: list[int]
    hands: list[list[int]]  # resource card ids
    supplies: list[list[int]]  # supply card ids
    decks: list[list[int]]  # per terrain
    discards: list[list[int]]
    supply_deck: list[int]
    supply_row: list[int]
    supply_discard: list[int]
    houses: list[int]  # houses left
    tokens: list[int]  # public building tokens left, per kind
    rng: np.random.Generator
    round: int = 1
    main: int = 0
    phase: int = HEROES
    # distribution
    proposers: list[int] = field(default_factory=list)  # still to propose this round, in order
    proposal: tuple | None = None  # (proposer, territory, receivers)
    voters: tuple[int, ...] = ()
    vote_weights: tuple[int, ...] = ()
    # building
    builder: int = 0  # the seat building now
    final: bool = False  # a final building phase (graenaland.txt:233-237)
    final_queue: list[int] = field(default_factory=list)
    supply_taken: bool = False
    markets_used: list[int] = field(default_factory=list)
    joint_used: bool = False
    offer_active: bool = False  # the five-player offer's designated player is building
    pending: tuple | None = None  # (kind, territory, index) of the build being paid
    fee_queue: list[int] = field(default_factory=list)
    joint: tuple | None = None  # (public kind, territory)
    contributors: tuple[int, ...] = ()
    taken: dict = field(default_factory=dict)  # contributor -> resources taken (by type)
    relocate: tuple | None = None  # (hero, territory) offered after a second church/hall
    announcer: int = -1
    history: list[ProposalRecord] = field(default_factory=list)
    stats: dict[str, list[int]] = field(default_factory=dict)
    start_positions: list[tuple[int, int]] = field(default_factory=list)
    # advanced rules: the custom start draft (lines 267-277) and victory point cards (279-316)
    draft_queue: list[int] = field(default_factory=list)  # seats still to place a village, in order
    draft_cards: list[list[int]] = field(default_factory=list)  # face-down cards left at each territory
    settlers: list[list[int]] = field(default_factory=list)  # [territory] seats in the order they settled
    anchor: tuple | None = None  # (crowded territory, seats still to decide, in settling order)
    vp_offer: list[list[int]] = field(default_factory=list)  # victory cards dealt to each seat
    vp_card: list[int] = field(default_factory=list)  # the card each seat kept (-1: none)
    claims: list[int] = field(default_factory=list)  # victory points each seat can reach now
    # What the goals read (villages, buildings, army) changes only through ``board_changed``; the
    # goals of every seat are remembered, and a seat's are worked out again after its own change
    # (sim.games.graenaland.victory.goals_by_seat).  Both are immutable, so copies may share them.
    goals_memo: tuple | None = None  # (goal values, goals met, goals met counted; each per seat)
    goals_stale: frozenset[int] = frozenset()  # seats whose remembered goals no longer hold
    #: the component data, set by ``Game.new_state`` (``sim.game.GameBase``): read-only, shared by copies,
    #: never serialised (snapshots name its path)
    data: GraenalandData = field(init=False, repr=False, compare=False)

    def _repr_svg_(self) -> str:
        """The picture with everything shown, so a state displays itself in Jupyter."""
        from sim.games.graenaland.picture import picture

        return picture(self)


#: for ``sim.game.copy_state``: the fields holding lists (or dicts) of immutable values, and those holding
#: lists (or dicts) of such lists; every other field but ``rng`` and ``anchor`` is immutable
FLAT_FIELDS = ("rules", "army", "supply_deck", "supply_row", "supply_discard", "houses", "tokens",
               "proposers", "final_queue", "markets_used", "fee_queue", "taken", "history", "start_positions",
               "draft_queue", "vp_card", "claims")
NESTED_FIELDS = ("villages", "buildings", "public", "cards", "face_down", "heroes", "waiting", "hands",
                 "supplies", "decks", "discards", "stats", "draft_cards", "settlers", "vp_offer")


def copy_state(state: GraenalandState) -> GraenalandState:
    """An independent copy (``Graenaland.copy``): no list, dict or generator in common with ``state``."""
    new = copy_fields(state, FLAT_FIELDS, NESTED_FIELDS)
    if new.anchor is not None:  # (territory, seats still to decide): the list is popped from
        new.anchor = (new.anchor[0], list(new.anchor[1]))
    return new


def board_changed(state: GraenalandState, seat: int) -> None:
    """Call after changing ``seat``'s villages, buildings or army: its remembered goals no longer
    hold (a seat's goals read only its own pieces, graenaland.txt:223-231)."""
    state.goals_stale = state.goals_stale | {seat}

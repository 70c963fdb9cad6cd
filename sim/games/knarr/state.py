"""Knarr's game state: plain lists, mutated in place by ``rules``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from sim.games.knarr.data import KnarrData

# Phases.
TURN, DISCARD, BONUS, OVER = 0, 1, 2, 3
PHASES = ("turn", "discard", "bonus", "over")

#: Artifact cards (knarr.md A.7), in this order.
ARTIFACTS = ("amulet", "weathervane", "golden_bracelet", "cauldron", "helmet", "mead_cup", "silver_coins")
AMULET, WEATHERVANE, GOLDEN_BRACELET, CAULDRON, HELMET, MEAD_CUP, SILVER_COINS = range(7)

STATS = (
    "recruits_played",
    "explores",
    "trades",
    "bracelets_traded",
    "buildings_bought",
    "raids_won",
    "raids_lost",
    "passes",
)


class Option(NamedTuple):
    """One decision. ``kind`` is one of KINDS.

    recruit: a = Viking card id played, b = board slot taken (-1: none, the slot of its colour is empty).
    explore: a = destination slot (0-2 Trading Lands, 3-5 Lands of Influence, 6+ reserved), b = destination
             index, pay = cards discarded per colour (R, Y, G, B, P) then recruits spent, cards = the crew
             Vikings discarded (ruling R4: the player chooses them; one option per distinct set of assets
             left behind, the representative cards being the last placed of each asset).
    trade: a = bracelets spent (1-3).  develop: a = Building display slot.  renew: pay = display slots.
    discard: a = colour, b = the crew Viking discarded (deck exhaustion; ruling R4 as for explore).
    reserve: a = destination slot.  swap: a = board slot replaced (Mead Cup).
    cover: a = index into own destinations (Helmet, ``--rule helmet=cover``).
    end: end the turn.  pass: no action is possible.  skip: decline an artifact bonus.
    """

    kind: str
    a: int = -1
    b: int = -1
    pay: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()


KINDS = (
    "recruit",
    "explore",
    "trade",
    "develop",
    "renew",
    "end",
    "pass",
    "discard",
    "reserve",
    "swap",
    "cover",
    "skip",
)
END = Option("end")
PASS = Option("pass")
SKIP = Option("skip")


@dataclass
class KnarrState:
    """Everything about one game. Decks are lists whose last element is the top card."""

    n_players: int
    seed: int
    rules: dict
    rng: np.random.Generator
    deck: list[int]
    discard: list[int]
    board: list[int]  # 5 slots (R, Y, G, B, P); -1 empty
    hands: list[list[int]]
    crews: list[list[list[int]]]  # seat -> colour -> cards in the order played
    vp: list[int]
    rep: list[int]
    recruits: list[int]
    bracelets: list[int]
    deck_a: list[int]  # destination indices
    deck_b: list[int]
    visible: list[int]  # 0-2 Trading Lands, 3-5 Lands of Influence; -1 empty
    owned: list[list[int]]  # destination indices in the order explored
    covered: list[list[int]] = field(default_factory=list)  # destinations covered by a Helmet placement
    # expansion
    coins: list[int] = field(default_factory=list)
    raids: list[int] = field(default_factory=list)
    raid_board: int = 0
    raid_reserve: int = 0
    building_deck: list[int] = field(default_factory=list)
    display: list[int] = field(default_factory=list)
    buildings: list[list[int]] = field(default_factory=list)
    renewal: list[bool] = field(default_factory=list)
    # artifacts
    artifacts: tuple[int, ...] = ()
    reserved: list[list[int]] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)  # pending artifact decisions of the current player
    # turn
    current: int = 0
    round: int = 1
    phase: int = TURN
    acted: bool = False
    traded: bool = False
    developed: bool = False
    end_triggered: bool = False
    pending_refill: list[int] = field(default_factory=list)  # board slots waiting for a card
    resume: int = TURN
    stats: dict[str, list[int]] = field(default_factory=dict)
    raid_log: list[tuple[int, ...]] = field(default_factory=list)  # (round, seat, most?, fewest?) per raid
    #: ``(seat, options)`` from the last ``Knarr.legal_options`` call, dropped by every ``rules.apply``:
    #: lets ``apply`` check the choice against that list rather than enumerate the options again (not
    #: part of the game: neither serialised nor copied)
    legal: tuple[int, list[Option]] | None = None
    #: the component data, set by ``Game.new_state`` (``sim.game.GameBase``): read-only, shared by copies,
    #: never serialised (snapshots name its path)
    data: KnarrData = field(init=False, repr=False, compare=False)

    def _repr_svg_(self) -> str:
        """The picture of the whole state (``sim.games.knarr.picture``): a state shows itself in Jupyter."""
        from sim.games.knarr.picture import picture

        return picture(self)

"""Greenland's game state: plain lists and dicts, mutated in place by ``rules``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from sim.games.greenland.data import GreenlandData

# Phases (greenland-third-edition.txt:22-27); BID is the trade-ship auction inside the event phase.
EVENT, BID, ASSIGN, SUNSTONE, NEGOTIATE, HUNT, DOMESTIC, ELDER, OVER, SETUP = range(10)
PHASES = ("event", "bid", "assign", "sunstone", "negotiate", "hunt", "domestic", "elder", "over", "setup")
POLY, MONO = 0, 1
#: a tableau card as a place for Guards and Raiders: TPLACE + its id (biome cards are the ids below)
TPLACE = 1000
#: a marriage offer in a bribe: MARRY + the daughter card
MARRY = 100
#: a card offered in a bribe: CARD + a hand card, or an Invention or Domestic Animal card of the tableau
CARD = 200
#: ``GreenlandState.alpha``: ALPHA_POOL (unassigned), ALPHA_DEAD, a place (a biome card: a Hunter, a colonist
#: for good on a New World card; TPLACE + a tableau card: a Guard or Raider), ALPHA_ELDER - rank once promoted
#: (line 51) or ALPHA_HUSBAND - daughter card once married (line 61); promoted or married it is counted in
#: ``elders`` / ``husbands`` like any tribesman there (line 55 'It is treated as a tribesman', ruling G20)
ALPHA_POOL, ALPHA_DEAD, ALPHA_ELDER, ALPHA_HUSBAND = -1, -2, -3, -100


def alpha_rank(alpha: int) -> int:
    """The elder rank of a promoted Alpha (an ``alpha`` value of ALPHA_ELDER - rank), else -1."""
    return ALPHA_ELDER - alpha if ALPHA_HUSBAND < alpha <= ALPHA_ELDER else -1


def alpha_bride(alpha: int) -> int:
    """The daughter card whose Husband a married Alpha is (ALPHA_HUSBAND - card), else -1."""
    return ALPHA_HUSBAND - alpha if alpha <= ALPHA_HUSBAND else -1


STATS = (
    "hunts",
    "hunts_won",
    "hunters_killed",
    "babies",
    "promotions",
    "colonists_sent",
    "attacks",
    "kills_inflicted",
    "withdrawals",
    "iron_spent",
    "elder_actions",
    "bred",
    "imports_won",
    "event_losses",
    "starved",
    "raids",
    "raids_won",
    "guards",
    "bribes",
    "bribes_taken",
    "tabled",
    "discarded",
    "generation_died",
)


class Option(NamedTuple):
    """One decision. ``kind`` is one of KINDS.

    hunt: a = biome card (a colonist on a New World card).
    guard / raid: a = TPLACE + tableau card (lines 52-53).  promote: a = rank index 0-5.
    alpha: a = where the Alpha goes, as a tribesman would (line 55): a biome card (a colonist on a New World
    card), TPLACE + tableau card (a Guard or Raider) or -1 - rank (a promotion).
    done: nothing more this phase.
    move: a = from card, b = to card, or -1 - rank for a promotion; c = 1 the Alpha (sun-stone, line 54).
    stay / withdraw: a = contested card.
    attack: a = card, b = target seat.  defend: a = card, b = 1 to spend iron (iron rule), c = attacker.
    roll: a = card, b = flags (1 use the Alpha's automatic hit, 2 spend iron to cancel casualties).
    reroll: a = card, b = the face of the die to roll again (line 71).  keep: a = card, the dice are final.
    casualty: a = card, b = 1 the Alpha is among the dead, 0 it is spared (line 62, ruling G10).
    pick: a = the card negotiated (phase F, line 32) or hunted (phase G, line 33) next.
    bid: a = ivory bid.  breed: a = tableau card, c = rank of the elder spent (-1 none).
    pacify: a = New World card.  elder: a = rank index, b = action index, c = target (animal card / rank).
    bribe: a = contested card, b = the tribe asked to leave, c = the offer: 10 * disc + amount (disc 0 energy,
    1 ivory, 2 iron), MARRY + one's own unmarried daughter card, or CARD + a hand card or an Invention or
    Domestic Animal card of one's tableau (line 59).  counter: a = card, c = what the asked tribe wants
    instead (from the briber's discs, daughters and tableau).
    accept / refuse: a = card, c = the offer (or the counter-offer).
    table: a = a hand card put into the tableau (phase I, 'table_energy').
    convert: flip the placard to monotheism.  animal: a = the starting farm animal card (set-up, line 13).
    """

    kind: str
    a: int = -1
    b: int = -1
    c: int = -1


KINDS = (
    "animal",
    "hunt",
    "guard",
    "raid",
    "alpha",
    "promote",
    "done",
    "move",
    "stay",
    "withdraw",
    "attack",
    "defend",
    "roll",
    "reroll",
    "keep",
    "casualty",
    "pick",
    "bribe",
    "counter",
    "accept",
    "refuse",
    "bid",
    "breed",
    "pacify",
    "elder",
    "table",
    "convert",
)
DONE = Option("done")


@dataclass
class GreenlandState:
    """Everything about one game. Decks are lists whose last element is the top card."""

    n_players: int
    seed: int
    rules: dict
    rng: np.random.Generator  # after setup, only dice are drawn from it (rules.peek_dice)
    tribe: list[int]  # seat -> tribe index (sim.games.greenland.data.TRIBES)
    events: list[int]
    decks: list[list[int]]  # North, South biome decks
    warm: list[list[int]]  # per row, index 0 nearest the deck (line 11)
    cold: list[list[int]]  # per row, index 0 nearest the deck
    inventions: list[int]
    imports: list[int]
    # tribes, by seat
    pool: list[int]
    alpha: list[int]  # ALPHA_POOL, ALPHA_DEAD, a place, ALPHA_ELDER - rank or ALPHA_HUSBAND - daughter
    elders: list[list[int]]  # seat -> 6 ranks
    hunters: list[dict[int, int]]  # this generation's Hunters per card (not colonists)
    colonists: list[dict[int, int]]
    placed: list[dict[int, int]]  # tribesmen sent to each card this generation (transport)
    valhalla: list[int]
    #: the tribe's tribesmen in all (line 14: 18), more only when babies do not come from Valhalla; a seat's
    #: living tribesmen are these less the ones in Valhalla (``rules.population``)
    pieces: list[int]
    energy: list[int]
    ivory: list[int]
    iron: list[int]
    tableau: list[list[int]]
    trophies: list[list[int]]
    religion: list[int]
    alive: list[bool]
    hostile: list[int] = field(default_factory=list)  # New World cards on the hostile side
    gone: list[int] = field(default_factory=list)  # biome cards that left the game (migration)
    hands: list[list[int]] = field(default_factory=list)  # seat -> hand cards (line 59), hidden from others
    discards: list[int] = field(default_factory=list)  # hand cards discarded over the hand size
    husbands: list[dict[int, int]] = field(
        default_factory=list
    )  # seat -> {foreign daughter: husbands} (line 61)
    # flow
    generation: int = 1
    phase: int = EVENT
    event: int = -1
    icon: int = 0  # next icon of the event card to apply
    order: list[int] = field(default_factory=list)  # player order of phases 1, 2, 5 (line 31)
    idx: int = 0  # position in the phase's order
    moves: int = 0  # sun-stone moves made by the current seat
    offer: int = -1  # import being auctioned
    contests: list[int] = field(default_factory=list)  # contested cards (phase F), in row order
    contest: int = 0
    stage: int = 0  # 0 withdraw, 1 attack
    queue: list[int] = field(default_factory=list)  # seats still to decide on this card, in iron order
    target: int = -1  # attacked seat awaiting its defend decision
    attacker: int = -1
    bribe: int = -1  # the offer awaiting the target's answer (Option.c of a bribe), -1 none
    counter: int = -1  # the target's counter-offer awaiting the briber's answer, -1 none
    offers: list[int] = field(default_factory=list)  # offers made per seat on the card negotiated now
    hunts: list[tuple[int, int]] = field(default_factory=list)  # (card, seat): the card hunted now (line 33)
    lead: int = -1  # picks the next card: most iron (F, line 32), the first player (G, line 33)
    left_cards: list[int] = field(default_factory=list)  # cards still to negotiate (F) or hunt (G), row order
    faces: list[int] = field(default_factory=list)  # die faces drawn ahead, next first (rules.peek_dice)
    dice: list[int] = field(default_factory=list)  # the pending hunt roll's dice, as they lie now (G9)
    rerolls: int = -1  # re-rolls still to use on the pending roll; -1 no roll pending
    flags: int = 0  # the pending roll's flags (Option roll b)
    kills: int = -1  # casualties awaiting the chooser's decision (G10); -1 none
    killer: int = -1  # the seat choosing them (the victim, or a War Party's attacker)
    victim: int = -1
    won: list[int] = field(default_factory=list)  # cards successfully hunted this generation
    used: list[list[int]] = field(default_factory=list)  # elder actions used per seat and rank
    bred: list[list[int]] = field(default_factory=list)  # tableau cards used in phase H
    converted: list[int] = field(default_factory=list)  # generation of conversion, -1 never
    stats: dict[str, list[int]] = field(default_factory=dict)
    log: list[tuple[int, ...]] = field(default_factory=list)  # (generation, event) per event drawn
    #: every seat's score as floats while no score input has changed since (``rules.current_scores``)
    score_memo: list[float] | None = None
    #: the component data, set by ``Game.new_state`` (``sim.game.GameBase``): read-only, shared by copies,
    #: never serialised (snapshots name its path)
    data: GreenlandData = field(init=False, repr=False, compare=False)

    def _repr_svg_(self) -> str:
        """The state as a picture, everything shown (``greenland.picture``): Jupyter displays it."""
        from sim.games.greenland.picture import picture

        return picture(self)

"""What a Greenland picture may show: the seat's view (``view.view_of``) and the few open facts of
the table the view leaves out, and, for the all-shown picture only, every secret.

A seat's picture is drawn from ``Shown`` alone, and ``Shown`` of a seat is built from ``view_of`` plus what
``hidden.py`` keeps because it was done in the open (the card negotiated or hunted now, the pending bribe
and counter-offer, line 59 'you can initiate negotiations'); so the picture cannot show more than the view.
Hidden from a seat (greenland-third-edition.txt): the order of the event deck (line 9 'face-down, shuffled
deck'), of the biome decks (line 10), of the Invention and Import decks, and the cards in another tribe's
hand (only how many, ruling G19).  The scores are public: population, Trophies, iron, ivory and the
tableau are all on the table, and a hand card scores nothing until tabled (ruling G19).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from sim.games.greenland.data import TRIBES, GreenlandData
from sim.games.greenland.scoring import scores
from sim.games.greenland.state import CARD, HUNT, MARRY, NEGOTIATE, TPLACE, GreenlandState
from sim.games.greenland.view import GreenlandView, view_of

#: the tribes' names as the rulebook writes them (line 5: 'Tunit, Norse, Sea Sámi, and Thule')
TRIBE_NAMES = {"tunit": "Tunit", "norse": "Norse", "sami": "Sea Sámi", "thule": "Thule"}
#: each phase's name and rulebook letter (lines 22-27), in ``state.PHASES`` order
PHASE_NAMES = (
    "event (D)",
    "trade-ship auction (D)",
    "hunter assignment (E)",
    "Sun Stone reassignment (E)",
    "negotiate and attack (F)",
    "roll for hunt (G)",
    "domestic animals (H)",
    "elder actions (I)",
    "game over",
    "set-up",
)
DISC_NAMES = ("energy", "ivory", "iron")


class Shown(NamedTuple):
    """Everything a picture draws."""

    view: GreenlandView  # the table as the seat sees it (seat 0's view when everything is shown)
    seat: int | None  # whose picture; None: everything shown
    hands: tuple[tuple[int, ...] | None, ...]  # each seat's hand cards, None where hidden (only its size)
    scores: tuple[int, ...]
    now: int  # the card negotiated or hunted now (a biome card or TPLACE + a tableau card), -1 none
    pending: str  # the bribe or counter-offer awaiting an answer, in words ('' none)
    secrets: tuple[str, ...]  # the hidden deck orders in words (everything shown only)


def tribe_name(data: GreenlandData, tribe: int) -> str:
    name = data.tribes[tribe].name
    return TRIBE_NAMES.get(name, name.capitalize())


def seat_name(view: GreenlandView, seat: int) -> str:
    """'seat 2 (Thule)'."""
    return f"seat {seat} ({tribe_name(view.data, view.tribe[seat])})"


def tcard_name(data: GreenlandData, card: int) -> str:
    """A tableau card's name as printed: 'Dog Sled', 'Cattle', 'Sea Sámi daughter 2'."""
    t = data.tcards[card]
    if t.kind == "daughter":
        return f"{TRIBE_NAMES.get(TRIBES[t.tribe], t.name)} daughter{t.name.rpartition(' daughter')[2]}"
    return t.name[:1].upper() + t.name[1:]


def place_name(data: GreenlandData, place: int) -> str:
    """A place tribesmen stand on: a biome card's name, or a tableau card's ('the Cattle card')."""
    if place >= TPLACE:
        return f"the {tcard_name(data, place - TPLACE)} card"
    return data.biomes[place].name


def offer_words(data: GreenlandData, code: int) -> str:
    """A bribe's offer (``Option.c``, line 59): '2 ivory', 'Tunit daughter 1 in marriage', 'the Kayak
    card'."""
    if code >= CARD:
        return f"the {tcard_name(data, code - CARD)} card"
    if code >= MARRY:
        return f"{tcard_name(data, code - MARRY)} in marriage"
    return f"{code % 10} {DISC_NAMES[code // 10]}"


def _pending(state: GreenlandState, view: GreenlandView) -> str:
    """The offer awaiting an answer on the contested card (line 59, ruling G23): made at the table."""
    if state.bribe < 0 or state.attacker < 0 or state.target < 0:
        return ""
    data, card = view.data, place_name(view.data, state.contest)
    briber, target = seat_name(view, state.attacker), seat_name(view, state.target)
    text = f"{briber} asks {target} to leave {card} for {offer_words(data, state.bribe)}"
    if state.counter >= 0:
        text += f"; {target} asks {offer_words(data, state.counter)} instead"
    return text


def _now(state: GreenlandState) -> int:
    if state.phase == NEGOTIATE:
        return state.contest
    if state.phase == HUNT and state.hunts:
        return state.hunts[min(state.idx, len(state.hunts) - 1)][0]
    return -1


def _secrets(state: GreenlandState) -> tuple[str, ...]:
    """Every hidden order, top card first (a deck's last element is its top card)."""
    data = state.data

    def names(cards: list[int], name: Callable[[int], str]) -> str:
        return ", ".join(str(name(c)) for c in reversed(cards)) or "none"

    return (
        f"event deck, top first: {names(state.events, lambda e: data.events[e].name)}",
        f"North deck: {names(state.decks[0], lambda c: data.biomes[c].name)}",
        f"South deck: {names(state.decks[1], lambda c: data.biomes[c].name)}",
        f"Invention deck: {names(state.inventions, lambda c: tcard_name(data, c))}; "
        f"Import deck: {names(state.imports, lambda c: tcard_name(data, c))}; "
        f"discarded: {names(state.discards, lambda c: tcard_name(data, c))}",
    )


def shown(state: GreenlandState, seat: int | None) -> Shown:
    """What the picture of ``state`` for ``seat`` (None: everyone) draws (see the module docstring)."""
    data = state.data
    view = view_of(state, data, 0 if seat is None else seat)
    if seat is None:
        hands: tuple[tuple[int, ...] | None, ...] = tuple(tuple(h) for h in state.hands)
    else:
        hands = tuple(view.hand if s == seat else None for s in range(state.n_players))
    return Shown(
        view=view,
        seat=seat,
        hands=hands,
        scores=tuple(scores(state, data)),
        now=_now(state),
        pending=_pending(state, view),
        secrets=_secrets(state) if seat is None else (),
    )

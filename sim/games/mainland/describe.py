"""Mainland's choices in words (``sim.picture.describe``): ``describe(state, seat, option)``,
read before the option is applied, names the cards (the data file's ``id``), their items, the rotation,
the place and what the card covers.

The option kinds are ``state.KINDS``: the camp (line 67), keeping the hand or replacing a card (step 1,
line 91), the clan gathering (line 143), placing a card (step 2, line 93) and passing (lines 137, 239).
A replaced card goes face up to the discard pile (ruling R9), so it is named; the card drawn in its place
is the deck's secret (line 79) and is not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.mainland.items import EMPTY, ITEMS
from sim.games.mainland.state import GATHER, KEEP, PASS, PLACE_CAMP, PLACE_CARD, REPLACE, MainlandState


def card_words(state: MainlandState, card: int) -> str:
    """``card`` by name with its items as printed: "wheat-a (wheat, wheat / plain, plain)"."""
    return f"{state.data.card_ids[card]} {items_words(state, card)}"


def items_words(state: MainlandState, card: int) -> str:
    """``card``'s items as printed: "(wheat, wheat / plain, plain)" (top-left, top-right / bottom-left,
    bottom-right)."""
    tl, tr, bl, br = (ITEMS[i] for i in state.data.rotations[card, 0].tolist())
    return f"({tl}, {tr} / {bl}, {br})"


def describe(state: MainlandState, seat: int, option: Any) -> str:
    """What ``seat`` does by choosing ``option`` (an option row: kind, hand index, rotation, row, col)."""
    kind, index, rot, r, c = (int(v) for v in np.asarray(option).tolist()[:5])
    who = f"seat {seat}"
    if kind == PLACE_CAMP:
        card = state.data.camp_card
        return f"{who} places the camp card {items_words(state, card)}{_where(state, card, rot, r, c)}"
    if kind == PLACE_CARD:
        card = state.hands[seat][index]
        return f"{who} places card {card_words(state, card)}{_where(state, card, rot, r, c)}"
    if kind == KEEP:
        return f"{who} keeps the hand of {len(state.hands[seat])} cards and goes on to place a card"
    if kind == REPLACE:
        card = state.hands[seat][index]
        return (f"{who} discards card {card_words(state, card)} face up and takes the top card of the deck"
                f" ({len(state.decks[seat]) - 1} left there) in its place")
    if kind == GATHER:
        cards = len(state.hands[seat]) + len(state.decks[seat]) + len(state.discards[seat])
        return (f"{who} gathers the clan: hand, deck and discard pile ({cards} cards) shuffled, a new hand "
                f"drawn, the turn over{_token(state, seat)}")
    if kind == PASS:
        return f"{who} passes{_token(state, seat)}"
    raise ValueError(f"not a Mainland option kind: {kind} in {option!r}")


def _where(state: MainlandState, card: int, rot: int, r: int, c: int) -> str:
    """", rotated 90°, at row 5, col 7, on 3 empty tiles and its wheat covering seat 1's
    plain"."""
    turn = f"rotated {90 * rot}°" if rot else "unrotated"
    layout = state.data.rotations[card, rot].tolist()
    covered = []
    empty = 0
    for j in range(4):
        rr, cc = r + j // 2, c + j % 2
        item = int(state.items[rr, cc])
        if item == EMPTY:
            empty += 1
        else:
            covered.append(f"its {ITEMS[layout[j]]} covering seat {int(state.owner[rr, cc])}'s {ITEMS[item]}")
    on = [f"on {empty} empty tile{'s' if empty != 1 else ''}"] if empty else []
    return f", {turn}, at row {r}, col {c}, " + _and(on + covered)


def _and(parts: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _token(state: MainlandState, seat: int) -> str:
    """The chieftain token it costs (lines 137, 143): ", losing a chieftain token (3 left)"."""
    left = state.tokens[seat] - 1
    end = ": the seat's game is over (line 73)" if left <= 0 else f" ({left} left)"
    return f", losing a chieftain token{end}"

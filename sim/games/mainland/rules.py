"""Mainland's turn structure: setup, the options of each step, and applying a choice.

Rulebook: ../shared/rules/mainland.txt.  A seat's turn is two decisions: the start of the
turn (keep the hand, replace a card with the top of the deck — step 1, line 89 — or the
clan gathering, line 143), then the placement (step 2, line 93) or a pass (line 137, 239).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from sim.errors import IllegalChoice
from sim.games.mainland import kernels, packed
from sim.games.mainland.data import MainlandData
from sim.games.mainland.items import N_ITEMS, overlay_matrix, requirement_pairs
from sim.games.mainland.state import (
    CAMP,
    GATHER,
    KEEP,
    OVER,
    PASS,
    PLACE,
    PLACE_CAMP,
    PLACE_CARD,
    REPLACE,
    START,
    MainlandState,
)

ALLOWED = overlay_matrix()
COVER = kernels.cover_masks(ALLOWED)  # the overlay table as bit masks, for the placement kernels
REQ_PAIRS = requirement_pairs()
STATS = ("placements", "passes", "forced_passes", "replaces", "gatherings")


def shuffled(rng: np.random.Generator, cards: Sequence[int]) -> list[int]:
    """``cards`` in a random order from ``rng`` (one permutation draw: much cheaper than
    shuffling a Python list in place, which swaps element by element)."""
    return np.asarray(cards, dtype=np.int64)[rng.permutation(len(cards))].tolist()


def new_game(data: MainlandData, n_players: int, rules: dict, seed: int) -> MainlandState:
    """Set up (lines 53-79): empty board within the limits, shuffled decks, 5-card hands, 6 tokens."""
    rows, cols = data.board[n_players]
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    decks = [shuffled(rng, data.deck_cards) for _ in range(n_players)]
    hands = [deck[: data.hand_size] for deck in decks]
    decks = [deck[data.hand_size :] for deck in decks]
    state = MainlandState(
        n_players=n_players,
        seed=seed,
        rules=dict(rules),
        items=np.zeros((rows, cols), dtype=np.int8),
        owner=np.full((rows, cols), -1, dtype=np.int8),
        counts=np.zeros((n_players, N_ITEMS), dtype=np.int64),
        hands=hands,
        decks=decks,
        discards=[[] for _ in range(n_players)],
        tokens=[data.tokens] * n_players,
        rng=rng,
        stats={name: [0] * n_players for name in STATS},
    )
    set_scores(state, kernels.score_board(state.items, state.owner, n_players, data.points))
    return state


def set_scores(state: MainlandState, scores: np.ndarray) -> None:
    """Store a fresh ``kernels.score_board`` result, read-only: views hand it out as it is."""
    scores.flags.writeable = False
    state.scores = scores
    state.totals = scores[:, 0].tolist()


def placements(state: MainlandState, data: MainlandData, seat: int, cards: np.ndarray) -> np.ndarray:
    """Legal ``(hand_index, rotation, row, col)`` for ``cards`` (the camp card in the camp phase)."""
    return kernels.legal_placements(
        state.items, state.owner, state.counts, seat, cards, data.rotations, data.unique_rotation,
        data.is_castle_card, COVER, REQ_PAIRS, bool(state.rules["castle_needs_overlap"]),
        state.phase == CAMP, bool(state.rules["card_meets_own_requirements"]),
    )


@lru_cache(maxsize=64)
def _start_options(replaceable: int) -> np.ndarray:
    """Keep; replace hand card i (step 1 needs a first card of the deck, line 91); gather
    (line 143; offered even with one token, line 241)."""
    rows = [(KEEP, 0, 0, 0, 0)] + [(REPLACE, i, 0, 0, 0) for i in range(replaceable)]
    rows.append((GATHER, 0, 0, 0, 0))
    table = np.array(rows, dtype=np.int16)
    table.flags.writeable = False  # shared by every call: handed out as it is, read-only
    return table


def options(state: MainlandState, data: MainlandData, seat: int) -> np.ndarray:
    """The seat's options now, as int16 rows (kind, hand_index, rotation, row, col)."""
    if state.phase == START:
        return _start_options(len(state.hands[seat]) if state.decks[seat] else 0)
    if state.phase == CAMP:
        return packed.options_rows(state.items, state.owner, state.counts, seat,
                                   np.array([data.camp_card], dtype=np.int64), spec_of(state, data), True)
    rows = packed.options_rows(state.items, state.owner, state.counts, seat,
                               np.array(state.hands[seat], dtype=np.int64), spec_of(state, data), False)
    state.placeable = (state.applied, seat, len(rows) - 1)
    return rows


def spec_of(state: MainlandState, data: MainlandData) -> np.ndarray:
    """The state's ``packed.spec`` (made on first use: the data and rule switches of a game never
    change)."""
    spec = state.spec
    if spec is None:
        spec = state.spec = packed.spec(data, COVER, REQ_PAIRS, ALLOWED, state.rules)
    return spec


def _illegal(state: MainlandState, seat: int, option: np.ndarray, why: str) -> IllegalChoice:
    return IllegalChoice(f"seat {seat} option {tuple(int(x) for x in option)} in phase "
                         f"{('camp', 'start', 'place', 'over')[state.phase]}: {why}", seat=seat)


def apply(state: MainlandState, data: MainlandData, seat: int, option: np.ndarray) -> None:
    """Apply one option for the seat to move, validating it against the rules."""
    if seat != state.current or state.phase == OVER:
        raise _illegal(state, seat, option, f"it is seat {state.current}'s turn")
    kind, index, rot, r, c = option.tolist()[:5]
    placeable = state.placeable
    state.applied += 1
    hand = state.hands[seat]
    if state.phase == CAMP:
        if kind != PLACE_CAMP:
            raise _illegal(state, seat, option, "the first card played is the camp (line 67)")
        _place(state, data, seat, option, data.camp_card, rot, r, c, camp=True)
        _next_seat(state)
        return
    if state.phase == START:
        if kind == KEEP:
            state.phase = PLACE
        elif kind == REPLACE:
            if not state.decks[seat] or not 0 <= index < len(hand):
                raise _illegal(state, seat, option, "replace needs a card in hand and a deck (line 91)")
            state.discards[seat].append(hand.pop(index))
            hand.append(state.decks[seat].pop(0))
            state.stats["replaces"][seat] += 1
            state.phase = PLACE
        elif kind == GATHER:
            _gather(state, data, seat)
            _lose_token(state, seat)
            _next_seat(state)
        else:
            raise _illegal(state, seat, option, "a turn starts with keep, replace or gather")
        return
    if kind == PASS:
        if placeable is not None and placeable[0] == state.applied - 1 and placeable[1] == seat:
            forced = placeable[2] == 0  # counted by ``options`` for this very decision
        else:
            forced = len(options_placements_exist(state, data, seat)) == 0
        state.stats["forced_passes" if forced else "passes"][seat] += 1
        _lose_token(state, seat)
        _next_seat(state)
        return
    if kind != PLACE_CARD or not 0 <= index < len(hand):
        raise _illegal(state, seat, option, "step 2 places a card from the hand or passes")
    _place(state, data, seat, option, hand[index], rot, r, c, camp=False)
    hand.pop(index)
    if state.decks[seat]:  # step 3 (line 131); an empty deck leaves the hand short
        hand.append(state.decks[seat].pop(0))
    state.stats["placements"][seat] += 1
    _next_seat(state)


def options_placements_exist(state: MainlandState, data: MainlandData, seat: int) -> np.ndarray:
    """Legal placements of the seat's hand (empty: the seat can only pass, line 135)."""
    return placements(state, data, seat, np.array(state.hands[seat], dtype=np.int64))


def _place(state: MainlandState, data: MainlandData, seat: int, option: np.ndarray, card: int, rot: int,
           r: int, c: int, camp: bool) -> None:
    why, scores = packed.place_checked(state.items, state.owner, state.counts, seat, card, rot, r, c,
                                       spec_of(state, data), camp)
    if why == packed.BAD_ROTATION:
        first = [k for k in range(4) if data.unique_rotation[card, k]]
        why = f"rotation {rot} is not one of the card's distinct rotations {first}"
        raise _illegal(state, seat, option, why)
    if why:
        raise _illegal(state, seat, option, kernels.REASONS[why])
    set_scores(state, scores)


def _gather(state: MainlandState, data: MainlandData, seat: int) -> None:
    """Clan gathering (line 143): hand, deck and discards shuffled together, draw 5."""
    cards = shuffled(state.rng, sorted(state.hands[seat] + state.decks[seat] + state.discards[seat]))
    state.hands[seat] = cards[: data.hand_size]
    state.decks[seat] = cards[data.hand_size :]
    state.discards[seat] = []
    state.stats["gatherings"][seat] += 1


def _lose_token(state: MainlandState, seat: int) -> None:
    """Passing or gathering costs a chieftain token (lines 137, 143, 239)."""
    state.tokens[seat] -= 1


def _next_seat(state: MainlandState) -> None:
    """Clockwise to the next seat that still has tokens (line 63, 137); the game ends when none has."""
    n = state.n_players
    if state.phase == CAMP:
        if state.current + 1 < n:
            state.current += 1
            return
        state.current, state.round = n - 1, 0  # camps done: the first turn goes to seat 0
    for step in range(1, n + 1):
        seat = (state.current + step) % n
        if state.tokens[seat] > 0:
            if seat <= state.current or state.round == 0:
                state.round += 1
            state.current = seat
            state.phase = START
            return
    state.phase = OVER

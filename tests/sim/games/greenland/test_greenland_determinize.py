"""Greenland's ``determinize`` (``sim.games.greenland.hidden``): what a seat sees is kept, what it
cannot see (the event, biome, Invention and Import decks, the other hands, ruling G19; the dice not rolled
yet) is drawn again from the generator alone; the result is a legal state that plays on to the end,
conserves every component, and ``ismcts`` can search it.

States come from seeded random games of every player count and several rule sets, taken every few decisions
and at every decision of the rarer phases (the trade-ship auction, line 22; set-up, line 13; the Sun Stone,
line 54) and wherever a bribe awaits its answer (line 59).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np
import pytest

from sim.games.greenland.hidden import determinize
from sim.games.greenland.state import (
    ASSIGN,
    BID,
    CARD,
    DOMESTIC,
    ELDER,
    HUNT,
    NEGOTIATE,
    SETUP,
    SUNSTONE,
    GreenlandState,
)
from tests.greenland_kit import GAME, choices, rare, seeded_games
from tests.play_kit import (
    check_generator_draws,
    check_information_only,
    check_input_unchanged,
    check_unseen_changes,
    check_view_kept,
    play_out,
    search_picks,
)

#: (rules, seeds, whether the auction is always bid high): the last reaches the Sun Stone (line 54: Import 24)
RULE_SETS = (
    ({}, range(4), False),
    ({"upkeep": "none"}, (13,), True),
    ({"advanced": False, "bribes": False, "conversion": "any"}, range(2), False),
)
EVERY = 5  # a state kept every EVERY decisions (besides those of the rarer phases and pending bribes)


def _play_out(state: GreenlandState, rng: np.random.Generator, cap: int = 6000) -> int:
    """Random play to the end; the number of decisions it took."""
    return play_out(GAME, state, rng, cap, choices)


@functools.lru_cache(maxsize=1)
def _states() -> tuple[GreenlandState, ...]:
    """Snapshots of seeded random games: every player count, several rule sets, every phase but OVER."""
    kept = []
    for state, rng, bid_high in seeded_games(RULE_SETS):
        step = 0
        while not GAME.is_terminal(state):
            if step % EVERY == 0 or rare(state):
                kept.append(GAME.copy(state))
            GAME.apply(state, choices(state, rng, bid_high))
            step += 1
    return tuple(kept)


def _cases() -> list[tuple[int, GreenlandState, int]]:
    """(index, state, seat) for every kept state and every seat."""
    return [(i, s, seat) for i, s in enumerate(_states()) for seat in range(s.n_players)]


def _inventions(state: GreenlandState) -> list[int]:
    kind = state.data.tcards
    cards = [*state.inventions, *state.discards, *(c for h in state.hands for c in h)]
    return sorted(cards + [c for t in state.tableau for c in t if kind[c].kind == "invention"])


def _biomes(state: GreenlandState) -> list[int]:
    rows = [c for side in (*state.warm, *state.cold) for c in side]
    return sorted(
        [*(c for d in state.decks for c in d), *rows, *state.gone, *(c for t in state.trophies for c in t)]
    )


def _hidden(state: GreenlandState, seat: int) -> tuple[Any, ...]:
    """What ``seat`` cannot see: the deck orders (lines 9-10), the other hands (ruling G19), the discards."""
    others = tuple(tuple(h) for p, h in enumerate(state.hands) if p != seat)
    decks = tuple(tuple(d) for d in state.decks)
    return (
        tuple(state.events),
        decks,
        tuple(state.inventions),
        tuple(state.imports),
        others,
        tuple(state.discards),
    )


def test_the_states_cover_every_player_count_and_phase() -> None:
    """The sample reaches set-up (line 13), the auction (line 22), phases E-I (lines 23-27), the Sun Stone
    (line 54), hands held (ruling G19) and a bribe of a hand card awaiting its answer (line 59)."""
    states = _states()
    seen = Counter((s.n_players, s.phase) for s in states)
    assert {n for n, _ in seen} == {2, 3, 4}
    phases = {SETUP, BID, ASSIGN, SUNSTONE, NEGOTIATE, HUNT, DOMESTIC, ELDER}
    assert {phase for _, phase in seen} == phases, seen
    assert sum(any(s.hands) for s in states) > 100
    assert sum(bool(s.discards) for s in states) > 100
    assert any(s.bribe >= CARD and s.bribe - CARD in s.hands[s.attacker] for s in states)


def test_what_the_seat_sees_is_unchanged() -> None:
    """Ruling G19 (own hand, other hands' sizes), lines 11-12 (the rows), 22 (the event, the offer) and the
    whole table: the view is kept."""
    check_view_kept(GAME, determinize, _cases())


def test_the_input_state_is_unchanged() -> None:
    check_input_unchanged(GAME, determinize, _cases()[::3])


def test_it_depends_on_the_seats_information_only() -> None:
    """The determinization is a function of what the seat has seen (``check_information_only``)."""
    check_information_only(GAME, determinize, _cases()[::2])


def _swap_cards(new: GreenlandState, seat: int) -> bool:
    """A hand card of another seat traded with the top Invention or with another seat's (ruling G19), unless
    a pending bribe names it (line 59); whether anything was traded."""
    pinned = new.bribe - CARD if new.bribe >= CARD else -1
    holders = [p for p in range(new.n_players) if p != seat and any(c != pinned for c in new.hands[p])]
    if not holders:
        return False
    a = holders[0]
    i = next(k for k, c in enumerate(new.hands[a]) if c != pinned)
    if len(holders) > 1:
        b = holders[1]
        j = next(k for k, c in enumerate(new.hands[b]) if c != pinned)
        new.hands[a][i], new.hands[b][j] = new.hands[b][j], new.hands[a][i]
    elif new.inventions:
        new.hands[a][i], new.inventions[-1] = new.inventions[-1], new.hands[a][i]
    else:
        return False
    return True


def _swapped(state: GreenlandState, seat: int) -> GreenlandState | None:
    """``state`` with what ``seat`` cannot see changed: a hand card traded (``_swap_cards``), an event of the
    deck replaced by an unused one (line 9 'The remaining cards will not be used'), the biome decks turned
    over (line 10), the game's generator, the dice read ahead and the seed moved on; None if there is no
    hand card to trade or no unused event."""
    new = GAME.copy(state)
    revealed = {e for _, e in state.log} | set(state.events)
    unused = [e for e in range(len(state.data.events)) if e not in revealed]
    if not state.events or not unused or not _swap_cards(new, seat):
        return None
    new.events[0] = unused[0]
    new.decks = [d[::-1] for d in new.decks]
    new.rng.integers(2)
    new.faces = []
    new.seed += 1
    return new


def test_trading_hidden_cards_between_other_players_changes_nothing() -> None:
    pairs = check_unseen_changes(GAME, determinize, _cases(), _swapped)
    assert all(GAME.to_dict(changed) != GAME.to_dict(state) for state, changed in pairs)
    assert len(pairs) > 100, len(pairs)


def test_components_are_conserved_and_the_pools_are_what_the_seat_has_not_seen() -> None:
    """Lines 9-11 (the decks and rows), ruling G19 (Inventions in the deck, hands, discards and tableaus),
    line 22 (Imports): every component is somewhere after as before, each hidden part keeps its size, and
    the redrawn event deck holds only events not yet revealed."""
    data = GAME.load_data(None)
    for i, state, seat in _cases():
        det = determinize(state, seat, np.random.default_rng(i))
        assert _inventions(det) == _inventions(state) == sorted(data.tcards_of("invention"))
        assert _biomes(det) == _biomes(state) == sorted(b.id for b in data.biomes)
        assert [sorted(d) for d in det.decks] == [sorted(d) for d in state.decks]
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert len(det.discards) == len(state.discards) and len(det.inventions) == len(state.inventions)
        assert len(det.events) == len(state.events) and len(set(det.events)) == len(det.events)
        assert not set(det.events) & ({e for _, e in state.log} | {state.event})
        assert len(det.imports) == len(state.imports)
        tabled = {c for t in state.tableau for c in t} | {state.offer}
        assert set(det.imports) <= set(data.tcards_of("import")) - tabled
        assert det.tableau == state.tableau and det.trophies == state.trophies


def test_the_generator_draws_the_hidden_parts() -> None:
    """Two generators usually deal different hidden parts (the unrevealed events at least, line 9); the
    same generator the same ones."""
    differ, total = check_generator_draws(GAME, determinize, _cases()[::2], _hidden,
                                          lambda state, seat: len(state.events) >= 2)
    assert total > 300 and differ >= 0.98 * total, (differ, total)


def test_a_determinization_plays_on_to_the_end() -> None:
    """The result is a legal state: random play from it reaches the end (ruling G18) with no illegal choice,
    and the game's generator it carries (the dice, ruling G21) is its own."""
    for i, state, seat in _cases()[::23]:
        before = GAME.to_dict(state)
        det = determinize(state, seat, np.random.default_rng(i))
        assert det.rng is not state.rng and det.faces == []
        _play_out(det, np.random.default_rng(i))
        assert GAME.is_terminal(det) and GAME.result(det).scores is not None
        assert GAME.to_dict(state) == before


def _mid_game(players: int) -> GreenlandState:
    """A state of phase E (line 23) half-way through the sample of ``players``, its seat with a choice."""
    sample = [s for s in _states() if s.n_players == players]
    return next(
        s
        for s in sample[len(sample) // 2 :]
        if s.phase == ASSIGN and len(GAME.legal_options(s, GAME.to_move(s)[0])) > 1 and any(s.hands)
    )


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_searches_a_greenland_state(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search strategy, given determinizations of its seat's information, makes a legal
    choice; its choice is the same whatever the opponents' hidden cards are, given the same generator."""
    monkeypatch.setattr(type(GAME), "determinize", staticmethod(determinize), raising=False)
    state = _mid_game(players)
    seat = GAME.to_move(state)[0]
    picks = search_picks(GAME, [state, _swapped(state, seat) or state], seat)
    assert picks[0] == picks[1]


def test_a_hand_card_offered_in_a_pending_bribe_stays_with_its_briber() -> None:
    """Line 59 (ruling G23): a card of the briber's hand offered to the table is seen, so it stays in the
    briber's hand for every seat, and the asked tribe can still take it (accept moves it into its hand)."""
    pending = [
        (i, s) for i, s in enumerate(_states()) if s.bribe >= CARD and s.bribe - CARD in s.hands[s.attacker]
    ]
    assert pending
    for i, state in pending:
        card = state.bribe - CARD
        for seat in range(state.n_players):
            det = determinize(state, seat, np.random.default_rng(i))
            assert card in det.hands[state.attacker], (i, seat)
            for mover in GAME.to_move(det):
                for option in GAME.legal_options(det, mover):
                    if option.kind == "accept":
                        trial = GAME.copy(det)
                        GAME.apply(trial, {mover: option})

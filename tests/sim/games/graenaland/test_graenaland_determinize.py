"""``sim.games.graenaland.hidden.determinize``: the seat's view is unchanged, the sample is a
function of the seat's information and the generator, a legal playable state with every component
conserved, and ``ismcts`` can search it.  States come from seeded random games through
``sim.games.get_game("graenaland")`` at every phase, player count and advanced rule."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from sim.games import get_game
from sim.games.graenaland.hidden import determinize
from sim.games.graenaland.state import ANNOUNCE, CHOOSE_CARD, DRAFT, PAY, PHASES
from sim.search import SearchContext
from strategies.ismcts import ISMCTSStrategy
from tests.play_kit import snapshots

pytestmark = pytest.mark.slow

GAME = get_game("graenaland")
#: (players, rules): every player count, and the advanced rules (lines 267-316)
CONFIGS = [
    (3, {}), (4, {}), (5, {}),
    (4, {"custom_start": True, "victory_cards": True}),
    (5, {"custom_start": True, "victory_cards": True, "five_player_offer": True}),
    (3, {"victory_cards": True}),
]


def _choose(state, seat: int, rng: np.random.Generator):
    options = GAME.legal_options(state, seat)
    assert len(options) > 0, f"seat {seat} has no option in phase {PHASES[state.phase]}"
    return options[int(rng.integers(len(options)))]


def _step(state, rng: np.random.Generator) -> None:
    GAME.apply(state, {seat: _choose(state, seat, rng) for seat in GAME.to_move(state)})


@cache
def _snapshots(config: int, seed: int, every: int = 7) -> tuple:
    """Snapshots (as dicts) of one seeded random game, every ``every`` decisions and at every phase's
    first appearance."""
    return snapshots(GAME, *CONFIGS[config], seed, every)


def _states(configs=range(len(CONFIGS)), seeds=(1, 2)):
    for config in configs:
        for seed in seeds:
            for doc in _snapshots(config, seed):
                yield GAME.from_dict(doc)


def _components(state) -> tuple:
    """Every resource card (hands, decks, discards, territories, start cards) and supply card, and the
    victory cards dealt or kept."""
    cards = [c for group in (state.hands, state.decks, state.discards, state.cards, state.draft_cards)
             for pile in group for c in pile]
    supply = state.supply_deck + state.supply_row + state.supply_discard
    supply += [c for s in state.supplies for c in s]
    return sorted(cards), sorted(supply), [len(o) for o in state.vp_offer], [c >= 0 for c in state.vp_card]


def test_states_cover_every_phase() -> None:
    """The states below reach every phase (lines 56-61, 267-316), so each test sees them all."""
    seen = {s.phase for s in _states()}
    assert {PHASES[p] for p in seen} >= set(PHASES) - {"relocate"} - {"over"}


def test_the_seat_sees_the_same() -> None:
    """What the seat is shown (graenaland.txt:49 own hand, 66 face-up cards, 182 face-down counts, 115
    proposals and votes) is unchanged."""
    rng = np.random.default_rng(0)
    count = 0
    for state in _states():
        for seat in range(state.n_players):
            sample = determinize(state, seat, rng)
            assert GAME.view(sample, seat) == GAME.view(state, seat)
            assert GAME.to_move(sample) == GAME.to_move(state)  # who decides is public
            count += 1
    assert count > 300


def _swap_hidden(state, seat: int):
    """The same state but for one card swapped between two other players' hands (line 49: hidden), or
    None where they hold none (or offered theirs to a joint building, lines 210-211)."""
    other = GAME.from_dict(GAME.to_dict(state))
    a, b = [s for s in range(state.n_players) if s != seat][:2]
    if not other.hands[a] or not other.hands[b] or state.taken or state.phase == PAY:
        return None
    other.hands[a][0], other.hands[b][0] = other.hands[b][0], other.hands[a][0]
    return other


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_a_function_of_the_seats_information(config: int) -> None:
    """States that differ only in what ``seat`` cannot see (another determinization; a card
    swapped between two other hands, line 49) give the same determinization for the same generator."""
    swapped = 0
    for i, state in enumerate(_states([config])):
        seat = i % state.n_players
        other = determinize(state, seat, np.random.default_rng(1000 + i))
        a = GAME.to_dict(determinize(state, seat, np.random.default_rng(i)))
        assert GAME.to_dict(determinize(other, seat, np.random.default_rng(i))) == a
        changed = _swap_hidden(state, seat)
        if changed is not None and GAME.to_dict(changed) != GAME.to_dict(state):
            assert GAME.to_dict(determinize(changed, seat, np.random.default_rng(i))) == a
            swapped += 1
    assert swapped > 5


def test_components_are_conserved_and_the_input_unchanged() -> None:
    """Every card stays in the game once (lines 33-34, 126), each deck holds its own terrain (line 34),
    each face-down card lies at a territory of its terrain (line 182); the input is not changed."""
    rng = np.random.default_rng(3)
    data = GAME.load_data(None)
    for state in _states():
        before = GAME.to_dict(state)
        seat = int(rng.integers(state.n_players))
        sample = determinize(state, seat, rng)
        assert GAME.to_dict(state) == before
        assert _components(sample) == _components(state)
        assert all(data.card_deck[c] == d for d, deck in enumerate(sample.decks) for c in deck)
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert sample.hands[seat] == state.hands[seat]
        assert sample.supplies == state.supplies  # taken from the face-up row (lines 132, 217)
        assert sample.discards == state.discards  # laid openly (line 126)
        assert len(set(sample.vp_card) - {-1}) == len([c for c in sample.vp_card if c >= 0])


def test_the_generator_drives_the_hidden_parts() -> None:
    """Two generators give different other hands or decks (line 49, 34) where something is hidden, and
    the victory cards of the others while they choose (line 283)."""
    differ = same = supply_differ = supply_same = 0
    for state in _states():
        a = determinize(state, 0, np.random.default_rng(1))
        b = determinize(state, 0, np.random.default_rng(2))
        hidden = (a.hands[1:], a.decks, a.cards, a.vp_offer[1:], a.vp_card[1:])
        if hidden != (b.hands[1:], b.decks, b.cards, b.vp_offer[1:], b.vp_card[1:]):
            differ += 1
        else:
            same += 1
        if len(state.supply_deck) > 2:  # its order (line 33)
            supply_differ += a.supply_deck != b.supply_deck
            supply_same += a.supply_deck == b.supply_deck
        assert sorted(a.supply_deck) == sorted(state.supply_deck)
    assert differ > 20 * max(same, 1)
    assert supply_differ > 10 * max(supply_same, 1)


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_a_sample_plays_to_the_end(config: int) -> None:
    """A determinization is a legal state: random play on it reaches the end (line 241) without error,
    whichever seat it was drawn for, also while another seat pays (lines 125-128) or announces (311)."""
    rng = np.random.default_rng(config)
    states = list(_states([config], seeds=(3,)))
    for state in states[:: max(1, len(states) // 12)] + [s for s in states if s.phase in (PAY, ANNOUNCE)][:6]:
        sample = determinize(state, int(rng.integers(state.n_players)), rng)
        for _ in range(4000):
            if GAME.is_terminal(sample):
                break
            _step(sample, rng)
        assert GAME.is_terminal(sample)
        GAME.result(sample)


def test_others_cards_are_resampled_where_they_choose() -> None:
    """While cards are dealt face down (draft line 269, victory cards line 283) other seats' are hidden:
    over samples, another seat's victory offer varies, the seat's own never does."""
    for state in _states([3]):
        if state.phase == CHOOSE_CARD:
            offers = {tuple(determinize(state, 0, np.random.default_rng(k)).vp_offer[1]) for k in range(8)}
            own = {tuple(determinize(state, 0, np.random.default_rng(k)).vp_offer[0]) for k in range(8)}
            assert len(offers) > 1 and own == {tuple(state.vp_offer[0])}
        if state.phase == DRAFT and any(state.draft_cards):
            piles = {str(determinize(state, 0, np.random.default_rng(k)).draft_cards) for k in range(8)}
            assert len(piles) > 1


def test_while_announcing_the_seats_asked_stay_the_same() -> None:
    """The seats that may announce (lines 311-313) are those the true game asks; their claims are
    recomputed from the sample and agree with that."""
    seen = 0
    points = GAME.load_data(None).victory_points
    for state in _states([3, 4, 5], seeds=(1, 2, 3)):
        if state.phase == ANNOUNCE:
            sample = determinize(state, GAME.to_move(state)[0], np.random.default_rng(5))
            assert GAME.to_move(sample) == GAME.to_move(state)
            assert [c >= points for c in sample.claims] == [c >= points for c in state.claims]
            seen += 1
    assert seen >= 1


def test_ismcts_searches_a_sample() -> None:
    """``strategies.ismcts`` makes a choice from a mid-game state through ``SearchContext``,
    which reads the game's ``determinize``; its choice does not depend on the other hands (line 49)."""
    class Searchable(type(GAME)):  # type: ignore[misc]
        determinize = staticmethod(determinize)

    game = Searchable()
    mid = [s for s in _states([1], seeds=(4,))
           if s.round >= 3 and len(GAME.legal_options(s, GAME.to_move(s)[0])) > 1]
    state = mid[len(mid) // 2]
    seat = GAME.to_move(state)[0]
    picks = []
    truths = [state] + [t for t in [_swap_hidden(state, seat)] if t is not None]
    for truth in truths:
        player = ISMCTSStrategy(seat, np.random.default_rng(4), iterations="20", depth="8")
        player.attach(SearchContext(game, seat, truth))
        options = game.legal_options(truth, seat)
        pick = player.choose(game.view(truth, seat), options)
        assert any(pick == o for o in options)
        picks.append(pick)
    assert player.iterations_run == 20
    assert all(p == picks[0] for p in picks)

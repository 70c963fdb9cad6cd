"""Graenaland rules, one test (or group) per rule of ../shared/rules/graenaland.txt, each quoting it.

Positions are built by hand on a fresh 4-player game (``blank``: nobody on the board, no
cards anywhere) through the state's plain lists, then driven through ``GAME`` (options,
apply) where a rule is about the flow of a round. 4-player board: territories 0-3 are the
coast (plains, forest, plains, forest), 4-6 inland (hills, mountains, hills); inland j lies
between coastal j and j+1.
"""

from __future__ import annotations

import dataclasses

import pytest

from sim.errors import IllegalChoice
from sim.games.graenaland import building, production, rules
from sim.games.graenaland.board import DIRECTIONS, build_board
from sim.games.graenaland.data import BUILDINGS, CATTLE, GOLD, GRAIN, ORE, PUBLIC, RESOURCES, TERRAINS, WOOD
from sim.games.graenaland.game import GAME
from sim.games.graenaland.options import (
    END,
    NO_PROPOSAL,
    STAY,
    Action,
    Contribute,
    Decide,
    Fee,
    Move,
    Pay,
    Propose,
    Vote,
)
from sim.games.graenaland.state import (
    BUILD,
    CHURCH,
    CONTRIBUTE,
    FEE,
    FORTRESS,
    HALL,
    HEROES,
    JOINT,
    MARKET,
    OVER,
    PALISADE,
    PAY,
    PRIEST,
    PROPOSE,
    RELOCATE,
    ROAD,
    SKALD,
    VOTE,
    WARRIOR,
    YIELD,
)
from sim.games.graenaland.victory import can_announce, goal_values, goals_met
from sim.games.graenaland.votes import votes_on

PACKAGED = GAME.load_data(None)
#: The rule examples below name territories by index on the reference 1.2 layouts (territory 0 of four
#: players is the plains piece U1, ...). The packaged layouts and start spaces are calibrated for balance
#: (data/graenaland.toml) and may change, so these tests pin the layouts they were written against; the
#: set-up tests check the packaged layouts as well.
REF_LAYOUTS = {
    3: (("U1", "T35", "U2"), ("U3", "U4"), (("U1", "U3"), ("T35", "U4"), ("U2", "U4"))),
    4: (
        ("U1", "U2", "F1", "F2"),
        ("U3", "U4", "F3"),
        (("U1", "U3"), ("U2", "U4"), ("F1", "F3"), ("F2", "F3")),
    ),
    5: (("U1", "U2", "F1", "F2", "T35"), ("U3", "U4", "F3", "V5"),
        (("U1", "U3"), ("U2", "U4"), ("F1", "F3"), ("F2", "V5"), ("T35", "V5"))),
}
DATA = dataclasses.replace(PACKAGED, layouts=REF_LAYOUTS)
W, E, WW, EE, NW, NE, SW, SE = range(8)


def fresh(n: int = 4, seed: int = 0, **rules_config):
    return GAME.new_state(n, rules_config, DATA, seed)


def blank(n: int = 4, seed: int = 0, **rules_config):
    """A fresh game with the board, hands and territories emptied (all cards back in their decks)."""
    state = fresh(n, seed, **rules_config)
    for t in range(len(state.villages)):
        state.villages[t] = [0] * n
        state.buildings[t] = [-1, -1, -1]
        for c in state.cards[t]:
            state.decks[DATA.card_deck[c]].append(c)
        state.cards[t], state.face_down[t] = [], []
    for p in range(n):
        for c in state.hands[p]:
            state.decks[DATA.card_deck[c]].append(c)
        state.hands[p] = []
        state.heroes[p] = [-1, -1, -1]
        state.houses[p] = DATA.houses
    return state


def take(state, resource: int, terrain: int | None = None) -> int:
    """Remove one card of ``resource`` (from ``terrain``'s deck if given) from the decks and return it."""
    for d, deck in enumerate(state.decks):
        if terrain is not None and d != terrain:
            continue
        for i, c in enumerate(deck):
            if DATA.card_resource[c] == resource:
                return deck.pop(i)
    raise AssertionError(f"no {RESOURCES[resource]} card left")


def give(state, seat: int, **counts: int) -> None:
    for name, k in counts.items():
        for _ in range(k):
            state.hands[seat].append(take(state, RESOURCES.index(name)))


def lay(state, t: int, *resources: int, down: bool = False) -> None:
    for r in resources:
        state.cards[t].append(take(state, r))
        state.face_down[t].append(down)


def settle(state, t: int, seat: int, k: int = 1) -> None:
    state.villages[t][seat] += k
    state.houses[seat] -= k


def to_build(state, seat: int, final: bool = False) -> None:
    state.main = seat
    rules._start_building(state, seat, final)


def hand(state, seat: int) -> list[int]:
    counts = [0] * 5
    for c in state.hands[seat]:
        counts[DATA.card_resource[c]] += 1
    return counts


def board(n: int = 4):
    return build_board(DATA, n)


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("data", [PACKAGED, DATA], ids=["packaged", "reference"])
@pytest.mark.parametrize("n, unused", [(3, {"5", "4.5"}), (4, {"5", "3.5"}), (5, set())])
def test_layout_uses_the_marked_pieces(n, unused, data):
    """graenaland.txt:29 "If you are four, two pieces are left unused (marked "5" and "3.5" in the corner);
    if you play with only three, four pieces are left over (marked "5" and "4.5")." Coast row of n pieces,
    inland row of n - 1 (reference 1.2)."""
    b = build_board(data, n)
    marks = [data.pieces[p].mark for p in b.pieces]
    assert len(b.pieces) == 2 * n - 1 and sum(b.coastal) == n
    assert not set(marks) & unused
    left = [p.mark for pid, p in data.pieces.items() if pid not in b.pieces]
    assert set(left) <= unused and len(left) == 9 - (2 * n - 1)
    assert {TERRAINS[t] for t in b.terrain} == set(TERRAINS)  # every terrain in play


@pytest.mark.parametrize("data", [PACKAGED, DATA], ids=["packaged", "reference"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup(n, data):
    """graenaland.txt:44 "At the start of the game, their army therefore has strength 1."; :47-48 two
    settlements and one warrior per player on the spaces marked with their number; :49 "Each player takes
    two resource cards, one from each deck corresponding to the terrain on which they placed their
    settlement."; :33 four face-up supply cards; :43 14 houses."""
    state = GAME.new_state(n, {}, data, 0)
    b = build_board(data, n)
    assert state.army == [1] * n and len(state.supply_row) == 4
    for seat in range(n):
        first, second = b.start[seat]
        assert state.villages[first][seat] == 1 and state.villages[second][seat] == 1
        assert sum(row[seat] for row in state.villages) == 2 and state.houses[seat] == 12
        assert state.heroes[seat] == [first, -1, -1]
        decks = sorted(data.card_deck[c] for c in state.hands[seat])
        assert decks == sorted((b.terrain[first], b.terrain[second]))
    assert state.phase == HEROES and state.main == 0 and state.round == 1
    # Production already ran for round 1: each settled territory has one card (line 66).
    for t in range(b.n):
        assert len(state.cards[t]) == (1 if any(state.villages[t]) else 0)


def test_deck_sizes_and_supply_cards():
    """126 resource cards in four terrain decks and 16 supply cards of two symbols (lines 33-34, 133;
    reference 1.1)."""
    assert len(DATA.card_resource) == 126
    assert len(DATA.supply_cards) == 16 and all(len(p) == 2 and GOLD not in p for p in DATA.supply_cards)


# --------------------------------------------------------------------------- production


@pytest.mark.parametrize("lying, added",
                         [(0, [False, True, "match"]), (1, [False, True]), (2, [False]), (3, [])])
def test_card_limit_example(lying, added):
    """graenaland.txt:190 "A territory has two settlements and a road, and has improved yield. If there are no
    resources next to it at the start of the round, place one card ... face up ..., one card face down (for
    the
    road), and one more card if it matches ... If one resource was already lying there, add one card face up
    and one face down. If two resources were already lying there, add only one card face up. If three
    resources were already lying there, do not draw any further resource card." """
    state = blank()
    t = 0  # plains, yield symbol grain
    settle(state, t, 0)
    settle(state, t, 1)
    state.public[t][ROAD] = state.public[t][YIELD] = True
    lay(state, t, *([CATTLE] * lying))
    deck = state.decks[0]
    # the top of the plains deck (drawn last-first): ordinary, road, then a matching yield card
    top = [take(state, GRAIN, 0), take(state, WOOD, 0), take(state, GRAIN, 0)]
    deck.extend(reversed(top))
    production.produce(state, board(), DATA)
    new = list(zip(state.cards[t][lying:], state.face_down[t][lying:], strict=True))
    assert [down for _, down in new] == [a if a != "match" else False for a in added]
    assert len(state.cards[t]) == min(3, lying + len(added))


def test_yield_improvement_kept_only_on_a_match():
    """graenaland.txt:188 "If the turned card matches the symbol on the yield-improvement token, add it ...
    otherwise, discard it. (Do not turn another card.)" """
    state = blank()
    settle(state, 0, 0, 3)
    state.public[0][YIELD] = True
    state.decks[0].extend([take(state, CATTLE, 0), take(state, GRAIN, 0)])  # drawn: grain, then cattle
    production.produce(state, board(), DATA)
    assert [DATA.card_resource[c] for c in state.cards[0]] == [GRAIN]
    assert [DATA.card_resource[c] for c in state.discards[0]] == [CATTLE]


def test_one_card_however_many_settlements_and_only_settled_territories():
    """graenaland.txt:66-67 "Every settled territory ... provides one resource each round ... affected neither
    by
    the number of settlements ... nor by the number of players who have settlements there." """
    state = blank()
    settle(state, 0, 0, 3)
    settle(state, 0, 1, 2)
    production.produce(state, board(), DATA)
    assert len(state.cards[0]) == 1 and all(not state.cards[t] for t in range(1, 7))


def test_exhausted_deck_is_reshuffled_from_discards():
    """graenaland.txt:126 "When a resource deck is exhausted, shuffle its discard pile to form a new deck."
    """
    state = blank()
    settle(state, 0, 0)
    state.discards[0] = list(state.decks[0])
    state.decks[0] = []
    production.produce(state, board(), DATA)
    assert len(state.cards[0]) == 1 and state.discards[0] == [] and len(state.decks[0]) == 35


def test_exhausted_deck_is_formed_again_when_its_last_card_is_drawn():
    """graenaland.txt:126 "When a resource deck is exhausted, shuffle its discard pile to form a new deck.":
    the new deck is formed the moment the last card is drawn (every view shows it), and cards paid after
    that start a new discard pile instead of joining the reshuffle."""
    state = blank()
    settle(state, 0, 0)
    paid = [take(state, CATTLE, 0), take(state, CATTLE, 0), take(state, WOOD, 0), take(state, WOOD, 0)]
    state.hands[0] = list(paid)
    pile = state.decks[0][:-1]
    state.decks[0], state.discards[0] = state.decks[0][-1:], list(pile)
    production.produce(state, board(), DATA)
    assert len(state.cards[0]) == 1
    assert state.discards[0] == [] and sorted(state.decks[0]) == sorted(pile)
    assert all(GAME.view(state, p).deck_sizes[0] == len(pile) for p in range(4))
    to_build(state, 0)
    state.supply_taken = True
    GAME.apply(state, {0: Action("village", 0)})
    GAME.apply(state, {0: Pay((0, 2, 2, 0, 0), (), 0)})
    assert state.villages[0][0] == 2
    assert sorted(state.discards[0]) == sorted(paid) and sorted(state.decks[0]) == sorted(pile)


def test_cards_paid_to_an_exhausted_deck_with_no_discard_pile_form_the_new_deck():
    """graenaland.txt:126: a deck exhausted while its discard pile was empty stays exhausted until cards are
    laid on that pile; they then form the new deck at once (ruling G3), so no view shows an empty deck while
    cards of that terrain lie on its discard pile."""
    state = blank()
    settle(state, 0, 0)
    paid = [take(state, CATTLE, 0), take(state, CATTLE, 0), take(state, WOOD, 0), take(state, WOOD, 0)]
    state.hands[0] = list(paid)
    state.hands[1], state.decks[0] = state.decks[0], []
    assert production.draw(state, 0) is None
    to_build(state, 0)
    state.supply_taken = True
    GAME.apply(state, {0: Action("village", 0)})
    GAME.apply(state, {0: Pay((0, 2, 2, 0, 0), (), 0)})
    assert state.discards[0] == [] and sorted(state.decks[0]) == sorted(paid)
    assert GAME.view(state, 1).deck_sizes[0] == 4


# --------------------------------------------------------------------------- heroes


def test_hero_moves_adjacent_and_two_along_the_coast():
    """graenaland.txt:76 "A hero may move to any adjacent territory. Heroes on the coast ... may move up to
    two
    territories along the coast."; :78 an invalid move (off the board, or two pieces when not on the coast)
    stays, so it is not offered."""
    b = board()
    assert {DIRECTIONS[d]: b.moves[1][d] for d in range(8) if b.moves[1][d] >= 0} == {
        "W": 0, "E": 2, "EE": 3, "NW": 4, "NE": 5}
    assert {DIRECTIONS[d]: b.moves[5][d] for d in range(8) if b.moves[5][d] >= 0} == {
        "W": 4, "E": 6, "SW": 1, "SE": 2}
    state = blank()
    state.heroes[1][WARRIOR] = 5
    state.main = 0
    opts = GAME.legal_options(state, 1)
    assert STAY in opts and Move(WARRIOR, WW) not in opts and len(opts) == 5
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {1: Move(WARRIOR, WW), 2: STAY, 3: STAY})


def test_main_player_does_not_move_and_everyone_else_moves_at_once():
    """graenaland.txt:58 "Movement of heroes (does not apply to the main player)"; :77 "everyone reveals their
    compass tiles at the same time." """
    state = fresh()
    assert GAME.to_move(state) == (1, 2, 3)
    before = [list(h) for h in state.heroes]
    GAME.apply(state, {1: Move(WARRIOR, W), 2: Move(WARRIOR, E), 3: STAY})
    assert state.heroes[0] == before[0]
    assert state.heroes[1][WARRIOR] == 0 and state.heroes[2][WARRIOR] == 3 and state.heroes[3] == before[3]


def test_own_heroes_swap():
    """graenaland.txt:84 "If you choose a movement that would bring one of your heroes onto a terrain piece
    where
    another of your heroes already stands, these heroes swap places." """
    state = blank()
    state.heroes[1] = [0, 1, -1]
    state.main = 0
    GAME.apply(state, {1: Move(WARRIOR, E), 2: STAY, 3: STAY})
    assert state.heroes[1] == [1, 0, -1]


def test_first_church_places_the_priest_at_once():
    """graenaland.txt:157 "A church allows your priest to enter play. Place one of the priest tokens on the
    territory where you built your first church." With none of the builder's heroes there it stands there at
    once, in the same building phase, and moves in the next movement phase; :158 "A hall allows your skald to
    enter play. The rules for placing the skald are the same as for the priest." """
    state = blank()
    settle(state, 0, 0)
    settle(state, 2, 0)
    state.heroes[0][WARRIOR] = 3
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, grain=4, cattle=3, ore=2, wood=2)
    GAME.apply(state, {0: Action("church", 0)})
    GAME.apply(state, {0: GAME.legal_options(state, 0)[0]})
    assert state.phase == BUILD and state.heroes[0] == [3, 0, -1] and state.waiting[0] == [-1, -1, -1]
    GAME.apply(state, {0: Action("hall", 2)})
    GAME.apply(state, {0: GAME.legal_options(state, 0)[0]})
    assert state.phase == BUILD and state.heroes[0] == [3, 0, 2] and state.waiting[0] == [-1, -1, -1]
    GAME.apply(state, {0: END})
    assert state.phase == HEROES and state.main == 1
    assert {Move(PRIEST, E), Move(SKALD, W)} <= set(GAME.legal_options(state, 0))


def test_priest_waits_for_own_hero_then_enters_before_the_first_proposal():
    """graenaland.txt:157 "If another of your heroes is already there, you must wait until it moves elsewhere.
    As soon as you have no hero on that territory, place your priest there (after the movement phase, but
    before the first proposal is made in that round)." """
    state = blank()
    settle(state, 0, 1)
    settle(state, 0, 2)
    state.heroes[1][WARRIOR] = 0
    assert building.place(state, board(), DATA, 1, "church", 0) is None
    assert state.heroes[1][PRIEST] == -1 and state.waiting[1][PRIEST] == 0
    state.main, state.phase = 0, HEROES
    GAME.apply(state, {1: STAY, 2: STAY, 3: STAY})
    assert state.heroes[1][PRIEST] == -1 and state.waiting[1][PRIEST] == 0  # the warrior is still there
    state.heroes[2][WARRIOR], state.army[2] = 0, 3
    lay(state, 0, GRAIN, CATTLE)
    state.phase = HEROES
    GAME.apply(state, {1: Move(WARRIOR, E), 2: STAY, 3: STAY})
    assert state.heroes[1] == [1, 0, -1] and state.waiting[1][PRIEST] == -1
    # before the first proposal: the priest already cancels seat 2's warrior there (line 96)
    assert state.phase == PROPOSE and state.proposers[0] == 1 and not state.history
    assert votes_on(state, 0)[2] == 1


def test_a_later_church_leaves_a_waiting_priest_at_the_first():
    """graenaland.txt:157 "Place one of the priest tokens on the territory where you built your first church.
    If another of your heroes is already there, you must wait": a second church built while the priest waits
    neither places it nor offers a move (that is for a church built "while your priest is already in
    play")."""
    state = blank()
    settle(state, 0, 0)
    settle(state, 2, 0)
    state.heroes[0][WARRIOR] = 0
    assert building.place(state, board(), DATA, 0, "church", 0) is None
    assert building.place(state, board(), DATA, 0, "church", 2) is None
    assert state.heroes[0][PRIEST] == -1 and state.waiting[0][PRIEST] == 0


def test_second_church_or_hall_may_take_the_hero_in_the_same_building_phase():
    """graenaland.txt:157 "If you build another church while your priest is already in play, you may move it
    to that territory instead, if you wish — provided none of your other heroes is there."; :158 the same for
    the skald and halls. The offer comes right after the build, within the same building phase."""
    state = blank()
    for t in (0, 1, 2):
        settle(state, t, 0)
    state.heroes[0] = [1, 0, 3]
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, grain=6, cattle=4, ore=4, wood=2)
    GAME.apply(state, {0: Action("church", 2)})
    GAME.apply(state, {0: GAME.legal_options(state, 0)[0]})
    assert state.phase == RELOCATE and GAME.legal_options(state, 0) == [Decide(False), Decide(True)]
    GAME.apply(state, {0: Decide(False)})  # "if you wish"
    assert state.heroes[0] == [1, 0, 3] and state.phase == BUILD
    GAME.apply(state, {0: Action("hall", 2)})
    GAME.apply(state, {0: GAME.legal_options(state, 0)[0]})
    assert state.phase == RELOCATE
    GAME.apply(state, {0: Decide(True)})
    assert state.heroes[0] == [1, 0, 2] and state.phase == BUILD
    GAME.apply(state, {0: Action("church", 1)})  # the warrior stands there: no offer
    GAME.apply(state, {0: GAME.legal_options(state, 0)[0]})
    assert state.heroes[0] == [1, 0, 2] and state.phase == BUILD and state.relocate is None


# --------------------------------------------------------------------------- votes


def test_settlement_and_warrior_votes():
    """graenaland.txt:94 "you have 1 vote for every settlement"; :95 "On a territory where you have a warrior
    token, you gain additional votes — as many as the strength of your army."; :98 "You gain votes for your
    heroes even on territories where you have no settlements."; :155 "Each building gives you 1 vote" """
    state = blank()
    settle(state, 0, 0, 2)
    state.buildings[0][FORTRESS] = 0
    state.heroes[1][WARRIOR] = 0
    state.army[1] = 3
    assert votes_on(state, 0) == [3, 3, 0, 0]


def test_priest_cancels_all_warriors():
    """graenaland.txt:96 "Priests do not add any votes for players. Instead, they cancel the votes provided by
    all
    warriors on that territory." """
    state = blank()
    settle(state, 0, 2)
    state.heroes[0][WARRIOR] = 0
    state.heroes[0][PRIEST] = -1
    state.heroes[1] = [0, -1, -1]
    state.heroes[2] = [-1, 0, -1]
    state.army = [2, 4, 1, 1]
    assert votes_on(state, 0) == [0, 0, 1, 0]


def test_skald_counts_other_heroes():
    """graenaland.txt:97 "A skald gives you 1 vote for every other hero on that territory. (Note that if your
    skald is alone, it brings you no votes.)" """
    state = blank()
    state.heroes[0] = [-1, -1, 0]
    assert votes_on(state, 0)[0] == 0
    state.heroes[1] = [0, -1, -1]
    state.heroes[2] = [-1, 0, -1]
    assert votes_on(state, 0)[0] == 2


def test_palisade_votes_example():
    """graenaland.txt:202 "Players who have no settlement on a territory with a palisade get one fewer vote
    for
    their warrior there. In our example, the yellow player has 1 vote (for a settlement), the red player has 2
    votes (settlement + army), the white player has 2 votes (army − 1), and the purple player has 3 votes (a
    palisade has no effect on skalds). The blue player has no votes." """
    yellow, red, white, purple, blue = range(5)
    state = blank(5)
    t = 0
    state.public[t][PALISADE] = True
    settle(state, t, yellow)
    settle(state, t, red)
    state.heroes[red][WARRIOR] = t
    state.army = [1, 1, 3, 1, 1]
    state.heroes[white][WARRIOR] = t
    state.heroes[purple][SKALD] = t
    state.heroes[blue][WARRIOR] = t  # army 1 - 1 = 0
    # the skald counts the other heroes there: red, white and blue warriors
    assert votes_on(state, t) == [1, 2, 2, 3, 0]


def test_three_player_votes():
    """graenaland.txt:247 "All heroes bring you one extra vote ... A warrior therefore gives you one more vote
    than
    the strength of your army. A priest gives you one vote and reduces the votes of all warriors to one. A
    skald gives you one vote for himself and one for every other hero"; :248 "A palisade ... reduces the votes
    of all heroes by 1." """
    state = blank(3)
    assert state.three
    state.army = [2, 1, 1]
    state.heroes[0][WARRIOR] = 0
    state.heroes[2][SKALD] = 0
    assert votes_on(state, 0) == [3, 0, 2]
    state.heroes[1][PRIEST] = 0
    assert votes_on(state, 0) == [1, 1, 3]
    state.public[0][PALISADE] = True
    assert votes_on(state, 0) == [0, 0, 2]
    settle(state, 0, 2)  # a settlement there: no palisade penalty for that player's heroes
    assert votes_on(state, 0) == [0, 0, 4]
    off = blank(3, three_player_adjustments="off")
    off.army = [2, 1, 1]
    off.heroes[0][WARRIOR] = 0
    off.heroes[2][SKALD] = 0
    assert not off.three and votes_on(off, 0) == [2, 0, 1]
    on4 = blank(4, three_player_adjustments="on")
    on4.heroes[0][WARRIOR] = 0
    assert on4.three and votes_on(on4, 0)[0] == 2


# --------------------------------------------------------------------------- distribution


def proposal_position():
    """Seat 1 proposes on territory 0 where seats 0 (main, 1 vote), 1 (2 votes) and 2 (2 votes) vote."""
    state = blank()
    settle(state, 0, 0)
    settle(state, 0, 1, 2)
    state.heroes[2][WARRIOR] = 0
    state.army[2] = 2
    lay(state, 0, GRAIN, GRAIN, WOOD)
    lay(state, 0, ORE, down=True)
    state.main = 0
    state.proposers = [1, 2, 3]
    state.phase = PROPOSE
    return state


def test_proposal_options_divide_all_cards_among_voters():
    """graenaland.txt:103 "you may propose a division of resources from one territory on which you have at
    least
    1 vote"; :105 "You must propose a division of all the resources on the given territory. You may divide
    them only among those who have at least one vote on that territory."; identical face-up cards are
    interchangeable, a face-down card is distinct (line 182)."""
    state = proposal_position()
    opts = GAME.legal_options(state, 1)
    # no proposal + grain (2 among 3 voters: 6) x wood (3) x face-down card (3)
    assert len(opts) == 1 + 6 * 3 * 3 and opts[0] == NO_PROPOSAL
    props = [opts[i] for i in range(1, len(opts))]
    assert len(set(props)) == len(props)
    assert all(p.territory == 0 and len(p.receivers) == 4 and set(p.receivers) <= {0, 1, 2} for p in props)
    with pytest.raises(IllegalChoice):  # seat 3 has no vote there
        GAME.apply(state, {1: Propose(0, (3, 1, 1, 1))})
    with pytest.raises(IllegalChoice):  # not all the cards
        GAME.apply(state, {1: Propose(0, (1, 1, 1))})
    with pytest.raises(IllegalChoice, match="of integers"):  # an option of another kind, not a proposal
        GAME.apply(state, {1: (Propose(0, (1,)), "x")})


def test_vote_needs_strictly_more_than_half():
    """graenaland.txt:115 "Everyone (including you) who has at least 1 vote ... announces whether they agree";
    :117 "If more than half the votes approve the proposal, the resources are divided"; :118 "If only half or
    fewer of the votes are for the proposal, the resources remain in place."; :121 the main player "may vote,
    and other players may propose that some resources go to you." """
    state = proposal_position()
    GAME.apply(state, {1: Propose(0, (1, 1, 0, 2))})
    assert state.phase == VOTE and GAME.to_move(state) == (0, 1, 2) and state.vote_weights == (1, 2, 2)
    GAME.apply(state, {0: Vote(False), 1: Vote(True), 2: Vote(False)})  # 2 of 5: rejected
    assert len(state.cards[0]) == 4 and not state.history[-1].approved
    # seat 2 proposes the same again; 1 + 2 of 5 approve
    assert state.phase == PROPOSE and GAME.to_move(state) == (2,)
    GAME.apply(state, {2: Propose(0, (1, 1, 0, 2))})
    GAME.apply(state, {0: Vote(True), 1: Vote(True), 2: Vote(False)})
    assert state.cards[0] == [] and state.history[-1].approved
    assert hand(state, 0)[WOOD] == 1 and hand(state, 1)[GRAIN] == 2 and hand(state, 2)[ORE] == 1
    assert state.history[-1].shares == (1, 2, 1, 0)


def test_exactly_half_is_rejected():
    """graenaland.txt:118 "If only half or fewer of the votes are for the proposal, the resources remain." """
    state = blank()
    settle(state, 0, 1)
    settle(state, 0, 2)
    lay(state, 0, GRAIN)
    state.main, state.proposers, state.phase = 0, [1, 2, 3], PROPOSE
    GAME.apply(state, {1: Propose(0, (1,))})
    GAME.apply(state, {1: Vote(True), 2: Vote(False)})
    assert len(state.cards[0]) == 1


def test_one_proposal_each_clockwise_from_the_main_players_left():
    """graenaland.txt:90 "The player to the left of the main player begins, and play continues clockwise";
    :119 "In one round a player may submit only one proposal"; :54 the main player makes none."""
    state = fresh(seed=3)
    state.main = 2
    state.phase = HEROES
    GAME.apply(state, {0: STAY, 1: STAY, 3: STAY})
    order = []
    while state.phase in (PROPOSE, VOTE):
        if state.phase == PROPOSE:
            seat = GAME.to_move(state)[0]
            order.append(seat)
            GAME.apply(state, {seat: NO_PROPOSAL})
        else:
            GAME.apply(state, {s: Vote(False) for s in GAME.to_move(state)})
    assert order == [s for s in (3, 0, 1) if s in order] and state.phase == BUILD and state.builder == 2


# --------------------------------------------------------------------------- building


def test_village_where_and_cost():
    """graenaland.txt:143 "You may build a village only on a territory where you already have at least one
    settlement, or which is adjacent to such a territory."; :144 "4 resources on coastal terrain, 5 resources
    on terrain not on the coast, 6 resources in the mountains." """
    b = board()
    assert [sum(b.village_cost[t]) for t in range(7)] == [4, 4, 4, 4, 5, 6, 5]
    assert b.village_cost[0] == (0, 2, 2, 0)  # 2 wood + 2 cattle (the line 196 example)
    state = blank()
    settle(state, 3, 0)
    to_build(state, 0)
    give(state, 0, gold=6)
    villages = {a.territory for a in GAME.legal_options(state, 0) if a.kind == "village"}
    assert villages == {3, 2, 6}


def test_buildings_need_a_village_one_per_type_no_mountains():
    """graenaland.txt:151 "You may build a building only on a territory where you have at least one village.";
    :153 "Only one building of each type may stand on a single territory. Buildings cannot be built in the
    mountains."; :154 several buildings of different types on one territory."""
    state = blank()
    settle(state, 0, 0)
    settle(state, 5, 0)  # mountains
    state.buildings[0][FORTRESS] = 1
    to_build(state, 0)
    give(state, 0, gold=6)
    kinds = {(a.kind, a.territory) for a in GAME.legal_options(state, 0) if a.kind in BUILDINGS}
    assert kinds == {("church", 0), ("hall", 0)}
    state.villages[0][0] = 0
    state.buildings[0][CHURCH] = 0  # a building alone is not a village
    kinds = {(a.kind, a.territory) for a in GAME.legal_options(state, 0) if a.kind in BUILDINGS}
    assert kinds == set()


def test_army_costs_with_fortresses():
    """graenaland.txt:165 "for 1 grain, 1 ore, and another 3 grain"; :168 "If you have a fortress on a plain
    and a
    fortress in a forest, you can expand your army by paying 1 grain, 1 ore, and 1 cattle, or 1 grain, 1 ore,
    and 1 wood, or 4 grain and 1 ore." """
    state = blank()
    state.buildings[0][FORTRESS] = 0  # plains
    state.buildings[1][FORTRESS] = 0  # forest
    costs = building.cost_variants(state, board(), DATA, 0, "army", -1)
    assert sorted(costs) == sorted([(4, 0, 0, 1), (1, 1, 0, 1), (1, 0, 1, 1)])
    to_build(state, 0)
    give(state, 0, grain=1, ore=1, cattle=1, wood=1)
    GAME.apply(state, {0: Action("army")})
    pays = {p.resources for p in GAME.legal_options(state, 0)}
    assert pays == {(1, 1, 0, 1, 0), (1, 0, 1, 1, 0)}
    GAME.apply(state, {0: Pay((1, 1, 0, 1, 0), (), 0)})
    assert state.army[0] == 2 and hand(state, 0) == [0, 0, 1, 0, 0]


def test_gold_is_wild():
    """graenaland.txt:127 "Gold is a "wild" resource; you can use it in place of any resource." """
    pays = building.payments((0, 2, 2, 0), (0, 1, 2, 0, 2), (), 0)
    assert Pay((0, 1, 2, 0, 1), (), 0) in pays and Pay((0, 0, 2, 0, 2), (), 0) in pays
    assert Pay((0, 1, 1, 0, 2), (), 0) in pays and all(sum(p.resources) == 4 for p in pays)


def test_supply_card_examples():
    """graenaland.txt:133 "You may use it in place of one of the shown resources, or as a pair of resources.";
    :134 "You may use a supply card for only a single building ... If you decide to use only one resource from
    the card, the unused resource is lost." """
    pair = (CATTLE, WOOD)
    pays = building.payments((0, 2, 2, 0), (0, 1, 1, 0, 0), (pair,), 0)
    assert Pay((0, 1, 1, 0, 0), (pair,), 0) in pays  # the card as the pair
    pays = building.payments((0, 1, 0, 1), (0, 0, 0, 1, 0), (pair,), 0)
    assert pays == [Pay((0, 0, 0, 1, 0), (pair,), 0)]  # one half used, the wood lost
    # a second card of the same pair is needed for a second building
    state = blank()
    state.supplies[0] = [DATA.supply_cards.index((CATTLE, WOOD))]
    settle(state, 0, 0)
    give(state, 0, cattle=1, wood=1)
    to_build(state, 0)
    state.supply_taken = True
    GAME.apply(state, {0: Action("village", 0)})
    GAME.apply(state, {0: Pay((0, 1, 1, 0, 0), ((CATTLE, WOOD),), 0)})
    assert state.supplies[0] == [] and state.villages[0][0] == 2 and state.supply_discard


def test_marketplace_example():
    """graenaland.txt:196 "instead of paying 2 wood and 2 cattle for a village, you may pay 2 wood, 1 cattle,
    and
    1 card of any kind."; :197 "You cannot use this to substitute for only one resource on a supply card. If
    you
    wish, you may substitute the entire supply card (both resources) with a single resource of any kind." """
    pays = building.payments((0, 2, 2, 0), (1, 1, 2, 0, 0), (), 1)
    assert Pay((1, 1, 2, 0, 0), (), 1) in pays
    assert building.payments((0, 2, 2, 0), (1, 1, 2, 0, 0), (), 0) == []
    sup = ((GRAIN, ORE),)
    pays = building.payments((0, 2, 2, 0), (0, 1, 2, 0, 0), sup, 1)
    assert pays == [Pay((0, 1, 2, 0, 0), sup, 1)]  # the whole supply card as the missing cattle
    # each marketplace once: two missing units need two marketplaces
    assert building.payments((0, 2, 2, 0), (2, 0, 2, 0, 0), (), 1) == []
    assert building.payments((0, 2, 2, 0), (2, 0, 2, 0, 0), (), 2) == [Pay((2, 0, 2, 0, 0), (), 2)]


def test_marketplace_once_per_phase_and_usable_when_just_built():
    """graenaland.txt:194 "may use a marketplace once during their building phase"; :198 "A marketplace you
    built
    in the current round may be used for your next building already in this same round. Likewise, you may use
    a marketplace already built on the territory where you have just built your first village." """
    state = blank()
    settle(state, 0, 0)
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, wood=3, ore=2, grain=1, cattle=2)
    GAME.apply(state, {0: Action("market", 0)})  # 2 wood + 1 ore + 1 grain
    GAME.apply(state, {0: Pay((1, 0, 2, 1, 0), (), 0)})
    assert state.public[0][MARKET] and building.markets_available(state, 0) == [0]
    GAME.apply(state, {0: Action("road", 0)})  # 2 wood + 1 ore with 1 wood: the new marketplace helps
    assert GAME.legal_options(state, 0) == [Pay((0, 1, 1, 1, 0), (), 1)]
    GAME.apply(state, {0: Pay((0, 1, 1, 1, 0), (), 1)})
    assert state.public[0][ROAD] and building.markets_available(state, 0) == []
    to_build(state, 0)  # the next building phase: usable again
    assert building.markets_available(state, 0) == [0]


def test_marketplace_reached_by_a_new_village():
    """graenaland.txt:198 (second sentence) and :195 "each marketplace once" """
    state = blank()
    settle(state, 0, 0)
    state.public[1][MARKET] = True
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, grain=2, cattle=2, ore=1, wood=1)
    GAME.apply(state, {0: Action("village", 1)})  # forest: 2 grain + 2 cattle
    GAME.apply(state, {0: Pay((2, 2, 0, 0, 0), (), 0)})
    assert building.markets_available(state, 0) == [1]
    # now a road (2 wood + 1 ore) with 1 wood + 1 ore + the marketplace? needs another card: none left
    give(state, 0, grain=1)
    GAME.apply(state, {0: Action("road", 1)})
    assert Pay((1, 0, 1, 1, 0), (), 1) in GAME.legal_options(state, 0)
    GAME.apply(state, {0: Pay((1, 0, 1, 1, 0), (), 1)})
    assert state.public[1][ROAD] and building.markets_available(state, 0) == []


def test_public_buildings_where_and_once():
    """graenaland.txt:175 "You may build a public building only on a territory where you have at least one
    settlement."; :177 "Several public buildings may stand on a territory, but only one of each kind." """
    state = blank()
    settle(state, 2, 0)
    state.public[2][ROAD] = True
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, gold=6)
    public = {(a.kind, a.territory) for a in GAME.legal_options(state, 0) if a.kind in PUBLIC}
    assert public == {("yield", 2), ("market", 2), ("palisade", 2)}


def test_palisade_fee():
    """graenaland.txt:203 "If a player wants to build a village on a territory with a palisade where they do
    not
    yet have any settlement, they must, in addition to the normal building cost, give one resource card to
    every player who already has a settlement there. A player who already has a settlement there may build
    further settlements as usual." """
    state = blank()
    settle(state, 0, 0)
    settle(state, 1, 2)
    settle(state, 1, 3)
    state.public[1][PALISADE] = True
    to_build(state, 0)
    state.supply_taken = True
    give(state, 0, grain=2, cattle=2, ore=1)
    assert Action("village", 1) not in GAME.legal_options(state, 0)  # 5 cards: cost 4 + 2 fee cards
    give(state, 0, wood=1)
    GAME.apply(state, {0: Action("village", 1)})
    assert GAME.legal_options(state, 0) == [Pay((2, 2, 0, 0, 0), (), 0)]
    GAME.apply(state, {0: Pay((2, 2, 0, 0, 0), (), 0)})
    assert state.phase == FEE and GAME.legal_options(state, 0) == [Fee(WOOD), Fee(ORE)]
    GAME.apply(state, {0: Fee(ORE)})
    GAME.apply(state, {0: Fee(WOOD)})
    assert hand(state, 2)[ORE] == 1 and hand(state, 3)[WOOD] == 1 and state.phase == BUILD
    # a second village there: no fee
    give(state, 0, grain=2, cattle=2)
    GAME.apply(state, {0: Action("village", 1)})
    GAME.apply(state, {0: Pay((2, 2, 0, 0, 0), (), 0)})
    assert state.phase == BUILD and state.villages[1][0] == 2


def test_supply_card_taken_once_before_the_end():
    """graenaland.txt:132 "If you are the main player, you take 1 supply card during the building phase ... Do
    not forget to take a card before the end of the round" """
    state = blank()
    to_build(state, 0)
    opts = GAME.legal_options(state, 0)
    assert END not in opts and [a.index for a in opts if a.kind == "supply"] == [0, 1, 2, 3]
    card = state.supply_row[2]
    GAME.apply(state, {0: Action("supply", -1, 2)})
    opts = GAME.legal_options(state, 0)
    assert END in opts and not any(a.kind == "supply" for a in opts) and state.supplies[0] == [card]


def test_end_of_round_ship_moves_left_and_a_supply_card_is_turned():
    """graenaland.txt:216 "move the ship marker to the player on their left, and the round ends."; :217 "Turn
    over
    one card from the supply deck" """
    state = fresh()
    GAME.apply(state, {1: STAY, 2: STAY, 3: STAY})
    while state.phase != BUILD:
        seat = GAME.to_move(state)
        GAME.apply(state, {s: (NO_PROPOSAL if state.phase == PROPOSE else Vote(False)) for s in seat})
    GAME.apply(state, {0: Action("supply", -1, 0)})
    deck = len(state.supply_deck)
    GAME.apply(state, {0: END})
    assert state.main == 1 and state.round == 2 and len(state.supply_row) == 4
    assert len(state.supply_deck) == deck - 1 and state.phase == HEROES and GAME.to_move(state) == (0, 2, 3)


def test_joint_public_building():
    """graenaland.txt:207 "Once per round you may propose the construction of one public building, in which
    the
    other players may also take part."; :210 "Other players may contribute resources"; :211 "you do not have
    to
    build it. In that case, players keep the resources they offered."; :212 "you cannot build any further
    public
    building with their help in this round." """
    state = blank()
    settle(state, 0, 0)
    to_build(state, 0)
    state.supply_taken = True
    give(state, 1, wood=3)
    give(state, 2, ore=1, gold=1)
    give(state, 0, cattle=1)
    GAME.apply(state, {0: Action("joint", 0, ROAD)})  # road: 2 wood + 1 ore
    assert state.phase == CONTRIBUTE and GAME.to_move(state) == (1, 2)  # seat 3 has nothing to offer
    assert Contribute((0, 0, 3, 0, 0)) not in GAME.legal_options(state, 1)  # at most the cost of each
    GAME.apply(state, {1: Contribute((0, 0, 2, 0, 0)), 2: Contribute((0, 0, 0, 1, 1))})
    assert state.phase == JOINT and state.taken == {1: (0, 0, 2, 0, 0), 2: (0, 0, 0, 1, 0)}
    GAME.apply(state, {0: Decide(True)})
    assert state.public[0][ROAD] and hand(state, 1)[WOOD] == 1 and hand(state, 2) == [0, 0, 0, 0, 1]
    assert not any(a.kind == "joint" for a in GAME.legal_options(state, 0))
    # a declined proposal leaves everyone's cards (and still uses up the round's proposal)
    state2 = blank()
    settle(state2, 0, 0)
    to_build(state2, 0)
    state2.supply_taken = True
    give(state2, 1, wood=2)
    GAME.apply(state2, {0: Action("joint", 0, ROAD)})
    GAME.apply(state2, {1: Contribute((0, 0, 2, 0, 0))})
    assert GAME.legal_options(state2, 0) == [Decide(False)]  # the ore is missing
    GAME.apply(state2, {0: Decide(False)})
    assert hand(state2, 1)[WOOD] == 2 and not state2.public[0][ROAD] and state2.joint_used


def test_joint_remainder_paid_by_the_main_player():
    """graenaland.txt:210-212: the main player pays what the others do not."""
    state = blank()
    settle(state, 0, 0)
    to_build(state, 0)
    state.supply_taken = True
    give(state, 1, wood=1)
    give(state, 0, wood=1, ore=1)
    GAME.apply(state, {0: Action("joint", 0, ROAD)})
    GAME.apply(state, {1: Contribute((0, 0, 1, 0, 0))})
    GAME.apply(state, {0: Decide(True)})
    assert state.phase == PAY and GAME.legal_options(state, 0) == [Pay((0, 0, 1, 1, 0), (), 0)]
    GAME.apply(state, {0: Pay((0, 0, 1, 1, 0), (), 0)})
    assert state.public[0][ROAD] and hand(state, 1) == [0] * 5 and hand(state, 0) == [0] * 5
    assert state.phase == BUILD and state.builder == 0  # back to building


def test_five_player_offer():
    """graenaland.txt:300 "the main player has the option to allow another player one building ... instead of
    making their proposal for a joint public building."; :303 "They must build independently — they may not
    use
    a marketplace, nor do they take a supply card."; :304 "the main player has used up their offer" """
    state = blank(5, five_player_offer=True)
    settle(state, 0, 0)
    settle(state, 1, 3)
    state.public[1][MARKET] = True
    to_build(state, 0)
    state.supply_taken = True
    give(state, 3, grain=2, cattle=1, wood=1)
    assert Action("offer", -1, 3) in GAME.legal_options(state, 0)
    GAME.apply(state, {0: Action("offer", -1, 3)})
    assert GAME.to_move(state) == (3,)
    opts = GAME.legal_options(state, 3)
    assert Action("village", 1) not in opts  # 2 grain + 2 cattle would need the marketplace
    give(state, 3, cattle=1)
    GAME.apply(state, {3: Action("village", 1)})
    GAME.apply(state, {3: Pay((2, 2, 0, 0, 0), (), 0)})
    assert state.villages[1][3] == 2 and GAME.to_move(state) == (0,)
    assert not any(a.kind in ("offer", "joint") for a in GAME.legal_options(state, 0))
    assert not any(a.kind == "offer" for a in GAME.legal_options(blank_build(4, five_player_offer=True), 0))


def blank_build(n, **rules_config):
    state = blank(n, **rules_config)
    settle(state, 0, 0)
    to_build(state, 0)
    state.supply_taken = True
    return state


# --------------------------------------------------------------------------- victory


def test_goals():
    """graenaland.txt:227-231: 8 settlements; two or more settlements on at least three territories; four on
    one
    territory; two buildings; army 3."""
    state = blank()
    settle(state, 0, 0, 4)
    settle(state, 1, 0, 2)
    settle(state, 2, 0, 1)
    state.buildings[2][FORTRESS] = 0
    state.buildings[2][HALL] = 0
    assert goal_values(state, DATA, 0) == (9, 3, 4, 2, 1)
    assert goals_met(state, DATA, 0) == (True, True, True, True, False)
    state.army[0] = 3
    assert all(goals_met(state, DATA, 0))


def test_three_player_first_building_does_not_count():
    """graenaland.txt:249 "Your first building does not count when evaluating the Buildings victory condition
    ...
    (Your first building still counts toward the Number of Settlements, Number of Territories, and Largest
    Territory conditions.)" """
    state = blank(3)
    settle(state, 0, 0, 1)
    state.buildings[0][FORTRESS] = 0
    state.buildings[0][CHURCH] = 0
    assert goal_values(state, DATA, 0) == (3, 1, 3, 1, 1) and not goals_met(state, DATA, 0)[3]
    state.buildings[1][HALL] = 0
    assert goals_met(state, DATA, 0)[3]
    off = blank(3, three_player_adjustments="off")
    off.buildings[0][FORTRESS] = 0
    off.buildings[0][CHURCH] = 0
    assert goals_met(off, DATA, 0)[3]


def test_announcement_final_building_and_winner():
    """graenaland.txt:221 "When the main player finishes their building phase, they check the victory
    conditions
    card and may, if applicable, announce that they have won."; :235 "every other player may use one building
    phase, starting with the player next to the one who announced victory."; :236-237 no supply card, no
    public
    buildings; :241 "The player who announced their victory is the winner." """
    state = blank()
    settle(state, 0, 1, 4)
    settle(state, 1, 1, 2)
    settle(state, 2, 1, 2)
    settle(state, 3, 0)
    state.public[3][MARKET] = True
    assert can_announce(state, DATA, 1)
    to_build(state, 1)
    GAME.apply(state, {1: Action("supply", -1, 0)})
    GAME.apply(state, {1: END})
    assert state.announcer == 1 and state.final and state.builder == 2 and state.final_queue == [3, 0]
    give(state, 2, gold=8)
    opts = GAME.legal_options(state, 2)
    assert END in opts and not any(a.kind in ("supply", "joint", "road", "yield", "market", "palisade")
                                   for a in opts)
    for seat in (2, 3, 0):
        assert GAME.to_move(state) == (seat,)
        GAME.apply(state, {seat: END})
    assert state.phase == OVER and GAME.is_terminal(state)
    res = GAME.result(state)
    assert res.winners == [1] and res.ranks[1] == 1 and sorted(res.ranks) == [1, 2, 2, 2]


def test_state_round_trips_through_a_dict():
    import json

    state = fresh(5, seed=4, custom_start=True, victory_cards=True)
    copy = GAME.from_dict(json.loads(json.dumps(GAME.to_dict(state))))
    assert GAME.to_dict(copy) == GAME.to_dict(state)


# --------------------------------------------------------------------------- advanced rules


def test_advanced_switches_default_off_and_three_player_auto():
    """graenaland.txt:37 "Set the victory point cards back in the box — you will not need them in your first
    game."; :257 the optional layout is not for first games; :25 three players "should use the
    adjustments"."""
    defaults = {s.name: s.default for s in GAME.rule_switches}
    assert defaults == {"three_player_adjustments": "auto", "custom_start": False, "victory_cards": False,
                        "five_player_offer": False}
    assert fresh(3).three and not fresh(4).three and not fresh(5).three


def test_custom_start_draft_order_cards_and_warrior():
    """graenaland.txt:269 "Place two face-down resource cards of the appropriate terrain next to each coastal
    territory."; :270-271 each player places a village and a warrior and takes one of the cards there; :273
    the second round in reverse order; :274 only villages; :275 "No player may place both villages on the
    same territory."; :277 remaining cards set aside."""
    from sim.games.graenaland.state import DRAFT

    state = fresh(3, custom_start=True)
    b = board(3)
    assert state.phase == DRAFT and state.draft_queue == [0, 1, 2, 2, 1, 0]
    assert [len(state.draft_cards[t]) for t in range(b.n)] == [2, 2, 2, 0, 0]
    assert all(DATA.card_deck[c] == b.terrain[t] for t in range(b.n) for c in state.draft_cards[t])
    assert {a.territory for a in GAME.legal_options(state, 0)} == {0, 1, 2}  # coastal only
    picks = [(0, 0), (1, 1), (2, 2), (2, 0), (1, 2)]
    for seat, t in picks:
        assert GAME.to_move(state) == (seat,)
        GAME.apply(state, {seat: Action("settle", t)})
    assert state.heroes[0][WARRIOR] == 0 and state.heroes[2][WARRIOR] == 2  # warrior with the first village
    assert 0 not in {a.territory for a in GAME.legal_options(state, 0)}  # line 275
    GAME.apply(state, {0: Action("settle", 1)})
    assert state.phase == HEROES and state.start_positions == [(0, 1), (1, 2), (2, 0)]
    assert all(len(state.hands[p]) == 2 for p in range(3)) and state.draft_cards == []
    assert all(sum(row[p] for row in state.villages) == 2 for p in range(3))


def test_custom_start_third_village_weighs_anchor():
    """graenaland.txt:272 "A player may still do so. They receive no card for it (because none remain). In
    addition, the first player who built a village there may immediately "weigh anchor" and move their village
    to a less crowded territory (and take an additional card there ...). If they do not wish to do this, the
    second player who settled there may do so" """
    from sim.games.graenaland.state import ANCHOR

    state = fresh(5, custom_start=True)
    for seat, t in [(0, 0), (1, 0), (2, 0)]:
        GAME.apply(state, {seat: Action("settle", t)})
    assert state.phase == ANCHOR and GAME.to_move(state) == (0,) and len(state.hands[2]) == 0
    opts = GAME.legal_options(state, 0)
    assert opts[0] == Decide(False) and {o.territory for o in opts[1:]} == {1, 2, 3, 4}
    GAME.apply(state, {0: Decide(False)})
    assert GAME.to_move(state) == (1,)
    GAME.apply(state, {1: Action("anchor", 3)})
    assert state.villages[0][1] == 0 and state.villages[3][1] == 1 and len(state.hands[1]) == 2
    assert state.heroes[1][WARRIOR] == 0  # the warrior stays (ruling G23)
    assert state.start_positions[1] == (3, -1) and GAME.to_move(state) == (3,)


def test_custom_start_last_village_constraint():
    """graenaland.txt:276 "The player placing the last village must not be forced to overcrowd a territory:
    there
    must be at least one free card lying at another territory besides the one where they placed their first
    house. A player placing or moving the second-to-last village must take this into account." """
    state2 = fresh(3, custom_start=True)
    for seat, t in [(0, 0), (1, 1), (2, 2), (2, 1)]:
        GAME.apply(state2, {seat: Action("settle", t)})
    # seat 1 places the second-to-last village; seat 0 (first village at 0) places the last one. Cards left:
    # t0: 1, t1: 0, t2: 1. Taking t2's card would leave only t0, where seat 0 already is.
    opts = {a.territory for a in GAME.legal_options(state2, 1)}
    assert 2 not in opts and 0 in opts
    with pytest.raises(IllegalChoice):
        GAME.apply(state2, {1: Action("settle", 2)})


def test_victory_cards_deal_keep_and_points():
    """graenaland.txt:283 "Each player receives three victory point cards. They choose one and set the rest
    aside
    face down."; :286 "For each level fulfilled, the player earns one victory point"; :288 6 points win."""
    from sim.games.graenaland.state import CHOOSE_CARD
    from sim.games.graenaland.victory import victory_points

    assert len(DATA.victory_cards) == 20 and DATA.victory_points == 6
    state = fresh(4, victory_cards=True)
    assert state.phase == CHOOSE_CARD and GAME.to_move(state) == (0, 1, 2, 3)
    assert all(len(o) == 3 for o in state.vp_offer)
    dealt = [c for o in state.vp_offer for c in o]
    assert len(set(dealt)) == 12
    offers = [list(o) for o in state.vp_offer]
    GAME.apply(state, {p: Action("keep_card", -1, p % 3) for p in range(4)})
    assert state.vp_card == [offers[p][p % 3] for p in range(4)]
    assert state.phase == HEROES and all(c in dealt for c in state.vp_card)
    view = GAME.view(state, 1)
    assert view.victory_card == DATA.victory_cards[state.vp_card[1]].levels
    # the worked example (lines 289-294) on the reconstructed base card levels
    card = next(i for i, c in enumerate(DATA.victory_cards) if c.id == "easy-territories-hard-army")
    ex = blank(4)
    settle(ex, 0, 0, 5)
    settle(ex, 1, 0, 3)
    ex.buildings[0][FORTRESS] = ex.buildings[0][CHURCH] = ex.buildings[1][HALL] = 0
    ex.villages[0][0] -= 2
    ex.villages[1][0] -= 1
    ex.army[0] = 3
    assert goal_values(ex, DATA, 0) == (8, 2, 5, 3, 3)
    levels = DATA.victory_cards[card].levels
    assert victory_points(ex, DATA, 0, card) == sum(1 for v, lv in zip((8, 2, 5, 3, 3), levels) for x in lv
                                                     if v >= x)


def test_victory_card_announcement_priority_and_final_building():
    """graenaland.txt:311 "After the distribution of resources, but before the main player's building phase
    begins, any player may announce that they are able to win"; :313 "the player closest to the main player
    (going clockwise, starting with the main player) goes first, unless another player announces that they can
    achieve more than 6 victory points"; :315-316 the announcer builds first, then the others; placement by
    points."""
    from sim.games.graenaland.state import ANNOUNCE

    state = blank(4, victory_cards=True)
    state.vp_card = [0, 0, 0, 0]
    state.main = 1
    levels = DATA.victory_cards[0].levels
    for p in (2, 3):  # both at settlements level 3, largest level 3 -> enough with the others
        settle(state, p, p, 7)
        settle(state, (p + 2) % 4, p, 2)
        settle(state, 6, p, 2)
    state.army[3] = levels[4][0]
    state.proposers = []
    rules._next_proposer(state, board(), DATA)
    assert state.phase == ANNOUNCE
    claims = state.claims
    assert claims[3] > claims[2] >= 6 and GAME.to_move(state) == (2, 3)
    GAME.apply(state, {2: Decide(True), 3: Decide(True)})
    assert state.announcer == 3 and state.builder == 3 and state.final and state.final_queue == [0, 1, 2]
    for seat in (3, 0, 1, 2):
        GAME.apply(state, {seat: END})
    res = GAME.result(state)
    assert state.phase == OVER and res.winners == [3] and res.ranks[3] == 1 and res.ranks[2] == 2


def announce_state(hands: dict[int, tuple[int, dict[str, int]]]):
    """Main player 1, the distribution over; each seat in ``hands`` (seat -> army, cards in its hand) with
    card 12 (Settlements 8/9/11, Territories 3/4/5, Largest 4/6/7, Buildings 1/2/3, Army 3/4/5) and 8
    settlements on three territories, four on territory 0: 3 points, and one per army level. Seats 0 and 1
    hold every building there (4 and 3 points, no cards), so only villages and army steps are open."""
    state = blank(4, victory_cards=True)
    state.vp_card = [12] * 4
    state.main = 1
    for t in (0, 2, 3):
        state.buildings[t] = [0, 1, 0]
    for p, (army, cards) in hands.items():
        settle(state, 0, p, 4)
        settle(state, 2, p, 2)
        settle(state, 3, p, 2)
        state.army[p] = army
        give(state, p, **cards)
    state.proposers = []
    rules._next_proposer(state, board(), DATA)
    return state


def test_announcement_counts_every_build_of_the_phase():
    """graenaland.txt:311 "any player may announce that they are able to win — that is, that they can
    achieve 6 victory points if given the opportunity to build" with :128 "You may build as many buildings
    as you have resources for": seat 2 has 4 points and 8 grain + 2 ore, two army steps (4 grain + 1 ore
    each, line 165) to 6 points; one step alone makes 5. It may announce."""
    from sim.games.graenaland.state import ANNOUNCE
    from sim.games.graenaland.victory import victory_points

    state = announce_state({2: (3, dict(grain=8, ore=2))})
    assert victory_points(state, DATA, 2, 12) == 4
    assert state.phase == ANNOUNCE and GAME.to_move(state) == (2,) and state.claims[2] == 6
    GAME.apply(state, {2: Decide(True)})
    assert state.announcer == 2 and state.builder == 2 and state.final
    for _ in range(2):
        GAME.apply(state, {2: Action("army")})
        GAME.apply(state, {2: GAME.legal_options(state, 2)[0]})
    assert victory_points(state, DATA, 2, 12) == 6


def test_announcement_priority_reads_the_most_points_of_several_builds():
    """graenaland.txt:313 "the player closest to the main player (going clockwise, starting with the main
    player) goes first, unless another player announces that they can achieve more than 6 victory points;
    the highest number of victory points takes priority": with main player 1, seat 2 reaches 6 (one army
    step), seat 3 reaches 7 only with an army step and a village (line 128) — seat 3 announces."""
    state = announce_state({2: (4, dict(grain=4, ore=1)), 3: (4, dict(grain=4, ore=1, cattle=2, wood=2))})
    assert state.claims[2] == 6 and state.claims[3] == 7 and GAME.to_move(state) == (2, 3)
    GAME.apply(state, {2: Decide(True), 3: Decide(True)})
    assert state.announcer == 3 and state.builder == 3


def test_strategies_price_the_army_with_their_fortresses():
    """Lines 165-168: with a fortress the army costs 1 grain + 1 ore + the fortress terrain's resource, so
    a strategy plans with that cheaper price (``building.army_costs`` read off its view), not 4 grain +
    1 ore."""
    from strategies.graenaland import GreedyStrategy

    state = blank(4)
    state.villages[0][1] = 1
    greedy = GreedyStrategy(1, None)
    assert greedy.cost_of(GAME.view(state, 1), "army", -1) == DATA.costs["army"]
    state.buildings[0][FORTRESS] = 1  # plains: + cattle (the line 168 example)
    view = GAME.view(state, 1)
    assert building.army_costs(view.buildings, view.board, DATA, 1) == [DATA.costs["army"], (1, 1, 0, 1)]
    assert greedy.cost_of(view, "army", -1) == (1, 1, 0, 1)
    assert (1, 1, 0, 1) in [cost for _, cost in greedy.targets(view)]


def test_goal_planner_picks_the_cheapest_three_goals():
    """graenaland.txt:225 "To win, a player must fulfill at least three of five possible goals": the
    ``focus`` strategies plan for the three that cost the fewest cards from where they stand. Three
    villages on a plains piece and army 2: one building there makes Largest (line 229) and counts for
    Buildings (line 230), a second building completes Buildings, one army step completes Army (line
    231): 2 building prices + 1 army price, cheaper than any set with Settlements or Territories."""
    from sim.games.graenaland.state import board_changed
    from strategies.graenaland import ARMY, BUILDINGS_GOAL, LARGEST, GreedyStrategy, goal_plan_costs

    state = blank(4)
    settle(state, 0, 1, 3)
    state.army[1] = 2
    board_changed(state, 1)
    view = GAME.view(state, 1)
    costs = goal_plan_costs(view)
    building_price = min(sum(DATA.costs[name]) for name in BUILDINGS)
    assert costs[(LARGEST, BUILDINGS_GOAL, ARMY)] == 2 * building_price + sum(DATA.costs["army"])
    assert min(costs, key=costs.get) == (LARGEST, BUILDINGS_GOAL, ARMY)
    assert GreedyStrategy(1, None, focus=0.8).plan(view) == (LARGEST, BUILDINGS_GOAL, ARMY)
    # line 43: 14 houses; a set that needs more houses than the seat has left is out of reach
    state.houses[1] = 1
    assert goal_plan_costs(GAME.view(state, 1))[(LARGEST, BUILDINGS_GOAL, ARMY)] == float("inf")


def test_focus_weighs_only_the_planned_goals():
    """With ``focus=1`` the goals outside the plan add nothing to a position's value; with the default
    ``focus=0`` every goal counts (the greedy of the golden games)."""
    from sim.games.graenaland.state import board_changed
    from strategies.graenaland import SETTLEMENTS, GreedyStrategy

    state = blank(4)
    settle(state, 0, 1, 3)
    state.army[1] = 2
    board_changed(state, 1)
    view = GAME.view(state, 1)
    values = view.goals[1]
    more_settlements = (values[SETTLEMENTS] + 3, *values[1:])
    focused, plain = GreedyStrategy(1, None, focus=1.0), GreedyStrategy(1, None)
    assert SETTLEMENTS not in focused.plan(view)
    assert focused.potential(view, more_settlements) == focused.potential(view, values)
    assert plain.potential(view, more_settlements) > plain.potential(view, values)

"""Mainland rules, one test (or parametrized group) per rule of ../shared/rules/mainland.txt.

Boards are built by hand (``items``/``owner`` written directly, ``counts`` recomputed) and
checked with ``kernels.check_placement``, with an independent plain-Python oracle
(``mainland_testkit.oracle_legal``), and through ``rules``/``GAME`` where a rule is about
the flow of a turn.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.errors import IllegalChoice
from sim.game import Result
from sim.games.mainland import kernels, rules
from sim.games.mainland.game import GAME
from sim.games.mainland.items import CODE, ITEMS, PLACEABLE_ON, REQUIRES
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
)
from tests.mainland_testkit import (
    OVERLAY_TEXT,
    POINTS_TEXT,
    REQUIRES_TEXT,
    RULEBOOK,
    C,
    card_index,
    check,
    empty_board,
    fresh_state,
    lay,
    oracle_legal,
    oracle_scores,
    parse_overlay_table,
    put,
    recount,
    set_board,
)

OK = kernels.OK
NON_EMPTY = [name for name in ITEMS if name != "empty"]
ADVANCED = ("village", "tower", "warrior", "rider", "castle")


def needs(item: str) -> list[str]:
    """Seat-0 items that satisfy the requirements of placing one ``item``."""
    return list(REQUIRES_TEXT.get(item, ()))


def own_items(items, owner, names, seat=0, row=6):
    """Scatter single tiles of ``seat`` on row ``row`` (and below), two columns apart (isolated)."""
    for i, name in enumerate(names):
        r, c = row + 2 * (i // 5), 2 * (i % 5)
        assert items[r, c] == 0
        put(items, owner, {(r, c): (name, seat)})


def site(own=(), opp=(), rows=10, cols=10):
    """Seat 1 plains at (0,0),(0,1); a card at (0,0) overlaps them and covers empty (1,0),(1,1).

    ``own`` items of seat 0 are scattered from row 6 and ``opp`` items of seat 1 on row 4
    on odd columns, all isolated from each other and from the site.
    """
    items, owner = empty_board(rows, cols)
    put(items, owner, {(0, 0): ("plain", 1), (0, 1): ("plain", 1)})
    own_items(items, owner, own, seat=0, row=6)
    for i, name in enumerate(opp):
        put(items, owner, {(4, 2 * i + 1): (name, 1)})
    return items, owner


def both(items, owner, seat, layout, r, c, **kw) -> int:
    """Reason code from the engine, asserted to agree with the oracle on legality."""
    why = check(items, owner, seat, layout, r, c, **kw)
    castle = kw.get("is_castle")
    castle = bool((np.asarray(layout) == CODE["castle"]).any()) if castle is None else castle
    legal = oracle_legal(items, owner, seat, np.asarray(layout), castle, r, c,
                         kw.get("castle_needs_overlap", True), kw.get("camp", False),
                         kw.get("card_meets_own", False))
    assert (why == OK) == legal, f"engine says {kernels.REASONS[why]!r}, oracle says legal={legal}"
    return why


# --------------------------------------------------------------------------- the overlay table


def test_overlay_table_matches_rulebook_text():
    """mainland.txt:161-175: the engine's table is the printed one, row by row."""
    assert PLACEABLE_ON == OVERLAY_TEXT
    if RULEBOOK.exists():
        assert parse_overlay_table(RULEBOOK.read_text(encoding="utf-8")) == OVERLAY_TEXT
    for placed in NON_EMPTY:
        for covered in ITEMS:
            allowed = covered in OVERLAY_TEXT[placed]
            assert rules.ALLOWED[CODE[placed], CODE[covered]] == allowed, (placed, covered)


def test_overlay_reading_follows_the_prose_example():
    """mainland.txt:107/159 "a plain can be placed only on a plain, on a wheat resource, or on an
    empty space" -- the table row (:165) names the item being placed (ruling R1), not the one below."""
    items, owner = site()
    put(items, owner, {(0, 0): ("wheat", 1)})
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 0, 0) == OK  # plain on wheat
    put(items, owner, {(0, 0): ("forest", 1)})
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 0, 0) == kernels.OVERLAY


@pytest.mark.parametrize("covered", ITEMS)
@pytest.mark.parametrize("placed", NON_EMPTY)
def test_rule3_overlay_every_pair(placed, covered):
    """Rule 3, mainland.txt:101 "Your card must respect the overlay rules", table :163-175.

    The tested tile is the card's top-left; its other three tiles are plains over a plain and
    two empty cells, and seat 0 holds the requirements of ``placed`` elsewhere, so the
    overlay is the only rule that can fail.
    """
    items, owner = site(own=needs(placed))
    if covered != "empty":
        put(items, owner, {(0, 0): (covered, 1)})
    else:
        items[0, 0], owner[0, 0] = 0, -1
    why = both(items, owner, 0, C(placed, "plain", "plain", "plain"), 0, 0)
    assert why == (OK if covered in OVERLAY_TEXT[placed] else kernels.OVERLAY)


@pytest.mark.parametrize("placed", NON_EMPTY)
def test_temple_only_destroyed_by_rider_or_castle(placed):
    """mainland.txt:258 "The temple is not an advanced item. Only riders and castles can destroy a
    temple." """
    items, owner = site(own=needs(placed))
    put(items, owner, {(0, 0): ("temple", 1)})
    why = both(items, owner, 0, C(placed, "plain", "plain", "plain"), 0, 0)
    assert (why == OK) == (placed in ("rider", "castle"))
    assert "temple" not in REQUIRES and "temple" not in ADVANCED


def test_overlay_applies_to_own_cards_too():
    """mainland.txt:107 "What matters is not the color of the cards involved, but the items"."""
    items, owner = site()
    put(items, owner, {(0, 0): ("forest", 0)})
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 0, 0) == kernels.OVERLAY
    put(items, owner, {(0, 0): ("plain", 0)})
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 0, 0) == OK


# --------------------------------------------------------------------------- rules 1 and 2, rotation, limits


@pytest.mark.parametrize(
    "r,c,expected",
    [
        (0, 0, kernels.NO_OVERLAP),  # far away
        (6, 4, kernels.NO_OVERLAP),  # edge-adjacent below the card in play
        (4, 6, kernels.NO_OVERLAP),  # edge-adjacent to the right
        (6, 6, kernels.NO_OVERLAP),  # touching by a corner only
        (5, 5, OK),  # overlaps one tile
        (3, 3, OK),  # overlaps one tile from above-left
        (4, 5, OK),  # overlaps two tiles
    ],
)
def test_rule1_must_overlap_a_card_in_play(r, c, expected):
    """Rule 1, mainland.txt:99 "Your card must overlap one or more cards in play." """
    items, owner = empty_board()
    lay(items, owner, 4, 4, ("plain", "plain", "plain", "plain"), 1)
    assert both(items, owner, 0, C("plain", "wheat", "plain", "wheat"), r, c) == expected


@pytest.mark.parametrize("r,c,expected", [(4, 4, kernels.NO_EMPTY), (4, 5, kernels.NO_EMPTY), (4, 6, OK),
                                          (3, 4, OK)])
def test_rule2_must_overlap_empty_space(r, c, expected):
    """Rule 2, mainland.txt:100 "Your card must overlap the empty space of the board." """
    items, owner = empty_board()
    lay(items, owner, 4, 4, ("plain", "plain", "plain", "plain"), 1)
    lay(items, owner, 4, 6, ("plain", "wheat", "plain", "wheat"), 0)  # own cards count as well
    items[4:6, 7] = 0
    owner[4:6, 7] = -1
    assert both(items, owner, 0, C("wheat", "plain", "plain", "plain"), r, c) == expected


def test_rotation_is_a_clockwise_quarter_turn():
    """mainland.txt:103 "You can rotate the card." -- rotations[card, k] is k quarter turns clockwise."""
    data = GAME.load_data(None)
    for card in range(len(data.card_ids)):
        grid = data.rotations[card, 0].reshape(2, 2)
        for k in range(4):
            assert (np.rot90(grid, -k).ravel() == data.rotations[card, k]).all()
            assert data.unique_rotation[card, k] == all(
                not (data.rotations[card, j] == data.rotations[card, k]).all() for j in range(k))


def test_card_that_only_fits_rotated():
    """mainland.txt:103 "You can rotate the card." village-a (village, village, plain, forest) over a
    wood: only the half turn puts its forest on the wood (:168 forest on wood; :171 no village on wood)."""
    items, owner = empty_board()
    put(items, owner, {(0, 0): ("wood", 1)})
    own_items(items, owner, ["wheat", "wood", "gold"] * 2)
    data = GAME.load_data(None)
    card = card_index(data, "village-a")
    fits = [k for k in range(4) if both(items, owner, 0, data.rotations[card, k], 0, 0) == OK]
    assert fits == [2]
    assert list(data.rotations[card, 2]) == [CODE[n] for n in ("forest", "plain", "village", "village")]
    # ... and the game offers exactly that placement for this card.
    state, data = fresh_state(2, seed=1)
    state.phase, state.current, state.round = PLACE, 0, 1
    state.hands[0] = [card]
    set_board(state, items, owner)
    opts = GAME.legal_options(state, 0)
    places = opts[opts[:, 0] == PLACE_CARD]
    assert places.tolist() == [[PLACE_CARD, 0, 2, 0, 0]]


@pytest.mark.parametrize("r,c,expected", [(8, 8, OK), (8, 9, kernels.OFF_BOARD), (9, 8, kernels.OFF_BOARD),
                                          (-1, 8, kernels.OFF_BOARD), (8, -1, kernels.OFF_BOARD),
                                          (100, 0, kernels.OFF_BOARD)])
def test_board_limits(r, c, expected):
    """mainland.txt:57 "Cards must not exceed this limit." (10x10 tiles for 2 players, reconstructed)."""
    items, owner = empty_board(10, 10)
    put(items, owner, {(9, 9): ("plain", 1), (8, 9): ("plain", 1)})
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), r, c) == expected


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_board_limits_in_game(n_players):
    """mainland.txt:57-59: the board has the data file's size for the player count; options stay inside."""
    state, data = fresh_state(n_players, seed=3)
    rows, cols = data.board[n_players]
    assert state.items.shape == (rows, cols)
    opts = GAME.legal_options(state, 0)
    assert opts[:, 3].min() == 0 and opts[:, 3].max() == rows - 2
    assert opts[:, 4].min() == 0 and opts[:, 4].max() == cols - 2


# --------------------------------------------------------------------------- camps


def test_camps_first_anywhere_any_rotation_no_overlap():
    """mainland.txt:67-69 "The first card you play is your clan's camp ... place your starting card on
    the board wherever you wish. You can rotate the card in any direction. The starting cards must not
    overlap." """
    state, data = fresh_state(2, seed=5)
    assert state.phase == CAMP and GAME.to_move(state) == (0,)
    opts = GAME.legal_options(state, 0)
    assert set(opts[:, 0].tolist()) == {PLACE_CAMP}
    everywhere = {(k, r, c) for k in range(4) for r in range(9) for c in range(9)}
    assert {tuple(o[2:]) for o in opts.tolist()} == everywhere
    GAME.apply(state, {0: np.array([PLACE_CAMP, 0, 1, 0, 0])})
    assert state.items[0:2, 0:2].ravel().tolist() == data.rotations[data.camp_card, 1].tolist()
    assert (state.owner[0:2, 0:2] == 0).all()
    assert GAME.to_move(state) == (1,) and state.phase == CAMP
    opts = GAME.legal_options(state, 1)
    windows = {(r, c) for r, c in opts[:, 3:5].tolist()}
    assert windows == {(r, c) for r in range(9) for c in range(9) if not (r <= 1 and c <= 1)}
    assert (0, 2) in windows and (2, 0) in windows  # touching is fine, overlapping is not
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {1: np.array([PLACE_CAMP, 0, 0, 1, 1])})
    assert check(state.items, state.owner, 1, data.rotations[data.camp_card, 0], 1, 1, camp=True) \
        == kernels.CAMP_OVERLAP
    GAME.apply(state, {1: np.array([PLACE_CAMP, 0, 3, 8, 8])})  # far away, touching nothing
    assert state.phase == START and GAME.to_move(state) == (0,) and state.round == 1
    assert all(len(h) == data.hand_size for h in state.hands)


def test_camp_phase_rejects_other_kinds():
    """mainland.txt:67 "The first card you play is your clan's camp." """
    state, _ = fresh_state(2, seed=5)
    for kind in (KEEP, REPLACE, GATHER, PLACE_CARD, PASS):
        with pytest.raises(IllegalChoice):
            GAME.apply(state, {0: np.array([kind, 0, 0, 0, 0])})


# --------------------------------------------------------------------------- castle card


def castle_site():
    """Seat 1's plain card at (4,4); seat 0 holds two warriors and a rider (for rider-castle)."""
    items, owner = empty_board()
    lay(items, owner, 4, 4, ("plain", "plain", "plain", "plain"), 1)
    own_items(items, owner, ["warrior", "warrior", "rider"], row=0)
    return items, owner


def test_castle_card_may_lie_entirely_on_cards():
    """mainland.txt:129 "It doesn't have to overlap the empty space of the board and can be placed entirely
    over the cards in play."; :257 "Unlike other cards, the castle card does not need to overlap empty
    space"."""
    items, owner = castle_site()
    data = GAME.load_data(None)
    card = card_index(data, "rider-castle")  # rider, castle, temple, plain
    assert data.is_castle_card[card]
    layout = data.rotations[card, 0]
    for switch in (True, False):
        assert both(items, owner, 0, layout, 4, 4, castle_needs_overlap=switch, is_castle=True) == OK
    # Any other card, even one with advanced items, still needs empty space (rule 2, :100).
    assert both(items, owner, 0, C("rider", "plain", "temple", "plain"), 4, 4) == kernels.NO_EMPTY
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 4, 4) == kernels.NO_EMPTY
    # "as long as the items respect the overlay rules" (:129): a temple may not go on a wheat.
    put(items, owner, {(5, 4): ("wheat", 1)})
    assert both(items, owner, 0, layout, 4, 4, is_castle=True) == kernels.OVERLAY


def test_castle_card_rule1_switch():
    """mainland.txt:129 "The castle card can be placed anywhere": ruling R4 keeps rule 1 (:99) for it by
    default; castle_needs_overlap=False also lifts rule 1."""
    items, owner = castle_site()
    data = GAME.load_data(None)
    card = card_index(data, "rider-castle")
    layout = data.rotations[card, 0]
    assert both(items, owner, 0, layout, 8, 8, is_castle=True) == kernels.NO_OVERLAP
    assert both(items, owner, 0, layout, 8, 8, is_castle=True, castle_needs_overlap=False) == OK
    # A card without a castle never escapes rule 1.
    assert both(items, owner, 0, C("plain", "plain", "plain", "plain"), 8, 8,
                castle_needs_overlap=False) == kernels.NO_OVERLAP
    # Through the game: the switch changes the options offered and accepted.
    for switch in (True, False):
        state, data = fresh_state(2, seed=2, rules_config={"castle_needs_overlap": switch})
        state.phase, state.current, state.round = PLACE, 0, 1
        state.hands[0] = [card]
        set_board(state, items, owner)
        places = {tuple(o[1:]) for o in GAME.legal_options(state, 0).tolist() if o[0] == PLACE_CARD}
        assert (0, 0, 4, 4) in places
        assert ((0, 0, 8, 8) in places) == (not switch)
        if switch:
            with pytest.raises(IllegalChoice):
                GAME.apply(state, {0: np.array([PLACE_CARD, 0, 0, 8, 8])})
        else:
            GAME.apply(state, {0: np.array([PLACE_CARD, 0, 0, 8, 8])})
            assert state.items[8, 9] == CODE["castle"] and state.owner[8, 9] == 0


# --------------------------------------------------------------------------- requirements

V = ("village", "plain", "plain", "plain")


@pytest.mark.parametrize("missing", ["wheat", "wood", "gold"])
def test_village_needs_wheat_wood_gold(missing):
    """mainland.txt:119 "Village: For every village added to the board, you must have: 1 wheat, 1 wood,
    1 gold." (also :115)"""
    have = [x for x in ("wheat", "wood", "gold") if x != missing]
    items, owner = site(own=have)
    assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT
    items, owner = site(own=have + [missing])
    assert both(items, owner, 0, C(*V), 0, 0) == OK


def test_second_village_needs_two_of_each():
    """mainland.txt:125 "To build a second village, your lands must produce 2 wheat resources, 2 wood
    resources and 2 gold resources." """
    one_each = ["wheat", "wood", "gold"]
    items, owner = site(own=one_each + ["village"])
    assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT
    for short in one_each:  # two of each but one
        own = one_each * 2
        own.remove(short)
        items, owner = site(own=own + ["village"])
        assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT
    items, owner = site(own=one_each * 2 + ["village"])
    assert both(items, owner, 0, C(*V), 0, 0) == OK
    # A card with two villages needs two of each at once.
    two = ("village", "village", "plain", "plain")
    items, owner = site(own=one_each)
    assert both(items, owner, 0, C(*two), 0, 0) == kernels.REQUIREMENT
    items, owner = site(own=one_each * 2)
    assert both(items, owner, 0, C(*two), 0, 0) == OK


@pytest.mark.parametrize("adv,req", [("tower", "village"), ("warrior", "tower"), ("rider", "warrior"),
                                     ("castle", "rider")])
def test_requirement_chain(adv, req):
    """mainland.txt:120-123 "Tower: ... 1 village. Warrior: ... 1 tower. Rider: ... 1 warrior.
    Castle: ... 1 rider." (for every one added to the board)."""
    assert REQUIRES[adv] == (req,)
    layout = C(adv, "plain", "plain", "plain")
    everything_else = [x for x in REQUIRES_TEXT["village"] + tuple(ADVANCED) if x != req]
    for own, expected in [([], kernels.REQUIREMENT), ([req], OK), ([req, adv], kernels.REQUIREMENT),
                          ([req, req, adv], OK), (everything_else, kernels.REQUIREMENT)]:
        items, owner = site(own=own)
        assert both(items, owner, 0, layout, 0, 0) == expected, own


def test_covered_item_no_longer_counts():
    """mainland.txt:243 "An item that has been covered can no longer be used as a requirement ... if you put
    a mountain over a gold resource, that item is no longer valid"."""
    items, owner = site(own=["wheat", "wood", "gold"])  # gold at (6, 4)
    counts = recount(items, owner, 2)
    assert check(items, owner, 0, C(*V), 0, 0, counts=counts) == OK
    kernels.place(items, owner, counts, 1, C("mountain", "mountain", "mountain", "mountain"), 6, 4)
    assert counts[0, CODE["gold"]] == 0 and (counts == recount(items, owner, 2)).all()
    assert check(items, owner, 0, C(*V), 0, 0, counts=counts) == kernels.REQUIREMENT
    # Covering one's own gold with one's own mountain also loses it (:243 "if you put a mountain").
    items, owner = site(own=["wheat", "wood", "gold"])
    counts = recount(items, owner, 2)
    kernels.place(items, owner, counts, 0, C("mountain", "mountain", "mountain", "mountain"), 6, 4)
    assert check(items, owner, 0, C(*V), 0, 0, counts=counts) == kernels.REQUIREMENT


def test_requirements_in_separate_territories():
    """mainland.txt:244 "Advanced items and requirements may be in separate territories." """
    items, owner = site()
    put(items, owner, {(9, 0): ("wheat", 0), (9, 9): ("wood", 0), (3, 9): ("gold", 0)})
    assert both(items, owner, 0, C(*V), 0, 0) == OK


def test_opponents_items_do_not_count():
    """mainland.txt:245 "Advanced items and requirements are specific to each player. For example, you
    cannot place a warrior because an opponent has a tower." """
    items, owner = site(own=["wheat", "wood"], opp=["gold"])
    assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT
    items, owner = site(opp=["tower", "tower"])
    assert both(items, owner, 0, C("warrior", "plain", "plain", "plain"), 0, 0) == kernels.REQUIREMENT
    assert both(items, owner, 1, C("warrior", "plain", "plain", "plain"), 0, 0) == OK


def test_cannot_cover_own_last_requirement():
    """mainland.txt:246 "You cannot place the card of an advanced item over the required item ... you cannot
    place your card over your wheat resource (unless your lands produce more than one wheat...)" """
    # The village card's plain tile lands on seat 0's only wheat at (1, 0).
    items, owner = site(own=["wood", "gold"])
    put(items, owner, {(1, 0): ("wheat", 0)})
    assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT
    own_items(items, owner, ["wheat"], row=8)
    assert both(items, owner, 0, C(*V), 0, 0) == OK
    # A tower may be placed on a village (:172), but not on its own last village.
    items, owner = site()
    put(items, owner, {(1, 0): ("village", 0)})
    tower = C("plain", "plain", "tower", "plain")
    assert both(items, owner, 0, tower, 0, 0) == kernels.REQUIREMENT
    own_items(items, owner, ["village"], row=8)
    assert both(items, owner, 0, tower, 0, 0) == OK
    # Covering an opponent's village does not matter.
    items, owner = site(own=["village"])
    put(items, owner, {(1, 0): ("village", 1)})
    assert both(items, owner, 0, tower, 0, 0) == OK


def test_each_requirement_serves_one_item():
    """mainland.txt:247 "1 village cannot be used as a requirement for 2 towers ... if a tower is destroyed,
    one of your villages can be reused for the construction of a new tower." """
    tower = C("tower", "plain", "plain", "plain")
    items, owner = site(own=["village", "tower"])  # tower at (6, 2)
    counts = recount(items, owner, 2)
    assert check(items, owner, 0, tower, 0, 0, counts=counts) == kernels.REQUIREMENT
    assert check(items, owner, 0, C("tower", "tower", "plain", "plain"), 0, 0) == kernels.REQUIREMENT
    # An opponent's warrior destroys the tower (:173 a warrior may be placed on a tower).
    kernels.place(items, owner, counts, 1, C("warrior", "plain", "plain", "plain"), 6, 2)
    assert counts[0, CODE["tower"]] == 0
    assert check(items, owner, 0, tower, 0, 0, counts=counts) == OK
    items, owner = site(own=["village", "village"])
    assert both(items, owner, 0, C("tower", "tower", "plain", "plain"), 0, 0) == OK


def test_destroyed_requirement_must_be_compensated():
    """mainland.txt:248 "an opponent plays a forest on your wood resource to destroy it. Your village card
    must remain in place. However, to be able to build a 2nd village ... you will have to place 2 new wood
    resources on the board." """
    items, owner = site(own=["village", "wheat", "wood", "gold"])  # wood at (6, 4)
    counts = recount(items, owner, 2)
    kernels.place(items, owner, counts, 1, C("forest", "forest", "forest", "forest"), 6, 4)
    assert items[6, 0] == CODE["village"] and counts[0, CODE["village"]] == 1  # the village stays
    own_items(items, owner, ["wheat", "gold", "wood"], row=8)
    assert both(items, owner, 0, C(*V), 0, 0) == kernels.REQUIREMENT  # one new wood is not enough
    put(items, owner, {(9, 9): ("wood", 0)})
    assert both(items, owner, 0, C(*V), 0, 0) == OK


def test_dependency_is_one_level_only():
    """mainland.txt:249 "you could place a tower even if you no longer have wheat. The important thing is
    that you still have a village." """
    items, owner = site(own=["village"])
    assert both(items, owner, 0, C("tower", "plain", "plain", "plain"), 0, 0) == OK
    items, owner = site(own=["tower"])
    assert both(items, owner, 0, C("warrior", "plain", "plain", "plain"), 0, 0) == OK
    items, owner = site(own=["rider"])
    assert both(items, owner, 0, C("castle", "plain", "plain", "plain"), 0, 0) == OK


def test_requirements_must_exist_before_the_card_unless_switched():
    """Ruling R3b, mainland.txt:115 "before playing a village, you must have 1 wheat resource, 1 wood
    resource and 1 gold resource": the card's own village does not serve its own tower (village-tower
    card), nor its own rider its castle, unless card_meets_own_requirements=true."""
    data = GAME.load_data(None)
    vt = data.rotations[card_index(data, "village-tower"), 0]  # village, tower, plain, wheat
    items, owner = site(own=["wheat", "wood", "gold"])
    assert both(items, owner, 0, vt, 0, 0) == kernels.REQUIREMENT
    assert both(items, owner, 0, vt, 0, 0, card_meets_own=True) == OK
    items, owner = site(own=["wheat", "wood", "gold"] * 2 + ["village"])  # 2 villages after need 2 of each
    assert both(items, owner, 0, vt, 0, 0) == OK
    rc = data.rotations[card_index(data, "rider-castle"), 0]  # rider, castle, temple, plain
    items, owner = site(own=["warrior"])
    assert both(items, owner, 0, rc, 0, 0, is_castle=True) == kernels.REQUIREMENT
    assert both(items, owner, 0, rc, 0, 0, is_castle=True, card_meets_own=True) == OK
    items, owner = site(own=["warrior", "warrior", "rider"])  # 2 riders after need 2 warriors
    assert both(items, owner, 0, rc, 0, 0, is_castle=True) == OK
    items, owner = site(own=[])
    assert both(items, owner, 0, rc, 0, 0, is_castle=True, card_meets_own=True) == kernels.REQUIREMENT


# --------------------------------------------------------------------------- turn flow


def after_camps(n_players=2, seed=0, rules_config=None):
    """A game right after the camps: seat 0 to start its first turn."""
    state, data = fresh_state(n_players, seed, rules_config)
    spots = [(0, 0), (6, 6), (0, 6), (6, 0)]
    for seat in range(n_players):
        r, c = spots[seat]
        GAME.apply(state, {seat: np.array([PLACE_CAMP, 0, 0, r, c])})
    assert state.phase == START and state.current == 0
    return state, data


def place_options(state, seat):
    opts = GAME.legal_options(state, seat)
    return opts[opts[:, 0] == PLACE_CARD]


def test_start_of_turn_options():
    """mainland.txt:85-87 (step 1: optional replace) and :143/:240 (gathering at the very start of a turn)."""
    state, data = after_camps()
    opts = GAME.legal_options(state, 0)
    replaces = [[REPLACE, i, 0, 0, 0] for i in range(5)]
    assert opts.tolist() == [[KEEP, 0, 0, 0, 0], *replaces, [GATHER, 0, 0, 0, 0]]


def test_replace_takes_first_deck_card_and_discards():
    """mainland.txt:91 "you can discard a card you have in hand and take the first one from your deck. The
    card that is discarded is put aside in a discard pile." """
    state, data = after_camps(seed=4)
    hand, deck = list(state.hands[0]), list(state.decks[0])
    GAME.apply(state, {0: np.array([REPLACE, 2, 0, 0, 0])})
    assert state.discards[0] == [hand[2]]
    assert sorted(state.hands[0]) == sorted(hand[:2] + hand[3:] + [deck[0]])
    assert state.decks[0] == deck[1:]
    assert state.phase == PLACE and GAME.to_move(state) == (0,)
    assert state.tokens[0] == data.tokens  # replacing is free
    # The placement step then offers the new hand, and never a second replace.
    opts = GAME.legal_options(state, 0)
    assert set(opts[:, 0].tolist()) <= {PLACE_CARD, PASS}


def test_replace_needs_a_deck():
    """mainland.txt:91 "take the first one from your deck": with an empty deck there is nothing to take."""
    state, _ = after_camps(seed=4)
    state.decks[0] = []
    kinds = set(GAME.legal_options(state, 0)[:, 0].tolist())
    assert REPLACE not in kinds and {KEEP, GATHER} <= kinds
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {0: np.array([REPLACE, 0, 0, 0, 0])})


def test_draw_after_placing_keeps_five():
    """mainland.txt:131-133 "After playing a card, you must take the first one from your deck ... You must
    have 5 cards in hand at both the beginning and end of your turn." """
    state, data = after_camps(seed=7)
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    opt = place_options(state, 0)[0]
    hand, deck = list(state.hands[0]), list(state.decks[0])
    card = hand[opt[1]]
    GAME.apply(state, {0: opt})
    assert len(state.hands[0]) == data.hand_size == 5
    assert sorted(state.hands[0]) == sorted([h for i, h in enumerate(hand) if i != opt[1]] + [deck[0]])
    assert state.decks[0] == deck[1:]
    r, c = int(opt[3]), int(opt[4])
    assert state.items[r:r + 2, c:c + 2].ravel().tolist() == data.rotations[card, opt[2]].tolist()
    assert GAME.to_move(state) == (1,) and state.phase == START  # "Your turn is over" (:133)
    assert state.tokens[0] == data.tokens


def test_only_one_card_per_turn():
    """mainland.txt:242 "You can only play 1 card per turn." """
    state, _ = after_camps(seed=7)
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    GAME.apply(state, {0: place_options(state, 0)[0]})
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})


def dead_hand_state():
    """Seat 0 holds only cards it cannot place: riders, castles and warriors without any requirement."""
    state, data = after_camps(seed=8)
    dead = ["rider-a", "rider-castle", "castle-rider", "warrior-a", "warrior-b"]
    ids = [card_index(data, x) for x in dead]
    rest = [c for c in state.hands[0] + state.decks[0] if c not in ids]
    state.hands[0], state.decks[0] = ids, rest
    return state, data


def test_forced_pass_costs_a_token():
    """mainland.txt:137 "If you just can't play ..., you will have to pass your turn. When you do so, you
    must discard a chieftain token." """
    state, data = dead_hand_state()
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    assert GAME.legal_options(state, 0).tolist() == [[PASS, 0, 0, 0, 0]]
    hand = list(state.hands[0])
    GAME.apply(state, {0: np.array([PASS, 0, 0, 0, 0])})
    assert state.tokens == [data.tokens - 1, data.tokens]
    assert state.hands[0] == hand  # no draw after a pass
    assert state.stats["forced_passes"][0] == 1 and state.stats["passes"][0] == 0
    assert GAME.to_move(state) == (1,)


def test_voluntary_pass_costs_a_token():
    """mainland.txt:239 "you can decide to voluntarily pass your turn at any time. You must discard 1
    chieftain token for each turn you skip." """
    state, data = after_camps(seed=9)
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    opts = GAME.legal_options(state, 0)
    assert (opts[:, 0] == PLACE_CARD).any() and opts[-1].tolist() == [PASS, 0, 0, 0, 0]
    before = state.items.copy()
    GAME.apply(state, {0: np.array([PASS, 0, 0, 0, 0])})
    assert state.tokens[0] == data.tokens - 1 and state.stats["passes"][0] == 1
    assert (state.items == before).all()
    assert GAME.to_move(state) == (1,)


def test_clan_gathering():
    """mainland.txt:143 "gather all your cards that are not on the board (hand + deck + discarded cards pile),
    shuffle them and draw 5 new cards. Your turn is immediately over. You are not allowed to place a card on
    the board. You also have to discard one of your chieftain tokens." """
    seen_orders = set()
    for seed in range(6):
        state, data = after_camps(seed=seed)
        GAME.apply(state, {0: np.array([REPLACE, 0, 0, 0, 0])})  # put a card on the discard pile
        GAME.apply(state, {0: np.array([PASS, 0, 0, 0, 0])})
        GAME.apply(state, {1: np.array([KEEP, 0, 0, 0, 0])})
        GAME.apply(state, {1: np.array([PASS, 0, 0, 0, 0])})
        assert state.current == 0 and len(state.discards[0]) == 1
        pool = sorted(state.hands[0] + state.decks[0] + state.discards[0])
        order = state.hands[0] + state.decks[0] + state.discards[0]
        board = state.items.copy()
        GAME.apply(state, {0: np.array([GATHER, 0, 0, 0, 0])})
        assert sorted(state.hands[0] + state.decks[0]) == pool
        assert state.discards[0] == [] and len(state.hands[0]) == 5
        assert state.tokens[0] == data.tokens - 2
        assert (state.items == board).all()
        assert GAME.to_move(state) == (1,) and state.phase == START  # the turn is over
        with pytest.raises(IllegalChoice):
            GAME.apply(state, {0: np.array([PLACE_CARD, 0, 0, 0, 2])})
        seen_orders.add(tuple(state.hands[0] + state.decks[0]) != tuple(order))
    assert seen_orders == {True}  # shuffled


def test_gathering_only_at_start_of_turn():
    """mainland.txt:240 "The Clan Gathering special move must be performed at the very start of your
    turn." """
    state, _ = after_camps(seed=3)
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    assert GATHER not in GAME.legal_options(state, 0)[:, 0]
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {0: np.array([GATHER, 0, 0, 0, 0])})


def test_seat_without_tokens_is_skipped():
    """mainland.txt:73 "When you run out of tokens, your game is over and you can no longer play." and :137
    "The other players can continue to play until they run out of tokens themselves." """
    state, _ = after_camps(n_players=3, seed=1)
    state.tokens[1] = 0
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    GAME.apply(state, {0: np.array([PASS, 0, 0, 0, 0])})
    assert GAME.to_move(state) == (2,)
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {1: np.array([KEEP, 0, 0, 0, 0])})
    GAME.apply(state, {2: np.array([KEEP, 0, 0, 0, 0])})
    GAME.apply(state, {2: np.array([PASS, 0, 0, 0, 0])})
    assert GAME.to_move(state) == (0,)


def test_last_token_passing_and_game_end():
    """mainland.txt:193 "The game ends when all the players run out of chieftain tokens." """
    state, _ = after_camps(n_players=2, seed=2)
    state.tokens = [1, 2]
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    GAME.apply(state, {0: np.array([PASS, 0, 0, 0, 0])})
    assert state.tokens == [0, 2] and GAME.to_move(state) == (1,) and not GAME.is_terminal(state)
    for _ in range(2):  # seat 1 alone keeps playing
        GAME.apply(state, {1: np.array([KEEP, 0, 0, 0, 0])})
        assert not GAME.is_terminal(state)
        GAME.apply(state, {1: np.array([PASS, 0, 0, 0, 0])})
    assert state.tokens == [0, 0]
    assert GAME.is_terminal(state) and GAME.to_move(state) == () and state.phase == OVER
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})


def test_gathering_with_last_token_ends_the_seats_game():
    """mainland.txt:241 "The Clan Gathering special move is totally useless if you only have 1 chieftain
    token." (offered anyway, ruling R7) and :73."""
    state, _ = after_camps(n_players=2, seed=2)
    state.tokens = [1, 1]
    GAME.apply(state, {0: np.array([GATHER, 0, 0, 0, 0])})
    GAME.apply(state, {1: np.array([GATHER, 0, 0, 0, 0])})
    assert GAME.is_terminal(state)


def test_illegal_options_raise():
    """sim.game protocol: apply raises IllegalChoice for an option the rules do not allow; the state is
    left unchanged."""
    state, data = after_camps(seed=11)
    snapshot = GAME.to_dict(state)
    bad_start = [
        (1, [KEEP, 0, 0, 0, 0]),  # not seat 1's turn
        (0, [PLACE_CARD, 0, 0, 0, 2]),  # placing before step 1 is decided
        (0, [PASS, 0, 0, 0, 0]),
        (0, [REPLACE, 5, 0, 0, 0]),  # no such hand card
        (0, [REPLACE, -1, 0, 0, 0]),
        (0, [PLACE_CAMP, 0, 0, 2, 2]),
        (0, [9, 0, 0, 0, 0]),
    ]
    for seat, opt in bad_start:
        with pytest.raises(IllegalChoice):
            GAME.apply(state, {seat: np.array(opt)})
        assert GAME.to_dict(state) == snapshot, opt
    GAME.apply(state, {0: np.array([KEEP, 0, 0, 0, 0])})
    snapshot = GAME.to_dict(state)
    legal = {tuple(o) for o in GAME.legal_options(state, 0).tolist()}
    bad_place = [
        [PLACE_CARD, 0, 0, 4, 4],  # touches nothing (rule 1)
        [PLACE_CARD, 0, 0, 0, 0],  # entirely on the camp (rule 2 / overlay)
        [PLACE_CARD, 5, 0, 0, 2],
        [PLACE_CARD, -1, 0, 0, 2],
        [PLACE_CARD, 0, 4, 0, 2],
        [PLACE_CARD, 0, -1, 0, 2],
        [PLACE_CARD, 0, 0, 9, 9],  # off the board
        [KEEP, 0, 0, 0, 0],
        [GATHER, 0, 0, 0, 0],
        [PLACE_CAMP, 0, 0, 3, 3],
    ]
    for opt in bad_place:
        assert tuple(opt) not in legal
        with pytest.raises(IllegalChoice):
            GAME.apply(state, {0: np.array(opt)})
        assert GAME.to_dict(state) == snapshot, opt


@pytest.mark.parametrize("rot", [4, 7, -1, -4])
def test_camp_with_out_of_range_rotation_is_illegal(rot):
    """mainland.txt:69 "You can rotate the card in any direction": 4 quarter turns (0-3) exist, so a camp
    option with rotation 4 or -1 is not among legal_options and apply must raise IllegalChoice.

    ENGINE BUG: rules.apply checks 0 <= rot < 4 only in the placement step, not in the camp phase, so
    rotation 4 or 7 raises a bare IndexError (not IllegalChoice) and rotation -1 / -4 is silently
    accepted as rotation 3 / 0 (numpy negative indexing in rules._place, rules.py:142).
    """
    state, _ = fresh_state(2, seed=0)
    legal = {tuple(o) for o in GAME.legal_options(state, 0).tolist()}
    opt = (PLACE_CAMP, 0, rot, 3, 3)
    assert opt not in legal
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {0: np.array(opt)})
    assert state.phase == CAMP and (state.items == 0).all()


# --------------------------------------------------------------------------- scoring


def score(items, owner, n=2):
    data = GAME.load_data(None)
    return kernels.score_board(items, owner, n, data.points)


def test_points_table_matches_rulebook():
    """mainland.txt:205-227: inside Mainland / inside minor territories, per item."""
    data = GAME.load_data(None)
    for name, (inside, minor) in POINTS_TEXT.items():
        assert tuple(data.points[CODE[name]]) == (inside, minor), name


def test_territories_are_orthogonal_only():
    """mainland.txt:197 "Only tiles with touching sides count (2 tiles that touch each other by the corners
    are not considered as adjacent)." """
    items, owner = empty_board()
    put(items, owner, {(0, 0): ("village", 0), (1, 1): ("village", 0)})
    s = score(items, owner)
    assert s[0].tolist() == [1 + 2 + 1, 1, 2, 1]
    put(items, owner, {(0, 1): ("village", 0)})
    s = score(items, owner)
    assert s[0].tolist() == [3 + 6, 3, 6, 0]


def test_other_colours_split_territories():
    """mainland.txt:197-199: a territory is one player's adjacent tiles; other territories are minor."""
    items, owner = empty_board()
    put(items, owner, {(0, 0): ("plain", 0), (0, 1): ("plain", 1), (0, 2): ("plain", 0),
                       (1, 0): ("plain", 0), (1, 2): ("tower", 0)})
    s = score(items, owner)
    # Seat 0: {(0,0),(1,0)} and {(0,2),(1,2)} both 2 tiles; the one with the tower is worth more.
    assert s[0].tolist() == [2 + 2 + 0, 2, 2, 0]
    assert s[1].tolist() == [1, 1, 0, 0]


def test_mainland_is_largest_territory():
    """mainland.txt:197 "Your Mainland is your territory that has the largest number of adjacent tiles." """
    items, owner = empty_board()
    put(items, owner, {(0, 0): ("plain", 0), (0, 1): ("plain", 0), (0, 2): ("plain", 0),
                       (5, 0): ("castle", 0), (5, 1): ("castle", 0)})
    s = score(items, owner)
    assert s[0].tolist() == [3 + 0 + 10, 3, 0, 10]


@pytest.mark.parametrize("better_first", [True, False])
def test_mainland_tie_goes_to_higher_value(better_first):
    """mainland.txt:201 "If your 2 largest territories have the same number of tiles, your Mainland will be
    the one with the highest value." """
    items, owner = empty_board()
    good, poor = (0, 8) if better_first else (8, 0)
    put(items, owner, {(good, 0): ("wheat", 0), (good, 1): ("village", 0),
                       (poor, 0): ("plain", 0), (poor, 1): ("camp", 0)})
    s = score(items, owner)
    # village+wheat inside: 2 + 1 (+2 tiles); camp minor: 1.  The other way would give 2 + 2 + 1 = 5 < 6.
    assert s[0].tolist() == [2 + 3 + 1, 2, 3, 1]


def symmetries(board: np.ndarray) -> list[np.ndarray]:
    """The board under the 8 symmetries of the square: 4 rotations, each also mirrored."""
    turned = [np.rot90(board, k) for k in range(4)]
    return [np.ascontiguousarray(b) for t in turned for b in (t, np.fliplr(t))]


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("sym", range(8))
def test_double_tie_takes_the_higher_total_wherever_it_lies(sym, swap):
    """mainland.txt:197-201 "Your Mainland is your territory that has the largest number of adjacent tiles.
    [...] Other territories and isolated tiles are considered minor territories. [...] If your 2 largest
    territories have the same number of tiles, your Mainland will be the one with the highest value."

    Two 2-tile territories of equal value 2: wheat + wood (minor value 0) and temple + plain (minor value
    1).  Ruling R12: the Mainland is the one that gives the higher total, wheat + wood, and the temple
    scores as minor: 2 tiles + 2 + 1 = 5 (the other choice gives 4), on the board, its mirror images and
    rotations, with the two territories in either place.
    """
    items, owner = empty_board()
    resources, temple = (7, 2) if swap else (2, 7)
    put(items, owner, {(resources, 1): ("wheat", 0), (resources, 2): ("wood", 0),
                       (temple, 6): ("temple", 0), (temple + 1, 6): ("plain", 0),
                       (5, 4): ("plain", 1)})
    items, owner = symmetries(items)[sym], symmetries(owner)[sym]
    s = score(items, owner)
    assert s[0].tolist() == [2 + 2 + 1, 2, 2, 1]
    assert s[1].tolist() == [1, 1, 0, 0]


BLOB_ITEMS = [CODE[n] for n in ("empty", "empty", "plain", "wheat", "wood", "gold", "temple", "camp",
                                "village", "warrior")]
SLOTS = [(r, c) for r in (0, 3, 6) for c in (0, 3, 6)]  # 2x2 slots of an 8x8 board, empty gutters between


@st.composite
def slotted_boards(draw):
    """Up to 9 small territories, each in its own 2x2 slot, and a permutation of the slots."""
    blobs = draw(st.lists(st.tuples(st.lists(st.sampled_from(BLOB_ITEMS), min_size=4, max_size=4),
                                    st.lists(st.integers(0, 1), min_size=4, max_size=4)),
                          min_size=1, max_size=len(SLOTS)))
    order = draw(st.permutations(range(len(SLOTS))))
    return blobs, order


def slotted(blobs, order) -> tuple[np.ndarray, np.ndarray]:
    items, owner = empty_board(8, 8)
    for (names, seats), slot in zip(blobs, order, strict=False):
        r, c = SLOTS[slot]
        for j in range(4):
            if names[j]:
                items[r + j // 2, c + j % 2] = names[j]
                owner[r + j // 2, c + j % 2] = seats[j]
    return items, owner


@settings(max_examples=300, deadline=None)
@given(board=slotted_boards(), sym=st.integers(0, 7))
def test_scores_do_not_depend_on_where_territories_lie(board, sym):
    """mainland.txt:197 "Your Mainland is your territory that has the largest number of adjacent tiles",
    :201 "If your 2 largest territories have the same number of tiles, your Mainland will be the one with
    the highest value": size and value, not place.  The scores of a board equal the plain-Python reading
    of lines 197-227 (``oracle_scores``) and stay the same when the territories trade places, and under
    every mirror image and rotation (ruling R12)."""
    blobs, order = board
    items, owner = slotted(blobs, order)
    s = score(items, owner)
    assert (s == oracle_scores(items, owner, 2, GAME.load_data(None).points)).all()
    moved = slotted(blobs, range(len(SLOTS)))
    assert (score(*moved) == s).all()
    assert (score(symmetries(items)[sym], symmetries(owner)[sym]) == s).all()


@pytest.mark.parametrize("name", NON_EMPTY)
def test_points_inside_and_outside_mainland(name):
    """mainland.txt:205-227: points inside the Mainland (+1 per tile, :207) and in minor territories
    (resources and lands score 0 there: none is listed in :219-227)."""
    inside, minor = POINTS_TEXT[name]
    items, owner = empty_board()
    put(items, owner, {(0, c): ("plain", 0) for c in range(4)})  # Mainland of 4 plains
    put(items, owner, {(1, 0): (name, 0)})  # joins the Mainland
    s = score(items, owner)
    assert s[0].tolist() == [5 + inside, 5, inside, 0]
    items[1, 0], owner[1, 0] = 0, -1
    put(items, owner, {(9, 9): (name, 0)})  # an isolated tile: a minor territory
    s = score(items, owner)
    assert s[0].tolist() == [4 + minor, 4, 0, minor]


def test_mixed_board_total():
    """mainland.txt:205-227 on a composite board: Mainland tiles + Mainland items + minor items."""
    items, owner = empty_board()
    lay(items, owner, 0, 0, ("camp", "plain", "forest", "mountain"), 0)
    lay(items, owner, 0, 2, ("village", "wheat", "tower", "gold"), 0)
    lay(items, owner, 1, 4, ("warrior", "temple", "wood", "rider"), 0)  # joins at (1,3)-(1,4)
    lay(items, owner, 6, 6, ("castle", "rider", "wheat", "gold"), 0)  # minor
    put(items, owner, {(9, 0): ("temple", 0), (4, 0): ("wood", 1)})
    s = score(items, owner)
    tiles = 12
    inside = 2 + 2 + 1 + 2 + 1 + 4 + 2 + 1 + 6
    minor = 5 + 3 + 0 + 0 + 1
    assert s[0].tolist() == [tiles + inside + minor, tiles, inside, minor]
    assert s[1].tolist() == [1 + 1, 1, 1, 0]


def test_empty_board_scores_zero():
    """Nothing on the board: nothing to score (mainland.txt:197)."""
    items, owner = empty_board()
    assert (score(items, owner, 3) == 0).all()


def test_winner_highest_score_ties_share():
    """mainland.txt:235 "The player with the highest score wins the game." (ties share the win, R8)."""
    state, data = fresh_state(3, seed=0)
    items, owner = empty_board(12, 12)
    lay(items, owner, 0, 0, ("plain", "plain", "plain", "plain"), 0)
    lay(items, owner, 4, 4, ("plain", "plain", "wheat", "plain"), 1)
    lay(items, owner, 8, 8, ("plain", "plain", "wheat", "plain"), 2)
    set_board(state, items, owner)
    res = GAME.result(state)
    assert isinstance(res, Result)
    assert res.scores == [4.0, 5.0, 5.0] and res.winners == [1, 2] and res.ranks == [3, 1, 1]
    assert res.parts[1]["mainland_tiles"] == 4 and res.parts[1]["mainland_items"] == 1
    assert GAME.scores(state) == [4.0, 5.0, 5.0]
    lay(items, owner, 0, 2, ("village", "plain", "plain", "plain"), 0)
    set_board(state, items, owner)
    res = GAME.result(state)
    assert res.winners == [0] and res.ranks == [1, 2, 2]

"""Graenaland's picture and words: ``sim.games.graenaland.picture`` and ``describe``.

States come from seeded random playouts (``tests/play_kit.py``) at every player count and with the
advanced rules; the picture is checked as SVG (the one-element-per-line layout of ``sim.picture``),
piece by piece against the state, for determinism and for what a seat's picture hides.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache

import numpy as np
import pytest
from play_kit import random_choices, snapshots

import sim.picture
from sim.games.graenaland.board import build_board
from sim.games.graenaland.data import BUILDINGS, PUBLIC, RESOURCES
from sim.games.graenaland.describe import describe
from sim.games.graenaland.game import GAME
from sim.games.graenaland.hidden import determinize
from sim.games.graenaland.options import STAY, Action, Move, Propose
from sim.games.graenaland.picture import pair_words, picture
from sim.games.graenaland.state import BUILD, HEROES, PROPOSE, WARRIOR

SVG_NS = "{http://www.w3.org/2000/svg}"
#: (players, rules): every player count, and the advanced rules (graenaland.txt:267-316)
CONFIGS = [
    (3, {}), (4, {}), (5, {}),
    (4, {"custom_start": True, "victory_cards": True}),
    (5, {"custom_start": True, "victory_cards": True, "five_player_offer": True}),
]


@cache
def _snapshots(config: int, seed: int = 3, every: int = 23) -> tuple:
    """Snapshots (dicts) of one seeded random game: every ``every`` decisions, each phase's first, the end."""
    return snapshots(GAME, *CONFIGS[config], seed, every, last=True)


def _states(configs=range(len(CONFIGS))):
    for config in configs:
        for doc in _snapshots(config):
            yield GAME.from_dict(doc)


def _mid_game(n: int = 4, steps: int = 300, seed: int = 1):
    state = GAME.new_state(n, {}, GAME.load_data(None), seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        GAME.apply(state, random_choices(GAME, state, rng))
    return state


def _top_level(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg))


def test_well_formed_one_element_per_line() -> None:
    """Parses as XML; the opening tag first, ``</svg>`` last, every line between one whole element."""
    for state in _states():
        for seat in (None, state.n_players - 1):
            svg = picture(state, seat)
            lines = svg.rstrip("\n").split("\n")
            assert lines[0].startswith("<svg ") and lines[0].endswith(">") and lines[-1] == "</svg>"
            root = ET.fromstring(svg)
            assert root.tag == SVG_NS + "svg"
            assert len(root) == len(lines) - 2
            for line in lines[1:-1]:
                ET.fromstring(line)  # exactly one element: a second one is "junk after document element"
                assert line.strip() == line


def _piece_counts(svg: str) -> tuple[Counter, Counter]:
    """(pieces by kind, pieces by kind and seat) among the top-level elements."""
    kinds: Counter = Counter()
    seats: Counter = Counter()
    for el in _top_level(svg):
        classes = el.get("class", "").split()
        if classes[:1] != ["piece"]:
            continue
        kinds[classes[1]] += 1
        if classes[1] == "public":
            kinds["public " + classes[2]] += 1
        if "face-down" in classes:
            kinds["face-down"] += 1
        for c in classes:
            if c.startswith("seat-"):
                seats[classes[1], int(c[5:])] += 1
    return kinds, seats


def _expected(state) -> tuple[Counter, Counter]:
    n = state.n_players
    kinds: Counter = Counter(
        territory=build_board(state.data, n).n,
        village=sum(map(sum, state.villages)),
        hero=sum(1 for row in state.heroes for t in row if t >= 0),
        public=sum(map(sum, state.public)),
        card=sum(map(len, state.cards)),
        **{"face-down": sum(map(sum, state.face_down))},
        **{"start-card": sum(map(len, state.draft_cards))},
        army=n, ship=1,
    )
    for b, name in enumerate(BUILDINGS):
        kinds[name] = sum(1 for row in state.buildings if row[b] >= 0)
    for k, name in enumerate(PUBLIC):
        kinds["public " + name] = sum(1 for row in state.public if row[k])
    seats: Counter = Counter()
    for p in range(n):
        seats["village", p] = sum(row[p] for row in state.villages)
        seats["hero", p] = sum(1 for t in state.heroes[p] if t >= 0)
        seats["army", p] = 1
        for b, name in enumerate(BUILDINGS):
            seats[name, p] = sum(1 for row in state.buildings if row[b] == p)
    return +kinds, +seats


def test_one_piece_per_piece_on_the_board() -> None:
    """Territories, villages, buildings, heroes, public buildings, the cards at each territory (face-down
    ones too, line 182), start cards (line 269), army markers (line 44) and the ship (line 52): each one
    ``piece`` element, in its seat's colour class, in the all-shown picture and in every seat's."""
    seen = Counter()
    for state in _states():
        want = _expected(state)
        for seat in (None, *range(state.n_players)):
            assert _piece_counts(picture(state, seat)) == want
        seen.update(want[0])
    for kind in ("village", "fortress", "church", "hall", "hero", "public road", "public yield",
                 "public market", "public palisade", "face-down", "start-card"):
        assert seen[kind] > 0, f"no {kind} in the playouts: the count is untested"


def test_deterministic() -> None:
    """The same state twice, a ``game.copy`` and a snapshot round trip give the same bytes."""
    for state in _states(configs=(1, 3)):
        for seat in (None, 0):
            first = picture(state, seat)
            assert picture(state, seat) == first
            assert picture(GAME.copy(state), seat) == first
            assert picture(GAME.from_dict(GAME.to_dict(state)), seat) == first


def test_seat_picture_hides_what_the_rules_hide() -> None:
    """A state resampled by ``determinize`` for a seat differs only in what that seat cannot see: the
    others' hands (graenaland.txt:49 "held hidden by each player"), face-down road cards (182 "no one
    knows what resource it is"), start cards (269), the others' victory cards (284 "hidden from the other
    players").  That seat's picture stays the same; the all-shown picture changes."""
    differ = 0
    for i, state in enumerate(_states()):
        for seat in range(state.n_players):
            sample = determinize(state, seat, np.random.default_rng(100 + i))
            assert picture(sample, seat) == picture(state, seat)
            differ += picture(sample) != picture(state)
    assert differ > 50


def test_hidden_hand_and_face_down_card() -> None:
    """Changed by hand: another seat's hand (line 49) and a face-down card at a territory (line 182)
    alter the all-shown picture only; the seat's own hand shows in its own picture."""
    state = _mid_game()
    data = state.data
    t = next(t for t, down in enumerate(state.face_down) if any(down))
    i = state.face_down[t].index(True)
    other = GAME.copy(state)
    terrain = build_board(data, state.n_players).terrain[t]
    deck = other.decks[terrain]
    j = next(j for j, c in enumerate(deck) if data.card_resource[c] != data.card_resource[other.cards[t][i]])
    other.cards[t][i], deck[j] = deck[j], other.cards[t][i]
    holder = max(range(state.n_players), key=lambda p: len(state.hands[p]))
    viewer = (holder + 1) % state.n_players
    resources = {data.card_resource[c] for c in other.hands[holder]}
    swap = next(c for c in other.decks[0] + other.decks[2] if data.card_resource[c] not in resources)
    other.hands[holder][0] = swap
    assert picture(other, viewer) == picture(state, viewer)
    assert picture(other) != picture(state)
    assert picture(other, holder) != picture(state, holder)  # its own hand (line 49: it sees its cards)


def test_caption_and_size() -> None:
    """The all-shown picture says so (``sim.picture.ALL_SHOWN``), a seat's says whose it is; a 4-player
    mid-game picture stays well under 30 KB (compact)."""
    state = _mid_game()
    assert sim.picture.ALL_SHOWN in picture(state)
    assert sim.picture.ALL_SHOWN not in picture(state, 1) and "as seat 1 sees it" in picture(state, 1)
    for seat in (None, 0):
        assert len(picture(state, seat).encode()) < 26_000


def _sample(options) -> list:
    if len(options) > 8:  # proposals: a lazy sequence, often long
        return [options[k] for k in (0, 1, len(options) // 2, len(options) - 1)]
    return list(options)


def test_describe_every_kind() -> None:
    """Every option offered along the playouts (``game.record``'s kinds) gets a sentence that names the
    seat; every kind of ``action_kinds`` but "malformed" is met."""
    kinds: dict[str, str] = {}
    for config, (n, rules) in enumerate(CONFIGS):
        state = GAME.new_state(n, rules, GAME.load_data(None), 3)
        rng = np.random.default_rng(config)
        while not GAME.is_terminal(state):
            for seat in GAME.to_move(state):
                for option in _sample(GAME.legal_options(state, seat)):
                    kind, _fields = GAME.record(state, seat, option)
                    text = describe(state, seat, option)
                    assert text.startswith(f"seat {seat} ") and "chooses" not in text, (kind, text)
                    kinds.setdefault(kind, text)
            GAME.apply(state, random_choices(GAME, state, rng))
    assert set(kinds) == set(GAME.action_kinds) - {"malformed"}, sorted(set(GAME.action_kinds) - set(kinds))


def test_describe_names_places_cards_and_heroes() -> None:
    """Words use the data's names: piece ids and terrains, costs (line 144), supply cards (line 133),
    heroes and compass directions (lines 74-76); a face-down card is not named (line 182)."""
    state = GAME.new_state(4, {}, GAME.load_data(None), 5)
    assert state.phase == HEROES
    seat = next(p for p in GAME.to_move(state))
    move = next(o for o in GAME.legal_options(state, seat) if o != STAY)
    board = build_board(state.data, 4)
    origin = state.heroes[seat][WARRIOR]
    dest = board.moves[origin][move.direction]
    text = describe(state, seat, move)
    assert f"from {board.pieces[origin]} to {board.pieces[dest]}" in text and "warrior" in text
    assert describe(state, seat, STAY) == f"seat {seat} keeps its heroes where they stand"
    assert board.coastal[origin] and "off the board" in describe(state, seat, Move(WARRIOR, 6))  # SW

    build = _mid_game()
    while build.phase != BUILD:
        GAME.apply(build, random_choices(GAME, build, np.random.default_rng(0)))
    data = build.data
    main = build.builder
    card = data.supply_cards[build.supply_row[0]]
    assert pair_words(card) in describe(build, main, Action("supply", -1, 0))
    t = 1
    text = describe(build, main, Action("village", t))
    assert "U2 (forest, coast)" in text and "2 grain, 2 cattle" in text, text


def test_describe_proposal_hides_face_down_cards() -> None:
    """A proposal names the face-up cards it gives and says "a face-down card" for the others (line 182)."""
    state = _mid_game()
    rng = np.random.default_rng(2)
    while not (state.phase == PROPOSE and any(any(d) for d in state.face_down)):
        GAME.apply(state, random_choices(GAME, state, rng))
    seat = GAME.to_move(state)[0]
    t = next(t for t, d in enumerate(state.face_down) if any(d))
    receivers = tuple([seat] * len(state.cards[t]))
    text = describe(state, seat, Propose(t, receivers))
    assert f"seat {seat} gets" in text and "a face-down card" in text
    pile = zip(state.cards[t], state.face_down[t], strict=True)
    names = [RESOURCES[state.data.card_resource[c]] for c, down in pile if not down]
    assert all(name in text for name in names)
    assert text.count(",") + 1 >= len(receivers)


def test_plugin_declares_picture_and_describe() -> None:
    """``sim.picture`` finds both through the plug-in; the state shows itself in Jupyter."""
    state = _mid_game(3, 120)
    assert sim.picture.has_pictures("graenaland")
    assert sim.picture.picture("graenaland", state).svg == picture(state)
    assert sim.picture.picture("graenaland", state, 2).svg == picture(state, 2)
    seat = GAME.to_move(state)[0]
    option = GAME.legal_options(state, seat)[0]
    assert sim.picture.describe("graenaland", state, seat, option) == describe(state, seat, option)
    assert state._repr_svg_() == picture(state)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_territory_named(n: int) -> None:
    """Each terrain piece shows its id and terrain (data file names, not numbers)."""
    state = _mid_game(n, 50)
    svg = picture(state)
    board = build_board(state.data, n)
    for t in range(board.n):
        assert f"{board.pieces[t]} " in svg

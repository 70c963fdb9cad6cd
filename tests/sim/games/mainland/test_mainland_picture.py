"""Mainland's picture and choices in words (``sim.games.mainland.picture`` and ``describe``).

States come from seeded random games at every player count (2 to 4), taken every few decisions and at the
end, so every phase is in: camps (line 67), starts of turns (line 91, 143), placements (line 93), over.
No browser is needed: the SVG is parsed with ``xml.etree.ElementTree``.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from sim import picture as protocol
from sim.games import get_game
from sim.games.mainland.describe import describe
from sim.games.mainland.items import ITEMS
from sim.games.mainland.picture import BOARD_X, BOARD_Y, CELL, LABELS, mainland_cells, picture
from sim.games.mainland.state import CAMP, KINDS, OVER, PLACE_CARD, REPLACE, START, MainlandState
from tests.play_kit import random_choices

GAME: Any = get_game("mainland")
NS = "{http://www.w3.org/2000/svg}"
EVERY = 9  # a state kept every EVERY decisions


@functools.lru_cache(maxsize=1)
def _games() -> tuple[tuple[tuple[MainlandState, ...], tuple[tuple[MainlandState, int, Any], ...]], ...]:
    """Per seeded random game (2, 3 and 4 players, two seeds each): the states kept, and every
    (state before, seat, option) of a kind's first few choices (for ``describe``)."""
    data = GAME.load_data(None)
    out = []
    for n in (2, 3, 4):
        for seed in range(2):
            state = GAME.new_state(n, {}, data, 50 * n + seed)
            rng = np.random.default_rng(seed)
            kept, chosen, seen = [], [], dict.fromkeys(KINDS, 0)
            step = 0
            while not GAME.is_terminal(state):
                if step % EVERY == 0:
                    kept.append(GAME.copy(state))
                choices = random_choices(GAME, state, rng)
                for seat, option in choices.items():
                    kind = KINDS[int(option[0])]
                    if seen[kind] < 4:
                        seen[kind] += 1
                        chosen.append((GAME.copy(state), seat, option.copy()))
                GAME.apply(state, choices)
                step += 1
            kept.append(GAME.copy(state))
            out.append((tuple(kept), tuple(chosen)))
    return tuple(out)


def _states() -> list[MainlandState]:
    return [s for kept, _ in _games() for s in kept]


def _seats(state: MainlandState) -> list[int | None]:
    return [None, *range(state.n_players)]


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_picture_is_well_formed_one_element_a_line():
    """``sim.picture``'s layout: the opening tag alone on the first line, one top-level element per line,
    ``</svg>`` last; the whole parses as XML."""
    for state in _states():
        for seat in _seats(state):
            svg = picture(state, seat)
            root = _root(svg)
            assert root.tag == f"{NS}svg"
            lines = svg.rstrip("\n").split("\n")
            assert lines[0].startswith("<svg ") and lines[0].endswith(">") and lines[-1] == "</svg>"
            assert len(lines) - 2 == len(list(root))
            for line in lines[1:-1]:
                ET.fromstring(line)  # each line is one whole element


def _pieces(svg: str) -> list[ET.Element]:
    return [e for e in _root(svg) if "piece" in e.get("class", "").split()]


def test_one_piece_per_tile_on_the_board_with_its_item_owner_and_place():
    """Each visible tile (line 95: a card is 4 tiles, each an item) is one ``piece tile``, named by its
    item, in its owner's colour class, at its row and column, with the item's label."""
    for state in _states():
        want = {(int(r), int(c), ITEMS[state.items[r, c]], int(state.owner[r, c]))
                for r, c in zip(*np.nonzero(state.items), strict=True)}
        for seat in _seats(state):
            got = set()
            for piece in _pieces(picture(state, seat)):
                kind, item, colour = piece.get("class", "").split()[1:]
                rect, text = piece.find(f"{NS}rect"), piece.find(f"{NS}text")
                assert kind == "tile" and rect is not None and text is not None
                r = (int(rect.get("y", "")) - BOARD_Y) // CELL
                c = (int(rect.get("x", "")) - BOARD_X) // CELL
                assert text.text == LABELS[ITEMS.index(item)]
                got.add((r, c, item, int(colour.removeprefix("s"))))
            assert got == want and len(_pieces(picture(state, seat))) == len(want)


def test_each_seats_mainland_is_outlined_and_is_the_one_scored():
    """The outline is the seat's Mainland (lines 197-201, ruling R12): as many tiles as the score counts
    for it (``scores[:, 1]``, line 207), one outline per seat that has tiles."""
    for state in _states():
        assert state.scores is not None
        paths = {int(e.get("data-seat", "")) for e in _root(picture(state)) if e.get("class") == "mainland"}
        for p in range(state.n_players):
            cells = mainland_cells(state.items, state.owner, p, state.data.points)
            assert len(cells) == int(state.scores[p, 1])
            assert all(state.owner[r, c] == p and state.items[r, c] for r, c in cells)
            assert (p in paths) == bool(cells)


def test_pictures_are_deterministic():
    """The same state twice, and a ``game.copy`` of it, give the same bytes for every seat."""
    for state in _states()[::3]:
        copy = GAME.copy(state)
        for seat in _seats(state):
            assert picture(state, seat) == picture(state, seat) == picture(copy, seat)


def _hidden_differs(state: MainlandState, other: MainlandState, seat: int) -> bool:
    """Whether another seat's hand or the top of a deck differs between the two states."""
    hands = any(state.hands[p] != other.hands[p] for p in range(state.n_players) if p != seat)
    return hands or [d[:1] for d in state.decks] != [d[:1] for d in other.decks]


def test_a_seats_picture_hides_what_the_rules_hide():
    """Line 77 ("you must not look at your opponent's cards") and line 79 ("At no time is it permitted to
    look at the cards in your deck"): a state redrawn by ``determinize`` for the seat, which changes only
    those, gives the seat the same picture, while the all-shown picture changes."""
    checked = 0
    for state in _states():
        if state.phase in (CAMP, OVER):
            continue
        for seat in range(state.n_players):
            rng = np.random.default_rng(seat)
            other = GAME.determinize(state, seat, rng)
            if not _hidden_differs(state, other, seat):
                continue
            assert picture(other, seat) == picture(state, seat)
            assert picture(other) != picture(state)
            checked += 1
    assert checked > 20


def test_a_seat_sees_its_own_hand_and_the_others_as_backs():
    """Line 77: the seat's own cards by name, every other hand as card backs (as many as its size)."""
    state = next(s for s in _states() if s.n_players == 4 and s.phase == START)
    for seat in range(4):
        root = _root(picture(state, seat))
        backs = [e for e in root if e.get("class") == "back"]
        minis = [e for e in root if "mini" in e.get("class", "").split()]
        assert len(backs) == sum(len(h) for p, h in enumerate(state.hands) if p != seat)
        names = [e.findall(f"{NS}text")[-1].text for e in minis]
        assert names == [state.data.card_ids[c] for c in state.hands[seat]]
        assert all(e.get("class") == f"mini s{seat}" for e in minis)
    everything = _root(picture(state))
    assert not [e for e in everything if e.get("class") == "back"]
    assert len([e for e in everything if "mini" in e.get("class", "")]) == sum(map(len, state.hands))


def test_the_caption_says_when_everything_is_shown():
    state = _states()[5]
    assert protocol.ALL_SHOWN in picture(state)
    assert protocol.ALL_SHOWN not in picture(state, 0)


def test_panels_show_score_tokens_and_sizes():
    """Per seat: the total score (line 235), chieftain tokens left (line 73), hand and deck sizes."""
    state = next(s for s in _states() if s.n_players == 3 and s.phase == START and s.round > 3)
    svg = picture(state, 1)
    for p in range(3):
        assert f">{int(state.totals[p])} pts<" in svg
        assert f"{state.tokens[p]} tokens · hand {len(state.hands[p])} · deck {len(state.decks[p])}" in svg
    tokens = {int(e.get("data-seat", "")): e for e in _root(svg) if e.get("class") == "tokens"}
    for p, group in tokens.items():
        filled = [c for c in group if c.get("fill") != "none"]
        assert len(filled) == state.tokens[p] == int(group.get("data-left", ""))


def test_a_four_player_mid_game_picture_is_compact():
    """Compact: measured about 20-22 KB at mid-game, aimed under 30 KB."""
    for kept, _ in _games():
        if kept[0].n_players == 4:
            mid = kept[len(kept) // 2]
            assert len(picture(mid).encode()) < 30_000


def _chosen() -> list[tuple[MainlandState, int, Any]]:
    return [c for _, chosen in _games() for c in chosen]


def test_describe_says_every_kind_of_choice_in_words():
    """Every option kind (``KINDS``: camp line 67, keep and replace line 91, gather 143, place 93, pass 137)
    is seen in the playouts and said as a sentence naming the seat."""
    kinds = set()
    for state, seat, option in _chosen():
        kind, _ = GAME.record(state, seat, option)
        words = describe(state, seat, option)
        assert words.startswith(f"seat {seat} ") and len(words) > 20
        assert "[" not in words and "np." not in words
        kinds.add(kind)
    assert kinds == set(KINDS)


def test_describe_names_the_card_its_items_and_the_place():
    """A placement names the card by its data-file id, its printed items, the rotation and the tiles
    covered; a replace names the card discarded (face up, ruling R9)."""
    placed = replaced = 0
    for state, seat, option in _chosen():
        kind, index, rot, r, c = (int(v) for v in option[:5])
        words = describe(state, seat, option)
        if kind == PLACE_CARD:
            card = state.hands[seat][index]
            name = state.data.card_ids[card]
            items = ", ".join(ITEMS[i] for i in state.data.rotations[card, 0][:2])
            assert f"places card {name} ({items} / " in words and f"at row {r}, col {c}" in words
            assert (f"rotated {90 * rot}°" if rot else "unrotated") in words
            for j in range(4):
                under = state.items[r + j // 2, c + j % 2]
                if under:
                    assert f"covering seat {state.owner[r + j // 2, c + j % 2]}'s {ITEMS[under]}" in words
            placed += 1
        elif kind == REPLACE:
            assert f"discards card {state.data.card_ids[state.hands[seat][index]]} (" in words
            replaced += 1
    assert placed and replaced


def test_describe_a_known_camp_placement():
    """The first choice of a fresh game is the camp (line 67): its card's items as printed in the data
    file (``camp``: camp, plain / forest, mountain), rotation and place."""
    state = GAME.new_state(2, {}, GAME.load_data(None), 1)
    option = GAME.legal_options(state, 0)[-1]
    words = describe(state, 0, option)
    r, c = int(option[3]), int(option[4])
    assert words.startswith("seat 0 places the camp card (camp, plain / forest, mountain), ")
    assert words.endswith(f"at row {r}, col {c}, on 4 empty tiles")


def test_the_plugin_declares_picture_and_describe():
    """``sim.picture`` finds both through the plug-in; the state shows itself in Jupyter."""
    state, seat, option = _chosen()[-1]
    assert protocol.has_pictures("mainland")
    assert str(protocol.picture("mainland", state)) == picture(state)
    assert str(protocol.picture("mainland", state, seat)) == picture(state, seat)
    assert protocol.describe("mainland", state, seat, option) == describe(state, seat, option)
    assert state._repr_svg_() == picture(state)


@pytest.mark.parametrize("kind", [-1, 9])
def test_describe_refuses_an_unknown_kind(kind):
    state = GAME.new_state(2, {}, GAME.load_data(None), 1)
    with pytest.raises(ValueError, match="not a Mainland option kind"):
        describe(state, 0, (kind, 0, 0, 0, 0))

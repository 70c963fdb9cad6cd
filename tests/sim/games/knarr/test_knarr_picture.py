"""Knarr's picture of a state (SVG) and its choices in words (``sim/games/knarr/picture.py``,
``describe.py``), without a browser."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from functools import cache

import numpy as np
import pytest

import sim.picture
from sim.games.knarr.data import ASSETS, COLOURS
from sim.games.knarr.describe import describe
from sim.games.knarr.game import GAME
from sim.games.knarr.picture import picture
from sim.games.knarr.state import (
    BONUS,
    DISCARD,
    GOLDEN_BRACELET,
    HELMET,
    KINDS,
    MEAD_CUP,
    PASS,
    KnarrState,
    Option,
)
from sim.games.knarr.words import ASSET_WORDS
from sim.picture import ALL_SHOWN
from tests.play_kit import random_choices

#: every player count, with and without the expansion and the artifacts
CASES = [
    (2, {"skali": True, "artifacts": True}),
    (3, {}),
    (3, {"skali": True, "artifacts": True, "helmet": "cover"}),
    (4, {"skali": True}),
]
SVG_NS = "{http://www.w3.org/2000/svg}"


def _new(n: int, rules: dict, seed: int) -> KnarrState:
    return GAME.new_state(n, rules, GAME.load_data(None), seed)


def _playout(n: int, rules: dict, seed: int, every: int) -> Iterator[KnarrState]:
    """Copies of the states every ``every`` decisions along a random playout, the last state included."""
    state = _new(n, rules, seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not GAME.is_terminal(state):
        if step % every == 0:
            yield GAME.copy(state)
        GAME.apply(state, random_choices(GAME, state, rng))
        step += 1
    yield state


@cache
def _states(case: int) -> tuple[KnarrState, ...]:
    n, rules = CASES[case]
    return tuple(_playout(n, rules, 20 + case, 40))


def _pieces(svg: str) -> Counter:
    """(kind, where, seat) of every top-level piece."""
    root = ET.fromstring(svg)
    out: Counter = Counter()
    for element in root:
        classes = element.get("class", "").split()
        if classes[:1] == ["piece"]:
            seat = element.get("data-seat")
            out[classes[1], classes[2] if len(classes) > 2 else "", None if seat is None else int(seat)] += 1
    return out


def _expected(state: KnarrState, seat: int | None) -> Counter:
    """The pieces the state holds, as ``seat`` is shown them (ruling R9: other hands as backs)."""
    n = state.n_players
    out: Counter = Counter()
    out["viking", "board", None] = sum(c >= 0 for c in state.board)
    out["destination", "display", None] = sum(d >= 0 for d in state.visible)
    out["building", "display", None] = sum(b >= 0 for b in state.display)
    out["raid", "board", None] = state.raid_board if state.rules.get("skali") else 0
    out["raid", "reserve", None] = state.raid_reserve if state.rules.get("skali") else 0
    for p in range(n):
        out["viking", "crew", p] = sum(len(col) for col in state.crews[p])
        shown = seat is None or seat == p
        out["viking", "hand", p] = len(state.hands[p]) if shown else 0
        out["back", "", p] = 0 if shown else len(state.hands[p])
        out["destination", "owned", p] = len(state.owned[p])
        out["destination", "reserved", p] = len(state.reserved[p])
        out["building", "owned", p] = len(state.buildings[p]) if state.buildings else 0
        out["raid", "held", p] = state.raids[p] if state.rules.get("skali") else 0
    return +out


def _markers(state: KnarrState) -> Counter:
    return Counter({("marker", track, p): 1 for track in ("rep", "vp") for p in range(state.n_players)})


@pytest.mark.parametrize("case", range(len(CASES)))
def test_picture_is_well_formed_one_element_per_line(case):
    """sim/picture.py layout: the opening tag on the first line, one top-level element per line, then
    ``</svg>``; the whole parses as XML."""
    for state in _states(case)[::2]:
        for seat in (None, 0):
            svg = picture(state, seat)
            lines = svg.rstrip("\n").split("\n")
            assert lines[0].startswith("<svg ") and lines[-1] == "</svg>"
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG_NS}svg"
            assert len(list(root)) == len(lines) - 2
            for line in lines[1:-1]:
                ET.fromstring(line)  # each line is one whole element
            assert lines[1].startswith("<title>")


@pytest.mark.parametrize("case", range(len(CASES)))
def test_one_piece_per_piece_on_the_table(case):
    """Every Viking (board, crews, hands), destination, Building, raid token and track marker is one
    ``piece`` element, counted against the state, for several states of a random playout."""
    for state in _states(case):
        for seat in (None, state.current):
            got = _pieces(picture(state, seat))
            assert got == _expected(state, seat) + _markers(state), (seat, got)


def test_board_vikings_are_the_states_cards():
    """The board's Viking pieces name the cards in the board slots (knarr.md A.4 step 2)."""
    state = _states(3)[2]
    root = ET.fromstring(picture(state))
    cards = [int(e.get("data-card")) for e in root if e.get("class") == "piece viking board"]
    assert cards == [c for c in state.board if c >= 0]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_picture_is_deterministic(case):
    """The same state twice, a ``GAME.copy`` of it and its snapshot round trip give the same bytes."""
    for state in _states(case)[1::3]:
        for seat in (None, 1):
            once = picture(state, seat)
            assert picture(state, seat) == once
            assert picture(GAME.copy(state), seat) == once
            assert picture(GAME.from_dict(GAME.to_dict(state)), seat) == once


@pytest.mark.parametrize("case", range(len(CASES)))
def test_seat_picture_hides_what_the_rules_hide(case):
    """RULINGS.md R9 'Hands are secret ... deck order and other hands are not [public]': a state and a
    determinization of it for ``seat`` (other hands and the decks' order drawn again) give ``seat`` the
    same picture, while the all-shown picture (every hand, the decks' next cards) tells them apart."""
    rng = np.random.default_rng(case)
    compared = 0
    for state in _states(case)[1:-1]:
        seat = state.current
        other = GAME.determinize(state, seat, rng)
        if other.hands == state.hands and other.deck == state.deck:
            continue
        assert picture(other, seat) == picture(state, seat)
        assert picture(other, None) != picture(state, None)
        compared += 1
    assert compared >= 2


def test_captions_say_what_is_shown():
    state = _states(0)[1]
    assert ALL_SHOWN in picture(state)
    seat_view = picture(state, 1)
    assert ALL_SHOWN not in seat_view and "as seat 1 sees it" in seat_view


def test_picture_size_stays_compact():
    """Compact: a 4-player expansion game's pictures stay under 30 KB all through it."""
    for state in _states(3):
        assert len(picture(state).encode()) < 30_000


def _all_options(state: KnarrState) -> Iterator[tuple[int, Option]]:
    for seat in GAME.to_move(state):
        for option in GAME.legal_options(state, seat):
            yield seat, option


def _bonus_state(rules: dict, artifact: int, bonus: str) -> KnarrState:
    """A fresh game whose first player has an artifact bonus pending (knarr.md A.7)."""
    state = _new(3, {"artifacts": True, **rules}, 5)
    state.artifacts = (artifact,)
    state.phase, state.bonus = BONUS, [bonus]
    return state


def _rare_states() -> list[KnarrState]:
    """States offering the kinds a short random playout seldom reaches: pass (ruling R7), discard
    (ruling R6), reserve (Golden Bracelet), cover (Helmet, helmet=cover) and swap (Mead Cup)."""
    stuck = _new(2, {}, 3)
    stuck.hands[0], stuck.crews[0], stuck.recruits[0] = [], [[] for _ in range(5)], 0
    empty = _new(3, {}, 4)
    empty.phase, empty.resume, empty.pending_refill = DISCARD, 0, [0]
    reserve = _bonus_state({}, GOLDEN_BRACELET, "reserve")
    cover = _bonus_state({"helmet": "cover"}, HELMET, "cover")
    cover.owned[0] = [cover.deck_a.pop()]
    return [stuck, empty, reserve, cover, _bonus_state({}, MEAD_CUP, "swap")]


def test_describe_says_every_kind_in_words():
    """A non-empty sentence for every option of every kind (state.KINDS) met in playouts and the
    constructed states, each naming no raw code."""
    kinds: set[str] = set()
    states = [s for case in range(len(CASES)) for s in _states(case)[:-1]] + _rare_states()
    for state in states:
        for seat, option in _all_options(state):
            text = describe(state, seat, option)
            assert text and text == text.strip() and "  " not in text, text
            assert not re.search(r"slot \d|Option\(", text), text  # slots by colour, no raw tuples
            kinds.add(option.kind)
    assert kinds == set(KINDS)
    assert PASS in GAME.legal_options(_rare_states()[0], 0)


def test_describe_names_what_the_data_names():
    """Known options name their Viking (colour, asset), destination (deck and printed id, cost, gain,
    trade row; knarr.md A.3) and Building (printed id, cost)."""
    state = _new(4, {"skali": True}, 7)
    data = state.data
    tl4 = next(i for i, d in enumerate(data.destinations) if d.deck == "A" and d.id == 4)
    text = describe(state, 0, Option("explore", 0, tl4, (0, 0, 0, 0, 0, 3)))
    assert text.startswith(
        "explores Trading Land 4 (cost 3 different colours; gain bracelet; "
        "trade row VP / reputation / recruit) from the display, paying 3 recruits"
    )
    card = state.hands[0][0]
    recruit = describe(state, 0, Option("recruit", card, data.viking_colour[card]))
    colour, asset = COLOURS[data.viking_colour[card]], ASSET_WORDS[ASSETS[data.viking_asset[card]]][0]
    assert recruit.startswith(f"recruits: plays the {colour} Viking ({asset}) into the {colour} column")
    slot = next(i for i, b in enumerate(state.display) if b >= 0)
    building = data.buildings[state.display[slot]]
    assert f"buys Building {building.id} (cost {building.cost} coin" in describe(
        state, 0, Option("develop", slot)
    )
    assert describe(state, 0, Option("end")) == "ends the turn"


def test_plugin_declares_picture_and_describe():
    """The plug-in's picture and describe fields (sim.picture) reach these modules; a state shows itself
    in Jupyter (``_repr_svg_``)."""
    state = _states(0)[2]
    assert sim.picture.has_pictures("knarr")
    shown = sim.picture.picture("knarr", state, 1)
    assert isinstance(shown, sim.picture.Picture) and shown.svg == picture(state, 1)
    assert str(sim.picture.picture("knarr", state)) == picture(state) == state._repr_svg_()
    seat, option = next(_all_options(state))
    assert sim.picture.describe("knarr", state, seat, option) == describe(state, seat, option)


#: The replay viewer at 1400x900 (sim/templates/viewer.html.j2) shows the board in the width left of its
#: 440 px side panel (1400 - 2 x 20 padding - 20 gap - 440 = 900) and at most the window's height less
#: 90 px, so a picture W x H is drawn at min(900 / W, 810 / H) of its size.
VIEWER_BOARD = (900, 810)
LEGIBLE = 11  # px: the smallest text a reader is asked to read at that size


def _font_sizes(svg: str) -> list[float]:
    """The font size of every ``<text>``: its own ``font-size``, else its classes' (the last rule of the
    ``<style>`` that sets one), else the style's ``text`` rule, else the root's."""
    root = ET.fromstring(svg)
    style = root.find(f"{SVG_NS}style")
    rules = re.findall(r"([.\w]+)\{[^}]*font-size:([\d.]+)px", style.text if style is not None else "")
    order = {selector: (i, float(size)) for i, (selector, size) in enumerate(rules)}
    base = order.get("text", (0, float(root.get("font-size", "16"))))[1]
    sizes = []
    for text in root.iter(f"{SVG_NS}text"):
        if text.get("font-size"):
            sizes.append(float(text.get("font-size")))
            continue
        set_by = [order[f".{c}"] for c in text.get("class", "").split() if f".{c}" in order]
        sizes.append(max(set_by)[1] if set_by else base)
    return sizes


def _shown_size(svg: str) -> float:
    """The smallest text of ``svg`` in px as the replay viewer draws it at 1400x900 (``VIEWER_BOARD``)."""
    width, height = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    return min(_font_sizes(svg)) * min(VIEWER_BOARD[0] / width, VIEWER_BOARD[1] / height)


def test_font_sizes_read_the_style():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1800 100" font-size="12">'
        "<style>text{font-size:10px}.s{font-size:9px}.b{font-weight:bold}</style>"
        "<text>a</text><text class='b s'>b</text>"
        "<text font-size='20'>c</text></svg>"
    )
    assert _font_sizes(svg) == [10, 9, 20]
    assert _shown_size(svg) == 4.5


@pytest.mark.parametrize(
    ("players", "rules", "least"),
    [(2, {}, LEGIBLE), (3, {}, LEGIBLE), (4, {}, LEGIBLE), (4, {"skali": True, "artifacts": True}, 9.5)],
)
def test_text_is_legible_in_the_replay_viewer_at_1400x900(players, rules, least):
    """No text of any picture (all shown, and one seat's) along two random games is under 11 px, and the
    picture is 900 px wide, so the replay viewer at 1400x900 draws it at 11 px or more wherever it fits
    810 px tall: the base game's always do.  With the expansion a four-player game's last rounds can run
    taller (every seat's Buildings, knarr-skali-expansion.txt:24): 11 px at the median, 9.5 at least."""
    shown = []
    for seed in range(2):
        for step, state in enumerate(_playout(players, rules, 60 + seed, 10)):
            for seat in (None, step % players):
                svg = picture(state, seat)
                assert min(_font_sizes(svg)) >= LEGIBLE
                shown.append(_shown_size(svg))
    assert min(shown) >= least and sorted(shown)[len(shown) // 2] >= LEGIBLE, (min(shown), len(shown))

"""Greenland's picture and words (``sim.games.greenland.picture`` and ``describe``): well-formed
SVG in ``sim.picture``'s one-element-per-line layout, one ``piece`` element per piece on the table,
deterministic, hiding from a seat what the rules hide, small; every decision in words naming its cards.

States come from seeded random games of every player count and several rule sets, every few decisions and
at every decision of the rarer phases (the trade-ship auction, line 22; set-up, line 13; the Sun Stone, line
54) and wherever a bribe awaits its answer (line 59). Rulebook lines are greenland-third-edition.txt's.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np

import sim.picture
from sim.games.greenland.describe import WORDS, describe
from sim.games.greenland.picture import picture
from sim.games.greenland.picture_shown import tcard_name, tribe_name
from sim.games.greenland.state import (
    ALPHA_POOL,
    ASSIGN,
    BID,
    DOMESTIC,
    ELDER,
    HUNT,
    KINDS,
    NEGOTIATE,
    OVER,
    SETUP,
    SUNSTONE,
    GreenlandState,
    Option,
)
from sim.games.greenland.table import visible
from tests.greenland_kit import GAME, choices, rare, seeded_games

#: (rules, seeds, whether the auction is always bid high): the last reaches the Sun Stone (line 54: Import 24)
RULE_SETS = (
    ({}, range(2), False),
    ({"upkeep": "none"}, (13,), True),
    ({"advanced": False, "bribes": False, "conversion": "any"}, range(1), False),
)
EVERY = 41  # a state kept every EVERY decisions (and every RARE in the rarer phases or with a bribe pending)
RARE = 5
PIECE = re.compile(r'^<g class="piece (\w+)')


@functools.lru_cache(maxsize=1)
def _games() -> tuple[tuple[tuple[GreenlandState, ...], Counter], ...]:
    """Per game played: the states kept, and every option kind offered along it with one description."""
    out = []
    for state, rng, bid_high in seeded_games(RULE_SETS):
        kept, kinds, step = [], Counter(), 0
        while not GAME.is_terminal(state):
            if step % EVERY == 0 or (rare(state) and step % RARE == 0):
                kept.append(GAME.copy(state))
            moves = choices(state, rng, bid_high)
            for seat in moves:
                for o in GAME.legal_options(state, seat):
                    if kinds[o.kind] < 30:
                        kinds[o.kind] += 1
                        words = describe(state, seat, o)
                        assert words and "-1" not in words and "None" not in words, (o, words)
            GAME.apply(state, moves)
            step += 1
        kept.append(state)
        out.append((tuple(kept), kinds))
    return tuple(out)


def _states() -> list[GreenlandState]:
    return [s for kept, _ in _games() for s in kept]


def _pieces(svg: str) -> Counter:
    return Counter(m.group(1) for line in svg.splitlines() if (m := PIECE.match(line)))


def _expected(state: GreenlandState) -> Counter:
    """The pieces on the table: cards in the rows (lines 11-12), the two decks (line 10), the event (line
    22), each tribe's tribesmen per place (line 42), discs per colour held (line 16), unassigned tribesmen
    and Valhalla (line 14), elders per rank (line 51), tableau cards (line 13), Husbands per daughter (line
    61), Trophies (reference B.3.1), hand cards (ruling G19)."""
    n = range(state.n_players)
    places = {(s, p) for s in n for d in (state.hunters[s], state.colonists[s]) for p, k in d.items() if k}
    places |= {(s, state.alpha[s]) for s in n if state.alpha[s] >= 0}
    return Counter(
        {
            "card": len(visible(state)),
            "deck": 2,
            "event": int(state.event >= 0),
            "tribesmen": len(places),
            "discs": sum((state.energy[s] > 0) + (state.ivory[s] > 0) + (state.iron[s] > 0) for s in n),
            "unassigned": sum(state.pool[s] > 0 or state.alpha[s] == ALPHA_POOL for s in n),
            "valhalla": sum(state.valhalla[s] > 0 for s in n),
            "elders": sum(k > 0 for s in n for k in state.elders[s]),
            "tcard": sum(len(t) for t in state.tableau),
            "husbands": sum(k > 0 for s in n for k in state.husbands[s].values()),
            "trophy": sum(len(t) for t in state.trophies),
            "hand": sum(len(h) for h in state.hands),
        }
    )


def test_the_states_cover_every_player_count_and_phase() -> None:
    """The sample reaches set-up (line 13), the auction (line 22), the Sun Stone (line 54), the end, hands
    held (ruling G19), Husbands (line 61) and Trophies (reference B.3.1)."""
    states = _states()
    assert {s.n_players for s in states} == {2, 3, 4}
    phases = {s.phase for s in states}
    assert phases >= {SETUP, BID, ASSIGN, SUNSTONE, NEGOTIATE, HUNT, DOMESTIC, ELDER, OVER}, phases
    assert any(any(s.hands) for s in states)
    assert any(any(s.husbands) for s in states)
    assert any(any(s.trophies) for s in states)


def test_sides_and_the_new_world() -> None:
    """Line 11: the cards right of the deck are on the warm side, those left of it on the cold side; line
    63: a New World card shows its hostile side once flipped."""
    state = GAME.copy(_states()[-1])
    markland = state.data.new_world(0)
    for row in (0, 1):
        for side, cards in (("warm", state.warm[row]), ("cold", state.cold[row])):
            for card in cards:
                assert f'class="piece card {side}" data-card="{card}"' in picture(state)
    state.warm[0] = [markland, *(c for c in state.warm[0] if c != markland)]
    state.cold[0] = [c for c in state.cold[0] if c != markland]
    assert ">peaceful<" in picture(state) and ">HOSTILE<" not in picture(state)
    state.hostile.append(markland)
    assert ">HOSTILE<" in picture(state)


def test_well_formed_one_element_per_line() -> None:
    """``sim.picture``'s layout: the ``<svg>`` tag first, one whole element per line, ``</svg>`` last."""
    for state in _states()[::3]:
        for seat in (None, *range(state.n_players)):
            svg = picture(state, seat)
            root = ET.fromstring(svg)
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            lines = svg.splitlines()
            assert lines[0].startswith("<svg ") and lines[0].endswith(">") and lines[-1] == "</svg>"
            for line in lines[1:-1]:  # each line alone is exactly one element
                assert len(ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{line}</svg>')) == 1, line


def test_one_piece_element_per_piece_on_the_table() -> None:
    """Every piece on the table is one ``piece KIND`` element, for every seat's picture and the whole one;
    each tribe's tribesmen are drawn on the places where the state has them (line 42)."""
    for state in _states():
        expected = +_expected(state)
        for seat in (None, *range(state.n_players)):
            svg = picture(state, seat)
            assert _pieces(svg) == expected, (seat, _pieces(svg), expected)
        tokens = set(re.findall(r'class="piece tribesmen" data-seat="(\d+)" data-place="(\d+)"', svg))
        n = range(state.n_players)
        places = {
            (s, p) for s in n for d in (state.hunters[s], state.colonists[s]) for p, k in d.items() if k
        }
        places |= {(s, state.alpha[s]) for s in n if state.alpha[s] >= 0}
        assert tokens == {(str(s), str(p)) for s, p in places}


def test_deterministic() -> None:
    """The same state, twice or as a ``game.copy``, gives the same bytes."""
    for state in _states()[::5]:
        for seat in (None, 0):
            assert picture(state, seat) == picture(state, seat) == picture(GAME.copy(state), seat)
        assert state._repr_svg_() == picture(state)


def test_a_seat_sees_only_what_the_rules_show() -> None:
    """A determinization keeps what the seat sees and redraws the rest: the event deck (line 9 'face-down,
    shuffled deck'), the biome decks' order (line 10), the Invention and Import decks, the other tribes'
    hands (ruling G19: only how many); the seat's picture is unchanged, the whole picture is not."""
    differ = same = 0
    for i, state in enumerate(_states()):
        whole = picture(state)
        for seat in range(state.n_players):
            det = GAME.determinize(state, seat, np.random.default_rng(i))
            assert picture(det, seat) == picture(state, seat), (i, seat)
            if picture(det) != whole:
                differ += 1
            else:
                same += 1
    assert differ > 20 * max(same, 1), (differ, same)


def test_other_hands_are_card_backs() -> None:
    """Ruling G19: another tribe's hand shows as backs; its own hand and the whole picture name the cards."""
    checked = 0
    for state in _states():
        for holder, hand in enumerate(state.hands):
            for card in hand:
                name = tcard_name(state.data, card)
                assert f">{name}<" in picture(state) and f">{name}<" in picture(state, holder)
                for seat in range(state.n_players):
                    if seat != holder:
                        assert f">{name}<" not in picture(state, seat)
                        assert "card (hidden)" in picture(state, seat)
                checked += 1
    assert checked


def test_compact() -> None:
    """Well under 30 KB for a 4-player state, whatever the phase."""
    sizes = [len(picture(s).encode()) for s in _states() if s.n_players == 4]
    assert max(sizes) < 30_000, max(sizes)


def test_every_kind_in_words() -> None:
    """Every option kind (``state.KINDS``, the game's ``action_kinds``) has words, and every kind the
    playouts offer was described (a sentence with no code left in it: ``_games`` checks each)."""
    assert set(WORDS) == set(KINDS) == set(GAME.action_kinds)
    seen = Counter()
    for _, kinds in _games():
        seen.update(kinds)
    missing = set(KINDS) - set(seen)
    # rarer, described in test_words_name_the_cards: the Sun Stone (line 54), an attack (line 62), pacifying
    # a hostile New World (line 26)
    assert missing <= {"move", "attack", "pacify"}, missing


def test_words_name_the_cards() -> None:
    """The words name what the data names: the biome card hunted and its row and side (lines 11, 44), the
    rank promoted to (line 51), the farm animal chosen (line 13), the import auctioned (line 22)."""
    data = GAME.load_data(None)
    state = GAME.new_state(2, {}, data, 7)
    while state.phase == SETUP:
        GAME.apply(state, {s: GAME.legal_options(state, s)[0] for s in GAME.to_move(state)})
    seat = GAME.to_move(state)[0]
    card = state.warm[0][1]
    hunt = describe(state, seat, Option("hunt", card))
    assert hunt == f"sends a tribesman to hunt {data.biomes[card].name} (North row, warm side)"
    assert "Shaman (rank 2)" in describe(state, seat, Option("promote", 1))
    markland = data.new_world(0)
    assert "Markland (North row, New World) as a colonist" in describe(state, seat, Option("hunt", markland))
    assert describe(state, seat, Option("animal", 0)) == "chooses the Cattle as its starting farm animal"
    other = 1 - seat
    assert describe(state, seat, Option("attack", card, other)) == (
        f"attacks seat {other} ({tribe_name(data, state.tribe[other])}) on {data.biomes[card].name} "
        "(North row, warm side)"
    )
    assert describe(state, seat, Option("pacify", markland)) == (
        "pacifies Markland (North row, New World) for 1 ivory"
    )
    move = describe(state, seat, Option("move", card, -1 - 5, 1))
    assert (
        move
        == f"takes the Alpha off {data.biomes[card].name} (North row, warm side) with the Sun Stone and "
        + ("promotes it to Mariner (rank 6) on its placard for 1 energy")
    )
    state.offer = data.tcards_of("import")[0]
    assert describe(state, seat, Option("bid", 1)) == "bids 1 ivory for the trade ship's Sun Stone"


#: the verb that opens each kind's words (state.KINDS): a caption reads "seat N (strategy) VERB ..."
VERBS = {
    "animal": {"chooses"}, "hunt": {"sends"}, "guard": {"sends"}, "raid": {"sends"}, "alpha": {"sends",
    "promotes"}, "promote": {"promotes"}, "done": {"is"}, "move": {"takes"}, "stay": {"stays"},
    "withdraw": {"withdraws"}, "attack": {"attacks"}, "defend": {"spends", "faces"}, "roll": {"rolls"},
    "reroll": {"re-rolls"}, "keep": {"keeps"}, "casualty": {"lets", "spares"}, "pick": {"picks"},
    "bribe": {"asks"}, "counter": {"asks"}, "accept": {"accepts"}, "refuse": {"refuses"}, "bid": {"bids"},
    "breed": {"breeds"}, "pacify": {"pacifies"}, "elder": {"uses"}, "table": {"puts"},
    "convert": {"converts"},
}  # fmt: skip
CAPTION = re.compile(r"seat (\d) \(random\) (\S+) \S")


def test_every_caption_is_a_sentence_with_its_verb(tmp_path) -> None:
    """Every replay caption reads "seat N (strategy) VERB ...": each kind's words open with its verb (the
    elders' actions, line 27: "uses its Tracker to forage, gaining 1 energy"; the Sun Stone, line 54), for
    every option the seeded playouts offer, the rarer kinds built, and the captions of a replayed game."""
    from sim.cli import _main
    from sim.frames import _action, record_frames

    seen: dict[str, set[str]] = {}
    offered = [(s, p, o) for s in _states() for p in GAME.to_move(s) for o in GAME.legal_options(s, p)[:60]]
    state, seat, card = _sun_stone_state()
    offered += [(state, seat, Option("move", card, -1 - 5, 1)),
                (state, seat, Option("attack", card, 1 - seat)),
                (state, seat, Option("pacify", state.data.new_world(0)))]  # fmt: skip
    for state, p, o in offered:
        caption = f"seat {p} (random) {_action(p, describe(state, p, o))}"
        found = CAPTION.match(caption)
        assert found and found.group(2) in VERBS[o.kind], caption
        seen.setdefault(o.kind, set()).add(found.group(2))
    assert {"elder", "move"} <= set(seen), "the kinds that lacked a verb were checked"
    out = tmp_path / "g"
    assert _main(["run", "greenland", "--players", "2", "--games", "1", "--jobs", "1",
                  "--strategies", "random", "--seed", "3", "--out", str(out), "--quiet"]) == 0  # fmt: skip
    lines = [line for caption in record_frames(out, 0, every_view=False).captions for line in caption]
    verbs = set().union(*VERBS.values())
    for line in lines[:-1]:
        found = CAPTION.match(line)
        assert found and found.group(2) in verbs, line
    assert any(" uses its " in line for line in lines), "the replayed game has an elder's action"


def _sun_stone_state() -> tuple[GreenlandState, int, int]:
    """A 2-player game past set-up: the seat to move and a warm North card (as test_words_name_the_cards)."""
    state = GAME.new_state(2, {}, GAME.load_data(None), 7)
    while state.phase == SETUP:
        GAME.apply(state, {s: GAME.legal_options(state, s)[0] for s in GAME.to_move(state)})
    return state, GAME.to_move(state)[0], state.warm[0][1]


def test_the_plug_in_declares_both() -> None:
    """The plug-in's ``picture`` and ``describe`` fields (``sim.picture``) reach these functions."""
    state = next(s for s in _states() if s.phase == ASSIGN and s.n_players > 1)
    assert sim.picture.has_pictures("greenland")
    assert sim.picture.picture("greenland", state).svg == picture(state)
    assert sim.picture.picture("greenland", state, 1).svg == picture(state, 1)
    seat = GAME.to_move(state)[0]
    option = GAME.legal_options(state, seat)[0]
    assert sim.picture.describe("greenland", state, seat, option) == describe(state, seat, option)
    assert sim.picture.ALL_SHOWN in picture(state) and sim.picture.ALL_SHOWN not in picture(state, 0)

"""Strict component data files: every game's loader checks types, values, references and keys.

The packaged files load; a copy of one with a single field of the wrong type, a required key
deleted or an unknown key added is refused by ``skald run GAME --data FILE`` with exit code 2,
one ``error:`` line naming the table/key path and what is allowed, no traceback and no output
folder.  Hand-picked wrong values (a count below zero, an unknown piece, a bad source) are
checked one by one below the fuzzing.
"""

from __future__ import annotations

import re
import shutil
import string
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.errors import SkaldError
from sim.games import get_game
from tests.sim.test_scale_fuzz import (
    FOLDER_KINDS,
    FUZZ,
    assert_clean_refusal,
    dump_data,
    invoke,
    merged_kinds,
    run_with_data,
    run_with_folder,
)

#: game -> (players for a run, packaged data file, or folder of kind files: Greenland)
GAMES = {
    "mainland": (2, Path("sim/games/mainland/data/mainland.toml")),
    "graenaland": (3, Path("sim/games/graenaland/data/graenaland.toml")),
    "knarr": (2, Path("sim/games/knarr/data/knarr.toml")),
    "greenland": (2, Path("sim/games/greenland/data")),
}
#: keys a game's file may leave out (the last key of the path)
OPTIONAL_KEYS = {
    "mainland": set(),
    "graenaland": {"mark", "victory_cards"},
    "knarr": {"expansion"},
    # the daughter's and animals' optional fields, an invention's effects, a biome's hostile side; "row"
    # only a New World card needs (the builder's error: "a New World card needs its row")
    "greenland": {
        "either",
        "raid_hits",
        "raid_bloody",
        "sled",
        "transport",
        "modifier",
        "reroll",
        "sun_stone",
        "winter_free",
        "attack",
        "vp",
        "hand",
        "row",
        "need_hostile",
        "bloody_hostile",
    },
}
#: tables whose keys are a free choice among known names (resource = count): one may go
FREE_TABLES = {
    "mainland": set(),
    "graenaland": {("costs", "*", "value"), ("decks", "*", "value"), ("pieces", "*", "village")},
    "knarr": {("vikings", "*", "counts")},
    "greenland": set(),  # every table's keys are fixed (the four tribes are all required)
}
WORD = st.text(alphabet=string.ascii_letters, min_size=1, max_size=6)
SOME_DICT = st.dictionaries(WORD, st.integers(0, 9), min_size=1, max_size=2)
#: values surely of another type than the original, by the original's type
WRONG_FOR: dict[type, st.SearchStrategy[Any]] = {
    bool: st.one_of(WORD, st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False)),
    int: st.one_of(WORD, st.booleans(), st.floats(allow_nan=False, allow_infinity=False), SOME_DICT),
    str: st.one_of(st.integers(-3, 30), st.booleans(), st.lists(WORD, max_size=2), SOME_DICT),
    list: st.one_of(WORD, st.integers(-3, 3), st.booleans(), SOME_DICT),
}


def packaged(game: str) -> dict[str, Any]:
    """The game's packaged data document (a folder's kind files merged into one)."""
    if game in FOLDER_KINDS:
        return merged_kinds(GAMES[game][1], FOLDER_KINDS[game])
    return tomllib.loads(GAMES[game][1].read_text(encoding="utf-8"))


def packaged_text(game: str) -> str:
    """The game's packaged data as the text of one file (a folder's kind files concatenated, in order)."""
    if game in FOLDER_KINDS:
        folder = GAMES[game][1]
        return "\n".join((folder / f"{kind}.toml").read_text(encoding="utf-8") for kind in FOLDER_KINDS[game])
    return GAMES[game][1].read_text(encoding="utf-8")


def plain_names(names: tuple[str, ...] | list[str]) -> list[str]:
    """Reconstructed-value names without the ``kind:`` prefix a data folder adds (``dice:die.alpha_face``)."""
    return [name.partition(":")[2] or name for name in names]


def key_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key of every table, tables inside arrays of tables included (``("cards", 3, "items")``)."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in [(*path, k), *key_paths(v, (*path, k))]]
    if isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        return [p for i, v in enumerate(node) for p in key_paths(v, (*path, i))]
    return []


def table_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every table (the document itself included)."""
    if isinstance(node, dict):
        return [path] + [p for k, v in node.items() for p in table_paths(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        return [p for i, v in enumerate(node) for p in table_paths(v, (*path, i))]
    return []


def at(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def in_free_table(game: str, path: tuple[Any, ...]) -> bool:
    parent = path[:-1]
    return any(
        len(parent) == len(free) and all(f == "*" or f == p for f, p in zip(free, parent, strict=True))
        for free in FREE_TABLES[game]
    )


def required(game: str, path: tuple[Any, ...]) -> bool:
    """Whether the file cannot do without the key at ``path``."""
    return path[-1] not in OPTIONAL_KEYS[game] and not in_free_table(game, path)


def refused(game: str, text: str) -> str:
    """Run the game on ``text`` as its data file; assert a clean refusal and return the error line."""
    code, stdout, err, folder, tmp = run_with_data(game, text)
    with tmp:
        assert_clean_refusal(code, stdout, err, folder)
    assert "data file" in err and "data.toml" in err, err
    return err


@st.composite
def mutated(draw: Callable[..., Any], game: str) -> tuple[str, tuple[Any, ...], str]:
    """(kind, path, TOML text): one field of the wrong type, one required key gone, or one key added."""
    doc = packaged(game)
    kind = draw(st.sampled_from(["wrong", "delete", "unknown"]))
    if kind == "wrong":
        path = draw(st.sampled_from([p for p in key_paths(doc) if type(at(doc, p)) in WRONG_FOR]))
        parent = at(doc, path[:-1])
        parent[path[-1]] = draw(WRONG_FOR[type(parent[path[-1]])])
    elif kind == "delete":
        path = draw(st.sampled_from([p for p in key_paths(doc) if required(game, p)]))
        del at(doc, path[:-1])[path[-1]]
    else:
        path = draw(st.sampled_from(table_paths(doc)))
        path = (*path, "bogus_" + draw(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=5)))
        at(doc, path[:-1])[path[-1]] = draw(st.one_of(st.integers(0, 5), WORD))
    return kind, path, dump_data(doc)


# --------------------------------------------------------------------------- the packaged files


@pytest.mark.parametrize("game", sorted(GAMES))
def test_packaged_data_loads_and_round_trips(game: str, tmp_path: Path) -> None:
    """The packaged file passes the strict checks, and so does a copy written back by ``dump_data``."""
    obj = get_game(game)
    data = obj.load_data(None)
    assert Path(data.path).resolve() == GAMES[game][1].resolve() and len(data.sha1) == 40
    doc = packaged(game)
    assert tomllib.loads(dump_data(doc)) == doc
    copy = tmp_path / "copy.toml"
    copy.write_text(dump_data(doc), encoding="utf-8")
    again = obj.load_data(str(copy))
    assert plain_names(again.reconstructed) == plain_names(data.reconstructed)
    assert (again.reconstructed == data.reconstructed) == (game not in FOLDER_KINDS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_run_on_a_copy_of_the_packaged_file(game: str, tmp_path: Path) -> None:
    players, path = GAMES[game]
    data = tmp_path / "data.toml"
    if path.is_dir():
        data = tmp_path / "data"
        shutil.copytree(path, data)
    else:
        data.write_bytes(path.read_bytes())
    out = tmp_path / "out"
    args = ["run", game, "--players", str(players), "--games", "1", "--strategies", "random", "--jobs", "1"]
    code, _, err = invoke(
        [*args, "--quiet", "--max-decisions", "200", "--data", str(data), "--out", str(out)]
    )
    assert code == 0, err
    assert (out / "manifest.json").is_file()


# --------------------------------------------------------------------------- fuzzed mutations


@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_bad_field_is_a_one_line_error(game: str) -> None:
    @FUZZ  # SKALD_FUZZ_EXAMPLES=500 for a longer search
    @given(case=mutated(game))
    def check(case: tuple[str, tuple[Any, ...], str]) -> None:
        kind, path, text = case
        err = refused(game, text)
        name = str(path[-1])
        if kind == "unknown":
            assert f"unknown key {name}" in err and "allowed: " in err, err
        elif marker := re.fullmatch(r"([a-z]+_)?(source|ref|reason)", name):
            assert f"needs {marker.group(1) or ''}source" in err, err
        elif kind == "delete" and not isinstance(path[-1], int):
            assert f"missing {name}" in err or "missing " in err and name in err, err
        else:
            assert name in err and "allowed: " in err, err

    check()


# --------------------------------------------------------------------------- chosen wrong values


G, M, K, GL = "graenaland", "mainland", "knarr", "greenland"
WHEAT_REASON = 'reason = "resource card: wheat with its land"'
VIKING_REF = 'ref = "knarr.md A.2 Viking'
#: (game, text in the packaged file, its replacement, part of the error)
# fmt: off
CASES = [
    (G, "coastal = true", 'coastal = "abc"', "U1.coastal: got the string 'abc'; allowed: true or false"),
    (G, "coastal = true", "coastal = 1", "pieces.U1.coastal: got the integer 1"),
    (G, 'coast = ["U1", "U2", "T35"]', 'coast = ["U1", "X9", "T35"]', "coast[1]: unknown piece 'X9'"),
    (G, 'coast = ["U1", "U2", "T35"]', 'coast = ["U1", "U3", "T35"]', "is not coastal"),
    (G, 'start = [["U2", "U3"], ["U1"', 'start = [["U3", "U2"], ["U1"', "layout.3.start[0]"),
    (G, 'id = "U1"\nmark = ""', 'id = "U1"\nmark = ""\ncolour = "red"', "pieces.U1: unknown key colour"),
    (G, 'terrain = "plains"', 'terrain = "swamp"', "one of plains, forest, hills, mountains"),
    (G, "village = { wood = 2, cattle = 2 }", "village = { wood = 2, gold = 2 }", "gold is wild"),
    (G, "village = { wood = 2, cattle = 2 }", "village = { wood = -2, cattle = 2 }", "0..1000"),
    (G, "village = { wood = 2, cattle = 2 }", "village = { wood = 0 }", "costs nothing"),
    (G, "road = { value = 6,", "road = { value = 6.0,", "tokens.road.value: got the number 6.0"),
    (G, 'plains = { value = "cattle"', 'plains = { value = "gold"', "fortress_resource.plains.value"),
    (G, "[setup.houses]\nvalue = 14", "[setup.houses]\nvalue = true", "got the boolean true"),
    (G, "[victory_cards.points]\nvalue = 6", "[victory_cards.points]\nvalue = 0", "1..1000"),
    (G, "settlements = [6, 7, 9]", "settlements = [9, 7, 6]", "never decrease"),
    (M, 'ref = "mainland.txt:73', "ref = 73 #", "setup.chieftain_tokens: needs source"),
    (M, WHEAT_REASON, 'reason = ["x"]', "cards.wheat-a: needs source"),
    (M, WHEAT_REASON, f'ref = "x"\n{WHEAT_REASON}', "ref goes with the other source"),
    (M, 'source = "printed"\nref = "mainland.txt:73', 'source = "Printed"\nref = "mainland.txt:73',
     "needs source: got the string 'Printed'"),
    (M, "value = 5\n", "value = true\n", "setup.hand_size.value: got the boolean true"),
    (M, "rows = 10\n", "", "board.2: missing rows"),
    (M, "rows = 10\n", "rows = 10\nlayers = 2\n", "unknown key layers; allowed: rows, cols, source"),
    (M, 'id = "wheat-b"', 'id = "wheat-a"', "duplicate id 'wheat-a'"),
    (M, 'id = "wheat-b"', 'id = ""', "cards[2].id"),
    (M, "camp = { value = 1,", "camp = { value = -1,", "counts.camp.value: got -1; allowed: a whole"),
    (K, 'deck = "A"\ncost = "diff3"', 'deck = "C"\ncost = "diff3"', "destinations.1.deck: got the string"),
    (K, 'cost = "diff3"', 'cost = "diff9"', "destinations.1.cost"),
    (K, "expansion = false", "expansion = 0", "destinations.1.expansion: got the integer 0"),
    (K, 'gain = ["recruit", "rep", "card"]', 'gain = ["recruit", "fame", "card"]', "gain[1]"),
    (K, "crew_size = { value = 2,", "crew_size = { value = 7,", "a whole number 1..5"),
    (K, "hand_size = { value = 3,", "hand_size = { value = 20,", "the 2-player deck has 30 cards"),
    (K, "[6, 2], [10, 3]", "[10, 2], [6, 3]", "thresholds rising"),
    (K, "vp = [2, 3, 4], bracelet = [1, 2, 2]", "vp = [2, 3, 1], bracelet = [1, 2, 2]", "vikings.blue"),
    (K, f'source = "printed"\n{VIKING_REF}', f'source = "printed"\nreason = ""\n{VIKING_REF}', "blue"),
    (K, "coins_start = { value = 1,", "coins_start = { value = 4,", "skali.coins_start"),
    (K, 'rows_source = "printed"', 'rows_source = "printed"\nrows_colour = "red"', "unknown key rows_colour"),
    (K, "id = 2\n", "id = 1\n", "duplicate id 1"),
    (GL, 'name = "pony"\nenergy = 1', 'name = "pony"\nenergy = "1"',
     "animals.pony.energy: got the string '1'; allowed: a whole number 0..20"),
    (GL, "attrition_before_rewards = { value = true,", 'attrition_before_rewards = { value = "yes",',
     "hunt.attrition_before_rewards.value: got the string 'yes'; allowed: true or false"),
    (GL, "sides = { value = 6,", "sides = { value = 7,",
     "die.sides.value: got 7; allowed: a whole number 2..6"),
    (GL, 'reroll = [["sea", 1]]\nactions', 'reroll = [["sea", "1"]]\nactions',
     "ranks.2.reroll[0][1]: got the string '1'; allowed: a whole number 1..6"),
    (GL, 'reroll = [["sea", 1]]\nactions', 'reroll = [["sea"]]\nactions',
     "ranks.2.reroll[0]: got a list of 1; allowed: a list of 2: [biome type, re-rolls]"),
    (GL, 'reroll = [["sea", 1]]\nsource', 'reroll = [["ice", 1]]\nsource',
     "inventions.Kayak.reroll[0][0]: got the string 'ice'; allowed: one of land, sea, iron"),
    (GL, 'reroll = [["land", 1]]', 'reroll = ["land", 1]',
     "animals.sheep.reroll[0]: got the string 'land'; allowed: a list of 2: [biome type, re-rolls]"),
    (GL, 'modifier = [["sea", 3]]', 'modifier = [["sea", 0]]',
     "modifier[0][1]: got 0; allowed: a whole number 1..6"),
    (GL, 'animals = ["reindeer", "lappget"]', 'animals = ["reindeer", "moose"]',
     "tribes.sami.animals: unknown animal 'moose'"),
    (GL, 'icons = ["plague", "elder_death"]', 'icons = ["plague", "flood"]',
     "events.Fever.icons: unknown icon 'flood'"),
    (GL, 'name = "goat"', 'name = "sheep"', "animals.sheep: duplicate name 'sheep'"),
    (GL, "[daughter]\n", '[daughter]\ncolour = "red"\n', "daughter: unknown key colour; allowed: energy,"),
    (GL, "[hunt]\n", "[hunt]\nweather = { value = 1 }\n", "hunt: unknown key weather"),
    (GL, ", ref = \"greenland-third-edition.txt:11 'Reveal the top six cards'\"", "",
     "setup.row_size: needs source: source = 'printed' needs a ref, got none"),
    (GL, 'source = "printed"\nref = "greenland-third-edition.txt:3,13',
     'source = "printed"\nreason = "greenland-third-edition.txt:3,13', "tribes.tunit: needs source"),
    (GL, 'row = "north"\n', "", "biomes.Markland: a New World card needs its row"),
]
# fmt: on


@pytest.mark.parametrize("game,old,new,fragment", CASES)
def test_chosen_wrong_values(game: str, old: str, new: str, fragment: str, tmp_path: Path) -> None:
    text = packaged_text(game)
    assert old in text, old
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SkaldError) as info:
        get_game(game).load_data(str(path))
    message = str(info.value)
    assert "\n" not in message and fragment in message and str(path) in message, message
    if game in FOLDER_KINDS:  # the same change in a copy of the data folder names the kind file
        folder = tmp_path / "data"
        shutil.copytree(GAMES[game][1], folder)
        kind = next(
            k for k in FOLDER_KINDS[game] if old in (folder / f"{k}.toml").read_text(encoding="utf-8")
        )
        kind_file = folder / f"{kind}.toml"
        kind_file.write_text(kind_file.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        with pytest.raises(SkaldError) as info:
            get_game(game).load_data(str(folder))
        message = str(info.value)
        assert "\n" not in message and fragment in message and str(kind_file) in message, message


@pytest.mark.parametrize("game", sorted(GAMES))
def test_refusals_through_the_command_line(game: str) -> None:
    """One chosen case per game through ``skald run``: exit 2, one line, nothing written."""
    _, old, new, fragment = next(c for c in CASES if c[0] == game)
    err = refused(game, packaged_text(game).replace(old, new, 1))
    assert fragment in err, err


@pytest.mark.parametrize("kind", FOLDER_KINDS["greenland"])
@pytest.mark.parametrize("how", ["malformed", "missing"])
def test_a_data_folder_names_its_broken_or_missing_kind_file(kind: str, how: str) -> None:
    """``skald run greenland --data FOLDER`` with one kind file malformed (an unknown top-level key) or
    missing: exit 2, one line naming that file, no output folder."""
    folder = GAMES["greenland"][1]
    files = {f"{k}.toml": (folder / f"{k}.toml").read_bytes() for k in FOLDER_KINDS["greenland"]}
    if how == "missing":
        del files[f"{kind}.toml"]
    else:
        files[f"{kind}.toml"] = b"bogus_key = 1\n" + files[f"{kind}.toml"]
    code, out, err, tmp_folder, tmp = run_with_folder("greenland", files)
    with tmp:
        assert_clean_refusal(code, out, err, tmp_folder)
    if how == "missing":
        assert f"lacks {kind}.toml" in err, err
    else:
        assert f"{kind}.toml' is malformed: (top level): unknown key bogus_key; allowed: " in err, err


def test_every_message_is_one_line_even_for_odd_keys(tmp_path: Path) -> None:
    """A key with a newline or quote in it is quoted in the path, so the message stays on one line."""
    doc = packaged("mainland")
    doc["setup"]["line\nbreak'"] = 1
    path = tmp_path / "odd.toml"
    path.write_text(dump_data(doc), encoding="utf-8")
    with pytest.raises(SkaldError) as info:
        get_game("mainland").load_data(str(path))
    assert "\n" not in str(info.value) and "unknown key" in str(info.value)

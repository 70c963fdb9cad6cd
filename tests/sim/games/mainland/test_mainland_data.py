"""Mainland's component data: the packaged ``data/mainland.toml`` and user data files."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.errors import SkaldError
from sim.games.mainland import data as data_module
from sim.games.mainland.game import GAME
from sim.games.mainland.items import CODE, ITEMS
from tests.mainland_testkit import RULEBOOK

#: Items per player as printed in the Items table, with the rulebook line and its raw text
#: (item, count, points inside Mainland, points in minor territories run together).
PRINTED_COUNTS = {
    "camp": (1, 180, "Camp121"),
    "temple": (3, 181, "Temple321"),
    "wheat": (9, 183, "Wheat91(no points printed)"),
    "wood": (9, 185, "Wood91(no points printed)"),
    "gold": (9, 251, "Gold91(no points printed)"),
    "village": (7, 252, "Village721"),
    "tower": (6, 253, "Tower621"),
    "warrior": (5, 254, "Warrior542"),
    "rider": (4, 255, "Rider463"),
    "castle": (2, 256, "Castle2105"),
}
DEFAULT = data_module.DEFAULT_PATH
WHEAT_A = 'items = ["wheat", "wheat", "plain", "plain"]'


def deck_item_counts(data) -> dict[str, int]:
    """Items on all of one clan's cards (camp card included), from the unrotated layouts."""
    counts = np.bincount(data.rotations[:, 0].ravel().astype(np.int64), minlength=len(ITEMS))
    return {name: int(counts[CODE[name]]) for name in ITEMS}


def test_packaged_data_loads():
    """mainland.txt:73, :77, :67: 6 tokens, 5-card hands, one camp card starting a 25-card clan deck."""
    data = GAME.load_data(None)
    again = data_module.load(None)
    assert again.sha1 == data.sha1 and again.card_ids == data.card_ids
    assert Path(data.path) == DEFAULT and len(data.sha1) == 40
    assert data.hand_size == 5 and data.tokens == 6
    assert len(data.card_ids) == 25 and len(set(data.card_ids)) == 25
    assert data.card_ids[data.camp_card] == "camp"
    assert sorted(data.deck_cards + (data.camp_card,)) == list(range(25))
    assert set(data.board) == {2, 3, 4}
    assert data.rotations.shape == (25, 4, 4) and data.rotations.dtype == np.int8
    assert (data.rotations > 0).all()  # no card has an empty tile
    assert data.is_castle_card.tolist() == [
        bool((data.rotations[i, 0] == CODE["castle"]).any()) for i in range(25)
    ]


@pytest.mark.parametrize("name", list(PRINTED_COUNTS))
def test_deck_item_counts_equal_printed_counts(name):
    """mainland.txt:179-256 "Number of items available for each player": the cards carry exactly the
    printed counts (camp 1, temple 3, wheat 9, wood 9, gold 9, village 7, tower 6, warrior 5, rider 4,
    castle 2)."""
    count, line, raw = PRINTED_COUNTS[name]
    if RULEBOOK.exists():
        assert RULEBOOK.read_text(encoding="utf-8").splitlines()[line - 1] == raw
    assert deck_item_counts(GAME.load_data(None))[name] == count


def test_every_tile_is_accounted_for():
    """25 cards x 4 tiles; the lands (counts not printed, mainland.txt:182, 184, 250) fill the rest."""
    counts = deck_item_counts(GAME.load_data(None))
    assert counts["empty"] == 0
    assert sum(counts.values()) == 100
    doc = tomllib.loads(DEFAULT.read_text(encoding="utf-8"))
    for name, entry in doc["counts"].items():
        assert counts[name] == entry["value"], name


def test_camp_card_carries_the_only_camp():
    """mainland.txt:67 "The first card you play is your clan's camp." """
    data = GAME.load_data(None)
    camp_tiles = (data.rotations[:, 0] == CODE["camp"]).sum(axis=1)
    assert camp_tiles[data.camp_card] == 1
    assert camp_tiles.sum() == 1


def _marked(entry: dict, where: str) -> str:
    assert entry.get("source") in ("printed", "reconstructed"), where
    if entry["source"] == "printed":
        assert isinstance(entry.get("ref"), str) and "mainland.txt" in entry["ref"], where
    else:
        assert isinstance(entry.get("reason"), str) and entry["reason"].strip(), where
    return entry["source"]


def test_every_value_is_marked_printed_or_reconstructed():
    """The data file's header: every value is marked printed (with its rulebook line) or reconstructed (with
    the reason); the loader lists exactly the reconstructed ones."""
    doc = tomllib.loads(DEFAULT.read_text(encoding="utf-8"))
    reconstructed = set()
    for section in ("setup", "counts", "points"):
        for key, entry in doc[section].items():
            if _marked(entry, f"{section}.{key}") == "reconstructed":
                reconstructed.add(f"{section}.{key}")
    for players, entry in doc["board"].items():
        if _marked(entry, f"board.{players}") == "reconstructed":
            reconstructed.add(f"board.{players}")
    for card in doc["cards"]:
        if _marked(card, f"cards.{card['id']}") == "reconstructed":
            reconstructed.add(f"cards.{card['id']}")
    assert set(GAME.load_data(None).reconstructed) == reconstructed
    # The printed counts are marked printed and cite the line of the table they come from.
    for name, (count, line, _) in PRINTED_COUNTS.items():
        entry = doc["counts"][name]
        assert entry["source"] == "printed" and entry["value"] == count
        assert entry["ref"] == f"mainland.txt:{line}"


def test_points_are_printed_values():
    """mainland.txt:205-227: the points in the data file are the printed ones (see test_mainland_rules)."""
    doc = tomllib.loads(DEFAULT.read_text(encoding="utf-8"))
    assert all(entry["source"] == "printed" for entry in doc["points"].values())
    assert set(doc["points"]) == set(ITEMS[1:])


# --------------------------------------------------------------------------- user data files


def user_file(tmp_path: Path, text: str | bytes, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def packaged_text() -> str:
    return DEFAULT.read_text(encoding="utf-8")


def assert_one_line_error(path: Path, *fragments: str) -> str:
    for loader in (data_module.load, GAME.load_data):
        with pytest.raises(SkaldError) as info:
            loader(str(path) if loader is GAME.load_data else path)
        message = str(info.value)
        assert message and "\n" not in message and "Traceback" not in message
        for fragment in fragments:
            assert fragment in message, message
    return message


def test_user_copy_of_the_packaged_file_loads(tmp_path):
    """A user's own copy (``--data FILE``) loads like the packaged one; its path and hash identify it."""
    path = user_file(tmp_path, packaged_text().replace("value = 6\n", "value = 4\n", 1))
    data = data_module.load(path)
    assert data.tokens == 4 and data.path == str(path)
    assert data.sha1 != GAME.load_data(None).sha1
    state = GAME.new_state(2, {}, GAME.load_data(str(path)), seed=0)
    assert state.tokens == [4, 4]


@pytest.mark.parametrize("name,wrong", [("wheat", 8), ("castle", 3), ("camp", 2), ("plain", 14)])
def test_wrong_count_is_rejected(tmp_path, name, wrong):
    """mainland.txt:179-256: a deck that does not carry the printed (or stated) count is refused."""
    text = packaged_text()
    count = tomllib.loads(text)["counts"][name]["value"]
    old = f"{name} = {{ value = {count},"
    assert old in text
    path = user_file(tmp_path, text.replace(old, f"{name} = {{ value = {wrong},"))
    assert_one_line_error(path, str(path), name, str(wrong))


def test_card_change_breaking_a_count_is_rejected(tmp_path):
    text = packaged_text()
    old = 'items = ["rider", "rider", "temple", "mountain"]'
    assert old in text
    path = user_file(tmp_path, text.replace(old, 'items = ["rider", "castle", "temple", "mountain"]'))
    assert_one_line_error(path, str(path), "the cards carry")


def test_bad_toml_is_rejected(tmp_path):
    path = user_file(tmp_path, packaged_text() + "\n[[cards]\nid = \n")
    assert_one_line_error(path, str(path), "TOML")


def test_not_utf8_is_rejected(tmp_path):
    path = user_file(tmp_path, b"\xff\xfe\x00 not toml")
    assert_one_line_error(path, str(path))


def test_missing_file_is_rejected(tmp_path):
    path = tmp_path / "no-such-file.toml"
    assert_one_line_error(path, str(path))


def test_directory_is_rejected(tmp_path):
    assert_one_line_error(tmp_path, str(tmp_path))


@pytest.mark.parametrize(
    "old,new,fragment",
    [
        (WHEAT_A, 'items = ["wheat", "wheat", "plain"]', "wheat-a"),
        (WHEAT_A, 'items = ["wheat", "wheat", "plain", "swamp"]', "wheat-a"),
        (WHEAT_A, 'items = ["camp", "wheat", "plain", "plain"]', "camp"),
        ('value = 5\nsource = "printed"', "value = 5", "hand_size"),
        ('value = 6\nsource = "printed"', 'value = 6\nsource = "guessed"', "chieftain_tokens"),
        ("value = 5\n", "value = 0\n", "hand_size"),
        ("rows = 10\n", "rows = 1\n", "board.2"),
        ("castle = { value = [10, 5],", "castle = { value = 10,", ""),
        ("[points]\n", '[points]\nswamp = { value = [1, 0], source = "printed", ref = "x" }\n', "swamp"),
    ],
)
def test_malformed_file_is_a_one_line_error(tmp_path, old, new, fragment):
    text = packaged_text()
    assert old in text
    path = user_file(tmp_path, text.replace(old, new, 1))
    assert_one_line_error(path, fragment)


def test_missing_section_is_a_one_line_error(tmp_path):
    text = packaged_text()
    path = user_file(tmp_path, text[: text.index("[[cards]]")])
    assert_one_line_error(path, "cards")


def test_unmarked_board_or_card_is_rejected(tmp_path):
    """The data file's contract ("Every value is marked: source = printed ... / reconstructed ...") is
    enforced for setup, counts and points, so unmarked board limits or cards must be refused too.
    """
    text = packaged_text()
    marked = 'rows = 10\ncols = 10\nsource = "reconstructed"\n'
    unmarked_board = text.replace(marked, "rows = 10\ncols = 10\n", 1)
    assert unmarked_board != text
    assert_one_line_error(user_file(tmp_path, unmarked_board, "board.toml"), "board.2")
    old_card = 'id = "wheat-a"\nitems = ["wheat", "wheat", "plain", "plain"]\nsource = "reconstructed"\n'
    assert old_card in text
    unmarked_card = text.replace(old_card, 'id = "wheat-a"\nitems = ["wheat", "wheat", "plain", "plain"]\n')
    assert_one_line_error(user_file(tmp_path, unmarked_card, "card.toml"), "wheat-a")

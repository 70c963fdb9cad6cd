"""Load and check Mainland's component data (``data/mainland.toml`` or a user's file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.datafile import MAX_COUNT, array, entry, fail, integer, load_data_file, mapping, table, tables, text
from sim.games.mainland.items import CAMP, CASTLE, CODE, ITEMS, N_ITEMS

DEFAULT_PATH = Path(__file__).parent / "data" / "mainland.toml"
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True, slots=True)
class MainlandData:
    """Components as arrays ready for the rules.

    ``rotations[card, r]`` holds the card's four items after ``r`` quarter turns clockwise,
    in the order top-left, top-right, bottom-left, bottom-right; ``unique_rotation[card, r]``
    is False for a rotation that repeats an earlier one (so options are not duplicated).
    """

    path: str
    sha1: str
    card_ids: tuple[str, ...]
    rotations: np.ndarray  # int8 (n_cards, 4, 4)
    unique_rotation: np.ndarray  # bool (n_cards, 4)
    is_castle_card: np.ndarray  # bool (n_cards,)
    camp_card: int  # index of the starting card
    deck_cards: tuple[int, ...]  # indices of the other cards (each clan's deck)
    hand_size: int
    tokens: int
    board: dict[int, tuple[int, int]]  # players -> (rows, cols)
    points: np.ndarray  # int64 (N_ITEMS, 2): [inside Mainland, inside a minor territory]
    reconstructed: tuple[str, ...]  # names of reconstructed values, for reports


def rotate(items: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A quarter turn clockwise of a 2x2 card given as (tl, tr, bl, br)."""
    tl, tr, bl, br = items
    return (bl, tl, br, tr)


#: the items a card may show (every item but empty space)
CARD_ITEMS = ITEMS[1:]
#: the data file, declared once (sim.datafile); what spans tables is checked in ``_build``
SCHEMA = table(
    {
        "setup": table({"hand_size": entry(integer(1)), "chieftain_tokens": entry(integer(1))}),
        "board": mapping(
            tuple(str(n) for n in PLAYER_COUNTS),
            table({"rows": integer(2, 64), "cols": integer(2, 64)}, sourced=True),
            every=True,
        ),
        "counts": mapping(CARD_ITEMS, entry(integer()), every=True),
        "points": mapping(CARD_ITEMS, entry(array(integer(-MAX_COUNT), 2)), every=True),
        "cards": tables(table({"id": text(), "items": array(text(CARD_ITEMS), 4)}, sourced=True), min_size=2),
    }
)


def load(path: str | Path | None = None) -> MainlandData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, SCHEMA, _build)


def _build(doc: dict, path: Path, sha1: str, reconstructed: list[str]) -> MainlandData:
    """Arrays for the rules from a checked document; checks the deck against the printed counts."""
    hand_size = doc["setup"]["hand_size"]["value"]
    tokens = doc["setup"]["chieftain_tokens"]["value"]
    board = {int(players): (entry["rows"], entry["cols"]) for players, entry in doc["board"].items()}
    points = np.zeros((N_ITEMS, 2), dtype=np.int64)
    for name, item in doc["points"].items():
        points[CODE[name]] = item["value"]
    ids, rotations, unique, castle = [], [], [], []
    for card in doc["cards"]:
        layout = tuple(CODE[n] for n in card["items"])
        seen, rots, uniq = set(), [], []
        for _ in range(4):
            rots.append(layout)
            uniq.append(layout not in seen)
            seen.add(layout)
            layout = rotate(layout)  # type: ignore[arg-type]  # a card has four items (checked on reading)
        ids.append(card["id"])
        rotations.append(rots)
        unique.append(uniq)
        castle.append(CASTLE in rots[0])
    rot = np.array(rotations, dtype=np.int8)
    camp_cards = [i for i in range(len(ids)) if CAMP in rot[i, 0]]
    if len(camp_cards) != 1 or list(rot[camp_cards[0], 0]).count(CAMP) != 1:
        on = ", ".join(ids[i] for i in camp_cards) or "no card"
        fail("cards", f"the camp is on {on}", "exactly one card carrying the camp once (mainland.txt:67)")
    if len(ids) - 1 < hand_size:
        fail(
            "cards", f"{len(ids) - 1} cards besides the camp card", f"at least setup.hand_size ({hand_size})"
        )
    counts = np.zeros(N_ITEMS, dtype=np.int64)
    for layout in rot[:, 0]:
        for item in layout:
            counts[item] += 1
    for name, item in doc["counts"].items():
        want = item["value"]
        if counts[CODE[name]] != want:
            fail(
                f"counts.{name}",
                f"the cards carry {counts[CODE[name]]} {name} but counts.{name} says {want}",
                "cards carrying exactly the stated count",
            )
    return MainlandData(
        path=str(path),
        sha1=sha1,
        card_ids=tuple(ids),
        rotations=rot,
        unique_rotation=np.array(unique, dtype=np.bool_),
        is_castle_card=np.array(castle, dtype=np.bool_),
        camp_card=camp_cards[0],
        deck_cards=tuple(i for i in range(len(ids)) if i != camp_cards[0]),
        hand_size=hand_size,
        tokens=tokens,
        board=board,
        points=points,
        reconstructed=tuple(reconstructed),
    )

"""Load and check Mainland's component data (``data/mainland.toml`` or a user's file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.datafile import load_data_file
from sim.games.mainland.items import CAMP, CASTLE, CODE, ITEMS, N_ITEMS

DEFAULT_PATH = Path(__file__).parent / "data" / "mainland.toml"
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
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


def _value(table: dict, key: str, where: str, reconstructed: list[str]) -> object:
    entry = table.get(key)
    if not isinstance(entry, dict) or "value" not in entry:
        raise ValueError(f"{where}.{key} needs a value")
    _mark(entry, f"{where}.{key}", reconstructed)
    return entry["value"]


def _mark(entry: dict, name: str, reconstructed: list[str]) -> None:
    """Every value says where it comes from: printed (with ref) or reconstructed (with reason)."""
    source = entry.get("source")
    if source == "printed" and entry.get("ref"):
        return
    if source == "reconstructed" and entry.get("reason"):
        reconstructed.append(name)
        return
    raise ValueError(f"{name} needs source = 'printed' with a ref, or 'reconstructed' with a reason")


def load(path: str | Path | None = None) -> MainlandData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, _build)


def _build(doc: dict, path: Path, sha1: str) -> MainlandData:
    reconstructed: list[str] = []
    setup = doc["setup"]
    hand_size = int(_value(setup, "hand_size", "setup", reconstructed))
    tokens = int(_value(setup, "chieftain_tokens", "setup", reconstructed))
    if hand_size < 1 or tokens < 1:
        raise ValueError("setup.hand_size and setup.chieftain_tokens must be at least 1")
    board = {}
    for players, entry in doc["board"].items():
        rows, cols = int(entry["rows"]), int(entry["cols"])
        if not (2 <= rows <= 64 and 2 <= cols <= 64):
            raise ValueError(f"board.{players} must be 2..64 tiles each way")
        _mark(entry, f"board.{players}", reconstructed)
        board[int(players)] = (rows, cols)
    missing = [str(n) for n in PLAYER_COUNTS if n not in board]
    if missing:
        raise ValueError(f"no board limits for {', '.join(missing)} players (need [board.2] to [board.4])")
    points = np.zeros((N_ITEMS, 2), dtype=np.int64)
    for name, entry in doc["points"].items():
        if name not in CODE:
            raise ValueError(f"points.{name}: unknown item (allowed: {', '.join(ITEMS[1:])})")
        inside, minor = _value(doc["points"], name, "points", reconstructed)
        points[CODE[name]] = (int(inside), int(minor))
    cards = doc["cards"]
    ids, rotations, unique, castle = [], [], [], []
    for i, card in enumerate(cards):
        names = card["items"]
        if len(names) != 4 or any(n not in CODE or n == "empty" for n in names):
            raise ValueError(f"cards[{i}] ({card.get('id')}): items must be 4 of {', '.join(ITEMS[1:])}")
        _mark(card, f"cards.{card.get('id', i)}", reconstructed)
        layout = tuple(CODE[n] for n in names)
        seen, rots, uniq = set(), [], []
        for _ in range(4):
            rots.append(layout)
            uniq.append(layout not in seen)
            seen.add(layout)
            layout = rotate(layout)
        ids.append(str(card["id"]))
        rotations.append(rots)
        unique.append(uniq)
        castle.append(CASTLE in rots[0])
    rot = np.array(rotations, dtype=np.int8)
    camp_cards = [i for i in range(len(ids)) if CAMP in rot[i, 0]]
    if len(camp_cards) != 1 or list(rot[camp_cards[0], 0]).count(CAMP) != 1:
        raise ValueError("exactly one card must carry the camp, once")
    counts = np.zeros(N_ITEMS, dtype=np.int64)
    for layout in rot[:, 0]:
        for item in layout:
            counts[item] += 1
    unlisted = sorted(set(ITEMS[1:]) - set(doc["counts"]))
    if unlisted:
        raise ValueError(f"counts lacks {', '.join(unlisted)} (every item's count per clan is needed)")
    for name, entry in doc["counts"].items():
        if name not in CODE or name == "empty":
            raise ValueError(f"counts.{name}: unknown item (allowed: {', '.join(ITEMS[1:])})")
        want = int(_value(doc["counts"], name, "counts", reconstructed))
        if counts[CODE[name]] != want:
            raise ValueError(f"the cards carry {counts[CODE[name]]} {name} but counts.{name} says {want}")
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

"""Shared helpers for the Mainland tests: hand-built boards and an independent rules oracle.

The oracle re-implements rules 1-3, the board limits, the camp rule and the requirement
counting in plain Python from the rulebook text (../shared/rules/mainland.txt), so the
tests do not check the numba kernels against themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from sim.games.mainland import kernels, rules
from sim.games.mainland.game import GAME
from sim.games.mainland.items import CODE, ITEMS, N_ITEMS

RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rules" / "mainland.txt"

#: The overlay table as printed, mainland.txt:163-175, written out by hand.  Each row:
#: the named item, then the items listed after it.  Under the project's ruling (R1) the
#: named item may be placed on the listed items (mainland.txt:107, 159).
OVERLAY_TEXT = {
    "camp": ("empty",),                                                     # :163
    "temple": ("plain", "forest", "mountain", "empty"),                    # :164
    "plain": ("plain", "wheat", "empty"),                                  # :165
    "wheat": ("plain", "wheat", "empty"),                                  # :166
    "forest": ("forest", "wood", "empty"),                                 # :167
    "wood": ("forest", "wood", "empty"),                                   # :168
    "mountain": ("mountain", "gold", "empty"),                             # :169
    "gold": ("mountain", "gold", "empty"),                                 # :170
    "village": ("camp", "plain", "forest", "mountain", "empty"),           # :171
    "tower": ("camp", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "empty"),  # :172
    "warrior": ("camp", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "tower",
                "empty"),                                                  # :173
    "rider": ("camp", "temple", "plain", "wheat", "forest", "wood", "mountain", "gold", "village",
              "tower", "warrior", "empty"),                                # :174
    "castle": ("camp", "temple", "plain", "wheat", "forest", "wood", "mountain", "gold", "village",
               "tower", "warrior", "rider", "castle", "empty"),            # :175
}

#: Requirements, mainland.txt:119-123: "For every X added to the board, you must have: ..."
REQUIRES_TEXT = {
    "village": ("wheat", "wood", "gold"),  # :119
    "tower": ("village",),                 # :120
    "warrior": ("tower",),                 # :121
    "rider": ("warrior",),                 # :122
    "castle": ("rider",),                  # :123
}

#: Points, mainland.txt:205-227: (inside Mainland, inside minor territories); items not in
#: the minor list score 0 there, lands score only the +1 per Mainland tile (:207).
POINTS_TEXT = {
    "wheat": (1, 0), "wood": (1, 0), "gold": (1, 0),          # :208-210
    "temple": (2, 1), "camp": (2, 1), "village": (2, 1),       # :211-213, :221-223
    "tower": (2, 1), "warrior": (4, 2), "rider": (6, 3),       # :214-216, :224-226
    "castle": (10, 5),                                         # :217, :227
    "plain": (0, 0), "forest": (0, 0), "mountain": (0, 0),
}


def parse_overlay_table(text: str) -> dict[str, tuple[str, ...]]:
    """The overlay rows of the rulebook text (lines 'Name: a, b, empty space.')."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Overlay rules")
    table: dict[str, tuple[str, ...]] = {}
    for line in lines[start + 1:]:
        m = re.match(r"\s*•\s*(\w+):\s*(.+?)\.?\s*$", line)
        if not m:
            if table and line.strip():
                break
            continue
        name = m.group(1).lower()
        body = m.group(2).replace("empty space only", "empty space")
        covered = tuple("empty" if w.strip() == "empty space" else w.strip() for w in body.split(","))
        table[name] = covered
    return table


def C(*names: str) -> np.ndarray:
    """A card layout (tl, tr, bl, br) from item names."""
    return np.array([CODE[n] for n in names], dtype=np.int8)


def empty_board(rows: int = 10, cols: int = 10) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((rows, cols), dtype=np.int8), np.full((rows, cols), -1, dtype=np.int8)


def put(items: np.ndarray, owner: np.ndarray, cells: dict[tuple[int, int], tuple[str, int]]) -> None:
    """Write single tiles: {(row, col): (item name, seat)}."""
    for (r, c), (name, seat) in cells.items():
        items[r, c] = CODE[name]
        owner[r, c] = seat


def lay(items: np.ndarray, owner: np.ndarray, r: int, c: int, names: tuple[str, ...], seat: int) -> None:
    """Write a 2x2 card's four items with its top-left cell at (r, c)."""
    for j, name in enumerate(names):
        items[r + j // 2, c + j % 2] = CODE[name]
        owner[r + j // 2, c + j % 2] = seat


def recount(items: np.ndarray, owner: np.ndarray, n_players: int) -> np.ndarray:
    """Visible items per seat, counted from the board."""
    counts = np.zeros((n_players, N_ITEMS), dtype=np.int64)
    mask = items != 0
    np.add.at(counts, (owner[mask].astype(np.int64), items[mask].astype(np.int64)), 1)
    return counts


def check(items, owner, seat, layout, r, c, *, n_players=2, is_castle=None, castle_needs_overlap=True,
          camp=False, counts=None, card_meets_own=False) -> int:
    """kernels.check_placement with counts recomputed from the board."""
    layout = np.asarray(layout, dtype=np.int8)
    if is_castle is None:
        is_castle = bool((layout == CODE["castle"]).any())
    if counts is None:
        counts = recount(items, owner, n_players)
    return int(kernels.check_placement(items, owner, counts, seat, layout, is_castle, r, c, rules.ALLOWED,
                                       rules.REQ_PAIRS, castle_needs_overlap, camp, card_meets_own))


def oracle_legal(items, owner, seat, layout, is_castle, r, c, castle_needs_overlap=True, camp=False,
                 card_meets_own=False) -> bool:
    """Plain-Python legality from the rulebook text and the project rulings."""
    rows, cols = items.shape
    if r < 0 or c < 0 or r + 2 > rows or c + 2 > cols:  # :57
        return False
    cells = [(r + j // 2, c + j % 2) for j in range(4)]
    below = [ITEMS[items[x]] for x in cells]
    occupied = sum(b != "empty" for b in below)
    if camp:  # :69 starting cards must not overlap
        return occupied == 0
    if occupied == 0 and (castle_needs_overlap or not is_castle):  # rule 1, :99
        return False
    if occupied == 4 and not is_castle:  # rule 2, :100 (castle exception :129, :257)
        return False
    placed = [ITEMS[x] for x in layout]
    if any(b not in OVERLAY_TEXT[p] for p, b in zip(placed, below, strict=True)):  # rule 3
        return False
    after_items, after_owner = items.copy(), owner.copy()
    for (rr, cc), p in zip(cells, layout, strict=True):
        after_items[rr, cc] = p
        after_owner[rr, cc] = seat
    mine = np.bincount(after_items[after_owner == seat].astype(np.int64), minlength=N_ITEMS)
    # R3b: unless the switch says otherwise, the card's own items are not requirements (:115)
    card = np.bincount(np.asarray(layout, dtype=np.int64), minlength=N_ITEMS)
    have = mine if card_meets_own else mine - card
    for adv in set(placed) & set(REQUIRES_TEXT):  # :119-125, :243-249
        if any(mine[CODE[adv]] > have[CODE[req]] for req in REQUIRES_TEXT[adv]):
            return False
    return True


def canonical_rotation(data, card: int, rot: int) -> int:
    """The first rotation of ``card`` with the same layout as ``rot``."""
    for k in range(4):
        if (data.rotations[card, k] == data.rotations[card, rot]).all():
            return k
    raise AssertionError


def fresh_state(n_players: int = 2, seed: int = 0, rules_config: dict | None = None):
    data = GAME.load_data(None)
    return GAME.new_state(n_players, rules_config or {}, data, seed), data


def set_board(state, items: np.ndarray, owner: np.ndarray) -> None:
    """Replace a state's board (counts and scores recomputed)."""
    state.items[...] = items
    state.owner[...] = owner
    state.counts[...] = recount(items, owner, state.n_players)
    rules.set_scores(state, kernels.score_board(state.items, state.owner, state.n_players, state.data.points))


def territories(items: np.ndarray, owner: np.ndarray, seat: int) -> list[list[tuple[int, int]]]:
    """The seat's territories, each a list of cells: orthogonally adjacent tiles of its colour
    (mainland.txt:197, plain Python)."""
    seen: set[tuple[int, int]] = set()
    found = []
    for start in zip(*np.nonzero((items != 0) & (owner == seat))):
        start = (int(start[0]), int(start[1]))
        if start in seen:
            continue
        seen.add(start)
        cells, todo = [], [start]
        while todo:
            r, c = todo.pop()
            cells.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb not in seen and 0 <= nb[0] < items.shape[0] and 0 <= nb[1] < items.shape[1] \
                        and items[nb] != 0 and owner[nb] == seat:
                    seen.add(nb)
                    todo.append(nb)
        found.append(cells)
    return found


def oracle_scores(items: np.ndarray, owner: np.ndarray, n_players: int, points: np.ndarray) -> np.ndarray:
    """Rows (total, mainland_tiles, mainland_items, minor_items), read straight from lines 197-227.

    Every territory is tried as the Mainland: the largest (197), then the highest value (201),
    then, where size and value both tie, the choice that gives the seat the higher total (R12).
    """
    out = np.zeros((n_players, 4))
    for seat in range(n_players):
        lands = territories(items, owner, seat)
        if not lands:
            continue
        inside = [sum(int(points[items[cell], 0]) for cell in land) for land in lands]
        minor = [sum(int(points[items[cell], 1]) for cell in land) for land in lands]
        choices = []
        for k, land in enumerate(lands):
            others = sum(minor) - minor[k]
            choices.append((len(land), inside[k], len(land) + inside[k] + others, k))
        size, value, total, k = max(choices)
        out[seat] = (total, size, value, total - size - value)
    return out


def card_index(data, card_id: str) -> int:
    return data.card_ids.index(card_id)


def random_option(rng: np.random.Generator, options: np.ndarray, place: float = 0.9, replace: float = 0.5,
                  gather: float = 0.04) -> np.ndarray:
    """A random legal option, weighted so that games reach the late game.

    Placements are chosen with probability ``place`` when there are any (else random play
    passes early and often); at the start of a turn a random card is replaced with
    probability ``replace`` and the clan gathers with probability ``gather``.  Otherwise
    any option, uniformly (voluntary passes included).
    """
    from sim.games.mainland.state import GATHER, KEEP, PLACE_CARD, REPLACE

    kinds = options[:, 0]
    places = np.flatnonzero(kinds == PLACE_CARD)
    if len(places) and rng.random() < place:
        return options[places[rng.integers(len(places))]]
    if (kinds == KEEP).any():
        u = rng.random()
        replaces = np.flatnonzero(kinds == REPLACE)
        if len(replaces) and u < replace:
            return options[replaces[rng.integers(len(replaces))]]
        if u < replace + gather:
            return options[np.flatnonzero(kinds == GATHER)[0]]
        if u < 0.97:
            return options[np.flatnonzero(kinds == KEEP)[0]]
    return options[rng.integers(len(options))]

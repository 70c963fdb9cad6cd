"""Mainland items, the overlay table and the advanced-item requirements.

Item codes are small ints so the board is a plain ``int8`` array; 0 is empty space.
"""

from __future__ import annotations

import numpy as np

ITEMS: tuple[str, ...] = (
    "empty", "camp", "temple", "plain", "wheat", "forest", "wood", "mountain", "gold",
    "village", "tower", "warrior", "rider", "castle",
)
CODE: dict[str, int] = {name: i for i, name in enumerate(ITEMS)}
N_ITEMS = len(ITEMS)
EMPTY, CAMP, TEMPLE, PLAIN, WHEAT, FOREST, WOOD, MOUNTAIN, GOLD = range(9)
VILLAGE, TOWER, WARRIOR, RIDER, CASTLE = range(9, 14)
ADVANCED = (VILLAGE, TOWER, WARRIOR, RIDER, CASTLE)

#: Overlay rules, mainland.txt:163-175, read as "the named item may be placed on these"
#: (ruling R1 in RULINGS.md): e.g. line 165 "Plain: plain, wheat, empty space" means a plain
#: may be placed only on a plain, a wheat or empty space, as line 107 says in prose.
PLACEABLE_ON: dict[str, tuple[str, ...]] = {
    "camp": ("empty",),  # 163
    "temple": ("plain", "forest", "mountain", "empty"),  # 164
    "plain": ("plain", "wheat", "empty"),  # 165
    "wheat": ("plain", "wheat", "empty"),  # 166
    "forest": ("forest", "wood", "empty"),  # 167
    "wood": ("forest", "wood", "empty"),  # 168
    "mountain": ("mountain", "gold", "empty"),  # 169
    "gold": ("mountain", "gold", "empty"),  # 170
    "village": ("camp", "plain", "forest", "mountain", "empty"),  # 171
    "tower": ("camp", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "empty"),  # 172
    "warrior": (
        "camp", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "tower", "empty",
    ),  # 173
    "rider": (
        "camp", "temple", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "tower",
        "warrior", "empty",
    ),  # 174
    "castle": (
        "camp", "temple", "plain", "wheat", "forest", "wood", "mountain", "gold", "village", "tower",
        "warrior", "rider", "castle", "empty",
    ),  # 175
}

#: Requirements, mainland.txt:119-123 / 151-155: each advanced item added needs one of these.
REQUIRES: dict[str, tuple[str, ...]] = {
    "village": ("wheat", "wood", "gold"),
    "tower": ("village",),
    "warrior": ("tower",),
    "rider": ("warrior",),
    "castle": ("rider",),
}


def overlay_matrix() -> np.ndarray:
    """``allowed[placed, covered]`` as a boolean matrix over item codes."""
    allowed = np.zeros((N_ITEMS, N_ITEMS), dtype=np.bool_)
    for placed, covered in PLACEABLE_ON.items():
        for name in covered:
            allowed[CODE[placed], CODE[name]] = True
    return allowed


def requirement_pairs() -> np.ndarray:
    """Rows ``(advanced item, required item)``; one row per requirement."""
    return np.array(
        [(CODE[adv], CODE[req]) for adv, reqs in REQUIRES.items() for req in reqs], dtype=np.int64
    )

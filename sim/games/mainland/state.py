"""Mainland's game state: plain arrays and lists, mutated in place by ``rules``."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sim.games.mainland.data import MainlandData

# Phases of a seat's turn.
CAMP, START, PLACE, OVER = 0, 1, 2, 3
PHASES = ("camp", "start", "place", "over")

# Option kinds: an option is an int16 row (kind, hand_index, rotation, row, col).
KEEP, REPLACE, GATHER, PLACE_CARD, PASS, PLACE_CAMP = range(6)
KINDS = ("keep", "replace", "gather", "place", "pass", "camp")


@dataclass
class MainlandState:
    """Everything about one game.  Decks are lists with the top card first."""

    n_players: int
    seed: int
    rules: dict
    items: np.ndarray  # int8 (rows, cols); 0 = empty
    owner: np.ndarray  # int8 (rows, cols); -1 = nobody
    counts: np.ndarray  # int64 (n_players, n_items): visible items per seat
    hands: list[list[int]]
    decks: list[list[int]]
    discards: list[list[int]]
    tokens: list[int]
    rng: np.random.Generator
    current: int = 0
    phase: int = CAMP
    round: int = 0  # 0 while camps are placed, then 1, 2, ...
    scores: np.ndarray | None = None  # (n_players, 4) cache from kernels.score_board
    totals: list[float] = field(default_factory=list)  # scores[:, 0] as a list (for the records)
    stats: dict[str, list[int]] = field(default_factory=dict)  # placements/passes/... per seat
    #: read-only views of items/owner/counts handed to strategies (made once, see view.py)
    public_arrays: tuple[np.ndarray, ...] | None = None
    #: choices applied so far (keys the ``placeable`` cache below)
    applied: int = 0
    #: ``(applied, seat, legal placements)`` from the last ``rules.options`` call: lets a pass
    #: right after it be classed forced or voluntary without enumerating the placements again
    placeable: tuple[int, int, int] | None = None
    #: the component data and rule switches packed for the compiled calls (``packed.spec``, made once by
    #: ``rules``; read-only, shared by copies)
    spec: np.ndarray | None = field(default=None, repr=False, compare=False)
    #: read-only mapping over ``rules`` handed to strategies (made once, see ``public_rules``)
    rules_proxy: MappingProxyType | None = None
    #: the component data, set by ``Game.new_state`` (``sim.game.GameBase``): read-only, shared by copies,
    #: never serialised (snapshots name its path)
    data: MainlandData = field(init=False, repr=False, compare=False)

    @property
    def public_rules(self) -> MappingProxyType:
        """The rule switches, read-only (for views); one proxy per state."""
        proxy = self.rules_proxy
        if proxy is None:
            proxy = self.rules_proxy = MappingProxyType(self.rules)
        return proxy

    def _repr_svg_(self) -> str:
        """The state as a picture (``sim.games.mainland.picture``): how Jupyter displays it."""
        from sim.games.mainland.picture import picture

        return picture(self)

    @property
    def out(self) -> list[bool]:
        """Seats with no chieftain tokens left: their game is over (mainland.txt:73)."""
        return [t <= 0 for t in self.tokens]

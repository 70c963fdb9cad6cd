"""The options a strategy chooses from, as small NamedTuples (equal objects are the same option).

Decisions (graenaland.txt:56): hero movement (``Move``), proposals (``Propose``), votes
(``Vote``), the main player's building actions (``Action``), payments (``Pay``), the palisade
entry fee (``Fee``), contributions to a joint public building (``Contribute``) and yes/no
follow-ups (``Decide``: build the joint public building, move the priest/skald to a new church/hall).
"""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """Move ``hero`` (0 warrior, 1 priest, 2 skald) in compass ``direction`` (board.DIRECTIONS)."""

    hero: int
    direction: int


STAY = Move(-1, -1)  # the middle of the compass tile (graenaland.txt:76)


class Propose(NamedTuple):
    """Divide the cards at ``territory``: ``receivers[i]`` is the seat that gets the territory's i-th card."""

    territory: int
    receivers: tuple[int, ...]


NO_PROPOSAL = Propose(-1, ())


class Vote(NamedTuple):
    yes: bool


class Action(NamedTuple):
    """A building-phase action: ``kind`` in ACTION_KINDS; ``territory`` -1 where none; ``index`` is the
    supply row position ("supply"), the public building kind ("joint"), the seat ("offer") or the dealt
    victory point card ("keep_card"); "settle" and "anchor" place or move a start village (advanced rules)."""

    kind: str
    territory: int = -1
    index: int = -1  # type: ignore[assignment]  # a field named like tuple.index, read by name


ACTION_KINDS = ("supply", "village", "fortress", "church", "hall", "army", "road", "yield", "market",
                "palisade", "joint", "offer", "end", "settle", "anchor", "keep_card")
END = Action("end")


class Pay(NamedTuple):
    """A way to pay: resource cards used by type (grain, cattle, wood, ore, gold), the supply cards
    used (each as its sorted pair of resources) and the marketplaces used."""

    resources: tuple[int, int, int, int, int]
    supplies: tuple[tuple[int, int], ...]
    markets: int


class Fee(NamedTuple):
    """The palisade fee card given to the next settled player (graenaland.txt:203): a resource type."""

    resource: int


class Contribute(NamedTuple):
    """Resource cards offered to a joint public building, by type (graenaland.txt:210)."""

    resources: tuple[int, int, int, int, int]


NOTHING = Contribute((0, 0, 0, 0, 0))


class Decide(NamedTuple):
    yes: bool

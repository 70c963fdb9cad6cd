"""The pieces a game's ``spaces`` module builds its fixed action and observation encodings from.

A ``spaces`` module (named by ``GamePlugin.spaces``) declares:

- ``ACTIONS: int`` -- the size of the game's fixed ``Discrete(ACTIONS)`` action space;
- ``encode(options, view) -> numpy int64 array`` -- one distinct action number in ``0..ACTIONS-1`` per
  legal option, in the options' order (injective over the legal set; the mask is exactly those numbers);
- ``SHAPE: tuple[int, ...]`` and ``observe(view) -> numpy float32 array`` of that shape, a function of the
  seat's view only (never the state), with its layout in the module's docstring.

``Actions`` maps options to numbers block by block: each option kind owns a block of numbers, either
*factored* (a function of the option and the view gives its place in the block) or *bounded* (its rank
among the legal options of that kind, in the game's own order, below a bound measured over random games).
``Layout`` packs named, fixed-size parts of a view into one flat observation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import SkaldError


@dataclass(frozen=True)
class Block:
    """The action numbers of one option kind: ``size`` of them; ``index(option, view)`` gives the place of
    an option in the block (factored), or None: its rank among this kind's legal options (bounded)."""

    kind: str
    size: int
    index: Callable[[Any, Any], int] | None = None


class Actions:
    """Blocks laid end to end: block k's numbers start where block k-1's end."""

    def __init__(self, game: str, blocks: Sequence[Block], kind_of: Callable[[Any], str]):
        self.game, self.kind_of = game, kind_of
        self.blocks: dict[str, tuple[int, Block]] = {}
        start = 0
        for block in blocks:
            self.blocks[block.kind] = (start, block)
            start += block.size
        self.n = start

    def encode(self, options: Iterable[Any], view: Any) -> np.ndarray:
        """The action number of each option; a ``SkaldError`` for an option outside its block or two
        options on one number (the encoding would not be injective)."""
        ranks: dict[str, int] = {}
        codes = []
        for option in options:
            kind = self.kind_of(option)
            if kind not in self.blocks:
                raise SkaldError(f"{self.game}: option {option!r} has no action block (kind {kind!r})")
            start, block = self.blocks[kind]
            if block.index is None:
                place = ranks.get(kind, 0)
                ranks[kind] = place + 1
            else:
                place = block.index(option, view)
            if block.index is None and place >= block.size:
                raise SkaldError(
                    f"{self.game}: more than {block.size} legal {kind!r} options at one decision, the bound"
                    " of that action block (measured, not proven: tools/option_bounds.py)"
                )
            if not 0 <= place < block.size:
                raise SkaldError(
                    f"{self.game}: option {option!r} falls outside its block {kind!r} of {block.size} actions"
                )
            codes.append(start + place)
        return distinct(self.game, np.asarray(codes, dtype=np.int64))

    def doc(self) -> str:
        """One line per block: its numbers and how an option finds its place in it."""
        return "\n".join(
            f"{start}..{start + b.size - 1}: {b.kind} ({'factored' if b.index else 'rank among its kind'})"
            for start, b in self.blocks.values()
        )


def distinct(game: str, codes: np.ndarray) -> np.ndarray:
    """``codes`` unchanged; a ``SkaldError`` if two options share a number."""
    if len(np.unique(codes)) != len(codes):
        raise SkaldError(f"{game}: two legal options share an action number (the encoding is not injective)")
    return codes


def mixed(digits: Sequence[int], radices: Sequence[int]) -> int:
    """The mixed-radix number of ``digits`` (first digit most significant); -1 if a digit is out of range."""
    out = 0
    for digit, radix in zip(digits, radices, strict=True):
        if not 0 <= digit < radix:
            return -1
        out = out * radix + digit
    return out


@dataclass(frozen=True)
class Part:
    """One named part of an observation: ``size`` numbers, described by ``doc``."""

    name: str
    size: int
    doc: str


class Layout:
    """Parts laid end to end into one float32 vector."""

    def __init__(self, game: str, parts: Sequence[Part]):
        self.game, self.parts = game, tuple(parts)
        self.size = sum(p.size for p in parts)
        self.shape = (self.size,)

    def pack(self, values: Mapping[str, Any]) -> np.ndarray:
        """The observation from one flat array per part (each exactly its part's size)."""
        out = np.empty(self.size, dtype=np.float32)
        at = 0
        for part in self.parts:
            value = np.asarray(values[part.name], dtype=np.float32).ravel()
            if value.size != part.size:
                raise SkaldError(
                    f"{self.game}: observation part {part.name!r} holds {value.size} numbers, not {part.size}"
                )
            out[at : at + part.size] = value
            at += part.size
        return out

    def doc(self) -> str:
        """One line per part: its positions, name and meaning."""
        lines, at = [], 0
        for p in self.parts:
            lines.append(f"[{at}:{at + p.size}] {p.name}: {p.doc}")
            at += p.size
        return "\n".join(lines)


def padded(game: str, rows: Sequence[Any], shape: tuple[int, ...], fill: float = -1) -> np.ndarray:
    """Nested sequences (ragged allowed) as an array of ``shape``, ``fill`` where they are shorter; a
    ``SkaldError`` where one is longer than the shape allows."""
    out = np.full(shape, fill, dtype=np.float32)
    _fill(game, out, rows, shape)
    return out


def _fill(game: str, out: np.ndarray, rows: Any, shape: tuple[int, ...]) -> None:
    if len(rows) > shape[0]:
        raise SkaldError(f"{game}: {len(rows)} entries where the observation has room for {shape[0]}")
    if len(shape) == 1:
        out[: len(rows)] = np.asarray(rows, dtype=np.float32)
        return
    for i, row in enumerate(rows):
        _fill(game, out[i], row, shape[1:])


def counts(game: str, ids: Iterable[int], size: int) -> np.ndarray:
    """How many times each id ``0..size-1`` occurs in ``ids``."""
    out = np.zeros(size, dtype=np.float32)
    for i in ids:
        if not 0 <= i < size:
            raise SkaldError(f"{game}: id {i} outside the observation's 0..{size - 1}")
        out[i] += 1
    return out


def seat_onehot(seat: int, max_players: int) -> np.ndarray:
    """1 at the observing seat, 0 elsewhere."""
    out = np.zeros(max_players, dtype=np.float32)
    out[seat] = 1
    return out

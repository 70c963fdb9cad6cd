"""The protocol every game implements, and the plain records it hands to the runner.

A game is a module-level object with metadata (name, player counts, rule switches) and
pure-ish rule functions over a plain state object.  The runner knows nothing of any single
game: it asks who must decide, builds each deciding player's *view* (never the full
state), asks that player's strategy to pick one of the legal options, and applies all
choices of that decision point at once (several players may decide simultaneously, in
secret: each of them chooses from a view taken before any of the choices is applied).

State objects are mutated in place by ``apply`` (cheap: no copies on the hot path); use
``copy`` for an independent state to play on (search), ``to_dict``/``from_dict`` to snapshot one
(a plain, serialisable document: much slower than ``copy``).

What a game may declare beyond the protocol (``determinize``, ``evaluate``, ``action_kinds``, ... on the
rules object; ``picture``, ``describe``, ``spaces``, ``search`` on its plug-in) is listed once, in
``CAPABILITIES``; ``has_capability(game, name)`` answers whether a game declares one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
from numpy.random.bit_generator import ISeedSequence

if TYPE_CHECKING:
    from sim.plugin import GamePlugin

S = TypeVar("S")


@dataclass(frozen=True)
class RuleSwitch:
    """A documented rule choice a user can flip with ``--rule NAME=VALUE``."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str  # the ruling, citing the rulebook line


@dataclass
class Result:
    """Outcome of a finished (or truncated) game, one entry per seat."""

    scores: list[float]
    ranks: list[int]  # 1 = best; tied players share a rank
    winners: list[int]  # seats with the best score (several on a tie)
    parts: list[dict[str, float]] = field(default_factory=list)  # score breakdown / stats per seat


@runtime_checkable
class Game(Protocol):
    """What a game module exposes (see ``sim.games.mainland.game`` for the reference one)."""

    name: str
    min_players: int
    max_players: int
    rule_switches: tuple[RuleSwitch, ...]
    #: names of the integer action columns in the ``turns`` records (after ``kind``)
    action_fields: tuple[str, ...]
    #: names of the per-seat columns that ``Result.parts`` carries, in order
    part_fields: tuple[str, ...]
    #: hard cap on decisions per game; the runner stops there and marks the game truncated
    default_max_decisions: int
    #: the packaged component data file (or folder) ``load_data(None)`` reads, for the records'
    #: data identity (``sim.rules.data_identity``) when the data carries no sha1; None: no data file
    default_data_path: str | Path | None

    def load_data(self, path: str | None) -> Any:
        """Component data (the packaged file, or a user's file); raise SkaldError if unreadable."""

    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> Any:
        """A fresh game. ``seed`` feeds the game's own ``numpy.random.Generator``."""

    def to_move(self, state: Any) -> Sequence[int]:
        """Seats that must decide now (several at once for simultaneous secret choices)."""

    def legal_options(self, state: Any, seat: int) -> Sequence[Any]:
        """The options open to ``seat`` now; never empty while the seat is to move."""

    def view(self, state: Any, seat: int) -> Any:
        """What ``seat`` may see: public information and its own secrets, nothing else."""

    def apply(self, state: Any, choices: dict[int, Any]) -> None:
        """Apply every deciding seat's choice; raise ``IllegalChoice`` for an illegal one."""

    def record(self, state: Any, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """(action kind, action fields) describing ``option`` for the turn log (call before apply)."""

    def scores(self, state: Any) -> list[float]:
        """Current score of every seat (cheap: called after every decision for the turn log)."""

    def is_terminal(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Result: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...

    def copy(self, state: Any) -> Any:
        """A fully independent copy: mutating one never changes the other, ``to_dict`` of both is
        equal, and the same choices play on identically from both (own random generator state
        included).  Much cheaper than ``from_dict(to_dict(state))``: search copies on every node."""


# --------------------------------------------------------------------------- what a game can do


@runtime_checkable
class Determinizes(Protocol):
    """The capability ``determinize``: a game that can draw again what a seat cannot see (what search
    strategies need: ``sim.search``)."""

    def determinize(self, state: Any, seat: int, rng: np.random.Generator) -> Any:
        """A fresh full state in which everything hidden from ``seat`` is drawn from ``rng`` consistently
        with what ``seat`` has seen (a function of that and ``rng`` only); ``state`` is left unchanged."""


@runtime_checkable
class Evaluates(Protocol):
    """The capability ``evaluate``: a game that can judge a state before its end."""

    def evaluate(self, state: Any, seat: int) -> float:
        """``seat``'s prospects in ``state``, in [0, 1] (the judge of a search playout cut before the end)."""


@dataclass(frozen=True)
class Capability:
    """One optional thing a game can do: where it is declared, its form and what declaring it gives."""

    name: str
    #: "game": an attribute of the rules object (``Game``); "plugin": a field of ``sim.plugin.GamePlugin``
    on: str
    form: str  # as the game declares it: a method's signature, a mapping's shape, a plug-in field's value
    gives: str  # what Skald does with it
    method: bool = False  # declared when callable (else: when set, and for a plug-in field non-empty)


#: every optional capability a game may declare, by name: the one place that says what a game can do
#: beyond the ``Game`` protocol (``has_capability`` answers whether a game declares one)
CAPABILITIES: dict[str, Capability] = {
    c.name: c
    for c in (
        Capability("determinize", "game", "determinize(state, seat, rng)",
                   "search strategies (ismcts) play it; check_game probes hidden information", method=True),
        Capability("evaluate", "game", "evaluate(state, seat)",
                   "judges a search playout cut before the end (else the scores of the moment)", method=True),
        Capability("illegal_option", "game", "illegal_option(state, seat)",
                   "the option check_game tries to apply as an illegal one", method=True),
        Capability("action_kinds", "game", "action_kinds: {kind: (action columns it fills)}",
                   "check_game holds the turn records to it; skald records lists it"),
        Capability("action_docs", "game", "action_docs: {action column: meaning}",
                   "skald records says what each action column means"),
        Capability("picture", "plugin", '"module:function" (state, seat) -> SVG',
                   "pictures of states and the replay viewer"),
        Capability("describe", "plugin", '"module:function" (state, seat, option) -> words',
                   "the replay viewer's captions"),
        Capability("spaces", "plugin", '"module" (ACTIONS, SHAPE, encode, observe)',
                   "the reinforcement-learning environments (sim.rl)"),
        Capability("search", "plugin", '"key=value:key=value"',
                   "the game's own defaults for a search strategy's parameters"),
    )
}


def _plugin_of(game: Any) -> GamePlugin | None:
    """The plug-in of ``game`` (a name, a plug-in, or a rules object found by its name) as runs find it
    (``sim.games.GAMES``); None for a game no plug-in declares."""
    from sim.games import GAMES
    from sim.plugin import GamePlugin

    if isinstance(game, GamePlugin):
        return game
    name = game if isinstance(game, str) else getattr(game, "name", None)
    return GAMES.get(name) if isinstance(name, str) else None


def _rules_of(game: Any) -> Any:
    """The rules object of ``game`` (a name, a plug-in, or the rules object itself); None for a name no
    plug-in declares."""
    from sim.plugin import GamePlugin

    if isinstance(game, str | GamePlugin):
        plugin = _plugin_of(game)
        return None if plugin is None else plugin.load_game()
    return game


def capability(game: Any, name: str) -> Any:
    """What ``game`` (a game's name, its ``GamePlugin`` or its rules object) declares for the capability
    ``name`` (a key of ``CAPABILITIES``): the method, the mapping or the plug-in field's value; None where
    it declares nothing.  A game's name that no plug-in declares declares nothing; an unknown capability
    is a ``KeyError`` naming the known ones."""
    if name not in CAPABILITIES:
        raise KeyError(f"unknown capability {name!r} (known: {', '.join(CAPABILITIES)})")
    spec = CAPABILITIES[name]
    holder = _rules_of(game) if spec.on == "game" else _plugin_of(game)
    value = getattr(holder, name, None)
    if spec.method:
        return value if callable(value) else None
    if spec.on == "plugin":
        return value or None
    return value


def has_capability(game: Any, name: str) -> bool:
    """Whether ``game`` (a game's name, its ``GamePlugin`` or its rules object) declares the capability
    ``name`` (a key of ``CAPABILITIES``): ``has_capability("knarr", "determinize")``."""
    return capability(game, name) is not None


def capabilities(game: Any) -> tuple[str, ...]:
    """The capabilities ``game`` declares, in the order of ``CAPABILITIES``."""
    return tuple(name for name in CAPABILITIES if has_capability(game, name))


class HasData(Protocol):
    """A state with a declared slot for its component data (``data: ... = field(init=False)``)."""

    data: Any


St = TypeVar("St", bound=HasData)
D = TypeVar("D")


@lru_cache(maxsize=32)
def _cached_data(read: Callable[[str | None], Any], path: str | None) -> Any:
    return read(path)


class GameBase(Generic[St, D]):
    """What every game's ``Game`` object repeats: the cached ``load_data`` (the packaged file or a
    user's), ``new_state`` through the rules' new-game function with the data in the state's declared
    ``data`` slot (beside the state, never serialised), and the data a snapshot names (``data_of``).

    A game sets ``read_data`` (its data module's ``load``, as a ``staticmethod``), ``new_game`` (its
    rules' ``new_game(data, n_players, rules, seed)``, likewise) and ``default_data_path``."""

    rule_switches: tuple[RuleSwitch, ...]
    default_data_path: str | Path | None = None

    @staticmethod
    def read_data(path: str | None, /) -> D:
        """The component data at ``path`` (None: the packaged file), uncached."""
        raise NotImplementedError

    @staticmethod
    def new_game(data: D, n_players: int, rules: dict[str, Any], seed: int, /) -> St:
        """A fresh game state (the rules' set-up), without ``data`` in its slot."""
        raise NotImplementedError

    def load_data(self, path: str | Path | None) -> D:
        """``read_data`` cached per path (a few data files at most in one process)."""
        return _cached_data(self.read_data, str(path) if path else None)

    def new_state(self, n_players: int, rules: Mapping[str, Any], data: D, seed: int) -> St:
        """A fresh game: every rule switch at its default, then ``rules``; ``data`` in the state's slot."""
        config = {s.name: s.default for s in self.rule_switches} | dict(rules)
        state = self.new_game(data, n_players, config, seed)
        state.data = data
        return state

    def data_of(self, doc: Mapping[str, Any]) -> D:
        """The component data a ``to_dict`` snapshot names (``doc["data_path"]``; the packaged file's
        path reads as the default, so a snapshot made elsewhere loads this install's file)."""
        path = doc["data_path"]
        return self.load_data(None if path == str(self.default_data_path) else path)


def fields_doc(state: Any, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """The start of a ``to_dict`` of a dataclass state: its fields but ``rng``, ``data`` and
    ``leave_out`` (as they are: deep-copy the finished document), then the generator's state (``rng``)
    and the component data's path (``data_path``, read back by ``GameBase.data_of``)."""
    skip = {"rng", "data", *leave_out}
    doc = {k: v for k, v in vars(state).items() if k not in skip}
    doc["rng"] = state.rng.bit_generator.state
    doc["data_path"] = state.data.path
    return doc


def fields_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The reverse of ``fields_doc``: the state's fields (less ``data``) from a document, ``rng`` a
    generator in the saved state."""
    fields = {k: v for k, v in doc.items() if k not in ("rng", "data_path")}
    fields["rng"] = np.random.default_rng(0)
    fields["rng"].bit_generator.state = doc["rng"]
    return fields


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranking: 1 for the best score, tied scores share the better rank."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def result_from_scores(
    scores: Sequence[float], parts: list[dict[str, float]], keys: Sequence[float] | None = None
) -> Result:
    """A ``Result`` where the highest score wins and ties share the win; with ``keys`` (one per seat,
    a score with its tie-break folded in) the highest key wins and ranks instead."""
    keys = scores if keys is None else keys
    best = max(keys)
    return Result(
        scores=list(scores),
        ranks=ranks_from_scores(keys),
        winners=[i for i, k in enumerate(keys) if k == best],
        parts=parts,
    )


class _StateSetAfter(ISeedSequence):
    """The seed sequence of a bit generator whose state ``copy_rng`` sets right after making it:
    seeding it from a real ``SeedSequence`` (hashing its entropy) cost three quarters of a copy."""

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        return np.zeros(n_words, dtype=dtype)


_STATE_SET_AFTER = _StateSetAfter()


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in ``rng``'s exact state (same draws from here on; its
    ``bit_generator.seed_seq`` is a placeholder: nothing spawns from a game's generator)."""
    bits = type(rng.bit_generator)(_STATE_SET_AFTER)  # type: ignore[arg-type]  # numpy takes any ISeedSequence
    bits.state = rng.bit_generator.state
    return np.random.Generator(bits)


def copy_state(state: S, flat: tuple[str, ...], nested: tuple[str, ...]) -> S:
    """A copy of a plain state object for ``Game.copy``: every attribute is ``state``'s, but ``rng``
    is copied (``copy_rng``), the containers named in ``flat`` (lists of immutable values, dicts of
    them, numpy arrays) are copied one level deep and those in ``nested`` (lists or dicts whose
    values are such containers) two levels deep.  Any other attribute is shared: it must be
    immutable (numbers, strings, tuples of them, the read-only component data)."""
    new = object.__new__(type(state))
    attrs = new.__dict__
    attrs.update(state.__dict__)
    for name in flat:
        attrs[name] = attrs[name].copy()
    for name in nested:
        value = attrs[name]
        attrs[name] = (
            {k: v.copy() for k, v in value.items()} if isinstance(value, dict) else [v.copy() for v in value]
        )
    attrs["rng"] = copy_rng(attrs["rng"])
    return new

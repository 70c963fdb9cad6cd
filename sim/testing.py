"""The conformance checker for game plug-ins: ``check_game(game)`` plays a game and checks the rules every
Skald game must keep, raising ``ConformanceError`` with a message naming the game, the
player count, the seed and the decision where one is broken.

    from sim.testing import check_game
    check_game("tictactoe")              # a registered game, by name, or a sim.game.Game object

It checks, each as a named step of the ``Report`` it returns:

* ``declaration``: the protocol's attributes (name, player counts, distinct action and part fields);
* ``playouts``: random playouts at every player count: while the game is not over someone is to move and
  every mover has options; ``record`` gives a kind and one integer per ``action_fields`` (kinds declared
  in ``action_kinds`` where the game declares it, other columns -1); ``scores`` one per seat; the
  result's ``parts`` carry exactly ``part_fields`` for every seat;
* ``illegal``: an option the seat is not offered now (a same-typed option seen earlier in the playout,
  or ``game.illegal_option(state, seat)`` where declared) makes ``apply`` raise ``IllegalChoice`` naming
  that seat (or none) and leaves the state as it was (``to_dict`` equal);
* ``hidden``: ``game.determinize(state, seat, rng)`` (what search strategies use: every piece of
  information hidden from ``seat`` resampled) leaves ``seat``'s view, options and ``to_move`` unchanged
  and the original state untouched; skipped for a game that does not declare it;
* ``evaluate``: where the game declares ``evaluate(state, seat)`` (the judge of a search playout cut
  before the end), every seat's value is a number in [0, 1], the same when asked again, and the state is
  untouched; skipped for a game that does not declare it;
* ``seeds``: one game is a function of its seed (the same seed replays it);
* ``global random``: nothing draws from or reads numpy's or the ``random`` module's global generators;
* ``snapshot``: ``from_dict(to_dict(state))`` mid-game plays on exactly like the original;
* ``copy``: ``copy`` shares no mutable object with the original, equals it and plays on like it;
* ``jobs``: a run with ``--jobs 1`` and one with ``--jobs 2`` write byte-identical Parquet parts.

The ``Report`` also names the optional capabilities the game declares (``sim.game.CAPABILITIES``:
``determinize``, ``evaluate``, ``action_kinds``, its plug-in's ``picture``, ...), the steps that depend on
one being skipped where it is not declared.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import IllegalChoice
from sim.game import CAPABILITIES, Game, capabilities, capability

#: decisions between two ``illegal``/``hidden`` probes of a playout (each probe copies the state)
PROBE_EVERY = 3
#: at most this many probes per playout
MAX_PROBES = 12
#: options seen earlier in a playout kept as candidates for an illegal one
POOL = 64

_MUTABLE = (list, dict, set, bytearray, np.ndarray, np.random.Generator, np.random.BitGenerator)


class ConformanceError(AssertionError):
    """A game breaks one of the rules ``check_game`` checks; the message says where and what."""


@dataclasses.dataclass
class Report:
    """What ``check_game`` checked: step name -> how many times, the steps it skipped, with why, and the
    optional capabilities the game declares (``sim.game.CAPABILITIES``)."""

    game: str
    checked: dict[str, int] = dataclasses.field(default_factory=dict)
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)
    capabilities: tuple[str, ...] = ()

    def count(self, step: str, n: int = 1) -> None:
        self.checked[step] = self.checked.get(step, 0) + n


def expect(ok: object, where: str, what: str) -> None:
    """Raise ``ConformanceError("<where>: <what>")`` unless ``ok``."""
    if not ok:
        raise ConformanceError(f"{where}: {what}")


def plain(obj: Any) -> Any:
    """``obj`` with dataclasses, numpy arrays and containers made plain, comparable with ``==``."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (
            type(obj).__name__,
            tuple((f.name, plain(getattr(obj, f.name))) for f in dataclasses.fields(obj)),
        )
    if isinstance(obj, np.ndarray):
        return ("ndarray", str(obj.dtype), obj.shape, obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        return {key: plain(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(item) for item in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(map(repr, obj))
    return obj


def option_key(option: Any) -> str:
    """A hashable stand-in for an option (numpy rows included), equal for equal options."""
    return repr(plain(option))


# --------------------------------------------------------------------------- the entry point


def check_game(
    game_or_name: Game | str,
    players: int | Iterable[int] | None = None,
    rules: dict[str, Any] | None = None,
    *,
    seeds: Sequence[int] = (1, 2),
    jobs: bool = True,
    strategies: Sequence[str] | None = None,
    max_decisions: int | None = None,
) -> Report:
    """Check ``game_or_name`` (a registered game's name, or a ``Game`` object) at ``players`` (every count
    from ``min_players`` to ``max_players`` when None) with the rule switches ``rules``; one random
    playout per seed and player count.  ``jobs=False`` leaves out the two runs of the ``jobs`` step;
    ``strategies`` are the specs that run plays (``random`` and the plug-in's first strategy by default).
    Returns the ``Report``; raises ``ConformanceError`` at the first broken rule."""
    game, name = _resolve(game_or_name)
    from sim.rules import resolve

    rules = resolve(game, rules or {})  # every switch, as the runner hands them to new_state
    report = Report(game.name, capabilities=capabilities(game))
    check_declaration(game, report)
    counts = _counts(game, players)
    cap = max_decisions or game.default_max_decisions
    for n in counts:
        for seed in seeds:
            check_playout(game, n, rules, seed, cap, report)
    middle = counts[len(counts) // 2]
    check_seeds(game, middle, rules, seeds, cap, report)
    check_snapshots(game, middle, rules, seeds[0], report)
    if jobs:
        check_jobs(game if name is None else name, game, middle, rules, strategies, report)
    else:
        report.skipped["jobs"] = "jobs=False"
    if "hidden" in report.checked and "hidden changed" not in report.checked:
        report.skipped["hidden changed"] = "no determinize sample differed from the state: nothing is hidden"
    if "illegal" not in report.checked:
        report.skipped["illegal"] = "no option outside the legal ones was found (declare illegal_option)"
    return report


def _resolve(game_or_name: Game | str) -> tuple[Game, str | None]:
    if isinstance(game_or_name, str):
        from sim.games import get_game

        return get_game(game_or_name), game_or_name
    return game_or_name, None


def _counts(game: Game, players: int | Iterable[int] | None) -> list[int]:
    if players is None:
        return list(range(game.min_players, game.max_players + 1))
    return [players] if isinstance(players, int) else list(players)


def protocol_members() -> set[str]:
    """The attributes and methods ``sim.game.Game`` declares."""
    import typing

    members = getattr(Game, "__protocol_attrs__", None)
    return set(members) if members is not None else set(typing._get_protocol_attrs(Game))  # type: ignore[attr-defined]


def check_declaration(game: Game, report: Report) -> None:
    """The protocol's attributes are there and sensible."""
    where = f"{getattr(game, 'name', game)!r}"
    missing = sorted(a for a in protocol_members() if not hasattr(game, a))
    expect(isinstance(game, Game) and not missing, where, f"does not follow sim.game.Game: missing {missing}")
    expect(isinstance(game.name, str) and game.name, where, "name must be a non-empty string")
    expect(1 <= game.min_players <= game.max_players, where, "needs 1 <= min_players <= max_players")
    for attr in ("action_fields", "part_fields"):
        fields = tuple(getattr(game, attr))
        expect(all(isinstance(f, str) for f in fields), where, f"{attr} must be names (strings)")
        expect(len(set(fields)) == len(fields), where, f"{attr} names a column twice: {fields}")
    expect(game.default_max_decisions > 0, where, "default_max_decisions must be positive")
    kinds = capability(game, "action_kinds")
    if kinds is not None:
        for kind, used in kinds.items():
            unknown = set(used) - set(game.action_fields)
            expect(
                not unknown,
                where,
                f"action_kinds[{kind!r}] names columns that are not action_fields: {unknown}",
            )
    report.count("declaration")


# --------------------------------------------------------------------------- one playout


@dataclasses.dataclass
class _Playout:
    """One random playout in progress: the game, its state, where it is, the options seen so far."""

    game: Game
    state: Any
    where: str
    rng: np.random.Generator
    pool: list[Any] = dataclasses.field(default_factory=list)
    decision: int = 0

    def at(self) -> str:
        return f"{self.where}, decision {self.decision}"


def check_playout(game: Game, n: int, rules: dict[str, Any], seed: int, cap: int, report: Report) -> None:
    """One random playout of ``n`` players from ``seed``: options, records and scores at every decision,
    the ``illegal`` and ``hidden`` probes every ``PROBE_EVERY`` decisions, the result at the end; and
    the global generators untouched by all of it."""
    where = f"{game.name} ({n} players, seed {seed})"
    before = (pickled_np_state(), random.getstate())
    play = _Playout(
        game, game.new_state(n, rules, game.load_data(None), seed), where, np.random.default_rng(seed)
    )
    probes = 0
    while not game.is_terminal(play.state) and play.decision < cap:
        choices = _decide(play, n, report)
        if play.decision % PROBE_EVERY == 0 and probes < MAX_PROBES:
            probes += 1
            probe_illegal(play, choices, report)
            probe_hidden(play, n, report)
            probe_evaluate(play, n, report)
        _record_and_apply(play, n, choices)
    check_result(game, play.state, n, where)
    expect(
        before == (pickled_np_state(), random.getstate()),
        where,
        "the game drew from a global random generator",
    )
    report.count("global random")
    report.count("playouts")


def pickled_np_state() -> Any:
    """numpy's global generator state, comparable with ``==``."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state(legacy=True)
    return kind, np.asarray(keys).tolist(), pos, has_gauss, gauss


def _decide(play: _Playout, n: int, report: Report) -> dict[int, Any]:
    """Every mover's options (none empty) and a random choice from each."""
    game, state = play.game, play.state
    movers = tuple(game.to_move(state))
    expect(movers, play.at(), "the game is not over but no seat is to move")
    expect(
        all(0 <= s < n for s in movers) and len(set(movers)) == len(movers), play.at(), f"bad movers {movers}"
    )
    choices = {}
    for seat in movers:
        options = game.legal_options(state, seat)
        expect(len(options) > 0, play.at(), f"seat {seat} is to move but has no options")
        choices[seat] = options[int(play.rng.integers(len(options)))]
        play.pool.extend(options[int(i)] for i in play.rng.integers(len(options), size=min(4, len(options))))
    del play.pool[:-POOL]
    report.count("options", len(movers))
    return choices


def _record_and_apply(play: _Playout, n: int, choices: dict[int, Any]) -> None:
    """``record`` before ``apply`` (its width is ``action_fields``'), then the choices, then ``scores``."""
    game, state = play.game, play.state
    kinds = capability(game, "action_kinds")
    width = len(game.action_fields)
    for seat, option in choices.items():
        kind, fields = game.record(state, seat, option)
        expect(isinstance(kind, str), play.at(), f"record gave the kind {kind!r}, not a string")
        expect(len(fields) == width, play.at(), f"record gave {len(fields)} fields for {width} action_fields")
        expect(
            all(isinstance(v, (int, np.integer)) for v in fields),
            play.at(),
            f"record fields not ints: {fields}",
        )
        if kinds is not None:
            expect(kind in kinds, play.at(), f"kind {kind!r} is recorded but not declared in action_kinds")
            stray = [
                f for f, v in zip(game.action_fields, fields, strict=True) if f not in kinds[kind] and v != -1
            ]
            expect(not stray, play.at(), f"a {kind!r} row fills columns its action_kinds leave out: {stray}")
    game.apply(state, choices)
    expect(len(game.scores(state)) == n, play.at(), "scores must give one score per seat")
    play.decision += 1


def check_result(game: Game, state: Any, n: int, where: str) -> None:
    """The result has one score, rank and parts entry per seat, the parts exactly ``part_fields``."""
    result = game.result(state)
    expect(
        len(result.scores) == n and len(result.ranks) == n, where, "result needs one score and rank per seat"
    )
    expect(set(result.winners) <= set(range(n)), where, f"result winners {result.winners} are not seats")
    expect(len(result.parts) == n, where, f"result has {len(result.parts)} parts entries for {n} seats")
    want = set(game.part_fields)
    for seat, parts in enumerate(result.parts):
        missing, extra = want - set(parts), set(parts) - want
        expect(
            not missing and not extra,
            where,
            f"seat {seat}'s result parts: missing {sorted(missing)}, not in part_fields {sorted(extra)}",
        )


# --------------------------------------------------------------------------- probes


def illegal_candidate(play: _Playout, seat: int) -> Any:
    """An option ``seat`` is not offered now: the game's own ``illegal_option(state, seat)`` where
    declared, else the latest option seen earlier in the playout, of a type the seat is offered now,
    that is not among its options (None when there is none)."""
    declared = capability(play.game, "illegal_option")
    if declared is not None:
        return declared(play.state, seat)
    options = play.game.legal_options(play.state, seat)
    legal = {option_key(o) for o in options}
    types = {type(o) for o in options}
    for option in reversed(play.pool):
        if type(option) in types and option_key(option) not in legal:
            return option
    return None


def probe_illegal(play: _Playout, choices: dict[int, Any], report: Report) -> None:
    """On a copy: one mover's illegal option (the others' legal choices beside it) raises
    ``IllegalChoice`` naming that seat or none, and leaves ``to_dict`` as it was."""
    game = play.game
    seat = min(choices)
    bad = illegal_candidate(play, seat)
    if bad is None:
        return
    trial = game.copy(play.state)
    for mover in choices:
        game.legal_options(trial, mover)  # as the runner does before apply (a game may cache them)
    before = plain(game.to_dict(trial))
    try:
        game.apply(trial, {**choices, seat: bad})
    except IllegalChoice as exc:
        expect(
            exc.seat in (None, seat),
            play.at(),
            f"IllegalChoice for seat {seat}'s {bad!r} names seat {exc.seat}",
        )
    else:
        raise ConformanceError(
            f"{play.at()}: apply accepted seat {seat}'s option {bad!r}, not among its options"
        )
    expect(plain(game.to_dict(trial)) == before, play.at(), f"the refused option {bad!r} changed the state")
    report.count("illegal")


def _declared(game: Game, step: str, name: str, report: Report) -> Callable[..., Any] | None:
    """The game's optional method ``name`` (a capability of ``sim.game.CAPABILITIES``), or None with
    ``step`` noted as skipped."""
    method = capability(game, name)
    if method is None:
        report.skipped[step] = f"{game.name} declares no {CAPABILITIES[name].form}"
    return method


def probe_hidden(play: _Playout, n: int, report: Report) -> None:
    """A seat's ``determinize`` sample (the seats take turns from probe to probe) keeps that seat's view,
    ``to_move`` and (when it moves) its options, and leaves the true state alone; counts the samples that
    changed hidden information."""
    game, state = play.game, play.state
    determinize = _declared(game, "hidden", "determinize", report)
    if determinize is None:
        return
    before = plain(game.to_dict(state))
    movers = tuple(game.to_move(state))
    for seat in (play.decision // PROBE_EVERY % n,):
        sample = determinize(state, seat, np.random.default_rng(play.decision * 31 + seat))
        where = f"{play.at()}, determinize for seat {seat}"
        expect(
            plain(game.view(sample, seat)) == plain(game.view(state, seat)), where, "the seat's view changed"
        )
        expect(tuple(game.to_move(sample)) == movers, where, "to_move changed")
        if seat in movers:
            ours = [option_key(o) for o in game.legal_options(state, seat)]
            expect(
                [option_key(o) for o in game.legal_options(sample, seat)] == ours,
                where,
                "its options changed",
            )
        if plain(game.to_dict(sample)) != before:
            report.count("hidden changed")
        report.count("hidden")
    expect(plain(game.to_dict(state)) == before, play.at(), "determinize changed the state it sampled")


def probe_evaluate(play: _Playout, n: int, report: Report) -> None:
    """Every seat's ``evaluate`` is a number in [0, 1], the same when asked again, and leaves the state
    alone."""
    game, state = play.game, play.state
    evaluate = _declared(game, "evaluate", "evaluate", report)
    if evaluate is None:
        return
    before = plain(game.to_dict(state))
    for seat in range(n):
        where = f"{play.at()}, evaluate for seat {seat}"
        value = evaluate(state, seat)
        in_range = isinstance(value, (int, float)) and 0.0 <= value <= 1.0
        expect(in_range, where, f"gave {value!r}, not in [0, 1]")
        expect(evaluate(state, seat) == value, where, "gave another value when asked again")
    expect(plain(game.to_dict(state)) == before, play.at(), "evaluate changed the state it judged")
    report.count("evaluate")


# --------------------------------------------------------------------------- seeds, snapshots, copies


def final(game: Game, n: int, rules: dict[str, Any], seed: int, cap: int) -> tuple[list[float], int]:
    """(final scores, decisions) of one game of ``random`` players from game seed ``seed`` (``rules``: the
    switches to change; the others keep their defaults)."""
    from sim.play import play_game
    from sim.rules import resolve
    from sim.specs import parse_spec

    specs = [parse_spec("random", game.name)] * n
    outcome = play_game(game, n, resolve(game, rules), game.load_data(None), seed, specs, cap)
    assert outcome.result is not None, f"{game.name}: a random game with seed {seed} ended without a result"
    return outcome.result.scores, outcome.decisions


def check_seeds(
    game: Game, n: int, rules: dict[str, Any], seeds: Sequence[int], cap: int, report: Report
) -> None:
    """The same game seed replays the same game, whatever the global generators hold."""
    for seed in seeds:
        where = f"{game.name} ({n} players, game seed {seed})"
        np.random.seed(1)
        random.seed(1)
        first = final(game, n, rules, seed, cap)
        np.random.seed(2)
        random.seed(2)
        expect(
            final(game, n, rules, seed, cap) == first,
            where,
            "the same seed played a different game "
            "(does the game read a global random generator, or a set's order?)",
        )
    report.count("seeds", len(seeds))


Logged = list[tuple[int, str, tuple[int, ...]]]


def step(game: Game, state: Any, pick: np.random.Generator) -> Logged:
    """One decision point with choices drawn from ``pick``; the (seat, kind, fields) recorded."""
    choices = {}
    for seat in game.to_move(state):
        options = game.legal_options(state, seat)
        choices[seat] = options[int(pick.integers(len(options)))]
    logged = [(seat, *game.record(state, seat, choice)) for seat, choice in choices.items()]
    game.apply(state, choices)
    return [(s, k, tuple(int(v) for v in f)) for s, k, f in logged]


def mid_game(game: Game, n: int, rules: dict[str, Any], seed: int, steps: int) -> Any:
    """A state after ``steps`` random decision points (fewer if the game ends)."""
    state = game.new_state(n, rules, game.load_data(None), seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        step(game, state, rng)
    return state


def play_on_alike(game: Game, a: Any, b: Any, steps: int, where: str) -> None:
    """``a`` and ``b`` make the same records for the same choices and end alike."""
    rng_a, rng_b = np.random.default_rng(99), np.random.default_rng(99)
    for i in range(steps):
        if game.is_terminal(a):
            break
        expect(step(game, b, rng_b) == step(game, a, rng_a), where, f"the two differ {i} decisions on")
    expect(game.is_terminal(b) == game.is_terminal(a), where, "one ended and the other did not")
    expect(game.scores(b) == game.scores(a), where, "they ended with different scores")


def mutables(obj: Any, path: str, found: dict[int, str]) -> None:
    """Every mutable object reachable from ``obj`` (items, values), by id, with its path (a read-only
    numpy array is not: a state may share one it replaces rather than writes)."""
    if isinstance(obj, _MUTABLE) and not (isinstance(obj, np.ndarray) and not obj.flags.writeable):
        found[id(obj)] = path
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            mutables(item, f"{path}[{i}]", found)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            mutables(value, f"{path}[{key!r}]", found)
    elif isinstance(obj, np.random.Generator):
        mutables(obj.bit_generator, f"{path}.bit_generator", found)


def state_mutables(state: Any) -> dict[int, str]:
    """The mutable objects of a state's attributes (its component data, ``data``, left out)."""
    found: dict[int, str] = {}
    attrs = vars(state) if hasattr(state, "__dict__") else {k: getattr(state, k) for k in state.__slots__}
    for key, value in attrs.items():
        if key != "data":
            mutables(value, key, found)
    return found


def check_snapshots(game: Game, n: int, rules: dict[str, Any], seed: int, report: Report) -> None:
    """Mid-game, at a few depths: ``from_dict(to_dict(s))`` and ``copy(s)`` equal ``s`` and play on like
    it; a copy shares no mutable object with ``s``, and playing it to the end leaves ``s`` as it was."""
    for steps in (0, 7, 45):
        state = mid_game(game, n, rules, seed, steps)
        where = f"{game.name} ({n} players, seed {seed}, after {steps} decision points)"
        snap = game.from_dict(game.to_dict(state))
        expect(
            plain(game.to_dict(snap)) == plain(game.to_dict(state)),
            where,
            "from_dict(to_dict(s)) differs from s",
        )
        play_on_alike(game, state if steps else game.copy(state), snap, 200, f"{where}, a snapshot")
        state = mid_game(game, n, rules, seed, steps)
        copy = game.copy(state)
        expect(type(copy) is type(state), where, "copy is of another type")
        expect(plain(game.to_dict(copy)) == plain(game.to_dict(state)), where, "copy(s) differs from s")
        ours, theirs = state_mutables(state), state_mutables(copy)
        shared = sorted(ours[i] for i in ours.keys() & theirs.keys())
        expect(not shared, where, f"copy shares mutable objects with the original: {shared}")
        before = plain(game.to_dict(state))
        play_on_alike(game, game.copy(copy), copy, game.default_max_decisions, f"{where}, a copy of a copy")
        expect(plain(game.to_dict(state)) == before, where, "playing a copy on changed the original")
        play_on_alike(game, state, game.copy(state), 300, f"{where}, a copy")
        report.count("snapshot")
        report.count("copy")


# --------------------------------------------------------------------------- runs


def default_strategies(game: Game, n: int) -> list[str]:
    """``random`` and the first strategy of the game's plug-in (when registered), alternating."""
    from sim.games import GAMES

    declared = GAMES.get(game.name)
    own = list(declared.strategies)[:1] if declared is not None else []
    return ([*own, "random"] * n)[:n]


def check_jobs(
    ref: Game | str,
    game: Game,
    n: int,
    rules: dict[str, Any],
    strategies: Sequence[str] | None,
    report: Report,
) -> None:
    """Two runs of 4 games in 2 chunks, with 1 and 2 worker processes: byte-identical Parquet parts."""
    from sim.runner import RunConfig, run

    specs = list(strategies) if strategies else default_strategies(game, n)
    where = f"{game.name} ({n} players, strategies {','.join(specs)})"
    common: dict[str, Any] = dict(
        game=ref, players=n, games=4, strategies=specs, seed=11, chunk_size=2, rules=rules, progress=False
    )
    with tempfile.TemporaryDirectory(prefix="skald-check-") as tmp:
        parts = []
        for jobs in (1, 2):
            out = Path(tmp) / f"jobs{jobs}"
            run(RunConfig(**common, jobs=jobs, out=out))
            parts.append({str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.parquet"))})
    expect(len(parts[0]) >= 6, where, f"expected 2 chunks x 3 tables of parts, found {sorted(parts[0])}")
    differ = sorted(k for k in parts[0].keys() | parts[1].keys() if parts[0].get(k) != parts[1].get(k))
    expect(not differ, where, f"--jobs 1 and --jobs 2 wrote different parts: {differ}")
    report.count("jobs")

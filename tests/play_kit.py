"""Random play for the tests that need states all through a game or a game played to its end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import eq
from typing import Any

import numpy as np


def random_choices(game: Any, state: Any, rng: np.random.Generator) -> dict[int, Any]:
    """A uniformly random option for every seat to move (each must have one)."""
    choices = {}
    for seat in game.to_move(state):
        options = game.legal_options(state, seat)
        assert len(options) > 0, f"{game.name}: seat {seat} to move with no option"
        choices[seat] = options[int(rng.integers(len(options)))]
    return choices


def seeded_states(name: str, players: int, seed: int, every: int) -> list[Any]:
    """Copies of the states of one seeded random game of ``name`` (default rules and data), every ``every``
    decision points."""
    from sim.games import get_game
    from sim.rules import resolve

    game = get_game(name)
    rng = np.random.default_rng(seed)
    state = game.new_state(players, resolve(game, {}), game.load_data(None), seed)
    found, points = [], 0
    while not game.is_terminal(state) and points < game.default_max_decisions:
        if points % every == 0:
            found.append(game.copy(state))
        game.apply(state, random_choices(game, state, rng))
        points += 1
    return found


def play_out(
    game: Any,
    state: Any,
    rng: np.random.Generator,
    cap: int,
    choose: Callable[[Any, np.random.Generator], dict[int, Any]] | None = None,
) -> int:
    """Play ``state`` to the end (random choices, or ``choose``'s); the number of decision points."""
    steps = 0
    while not game.is_terminal(state):
        assert steps < cap, f"{game.name}: random play did not end in {cap} decision points"
        game.apply(state, choose(state, rng) if choose else random_choices(game, state, rng))
        steps += 1
    return steps


def snapshots(
    game: Any, n: int, rules: dict[str, Any], seed: int, every: int, last: bool = False, cap: int = 3000
) -> tuple[dict[str, Any], ...]:
    """Snapshots (``game.to_dict``) of one seeded random game of ``n`` players: every ``every`` decisions
    and at each phase's first appearance, for at most ``cap`` decisions (and the last state if ``last``)."""
    state = game.new_state(n, rules, game.load_data(None), seed)
    rng = np.random.default_rng(seed)
    out, phases, step = [], set(), 0
    while not game.is_terminal(state) and step < cap:
        if step % every == 0 or state.phase not in phases:
            out.append(game.to_dict(state))
            phases.add(state.phase)
        game.apply(state, random_choices(game, state, rng))
        step += 1
    if last:
        out.append(game.to_dict(state))
    return tuple(out)


# --------------------------------------------------------------------------- determinize checks

Cases = Sequence[tuple[int, Any, int]]  # (index, state, seat): a state and the seat it is determinized for


def check_view_kept(game: Any, determinize: Any, cases: Cases, same: Callable[[Any, Any], bool] = eq) -> None:
    """What the seat sees is unchanged by a determinization: its view, and its own hand in its order."""
    for i, state, seat in cases:
        det = determinize(state, seat, np.random.default_rng(i))
        assert same(game.view(det, seat), game.view(state, seat)), (i, seat)
        assert det.hands[seat] == state.hands[seat], (i, seat)


def check_input_unchanged(game: Any, determinize: Any, cases: Cases) -> list[tuple[Any, Any]]:
    """Determinizing leaves the input state as it was; the (input, determinization) pairs, for more checks."""
    pairs = []
    for i, state, seat in cases:
        before = game.to_dict(state)
        det = determinize(state, seat, np.random.default_rng(i))
        assert game.to_dict(state) == before, (i, seat)
        pairs.append((state, det))
    return pairs


def check_information_only(game: Any, determinize: Any, cases: Cases) -> None:
    """A state redrawn with another generator (so differing only in what ``seat`` cannot see, the
    seed and the game's generator included) gives the same determinization for the same generator."""
    for i, state, seat in cases:
        other = determinize(state, seat, np.random.default_rng(10_000 + i))
        assert game.to_dict(other) != game.to_dict(state)  # the seed and generator differ at least
        a = determinize(state, seat, np.random.default_rng(i))
        b = determinize(other, seat, np.random.default_rng(i))
        assert game.to_dict(a) == game.to_dict(b), (i, seat)


def search_picks(game: Any, states: Sequence[Any], seat: int) -> list[Any]:
    """What ``ismcts`` (20 iterations, playouts cut after 8 decision points, one generator seed)
    picks in each of ``states`` for ``seat``, given samples of that seat's information only; each pick is
    checked to be legal."""
    from sim.search import SearchContext
    from strategies.ismcts import ISMCTSStrategy

    picks = []
    for truth in states:
        player = ISMCTSStrategy(seat, np.random.default_rng(4), iterations="20", depth="8")
        player.attach(SearchContext(game, seat, truth))
        options = game.legal_options(truth, seat)
        pick = player.choose(game.view(truth, seat), options)
        assert any(np.array_equal(pick, o) if isinstance(pick, np.ndarray) else pick == o for o in options)
        assert player.iterations_run == 20
        picks.append(pick.tolist() if isinstance(pick, np.ndarray) else pick)
    return picks


def kept_states(
    game: Any, games: Sequence[tuple[int, dict[str, Any], int, int]], keep: Callable[[int, Any], bool]
) -> tuple[Any, ...]:
    """Copies of the states of seeded random games, one game per (players, rules, game seed, seed of the
    random choices): every state for which ``keep(step, state)`` holds (``step`` counts the decision
    points), the final one excluded."""
    data = game.load_data(None)
    kept = []
    for n, rules, seed, choices in games:
        state = game.new_state(n, rules, data, seed)
        rng = np.random.default_rng(choices)
        step = 0
        while not game.is_terminal(state):
            if keep(step, state):
                kept.append(game.copy(state))
            game.apply(state, random_choices(game, state, rng))
            step += 1
    return tuple(kept)


def check_unseen_changes(
    game: Any,
    determinize: Any,
    cases: Cases,
    changed: Callable[[Any, int], Any],
    same: Callable[[Any, Any], bool] = eq,
) -> list[tuple[Any, Any]]:
    """A state changed only where ``seat`` cannot see (``changed(state, seat)``, None to skip) keeps the
    seat's view and gives the same determinization for the same generator; the (state, changed) pairs."""
    pairs = []
    for i, state, seat in cases:
        other = changed(state, seat)
        if other is None:
            continue
        assert same(game.view(other, seat), game.view(state, seat)), (i, seat)
        a = determinize(state, seat, np.random.default_rng(i))
        b = determinize(other, seat, np.random.default_rng(i))
        assert game.to_dict(a) == game.to_dict(b), (i, seat)
        pairs.append((state, other))
    return pairs


def check_generator_draws(
    game: Any,
    determinize: Any,
    cases: Cases,
    hidden: Callable[[Any, int], Any],
    enough: Callable[[Any, int], bool],
) -> tuple[int, int]:
    """The same generator deals the same hidden parts (``hidden(state, seat)``), two generators usually
    different ones, over the cases where ``enough(state, seat)``: (cases that differ, cases checked)."""
    differ = total = 0
    for _, state, seat in cases:
        if not enough(state, seat):
            continue
        total += 1
        a = determinize(state, seat, np.random.default_rng(1))
        b = determinize(state, seat, np.random.default_rng(2))
        again = determinize(state, seat, np.random.default_rng(1))
        assert game.to_dict(a) == game.to_dict(again)
        differ += hidden(a, seat) != hidden(b, seat)
    return differ, total

"""Random play for the tests that need states all through a game or a game played to its end."""

from __future__ import annotations

from collections.abc import Callable
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

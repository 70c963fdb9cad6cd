"""PettingZoo environments for every registered game that declares an RL encoding (``pip install -e .[rl]``).

``env(game, players=N, rules=None, seed=None, data=None)`` is the AEC environment wrapped in PettingZoo's
usual order-enforcing and bounds-checking wrappers; ``raw_env`` is the bare one (``sim.rl.aec.SkaldAEC``:
agents, rewards, truncation and seeding are described there; each game's action numbers and observation
layout in its ``spaces`` module, e.g. ``sim.games.mainland.spaces``).  ``rules`` and ``data`` are the
rule switches and component data file of ``skald run --rule NAME=VALUE --data FILE``.
"""

from __future__ import annotations

from typing import Any

from sim.rl.aec import SkaldAEC


def raw_env(game: str, players: int, rules: dict[str, Any] | None = None, seed: int | None = None,
            data: str | None = None, max_decisions: int | None = None) -> SkaldAEC:
    """The bare AEC environment of ``game`` for ``players`` seats."""
    return SkaldAEC(game, players, rules=rules, seed=seed, data=data, max_decisions=max_decisions)


def env(game: str, players: int, rules: dict[str, Any] | None = None, seed: int | None = None,
        data: str | None = None, max_decisions: int | None = None) -> Any:
    """``raw_env`` inside PettingZoo's ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``."""
    from pettingzoo.utils import wrappers

    bare = raw_env(game, players, rules=rules, seed=seed, data=data, max_decisions=max_decisions)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(bare))


__all__ = ["env", "raw_env"]

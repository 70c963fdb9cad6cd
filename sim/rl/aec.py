"""A Skald game as a PettingZoo AEC environment, played through the ``sim.game.Game`` protocol only.

Agents ``seat_0 .. seat_{N-1}``.  At each decision point the seats in ``to_move`` are asked one at a time,
in that order; each one's observation and legal options are taken when the decision point opens, before
any of its choices is applied (simultaneous secret choices: nobody sees another's choice), and the
choices are applied together once every mover has chosen -- as ``sim.play.play_game`` does.

Rewards: 0 until the game ends; then each seat's win share from the game's ``Result`` -- 1/k to each of
the k winners (a tie shares the win), 0 to the others -- the ``win_share`` of the run records.  A game
cut off at the game's ``default_max_decisions`` (or ``max_decisions``) is truncated for every agent and
rewarded the same way from the result at that point (as the runner records a truncated game).

Seeding: ``reset(seed=s)`` sets the root seed ``s`` and plays its base game 0; each later ``reset()``
without a seed plays the next base game, so episode i is the game ``skald run --seed s`` plays as base
game i (``sim.seeding.game_seed``, ``streams``, ``state_seed``).  A root seed of None (neither the
constructor nor ``reset`` gave one) is drawn from fresh entropy.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from sim.errors import SkaldError
from sim.plan import make_plan
from sim.plugin import plugin as plugin_of
from sim.rl.spaces import load_spaces
from sim.seeding import MAX_SEED, game_seed, state_seed, streams


class SkaldAEC(AECEnv):
    """One game of ``game`` for ``players`` seats (see the module docstring)."""

    metadata = {"name": "skald", "render_modes": [], "is_parallelizable": False}

    def __init__(self, game: str, players: int, rules: dict[str, Any] | None = None, seed: int | None = None,
                 data: str | None = None, max_decisions: int | None = None):
        super().__init__()
        spec = plugin_of(game)  # an unknown game: the one-line SkaldError listing the games
        self.spaces = load_spaces(spec)
        plan, _ = make_plan(game, players, ["random"], seed=seed or 0, rules=rules, data=data,
                            max_decisions=max_decisions)  # players, rules and data checked as `skald run`
        self.game = spec.load_game()
        self.n, self.rules, self.data, self.max_decisions = players, plan.rules, plan.data, plan.max_decisions
        self.metadata = {**self.metadata, "name": f"skald_{game}"}
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self._observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, tuple(self.spaces.SHAPE), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.spaces.ACTIONS,), np.int8),
        })
        self._action_space = gymnasium.spaces.Discrete(self.spaces.ACTIONS)
        self._root, self._episode = seed, 0
        self.state: Any = None
        self._movers: list[int] = []
        self._choices: dict[int, Any] = {}
        self._pending: dict[int, Any] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            if not 0 <= seed <= MAX_SEED:
                raise SkaldError(f"seed must be between 0 and {MAX_SEED}, not {seed}")
            self._root, self._episode = seed, 0
        if self._root is None:
            self._root = int(np.random.SeedSequence().entropy) % MAX_SEED  # type: ignore[arg-type]  # an int here
        self.game_seed = game_seed(self._root, self._episode)
        self._episode += 1
        seq, _ = streams(self.game_seed, self.n)
        self.state = self.game.new_state(self.n, self.rules, self.data, state_seed(seq))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.decisions, self.result = 0, None
        self._open_decision_point()

    def _open_decision_point(self) -> None:
        """Take every mover's observation, options and action numbers now, before any choice."""
        movers = list(self.game.to_move(self.state))
        if not movers:
            raise RuntimeError(f"{self.game.name}: no seat to move in a game that is not over")
        self._movers, self._choices, self._pending = movers, {}, {}
        for seat in movers:
            view = self.game.view(self.state, seat)
            options = self.game.legal_options(self.state, seat)
            codes = self.spaces.encode(options, view)
            mask = np.zeros(self.spaces.ACTIONS, dtype=np.int8)
            mask[codes] = 1
            self._pending[seat] = (self.spaces.observe(view), mask, options, codes)
        self.agent_selection = f"seat_{movers[0]}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """A mover's observation as its decision point opened; anyone else's from its view now, with an
        all-zero mask (not to move)."""
        seat = int(agent.rsplit("_", 1)[1])
        pending = self._pending.get(seat)
        if pending is not None:
            return {"observation": pending[0], "action_mask": pending[1]}
        return {"observation": self.spaces.observe(self.game.view(self.state, seat)),
                "action_mask": np.zeros(self.spaces.ACTIONS, dtype=np.int8)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = int(agent.rsplit("_", 1)[1])
        _, mask, options, codes = self._pending[seat]
        number = int(action)
        if not (0 <= number < len(mask) and mask[number]):
            raise SkaldError(f"action {number} is not legal for {agent} now (see its action_mask)")
        self._choices[seat] = options[int(np.flatnonzero(codes == number)[0])]
        self._cumulative_rewards[agent] = 0.0
        waiting = [s for s in self._movers if s not in self._choices]
        if waiting:
            self.agent_selection = f"seat_{waiting[0]}"
            self.rewards = {a: 0.0 for a in self.agents}
            return
        self.game.apply(self.state, self._choices)
        self.decisions += len(self._movers)
        self._after_apply()

    def _after_apply(self) -> None:
        ended = self.game.is_terminal(self.state)
        cut = not ended and self.decisions >= self.max_decisions
        if ended or cut:
            self.result = result = self.game.result(self.state)
            winners = result.winners
            self.rewards = {f"seat_{s}": (1.0 / len(winners) if s in winners else 0.0) for s in range(self.n)}
            for a in self.agents:
                self.terminations[a], self.truncations[a] = ended, cut
            self._movers, self._choices, self._pending = [], {}, {}
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self._open_decision_point()
        self._accumulate_rewards()

    def render(self) -> None:
        """Nothing to render (the game's pictures: ``sim.picture``)."""

    def close(self) -> None:
        """Nothing to release."""

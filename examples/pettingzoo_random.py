"""Random masked play of every Skald game through PettingZoo (``pip install -e .[rl]``): the AEC loop an
agent plugs into.  Trains nothing; prints each seat's mean reward (its win share) per game.

    python examples/pettingzoo_random.py [EPISODES]
"""

from __future__ import annotations

import sys

import numpy as np

import sim.pettingzoo as pz
from sim.plugin import registered
from sim.rl.spaces import declares_spaces


def play(game: str, players: int, episodes: int, seed: int = 0) -> np.ndarray:
    """Mean reward per seat over ``episodes`` random masked episodes."""
    env = pz.env(game, players=players)
    rng = np.random.default_rng(seed)
    totals = np.zeros(players)
    for episode in range(episodes):
        env.reset(seed=seed if episode == 0 else None)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[int(agent.split("_")[1])] += reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
    env.close()
    return totals / episodes


def main(episodes: int = 2) -> None:
    for name, plugin in registered().items():
        if not declares_spaces(plugin):
            continue
        players = plugin.load_game().min_players
        means = play(name, players, episodes)
        shown = np.round(means, 3).tolist()
        print(f"{name} ({players} players, {episodes} episodes): mean reward per seat {shown}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)

"""Reinforcement learning front ends: the PettingZoo AEC environment (``sim.pettingzoo``) over any game
that declares its action and observation encoding (``sim.rl.codec``; a game's ``spaces`` module)."""

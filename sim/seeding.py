"""Seeds: one root seed gives every game its own seed, and every game its own streams.

``game_seed(root, i)`` depends only on ``root`` and ``i``, so any game can be replayed alone
from the seed stored in its record, without playing the games before it.  From a game seed,
``streams`` derives the game's own seed sequence (shuffles, dice) and one independent
generator per seat for the strategies.  A run with replicates plays each deal again with the same game
seed (the same setup and chance) and fresh strategy generators (``replicate`` above 0), so the part of
an outcome the deal decides can be told from the part the players' own randomness decides.  Nothing
here touches global random state.
"""

from __future__ import annotations

import numpy as np

MAX_SEED = 2**63 - 1  # roots are stored as int64 in manifests and must be non-negative


def game_seed(root: int, base_index: int) -> int:
    """The seed of base game ``base_index`` under root seed ``root`` (a uint64 as a Python int)."""
    seq = np.random.SeedSequence(root, spawn_key=(base_index,))
    return int(seq.generate_state(1, np.uint64)[0])


#: the first spawn-key word of a replicate's strategy generators: no plain spawn of a game seed reaches it
REPLICATE_KEY = 0x5EED


def streams(
    game_seed: int, n_players: int, replicate: int = 0
) -> tuple[np.random.SeedSequence, list[np.random.Generator]]:
    """The game's own seed sequence and one strategy generator per seat, from ``game_seed``; replicate
    ``k > 0`` of a deal keeps the game's sequence and draws its strategy generators afresh."""
    children = np.random.SeedSequence(game_seed).spawn(1 + n_players)
    if replicate:
        fresh = np.random.SeedSequence(game_seed, spawn_key=(REPLICATE_KEY, replicate)).spawn(n_players)
        return children[0], [np.random.default_rng(child) for child in fresh]
    return children[0], [np.random.default_rng(child) for child in children[1:]]


def state_seed(seq: np.random.SeedSequence) -> int:
    """An integer seed for ``Game.new_state`` drawn from the game's seed sequence."""
    return int(seq.generate_state(1, np.uint64)[0])


def seat_rng(root: int, game_index: int) -> np.random.Generator:
    """The generator that draws the seat order of game ``game_index`` (``random`` seat mode)."""
    return np.random.default_rng(np.random.SeedSequence(root, spawn_key=(game_index, 1)))

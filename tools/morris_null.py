"""The Morris mu* that a reconstructed value with NO effect on the seat verdict still gets, from noise alone.

A value that changes the games at all (a cost the strategies meet, a deck) gives, under common seeds,
games as different as fresh ones, so each of its elementary effects is the difference of two independent
measurements of the seat measure divided by the step.  This draws those measurements under the null (every
seat equally likely to win each game) and reports the mu* a no-effect value gets over ``r`` trajectories:
a screened value whose mu* lies inside this band is not told apart from noise.

    .venv/bin/python -m tools.morris_null --seats 3 --games 12 --trajectories 18 --levels 4

The seat measure is the largest gap of a seat's win share from 1/seats (``analysis.tune``'s
``even_seats`` over one strategy population); ties are ignored (one winner a game).
"""

from __future__ import annotations

import argparse

import numpy as np


def seat_gaps(rng: np.random.Generator, seats: int, games: int, samples: int) -> np.ndarray:
    """The largest |win share - 1/seats| over the seats, for ``samples`` independent sets of ``games``."""
    winners = rng.integers(0, seats, size=(samples, games))
    shares = np.stack([(winners == s).mean(axis=1) for s in range(seats)], axis=1)
    return np.abs(shares - 1.0 / seats).max(axis=1)


def null_mu_star(seats: int, games: int, trajectories: int, levels: int, samples: int = 20_000,
                 seed: int = 0) -> tuple[float, float, float]:
    """(5th percentile, median, 95th percentile) of mu* for a value with no effect."""
    rng = np.random.default_rng(seed)
    delta = levels / (2 * (levels - 1))
    size = samples * trajectories
    effects = np.abs(seat_gaps(rng, seats, games, size) - seat_gaps(rng, seats, games, size)) / delta
    mu_star = effects.reshape(samples, trajectories).mean(axis=1)
    low, mid, high = np.percentile(mu_star, [5, 50, 95])
    return float(low), float(mid), float(high)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--games", type=int, default=12, help="games a point")
    parser.add_argument("--trajectories", type=int, default=18)
    parser.add_argument("--levels", type=int, default=4)
    args = parser.parse_args(argv)
    low, mid, high = null_mu_star(args.seats, args.games, args.trajectories, args.levels)
    print(f"a no-effect value's mu*: median {mid:.3f}, 90% of screens between {low:.3f} and {high:.3f}")


if __name__ == "__main__":
    main()

"""The Knarr holdings test (``analysis.stats.held.held_vs_expected``) on synthetic records with few holders,
beside the t test on the block totals it replaced: false positives under a null and power against a
planted effect, at several numbers of holders.

    .venv/bin/python -m tools.calibrate_held [--reps 100] [--cards 400] [--draws 999]
        [--holders 5,8,13,20,40] [--power-reps 400] [--effect 1.5]

The designs are ``tests/analysis/games/knarr/test_knarr_holdings.py``'s: 40 four-player games, one
strategy with every game its own deal (``--seats random``: the t test's worst case) or four strategies
of unequal skill under ``--seats rotate``, every card held by exactly the given number of seats, one per
game.  Per design and number of holders:

* the share of null cards with p <= 0.05 and p <= 0.001, new (the permutation test) and old (the t
  test), each ± its simulation error: the binomial standard error over the cards, and in brackets the
  standard error between replicates (a replicate's cards share its outcomes, so this one is the more
  honest where they differ);
* among the null cards whose holders never won, the share with p <= 0.001;
* power: the share of replicates whose test of one card gives p <= 0.05 when holding it adds
  ``--effect`` to its holder's log-odds of winning (1.5 takes a holder from 1 in 4 to about 0.6), with
  its binomial standard error, and the holders' mean win share.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

import numpy as np

from tests.analysis.games.knarr import test_knarr_holdings as suite

DESIGNS = {
    "one strategy, every game its own deal": suite.FEW_13,
    "four strategies, --seats rotate": suite.FEW_13_ROTATE,
}
LEVELS = (0.05, 0.001)


def rate(rejected: np.ndarray) -> str:
    """The share of True in a (replicates x cards) array, its binomial SE over the cards and the SE
    between the replicates' shares."""
    share = float(rejected.mean())
    binomial = math.sqrt(share * (1 - share) / rejected.size)
    shares = rejected.mean(axis=1)
    between = float(shares.std(ddof=1) / math.sqrt(len(shares))) if len(shares) > 1 else 0.0
    return f"{share:.4f} ± {binomial:.4f} ({between:.4f})"


def null_line(p: dict[str, np.ndarray]) -> str:
    """The false-positive rates of one design and number of holders, new beside old."""
    parts = []
    for level in LEVELS:
        parts.append(f"p<={level:g}: new {rate(p['new'] <= level)}, old {rate(p['old'] <= level)}")
    never = p["never_won"]
    if never.any():
        new, old = np.mean(p["new"][never] <= 0.001), np.mean(p["old"][never] <= 0.001)
        parts.append(f"never won ({int(never.sum())} cards): p<=0.001 new {new:.3f}, old {old:.3f}")
    return "; ".join(parts)


def power_line(rng: np.random.Generator, reps: int, d: suite.FewDesign, effect: float, draws: int) -> str:
    """Power at α = 0.05 against a planted effect on one card, with its binomial SE."""
    r = suite.few_holder_power(rng, reps, dataclasses.replace(d, cards=3), effect, draws)
    se = math.sqrt(r["power"] * (1 - r["power"]) / reps)
    return f"power at +{effect:g} log-odds: {r['power']:.3f} ± {se:.3f} (holders win {r['holders_win']:.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=100, help="null replicates per design and count")
    parser.add_argument("--cards", type=int, default=400, help="null cards per replicate")
    parser.add_argument("--draws", type=int, default=suite.FEW_DRAWS, help="permutations per test")
    parser.add_argument("--holders", default="5,8,13,20,40", help="numbers of holders, comma-separated")
    parser.add_argument("--power-reps", type=int, default=400)
    parser.add_argument("--effect", type=float, default=1.5)
    args = parser.parse_args(argv)
    start = time.time()
    for i, (name, design) in enumerate(DESIGNS.items()):
        print(f"{name} ({design.games} games of {design.players}):")
        for j, holders in enumerate(int(h) for h in args.holders.split(",")):
            d = dataclasses.replace(design, holders=holders, cards=args.cards)
            p = suite.few_holder_pvalues(np.random.default_rng(1000 * i + j), args.reps, d, args.draws)
            print(f"  {holders:3d} holders, {p['new'].size:,} null cards: {null_line(p)}")
            rng = np.random.default_rng(2000 + 1000 * i + j)
            print(f"  {holders:3d} holders, {power_line(rng, args.power_reps, d, args.effect, args.draws)}")
    print(f"({time.time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

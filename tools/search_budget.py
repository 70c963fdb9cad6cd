"""What budget would the rollout search need to leave the scripted move for a better one? Where a game
needs a larger budget than is practical, this gives the budget it needs and its cost.

    .venv/bin/python -m tools.search_budget greenland --players 2 --decisions 40 --samples 100

The search plays its prior's (the best scripted strategy's) move unless another root arm beats it on
paired samples by ``keep`` standard errors.  How many samples that takes depends on two things this tool
measures at decision points of the prior's self-play (seat 0's decisions with a choice, every ``--every``
-th one, over as many games as it takes):

* the **gain**: how much better, in the search's own reward, the best other arm is than the prior's.  It
  is measured without the winner's curse: the arm is chosen on the even-numbered paired samples and its
  gain over the prior's arm measured on the odd-numbered ones (``held_out_gain``);
* the **noise**: the standard deviation of the paired differences of that arm's rewards and the prior's.

With ``--samples`` N paired samples of every root arm (the search run with ``width`` x N iterations and an
exploration constant so large that the root arms are visited in turn), it prints the mean held-out gain
over the decisions with its standard error, the noise (root mean square over the decisions), and from
them the samples per arm that a gain of that size needs to clear ``keep`` standard errors four times in
five (``needed_samples`` = ((keep + 0.84) x noise / gain)^2), the iterations (``width`` times that) and
their cost at the measured ms per iteration.  ``effect`` (gain / noise) is scale-free: a game whose
effect is k times smaller needs k^2 times the samples.  Gains are uneven, large at a few decisions and
nothing at most, so the budget from the mean gain overstates what a search needs to pay at all; compare
effects between games instead, with one where the search is known to pay.  A gain not above zero says the
samples found no better arm on average.  ``clear_share`` is the share of the decisions at which some
other arm beats the prior's by ``CLEAR_Z`` paired standard errors on all N samples: where a better move is
plain to see at that budget (chance alone gives under 0.5%).

These describe the root comparisons at sampled decisions; they do not predict a match.  Measured at 40
decisions, 100 samples per arm: Mainland's effect 0.22 and Knarr's 0.12, where the
search pays, against Greenland's 0.064 (two-player); but Graenaland's search pays too, with a mean
held-out gain below zero and clear gains at 5% of its decisions, as many as Greenland's: its gains sit
at few decisions, which 40 samples of them can miss.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from sim.games import get_game
from sim.play import play_game
from sim.rules import resolve
from sim.search import SearchContext
from sim.specs import best_strategy, parse_spec
from strategies.ismcts import ISMCTSStrategy

#: a gain is clear at this many standard errors of the paired differences (by chance alone, with three
#: other arms, at under 0.5% of the decisions); z-statistics are capped at MAX_Z
CLEAR_Z = 3.0
MAX_Z = 50.0
#: the normal quantile of 80% power: a gain of ((keep + POWER_Z) x noise / gain)^2 samples clears
#: ``keep`` standard errors four times in five
POWER_Z = 0.8416


def decision_points(game: Any, players: int, count: int, every: int, seed: int) -> list[tuple[Any, Any, Any]]:
    """``count`` (state copy, view, options) of seat 0's decisions with a choice in the self-play of the
    game's best scripted strategy (the search's prior), every ``every``-th one, from games seeded ``seed``,
    ``seed + 1``, ..."""
    spec = parse_spec(best_strategy(game.name) or "random", game.name)
    data, rules = game.load_data(None), resolve(game, {})
    found: list[tuple[Any, Any, Any]] = []
    seen = [0]

    def observe(state: Any, choices: Any) -> None:
        if choices is None or 0 not in choices or len(found) >= count:
            return
        options = game.legal_options(state, 0)
        if len(options) > 1:
            seen[0] += 1
            if seen[0] % every == 0:
                found.append((game.copy(state), game.view(state, 0), options))

    while len(found) < count:
        play_game(game, players, rules, data, seed, [spec] * players, game.default_max_decisions,
                  observe=observe)
        seed += 1
    return found


def _paired_diffs(first: Any, samples: dict[Any, list[float]]) -> list[np.ndarray]:
    """Each other root arm's rewards less the prior's on the samples both saw (at least four pairs)."""
    prior = samples.get(first)
    if prior is None:
        return []
    found = []
    for key, rewards in samples.items():
        m = min(len(rewards), len(prior))
        if key != first and m >= 4:
            found.append(np.asarray(rewards[:m]) - np.asarray(prior[:m]))
    return found


def held_out_gain(first: Any, samples: dict[Any, list[float]]) -> tuple[float, float] | None:
    """(gain, noise) of the best other arm over the prior's: the arm chosen by its mean paired gain on
    the even-numbered samples, its gain measured on the odd-numbered ones, and the standard deviation of
    its paired differences on all; None with no other arm or fewer than four pairs."""
    arms = _paired_diffs(first, samples)
    if not arms:
        return None
    diffs = max(arms, key=lambda d: float(d[0::2].mean()))
    return float(diffs[1::2].mean()), float(diffs.std(ddof=1))


def best_z(first: Any, samples: dict[Any, list[float]]) -> float | None:
    """The largest paired z-statistic (mean difference over its standard error, on all samples) of an
    other arm over the prior's; None with no other arm or fewer than four pairs.  Differences that are
    all equal count as z = 0 when nothing changed, else as +-``MAX_Z``."""
    found: list[float] = []
    for diffs in _paired_diffs(first, samples):
        mean, sd = float(diffs.mean()), float(diffs.std(ddof=1))
        steady = math.copysign(MAX_Z, mean) if mean else 0.0
        found.append(mean / (sd / math.sqrt(len(diffs))) if sd > 0 else steady)
    return max(min(max(found), MAX_Z), -MAX_Z) if found else None


def needed_samples(gain: float, noise: float, keep: float) -> float | None:
    """Paired samples per arm for a mean gain ``gain`` with paired differences of standard deviation
    ``noise`` to clear ``keep`` standard errors with 80% power; None for a gain not above zero."""
    return ((keep + POWER_Z) * noise / gain) ** 2 if gain > 0 else None


def measure(game_name: str, players: int, decisions: int, samples: int, every: int, seed: int,
            search: str) -> dict[str, Any]:
    """Play the search at ``decisions`` decision points with ``samples`` paired samples per root arm and
    summarise gain, noise and the budget they call for (see the module docstring)."""
    game = get_game(game_name)
    searcher = parse_spec(search, game_name).make(0, np.random.default_rng(0))
    assert isinstance(searcher, ISMCTSStrategy), f"{search!r} is not an ismcts spec"
    width, keep = searcher.width, searcher.keep
    spec = parse_spec(f"{search}:iterations={width * samples}:c=1000000", game_name)
    gains, noises, zs, seconds, iterations = [], [], [], 0.0, 0
    for index, (state, view, options) in enumerate(decision_points(game, players, decisions, every, seed)):
        player = spec.make(0, np.random.default_rng(seed * 7919 + index))
        assert isinstance(player, ISMCTSStrategy)
        player.attach(SearchContext(game, 0, state))
        start = time.perf_counter()
        player.choose(view, options)
        seconds += time.perf_counter() - start
        iterations += player.iterations_run
        root = player.root_samples()
        found, z = held_out_gain(*root), best_z(*root)
        if z is not None:
            zs.append(z)
        if found is not None:
            gains.append(found[0])
            noises.append(found[1])
    gain = float(np.mean(gains)) if gains else float("nan")
    gain_se = float(np.std(gains, ddof=1) / math.sqrt(len(gains))) if len(gains) > 1 else float("nan")
    noise = float(np.sqrt(np.mean(np.square(noises)))) if noises else float("nan")
    ms_per_iteration = 1000.0 * seconds / max(iterations, 1)
    needed = needed_samples(gain, noise, keep)
    return {
        "game": game_name, "players": players, "search": search, "decisions": len(gains),
        "samples_per_arm": samples, "width": width, "keep": keep,
        "held_out_gain": round(gain, 4), "gain_se": round(gain_se, 4),
        "better_arm_share": round(float(np.mean(np.asarray(gains) > 0)), 3) if gains else None,
        "clear_share": round(float(np.mean(np.asarray(zs) > CLEAR_Z)), 3) if zs else None,
        "noise": round(noise, 4), "effect": round(gain / noise, 4) if noise > 0 else None,
        "ms_per_iteration": round(ms_per_iteration, 2),
        "needed_samples": None if needed is None else round(needed, 1),
        "needed_iterations": None if needed is None else math.ceil(width * needed),
        "needed_ms_per_decision": None if needed is None else round(width * needed * ms_per_iteration),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", metavar="GAME")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--samples", type=int, default=100, help="paired samples per root arm")
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--search", default="ismcts", help="the search spec (its width and keep are read)")
    args = parser.parse_args(argv)
    for name in args.games:
        print(json.dumps(measure(name, args.players, args.decisions, args.samples, args.every, args.seed,
                                 args.search)), flush=True)


if __name__ == "__main__":
    main()

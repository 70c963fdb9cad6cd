"""Calibration of the decisions against a margin (``analysis.stats.decide``) with the stopping rule in the
loop (``analysis.stats.sequential``), on synthetic block records whose truth is known.

    .venv/bin/python -m tools.calibrate_decisions [--reps 10000] [--budget 256] [--looks 4] [--margin 0.05]
        [--points 1] [--sections seats fixed spending change groups page]

Every rate is printed with its simulation error (the binomial SE, √(r(1 − r)/reps)).  The checks
(reference/decisive-verdicts.md section 3):

* "fair within δ" claimed when the true largest deviation is exactly δ: at most α, for one position up
  by δ and the rest down evenly, and for one up and one down by δ, at 3 and 4 positions;
* "unfair" claimed when every position is even: at most α;
* coverage of the reported intervals at the stop: the simultaneous (1 − α) intervals, every position at
  once, at least 1 − α (and the (1 − 2α) equivalence intervals per position, at least 1 − 2α);
* stronger play: HOLDS for a real 10-point change in the seat effect (rare), CHANGES for two positions
  tied on both sides with nothing changed (rare, where "which position tops either side" flips half
  the time), and HOLDS when the change is exactly δ (at most α);
* a difference of two groups (a rate with a deal effect; a mean in points, paired): "same" at a true
  difference of δ and "differs" at none, at most α;
* the page: several verdicts, all even, each played to its stop: the rate of any "unfair" on the page,
  with no page rule, and with Holm or Benjamini-Hochberg across the page, at most α for Holm.

The synthetic block (``Design``): ``games`` games, one per cyclic seat shift.  Each block draws a deal,
chances q_b ~ Dirichlet(c · p') over the positions (a deal effect: games of a block are alike), and
each game goes with chance ``forced`` to the position that holds the strongest strategy in that shift
(every position once per block: rotation's variance reduction), else to a draw from q_b; with chance
``ties`` the win is split between two such draws.  p' = (p − forced/k) / (1 − forced), so each
position's expected win share over a block is exactly p.  All draws come from generators seeded by the
scenario's name (``analysis.stats.stats.data_seed``): the same command prints the same figures.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from analysis.stats.decide import core
from analysis.stats.decide.differences import difference_effects
from analysis.stats.decide.seats import change_effects, family_size, seat_effects
from analysis.stats.sequential import DEFAULT_LOOKS, DEFAULT_SPENDING, SPENDING, look_levels, plan_looks
from analysis.stats.stats import data_seed

ALPHA = core.ALPHA
MARGIN = core.SEAT_MARGIN
REPS = 10_000
BUDGET = 256
SECTIONS = ("seats", "fixed", "spending", "change", "groups", "page")


@dataclass(frozen=True)
class Design:
    """A synthetic study's blocks: the true win shares ``shares``, ``games`` per block (default: one per
    position), the chance a game is ``forced`` to the shift's strongest position, the deal's Dirichlet
    ``concentration`` c (within-block correlation 1/(c + 1) of the unforced draws) and the chance of a
    two-way tie."""

    shares: tuple[float, ...]
    games: int = 0
    forced: float = 0.3
    concentration: float = 8.0
    ties: float = 0.1

    @property
    def positions(self) -> int:
        return len(self.shares)

    @property
    def block_games(self) -> int:
        return self.games or self.positions


def patterns(k: int, margin: float = MARGIN) -> dict[str, tuple[float, ...]]:
    """The true shares: ``even``; ``one up`` (position 0 up by δ, the rest down evenly) and ``up and down``
    (position 0 up by δ, position 1 down by δ), whose largest deviation is exactly δ."""
    even = np.full(k, 1.0 / k)
    up = even - margin / (k - 1)
    up[0] = 1.0 / k + margin
    both = even.copy()
    both[0] += margin
    both[1] -= margin
    return {"even": tuple(even), "one up": tuple(up), "up and down": tuple(both)}


def _winners(rng: np.random.Generator, chances: np.ndarray, forced: float, games: int) -> np.ndarray:
    """(reps, blocks, games) winners: game g goes to position g mod k with chance ``forced``, else to a
    draw from the block's chances."""
    reps, blocks, k = chances.shape
    cum = chances.cumsum(axis=-1)
    cum[..., -1] = 1.0
    drawn = (rng.random((reps, blocks, games, 1)) < cum[:, :, None, :]).argmax(axis=-1)
    strongest = np.arange(games) % k
    return np.where(rng.random((reps, blocks, games)) < forced, strongest, drawn)


def draw_blocks(rng: np.random.Generator, reps: int, blocks: int, d: Design) -> np.ndarray:
    """(reps, blocks, positions) summed win shares of ``d``'s synthetic blocks (module docstring)."""
    p, k, forced = (
        np.asarray(d.shares, float),
        d.positions,
        d.forced if d.block_games % d.positions == 0 else 0.0,
    )
    base = (p - forced / k) / (1 - forced)
    if np.any(base <= 0):
        raise ValueError(f"shares {d.shares} are too uneven for forced = {forced}")
    gamma = rng.gamma(d.concentration * base, size=(reps, blocks, k))
    chances = gamma / gamma.sum(axis=-1, keepdims=True)
    first = _winners(rng, chances, forced, d.block_games)
    second = _winners(rng, chances, forced, d.block_games)
    split = rng.random(first.shape) < d.ties
    y = np.empty((reps, blocks, k))
    for i in range(k):
        y[..., i] = (
            np.where(split, 0.5, 1.0) * (first == i) + np.where(split, 0.5, 0.0) * (second == i)
        ).sum(-1)
    return y


@dataclass
class Played:
    """What a stopping rule left per replicate: ``outcome`` (0 undecided, 1 equivalence, 2 difference),
    the ``look`` it stopped at, the blocks it used, whether its simultaneous intervals covered every
    true value (``covered``), per position whether its (1 − 2α) interval did (``eq_covered``), and its
    decisive p values on α's scale (``difference_p``, ``equivalence_p``)."""

    outcome: np.ndarray
    look: np.ndarray
    blocks: np.ndarray
    covered: np.ndarray
    eq_covered: np.ndarray
    difference_p: np.ndarray
    equivalence_p: np.ndarray


def play(
    effects_at: Callable[[int], core.Effects],
    truth: np.ndarray,
    plan: Sequence[int],
    family: int,
    margin: float = MARGIN,
    alpha: float = ALPHA,
    spending: str = DEFAULT_SPENDING,
    levels: Sequence[float] | None = None,
) -> Played:
    """Run the plan's looks on every replicate at once and stop each at its first decided look.
    ``effects_at(n)`` gives the effects on the first n blocks; ``truth`` the true quantities; ``levels``
    the looks' levels where they are not the spending function's (a naive rule: α at every look)."""
    levels = look_levels(plan, alpha, spending) if levels is None else levels
    state: Played | None = None
    for j, (n, level) in enumerate(zip(plan, levels, strict=True)):
        tests = core.decide(effects_at(n), margin, family, alpha, level)
        now = Played(
            tests.outcome,
            np.full(tests.outcome.shape, j),
            np.full(tests.outcome.shape, n),
            np.asarray(((tests.low <= truth) & (truth <= tests.high)).all(axis=-1)),
            (tests.eq_low <= truth) & (truth <= tests.eq_high),
            tests.difference_p,
            tests.equivalence_p,
        )
        if state is None:
            state = now
            continue
        going = state.outcome == 0
        for name in vars(now):
            old = getattr(state, name)
            mask = going.reshape(going.shape + (1,) * (old.ndim - 1))
            setattr(state, name, np.where(mask, getattr(now, name), old))
    assert state is not None
    return state


def seat_study(
    name: str,
    reps: int,
    d: Design,
    plan: Sequence[int],
    margin: float = MARGIN,
    spending: str = DEFAULT_SPENDING,
    levels: Sequence[float] | None = None,
) -> Played:
    """A seat verdict's study of ``d`` under the plan, ``reps`` times (the draws depend on the name, the
    replicates and the plan only, so two rules on one name see the same records)."""
    rng = np.random.default_rng(data_seed("calibrate_decisions.seats", name, reps, plan))
    y = draw_blocks(rng, reps, plan[-1], d)
    truth = np.asarray(d.shares) - 1.0 / d.positions
    return play(
        lambda n: seat_effects(y[:, :n]),
        truth,
        plan,
        family_size(d.positions),
        margin,
        ALPHA,
        spending,
        levels,
    )


def change_study(
    name: str, reps: int, a: Design, b: Design, plan: Sequence[int], margin: float = MARGIN
) -> Played:
    """A stronger-play verdict's study (side a against side b, each ``plan`` blocks), ``reps`` times."""
    rng = np.random.default_rng(data_seed("calibrate_decisions.change", name, reps, plan))
    ya, yb = draw_blocks(rng, reps, plan[-1], a), draw_blocks(rng, reps, plan[-1], b)
    truth = np.asarray(b.shares) - np.asarray(a.shares)
    return play(lambda n: change_effects(ya[:, :n], yb[:, :n]), truth, plan, family_size(a.positions), margin)


def top_flips(name: str, reps: int, a: Design, b: Design, blocks: int) -> np.ndarray:
    """The old reading's contrast: whether the position with the highest win share differs between the
    two sides (the same draws as ``change_study`` at one look of ``blocks``)."""
    rng = np.random.default_rng(data_seed("calibrate_decisions.change", name, reps, (blocks,)))
    ya, yb = draw_blocks(rng, reps, blocks, a), draw_blocks(rng, reps, blocks, b)
    return ya.sum(axis=1).argmax(axis=-1) != yb.sum(axis=1).argmax(axis=-1)


def rate_blocks(
    rng: np.random.Generator, reps: int, blocks: int, games: int, rate: float, icc: float
) -> np.ndarray:
    """(reps, blocks) counts of a yes/no game outcome (a close game) out of ``games`` per block; each
    deal's chance is Beta-distributed with mean ``rate`` and within-block correlation ``icc``."""
    total = 1 / icc - 1
    chance = rng.beta(rate * total, (1 - rate) * total, (reps, blocks))
    return rng.binomial(games, chance).astype(float)


def difference_study(name: str, reps: int, blocks: int, shift: float, margin: float, paired: bool) -> Played:
    """One look at two groups of ``blocks`` blocks of 4 games whose true difference is ``shift``: a rate
    (close games, 30%, deal correlation 0.3) on different blocks, or, ``paired``, a mean in points (a
    skewed winner's margin, mean 6, sd about 5, shared deal effect) on the same blocks."""
    rng = np.random.default_rng(
        data_seed("calibrate_decisions.difference", name, reps, blocks, shift, paired)
    )
    games = np.full((reps, blocks), 4.0)
    if paired:
        deal = rng.gamma(4.0, 1.0, (reps, blocks, 1))
        a = (deal + rng.gamma(2.0, 1.0, (reps, blocks, 4))).sum(-1)
        b = (deal + rng.gamma(2.0, 1.0, (reps, blocks, 4)) + shift).sum(-1)
    else:
        a = rate_blocks(rng, reps, blocks, 4, 0.3, 0.3)
        b = rate_blocks(rng, reps, blocks, 4, 0.3 + shift, 0.3)
    effects = difference_effects(a, b, games, games, paired=paired)
    return play(lambda n: effects, np.asarray([shift]), (blocks,), 1, margin)


def page_claims(reps: int, positions: Sequence[int], plan: Sequence[int], d: Design) -> dict[str, np.ndarray]:
    """A page of verdicts (one per entry of ``positions``, all even, each played to its stop): whether the
    page shows any "unfair" with no page rule, with Holm and with Benjamini-Hochberg across the page."""
    p = np.column_stack(
        [
            seat_study(
                f"page {i} ({k} positions)", reps, replace(d, shares=patterns(k)["even"]), plan
            ).difference_p
            for i, k in enumerate(positions)
        ]
    )
    return {
        "no page rule": np.asarray((p < ALPHA).any(axis=1)),
        "Holm": np.asarray((core.holm_last_axis(p, p.shape[1]) < ALPHA).any(axis=1)),
        "Benjamini-Hochberg": np.asarray((bh_last_axis(p) < ALPHA).any(axis=1)),
    }


def bh_last_axis(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p values along the last axis (the same numbers as statsmodels
    ``multipletests(method="fdr_bh")``)."""
    m = p.shape[-1]
    order = np.argsort(p, axis=-1)
    ranked = np.take_along_axis(p, order, axis=-1) * m / np.arange(1, m + 1)
    stepped = np.minimum(np.minimum.accumulate(ranked[..., ::-1], axis=-1)[..., ::-1], 1.0)
    out = np.empty_like(stepped)
    np.put_along_axis(out, order, stepped, axis=-1)
    return out


def rate(flags: np.ndarray) -> tuple[float, float]:
    """(rate, binomial SE) of a yes/no per replicate."""
    r = float(np.mean(flags))
    return r, math.sqrt(r * (1 - r) / flags.size)


def line(label: str, flags: np.ndarray, bound: str = "") -> str:
    r, se = rate(flags)
    return f"  {label:<58} {100 * r:6.2f}% ± {100 * se:4.2f}  {bound}"


def _outcome_lines(played: Played, claim: str, bound: str, words: tuple[str, str, str]) -> list[str]:
    """The claim's rate (its bound), the other outcomes, the blocks used and the intervals' coverage."""
    index = {words[0]: 0, words[1]: 1, words[2]: 2}
    lines = [line(f"{claim}", played.outcome == index[claim], bound)]
    lines += [line(f"{w}", played.outcome == index[w]) for w in words if w != claim]
    test = played.difference_p if claim == words[2] else played.equivalence_p
    lines.append(line("  its test alone at the stop (p < a, whatever the outcome)", test < ALPHA))
    lines.append(line("simultaneous (1 - a) intervals cover every true value", played.covered, ">= 95%"))
    lines.append(
        line("(1 - 2a) equivalence intervals cover, per position", played.eq_covered.ravel(), ">= 90%")
    )
    lines.append(f"  {'mean blocks used':<58} {played.blocks.mean():7.1f}")
    return lines


def seat_section(reps: int, plan: Sequence[int], margin: float) -> list[str]:
    """Fair at the margin, unfair at even, coverage: 3 and 4 positions, two designs, the stopping rule."""
    out = []
    for k in (3, 4):
        for design_name, base in (
            ("rotation + deal", Design(patterns(k)["even"])),
            ("strong deal, no rotation", Design(patterns(k)["even"], forced=0.0, concentration=2.0)),
        ):
            for pattern, shares in patterns(k, margin).items():
                name = f"{k} positions, {pattern}, {design_name}"
                played = seat_study(name, reps, replace(base, shares=shares), plan, margin)
                claim, bound = ("unfair", "<= 5%") if pattern == "even" else ("fair", "<= 5%")
                out.append(f"{name}:")
                out += _outcome_lines(played, claim, bound, core.OUTCOMES["seats"])
    return out


def fixed_section(reps: int, margin: float) -> list[str]:
    """One look (a fixed sample): at the budget (the sharpest check of the TOST's level) and at few
    blocks (the t reference), 2 to 4 positions; at few blocks beside the Wald t on the same SE, the
    contrast that makes the seat tests score tests."""
    out = []
    for k, blocks, pattern in (
        (2, 256, "one up"),
        (3, 512, "one up"),
        (4, 512, "one up"),
        (4, 512, "even"),
        (2, 20, "even"),
        (4, 20, "even"),
        (4, 15, "even"),
        (4, 10, "even"),
    ):
        d = Design(patterns(k, margin)[pattern], forced=0.0, concentration=2.0)
        name = f"fixed sample, {blocks} blocks, {k} positions, {pattern}, strong deal"
        played = seat_study(name, reps, d, (blocks,), margin)
        claim = "unfair" if pattern == "even" else "fair"
        out.append(f"{name}:")
        out += _outcome_lines(played, claim, "<= 5%", core.OUTCOMES["seats"])
        if blocks < 100:
            out.append(
                line(
                    "  contrast: the Wald t on the same SE claims 'unfair'",
                    wald_unfair(name, reps, d, blocks),
                )
            )
    return out


def wald_unfair(name: str, reps: int, d: Design, blocks: int) -> np.ndarray:
    """Whether the Wald t on the block-total SE (no score test) claims "unfair", on the same draws as
    ``seat_study(name, reps, d, (blocks,))``."""
    rng = np.random.default_rng(data_seed("calibrate_decisions.seats", name, reps, (blocks,)))
    effects = replace(seat_effects(draw_blocks(rng, reps, blocks, d)), n_eff=None, expected=None)
    return core.decide(effects, MARGIN, family_size(d.positions)).outcome == 2


def spending_section(reps: int, plan: Sequence[int], margin: float) -> list[str]:
    """The three spending functions on 4 positions: the worst case for "fair" and the null."""
    out = []
    for rule in (*SPENDING, "naive"):
        for pattern in ("one up", "even"):
            d = Design(patterns(4, margin)[pattern])
            name = f"4 positions, {pattern}"
            if rule == "naive":
                played = seat_study(name, reps, d, plan, margin, levels=[ALPHA] * len(plan))
                bound = "(no bound: alpha at every look)"
            else:
                played = seat_study(name, reps, d, plan, margin, rule)
                bound = "<= 5%"
            claim = "unfair" if pattern == "even" else "fair"
            out.append(f"{name}, {rule} {'rule' if rule == 'naive' else 'spending'}:")
            out += _outcome_lines(played, claim, bound, core.OUTCOMES["seats"])
    return out


def change_section(reps: int, plan: Sequence[int], margin: float) -> list[str]:
    """Stronger play: a real 10-point change, a change of exactly δ, and two tied positions unchanged."""
    even = patterns(3, margin)["even"]
    ten = (even[0] + 0.10, even[1] - 0.05, even[2] - 0.05)
    cases = {
        "a real 10-point change (3 positions)": (Design(ten), Design(even), "holds", "rare"),
        "a change of exactly the margin (3 positions)": (
            Design(patterns(3, margin)["one up"]),
            Design(even),
            "holds",
            "<= 5%",
        ),
        "two positions tied on top, nothing changed": (
            Design((0.4, 0.4, 0.2)),
            Design((0.4, 0.4, 0.2)),
            "changes",
            "<= 5%",
        ),
    }
    out = []
    for name, (a, b, claim, bound) in cases.items():
        played = change_study(name, reps, a, b, plan, margin)
        out.append(f"{name}:")
        out += _outcome_lines(played, claim, bound, core.OUTCOMES["change"])
    for name, (a, b, claim, bound) in cases.items():  # few blocks of search play: one look at 30
        if claim == "holds" and bound == "rare":
            continue
        skewed = (replace(a, forced=0.0, concentration=2.0), replace(b, forced=0.0, concentration=2.0))
        played = change_study(f"{name}, 30 blocks", reps, *skewed, (30,), margin)
        out.append(f"{name}, one look at 30 blocks a side, strong deal:")
        out += _outcome_lines(played, claim, bound, core.OUTCOMES["change"])
    tied = Design((0.4, 0.4, 0.2))
    out.append(
        line(
            "tied positions: the top position differs between sides (old reading)",
            top_flips("tied flips", reps, tied, tied, plan[-1]),
            "about 50%",
        )
    )
    return out


def difference_section(reps: int, margin: float, points: float) -> list[str]:
    """Two groups: a rate on different blocks (margin δ) and a mean in points on the same blocks."""
    out = []
    for label, paired, m, blocks in (
        ("close-game share, different blocks", False, margin, 600),
        ("winner's margin in points, paired blocks", True, points, 120),
    ):
        for truth, claim in ((m, "same"), (0.0, "differs")):
            name = f"{label}, true difference {truth:g}"
            played = difference_study(name, reps, blocks, truth, m, paired)
            out.append(f"{name} ({blocks} blocks a group):")
            out += _outcome_lines(played, claim, "<= 5%", core.OUTCOMES["difference"])
    return out


def page_section(reps: int, plan: Sequence[int]) -> list[str]:
    """Six seat verdicts on a page, all even, each played to its stop."""
    positions = (2, 3, 4, 5, 3, 4)
    claims = page_claims(reps, positions, plan, Design(patterns(3)["even"]))
    out = [
        f"a page of {len(positions)} seat verdicts ({', '.join(map(str, positions))} positions), all even:"
    ]
    bounds = {"no page rule": "(no bound)", "Holm": "<= 5%", "Benjamini-Hochberg": "<= 5% (all nulls true)"}
    out += [line(f"any 'unfair' on the page, {rule}", flags, bounds[rule]) for rule, flags in claims.items()]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=REPS)
    parser.add_argument("--budget", type=int, default=BUDGET, help="blocks at the last look")
    parser.add_argument("--looks", type=int, default=DEFAULT_LOOKS)
    parser.add_argument("--margin", type=float, default=MARGIN)
    parser.add_argument("--points", type=float, default=1.0, help="the winner's-margin check's margin")
    parser.add_argument("--sections", nargs="*", choices=SECTIONS, help="run only these (default: all)")
    args = parser.parse_args(argv)
    plan = plan_looks(args.budget, args.looks)
    levels = ", ".join(f"{x:.2g}" for x in look_levels(plan, ALPHA, DEFAULT_SPENDING))
    print(
        f"python -m tools.calibrate_decisions --reps {args.reps} --budget {args.budget} --looks {args.looks} "
        f"--margin {args.margin:g} --points {args.points:g}"
    )
    print(
        f"alpha {ALPHA}, margin {args.margin:g}; plan {plan} blocks, {DEFAULT_SPENDING} spending: "
        f"levels {levels}; rate ± binomial SE over {args.reps} replicates"
    )
    start = time.perf_counter()
    sections = {
        "seats": (
            "Seat verdicts, stopping rule in the loop",
            lambda: seat_section(args.reps, plan, args.margin),
        ),
        "fixed": ("Seat verdicts, one look", lambda: fixed_section(args.reps, args.margin)),
        "spending": ("Spending functions", lambda: spending_section(args.reps, plan, args.margin)),
        "change": (
            "Stronger play (change between two sides), stopping rule in the loop",
            lambda: change_section(args.reps, plan, args.margin),
        ),
        "groups": ("Two groups, one look", lambda: difference_section(args.reps, args.margin, args.points)),
        "page": ("The page", lambda: page_section(args.reps, plan)),
    }
    for key in args.sections or list(sections):
        title, section = sections[key]
        print(f"\n{title}")
        for text in section():
            print(text, flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

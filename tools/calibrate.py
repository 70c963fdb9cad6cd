"""The long calibration of issue 15: the synthetic checks of ``tests/test_calibration.py`` with more
replicates, and null-certain resamplings of small real runs made with ``skald run``.

    .venv/bin/python -m tools.calibrate [--reps 20000] [--splits 2000] [--runs /tmp/skald-calibrate]
    .venv/bin/python -m tools.calibrate --mode variants [--reps 4000]

``--mode variants``: the checks of ``tests/test_calibration_variants.py`` (the variant comparison's
bias-corrected seat gap and the seats' homogeneity test) and ``tests/test_calibration_categories.py``
(the one-winner-per-game category test on blocks) at ``--reps`` replicates.

Real runs (reference/analysis-methods.md section 1: the block is (run, base_game)):

* DEFF of the seat win rates, of game length and of the mean score by seat, from the run's blocks;
* the seat tests on the run with its seat labels permuted at random within each block (the same
  permutation for every game of a block): every seat then has chance 1/k exactly, while the deal's
  and the rotation's dependence within the block are kept, so every rejection is a false positive;
  and the coverage of 1/k by seat 0's interval on the same relabelled runs;
* two disjoint random halves of the run's blocks (null-certain: one population): the false-positive
  rate of the game-length and seat-0 win-rate comparisons, old (Welch, two-proportion z: every game
  independent) against new (cluster-robust differences).

"old" is what ``analysis`` computed before issue 15 (the functions of ``analysis.stats``), "new" the
functions ``balance`` calls now (``analysis.inference``).  Every draw comes from a fixed seed.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis import balance, inference, stats
from analysis.runs import Runs, open_runs
from sim.cli import _main
from tests import test_calibration as synthetic
from tests import test_calibration_categories as categories
from tests import test_calibration_variants as variants

ALPHA = synthetic.ALPHA


@dataclass(frozen=True)
class RealRun:
    """A small real run: game, players, games, strategies (``--seats rotate``, seed 1)."""

    game: str
    players: int
    games: int
    strategies: str

    @property
    def name(self) -> str:
        return f"{self.game}-{self.players}p-{self.games}g"


REAL_RUNS = (
    RealRun("greenland", 4, 400, "greedy,random,greedy,random"),
    RealRun("knarr", 2, 400, "greedy,random"),
    RealRun("graenaland", 3, 240, "greedy,random,greedy"),
    RealRun("mainland", 4, 400, "greedy,random,greedy,random"),
)


def make_run(spec: RealRun, root: Path, jobs: int) -> Path:
    """The run's folder under ``root``, made with ``skald run`` unless it is there already."""
    out = root / spec.name
    if not (out / "manifest.json").is_file():
        args = ["run", spec.game, "--players", str(spec.players), "--games", str(spec.games)]
        args += ["--strategies", spec.strategies, "--seats", "rotate", "--seed", "1", "--jobs", str(jobs)]
        if _main([*args, "--out", str(out), "--quiet", "--overwrite"]) != 0:
            raise SystemExit(f"skald run failed for {spec.name}")
    return out


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def synthetic_report(reps: int) -> list[str]:
    """The suite's checks at ``reps`` replicates, old beside new."""
    lines = [f"synthetic rotation runs ({reps:,} replicates; old functions on {synthetic.CONTRAST_REPS:,})"]
    for i, (name, design) in enumerate(synthetic.SEAT_DESIGNS.items()):
        r = synthetic.seat_test_rates(np.random.default_rng(1000 + i), reps, design)
        lines.append(
            f"  seat test FPR, {name:<27} new {_pct(r['new'])}  Hotelling {_pct(r['hotelling'])}  "
            f"old chi-square {_pct(r['old'])}"
        )
    g = synthetic.GREENLAND
    checks = (
        ("seat-0 rate coverage, 4p 60 blocks", synthetic.seat_rate_coverage, g),
        ("game-level rate coverage, DEFF 2.9", synthetic.proportion_coverage, g),
        ("mean length coverage, DEFF 2.9", synthetic.mean_coverage, g),
        ("mean length coverage, 8 blocks", synthetic.mean_coverage, synthetic.Design(blocks=8)),
    )
    for i, (label, check, design) in enumerate(checks):
        r = check(np.random.default_rng(2000 + i), reps, design)
        lines.append(f"  {label:<40} new {_pct(r['new'])}  old {_pct(r['old'])}  (mean DEFF {r['deff']:.2f})")
    r = synthetic.paired_rates(np.random.default_rng(3000), reps, g)
    lines.append(
        f"  paired variants FPR, DEFF 2.9            new {_pct(r['new'])}  old Welch {_pct(r['old'])}  "
        f"(coverage of 0: {_pct(r['coverage'])})"
    )
    r = synthetic.split_rates(np.random.default_rng(3001), reps, synthetic.Design(blocks=30))
    lines.append(
        f"  disjoint halves FPR, 15 vs 15 blocks     new {_pct(r['new'])}  old Welch {_pct(r['old'])}"
    )
    for i, (games, k) in enumerate(((240, 4), (60, 3), (400, 4))):
        r = synthetic.one_per_game_rates(np.random.default_rng(4000 + i), reps, games=games, k=k)
        lines.append(
            f"  one category per game FPR, {games} games, k={k}  new {_pct(r['new'])}  "
            f"old 2xk {_pct(r['old'])}"
        )
    return lines


@dataclass(frozen=True)
class Blocks:
    """A run's decided games by block: seat wins ``y`` (B x k), games ``m``, game lengths per block
    (list of arrays) and the seats' scores summed per block (B x k, with their squares)."""

    y: np.ndarray
    m: np.ndarray
    lengths: list[np.ndarray]
    score: np.ndarray
    score_sq: np.ndarray


def run_blocks(runs: Runs) -> Blocks:
    seats = inference.design_seats(runs).filter(~pl.col("excluded")).collect()
    wide = seats.pivot(on="seat", index="block", values=["win_share", "score"], aggregate_function="sum")
    wide = wide.sort("block")
    k = seats["seat"].n_unique()
    y = wide.select([f"win_share_{s}" for s in range(k)]).fill_null(0.0).to_numpy()
    score = wide.select([f"score_{s}" for s in range(k)]).fill_null(0.0).to_numpy()
    sq = (
        seats.with_columns((pl.col("score") ** 2).alias("sq"))
        .pivot(on="seat", index="block", values="sq", aggregate_function="sum")
        .sort("block")
        .select([str(s) for s in range(k)])
        .fill_null(0.0)
        .to_numpy()
    )
    lengths, _ = balance.game_lengths(runs)
    games = (
        inference.design_games(runs)
        .filter(~pl.col("excluded"))
        .collect()
        .join(lengths, on=["run", "game_id"])
    )
    per_block = games.group_by("block").agg(pl.col("length")).sort("block")
    m = per_block["length"].list.len().cast(pl.Float64).to_numpy()
    return Blocks(y, m, [np.asarray(v, dtype=float) for v in per_block["length"].to_list()], score, sq)


def real_report(path: Path, splits: int, contrast: int) -> list[str]:
    """DEFF values, relabelled seat tests and disjoint-half comparisons of one real run."""
    runs = open_runs(path)
    blocks = run_blocks(runs)
    b, k = blocks.y.shape
    length_y = np.array([v.sum() for v in blocks.lengths])
    length_q = np.array([(v**2).sum() for v in blocks.lengths])
    length = inference.cluster_mean(length_y, blocks.m, length_q)
    seat_rates = inference.cluster_proportion(blocks.y.T, blocks.m)
    score = inference.cluster_mean(blocks.score.T, blocks.m, blocks.score_sq.T)
    lines = [
        f"{path.name}: {int(blocks.m.sum())} decided games in {b} blocks of {blocks.m.mean():.1f}",
        f"  DEFF: seat win rates {', '.join(f'{d:.2f}' for d in seat_rates.deff)}; game length "
        f"{float(length.deff):.2f}; mean score by seat {', '.join(f'{d:.2f}' for d in score.deff)}",
    ]
    rng = np.random.default_rng(5000 + b)
    order = np.argsort(rng.random((splits, b, k)), axis=-1)
    relabelled = np.take_along_axis(np.broadcast_to(blocks.y, (splits, b, k)), order, axis=-1)
    m = np.broadcast_to(blocks.m, (splits, b))
    new = inference.shares_test(relabelled, m)
    hotelling = inference.shares_test(relabelled, m, method="hotelling")
    old = np.array([stats.equal_chances_test(w).chi2_p for w in relabelled[:contrast].sum(axis=1)])
    first = inference.cluster_proportion(relabelled[..., 0], m)
    wl, wh = stats.wilson_interval(relabelled[:contrast, :, 0].sum(axis=-1), m[:contrast].sum(axis=-1))
    truth = 1.0 / k
    lines.append(
        f"  seats relabelled within blocks ({splits:,}): seat test FPR new "
        f"{_pct(np.mean(new.p_value < ALPHA))}  Hotelling {_pct(np.nanmean(hotelling.p_value < ALPHA))}  "
        f"old chi-square {_pct(np.mean(old < ALPHA))};"
        f" seat-0 coverage new {_pct(np.mean((first.low <= truth) & (truth <= first.high)))}"
        f"  old Wilson {_pct(np.mean((wl <= truth) & (truth <= wh)))}"
    )
    half = np.zeros((splits, b), dtype=bool)
    np.put_along_axis(half, np.argsort(rng.random((splits, b)), axis=-1)[:, : b // 2], True, axis=-1)
    sides = (half, ~half)
    a_len, b_len = (inference.cluster_mean(length_y * s, blocks.m * s, length_q * s) for s in sides)
    a_win, b_win = (inference.cluster_proportion(blocks.y[:, 0] * s, blocks.m * s) for s in sides)
    new_len = inference.cluster_difference(a_len, b_len)
    new_win = inference.cluster_difference(a_win, b_win)
    old_len, old_cover, old_win = [], [], []
    for s in half[:contrast]:
        x = np.concatenate([v for v, keep in zip(blocks.lengths, s, strict=True) if keep])
        z = np.concatenate([v for v, keep in zip(blocks.lengths, s, strict=True) if not keep])
        comp = stats.two_means(x, z)
        old_len.append(comp.p_value)
        old_cover.append(comp.low <= 0 <= comp.high)
        wins = [blocks.y[s, 0].sum(), blocks.m[s].sum(), blocks.y[~s, 0].sum(), blocks.m[~s].sum()]
        old_win.append(stats.two_proportions(*wins).p_value)
    lines.append(
        f"  disjoint halves ({splits:,}): game length FPR new {_pct(np.nanmean(new_len.p_value < ALPHA))}"
        f"  old Welch {_pct(np.mean(np.asarray(old_len) < ALPHA))} (old interval covers 0: "
        f"{_pct(np.mean(old_cover))}, new {_pct(np.mean((new_len.low <= 0) & (0 <= new_len.high)))});"
        f" seat-0 rate FPR new {_pct(np.nanmean(new_win.p_value < ALPHA))}"
        f"  old z {_pct(np.mean(np.asarray(old_win) < ALPHA))}"
    )
    return lines


def variants_report(reps: int) -> list[str]:
    """The variant comparison's seat checks and the category test at ``reps`` replicates."""
    lines = [f"variant comparison, seats ({reps:,} replicates)"]
    cases = [(name, getattr(variants, name), True) for name in ("SHRINKS", "SMALL", "NULL", "FAIR", "FEW")]
    cases += [(name, getattr(variants, name), False) for name in ("SHRINKS", "NULL")]
    for i, (name, pair, paired) in enumerate(cases):
        r = variants.gap_rates(np.random.default_rng(6000 + i), reps, pair, paired=paired)
        lines.append(
            f"  {name:<8} {'paired' if paired else 'unpaired':<8} true gap diff {r['truth']:+.3f}: plain "
            f"{r['plain']:+.3f}, bias-corrected {r['corrected']:+.3f}; coverage {_pct(r['coverage'])}; "
            f"homogeneity test rejects {_pct(r['rejects'])}"
        )
    for i, (blocks, stick) in enumerate(((60, 0.6), (20, 0.3), (60, 0.0))):
        r = categories.category_rates(np.random.default_rng(7000 + i), reps, blocks=blocks, stick=stick)
        lines.append(
            f"  category test, {blocks} blocks of 4, deal stickiness {stick}: FPR new {_pct(r['new'])}"
            f"  games as independent {_pct(r['old'])}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20_000, help="replicates of each synthetic check")
    parser.add_argument("--splits", type=int, default=2_000, help="relabellings and splits of each real run")
    parser.add_argument(
        "--contrast", type=int, default=1_000, help="replicates of the old (scalar) functions"
    )
    parser.add_argument(
        "--runs", type=Path, default=Path("/tmp/skald-calibrate"), help="where the real runs go"
    )
    parser.add_argument("--jobs", type=int, default=2, help="workers of `skald run`")
    parser.add_argument("--mode", choices=("all", "variants"), default="all", help="which checks to run")
    args = parser.parse_args(argv)
    if args.mode == "variants":
        for line in variants_report(args.reps):
            print(line)
        return 0
    for line in synthetic_report(args.reps):
        print(line)
    print(f"real runs (seed 1, --seats rotate; made once under {args.runs})")
    for spec in REAL_RUNS:
        for line in real_report(make_run(spec, args.runs, args.jobs), args.splits, args.contrast):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

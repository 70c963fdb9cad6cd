"""The Knarr seat and holdings verdicts under a global null, old beside new, with more replicates than
``tests/analysis/games/knarr/test_knarr_holdings.py`` and on real runs made with ``skald run``.

    .venv/bin/python -m tools.calibrate_knarr [--reps 5000] [--splits 2000] [--runs FOLDER]

* synthetic: the suite's holdings design at three strengths of strategy and deal, and its family of
  four seat tests (2 and 3 players, base and skáli);
* real runs (2 and 3 players, base and skáli, ``--seats rotate``, seed 1): the seat labels permuted at
  random within each block (every seat then has chance 1/k exactly, the deal's dependence kept), the
  four runs read as one report: old verdicts ("that seat has an edge": the largest-gap run's best
  seat outside its Wilson interval; "the seats differ by more than chance there": the smallest plain
  chi-square p below 5%) against the new one (Holm over the groups' Rao-Scott tests);
* the real runs' holdings: cards whose Wilson interval lies above 1/players (old) against cards whose
  held-minus-strategy-expected interval lies above 0, and those that survive Benjamini-Hochberg.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy import stats as sps

from analysis.data.runs import open_runs
from analysis.games.knarr import questions as knarr
from analysis.stats import inference, stats
from sim.cli import _main
from tests.analysis.games.knarr import test_knarr_holdings as suite
from tools.calibrate import run_blocks

RUNS = (
    (2, 200, "greedy,random", False),
    (2, 200, "greedy,random", True),
    (3, 180, "greedy,random,greedy", False),
    (3, 180, "greedy,random,greedy", True),
)


def make(root: Path, players: int, games: int, strategies: str, skali: bool) -> Path:
    out = root / f"knarr-{players}p-{'skali' if skali else 'base'}"
    if not (out / "manifest.json").is_file():
        args = [
            "run",
            "knarr",
            "-p",
            str(players),
            "-g",
            str(games),
            "--strategies",
            strategies,
            "--seats",
            "rotate",
            "--seed",
            "1",
            "-j",
            "2",
            "--quiet",
            "--overwrite",
            "--out",
            str(out),
        ]
        if _main([*args, *(["--rule", "skali=true"] if skali else [])]) != 0:
            raise SystemExit(f"skald run failed for {out}")
    return out


def relabelled_verdicts(folders: list[Path], splits: int) -> dict[str, float]:
    rng = np.random.default_rng(15)
    blocks = [run_blocks(open_runs(f)) for f in folders]
    new, old_p, edge = np.zeros(splits, bool), np.ones(splits), np.zeros(splits, bool)
    gap = np.full(splits, -1.0)
    p_all = []
    for b in blocks:
        n_b, k = b.y.shape
        order = np.argsort(rng.random((splits, n_b, k)), axis=-1)
        y = np.take_along_axis(np.broadcast_to(b.y, (splits, n_b, k)), order, axis=-1)
        p_all.append(inference.shares_test(y, np.broadcast_to(b.m, (splits, n_b))).p_value)
        wins, n = y.sum(axis=1), b.m.sum()
        old_p = np.minimum(old_p, sps.chisquare(wins, axis=-1).pvalue)
        rate = wins / n
        low, high = stats.wilson_interval(wins.max(-1), np.full(splits, n))
        wider = rate.max(-1) - rate.min(-1) > gap
        gap = np.where(wider, rate.max(-1) - rate.min(-1), gap)
        edge = np.where(wider, ~((low <= 1 / k) & (1 / k <= high)), edge)
    p = np.column_stack(p_all)
    new = np.nanmin(p, axis=1) * p.shape[1] < 0.05  # Holm's first step: some group is called
    return {
        "new": float(new.mean()),
        "old_min_p": float((old_p < 0.05).mean()),
        "old_edge": float(edge.mean()),
    }


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5000)
    parser.add_argument("--splits", type=int, default=2000)
    parser.add_argument("--runs", type=Path, default=Path("/tmp/skald-calibrate-knarr"))
    args = parser.parse_args(argv)
    print(f"synthetic, global null ({args.reps:,} replicates)")
    designs = {
        "3p, skill 0.5/0/-0.5, deal sd 0.5": suite.KNARR_3P,
        "3p, skill 1/-1/0.5, deal sd 1": suite.HoldDesign(skill=(1.0, -1.0, 0.5), deal_sd=1.0),
        "2p, skill 1/-1, deal sd 0.5": suite.HoldDesign(players=2, skill=(1.0, -1.0)),
    }
    for i, (name, d) in enumerate(designs.items()):
        r = suite.holdings_rates(np.random.default_rng(100 + i), args.reps, d)
        print(
            f"  holdings, {name:<34} some card called: new (BH) {pct(r['new'])}  old (Wilson > 1/players) "
            f"{pct(r['old'])}; per card {pct(r['per_card'])}, coverage of 0 {pct(r['coverage'])}"
        )
    r = suite.seat_verdict_rates(np.random.default_rng(200), args.reps)
    print(
        f"  seat verdict, 4 groups: new (Holm) {pct(r['new'])}  "
        f"old 'seats differ' (min p) {pct(r['old_min_p'])}"
        f"  old 'that seat has an edge' {pct(r['old_edge'])}"
    )
    folders = [make(args.runs, *spec) for spec in RUNS]
    r = relabelled_verdicts(folders, args.splits)
    print(
        f"real runs, seats relabelled within blocks ({args.splits:,}), 4 runs as one report: new (Holm) "
        f"{pct(r['new'])}  old 'seats differ' {pct(r['old_min_p'])}  "
        f"old 'that seat has an edge' {pct(r['old_edge'])}"
    )
    held = knarr.holdings(open_runs(folders))
    for (players, variant), part in held.group_by("players", "variant", maintain_order=True):
        low, _ = stats.wilson_interval(part["win_rate"] * part["held"], part["held"])
        print(
            f"  holdings {players}p {variant}: {part.height} cards; above 1/players (old) "
            f"{int((low > 1 / players).sum())}, held - expected above 0 (uncorrected) "
            f"{int((part['diff_low'] > 0).sum())}, BH over all {part['family'][0]} cards "
            f"{int((part['p_adjusted'] < 0.05).sum())}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The long calibration of the report's statistics: the synthetic checks of
``tests/analysis/test_calibration.py`` with more replicates, and null-certain resamplings of small real
runs made with ``skald run``.

    .venv/bin/python -m tools.calibrate [--reps 20000] [--splits 2000] [--runs /tmp/skald-calibrate]
    .venv/bin/python -m tools.calibrate --mode variants [--reps 4000]
    .venv/bin/python -m tools.calibrate --mode splits [--splits 200] [--runs /tmp/skald-calibrate]

``--mode variants``: the checks of ``tests/analysis/test_calibration_variants.py`` (the variant comparison's
bias-corrected seat gap and the seats' homogeneity test) and ``tests/analysis/test_calibration_categories.py``
(the one-winner-per-game category test on blocks) at ``--reps`` replicates.

``--mode splits``: the verdicts' false-positive rates measured through the analysis functions themselves,
on null-certain splits of the real runs ``SPLIT_RUNS``.  Each split draws half of a run's blocks at random;
the two halves are written as two run folders (``write_half``: each table's parts filtered to the half's
``base_game`` blocks, the run id in the ``run`` column, the parts' metadata and the manifest set to
``<run>-a``/``<run>-b``, a ``calibration_half`` rules entry that ``analysis.data.runs`` names as the variant)
and read back with ``open_runs``, so ``balance.compare_variants`` and, for the 3-player Graenaland run,
``graenaland.three_player`` (half a adjusted, half b unadjusted) compare two variants where no true
effect exists.  The same halves with their seats relabelled within blocks feed
``balance.balance_tests`` (two groups).  "before" is the old verdict (Welch on games, the chi-square on
games, the smallest unadjusted p), "after" the current one (the design-aware test, Holm's p over the
verdict's family); each rate comes with its binomial standard error.

Real runs (reference/analysis-methods.md section 1: the block is (run, base_game)):

* DEFF of the seat win rates, of game length and of the mean score by seat, from the run's blocks;
* the seat tests on the run with its seat labels permuted at random within each block (the same
  permutation for every game of a block): every seat then has chance 1/k exactly, while the deal's
  and the rotation's dependence within the block are kept, so every rejection is a false positive;
  and the coverage of 1/k by seat 0's interval on the same relabelled runs;
* two disjoint random halves of the run's blocks (null-certain: one population): the false-positive
  rate of the game-length and seat-0 win-rate comparisons, old (Welch, two-proportion z: every game
  independent) against new (cluster-robust differences).

"old" is what ``analysis`` computed before its design-aware tests (the functions of ``analysis.stats.stats``),
"new" the functions ``balance`` calls now (``analysis.stats.inference``).  Every draw comes from a fixed seed.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from analysis.data import records
from analysis.data.design import design_games, design_seats
from analysis.data.runs import Runs, open_runs
from analysis.games.graenaland import questions as graenaland
from analysis.questions import balance
from analysis.stats import inference, stats
from sim.cli import _main
from tests.analysis import test_calibration as synthetic
from tests.analysis import test_calibration_categories as categories
from tests.analysis import test_calibration_variants as variants

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
        return f"{self.game}-{self.players}p-{self.games}g-{self.strategies.replace(',', '-')}"


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
    seats = design_seats(runs).filter(~pl.col("excluded")).collect()
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
        design_games(runs)
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


# --------------------------------------------------------------------------- splits of real runs

#: runs the splits mode divides (Greenland 4p at 60 vs 60 games, Knarr 3p,
#: Graenaland 3p, Mainland 4p); the four-player mixes have four distinct rotations, so blocks of 4
SPLIT_RUNS = (
    RealRun("greenland", 4, 120, "greedy,greedy,random,random"),
    RealRun("knarr", 3, 240, "greedy,random,greedy"),
    REAL_RUNS[2],
    RealRun("mainland", 4, 400, "greedy,greedy,random,random"),
)
#: the manifest's rules entry that tells the two halves apart (no game has it, so it changes no records;
#: ``analysis.data.runs.variant_label`` names it as a variant)
HALF_RULE = "calibration_half"
SIDES = ("a", "b")


@dataclass(frozen=True)
class Source:
    """A run folder read once: its manifest, its tables (every part, the parts' metadata kept) and
    each game's block index (into the sorted ``base_game`` values)."""

    manifest: dict
    tables: dict[str, pa.Table]
    blocks: int
    game_ids: np.ndarray
    game_block: np.ndarray

    @classmethod
    def read(cls, folder: Path) -> Source:
        tables = {table: pq.read_table(folder / table) for table in records.TABLES}
        games = tables["games"]
        bases, block = np.unique(games["base_game"].to_numpy(), return_inverse=True)
        order = np.argsort(games["game_id"].to_numpy())
        ids = games["game_id"].to_numpy()[order]
        return cls(json.loads((folder / "manifest.json").read_text()), tables, len(bases), ids, block[order])

    def block_of(self, game_id: np.ndarray) -> np.ndarray:
        return self.game_block[np.searchsorted(self.game_ids, game_id)]


def write_half(source: Source, keep: np.ndarray, side: str, folder: Path, seats: np.ndarray | None) -> None:
    """The run folder of one half, as ``skald run`` would write it: the games of the blocks in ``keep``
    (a bool per block) in each table, their ``run`` column, part metadata and manifest ``run`` set to
    ``<run>-<side>``, the manifest's rules marked with ``HALF_RULE`` (and, for a 3-player Graenaland run,
    the three-player adjustments on for half a and off for half b, so ``graenaland.three_player`` sees
    the two populations it compares), its games and totals recounted.  ``seats`` (blocks x players),
    when given, relabels every seat ``s`` of a block's games ``seats[block, s]`` in the seats table."""
    manifest = copy.deepcopy(source.manifest)
    run = f"{manifest['run']}-{side}"
    manifest["run"] = run
    rules = manifest["config"]["rules"]
    rules[HALF_RULE] = side
    if manifest["config"]["game"] == graenaland.GAME and manifest["config"]["players"] == 3:
        rules[graenaland.THREE_PLAYER_SWITCH] = "on" if side == SIDES[0] else "off"
    written: dict[str, pa.Table] = {}
    for table, frame in source.tables.items():
        ids = frame["game_id"].to_numpy()
        frame = frame.filter(pa.array(keep[source.block_of(ids)]))
        frame = frame.set_column(frame.schema.get_field_index("run"), "run", pa.array([run] * frame.num_rows))
        if table == "seats" and seats is not None:
            block = source.block_of(frame["game_id"].to_numpy())
            relabelled = pa.array(seats[block, frame["seat"].to_numpy()])
            frame = frame.set_column(frame.schema.get_field_index("seat"), "seat", relabelled)
        metadata = {**frame.schema.metadata, b"skald.run": run.encode()}
        out = folder / table
        out.mkdir(parents=True, exist_ok=True)
        pq.write_table(frame.replace_schema_metadata(metadata), out / "part-00000.parquet")
        written[table] = frame
    games = written["games"]
    manifest["config"]["games"] = games.num_rows
    manifest["config"].pop("chunks", None)  # one part of some blocks' games, not the source's chunks
    manifest["totals"] = {
        "games": games.num_rows,
        "decisions": int(pc.sum(games["decisions"]).as_py() or 0),
        "truncated": int(pc.sum(games["truncated"].cast(pa.int64())).as_py() or 0),
        "errored": int(pc.sum(pc.fill_null(games["errored"], False).cast(pa.int64())).as_py() or 0),
        "turns": written["turns"].num_rows,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))


@dataclass
class Tally:
    """How often each of a figure's verdicts came out "significant" over the splits."""

    hits: dict[str, list[bool]] = field(default_factory=dict)
    #: the largest family a Holm correction stood on, per verdict
    family: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, hit: bool) -> None:
        self.hits.setdefault(name, []).append(bool(hit))

    def line(self, label: str, before: str, after: str) -> str:
        """``label  before X% ± se  after Y% ± se  (n splits)``: the rates with binomial standard errors."""
        parts = []
        for side, name in (("before", before), ("after", after)):
            x = np.asarray(self.hits[name], dtype=float)
            rate = float(x.mean())
            se = math.sqrt(rate * (1 - rate) / len(x))
            parts.append(f"{side} {_pct(rate)} ± {100 * se:4.1f}")
        return f"  {label:<50} {parts[0]}  {parts[1]}  ({len(self.hits[after])} splits)"


def _any(p: pl.Series | np.ndarray) -> bool:
    return bool(np.nanmin(np.asarray(p, dtype=float), initial=np.inf) < ALPHA)


def split_once(
    source: Source, keep: np.ndarray, perm: np.ndarray, tmp: Path, name: str, tally: Tally
) -> None:
    """One null-certain split: the two halves written as two variants and read with ``open_runs``, fed to
    ``balance.compare_variants`` (and ``graenaland.three_player`` for a 3-player Graenaland run); the
    same halves with their seats relabelled within blocks (``perm``) fed to ``balance.balance_tests``."""
    plain = [tmp / f"{name}-{side}" for side in SIDES]
    relabelled = [tmp / f"{name}-{side}-relabelled" for side in SIDES]
    for folders, seats in ((plain, None), (relabelled, perm)):
        for folder, side, half in zip(folders, SIDES, (keep, ~keep), strict=True):
            write_half(source, half, side, folder, seats)
    runs = open_runs(plain)
    compared = balance.compare_variants(runs)
    tally.add("variants raw", _any(compared["p_value"]))
    tally.add("variants holm", _any(compared["p_adjusted"]))
    length = compared.filter(pl.col("metric").str.starts_with("game_length")).row(0, named=True)
    tally.add("length new", length["p_value"] < ALPHA)
    tally.add("length new covers", length["diff_low"] <= 0 <= length["diff_high"])
    lengths, _ = balance.game_lengths(runs)
    a, b = (lengths.filter(pl.col("run") == folder.name)["length"].to_numpy() for folder in plain)
    welch = stats.two_means(a, b)
    tally.add("length old", welch.p_value < ALPHA)
    tally.add("length old covers", welch.low <= 0 <= welch.high)
    if source.manifest["config"]["game"] == graenaland.GAME and source.manifest["config"]["players"] == 3:
        three = graenaland.three_player(runs)["compare"]
        tally.add("three raw", _any(three["p_value"]))
        tally.add("three holm", _any(three["p_adjusted"]))
        tally.family["three"] = max(tally.family.get("three", 0), int(three["family"].max()))
    tests = balance.balance_tests(open_runs(relabelled))
    tally.add("seats chi2", _any(tests["chi2_p"]))
    tally.add("seats raw", _any(tests["p_value"]))
    tally.add("seats holm", _any(tests["p_adjusted"]))


def splits_report(path: Path, splits: int, seed: int) -> list[str]:
    """The verdicts' false-positive rates on ``splits`` null-certain splits of one real run into two
    disjoint random halves of its blocks, before (the old Welch test on games; the smallest unadjusted p)
    and after (the design-aware test; Holm's p over the verdict's family)."""
    source = Source.read(path)
    b, k = source.blocks, int(source.manifest["config"]["players"])
    rng = np.random.default_rng(seed)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="skald-splits-") as tmp:
        for _ in range(splits):
            keep = np.zeros(b, dtype=bool)
            keep[rng.permutation(b)[: b // 2]] = True
            perm = np.argsort(rng.random((b, k)), axis=-1)
            split_once(source, keep, perm, Path(tmp), path.name, tally)
    lines = [f"{path.name}: {b} blocks, halves of {b // 2} and {b - b // 2} blocks"]
    lines.append(tally.line("game length FPR (Welch on games / design)", "length old", "length new"))
    lines.append(tally.line("game length 95% interval covers 0", "length old covers", "length new covers"))
    lines.append(tally.line("any variant metric significant (raw / Holm)", "variants raw", "variants holm"))
    if "three raw" in tally.hits:
        label = f"three-player: any of {tally.family['three']} significant (raw / Holm)"
        lines.append(tally.line(label, "three raw", "three holm"))
    lines.append(tally.line("seats relabelled: least-even group (chi2 / Holm)", "seats chi2", "seats holm"))
    lines.append(tally.line("seats relabelled: least-even group (raw / Holm)", "seats raw", "seats holm"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20_000, help="replicates of each synthetic check")
    parser.add_argument(
        "--splits", type=int, help="relabellings and splits of each real run (2,000; 200 in splits mode)"
    )
    parser.add_argument(
        "--contrast", type=int, default=1_000, help="replicates of the old (scalar) functions"
    )
    parser.add_argument(
        "--runs", type=Path, default=Path("/tmp/skald-calibrate"), help="where the real runs go"
    )
    parser.add_argument("--jobs", type=int, default=2, help="workers of `skald run`")
    parser.add_argument(
        "--mode", choices=("all", "variants", "splits"), default="all", help="which checks to run"
    )
    args = parser.parse_args(argv)
    if args.mode == "variants":
        for line in variants_report(args.reps):
            print(line)
        return 0
    if args.mode == "splits":
        splits = 200 if args.splits is None else args.splits
        print(f"null-certain splits of real runs (seed 1, --seats rotate; made once under {args.runs})")
        # statsmodels' Holm (inference.adjust) calls gc.collect(): with the objects alive at this point
        # kept out of the collector's reach, each call takes ~1 ms instead of 0.1-0.2 s
        gc.freeze()
        try:
            for i, spec in enumerate(SPLIT_RUNS):
                for line in splits_report(make_run(spec, args.runs, args.jobs), splits, seed=8000 + i):
                    print(line, flush=True)
        finally:
            gc.unfreeze()
        return 0
    args.splits = 2_000 if args.splits is None else args.splits
    for line in synthetic_report(args.reps):
        print(line)
    print(f"real runs (seed 1, --seats rotate; made once under {args.runs})")
    for spec in REAL_RUNS:
        for line in real_report(make_run(spec, args.runs, args.jobs), args.splits, args.contrast):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

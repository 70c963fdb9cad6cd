"""Knarr questions: is there a seat advantage, how far apart are the scores with and without the
skáli/raid expansion, which destinations and Buildings go with winning once the holders' strategies
are allowed for, and how often raids fire and whom they favour.

Every frame here is per group of ``GROUP`` (players, variant, strategy mix: never pooled across
them), tagged with ``expansion`` ("skáli" or "base", from the rule switch ``skali``), and counts
decided games only: truncated and errored games have no winner and are counted beside the rates
(``excluded``).  The independent unit is the block (``analysis.stats.inference``: one deal replayed under
every seat shift with ``--seats rotate``), so every interval and test is computed from block totals
(the holdings': from a permutation that moves whole blocks) and states its ``blocks``.
``analysis.games.knarr.study`` (``python -m analysis.games.knarr.study FOLDER``) is the plain
per-folder version, and names the cards (``card_names``, ``held_cards``).

Seats win under the round-completion rule (the 40-point trigger ends the game only once the round is
complete, so every seat has had the same number of turns); a tie splits the win (``win_share``).
"""

from __future__ import annotations

import math
from typing import Any, cast

import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Run, Runs
from analysis.games.knarr import study
from analysis.questions import balance
from analysis.stats import inference, stats
from sim.errors import SkaldError

GAME = "knarr"
EXPANSION_SWITCH = "skali"
#: the groups every Knarr estimate is made in (``expansion`` follows from ``variant``)
GROUP: tuple[str, ...] = ("players", "variant", "expansion", "mix")
#: how the holdings' tests are corrected over the cards (``holdings``)
CARD_CORRECTION = "fdr_bh"
MEASURES = {
    "first_minus_second": "winner's margin",
    "first_minus_last": "winner minus last",
    "winning_score": "winning score",
    "rounds": "game length",
}
CARD_KINDS = {"explore": "destination", "develop": "Building"}


def _on(value: Any) -> bool:
    return str(value).lower() in ("true", "on", "1", "yes")


def has_expansion(run: Run) -> bool:
    """Whether the run plays the skáli/raid expansion (rule switch ``skali``)."""
    return _on(run.rules.get(EXPANSION_SWITCH, False))


def _knarr(runs: Runs) -> Runs:
    chosen = runs.only(game=GAME)
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs among the results (games present: {', '.join(runs.games_played)})")
    return chosen


def _expansion(frame: pl.DataFrame | pl.LazyFrame, runs: Runs) -> Any:
    """``frame`` with an ``expansion`` column from each row's ``variant`` (which fixes the rules)."""
    tag = {r.variant: "skáli" if has_expansion(r) else "base" for r in runs}
    return frame.with_columns(
        pl.col("variant").replace_strict(tag, return_dtype=pl.String).alias("expansion")
    )


def _seats(runs: Runs) -> pl.DataFrame:
    """Every seat with its ``block``, ``excluded`` flag and ``expansion``, in the records' order."""
    return _expansion(design_seats(runs), runs).collect()


def _excluded(seats: pl.DataFrame, keys: tuple[str, ...] = GROUP) -> pl.DataFrame:
    """Per group: the truncated or errored games left out."""
    return (
        seats.filter(pl.col("excluded"))
        .group_by(keys)
        .agg(pl.struct("run", "game_id").n_unique().cast(pl.Int64).alias("excluded"))
    )


def _with_excluded(frame: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    return frame.join(_excluded(seats), on=list(GROUP), how="left").with_columns(
        pl.col("excluded").fill_null(0)
    )


def seat_advantage(runs: Runs) -> pl.DataFrame:
    """Per group and seat: decided ``games``, ``wins`` (ties split), ``win_rate`` with its 95% interval
    clustered on blocks (``balance.seat_balance``), ``blocks``, ``excluded``, ``expected`` (1/players)
    and the ``mean_score`` with ``score_low``/``score_high`` (t on blocks - 1 df)."""
    k = _knarr(runs)
    rates = _expansion(balance.seat_balance(k, by=("game", "players", "variant", "mix")), k)
    seats = _seats(k).filter(~pl.col("excluded"))
    scores = inference.means_by(seats, [*GROUP, "seat"], "score").select(
        *GROUP,
        "seat",
        pl.col("mean").alias("mean_score"),
        pl.col("low").alias("score_low"),
        pl.col("high").alias("score_high"),
    )
    return rates.join(scores, on=[*GROUP, "seat"], how="left", maintain_order="left")


def _per_game(runs: Runs) -> pl.DataFrame:
    """Per decided game: its group, ``block``, ``game_seed``, the winner's margin over the runner-up, the
    winner minus last, the winning score and the game length in rounds."""
    seats = _seats(runs).filter(~pl.col("excluded"))
    rounds = (
        runs.turns().group_by("run", "game_id").agg(pl.col("round").max().cast(pl.Float64).alias("rounds"))
    )
    seeds = runs.games().select("run", "game_id", "game_seed")
    score = pl.col("score").sort(descending=True)
    return (
        seats.group_by(*GROUP, "run", "game_id", "block", maintain_order=True)
        .agg(
            (score.get(0) - score.get(1)).cast(pl.Float64).alias("first_minus_second"),
            (pl.col("score").max() - pl.col("score").min()).cast(pl.Float64).alias("first_minus_last"),
            pl.col("score").max().cast(pl.Float64).alias("winning_score"),
        )
        .join(rounds.collect(), on=["run", "game_id"], how="left", maintain_order="left")
        .join(seeds.collect(), on=["run", "game_id"], how="left", maintain_order="left")
    )


def score_spread(runs: Runs) -> pl.DataFrame:
    """Per group and ``measure`` (``MEASURES``: winner's margin over the runner-up, winner minus last,
    winning score, game length in rounds): decided ``games``, ``mean`` with its 95% interval ``low`` and
    ``high`` clustered on blocks (t on blocks - 1 df), ``blocks`` and ``excluded``."""
    k = _knarr(runs)
    games = _per_game(k)
    frames = [
        inference.means_by(games, list(GROUP), m).select(pl.lit(m).alias("measure"), pl.all())
        for m in MEASURES
    ]
    out = pl.concat(frames).with_columns(pl.col("measure").replace_strict(MEASURES).alias("label"))
    return _with_excluded(out, _seats(k)).sort("players", "variant", "mix", "measure")


def expansion_effect(runs: Runs, measure: str = "first_minus_second") -> pl.DataFrame:
    """Per players and mix holding the base game (variant ``defaults``) and an expansion variant: the
    expansion's mean ``measure`` minus the base game's, with a 95% interval and p value paired by block
    where the two share their deals (same seeds and seats), else cluster-robust
    (``balance._design_comparison``); ``games`` and ``blocks`` count both sides."""
    games = _per_game(_knarr(runs))
    rows = []
    for (players, mix), group in games.group_by("players", "mix", maintain_order=True):
        base = group.filter(pl.col("variant") == "defaults")
        if not base.height:
            continue
        for (variant,), other in group.filter(pl.col("expansion") == "skáli").group_by(
            "variant", maintain_order=True
        ):
            effect = stats.two_means(base[measure].to_numpy(), other[measure].to_numpy())
            rows.append(
                {
                    "players": players,
                    "mix": mix,
                    "variant": variant,
                    "measure": measure,
                    "base": float(cast(float, base[measure].mean())),
                    "value": float(cast(float, other[measure].mean())),
                    **balance._design_comparison(base, other, measure, effect),
                }
            )
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def _held(runs: Runs, kind: str) -> pl.DataFrame:
    return study.held_cards(runs.turns(), kind, keys=("run", "game_id"))


def _dense(frame: pl.DataFrame, *columns: str) -> Any:
    """0-based dense codes of ``columns`` in ``frame``, in the order of their values (not of the rows)."""
    key = pl.struct(*columns) if len(columns) > 1 else pl.col(columns[0])
    return frame.select(key.rank("dense").cast(pl.Int64) - 1).to_series().to_numpy()


def _number(x: float) -> float | None:
    """``x``, or None (a null in the frame) where it is nan."""
    return None if math.isnan(x) else float(x)


def _held_rows(
    where: dict[str, Any],
    label: str,
    group: pl.DataFrame,
    wide: pl.DataFrame,
    names: list[str],
    min_games: int,
) -> list[dict[str, Any]]:
    """One group's rows of ``holdings``: each card held by at least ``min_games`` seats, tested by
    ``inference.held_vs_expected``."""
    held = wide.select(names).fill_null(0.0).to_numpy()
    test = inference.held_vs_expected(
        held,
        group["win_share"].to_numpy(),
        _dense(group, "strategy"),
        _dense(group, "block"),
        _dense(group, "run", "game_id"),
    )
    power = inference.detectable_difference(test.se, test.clusters - 1.0)
    return [
        {
            **where,
            "kind": label,
            "card": name,
            "held": int(test.holders[c]),
            "blocks": int(test.clusters[c]),
            "win_rate": float(test.observed[c]),
            "expected": float(test.expected[c]),
            "diff": float(test.estimate[c]),
            "diff_low": _number(test.low[c]),
            "diff_high": _number(test.high[c]),
            "p_value": float(test.p_value[c]),
            "detectable": _number(power[c]),
            "test": test.test,
        }
        for c, name in enumerate(names)
        if test.holders[c] >= min_games
    ]


def holdings(runs: Runs, min_games: int = 10) -> pl.DataFrame:
    """Per group, ``kind`` ("destination" from explore turns, "Building" from develop turns, expansion
    runs only) and card held by at least ``min_games`` decided seats: ``held``, ``blocks``, the holders'
    ``win_rate``, ``expected`` (the mean over the holders of their own strategy's win rate in the group:
    the strategy-adjusted base rate), ``diff`` = win_rate - expected with ``diff_low``/``diff_high``
    and ``p_value`` (``inference.held_vs_expected``: a permutation of who holds the card within each
    strategy, whole blocks and games moved together, exact at any number of holders; the interval is
    the test inverted and is null where no permutation changes the difference), ``detectable`` (the
    smallest difference one test finds with 80% power, from the permutation's spread) and ``even``
    (1/players).

    ``p_adjusted`` is Benjamini-Hochberg's over every card in the frame (``family`` tests,
    ``correction``): a verdict about "which cards" picks from all of them.  Rows: groups in order, then
    kind, then the largest difference first (ties in card order)."""
    k = _knarr(runs)
    seats = (
        _seats(k)
        .filter(~pl.col("excluded"))
        .select(*GROUP, "run", "game_id", "seat", "block", "strategy", "win_share")
    )
    rows = []
    for kind, label in CARD_KINDS.items():
        chosen = k if kind == "explore" else Runs([r for r in k if has_expansion(r)])
        if not len(chosen):
            continue
        cards = _held(chosen, kind).with_columns(pl.lit(1.0).alias("_h"))
        for key, group in seats.filter(pl.col("run").is_in([r.label for r in chosen])).group_by(
            list(GROUP), maintain_order=True
        ):
            wide = group.join(
                cards.pivot(on="card", index=["run", "game_id", "seat"], values="_h", sort_columns=True),
                on=["run", "game_id", "seat"],
                how="left",
                maintain_order="left",
            )
            names = sorted(c for c in wide.columns if c not in group.columns)
            if not names:
                continue
            rows += _held_rows(dict(zip(GROUP, key, strict=True)), label, group, wide, names, min_games)
    if not rows:
        return pl.DataFrame()
    nullable = {c: pl.Float64 for c in ("diff_low", "diff_high", "detectable")}  # null: nothing to compare
    out = pl.DataFrame(rows, schema_overrides=nullable).with_columns((1.0 / pl.col("players")).alias("even"))
    adjusted = inference.adjust(out["p_value"].to_numpy(), CARD_CORRECTION)
    return out.with_columns(
        pl.Series("p_adjusted", adjusted.p_adjusted),
        pl.lit(adjusted.family).alias("family"),
        pl.lit(adjusted.method).alias("correction"),
    ).sort(
        "players",
        "variant",
        "mix",
        "kind",
        "diff",
        "card",
        descending=[False, False, False, False, True, False],
    )


def _raid_seats(runs: Runs) -> pl.DataFrame:
    k = Runs([r for r in _knarr(runs) if has_expansion(r)])
    if not len(k) or not k.has_column("seats", "raids_in_game"):
        return pl.DataFrame()
    return _seats(k)


def raid_frequency(runs: Runs) -> pl.DataFrame:
    """Per expansion group: decided ``games``, mean ``raids_per_game`` with ``low``/``high`` and the
    ``share_with_raid`` (games with a raid) with ``share_low``/``share_high``, both clustered on blocks;
    ``blocks``, ``excluded``."""
    seats = _raid_seats(runs)
    if seats.is_empty():
        return pl.DataFrame()
    games = (
        seats.filter(~pl.col("excluded"))
        .group_by(*GROUP, "run", "game_id", "block", maintain_order=True)
        .agg(pl.col("raids_in_game").first().cast(pl.Float64).alias("raids"))
        .with_columns((pl.col("raids") > 0).cast(pl.Float64).alias("win_share"))  # the share's column
    )
    mean = inference.means_by(games, list(GROUP), "raids").rename(
        {"mean": "raids_per_game", "low": "raids_low", "high": "raids_high"}
    )
    share = inference.proportions_by(games, list(GROUP)).select(
        *GROUP,
        pl.col("win_rate").alias("share_with_raid"),
        pl.col("ci_low").alias("share_low"),
        pl.col("ci_high").alias("share_high"),
    )
    out = mean.select(*GROUP, "games", "blocks", "raids_per_game", "raids_low", "raids_high").join(
        share, on=list(GROUP)
    )
    return _with_excluded(out, seats)


def raid_favour(runs: Runs, by: str = "raid_net") -> pl.DataFrame:
    """Per expansion group and ``by``: ``raid_net`` (raids won minus lost, clipped to -3..3) or
    ``raid_side`` ("won more", "even", "lost more"): decided ``seats``, ``wins`` and ``win_rate`` with
    its 95% interval clustered on blocks, ``blocks`` and ``excluded``."""
    seats = _raid_seats(runs)
    if seats.is_empty():
        return pl.DataFrame()
    net = (pl.col("raids_won") - pl.col("raids_lost")).clip(-3, 3).cast(pl.Int64)
    side = (
        pl.when(net > 0)
        .then(pl.lit("won more"))
        .when(net < 0)
        .then(pl.lit("lost more"))
        .otherwise(pl.lit("even"))
    )
    decided = seats.filter(~pl.col("excluded")).with_columns(net.alias("raid_net"), side.alias("raid_side"))
    out = inference.proportions_by(decided, [*GROUP, by]).rename({"games": "seats"})
    return _with_excluded(out, seats).sort([*GROUP, by])

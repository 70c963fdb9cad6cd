"""Strategy strength: head-to-head win rates, Bradley-Terry ratings, score curves and lead changes.

**Head to head.**  In a multi-player game every pair of seats played by different strategies is
one meeting: the strategy with the better rank is "ahead" (a shared rank counts 1/2 each way).
``head_to_head`` gives, for every ordered pair, how often the first finished ahead of the second,
with a Wilson interval.  Truncated games are left out.

**Rating: Bradley-Terry, fitted by MM iterations (``analysis.stats.stats.bradley_terry``).**  Chosen over
TrueSkill/Elo because the records are a complete batch, not a stream: the Bradley-Terry maximum
likelihood estimate uses all games at once and does not depend on the order in which games were
played (Elo and TrueSkill are online updates tuned for matchmaking, whose result depends on that
order and on tuning constants); Hunter's MM algorithm is a few lines, needs no step size and
increases the likelihood at every step; and the model's P(i ahead of j) = p_i / (p_i + p_j) reads
directly against the head-to-head matrix.  Multi-player results enter by *rank breaking* (every
finished game is split into its pairwise orders), which makes the pairs of one game correlated, so
the intervals come from a bootstrap that resamples whole games, not from the model's own standard
errors.  The bootstrap of each group draws from a generator seeded from the identity of the records
it reads (``stats.data_seed``), over the games in one fixed order, and ``ratings`` keeps its recent
results: the same records give the same intervals in every report and in every section.  Ratings
are shown on the Elo scale (1500 + 400 log10 strength, geometric mean 1500): a 200-point gap means
the stronger one finishes ahead of the weaker about 76% of the time.

**Score curves and lead changes** come from the turns table's ``scores`` list (every seat's score
after each decision).  ``score_curves`` averages each strategy's score at the end of every round
(``round`` column; ``turn`` where a game has no rounds).  ``lead_changes`` counts, per game, how
often the sole leader changed (a tie for the lead keeps the last sole leader).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from analysis.data.design import design_games, design_seats
from analysis.data.runs import Runs, fingerprint, identity, run_id
from analysis.questions.scores import summarize
from analysis.stats import stats

BOOTSTRAP = 200


def pair_outcomes(runs: Runs, by: Sequence[str] = ("game",)) -> pl.DataFrame:
    """One row per game and ordered pair of seats with different strategies: ``ahead`` is 1, 1/2 or 0.
    Sorted by run, game and the two seats."""
    seats = (
        runs.seats()
        .filter(~pl.col("truncated"))
        .select(*dict.fromkeys([*by, "run", "game_id"]), "seat", "strategy", "rank")
    )
    other = seats.select(
        "run",
        "game_id",
        pl.col("seat").alias("seat_b"),
        pl.col("strategy").alias("opponent"),
        pl.col("rank").alias("rank_b"),
    )
    return (
        seats.join(other, on=["run", "game_id"])
        .filter(pl.col("strategy") != pl.col("opponent"))
        .with_columns(
            pl.when(pl.col("rank") < pl.col("rank_b"))
            .then(1.0)
            .when(pl.col("rank") == pl.col("rank_b"))
            .then(0.5)
            .otherwise(0.0)
            .alias("ahead")
        )
        .sort("run", "game_id", "seat", "seat_b")
        .collect()
    )


def head_to_head(runs: Runs, by: Sequence[str] = ("game",)) -> pl.DataFrame:
    """Per group and ordered strategy pair: meetings, ahead (summed), rate, ci_low, ci_high."""
    pairs = pair_outcomes(runs, by)
    keys = [*by, "strategy", "opponent"]
    table = (
        pairs.group_by(keys).agg(pl.len().cast(pl.Int64).alias("meetings"), pl.col("ahead").sum()).sort(keys)
    )
    low, high = stats.wilson_interval(table["ahead"].to_numpy(), table["meetings"].to_numpy())
    return table.with_columns(
        (pl.col("ahead") / pl.col("meetings")).alias("rate"),
        pl.Series("ci_low", low),
        pl.Series("ci_high", high),
    )


def _fit_group(pairs: pl.DataFrame, reps: int, seed: int) -> pl.DataFrame:
    """Ratings of one group's ``pairs`` (with a ``unit`` column naming each game's run by its identifier):
    the games are resampled in the order of (unit, game_id), whatever order the rows came in."""
    pairs = pairs.sort("unit", "game_id", "seat", "seat_b")
    names = sorted(set(pairs["strategy"].to_list()) | set(pairs["opponent"].to_list()))
    k = len(names)
    index = {n: i for i, n in enumerate(names)}
    a = pairs["strategy"].replace_strict(index, return_dtype=pl.Int64).to_numpy()
    b = pairs["opponent"].replace_strict(index, return_dtype=pl.Int64).to_numpy()
    ahead = pairs["ahead"].to_numpy()
    game_keys = (
        pairs.select(pl.struct("unit", "game_id").rank("dense").cast(pl.Int64) - 1).to_series().to_numpy()
    )
    n_games = int(game_keys.max()) + 1 if len(game_keys) else 0
    cell = a * k + b

    def fit(weights: np.ndarray | None) -> np.ndarray:
        w = ahead if weights is None else ahead * weights[game_keys]
        return stats.bradley_terry(np.bincount(cell, weights=w, minlength=k * k).reshape(k, k))

    strength = fit(None)
    rng = np.random.default_rng(seed)
    boot = (
        np.array([fit(rng.poisson(1.0, n_games).astype(float)) for _ in range(reps)]) if n_games > 1 else None
    )
    elo = stats.elo_scale(strength)
    if boot is not None and len(boot):
        low, high = (
            stats.elo_scale(np.quantile(boot, 0.025, axis=0)),
            stats.elo_scale(np.quantile(boot, 0.975, axis=0)),
        )
    else:
        low = high = np.full(k, np.nan)
    meetings = np.bincount(a, minlength=k)
    return pl.DataFrame(
        {
            "strategy": names,
            "strength": strength,
            "rating": elo,
            "rating_low": low,
            "rating_high": high,
            "meetings": meetings.astype(np.int64),
            "games": [
                int(
                    pairs.filter(pl.col("strategy") == n)
                    .select(pl.struct("run", "game_id").n_unique())
                    .item()
                )
                for n in names
            ],
        }
    )


#: the last few ``ratings`` tables, by what they were computed from (``_ratings_key``)
_RATINGS: dict[tuple, pl.DataFrame] = {}


def _ratings_key(runs: Runs, by: Sequence[str], reps: int, seed: int | None) -> tuple:
    """What a ratings table is computed from: the kind of ``Runs`` (a subclass may add columns), every
    run's label, folder and ``runs.fingerprint``, and the arguments."""
    folders = tuple((r.label, str(r.path.resolve()), fingerprint(r.path, r.manifest)) for r in runs)
    return (type(runs), folders, tuple(by), reps, seed)


def ratings(
    runs: Runs, by: Sequence[str] = ("game",), reps: int = BOOTSTRAP, seed: int | None = None
) -> pl.DataFrame:
    """Bradley-Terry rating per group and strategy (Elo scale) with a 95% game-bootstrap interval.

    Columns: group keys, strategy, strength (geometric mean 1), rating, rating_low, rating_high,
    meetings (pairwise comparisons), games.  Sorted by rating, best first.

    Each group's bootstrap is seeded with ``seed``, by default ``stats.data_seed`` of the identity of
    the group's runs, the group and ``reps``.  The table is computed once for the same records and
    arguments and then reused, so every section that shows a rating shows the same interval.
    """
    key = _ratings_key(runs, by, reps, seed)
    if key not in _RATINGS:
        if len(_RATINGS) >= 8:
            _RATINGS.pop(next(iter(_RATINGS)))
        _RATINGS[key] = _ratings(runs, by, reps, seed)
    return _RATINGS[key]


def _ratings(runs: Runs, by: Sequence[str], reps: int, seed: int | None) -> pl.DataFrame:
    ids = {r.label: run_id(r) for r in runs}
    pairs = pair_outcomes(runs, by).with_columns(pl.col("run").replace_strict(ids).alias("unit"))
    tables = []
    for key, frame in pairs.group_by(list(by), maintain_order=True):
        labels = set(frame["run"].unique().to_list())
        group_seed = (
            stats.data_seed(identity(runs, labels), "strength.ratings", list(by), list(key), reps)
            if seed is None
            else seed
        )
        table = _fit_group(frame, reps, group_seed)
        tables.append(table.with_columns(*[pl.lit(v).alias(c) for c, v in zip(by, key, strict=True)]))
    if not tables:
        return pl.DataFrame()
    return (
        pl.concat(tables)
        .select(*by, pl.exclude(*by))
        .sort([*by, "rating"], descending=[False] * len(by) + [True])
    )


def _x_column(runs: Runs) -> str:
    return "round" if runs.has_column("turns", "round") else "turn"


def score_curves(
    runs: Runs,
    by: Sequence[str] = ("game", "players", "strategy"),
    x: str | None = None,
    min_share: float = 0.5,
) -> pl.DataFrame:
    """Mean score per group at the end of each ``x`` (``round`` when recorded, else ``turn``), with interval.

    Games end at different rounds, so late rounds rest on the few long games: only the ``x`` values
    that at least ``min_share`` of a group's games reach are kept (0 keeps all).
    """
    x = x or _x_column(runs)
    last = (
        runs.turns()
        .group_by("run", "game_id", x)
        .agg(pl.col("scores").sort_by("turn").last())
        .with_columns(pl.int_ranges(0, pl.col("scores").list.len()).alias("seat"))
        .explode("scores", "seat")
        .rename({"scores": "score_now"})
    )
    seats = design_seats(runs).select(
        "run", "game_id", "seat", "strategy", "game", "players", "variant", "mix", "truncated", "block"
    )
    # one order for the sums, whatever the join gave (collected: a lazy sort before a group_by is dropped)
    frame = (
        last.join(seats, on=["run", "game_id", "seat"])
        .filter(~pl.col("truncated"))
        .sort("run", "game_id", "seat", x)
        .collect()
    )
    table = summarize(frame, "score_now", [*by, x])
    if min_share > 0 and table.height:
        table = table.filter(pl.col("n") >= min_share * pl.col("n").max().over(list(by)))
    return table.rename({x: "x"}).with_columns(pl.lit(x).alias("x_name"))


def leaders(turns: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Add ``leader``: the seat with the strictly highest score after each decision, -1 on a tie for the
    lead."""
    lazy = turns.lazy() if isinstance(turns, pl.DataFrame) else turns
    top = pl.col("scores").list.max()
    n_top = pl.col("scores").list.eval(pl.element() == pl.element().max()).list.sum()
    return lazy.with_columns(
        pl.when(n_top == 1)
        .then(pl.col("scores").list.arg_max().cast(pl.Int64))
        .otherwise(-1)
        .alias("leader"),
        top.alias("top_score"),
    )


def count_lead_changes(
    turns: pl.LazyFrame | pl.DataFrame, keys: Sequence[str] = ("run", "game_id")
) -> pl.DataFrame:
    """Per game (``keys``): ``lead_changes`` (times the sole leader changed) and ``leaders`` (distinct
    sole leaders)."""
    keys = list(keys)
    sole = leaders(turns).filter(pl.col("leader") >= 0).sort([*keys, "turn"])
    changes = (
        sole.with_columns(
            (pl.col("leader") != pl.col("leader").shift(1).over(keys)).fill_null(False).alias("_chg")
        )
        .group_by(keys)
        .agg(
            pl.col("_chg").sum().cast(pl.Int64).alias("lead_changes"),
            pl.col("leader").n_unique().cast(pl.Int64).alias("leaders"),
        )
    )
    every = (turns.lazy() if isinstance(turns, pl.DataFrame) else turns).select(keys).unique()
    return (
        every.join(changes, on=keys, how="left")
        .with_columns(pl.col("lead_changes").fill_null(0), pl.col("leaders").fill_null(0))
        .sort(keys)
        .collect()
    )


def lead_changes(runs: Runs, by: Sequence[str] = ("game", "players")) -> pl.DataFrame:
    """Lead changes per game summarised per group, with ``none`` = share of games whose sole leader
    never changed."""
    games = design_games(runs).filter(~pl.col("truncated"))
    games = games.select("run", "game_id", "block", *by)
    per_game = count_lead_changes(runs.turns().select("run", "game_id", "turn", "scores")).join(
        games.collect(), on=["run", "game_id"]
    )
    table = summarize(per_game, "lead_changes", by)
    none = per_game.group_by(list(by)).agg((pl.col("lead_changes") == 0).mean().alias("none"))
    return table.join(none, on=list(by), how="left")

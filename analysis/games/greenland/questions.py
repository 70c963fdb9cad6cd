"""Greenland questions: how often each tribe wins and survives (the history says only the
Thule survived), what converting to monotheism does, how far apart the scores are, how long games last
and how often (and when) tribes die out.

Every function reads the Greenland runs of a ``Runs`` set and returns a tidy polars DataFrame, each row
tagged with ``run``, ``players``, ``variant`` (rule switches off their defaults), ``conversion`` (the
``conversion`` switch: ``no_elders`` is the rulebook's, ``any`` the what-if) and ``mix`` (the strategies,
sorted, joined by " + ").  Truncated games (decision cap or an errored strategy) have no winner and no
meaningful end state: they are left out and counted in ``game_length``.

Records used (per-seat part columns, float64 in the ``seats`` table; see ``sim/games/greenland/game.py``):

* ``tribe``: index into ``sim.games.greenland.data.TRIBES`` (Tunit, Norse, Sea Sámi, Thule);
* ``survived``: 1 when the tribe is alive at the end; ``generation_died``: the generation it died out in
  (-1 when it did not);
* ``converted``: the generation the tribe converted to monotheism (-1 or 0 when it never did; read as
  "converted" when above 0); ``monotheist``: 1 when it ends monotheist;
* ``generations``: the generation the game ended in (the same for every seat of a game).

Intervals are 95% and know the design (``analysis.stats.inference``): the independent unit is the block (a
rotation block replays one deal under every seat shift; else one game).  Rates take the clustered
Wilson interval, means the block-total t interval (``scores.summarize``), the paired conversion
comparison t on the blocks' differences; the tribe tests take each game's seated tribes as given
(``inference.category_wins``).  The within-strategy conversion split (an association) keeps Wilson and
Newcombe intervals on seat-games.

The tribes are also decided against the report's margin δ (``analysis.questions.balance.seat_margin``), as the
seats are (``tribe_decision``, ``analysis.stats.decide.seat_decision``; docs/decisions.md): fair within δ
where every tribe's share of the wins is shown within δ of its even share, unfair where one is shown to
differ, else undecided with the games that would decide it.  A tribe's even share is what its seats give under
equal chances: 1/players of each game it is seated in, over all the games' wins (a quarter for each of
four tribes, whatever the player count, when the deals seat every tribe equally often).  The decision
takes each block's seated tribes as given, as the tests do (``tribe_blocks``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Run, Runs
from analysis.questions.balance import DECISION_COLUMNS, decision_columns, seat_margin
from analysis.questions.scores import summarize
from analysis.stats import inference, stats
from analysis.stats.decide import Decision, seat_decision
from sim.errors import SkaldError

GAME = "greenland"
CONVERSION_SWITCH = "conversion"
CONVERSION_TEXT = "no_elders"  # the rulebook's reading (line 27), the switch's default
COLUMNS = ("tribe", "survived", "generation_died", "converted", "monotheist", "generations")
#: display names of the tribes, by their record names (``TRIBES``)
TRIBE_NAMES = {"tunit": "Tunit", "norse": "Norse", "sami": "Sea Sámi", "thule": "Thule"}
THULE = "Thule"
TAGS = ("run", "players", "variant", "conversion", "mix")
SPREAD_MEASURES = ("first_minus_second", "first_minus_last", "winning_score", "mean_score")


def tribe_names() -> list[str]:
    """Display names by tribe index (the game's ``TRIBES`` order)."""
    try:
        from sim.games.greenland.data import TRIBES  # guarded: the records read without the game
    except Exception:  # the game not importable: the record order of the rulebook's placards
        TRIBES = ("tunit", "norse", "sami", "thule")
    return [TRIBE_NAMES.get(t, str(t).capitalize()) for t in TRIBES]


def conversion_rule(run: Run) -> str:
    """The run's ``conversion`` switch (the rulebook's ``no_elders`` when the manifest lacks it)."""
    return str(run.rules.get(CONVERSION_SWITCH, CONVERSION_TEXT))


def _greenland(runs: Runs) -> Runs:
    chosen = runs.only(game=GAME)
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs among the results (games present: {', '.join(runs.games_played)})")
    missing = [c for c in COLUMNS if not chosen.has_column("seats", c)]
    if missing:
        raise SkaldError(f"the {GAME} records lack the seats columns {', '.join(missing)}")
    return chosen


def _parts_key(runs: Runs) -> tuple:
    """What the seat frame of ``runs`` is read from: each run's label and its Parquet parts (name, size,
    modification time), so a rewritten folder is read again."""
    key = []
    for r in runs:
        parts = [
            (p.name, p.stat().st_size, p.stat().st_mtime_ns)
            for table in ("games", "seats")
            for p in sorted((r.path / table).glob("*.parquet"))
        ]
        key.append((r.label, str(r.path.resolve()), conversion_rule(r), tuple(parts)))
    return tuple(key)


_SEATS: dict[tuple, pl.DataFrame] = {}


def seats(runs: Runs) -> pl.DataFrame:
    """One row per seat of every decided Greenland game: the run tags, ``game_id``, ``seat``, ``strategy``,
    ``tribe`` (display name), ``score``, ``win_share``, ``survived`` (bool), ``generation_died`` (Int64,
    -1 alive), ``converted`` (bool), ``converted_in`` (generation, -1 never), ``monotheist`` (bool) and
    ``generations`` (Int64).  The frame of the last few run sets is kept (every section reads it)."""
    g = _greenland(runs)
    key = _parts_key(g)
    if key not in _SEATS:
        if len(_SEATS) >= 4:
            _SEATS.pop(next(iter(_SEATS)))
        _SEATS[key] = _read_seats(g)
    return _SEATS[key]


def _read_seats(g: Runs) -> pl.DataFrame:
    names = tribe_names()
    conversion = {r.label: conversion_rule(r) for r in g}
    frame = (
        design_seats(g)
        .filter(~pl.col("truncated"))
        .select(
            "run",
            "block",
            "players",
            "variant",
            "mix",
            "game_id",
            "seat",
            "strategy",
            pl.col("tribe").round(0).cast(pl.Int64).alias("tribe_index"),
            "score",
            "win_share",
            (pl.col("survived") > 0.5).alias("survived"),
            pl.col("generation_died").round(0).cast(pl.Int64),
            (pl.col("converted") > 0).alias("converted"),
            pl.when(pl.col("converted") > 0)
            .then(pl.col("converted").round(0).cast(pl.Int64))
            .otherwise(-1)
            .alias("converted_in"),
            (pl.col("monotheist") > 0.5).alias("monotheist"),
            pl.col("generations").round(0).cast(pl.Int64),
        )
        .collect()
    )
    return frame.with_columns(
        pl.col("run").replace_strict(conversion, return_dtype=pl.String).alias("conversion"),
        pl.col("tribe_index")
        .map_elements(lambda i: names[i] if 0 <= i < len(names) else f"tribe {i}", return_dtype=pl.String)
        .alias("tribe"),
    ).select(*TAGS, pl.all().exclude(*TAGS))


def with_wilson(frame: pl.DataFrame, hits: str, n: str, low: str, high: str) -> pl.DataFrame:
    lo, hi = stats.wilson_interval(frame[hits].to_numpy(), frame[n].to_numpy())
    return frame.with_columns(pl.Series(low, lo, dtype=pl.Float64), pl.Series(high, hi, dtype=pl.Float64))


def _rates(frame: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Per ``keys``: seats, wins, survivors, mean score and 1/players, with the win and survival rates'
    intervals clustered on the blocks (``inference.proportions_by``: a rotation block replays one deal)."""
    out = (
        frame.group_by(keys)
        .agg(
            pl.len().cast(pl.Int64).alias("seats"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("survived").sum().cast(pl.Int64).alias("survivors"),
            pl.col("score").mean().alias("mean_score"),
            (1.0 / pl.col("players")).mean().alias("expected"),
        )
        .with_columns(
            (pl.col("wins") / pl.col("seats")).alias("win_rate"),
            (pl.col("survivors") / pl.col("seats")).alias("survival_rate"),
        )
    )
    wins = inference.proportions_by(frame, keys, "win_share").select(*keys, "ci_low", "ci_high", "blocks")
    alive = frame.with_columns(pl.col("survived").cast(pl.Float64))
    alive = inference.proportions_by(alive, keys, "survived")
    alive = alive.select(*keys, pl.col("ci_low").alias("surv_low"), pl.col("ci_high").alias("surv_high"))
    return out.join(wins, on=list(keys), how="left").join(alive, on=list(keys), how="left").sort(keys)


def outcomes(runs: Runs, by: str = "tribe") -> pl.DataFrame:
    """Per run and ``by`` ("tribe" or "strategy"): ``seats`` (seat-games), ``wins`` (summed shares),
    ``win_rate`` with ``ci_low``/``ci_high``, ``survivors`` and ``survival_rate`` with
    ``surv_low``/``surv_high``, ``mean_score`` and ``expected`` (1/players)."""
    if by not in ("tribe", "strategy"):
        raise SkaldError(f"outcomes by must be 'tribe' or 'strategy', not {by!r}")
    return _rates(seats(runs), [*TAGS, by])


def pooled_outcomes(runs: Runs, by: str = "tribe") -> pl.DataFrame:
    """As ``outcomes`` but pooled over the runs of each ``variant`` (every player count together):
    ``players`` is the smallest count, ``expected`` the mean of 1/players over the seat-games, and
    ``chi2_p`` tests whether the ``by`` groups share one survival rate and ``win_chi2_p`` whether they
    win equally often, each given who sits in each game (``inference.category_wins``: survivors or the
    winner fall on a random set of each game's seats; the games of a rotation block share a deal)."""
    frame = seats(runs)
    out = _rates(frame.with_columns(pl.col("players")), ["variant", "conversion", by])
    counts = frame.group_by("variant").agg(pl.col("players").unique().sort().alias("counts"))
    out = out.join(
        counts.with_columns(pl.col("counts").list.eval(pl.element().cast(pl.String)).list.join(", ")),
        on="variant",
    )
    tests = []
    for (variant,), part in out.group_by(["variant"], maintain_order=True):
        chosen = frame.filter(pl.col("variant") == variant)
        _, p_surv, _ = inference.category_wins(chosen, by, "survived")
        _, p_win, _ = inference.category_wins(chosen, by)
        tests.append({"variant": variant, "chi2_p": p_surv, "win_chi2_p": p_win})
    return out.join(
        pl.DataFrame(tests, schema={"variant": pl.String, "chi2_p": pl.Float64, "win_chi2_p": pl.Float64}),
        on="variant",
    ).sort("variant", by)


def tribe_tests(runs: Runs) -> pl.DataFrame:
    """Per run: do the tribes share one survival rate (``surv_chi2_p``) and win equally often
    (``win_chi2_p``), given who sits in each game (``inference.category_wins``: each tribe is seated at
    most once a game, so its survivors, or its winner, fall on a random set of the game's seats under
    equal chances; Rao-Scott corrected where rotation blocks replay a deal)?  nan where every tribe
    always or never survives.  ``games`` and ``blocks`` count what the tests stand on.  Each run is also
    decided against the report's margin (``tribe_decision_fields``: ``balance.DECISION_COLUMNS``)."""
    frame = seats(runs)
    rates = outcomes(runs, "tribe")
    rows = []
    for keys, part in rates.group_by(list(TAGS), maintain_order=True):
        chosen = frame.filter(pl.col("run") == keys[0])
        _, p_surv, _ = inference.category_wins(chosen, "tribe", "survived")
        _, p_win, _ = inference.category_wins(chosen, "tribe")
        rows.append(
            {
                **dict(zip(TAGS, keys, strict=True)),
                "games": chosen["game_id"].n_unique(),
                "blocks": chosen["block"].n_unique(),
                "tribes": part.height,
                "surv_chi2_p": p_surv,
                "win_chi2_p": p_win,
                **tribe_decision_fields(chosen),
            }
        )
    return pl.DataFrame(rows, infer_schema_length=None)


def tribe_blocks(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """One group's decided seats (``seats`` rows) as block matrices: ``wins[b, i]`` tribe i's summed win
    shares in block b (ties split), ``even[b, i]`` its wins there under equal chances (each game's wins
    fall on its seats alike: the game's wins / players for each seat the tribe holds), ``total[b]`` the
    block's wins (its decided games, one win each), and the tribes seated at least once, in the game's
    order.  Each row of ``even`` sums to ``total``."""
    names = tribe_names()
    present = set(frame["tribe"].to_list())
    tribes = [t for t in names if t in present] + sorted(present - set(names))
    game = ["run", "game_id"]
    per_seat = frame.with_columns((pl.col("win_share").sum().over(game) / pl.col("players")).alias("_even"))
    cells = per_seat.group_by("block", "tribe").agg(
        pl.col("win_share").sum().alias("_wins"), pl.col("_even").sum()
    )
    blocks = sorted(set(frame["block"].to_list()))
    row = {b: i for i, b in enumerate(blocks)}
    col = {t: i for i, t in enumerate(tribes)}
    wins = np.zeros((len(blocks), len(tribes)))
    even = np.zeros_like(wins)
    r = np.array([row[b] for b in cells["block"]], dtype=int)
    c = np.array([col[t] for t in cells["tribe"]], dtype=int)
    wins[r, c] = cells["_wins"].to_numpy()
    even[r, c] = cells["_even"].to_numpy()
    return wins, even, even.sum(axis=1), tribes


def tribe_decision(frame: pl.DataFrame, margin: float | None = None) -> Decision | None:
    """Is every tribe's share of the wins within ``margin`` (default: the report's,
    ``balance.seat_margin``) of its even share?  ``seat_decision`` on one group's ``tribe_blocks``, each
    tribe's ``expected`` share its even wins over all the wins (not 1/k: a tribe seated in fewer games
    has less to win).

    The rows decided are each block's wins minus its even wins plus the tribe's overall even share of
    the block's wins (the same estimates and sums), so the standard errors take each block's seated
    tribes as given, as the tests of ``tribe_tests`` do: with fewer seats than tribes a tribe sits out
    some deals, and counting those zeros as chance would ask for about twice the games at 2 players.
    None without two tribes or a decided game."""
    wins, even, total, tribes = tribe_blocks(frame)
    if len(tribes) < 2 or not (total > 0).any():
        return None
    expected = even.sum(axis=0) / total.sum()
    seated = wins - even + total[:, None] * expected
    margin = seat_margin() if margin is None else margin
    return seat_decision(seated, margin, labels=tribes, games=total, expected=expected)


#: how ``tribe_decision`` tests, in words (the seat decision's test, given the seated tribes)
TRIBE_DECISION_TEST = (
    "score test on each tribe's share of the wins at n_eff = n/DEFF, t on B-1 df (Wilson interval), "
    "given each block's seated tribes"
)


def tribe_decision_fields(frame: pl.DataFrame) -> dict[str, Any]:
    """``balance.DECISION_COLUMNS`` of one group's ``tribe_decision``: the outcome and the margin, the
    decisive tribe with its share of the wins and the interval and p of the statistic the decision rests
    on (the simultaneous interval and Holm's p for "unfair", else the widest (1 − 2α) interval and the
    intersection-union p), its even share, whether an unfair interval lies beyond the margin, the
    half-width and, undecided, the games that would decide it.  None throughout without a decision."""
    decision = tribe_decision(frame)
    if decision is None:
        return dict.fromkeys(DECISION_COLUMNS)
    return decision_columns(decision, TRIBE_DECISION_TEST)


def thule_verdict(pooled: pl.DataFrame) -> dict[str, Any]:
    """Does the game agree with the history (only the Thule survived)?  From ``pooled_outcomes`` rows of
    one variant: ``verdict`` is

    * ``agrees``: the Thule survive most often and their interval lies above every other tribe's;
    * ``leans``: the Thule survive most often, but some interval overlaps theirs;
    * ``no_edge``: another tribe survives most often, with overlapping intervals;
    * ``disagrees``: some tribe's interval lies wholly above the Thule's;
    * ``no_thule``: no Thule seats.

    Also ``thule`` (their row), ``best`` (the tribe surviving most often), ``others_low``/``others_high``
    (the lowest and highest survival rate of the other tribes)."""
    rows = pooled.sort("survival_rate", descending=True).to_dicts()
    thule = next((r for r in rows if r["tribe"] == THULE), None)
    others = [r for r in rows if r["tribe"] != THULE]
    if thule is None or not others:
        return {"verdict": "no_thule", "thule": thule, "best": rows[0] if rows else None}
    best = rows[0]
    if any(o["surv_low"] > thule["surv_high"] for o in others):
        verdict = "disagrees"
    elif best["tribe"] != THULE and best["survival_rate"] > thule["survival_rate"]:
        verdict = "no_edge"
    elif all(thule["surv_low"] > o["surv_high"] for o in others):
        verdict = "agrees"
    else:
        verdict = "leans"
    return {
        "verdict": verdict,
        "thule": thule,
        "best": best,
        "others_low": min(o["survival_rate"] for o in others),
        "others_high": max(o["survival_rate"] for o in others),
    }


# --------------------------------------------------------------------------- conversion


def _diff_rows(x_a: float, n_a: float, x_b: float, n_b: float) -> dict[str, float]:
    c = stats.two_proportions(x_a, n_a, x_b, n_b)
    return {"diff": c.estimate, "diff_low": c.low, "diff_high": c.high, "p_value": c.p_value}


def conversion_split(runs: Runs) -> pl.DataFrame:
    """Per run and strategy, the seats that converted to monotheism against those that did not:
    ``seats``, ``converted`` and ``not_converted`` (they sum to ``seats``), ``converted_share``;
    ``win_conv``/``win_not`` (win rates) with Wilson intervals, ``diff`` = converted minus not with its
    Newcombe interval ``diff_low``/``diff_high`` and two-proportion ``p_value`` (nan where a group is empty);
    ``surv_conv``/``surv_not`` (survival rates), ``score_conv``/``score_not`` (mean scores) and
    ``mean_converted_in`` (the generation of conversion)."""
    frame = seats(runs)
    out = (
        frame.group_by([*TAGS, "strategy"])
        .agg(
            pl.len().cast(pl.Int64).alias("seats"),
            pl.col("converted").sum().cast(pl.Int64).alias("converted"),
            pl.col("win_share").filter(pl.col("converted")).sum().alias("wins_conv"),
            pl.col("win_share").filter(~pl.col("converted")).sum().alias("wins_not"),
            pl.col("survived").filter(pl.col("converted")).mean().alias("surv_conv"),
            pl.col("survived").filter(~pl.col("converted")).mean().alias("surv_not"),
            pl.col("score").filter(pl.col("converted")).mean().alias("score_conv"),
            pl.col("score").filter(~pl.col("converted")).mean().alias("score_not"),
            pl.col("converted_in").filter(pl.col("converted")).mean().alias("mean_converted_in"),
        )
        .with_columns((pl.col("seats") - pl.col("converted")).alias("not_converted"))
        .with_columns(
            (pl.col("converted") / pl.col("seats")).alias("converted_share"),
            pl.when(pl.col("converted") > 0)
            .then(pl.col("wins_conv") / pl.col("converted"))
            .alias("win_conv"),
            pl.when(pl.col("not_converted") > 0)
            .then(pl.col("wins_not") / pl.col("not_converted"))
            .alias("win_not"),
        )
        .sort([*TAGS, "strategy"])
    )
    out = with_wilson(out, "wins_conv", "converted", "conv_low", "conv_high")
    out = with_wilson(out, "wins_not", "not_converted", "not_low", "not_high")
    diffs = [
        _diff_rows(r["wins_not"], r["not_converted"], r["wins_conv"], r["converted"]) for r in out.to_dicts()
    ]
    return (
        out.with_columns(
            *[
                pl.Series(k, [d[k] for d in diffs], dtype=pl.Float64)
                for k in ("diff", "diff_low", "diff_high", "p_value")
            ]
        )
        .with_columns(
            pl.when(pl.col("converted") > 0).then(pl.col(c)).otherwise(None).alias(c)
            for c in ("conv_low", "conv_high")
        )
        .with_columns(
            pl.when(pl.col("not_converted") > 0).then(pl.col(c)).otherwise(None).alias(c)
            for c in ("not_low", "not_high")
        )
    )


#: what makes two runs a pair for the conversion comparison: everything but the conversion switch
_PAIR_KEYS = ("players", "strategies", "seats", "seed", "games", "max_decisions")


def _pair_key(run: Run) -> str:
    config = run.config
    rules = {k: v for k, v in run.rules.items() if k != CONVERSION_SWITCH}
    data = (config.get("data") or {}).get("sha1")
    return repr(([config.get(k) for k in _PAIR_KEYS], sorted(rules.items()), data))


def conversion_pairs(runs: Runs) -> list[tuple[Run, Run]]:
    """(rulebook run, ``conversion=any`` run) pairs: the same players, strategies, seats, seed, games,
    data and other rules, so the same deals (game seeds) until the first conversion."""
    g = _greenland(runs)
    base = {_pair_key(r): r for r in g if conversion_rule(r) == CONVERSION_TEXT}
    return [(base[_pair_key(r)], r) for r in g if conversion_rule(r) == "any" and _pair_key(r) in base]


def _paired(part: pl.DataFrame, metric: str) -> tuple[float, float, float, float]:
    """The mean of the paired differences (``<metric>_any`` minus ``metric``, the same seat of the same
    deal) with its 95% interval and p, by the design: the differences' mean per block (a rotation block
    replays one deal; else one game), t on the blocks' differences (``inference.paired_difference``)."""
    per_block = part.group_by("block").agg(
        pl.col(metric).cast(pl.Float64).mean().alias("a"), pl.col(f"{metric}_any").cast(pl.Float64).mean()
    )
    if per_block.height < 2:
        return math.nan, math.nan, math.nan, math.nan
    per_block = per_block.sort("block")
    d = inference.paired_difference(per_block["a"].to_numpy(), per_block[f"{metric}_any"].to_numpy())
    return float(d.estimate), float(d.low), float(d.high), float(d.p_value)


PAIRED_METRICS = {
    "converted": "share converted",
    "win_share": "win rate",
    "survived": "survival rate",
    "score": "score (points)",
}


def conversion_variants(runs: Runs) -> pl.DataFrame:
    """Per pair of runs (``conversion_pairs``), per strategy (and ``all`` seats) and metric (converted,
    win_share, survived, score): ``base`` (the rulebook's mean), ``value`` (``conversion=any``), ``diff`` =
    value - base as the mean of the differences between the same seat of the same game (same game seed)
    with its 95% interval ``diff_low``/``diff_high`` and ``p_value`` paired by block (``_paired``);
    ``pairs`` counts the seat-games, ``blocks`` the blocks.  ``run`` names the ``any`` run, ``base_run``
    the rulebook's."""
    pairs = conversion_pairs(runs)
    if not pairs:
        return pl.DataFrame()
    frame = seats(runs)
    cols = ["game_id", "seat", "strategy", *PAIRED_METRICS]
    blocked = [*cols, "block"]
    rows = []
    for base_run, any_run in pairs:
        a = frame.filter(pl.col("run") == base_run.label).select(blocked)
        b = frame.filter(pl.col("run") == any_run.label)
        tags = b.select(TAGS).row(0, named=True) if b.height else {}
        joined = a.join(
            b.select(cols), on=["game_id", "seat", "strategy"], suffix="_any", maintain_order="left"
        )
        groups = [("all", joined)] + [
            (s, joined.filter(pl.col("strategy") == s)) for s in sorted(joined["strategy"].unique().to_list())
        ]
        for strategy, part in groups:
            for metric in PAIRED_METRICS:
                if strategy == "all" and metric == "win_share":
                    continue  # win shares sum to one a game: no effect over all seats by construction
                x = part[metric].cast(pl.Float64).to_numpy()
                y = part[f"{metric}_any"].cast(pl.Float64).to_numpy()
                mean, low, high, p = _paired(part, metric)
                rows.append(
                    {
                        **tags,
                        "base_run": base_run.label,
                        "strategy": strategy,
                        "metric": metric,
                        "pairs": part.height,
                        "blocks": part["block"].n_unique(),
                        "base": float(x.mean()) if len(x) else math.nan,
                        "value": float(y.mean()) if len(y) else math.nan,
                        "diff": mean,
                        "diff_low": low,
                        "diff_high": high,
                        "p_value": p,
                    }
                )
    return pl.DataFrame(rows)


# --------------------------------------------------------------------------- scores and length


def _per_game(frame: pl.DataFrame) -> pl.DataFrame:
    desc = pl.col("score").sort(descending=True)
    return frame.group_by([*TAGS, "game_id", "block"]).agg(
        (desc.get(0) - desc.get(1)).alias("first_minus_second"),
        (pl.col("score").max() - pl.col("score").min()).alias("first_minus_last"),
        pl.col("score").max().alias("winning_score"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("generations").max(),
        pl.col("survived").sum().cast(pl.Int64).alias("alive"),
        (~pl.col("survived")).sum().cast(pl.Int64).alias("died"),
        pl.col("generation_died").filter(pl.col("generation_died") > 0).min().alias("first_death"),
    )


def per_game(runs: Runs) -> pl.DataFrame:
    """One row per decided game: the run tags, ``game_id``, ``block``, score spreads
    (``first_minus_second``, ``first_minus_last``, ``winning_score``, ``mean_score``), ``generations``,
    ``alive`` and ``died`` (tribes at the end) and ``first_death`` (generation of the first tribe to die
    out, null if none)."""
    return _per_game(seats(runs)).sort([*TAGS, "game_id"])


def _mean_columns(frame: pl.DataFrame, keys: Sequence[str], measures: Sequence[str]) -> pl.DataFrame:
    """Per ``keys``: ``games``, ``blocks`` and per measure ``<m>_mean``, ``_sd``, ``_low``, ``_high``
    (``scores.summarize``: the interval clustered on the blocks)."""
    out = None
    for m in measures:
        part = summarize(frame, m, keys).select(
            *keys,
            pl.col("n").alias("games"),
            "blocks",
            pl.col("mean").alias(f"{m}_mean"),
            pl.col("sd").alias(f"{m}_sd"),
            pl.col("low").alias(f"{m}_low"),
            pl.col("high").alias(f"{m}_high"),
        )
        out = part if out is None else out.join(part.drop("games", "blocks"), on=list(keys), how="left")
    assert out is not None
    return out


def score_spread(runs: Runs) -> pl.DataFrame:
    """Per run: ``games``, ``blocks`` and, for the winner minus the runner-up, the winner minus the last,
    the winning score and the mean score per game: ``<measure>_mean``, ``_sd`` and the 95% interval
    ``_low``/``_high`` of the mean, clustered on the blocks."""
    return _mean_columns(per_game(runs), TAGS, SPREAD_MEASURES)


def tribe_scores(runs: Runs) -> pl.DataFrame:
    """Per run and tribe: ``seats``, ``blocks`` and the mean score with its 95% interval clustered on the
    blocks (``mean``, ``low``, ``high``); dead tribes score what the scoring data give them (0 in the
    packaged data)."""
    table = summarize(seats(runs), "score", [*TAGS, "tribe"])
    return table.select(*TAGS, "tribe", pl.col("n").alias("seats"), "blocks", "mean", "low", "high")


def game_length(runs: Runs) -> pl.DataFrame:
    """Per run: ``games`` (decided), ``blocks``, ``truncated`` (left out), ``generations_mean`` with its
    interval (``_low``/``_high``, clustered on the blocks), ``_min``/``_max``; ``ended_early`` (share of
    games cut short because one tribe or none is left), ``any_died`` (share with at least one tribe dying
    out) with ``any_low``/``any_high`` (``inference.proportions_by``), ``deaths_per_game``, ``none_left``
    (share where every tribe died) and ``first_death_mean`` (the generation of the first death, in games
    with one)."""
    g = _greenland(runs)
    games = per_game(runs)
    truncated = (
        g.games().group_by("run").agg(pl.col("truncated").sum().cast(pl.Int64).alias("truncated")).collect()
    )
    full = games.group_by("run").agg(pl.col("generations").max().alias("_full"))
    games = games.join(full, on="run", maintain_order="left").with_columns(
        (pl.col("died") > 0).cast(pl.Float64).alias("_any")
    )
    lengths = _mean_columns(games, TAGS, ["generations"]).drop("generations_sd")
    died = inference.proportions_by(games, TAGS, "_any").select(
        *TAGS, pl.col("ci_low").alias("any_low"), pl.col("ci_high").alias("any_high")
    )
    rest = games.group_by(TAGS).agg(
        pl.col("generations").min().cast(pl.Int64).alias("generations_min"),
        pl.col("generations").max().cast(pl.Int64).alias("generations_max"),
        ((pl.col("alive") <= 1) & (pl.col("generations") < pl.col("_full"))).mean().alias("ended_early"),
        pl.col("_any").mean().alias("any_died"),
        pl.col("died").mean().cast(pl.Float64).alias("deaths_per_game"),
        (pl.col("alive") == 0).mean().alias("none_left"),
        pl.col("first_death").mean().cast(pl.Float64).fill_null(math.nan).alias("first_death_mean"),
    )
    out = (
        lengths.join(rest, on=list(TAGS))
        .join(died, on=list(TAGS))
        .join(truncated, on="run", how="left")
        .with_columns(pl.col("truncated").fill_null(0))
    )
    return out.sort("players", "variant", "run")


def extinctions(runs: Runs, by: str = "tribe") -> pl.DataFrame:
    """When tribes die out: per run, ``by`` value ("tribe", "strategy" or "all") and generation 1..the
    run's last: ``seats``, ``died`` (tribes dying out in that generation), ``dead`` (died by its end) and
    ``dead_share`` (``dead`` / ``seats``) with Wilson ``low``/``high``."""
    frame = seats(runs)
    if by == "all":
        frame = frame.with_columns(pl.lit("all").alias("all"))
    elif by not in ("tribe", "strategy"):
        raise SkaldError(f"extinctions by must be 'tribe', 'strategy' or 'all', not {by!r}")
    rows = []
    for key, part in frame.group_by([*TAGS, by], maintain_order=True):
        died = part["generation_died"].to_numpy()
        last = int(cast(int, frame.filter(pl.col("run") == key[0])["generations"].max()))
        for gen in range(1, last + 1):
            rows.append(
                dict(zip([*TAGS, by], key, strict=True))
                | {
                    "generation": gen,
                    "seats": part.height,
                    "died": int((died == gen).sum()),
                    "dead": int(((died > 0) & (died <= gen)).sum()),
                }
            )
    out = pl.DataFrame(rows).with_columns((pl.col("dead") / pl.col("seats")).alias("dead_share"))
    out = with_wilson(out, "dead", "seats", "low", "high")
    return out.sort([*TAGS, by, "generation"])


def deaths(runs: Runs, by: str = "tribe") -> pl.DataFrame:
    """How often and when tribes die out: per run and ``by`` ("tribe" or "strategy"): ``seats``,
    ``died`` (tribes that died out), ``died_share`` with Wilson ``low``/``high``, and the generation they
    died in: ``died_mean``, ``died_first`` (earliest), ``died_last`` (latest); null when none died."""
    if by not in ("tribe", "strategy"):
        raise SkaldError(f"deaths by must be 'tribe' or 'strategy', not {by!r}")
    dead = pl.col("generation_died").filter(pl.col("generation_died") > 0)
    out = (
        seats(runs)
        .group_by([*TAGS, by])
        .agg(
            pl.len().cast(pl.Int64).alias("seats"),
            (~pl.col("survived")).sum().cast(pl.Int64).alias("died"),
            dead.mean().alias("died_mean"),
            dead.min().alias("died_first"),
            dead.max().alias("died_last"),
        )
        .with_columns((pl.col("died") / pl.col("seats")).alias("died_share"))
        .sort([*TAGS, by])
    )
    return with_wilson(out, "died", "seats", "low", "high")

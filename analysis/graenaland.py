"""Graenaland questions: are the start positions fair, and do the three-player adjustments work?

Written ahead of the game against the column names below (the contract with
``sim/games/graenaland``); every function checks its columns and raises a one-line
``SkaldError`` naming what is missing, and ``unavailable()`` says why Graenaland studies are
skipped while ``skald run graenaland`` does not exist yet.

Records contract (per-seat part columns are float64 in the ``seats`` table):

* ``start_position``: the numbered start space of the standard layout (settling order 1..n);
  without it the seat number stands in (seat 0 = start position 1).
* ``start_territory_a``, ``start_territory_b``: territory indices of the two first settlements.
* ``draft_order``, ``chosen_territory``: custom-start draft only: pick order (1 = first) and the
  territory of the first village.
* ``goal_settlements``, ``goal_territories``, ``goal_largest``, ``goal_buildings``, ``goal_army``:
  1 when the seat holds that victory goal at the end, else 0; ``goals_met``: their sum.
* ``votes_heroes``, ``votes_settlements``: votes the seat cast over the game from its heroes
  (warrior, priest, skald) and from its settlements.
* ``rounds``: game length in rounds, in the games table or the seats table; else the turns
  table's highest ``round``; else decisions.

Rule switches read from ``manifest.json``: ``three_player_adjustments`` and ``custom_start``.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis import balance, stats
from analysis.runs import Runs
from analysis.scores import summarize
from sim.errors import SkaldError

GAME = "graenaland"
START_POSITION = "start_position"
START_TERRITORIES = ("start_territory_a", "start_territory_b")
DRAFT_ORDER = "draft_order"
CHOSEN_TERRITORY = "chosen_territory"
GOALS: dict[str, str] = {
    "goal_settlements": "8 settlements",
    "goal_territories": "2+ settlements on 3 territories",
    "goal_largest": "4 settlements on one territory",
    "goal_buildings": "buildings",
    "goal_army": "army strength 3",
}
GOALS_MET = "goals_met"
VOTES_HEROES = "votes_heroes"
VOTES_SETTLEMENTS = "votes_settlements"
ROUNDS = "rounds"
THREE_PLAYER_SWITCH = "three_player_adjustments"
CUSTOM_START_SWITCH = "custom_start"


class GraenalandUnavailable(SkaldError):
    """Graenaland is not registered or cannot be imported yet."""


def unavailable() -> str | None:
    """None when ``skald run graenaland`` works; else why not, to follow "graenaland is ..."."""
    from sim.games import GAMES, get_game

    if GAME not in GAMES:
        return f"not available yet (registered games: {', '.join(sorted(GAMES))})"
    try:
        get_game(GAME)
    except Exception as exc:
        return f"not loadable yet ({type(exc).__name__}: {exc})"
    return None


def require() -> None:
    """Raise ``GraenalandUnavailable`` with the reason when the game is not available."""
    reason = unavailable()
    if reason:
        raise GraenalandUnavailable(f"needs {GAME}, which is {reason}")


def _graenaland(runs: Runs) -> Runs:
    chosen = runs.only(game=GAME)
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs among the results (games present: {', '.join(runs.games_played)})")
    return chosen


def _need(runs: Runs, table: str, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if not runs.has_column(table, c)]
    if missing:
        raise SkaldError(f"{what} needs {table} columns {', '.join(missing)}, which the {GAME} records lack")


def position_column(runs: Runs) -> str:
    """``start_position`` when recorded, else ``seat``."""
    return START_POSITION if runs.has_column("seats", START_POSITION) else "seat"


def game_lengths(runs: Runs) -> tuple[pl.DataFrame, str]:
    """(per game ``run, game_id, length``, unit): see ``analysis.balance.game_lengths``."""
    return balance.game_lengths(runs)


def start_positions(runs: Runs, by: Sequence[str] = balance.GROUP) -> pl.DataFrame:
    """Per group and start position: win rate with Wilson interval, mean game length, mean goals met,
    the rate of each goal, and the start territory pairs seen (``a+b``)."""
    g = _graenaland(runs)
    position = position_column(g)
    table = balance.seat_balance(g, position=position, by=by)
    seats = balance._decided_seats(g, position)
    lengths, unit = game_lengths(g)
    seats = seats.join(lengths.lazy(), on=["run", "game_id"], how="left")
    keys = [*by, position]
    aggs = [pl.col("length").mean().alias(f"mean_{unit}")]
    if g.has_column("seats", GOALS_MET):
        aggs.append(pl.col(GOALS_MET).mean().alias("mean_goals_met"))
    aggs += [pl.col(c).mean().alias(f"rate_{c}") for c in GOALS if g.has_column("seats", c)]
    if all(g.has_column("seats", c) for c in START_TERRITORIES):
        pair = pl.concat_str(
            [pl.col(c).cast(pl.Int64).cast(pl.String) for c in START_TERRITORIES], separator="+"
        )
        aggs.append(pair.unique().sort().str.join(", ").alias("start_territories"))
    extra = seats.group_by(keys).agg(aggs).collect()
    return table.join(extra, on=keys, how="left")


def draft(runs: Runs, by: Sequence[str] = ("game", "players", "variant")) -> dict[str, pl.DataFrame]:
    """Custom-start draft: win rate by chosen territory and by draft order
    ({"territory": ..., "order": ...})."""
    g = _graenaland(runs)
    chosen = Runs([r for r in g if r.rules.get(CUSTOM_START_SWITCH)])
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs with {CUSTOM_START_SWITCH}=true among the results")
    _need(chosen, "seats", [DRAFT_ORDER, CHOSEN_TERRITORY], "The draft analysis")
    return {
        "territory": balance.seat_balance(chosen, position=CHOSEN_TERRITORY, by=by),
        "order": balance.seat_balance(chosen, position=DRAFT_ORDER, by=by),
    }


def vote_shares(runs: Runs, by: Sequence[str] = ("players", "variant")) -> pl.DataFrame:
    """Share of votes cast by heroes versus settlements, per group (ratio of sums, with per-game interval)."""
    g = _graenaland(runs)
    _need(g, "seats", [VOTES_HEROES, VOTES_SETTLEMENTS], "Vote shares")
    per_game = (
        g.seats()
        .group_by("run", "game_id", *by)
        .agg(pl.col(VOTES_HEROES).sum().alias("heroes"), pl.col(VOTES_SETTLEMENTS).sum().alias("settlements"))
        .with_columns((pl.col("heroes") / (pl.col("heroes") + pl.col("settlements"))).alias("hero_share"))
    )
    return summarize(per_game, "hero_share", by)


def winners_goals(runs: Runs, by: Sequence[str] = ("players", "variant")) -> pl.DataFrame:
    """Which goals the winners reach: per group and goal, the share of winners holding it (Wilson
    interval)."""
    g = _graenaland(runs)
    present = [c for c in GOALS if g.has_column("seats", c)]
    if not present:
        _need(g, "seats", list(GOALS), "Winners' goals")
    winners = g.seats().filter(pl.col("win_share") > 0)
    long = winners.unpivot(index=[*by, "run", "game_id"], on=present, variable_name="goal", value_name="held")
    table = (
        long.group_by([*by, "goal"])
        .agg(pl.len().cast(pl.Int64).alias("winners"), pl.col("held").sum())
        .sort([*by, "goal"])
        .collect()
    )
    low, high = stats.wilson_interval(table["held"].to_numpy(), table["winners"].to_numpy())
    return table.with_columns(
        (pl.col("held") / pl.col("winners")).alias("rate"),
        pl.Series("ci_low", low),
        pl.Series("ci_high", high),
        pl.col("goal").replace_strict(GOALS).alias("label"),
    )


def _adjusted_label(runs: Runs) -> str:
    """The 3-player variant the rulebook plays (the baseline): ``defaults`` when run, else adjustments on."""
    labels = {r.variant for r in runs.only(players=3)}
    if "defaults" in labels:
        return "defaults"
    on = [v for v in sorted(labels) if f"{THREE_PLAYER_SWITCH}=on" in v or f"{THREE_PLAYER_SWITCH}=true" in v]
    return on[0] if on else "defaults"


def three_player(runs: Runs) -> dict[str, pl.DataFrame]:
    """The three-player adjustments: side by side with 4 and 5 players, and with versus without at 3.

    Returns ``side_by_side`` (balance tests per player count and variant: seat-balance spread,
    truncated games), ``lengths`` (game length per player count and variant), ``compare`` (each
    variant of the 3-player population against the rulebook's default, with effect sizes and
    tests) and, where recorded, ``votes`` and ``goals``.
    """
    g = _graenaland(runs)
    lengths, unit = game_lengths(g)
    games = g.games().join(lengths.lazy(), on=["run", "game_id"], how="left")
    out = {
        "side_by_side": balance.balance_tests(g, position=position_column(g)),
        "lengths": summarize(
            games.filter(~pl.col("truncated")), "length", ("players", "variant")
        ).with_columns(pl.lit(unit).alias("unit")),
        "compare": balance.compare_variants(
            g.only(players=3), baseline=_adjusted_label(g), position=position_column(g)
        ),
    }
    for name, fn in (("votes", vote_shares), ("goals", winners_goals)):
        try:
            out[name] = fn(g)
        except SkaldError:
            pass
    return out

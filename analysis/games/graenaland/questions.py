"""Graenaland questions: are the start positions fair, does the custom-start draft favour a pick or a
territory, and do the three-player adjustments do their job?

Every function checks the columns it needs and raises a one-line ``SkaldError`` naming what is
missing; ``unavailable()`` says why Graenaland studies are skipped where ``skald run graenaland``
does not work.

Records (per-seat part columns are float64 in the ``seats`` table; see ``sim/games/graenaland``):

* ``start_position``: the numbered start space of the standard layout (seat i settles the spaces
  marked i + 1); without it the seat number stands in.  Under ``custom_start`` it is the seat too,
  so the standard start positions are read from runs without the draft only.
* ``start_territory_a``, ``start_territory_b``: territory indices of the two first settlements.
* ``draft_order``, ``chosen_territory``: custom-start draft only (else -1): pick order (1 = first
  to place its first village) and the territory of that first village.
* ``goal_settlements`` ... ``goal_army``: 1 when the seat meets that goal at the end, else 0;
  ``goals_met``: their sum (the seat's score in the basic game).
* ``votes_heroes``, ``votes_settlements``: votes the seat cast over the game from its heroes
  (warrior, priest, skald) and from its settlements.
* ``rounds``: game length in rounds (games or seats table); else the turns table's highest
  ``round``; else decisions.

Territory names (``U1 (plains, coast)``) come from each run's component data file and layout.
Rule switches are read from ``manifest.json``: ``three_player_adjustments`` (auto = on for three
players only, on, off) and ``custom_start``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from analysis.data.design import design_games, design_seats
from analysis.data.runs import Run, Runs
from analysis.questions import balance, fairness_change
from analysis.questions.scores import summarize
from analysis.stats import inference, stats
from sim.errors import SkaldError
from sim.games import GAMES, get_game

GAME = "graenaland"
START_POSITION = "start_position"
START_TERRITORIES = ("start_territory_a", "start_territory_b")
DRAFT_ORDER = "draft_order"
CHOSEN_TERRITORY = "chosen_territory"
GOALS: dict[str, str] = {
    "goal_settlements": "8 settlements",
    "goal_territories": "2+ settlements on 3 territories",
    "goal_largest": "4 settlements on one territory",
    "goal_buildings": "2 buildings",
    "goal_army": "army strength 3",
}
#: short goal names for charts
GOAL_SHORT: dict[str, str] = {
    "goal_settlements": "settlements",
    "goal_territories": "territories",
    "goal_largest": "largest",
    "goal_buildings": "buildings",
    "goal_army": "army",
}
GOALS_MET = "goals_met"
VOTES_HEROES = "votes_heroes"
VOTES_SETTLEMENTS = "votes_settlements"
ROUNDS = "rounds"
THREE_PLAYER_SWITCH = "three_player_adjustments"
CUSTOM_START_SWITCH = "custom_start"
#: rule switches that change the basic game; runs with any of them on are left out of the side-by-side
ADVANCED_SWITCHES = ("custom_start", "victory_cards", "five_player_offer")
POPULATION_KEYS = ("population", "players", "adjusted", "mix")


class GraenalandUnavailable(SkaldError):
    """Graenaland is not registered or cannot be imported yet."""


def unavailable() -> str | None:
    """None when ``skald run graenaland`` works; else why not, to follow "graenaland is ..."."""
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


# --------------------------------------------------------------------------- selecting runs


def _graenaland(runs: Runs) -> Runs:
    chosen = runs.only(game=GAME)
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs among the results (games present: {', '.join(runs.games_played)})")
    return chosen


def _need(runs: Runs, table: str, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if not runs.has_column(table, c)]
    if missing:
        raise SkaldError(f"{what} needs {table} columns {', '.join(missing)}, which the {GAME} records lack")


def _on(value: Any) -> bool:
    return str(value).lower() in ("true", "on", "1", "yes")


def is_draft(run: Run) -> bool:
    """Whether the run plays the custom-start draft."""
    return _on(run.rules.get(CUSTOM_START_SWITCH, False))


def standard_runs(runs: Runs) -> Runs:
    """The Graenaland runs on the standard start positions (no custom-start draft)."""
    return Runs([r for r in _graenaland(runs) if not is_draft(r)])


def draft_runs(runs: Runs) -> Runs:
    """The Graenaland runs with the custom-start draft."""
    return Runs([r for r in _graenaland(runs) if is_draft(r)])


def adjusted(run: Run) -> bool:
    """Whether the three-player adjustments are in force: ``on``, or ``auto`` (the rulebook's
    default) with three players."""
    value = str(run.rules.get(THREE_PLAYER_SWITCH, "auto")).lower()
    if value in ("on", "true", "1", "yes"):
        return True
    if value in ("off", "false", "0", "no"):
        return False
    return run.players == 3


def population(run: Run) -> str:
    """How the three-player question names a run's population: ``3p adjusted``, ``3p unadjusted``,
    ``4p`` (``4p adjusted`` when forced on)."""
    if run.players == 3:
        return f"3p {'adjusted' if adjusted(run) else 'unadjusted'}"
    return f"{run.players}p adjusted" if adjusted(run) else f"{run.players}p"


def is_basic(run: Run) -> bool:
    """Whether the run plays the basic game (no draft, victory cards or five-player offer)."""
    return not any(_on(run.rules.get(name, False)) for name in ADVANCED_SWITCHES)


def _tagged(runs: Runs, columns: dict[str, dict[str, Any]]) -> Runs:
    """``runs`` whose games, seats and turns carry extra columns, each a value per run label."""

    def add(frame: pl.LazyFrame) -> pl.LazyFrame:
        return frame.with_columns(
            [pl.col("run").replace_strict(values).alias(name) for name, values in columns.items()]
        )

    class Tagged(Runs):
        def games(self) -> pl.LazyFrame:
            return add(super().games())

        def seats(self) -> pl.LazyFrame:
            return add(super().seats())

        def turns(self) -> pl.LazyFrame:
            return add(super().turns())

    return Tagged(list(runs.runs))


def position_column(runs: Runs) -> str:
    """``start_position`` when recorded, else ``seat``."""
    return START_POSITION if runs.has_column("seats", START_POSITION) else "seat"


def game_lengths(runs: Runs) -> tuple[pl.DataFrame, str]:
    """(per game ``run, game_id, length``, unit): see ``analysis.questions.balance.game_lengths``."""
    return balance.game_lengths(runs)


# --------------------------------------------------------------------------- territories


def territory_names(runs: Runs) -> pl.DataFrame:
    """Per run and territory index: ``territory_name`` such as ``U1 (plains, coast)`` from the run's
    component data and layout (the index itself where the data cannot be loaded)."""
    rows = []
    for run in runs:
        names = _board_names(run)
        rows += [{"run": run.label, "territory": t, "territory_name": n} for t, n in enumerate(names)]
    schema = {"run": pl.String, "territory": pl.Int64, "territory_name": pl.String}
    return pl.DataFrame(rows, schema=schema)


def _board_names(run: Run) -> list[str]:
    try:  # the game's own modules, here and guarded: the records read without the game
        from sim.games.graenaland.board import build_board
        from sim.games.graenaland.data import TERRAINS

        data = get_game(GAME).load_data((run.config.get("data") or {}).get("path"))
        board = build_board(data, run.players)
        return [
            f"{piece} ({'coastal ' if coastal else ''}{TERRAINS[terrain]})"
            for piece, terrain, coastal in zip(board.pieces, board.terrain, board.coastal, strict=True)
        ]
    except Exception:
        return [str(t) for t in range(2 * run.players - 1)]


def _name_territories(frame: pl.DataFrame, runs: Runs, column: str, alias: str) -> pl.DataFrame:
    names = territory_names(runs).rename({"territory": column, "territory_name": alias})
    return frame.join(names, on=["run", column], how="left").with_columns(
        pl.coalesce(pl.col(alias), pl.col(column).cast(pl.String)).alias(alias)
    )


# --------------------------------------------------------------------------- start positions


def _mean_ci(value: str | pl.Expr, name: str) -> list[pl.Expr]:
    v = pl.col(value) if isinstance(value, str) else value
    half = stats.Z95 * v.std() / v.count().cast(pl.Float64).sqrt()
    return [
        v.mean().alias(name),
        (v.mean() - half).alias(f"{name}_low"),
        (v.mean() + half).alias(f"{name}_high"),
    ]


def start_positions(runs: Runs, by: Sequence[str] = balance.GROUP) -> pl.DataFrame:
    """Per group and standard start position (runs without the draft): games, wins, win rate with
    Wilson interval (``balance.seat_balance``), and

    * ``start_territories``: the position's two start territories by name (``U1 (plains, coast) + ...``),
    * ``mean_rounds`` (of every game; the same for every position) and ``rounds_won`` (mean length of
      the games this position won, with ``rounds_won_low``/``_high``),
    * ``goals_met`` (mean goals met at the end, with interval) and ``rate_goal_*`` (share of seats
      meeting each goal).
    """
    g = standard_runs(runs)
    if not len(g):
        raise SkaldError(
            f"no {GAME} runs on the standard start positions (every run uses the custom-start draft)"
        )
    position = position_column(g)
    table = balance.seat_balance(g, position=position, by=by)
    seats = balance._decided_seats(g, position)
    lengths, unit = game_lengths(g)
    seats = seats.join(lengths.lazy(), on=["run", "game_id"], how="left")
    keys = [*by, position]
    won = pl.col("length").filter(pl.col("win_share") > 0)
    aggs = [pl.col("length").mean().alias(f"mean_{unit}"), *_mean_ci(won, f"{unit}_won")]
    if g.has_column("seats", GOALS_MET):
        aggs += _mean_ci(GOALS_MET, GOALS_MET)
    aggs += [pl.col(c).mean().alias(f"rate_{c}") for c in GOALS if g.has_column("seats", c)]
    out = table.join(seats.group_by(keys).agg(aggs).collect(), on=keys, how="left")
    if all(g.has_column("seats", c) for c in START_TERRITORIES):
        pairs = (
            seats.select("run", *keys, *[pl.col(c).round(0).cast(pl.Int64) for c in START_TERRITORIES])
            .unique()
            .collect()
        )
        for c in START_TERRITORIES:
            pairs = _name_territories(pairs, g, c, f"{c}_name")
        pairs = (
            pairs.with_columns(
                pl.concat_str([f"{c}_name" for c in START_TERRITORIES], separator=" + ").alias("pair")
            )
            .group_by(keys)
            .agg(pl.col("pair").unique().sort().str.join("; ").alias("start_territories"))
        )
        out = out.join(pairs, on=keys, how="left")
    return out.sort(keys)


def goal_rates(
    runs: Runs, key: str, by: Sequence[str] = ("players",), winners_only: bool = False
) -> pl.DataFrame:
    """Long table: per group, ``key`` value and goal, the share of seats (or of winners) meeting the goal
    at the end, with a Wilson interval (``seats``, ``held``, ``rate``, ``ci_low``, ``ci_high``, ``label``,
    ``short``).  Truncated games are left out."""
    present = [c for c in GOALS if runs.has_column("seats", c)]
    if not present:
        _need(runs, "seats", list(GOALS), "Goal rates")
    seats = runs.seats().filter(~pl.col("truncated"))
    if winners_only:
        seats = seats.filter(pl.col("win_share") > 0)
    keys = list(dict.fromkeys([*by, key]))
    if seats.collect_schema().get(key) in (pl.Float64, pl.Float32):
        seats = seats.with_columns(pl.col(key).round(0).cast(pl.Int64))
    long = seats.unpivot(index=keys, on=present, variable_name="goal", value_name="held")
    table = (
        long.group_by([*keys, "goal"])
        .agg(pl.len().cast(pl.Int64).alias("seats"), pl.col("held").sum())
        .collect()
    )
    low, high = stats.wilson_interval(table["held"].to_numpy(), table["seats"].to_numpy())
    order = {g: i for i, g in enumerate(GOALS)}
    return (
        table.with_columns(
            (pl.col("held") / pl.col("seats")).alias("rate"),
            pl.Series("ci_low", low),
            pl.Series("ci_high", high),
            pl.col("goal").replace_strict(GOALS).alias("label"),
            pl.col("goal").replace_strict(GOAL_SHORT).alias("short"),
            pl.col("goal").replace_strict(order).alias("_order"),
        )
        .sort([*keys, "_order"])
        .drop("_order")
    )


# --------------------------------------------------------------------------- custom-start draft


def draft(runs: Runs, by: Sequence[str] = ("game", "players", "variant", "mix")) -> dict[str, pl.DataFrame]:
    """The custom-start draft (runs with ``custom_start=true``):

    * ``order``: win rate by draft order (1 = first to place) with Wilson intervals;
    * ``order_tests``: ``balance.balance_tests`` by draft order (chi-square and G against equal
      chances, Balance, first-pick advantage);
    * ``territory``: per chosen territory (the coastal territory of the seat's first village): picks,
      ``pick_share`` (of all first villages), ``first_picks`` (how often the first pick chose it), wins,
      win rate with Wilson interval, ``expected`` (1/players) and ``territory_name``;
    * ``territory_tests``: per group, a test that every chosen territory wins equally often given how
      many players of each game settled there (``inference.category_wins``: one winner per game, not a
      2×k table of picks; ``chi2``, ``p``, ``dof``, ``picks``).
    """
    g = _graenaland(runs)
    chosen = draft_runs(g)
    if not len(chosen):
        raise SkaldError(f"no {GAME} runs with {CUSTOM_START_SWITCH}=true among the results")
    _need(chosen, "seats", [DRAFT_ORDER, CHOSEN_TERRITORY], "The draft analysis")
    order = balance.seat_balance(chosen, position=DRAFT_ORDER, by=by)
    order_tests = balance.balance_tests(chosen, position=DRAFT_ORDER, by=by)
    seats = balance._decided_seats(chosen, CHOSEN_TERRITORY).with_columns(
        pl.col(DRAFT_ORDER).round(0).cast(pl.Int64)
    )
    return {
        "order": order,
        "order_tests": order_tests,
        "territory": _territory_table(seats, chosen, by),
        "territory_tests": _territory_tests(seats, by),
    }


def _territory_table(seats: pl.LazyFrame, chosen: Runs, by: Sequence[str]) -> pl.DataFrame:
    """``draft``'s ``territory``: per group and chosen territory, picks, first picks, wins, the pick share
    and the win rate with its Wilson interval against ``expected`` (1/players)."""
    keys = [*by, CHOSEN_TERRITORY]
    grouped = (
        seats.group_by(["run", *keys])
        .agg(
            pl.len().cast(pl.Int64).alias("picks"),
            (pl.col(DRAFT_ORDER) == 1).sum().cast(pl.Int64).alias("first_picks"),
            pl.col("win_share").sum().alias("wins"),
        )
        .collect()
    )
    grouped = _name_territories(grouped, chosen, CHOSEN_TERRITORY, "territory_name")
    territory = (
        grouped.group_by(keys)
        .agg(
            pl.col("picks").sum(),
            pl.col("first_picks").sum(),
            pl.col("wins").sum(),
            pl.col("territory_name").unique().sort().str.join("; "),
        )
        .sort(keys)
    )
    totals = territory.group_by(list(by)).agg(pl.col("picks").sum().alias("_all"))
    territory = territory.join(totals, on=list(by)).with_columns(
        (pl.col("picks") / pl.col("_all")).alias("pick_share")
    )
    low, high = stats.wilson_interval(territory["wins"].to_numpy(), territory["picks"].to_numpy())
    return (
        territory.with_columns(
            (pl.col("wins") / pl.col("picks")).alias("win_rate"),
            pl.Series("ci_low", low),
            pl.Series("ci_high", high),
            (1.0 / pl.col("players")).alias("expected")
            if "players" in by
            else pl.lit(None).alias("expected"),
        )
        .drop("_all")
        .sort(keys)
    )


def _territory_tests(seats: pl.LazyFrame, by: Sequence[str]) -> pl.DataFrame:
    """``draft``'s ``territory_tests``: per group, ``inference.category_wins`` over the chosen territories
    (``chi2``, ``p``, ``dof``, ``picks``)."""
    tests = []
    columns = dict.fromkeys(["run", "game_id", "block", "players", CHOSEN_TERRITORY, "win_share", *by])
    picked = seats.select(*columns).collect().sort(list(by), maintain_order=True)
    for key, frame in picked.group_by(list(by), maintain_order=True):
        chi2, p, dof = inference.category_wins(frame, CHOSEN_TERRITORY)
        tests.append(
            {
                **dict(zip(by, key, strict=True)),
                "chi2": chi2,
                "p": p,
                "dof": dof,
                "picks": frame.height,
            }
        )
    return pl.DataFrame(tests)


# --------------------------------------------------------------------------- votes and goals


def _hero_shares(runs: Runs, by: Sequence[str]) -> pl.LazyFrame:
    """Per game (with its ``block``): votes cast from heroes and from settlements over the game, and the
    heroes' share."""
    _need(runs, "seats", [VOTES_HEROES, VOTES_SETTLEMENTS], "Vote shares")
    return (
        design_seats(runs)
        .filter(~pl.col("excluded"))
        .group_by("run", "game_id", "block", *by)
        .agg(pl.col(VOTES_HEROES).sum().alias("heroes"), pl.col(VOTES_SETTLEMENTS).sum().alias("settlements"))
        .with_columns((pl.col("heroes") / (pl.col("heroes") + pl.col("settlements"))).alias("hero_share"))
    )


def vote_shares(runs: Runs, by: Sequence[str] = ("players", "variant")) -> pl.DataFrame:
    """Share of votes cast by heroes (versus settlements) per group: the mean of each game's share
    (heroes' votes / all votes cast in it), with its 95% interval (``summarize`` columns)."""
    return summarize(_hero_shares(_graenaland(runs), by), "hero_share", by)


def winners_goals(runs: Runs, by: Sequence[str] = ("players", "variant")) -> pl.DataFrame:
    """Which goals the winners reach: per group and goal, the share of winners meeting it (Wilson
    interval); ``winners`` counts them."""
    g = _graenaland(runs)
    table = goal_rates(g, by[-1], by=by[:-1], winners_only=True)
    return table.rename({"seats": "winners"})


# --------------------------------------------------------------------------- three-player adjustments


def populations(runs: Runs) -> Runs:
    """The basic-game Graenaland runs (no draft, victory cards or five-player offer), tagged with
    ``population`` (see ``population``) and ``adjusted`` ("on"/"off") on every frame."""
    chosen = Runs([r for r in _graenaland(runs) if is_basic(r)])
    if not len(chosen):
        raise SkaldError(
            f"no basic-game {GAME} runs (without custom start, victory cards or five-player offer)"
        )
    return _tagged(
        chosen,
        {
            "population": {r.label: population(r) for r in chosen},
            "adjusted": {r.label: "on" if adjusted(r) else "off" for r in chosen},
        },
    )


def population_order(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` sorted by player count, then adjusted before unadjusted."""
    keys = [c for c in ("players", "adjusted", "mix") if c in frame.columns]
    desc = [c == "adjusted" for c in keys]  # "on" before "off"
    return frame.sort(keys, descending=desc) if keys else frame


def three_player(runs: Runs) -> dict[str, pl.DataFrame]:
    """The three-player adjustments: the same population with and without them, side by side with 4
    and 5 players (basic-game runs only).

    * ``side_by_side``: per population (``3p adjusted``, ``3p unadjusted``, ``4p``, ``5p``; and
      strategy mix): games, decided, truncated with ``truncated_rate`` (Wilson ``trunc_low``/``_high``),
      the largest seat win-rate gap ``max_gap`` with its simultaneous interval (``gap_low``/``_high``),
      Balance, the design-aware p of equal chances (``p_value``, Holm's ``p_adjusted``), mean game
      length ``rounds`` and the heroes' vote share ``hero_share`` (each with ``_low``/``_high``);
    * ``lengths``, ``votes``: game length and hero vote share per population (``summarize`` columns);
    * ``goals``: the share of winners meeting each goal per population (Wilson intervals);
    * ``compare``: for each player count and mix run both with and without the adjustments, the
      adjusted minus the unadjusted value of each metric, with a 95% interval, an effect size and a
      test, each by the design (``_compare_adjustments``): seat win-rate gap (bias-corrected, with the
      seats' homogeneity test), game length (Cohen's d), hero vote share (Cohen's d), truncated games
      (Cohen's h) and each goal's share among winners (Cohen's h); ``p_adjusted`` is Holm's over the
      comparison's metrics (``family``, ``correction``);
    * ``changes``: for the same comparisons, whether the positions' fairness changes by more than the
      margin, with each side's fairness (``fairness_change.fairness_changes``).
    """
    g = populations(runs)
    keys = list(POPULATION_KEYS)
    position = position_column(g)
    tests = balance.balance_tests(g, position=position, by=("game", *keys))
    lengths, unit = game_lengths(g)
    games = design_games(g).collect().join(lengths, on=["run", "game_id"], how="left")
    decided = games.filter(~pl.col("excluded"))
    length_table = summarize(decided, "length", keys).with_columns(pl.lit(unit).alias("unit"))
    out: dict[str, pl.DataFrame] = {"lengths": population_order(length_table)}
    side = tests.with_columns(
        (pl.col("truncated") / pl.col("games")).alias("truncated_rate"),
        (1 - pl.col("balance_high")).alias("gap_low"),
        (1 - pl.col("balance_low")).alias("gap_high"),
    )
    low, high = stats.wilson_interval(side["truncated"].to_numpy(), side["games"].to_numpy())
    side = side.with_columns(pl.Series("trunc_low", low), pl.Series("trunc_high", high))
    side = side.join(
        length_table.select(
            *keys,
            pl.col("mean").alias(unit),
            pl.col("low").alias(f"{unit}_low"),
            pl.col("high").alias(f"{unit}_high"),
        ),
        on=keys,
        how="left",
    )
    shares = None
    if g.has_column("seats", VOTES_HEROES) and g.has_column("seats", VOTES_SETTLEMENTS):
        shares = _hero_shares(g, keys).collect()
        votes = summarize(shares, "hero_share", keys)
        out["votes"] = population_order(votes)
        side = side.join(
            votes.select(
                *keys,
                pl.col("mean").alias("hero_share"),
                pl.col("low").alias("hero_share_low"),
                pl.col("high").alias("hero_share_high"),
            ),
            on=keys,
            how="left",
        )
    out["side_by_side"] = population_order(side)
    if any(g.has_column("seats", c) for c in GOALS):
        goals = goal_rates(g, "population", by=("players", "adjusted", "mix"), winners_only=True)
        out["goals"] = population_order(goals.rename({"seats": "winners"}))
    out["compare"] = _compare_adjustments(g, shares, position, unit)
    out["changes"] = fairness_change.fairness_changes(
        g, key="adjusted", baseline="off", by=("game", "players", "mix"), position=position
    )
    return out


def _compare_adjustments(g: Runs, shares: pl.DataFrame | None, position: str, unit: str) -> pl.DataFrame:
    """``balance.compare_variants`` of ``adjusted`` (on minus off) with the heroes' vote share and each
    goal's share among the winners added, every metric by the design (``balance._design_comparison``:
    paired by block where the runs share seeds, else cluster-robust; a game's winners' share of a goal
    is one value per game), and ``p_adjusted`` Holm's over all the metrics of one comparison."""
    base = balance.compare_variants(
        g, key="adjusted", baseline="off", by=("game", "players", "mix"), position=position
    )
    if base.is_empty():
        return base
    design = design_games(g).select("run", "game_id", "block", "game_seed").collect()
    per_game = ["run", "game_id", "adjusted", "players", "mix"]
    present = [goal for goal in GOALS if goal in g.seats().collect_schema().names()]
    winners = (
        g.seats()
        .filter(~pl.col("truncated") & (pl.col("win_share") > 0))
        .group_by(per_game)
        .agg([pl.col(goal).mean() for goal in present])
        .collect()
        .join(design, on=["run", "game_id"])
    )
    if shares is not None:
        shares = shares.drop("block").join(design, on=["run", "game_id"])
    added = ([("hero_vote_share", "hero_share", shares)] if shares is not None else []) + [
        (f"winners_{goal}", goal, winners) for goal in present
    ]
    rows = []
    for (game, players, mix), group in base.group_by(["game", "players", "mix"], maintain_order=True):
        family = group.drop("p_adjusted", "family", "correction").to_dicts()
        common = {
            "key": "adjusted",
            "base": "off",
            "value": "on",
            "game": game,
            "players": players,
            "mix": mix,
        }
        same = (pl.col("players") == players) & (pl.col("mix") == mix)  # every run here is Graenaland
        for metric, value, frame in added:
            part = frame.filter(same)
            off, on = (part.filter(pl.col("adjusted") == side) for side in ("off", "on"))
            if not off.height or not on.height:
                continue
            x, y = off[value].to_numpy(), on[value].to_numpy()
            effect = (
                stats.two_means(x, y)
                if metric == "hero_vote_share"
                else stats.two_proportions(float(x.sum()), len(x), float(y.sum()), len(y))
            )
            family.append(
                {
                    **common,
                    "metric": metric,
                    "base_estimate": float(x.mean()),
                    "estimate": float(y.mean()),
                    **balance._design_comparison(off, on, value, effect),
                }
            )
        rows += balance.with_adjusted(family)
    frame = pl.DataFrame(rows, infer_schema_length=None)
    order = {
        m: i
        for i, m in enumerate(
            [
                "balance_gap",
                f"game_length ({unit})",
                "hero_vote_share",
                "truncated_rate",
                *[f"winners_{goal}" for goal in GOALS],
            ]
        )
    }
    return (
        frame.with_columns(pl.col("metric").replace_strict(order, default=99).alias("_o"))
        .sort("game", "players", "mix", "_o")
        .drop("_o")
    )


METRIC_NAMES: dict[str, str] = {
    "balance_gap": "largest seat win-rate gap",
    "hero_vote_share": "heroes' share of the votes",
    "truncated_rate": "share of truncated games",
    **{f"winners_{goal}": f"winners meeting {label}" for goal, label in GOALS.items()},
}
#: shorter metric names for chart axes
METRIC_CHART_NAMES: dict[str, str] = {
    "balance_gap": "largest seat win-rate gap",
    "hero_vote_share": "heroes' share of the votes",
    "truncated_rate": "truncated games",
    **{f"winners_{goal}": f"winners with the {short} goal" for goal, short in GOAL_SHORT.items()},
}


def compares_three_player(run: Any) -> bool:
    """Whether the three-player section compares this run's rule variants (the three-player
    adjustments, on and off): every three-player run (Graenaland's plug-in's ``own_comparisons``)."""
    return int(run.players) == 3

"""Knarr balance questions answered from a run's records (``skald run knarr ... --out FOLDER``).

    python -m analysis.games.knarr.study FOLDER [FOLDER ...]

* seat advantage with the round-completion rule (win share and mean score by seat, Wilson 95% intervals);
* score spreads (winner minus last, winner minus runner-up);
* which destinations and Buildings the winners hold: win share when held, with a Wilson interval, next to
  the seat's base rate 1/players (the card-strength tables of deck-builder simulators);
* how often raids fire and whom they favour (raids per game; win share by raids won / lost).

Destinations are read from the ``explore`` turns (column ``destination``), Buildings from the
``develop`` turns (column ``building``); neither is ever lost, so "explored" = "held at the end".

Truncated and errored games have no winner: every figure here counts decided games only
(``decided_seats``), as the report does (``analysis.games.knarr.questions``, which adds the block-aware
intervals, the strategy-adjusted base rate of the holdings and the corrections for multiplicity).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

from analysis.stats.stats import wilson_interval
from sim.games.knarr.data import ASSETS, COLOURS, DIFF, SAME, load


def wilson(wins: pl.Series, n: pl.Series) -> tuple[list[float], list[float]]:
    """The Wilson 95% intervals of ``wins`` out of ``n`` (``analysis.stats.stats.wilson_interval``), each
    bound to three places."""
    low, high = wilson_interval(wins.to_numpy(), n.to_numpy())
    return [round(float(x), 3) for x in low], [round(float(x), 3) for x in high]


#: the turn kind whose records name each card kind, and the column that holds the card's index
CARD_COLUMNS = {"explore": "destination", "develop": "building"}


def _read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(folder / table / "*.parquet")


def decided_seats(folder: Path) -> pl.DataFrame:
    """The seats of the run's decided games: truncated and errored games (no winner) are left out."""
    games = _read(folder, "games")
    excluded = pl.col("truncated").fill_null(False)
    if "errored" in games.columns:
        excluded = excluded | pl.col("errored").fill_null(False)
    decided = games.filter(~excluded).select("game_id")
    return _read(folder, "seats").join(decided, on="game_id", how="semi", maintain_order="left")


#: plain names of the assets in a card's gain (knarr.md A.3)
ASSET_WORDS = {
    "vp": "VP",
    "bracelet": "bracelet",
    "recruit": "recruit",
    "rep": "reputation",
    "card": "card",
    "coin": "coin",
    "raid": "raid",
    "renew": "renewal",
}
#: the two destination decks by their rulebook names (knarr.md A.3)
DECKS = {"A": "Trading Land", "B": "Land of Influence"}


def gain_words(gain: tuple[int, ...]) -> str:
    """A gain in words: ``2 VP + reputation``; ``nothing`` for none."""
    parts = []
    for name, n in zip(ASSETS, gain, strict=True):
        if n:
            word = ASSET_WORDS[name]
            parts.append(word if n == 1 else f"{n} {word}" if n > 0 else f"{n} {word}")
    return " + ".join(parts) or "nothing"


def cost_words(kind: int, n: int, counts: tuple[int, ...]) -> str:
    """A cost in words: ``3 different colours``, ``2 of one colour``, ``2 red + 1 blue``."""
    if kind == DIFF:
        return f"{n} different colours"
    if kind == SAME:
        return f"{n} of one colour"
    return " + ".join(f"{c} {colour}" for colour, c in zip(COLOURS, counts, strict=True) if c)


def card_names(kind: str) -> list[str]:
    """The cards of ``kind`` by their index in the records, named for a reader: a destination by its
    deck, number, cost and gain (``Trading Land 18: 3 different colours for 2 VP + reputation``), a
    Building by its number and cost (``Building 4 (cost 3)``)."""
    data = load()
    if kind == "explore":
        return [
            f"{DECKS.get(d.deck, d.deck)} {d.id}: {cost_words(d.cost_kind, d.cost_n, d.cost)} "
            f"for {gain_words(d.gain)}"
            for d in data.destinations
        ]
    return [f"Building {b.id} (cost {b.cost})" for b in data.buildings]


def held_cards(
    turns: pl.DataFrame | pl.LazyFrame, kind: str, keys: tuple[str, ...] = ("game_id",)
) -> pl.DataFrame:
    """One row per seat and card of ``kind`` it holds at the end (``keys``, ``seat``, ``card``), from the
    turns: a card explored or developed is never lost."""
    column = CARD_COLUMNS[kind]
    names = card_names(kind)
    return (
        turns.lazy()
        .filter(pl.col("kind") == kind)
        .select(*keys, "seat", column)
        .unique(maintain_order=True)
        .collect()
        .with_columns(pl.col(column).map_elements(lambda i: names[i], return_dtype=pl.String).alias("card"))
        .drop(column)
    )


def seat_advantage(folder: Path) -> pl.DataFrame:
    seats = decided_seats(folder)
    out = (
        seats.group_by("seat")
        .agg(
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("score").mean().round(2).alias("mean_score"),
        )
        .sort("seat")
    )
    low, high = wilson(out["wins"], out["games"])
    return out.with_columns(
        (pl.col("wins") / pl.col("games")).round(3).alias("win_share"),
        pl.Series("ci_low", low),
        pl.Series("ci_high", high),
    )


def score_spread(folder: Path) -> pl.DataFrame:
    seats = decided_seats(folder)
    per = seats.group_by("game_id").agg(
        (pl.col("score").max() - pl.col("score").min()).alias("first_minus_last"),
        (pl.col("score").sort(descending=True).get(0) - pl.col("score").sort(descending=True).get(1)).alias(
            "first_minus_second"
        ),
        pl.col("score").max().alias("winning_score"),
    )
    return per.select(
        pl.all().exclude("game_id").mean().round(2).name.suffix("_mean"),
        pl.all().exclude("game_id").std().round(2).name.suffix("_sd"),
    )


def holdings(folder: Path, kind: str, min_games: int = 10) -> pl.DataFrame:
    """Win share of the seats holding each destination (kind 'explore') or Building (kind 'develop')."""
    seats = decided_seats(folder).select("game_id", "seat", "win_share")
    held = held_cards(_read(folder, "turns"), kind).join(seats, on=["game_id", "seat"])
    out = held.group_by("card").agg(pl.len().alias("held"), pl.col("win_share").sum().alias("wins"))
    out = out.filter(pl.col("held") >= min_games).with_columns(
        (pl.col("wins") / pl.col("held")).round(3).alias("win_share_when_held"),
    )
    low, high = wilson(out["wins"], out["held"])
    return (
        out.with_columns(
            pl.Series("ci_low", low, dtype=pl.Float64),
            pl.Series("ci_high", high, dtype=pl.Float64),
        )
        .sort("win_share_when_held", descending=True)
        .select("card", "held", "win_share_when_held", "ci_low", "ci_high")
    )


def raid_frequency(folder: Path) -> pl.DataFrame:
    """Raids per game (mean) and the share of games with at least one raid; empty without raid records."""
    seats = decided_seats(folder)
    if "raids_in_game" not in seats.columns:
        return pl.DataFrame()
    per_game = seats.group_by("game_id").agg(pl.col("raids_in_game").first())
    return pl.DataFrame(
        {
            "games": [per_game.height],
            "raids_per_game": [per_game["raids_in_game"].mean()],
            "share_with_raid": [(per_game["raids_in_game"] > 0).mean()],
        }
    )


def raid_favour(folder: Path) -> pl.DataFrame:
    """Win share by raids won minus raids lost (clipped to -3..3); empty without raid records."""
    seats = decided_seats(folder)
    if "raids_in_game" not in seats.columns:
        return pl.DataFrame()
    return (
        seats.with_columns((pl.col("raids_won") - pl.col("raids_lost")).clip(-3, 3).alias("raid_net"))
        .group_by("raid_net")
        .agg(
            pl.len().alias("seats"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("win_share").mean().round(3),
        )
        .sort("raid_net")
    )


def raids(folder: Path) -> pl.DataFrame:
    seats = decided_seats(folder)
    if "raids_in_game" not in seats.columns:
        return pl.DataFrame()
    summary = (
        seats.group_by("strategy")
        .agg(
            pl.col("raids_won").mean().round(2),
            pl.col("raids_lost").mean().round(2),
            pl.col("win_share").mean().round(3),
        )
        .sort("strategy")
    )
    freq = raid_frequency(folder).row(0, named=True)
    print(
        f"raids per game: mean {freq['raids_per_game']:.2f}, "
        f"share of games with a raid {freq['share_with_raid']:.2f}"
    )
    print(raid_favour(folder).drop("wins"))
    return summary


def main(argv: list[str]) -> None:
    pl.Config.set_tbl_rows(40)
    for folder in map(Path, argv):
        print(f"== {folder}")
        print(seat_advantage(folder))
        print(score_spread(folder))
        print(holdings(folder, "explore").head(12))
        print(holdings(folder, "explore").tail(6))
        b = holdings(folder, "develop")
        if len(b):
            print(b.head(10))
            print(b.tail(5))
            print(raids(folder))


if __name__ == "__main__":
    main(sys.argv[1:])

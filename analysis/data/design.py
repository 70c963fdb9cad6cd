"""The design's blocks: which games share a deal, and which games count (reference/analysis-methods.md
section 1).

Under ``--seats rotate`` and ``exhaustive`` the games of one block replay one deal under every seat
arrangement, so their outcomes are correlated; under ``random`` and ``fixed`` every game is its own
block, unless the run plays each deal several times (``replicates``): then a block is the deal's games.
``block_key``, ``seats_modes``, ``with_blocks``, ``design_seats`` and ``design_games`` add the ``block``
column, and the ``excluded`` flag of truncated and errored games, that every estimate and test in
``analysis.stats.inference`` works on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:
    from analysis.data.runs import Runs

#: seat modes whose games share a deal within a block of ``base_game``
BLOCK_MODES: tuple[str, ...] = ("rotate", "exhaustive")
#: what a manifest without ``config.seats`` ran under (``skald run``'s default)
DEFAULT_MODE = "rotate"


def block_key(seats_mode: str) -> str:
    """The column that names a game's block within its run (methods section 1): ``base_game`` under
    ``rotate``/``exhaustive`` (one deal replayed under every arrangement), ``game_id`` under ``random``
    and ``fixed`` (every game its own deal; there ``base_game`` equals ``game_id`` anyway)."""
    return "base_game" if seats_mode in BLOCK_MODES else "game_id"


def seats_modes(runs: Runs) -> dict[str, str]:
    """Each run's seat mode from its manifest (``config.seats``; ``rotate`` where a manifest lacks it)."""
    return {r.label: str(r.config.get("seats", DEFAULT_MODE)) for r in runs}


def replicated(runs: Runs) -> list[str]:
    """The runs that play each deal more than once (``config.replicates``): their blocks are their deals."""
    return [r.label for r in runs if int(r.config.get("replicates", 1)) > 1]


def with_blocks(frame: pl.LazyFrame, modes: Mapping[str, str], deals: Sequence[str] = ()) -> pl.LazyFrame:
    """``frame`` (with ``run``, ``game_id`` and ``base_game``) with a ``block`` column: ``"<run>#<n>"``
    where n is the ``base_game`` or the ``game_id`` by the run's seat mode (``block_key``), the
    ``base_game`` for the runs in ``deals`` (``replicated``) whatever their mode."""
    blocked = [run for run, mode in modes.items() if block_key(mode) == "base_game" or run in deals]
    number = pl.when(pl.col("run").is_in(blocked)).then(pl.col("base_game")).otherwise(pl.col("game_id"))
    return frame.with_columns(
        pl.concat_str([pl.col("run"), pl.lit("#"), number.cast(pl.String)]).alias("block")
    )


def _game_design(runs: Runs) -> pl.LazyFrame:
    """Per game: ``run``, ``game_id``, ``base_game``, ``block`` and ``excluded`` (truncated or errored;
    records before the error columns have ``truncated`` only, which counts errored games too)."""
    games = runs.raw("games")
    excluded = pl.col("truncated").fill_null(False)
    if "errored" in games.collect_schema().names():
        excluded = excluded | pl.col("errored").fill_null(False)
    frame = games.select("run", "game_id", "base_game", excluded.alias("excluded"))
    return with_blocks(frame, seats_modes(runs), replicated(runs))


def design_seats(runs: Runs) -> pl.LazyFrame:
    """``Runs.seats()`` with the game's ``block``, ``base_game`` and ``excluded`` flag.

    Truncated and errored games have no winner: every rate leaves them out (``excluded``) and
    counts them beside the rate."""
    return runs.seats().join(_game_design(runs), on=["run", "game_id"], how="left", maintain_order="left")


def design_games(runs: Runs) -> pl.LazyFrame:
    """``Runs.games()`` with ``block`` and ``excluded`` (truncated or errored)."""
    design = _game_design(runs).drop("base_game")
    return runs.games().join(design, on=["run", "game_id"], how="left", maintain_order="left")

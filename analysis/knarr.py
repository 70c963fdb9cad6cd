"""Knarr questions: is there a seat advantage, how far apart are the scores with and without the
skáli/raid expansion, which destinations and Buildings the winners hold, and how often raids fire
and whom they favour.

The per-run logic is ``sim.games.knarr.study`` (``python -m sim.games.knarr.study FOLDER``); the
functions here run it on every Knarr run of a ``Runs`` set and stack the answers into tidy polars
DataFrames, each row tagged with ``run``, ``players``, ``variant`` (rule switches off their defaults),
``expansion`` ("skáli" or "base") and ``mix`` (the strategies, comma-separated).

Seats win under the round-completion rule (the 40-point trigger ends the game only once the round is
complete, so every seat has had the same number of turns); a tie splits the win (``win_share``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from analysis.runs import Run, Runs
from sim.errors import SkaldError

GAME = "knarr"
EXPANSION_SWITCH = "skali"


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


def _study():
    from sim.games.knarr import study  # the game's own balance questions, one run folder at a time

    return study


def _tags(run: Run) -> dict[str, Any]:
    strategies = run.config.get("strategies") or []
    return {
        "run": run.label,
        "players": run.players,
        "variant": run.variant,
        "expansion": "skáli" if has_expansion(run) else "base",
        "mix": ", ".join(map(str, strategies)),
    }


def _stack(runs: Runs, per_run: Callable[[Run], pl.DataFrame]) -> pl.DataFrame:
    frames = []
    for run in runs:
        frame = per_run(run)
        if frame.is_empty():
            continue
        tags = _tags(run)
        frames.append(frame.select(*[pl.lit(v).alias(k) for k, v in tags.items()], pl.all()))
    if not frames:
        return pl.DataFrame()
    return pl.concat(frames, how="diagonal_relaxed")


def seat_advantage(runs: Runs) -> pl.DataFrame:
    """Per run and seat: games, wins (ties split), ``win_rate`` with Wilson 95% ``ci_low``/``ci_high``,
    ``mean_score`` and ``expected`` (1/players)."""
    study = _study()
    out = _stack(_knarr(runs), lambda r: study.seat_advantage(r.path))
    return out.rename({"win_share": "win_rate"}).with_columns(
        pl.col("games").cast(pl.Int64), (1.0 / pl.col("players")).alias("expected")
    )


def score_spread(runs: Runs) -> pl.DataFrame:
    """Per run: mean and sd over games of first minus last, first minus runner-up and the winning score;
    ``games`` counts them."""
    study = _study()

    def one(run: Run) -> pl.DataFrame:
        games = study._read(run.path, "seats")["game_id"].n_unique()
        return study.score_spread(run.path).with_columns(pl.lit(games).cast(pl.Int64).alias("games"))

    return _stack(_knarr(runs), one)


def holdings(runs: Runs, kind: str = "explore", min_games: int = 10) -> pl.DataFrame:
    """Per run and card held by at least ``min_games`` seats: ``kind`` "explore" (destinations,
    ``D<id><deck>``) or "develop" (Buildings, ``B<id>``): seats holding it (``held``), ``win_rate``
    when held with Wilson ``ci_low``/``ci_high`` and ``expected`` (1/players), best first within a run
    (cards with the same rate in card order)."""
    if kind not in ("explore", "develop"):
        raise SkaldError(
            f"holdings kind must be 'explore' (destinations) or 'develop' (Buildings), not {kind!r}"
        )
    study = _study()
    chosen = _knarr(runs)
    if kind == "develop":
        chosen = Runs([r for r in chosen if has_expansion(r)])
    out = _stack(
        chosen,
        lambda r: study.holdings(r.path, kind, min_games=min_games).sort(
            "win_share_when_held", "card", descending=[True, False]
        ),
    )
    if out.is_empty():
        return out
    return out.rename({"win_share_when_held": "win_rate"}).with_columns(
        pl.col("held").cast(pl.Int64), (1.0 / pl.col("players")).alias("expected")
    )


def raid_frequency(runs: Runs) -> pl.DataFrame:
    """Per expansion run: games, mean ``raids_per_game`` and ``share_with_raid`` (games with a raid)."""
    study = _study()
    return _stack(Runs([r for r in _knarr(runs) if has_expansion(r)]), lambda r: study.raid_frequency(r.path))


def raid_favour(runs: Runs) -> pl.DataFrame:
    """Per expansion run and ``raid_net`` (raids won minus lost, clipped to -3..3): seats, wins and
    ``win_rate`` with Wilson ``ci_low``/``ci_high``."""
    study = _study()
    out = _stack(Runs([r for r in _knarr(runs) if has_expansion(r)]), lambda r: study.raid_favour(r.path))
    if out.is_empty():
        return out
    ci = [study.wilson(w, n) for w, n in zip(out["wins"], out["seats"], strict=True)]
    return out.rename({"win_share": "win_rate"}).with_columns(
        pl.col("seats").cast(pl.Int64),
        pl.col("raid_net").cast(pl.Int64),
        pl.Series("ci_low", [c[0] for c in ci], dtype=pl.Float64),
        pl.Series("ci_high", [c[1] for c in ci], dtype=pl.Float64),
    )

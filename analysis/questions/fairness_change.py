"""Does seat fairness change between two rule variants (or two runs) by more than the margin?

``fairness_changes`` makes ``analysis.questions.balance.compare_variants``' comparisons and decides each with
``analysis.stats.decide.change_decision`` on the two sides' block matrices, beside each side's own seat
decision (docs/decisions.md, "Rule variants: does fairness change?").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from analysis.data.runs import Runs
from analysis.questions.balance import _decision_fields, _pairs, _seat_blocks, seat_margin
from analysis.stats.decide import change_decision

#: the columns of ``fairness_changes`` beside the group's keys, ``key``, ``base`` and ``value``
CHANGE_COLUMNS = (
    "position",
    "decision",
    "margin",
    "decisive",
    "diff",
    "diff_low",
    "diff_high",
    "p_value",
    "test",
    "correction",
    "family",
    "beyond_margin",
    "half_width",
    "games_needed",
    "games",
    "blocks",
)


def fairness_changes(
    runs: Runs,
    key: str = "variant",
    baseline: str | None = None,
    by: Sequence[str] = ("game", "players", "mix"),
    position: str = "seat",
) -> pl.DataFrame:
    """Does seat fairness change between the baseline and each value of ``key``, by more than the margin?

    The comparisons are ``compare_variants``' (same ``key``, ``baseline`` and ``by``).  For each, the two
    sides' (blocks x positions) summed win shares are decided by ``analysis.stats.decide.change_decision`` at
    the report's margin (``seat_margin``): the same within δ where every position's change in win share
    has its (1 − 2α) interval inside ±δ (equivalence on the differences), changed where Holm over the
    positions rejects "no change", else undecided with the games that would decide it.  The sides are
    taken as independent samples of blocks; where they share deals (variants of one study) their
    positive correlation only widens the intervals, so both claims stay conservative.  Beside it, each
    side's own ``seat_decision`` (``base_*`` and ``value_*``: decision, decisive position, its win share
    with its interval and p, half-width and games needed).  One row per comparison; empty where there
    is none, or where the sides' positions differ."""
    rows = []
    for keyd, base, value, _, (base_seats, other_seats) in _pairs(runs, key, baseline, by, position):
        a, pos_a = _seat_blocks(base_seats, position)
        b, pos_b = _seat_blocks(other_seats, position)
        players = int(keyd.get("players") or len(pos_a))
        if pos_a != pos_b or len(pos_a) < 2 or len(pos_a) != players or not a.height or not b.height:
            continue
        ya, yb = a.select(pos_a).to_numpy(), b.select(pos_b).to_numpy()
        ma, mb = a["_games"].to_numpy(), b["_games"].to_numpy()
        if not (ma > 0).any() or not (mb > 0).any():
            continue
        labels = [str(p) for p in pos_a]
        change = change_decision(ya, yb, seat_margin(), labels=labels, games_a=ma, games_b=mb)
        found = change.to_finding()
        row: dict[str, Any] = {
            **keyd,
            "key": key,
            "base": str(base),
            "value": str(value),
            "position": position,
            "decision": change.decision,
            "margin": change.margin,
            "decisive": found["position"],
            "diff": found["estimate"],
            "diff_low": found["low"],
            "diff_high": found["high"],
            "p_value": found["p_value"],
            "test": change.test,
            "correction": found["correction"],
            "family": found["family"],
            "beyond_margin": change.beyond_margin,
            "half_width": found["half_width"],
            "games_needed": change.games_needed,
            "games": int(ma.sum() + mb.sum()),
            "blocks": change.blocks,
        }
        for side, y, m in (("base", ya, ma), ("value", yb, mb)):
            fields = _decision_fields({"players": players}, y, m, pos_a)
            row.update({f"{side}_{k}": fields[k] for k in SIDE_COLUMNS})
            row[f"{side}_games"] = int(m.sum())
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()


#: each side's columns of ``fairness_changes`` (from ``_decision_fields``), prefixed ``base_``/``value_``
SIDE_COLUMNS = (
    "decision",
    "decisive",
    "decisive_rate",
    "decisive_low",
    "decisive_high",
    "decision_expected",
    "decision_p",
    "half_width",
    "games_needed",
)

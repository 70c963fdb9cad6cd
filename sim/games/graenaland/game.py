"""Graenaland as a ``sim.game.Game``: metadata plus thin wrappers over ``rules``."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.game import GameBase, Result, RuleSwitch, result_from_scores
from sim.games.graenaland import data as data_module
from sim.games.graenaland import rules
from sim.games.graenaland.board import Board, build_board
from sim.games.graenaland.data import GOALS, GraenalandData
from sim.games.graenaland.state import (
    OVER,
    STATS,
    GraenalandState,
    ProposalRecord,
    copy_state,
)
from sim.games.graenaland.turns import (
    ACTION_FIELD_DOCS,
    ACTION_FIELDS,
    ACTION_KIND_FIELDS,
    seat_scores,
    turn_row,
)
from sim.games.graenaland.victory import goal_values, goals_met, victory_points
from sim.games.graenaland.view import GraenalandView, view_of

RULE_SWITCHES = (
    RuleSwitch(
        name="three_player_adjustments",
        default="auto",
        choices=("auto", "on", "off"),
        doc="G7: the adjustments for three (graenaland.txt:243-249: heroes +1 vote, a priest gives 1 and "
        "cuts warriors to 1, skald 1 + others, palisade -1 to every hero of a player without a settlement "
        "there, first building not counted for Buildings). auto = on for 3 players only (line 25 "
        "'you should use the adjustments'), on/off force them for any player count.",
    ),
    RuleSwitch(
        name="custom_start",
        default=False,
        choices=(True, False),
        doc="G22-G24: the advanced start-position draft (graenaland.txt:267-277) instead of the standard "
        "start spaces: two face-down cards at each coastal territory, villages placed 1..n with the warrior "
        "then n..1, a crowded territory lets earlier settlers weigh anchor. Off by default (line 257).",
    ),
    RuleSwitch(
        name="victory_cards",
        default=False,
        choices=(True, False),
        doc="G25-G26: victory point cards (graenaland.txt:279-316): keep one of three dealt cards, 6 points "
        "win, announcements after distribution and before building, final building ranked by points. "
        "Advanced rule: off by default (37).",
    ),
    RuleSwitch(
        name="five_player_offer",
        default=False,
        choices=(True, False),
        doc="G20: the optional five-player rule (graenaland.txt:296-304): instead of the joint public "
        "building "
        "proposal the main player lets another player build one thing (no marketplace, no supply card). "
        "Optional in the rulebook, so off by default; only has an effect with 5 players.",
    ),
)

PART_FIELDS = (
    "goals_met", *(f"goal_{g}" for g in GOALS), *GOALS, "villages", "houses_left", "hand_cards",
    "supply_held",
    "announced", "rounds", "start_position", "start_territory_a", "start_territory_b", "draft_order",
    "chosen_territory", "victory_points", "victory_card", *STATS,
)


class Graenaland(GameBase[GraenalandState, GraenalandData]):
    name = "graenaland"
    min_players = 3
    max_players = 5
    rule_switches = RULE_SWITCHES
    action_fields = ACTION_FIELDS
    #: per action kind (the ``kind`` string ``record`` returns), the action columns it fills; every other
    #: action column is -1 in that kind's rows
    action_kinds = ACTION_KIND_FIELDS
    #: for every name in action_fields, what it holds
    action_docs = ACTION_FIELD_DOCS
    part_fields = PART_FIELDS
    default_max_decisions = 20000
    default_data_path = data_module.DEFAULT_PATH
    read_data = staticmethod(data_module.load)
    new_game = staticmethod(rules.new_game)

    @staticmethod
    def _ctx(state: GraenalandState) -> tuple[Board, GraenalandData]:
        data = state.data
        return build_board(data, state.n_players), data

    def to_move(self, state: GraenalandState) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_options(self, state: GraenalandState, seat: int):
        board, data = self._ctx(state)
        return rules.options(state, board, data, seat)

    def view(self, state: GraenalandState, seat: int) -> GraenalandView:
        board, data = self._ctx(state)
        return view_of(state, board, data, seat)

    def apply(self, state: GraenalandState, choices: dict[int, Any]) -> None:
        board, data = self._ctx(state)
        rules.apply(state, board, data, choices)

    #: (kind, fields in ACTION_FIELDS order) of a chosen option (``turns.turn_row``)
    record = staticmethod(turn_row)
    #: goals met per seat, or victory points with the victory point cards (``turns.seat_scores``)
    scores = staticmethod(seat_scores)

    def is_terminal(self, state: GraenalandState) -> bool:
        return state.phase == OVER

    def result(self, state: GraenalandState) -> Result:
        """The announcer wins (line 241); the others rank by goals met after their final building
        phase, ties sharing a rank (ruling G19). Without an announcer (truncated) the most goals lead."""
        _, data = self._ctx(state)
        scores = self.scores(state)
        parts = [self._parts(state, data, p) for p in range(state.n_players)]
        a = state.announcer
        if a < 0 or (state.rules.get("victory_cards") and scores[a] < data.victory_points):
            return result_from_scores(scores, parts)  # no announcer, or one who failed to prove it (G26)
        ranks = [1 if p == a else 2 + sum(1 for q, o in enumerate(scores) if q != a and o > s)
                 for p, s in enumerate(scores)]
        return Result(scores=scores, ranks=ranks, winners=[a], parts=parts)

    def _parts(self, state: GraenalandState, data: GraenalandData, p: int) -> dict[str, float]:
        values = goal_values(state, data, p)
        met = goals_met(state, data, p)
        out = {"goals_met": float(sum(met))}
        out.update({f"goal_{g}": float(m) for g, m in zip(GOALS, met, strict=True)})
        out.update({g: float(v) for g, v in zip(GOALS, values, strict=True)})
        out["villages"] = float(sum(row[p] for row in state.villages))
        out["houses_left"] = float(state.houses[p])
        out["hand_cards"] = float(len(state.hands[p]))
        out["supply_held"] = float(len(state.supplies[p]))
        out["announced"] = float(state.announcer == p)
        out["rounds"] = float(state.round)
        out["start_position"] = float(p + 1)  # seat i settles the spaces marked i + 1 (lines 47-48)
        out["start_territory_a"], out["start_territory_b"] = (float(x) for x in state.start_positions[p])
        custom = bool(state.rules.get("custom_start"))
        out["draft_order"] = float(p + 1) if custom else -1.0
        out["chosen_territory"] = float(state.start_positions[p][0]) if custom else -1.0
        card = state.vp_card[p] if state.vp_card else -1
        out["victory_points"] = float(victory_points(state, data, p, card))
        out["victory_card"] = float(card)
        out.update({k: float(v[p]) for k, v in state.stats.items()})
        return out

    # ------------------------------------------------------------------ snapshots

    def copy(self, state: GraenalandState) -> GraenalandState:
        """An independent copy, much cheaper than ``from_dict(to_dict(state))`` (``state.copy_state``)."""
        return copy_state(state)

    def determinize(self, state: GraenalandState, seat: int, rng: Any) -> GraenalandState:
        """A full state consistent with what ``seat`` has seen, the rest redrawn (``graenaland.hidden``)."""
        from sim.games.graenaland.hidden import determinize

        return determinize(state, seat, rng)

    def to_dict(self, state: GraenalandState) -> dict[str, Any]:
        data = state.data
        plain = {
            k: getattr(state, k) for k in (
                "n_players", "seed", "rules", "three", "villages", "buildings", "public", "cards",
                "face_down",
                "heroes", "waiting", "army", "hands", "supplies", "decks", "discards", "supply_deck",
                "supply_row", "supply_discard", "houses", "tokens", "round", "main", "phase", "proposers",
                "voters", "vote_weights", "builder", "final", "final_queue", "supply_taken", "markets_used",
                "joint_used", "offer_active", "fee_queue", "joint", "contributors", "relocate", "announcer",
                "stats", "start_positions", "proposal", "pending", "draft_queue", "draft_cards", "settlers",
                "vp_offer", "vp_card", "claims", "anchor")
        }
        doc = _jsonable(plain)
        doc["seed"] = int(state.seed)
        doc["taken"] = [[k, list(v)] for k, v in state.taken.items()]
        doc["history"] = [_jsonable(vars(r)) for r in state.history]
        doc["rng"] = state.rng.bit_generator.state
        doc["data_path"] = data.path
        return doc

    def from_dict(self, doc: dict[str, Any]) -> GraenalandState:
        data = self.data_of(doc)
        state = self.new_state(doc["n_players"], doc["rules"], data, doc["seed"])
        for key in ("three", "villages", "buildings", "public", "cards", "face_down", "heroes", "waiting",
                    "army",
                    "hands", "supplies", "decks", "discards", "supply_deck", "supply_row", "supply_discard",
                    "houses", "tokens", "round", "main", "phase", "proposers", "builder", "final",
                    "final_queue",
                    "supply_taken", "markets_used", "joint_used", "offer_active", "fee_queue", "announcer",
                    "stats", "draft_queue", "draft_cards", "settlers", "vp_offer", "vp_card", "claims"):
            setattr(state, key, doc[key])
        state.voters, state.vote_weights = tuple(doc["voters"]), tuple(doc["vote_weights"])
        state.contributors = tuple(doc["contributors"])
        state.joint = tuple(doc["joint"]) if doc["joint"] is not None else None
        state.relocate = tuple(doc["relocate"]) if doc["relocate"] is not None else None
        p = doc["proposal"]
        state.proposal = None if p is None else (p[0], p[1], tuple(p[2]))
        pend = doc["pending"]
        state.pending = None if pend is None else (pend[0], pend[1], pend[2],
                                                   None if pend[3] is None else tuple(pend[3]))
        state.taken = {int(k): tuple(v) for k, v in doc["taken"]}
        state.start_positions = [tuple(x) for x in doc["start_positions"]]
        records: list[dict[str, Any]] = [
            {k: tuple(v) if isinstance(v, list) else v for k, v in r.items()} for r in doc["history"]
        ]
        state.history = [ProposalRecord(**fields) for fields in records]
        state.anchor = None if doc["anchor"] is None else (doc["anchor"][0], list(doc["anchor"][1]))
        state.rng.bit_generator.state = doc["rng"]
        return state


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    return value


GAME = Graenaland()

"""Graenaland as a ``sim.game.Game``: metadata plus thin wrappers over ``rules``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sim.game import GameBase, Result, RuleSwitch, result_from_scores
from sim.games.graenaland import data as data_module
from sim.games.graenaland import rules
from sim.games.graenaland.board import Board, build_board
from sim.games.graenaland.data import GOALS, GraenalandData
from sim.games.graenaland.options import (
    ACTION_KINDS,
    Action,
    Contribute,
    Decide,
    Fee,
    Move,
    Pay,
    Propose,
    Vote,
)
from sim.games.graenaland.state import (
    ANCHOR,
    ANNOUNCE,
    BUILD,
    CHOOSE_CARD,
    CONTRIBUTE,
    DRAFT,
    FEE,
    HEROES,
    JOINT,
    OVER,
    PAY,
    PROPOSE,
    RELOCATE,
    STATS,
    VOTE,
    GraenalandState,
    ProposalRecord,
    copy_state,
)
from sim.games.graenaland.victory import goal_counts, goal_values, goals_met, victory_points
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

RESOURCE_FIELDS = ("grain", "cattle", "wood", "ore", "gold")
SHARE_FIELDS = tuple(f"share_{s}" for s in range(5))
ACTION_FIELDS = (
    "round", "phase", "territory", "hero", "direction", "build", "supply_slot", "public_kind", "offered_seat",
    "victory_card", "points", "vote", *SHARE_FIELDS, *RESOURCE_FIELDS, "supply_cards", "markets", "army",
    "goals",
)
#: Every row holds the decision's round and phase and the deciding seat's army and goals met.
CONTEXT_FIELDS = ("round", "phase", "army", "goals")
_BUILT = ("build", "territory")
ACTION_KIND_FIELDS: dict[str, tuple[str, ...]] = {
    kind: CONTEXT_FIELDS + extra for kind, extra in (
        ("move", ("hero", "direction")),
        ("stay", ()),
        ("propose", ("territory", *SHARE_FIELDS)),
        ("no_proposal", ()),
        ("vote", ("territory", "vote")),
        ("supply", ("build", "supply_slot")),
        *((name, _BUILT) for name in ("village", "fortress", "church", "hall", "road", "yield", "market",
                                      "palisade")),
        ("army", ("build",)),
        ("joint", (*_BUILT, "public_kind")),
        ("offer", ("build", "offered_seat")),
        ("end", ("build",)),
        ("pay", (*_BUILT, "public_kind", *RESOURCE_FIELDS, "supply_cards", "markets")),
        ("fee", ("territory", *RESOURCE_FIELDS)),
        ("contribute", ("territory", "public_kind", *RESOURCE_FIELDS)),
        ("joint_build", ("territory", "public_kind")),
        ("joint_decline", ("territory", "public_kind")),
        ("relocate", ("hero", "territory")),
        ("keep_hero", ("hero", "territory")),
        ("settle", ("territory",)),
        ("keep_card", ("victory_card",)),
        ("stay_anchored", ()),
        ("weigh_anchor", ("territory",)),
        ("announce", ("points",)),
        ("no_announce", ("points",)),
        ("malformed", ()),  # an option of the wrong shape: only the context
    )
}
ACTION_FIELD_DOCS: dict[str, str] = {
    "round": "the round, from 1 (every row)",
    "phase": "the decision's phase, a position in state.PHASES: 0 heroes, 1 propose, 2 vote, 3 build, 4 pay, "
             "5 fee, 6 contribute, 7 joint, 8 relocate, 10 draft, 11 anchor, 12 choose_card, 13 announce",
    "territory": "a territory (0..n-1 the coast west to east, then the inland row): of the proposal, "
                 "the vote, the build or its payment, the fee, the joint building, the hero's new "
                 "church/hall, or the start village placed or moved",
    "hero": "the hero moved or offered a move: 0 warrior, 1 priest, 2 skald",
    "direction": "the compass direction of a hero move, a position in board.DIRECTIONS: W, E, WW, EE, NW, "
                 "NE, SW, SE",
    "build": "the building-phase action chosen or paid for, a position in options.ACTION_KINDS (supply, "
             "village, fortress, church, hall, army, road, yield, market, palisade, joint, offer, end)",
    "supply_slot": "the face-up supply card taken, its position in the supply row (0-3)",
    "public_kind": "the joint public building, a position in data.PUBLIC: 0 road, 1 yield, 2 market, "
                   "3 palisade",
    "offered_seat": "the seat the five-player offer lets build one thing (line 300)",
    "victory_card": "the victory point card kept, its index in the data file's victory cards",
    "points": "the most victory points the seat can reach with this round's builds (6 or more): its "
              "announcement's claim (ruling G25)",
    "vote": "1 yes, 0 no",
    **{f"share_{s}": f"cards the proposal gives seat {s} (-1 where the game has no seat {s})"
       for s in range(5)},
    **{r: f"{r} cards paid (pay), offered (contribute) or given as the palisade fee (fee)"
       for r in RESOURCE_FIELDS},
    "supply_cards": "supply cards the payment uses",
    "markets": "marketplaces the payment uses",
    "army": "the deciding seat's army strength (every row)",
    "goals": "the goals (of five) the deciding seat meets (every row)",
}
PART_FIELDS = (
    "goals_met", *(f"goal_{g}" for g in GOALS), *GOALS, "villages", "houses_left", "hand_cards",
    "supply_held",
    "announced", "rounds", "start_position", "start_territory_a", "start_territory_b", "draft_order",
    "chosen_territory", "victory_points", "victory_card", *STATS,
)
_NONE = [-1] * len(ACTION_FIELDS)
# Column positions in ACTION_FIELDS, for ``record``'s row.
(F_ROUND, F_PHASE, F_TERRITORY, F_HERO, F_DIRECTION, F_BUILD, F_SUPPLY_SLOT, F_PUBLIC_KIND, F_OFFERED_SEAT,
 F_VICTORY_CARD, F_POINTS, F_VOTE) = range(12)
F_SHARE = ACTION_FIELDS.index("share_0")  # share_0 .. share_4
F_RESOURCE = ACTION_FIELDS.index("grain")  # grain, cattle, wood, ore, gold
F_SUPPLY_CARDS, F_MARKETS, F_ARMY, F_GOALS = range(F_RESOURCE + 5, F_RESOURCE + 9)
assert ACTION_FIELDS[F_VOTE] == "vote" and ACTION_FIELDS[F_GOALS] == "goals"
assert set(ACTION_FIELD_DOCS) == set(ACTION_FIELDS)
_BUILD_KINDS = frozenset(ACTION_KINDS) - {"settle", "anchor", "keep_card"}


# ------------------------------------------------------------------ the turn log, per phase
# Each recorder fills the row ``f`` (ACTION_FIELDS order, -1 where unused) for one option of its phase
# and returns the action kind; an option of the wrong shape raises (TypeError, ValueError, IndexError)
# and is logged "malformed".
Recorder = Callable[[GraenalandState, int, Any, list[int]], str]


def _record_vote(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    f[F_VOTE] = int(bool(Vote(*option).yes))
    f[F_TERRITORY] = state.proposal[1] if state.proposal else -1
    return "vote"


def _record_move(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    move = Move(*option)
    if move.hero < 0:
        return "stay"
    f[F_HERO], f[F_DIRECTION] = move.hero, move.direction
    return "move"


def _record_proposal(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    prop = Propose(*option)
    if prop.territory < 0:
        return "no_proposal"
    f[F_TERRITORY] = prop.territory
    for s in range(state.n_players):
        f[F_SHARE + s] = sum(1 for r in prop.receivers if r == s)
    return "propose"


def _record_build(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    act = Action(*option)
    kind = act.kind
    if kind not in _BUILD_KINDS:
        return "malformed"
    f[F_BUILD] = ACTION_KINDS.index(kind)
    if kind == "supply":
        f[F_SUPPLY_SLOT] = act.index
    elif kind == "offer":
        f[F_OFFERED_SEAT] = act.index
    elif kind != "army" and kind != "end":
        f[F_TERRITORY] = act.territory
        if kind == "joint":
            f[F_PUBLIC_KIND] = act.index
    return kind


def _record_pay(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    pay = Pay(*option)
    pk, t, k, _need = state.pending  # type: ignore[misc]
    f[F_BUILD], f[F_TERRITORY], f[F_PUBLIC_KIND] = ACTION_KINDS.index(pk), t, k
    f[F_RESOURCE : F_RESOURCE + 5] = pay.resources
    f[F_SUPPLY_CARDS], f[F_MARKETS] = len(pay.supplies), pay.markets
    return "pay"


def _record_fee(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    f[F_RESOURCE + Fee(*option).resource] = 1
    f[F_TERRITORY] = state.pending[1] if state.pending else -1
    return "fee"


def _record_contribution(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    f[F_RESOURCE : F_RESOURCE + 5] = Contribute(*option).resources
    f[F_TERRITORY], f[F_PUBLIC_KIND] = state.pending[1], state.pending[2]  # type: ignore[index]
    return "contribute"


def _record_joint(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    kind = "joint_build" if Decide(*option).yes else "joint_decline"
    f[F_TERRITORY], f[F_PUBLIC_KIND] = state.pending[1], state.pending[2]  # type: ignore[index]
    return kind


def _record_relocate(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    kind = "relocate" if Decide(*option).yes else "keep_hero"
    f[F_HERO], f[F_TERRITORY] = state.relocate  # type: ignore[misc]
    return kind


def _record_settle(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    f[F_TERRITORY] = Action(*option).territory
    return "settle"


def _record_card(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    f[F_VICTORY_CARD] = state.vp_offer[seat][Action(*option).index]
    return "keep_card"


def _record_anchor(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    if len(option) == 1:
        return "stay_anchored"
    f[F_TERRITORY] = Action(*option).territory
    return "weigh_anchor"


def _record_announce(state: GraenalandState, seat: int, option: Any, f: list[int]) -> str:
    kind = "announce" if Decide(*option).yes else "no_announce"
    f[F_POINTS] = state.claims[seat]
    return kind


#: per phase, its recorder (no decision is taken in another phase: its rows are "malformed")
_RECORDERS: dict[int, Recorder] = {
    VOTE: _record_vote, HEROES: _record_move, PROPOSE: _record_proposal, BUILD: _record_build,
    PAY: _record_pay, FEE: _record_fee, CONTRIBUTE: _record_contribution, JOINT: _record_joint,
    RELOCATE: _record_relocate, DRAFT: _record_settle, CHOOSE_CARD: _record_card, ANCHOR: _record_anchor,
    ANNOUNCE: _record_announce,
}


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

    def record(self, state: GraenalandState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """(kind, fields in ACTION_FIELDS order): the columns ``action_kinds[kind]`` names, -1 elsewhere."""
        f = _NONE.copy()
        phase = state.phase
        f[F_ROUND], f[F_PHASE] = state.round, phase
        f[F_ARMY], f[F_GOALS] = state.army[seat], goal_counts(state, state.data)[seat]
        recorder = _RECORDERS.get(phase)
        try:
            kind = "malformed" if recorder is None else recorder(state, seat, option, f)
        except (TypeError, ValueError, IndexError):
            kind = "malformed"
        if kind == "malformed" or len(f) != len(ACTION_FIELDS):  # also a payment of the wrong length
            row = _NONE.copy()
            row[F_ROUND], row[F_PHASE], row[F_ARMY], row[F_GOALS] = state.round, phase, f[F_ARMY], f[F_GOALS]
            return "malformed", tuple(row)
        return kind, tuple(f)  # ints: the option's own fields (a legal option's are ints) and counts

    def scores(self, state: GraenalandState) -> list[float]:
        """Goals met per seat (graenaland.txt:225); victory points with the victory point cards (286)."""
        data = state.data
        if state.rules.get("victory_cards"):
            return [float(victory_points(state, data, p, state.vp_card[p])) for p in range(state.n_players)]
        return list(map(float, goal_counts(state, data)))

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

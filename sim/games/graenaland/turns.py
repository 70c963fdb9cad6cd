"""Graenaland's turn log: the action columns of a decision's row, what each holds and which columns each
kind of action fills, and the row of one chosen option (``turn_row``), with the seats' scores after a
decision (``seat_scores``: graenaland.txt:225, 286).  Compiled with the rules (``sim.engines``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    PAY,
    PROPOSE,
    RELOCATE,
    VOTE,
    GraenalandState,
)
from sim.games.graenaland.victory import goal_counts, victory_points

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


def turn_row(state: GraenalandState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
    """(kind, fields in ACTION_FIELDS order): the columns ``ACTION_KIND_FIELDS[kind]`` names, -1 elsewhere."""
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


def seat_scores(state: GraenalandState) -> list[float]:
    """Goals met per seat (graenaland.txt:225); victory points with the victory point cards (286)."""
    data = state.data
    if state.rules.get("victory_cards"):
        return [float(victory_points(state, data, p, state.vp_card[p])) for p in range(state.n_players)]
    return list(map(float, goal_counts(state, data)))

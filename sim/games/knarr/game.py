"""Knarr (with the skáli/raid expansion behind ``--rule skali=true``) as a ``sim.game.Game``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from sim.game import GameBase, Result, RuleSwitch, copy_state, fields_doc, fields_of, result_from_scores
from sim.games.knarr import data as data_module
from sim.games.knarr import rules
from sim.games.knarr.data import KnarrData
from sim.games.knarr.state import DISCARD, KINDS, OVER, STATS, KnarrState, Option
from sim.games.knarr.view import KnarrView, view_of

RULE_SWITCHES = (
    RuleSwitch(
        name="skali",
        default=False,
        choices=(True, False),
        doc="The skáli/raid expansion (knarr-skali-expansion.txt): coins, Buildings (Develop, line 20-28), "
        "village activation (32-41), raid tokens and raids (45-51), 13 new destinations (9-10).",
    ),
    RuleSwitch(
        name="artifacts",
        default=False,
        choices=(True, False),
        doc="The artifact variant (knarr.md A.7): one random Artifact; with 2 players the Mead Cup as well "
        "(the random one then drawn from the other six, ruling R16).",
    ),
    RuleSwitch(
        name="helmet",
        default="stack",
        choices=("stack", "cover"),
        doc="R16: the Helmet artifact (knarr.md A.7 'you place a just-explored Land of Influence directly "
        "onto a Trading Land: an immediate extra Recruit action'). stack = BGA ArtifactManager "
        "handleEndExplore: the Land of Influence explored lands on top of the player's destinations right "
        "after a Trading Land (the one explored before it); no trade row is lost; optional extra Recruit. "
        "cover = the player may cover any own Trading Land with it (that trade row stops counting) for the "
        "extra Recruit.",
    ),
    RuleSwitch(
        name="silver_coins",
        default="flat",
        choices=("flat", "column"),
        doc="R16: the Silver Coins artifact (knarr.md A.7 'you recruit a Viking beyond the 3rd of one colour "
        "| +1 VP for each such Viking'). flat = +1 VP each time such a Viking is recruited (BGA "
        "ArtifactManager::checkArtifact `[VP => 1]`); column = +1 VP per Viking beyond the 3rd in the "
        "column at that recruit (4th +1, 5th +2, ...; an early BGA utils.php draft).",
    ),
    RuleSwitch(
        name="ship",
        default="normal",
        choices=("normal", "advanced"),
        doc="Ship side (knarr.md A.2/A.3): normal row [-, recruit, -] (recommended first game), "
        "advanced [VP, -, bracelet].",
    ),
    RuleSwitch(
        name="skali_end",
        default="base",
        choices=("base", "final_raid", "tiebreak_coins"),
        doc="R14: the expansion's end of game is not in the text (knarr-skali-expansion.txt:55). base = the "
        "base game's 40-VP end and scoring; final_raid = one more raid when the game ends; tiebreak_coins "
        "= coins and raid tokens join recruits + bracelets in the tie-break (knarr.md A.8 ASSUMPTION).",
    ),
    RuleSwitch(
        name="raid_all_tied",
        default="both",
        choices=("both", "most"),
        doc="R13: with 3-4 players all tied at a raid (knarr-skali-expansion.txt:47-49 says nothing), "
        "both = everyone applies bonuses and penalties and returns all tokens (the 2-player tie rule, "
        "line 51); most = everyone is only a winner. Takes effect only with 3-4 players and "
        "skali_end=final_raid: a raid at the end of a turn finds the board empty, so the players hold "
        "2n+1 or 2n+2 of the 2n+2 tokens (lines 13-15), which 3 or 4 players never share equally.",
    ),
)


#: the turns table's action columns (after ``kind``)
ACTION_FIELDS = (
    "round",
    "viking",
    "colour",
    "board_slot",
    "destination_slot",
    "destination",
    "vikings_paid",
    "recruits_paid",
    "bracelets",
    "display_slot",
    "building",
    "buildings_renewed",
)
#: per action kind (state.KINDS), the action columns it fills; every other column is -1 in its rows
ACTION_KINDS: dict[str, tuple[str, ...]] = {
    "recruit": ("round", "viking", "colour", "board_slot"),
    "explore": ("round", "destination_slot", "destination", "vikings_paid", "recruits_paid"),
    "trade": ("round", "bracelets"),
    "develop": ("round", "display_slot", "building"),
    "renew": ("round", "buildings_renewed"),
    "end": ("round",),
    "pass": ("round",),
    "discard": ("round", "colour", "viking"),
    "reserve": ("round", "destination_slot", "destination"),
    "swap": ("round", "board_slot"),
    "cover": ("round", "destination"),
    "skip": ("round",),
}
assert tuple(ACTION_KINDS) == KINDS
#: for every action column, what it holds
ACTION_DOCS: dict[str, str] = {
    "round": "round of play, 1 = every seat's first turn (A.6: the game ends with a complete round)",
    "viking": "Viking card id (an index into the Viking deck of the data file, data.viking_colour): "
    "recruit = the card played from the hand, discard = the crew Viking discarded (empty Viking deck)",
    "colour": "that Viking's colour, 0-4 = red, yellow, green, blue, purple",
    "board_slot": "board slot 0-4 (red, yellow, green, blue, purple): recruit = the slot whose Viking is "
    "taken (-1: none, the slot of the played colour is empty, ruling R3); swap = the slot replaced "
    "(Mead Cup)",
    "destination_slot": "where the destination lay: 0-2 Trading Lands and 3-5 Lands of Influence on display, "
    "6 and 7 the player's reserved ones (Golden Bracelet)",
    "destination": "destination index (data.destinations, D<id><deck> in the study): explored, reserved "
    "(Golden Bracelet) or the own Trading Land covered (Helmet, helmet=cover)",
    "vikings_paid": "crew Vikings discarded to pay the destination",
    "recruits_paid": "recruits spent to pay the destination, each in place of a missing Viking",
    "bracelets": "silver bracelets spent on the trade (1-3: columns 1..k of every trade row)",
    "display_slot": "Building display slot 0-3 bought from",
    "building": "Building index (data.buildings, B<id> in the study) bought",
    "buildings_renewed": "display Buildings renewed (1 or 2; 2 players)",
}
#: per kind, a row of ACTION_FIELDS from (its ACTION_KINDS values..., -1): each column picks its value or -1
_ROW = {
    kind: itemgetter(*(cols.index(f) if f in cols else len(cols) for f in ACTION_FIELDS))
    for kind, cols in ACTION_KINDS.items()
}


def _round_only(state: KnarrState, o: Option) -> tuple[int, ...]:
    return (state.round,)


#: per kind, the values of its ACTION_KINDS columns
_VALUES: dict[str, Callable[[KnarrState, Option], tuple[int, ...]]] = {
    "recruit": lambda state, o: (state.round, o.a, state.data.viking_colour[o.a], o.b),
    "explore": lambda state, o: (state.round, o.a, o.b, sum(o.pay[:5]), o.pay[5]),
    "trade": lambda state, o: (state.round, o.a),
    "develop": lambda state, o: (state.round, o.a, state.display[o.a]),
    "renew": lambda state, o: (state.round, len(o.pay)),
    "end": _round_only,
    "pass": _round_only,
    "discard": lambda state, o: (state.round, o.a, o.b),
    "reserve": lambda state, o: (state.round, o.a, o.b),
    "swap": lambda state, o: (state.round, o.a),
    "cover": lambda state, o: (state.round, o.b),
    "skip": _round_only,
}


#: ``KnarrState``'s containers for ``copy``: one level deep, two levels deep (``crews``, three
#: levels, is copied by hand, ``legal`` dropped; every other field is immutable)
_FLAT = (
    "rules", "deck", "discard", "board", "vp", "rep", "recruits", "bracelets", "deck_a", "deck_b", "visible",
    "coins", "raids", "building_deck", "display", "renewal", "bonus", "pending_refill", "raid_log",
)
_NESTED = ("hands", "owned", "covered", "buildings", "reserved", "stats")


class Knarr(GameBase[KnarrState, KnarrData]):
    name = "knarr"
    min_players = 2
    max_players = 4
    rule_switches = RULE_SWITCHES
    action_fields = ACTION_FIELDS
    action_kinds = ACTION_KINDS
    action_docs = ACTION_DOCS
    part_fields = (
        "tiebreak",
        "reputation",
        "recruits",
        "bracelets",
        "coins",
        "raid_tokens",
        "destinations",
        "lands_of_influence",
        "buildings",
        "crew",
        "raids_in_game",
        *STATS,
    )
    default_max_decisions = 4000
    default_data_path = data_module.DEFAULT_PATH
    read_data = staticmethod(data_module.load)
    new_game = staticmethod(rules.new_game)

    def to_move(self, state: KnarrState) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_options(self, state: KnarrState, seat: int) -> list[Option]:
        legal = rules.options(state, state.data, seat)
        state.legal = (seat, legal)  # checked against by rules.apply
        return legal

    def view(self, state: KnarrState, seat: int) -> KnarrView:
        return view_of(state, state.data, seat)

    def apply(self, state: KnarrState, choices: dict[int, Any]) -> None:
        data = state.data
        if state.phase == DISCARD:
            rules.apply_discards(state, data, choices)
            return
        for seat, option in choices.items():
            rules.apply(state, data, seat, option)

    def record(self, state: KnarrState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """(kind, ACTION_FIELDS): the columns of ``action_kinds[kind]``, -1 in the others."""
        o = option if type(option) is Option else Option(*option)
        return o.kind, _ROW[o.kind]((*_VALUES[o.kind](state, o), -1))

    def scores(self, state: KnarrState) -> list[float]:
        return [float(v) for v in state.vp]

    def is_terminal(self, state: KnarrState) -> bool:
        return state.phase == OVER

    def result(self, state: KnarrState) -> Result:
        """Highest VP wins; ties broken by recruits + bracelets (knarr.md A.6); still tied: shared."""
        data = state.data
        scores = rules.final_scores(state)
        tb = rules.tiebreak(state)
        keys = [s * 1000 + t for s, t in zip(scores, tb, strict=True)]
        parts = []
        for p in range(state.n_players):
            parts.append(
                {
                    "tiebreak": float(tb[p]),
                    "reputation": float(state.rep[p]),
                    "recruits": float(state.recruits[p]),
                    "bracelets": float(state.bracelets[p]),
                    "coins": float(state.coins[p]),
                    "raid_tokens": float(state.raids[p]),
                    "destinations": float(len(state.owned[p])),
                    "lands_of_influence": float(
                        sum(data.destinations[d].deck == "B" for d in state.owned[p])
                    ),
                    "buildings": float(len(state.buildings[p])) if state.buildings else 0.0,
                    "crew": float(sum(len(c) for c in state.crews[p])),
                    "raids_in_game": float(len(state.raid_log)),
                    **{k: float(v[p]) for k, v in state.stats.items()},
                }
            )
        return result_from_scores(scores, parts, keys)

    def to_dict(self, state: KnarrState) -> dict[str, Any]:
        doc = fields_doc(state, ("legal",))
        doc["artifacts"] = list(state.artifacts)
        return copy.deepcopy(doc)  # a snapshot: nothing shared with the live state

    def copy(self, state: KnarrState) -> KnarrState:
        new = copy_state(state, _FLAT, _NESTED)
        new.crews = [[cards.copy() for cards in seat] for seat in state.crews]
        new.legal = None
        return new

    def determinize(self, state: KnarrState, seat: int, rng: Any) -> KnarrState:
        """A full state consistent with what ``seat`` has seen, the rest redrawn (``knarr.hidden``)."""
        from sim.games.knarr.hidden import determinize

        return determinize(state, seat, rng)

    def from_dict(self, doc: dict[str, Any]) -> KnarrState:
        fields = fields_of(doc)
        fields["artifacts"] = tuple(doc["artifacts"])
        fields["raid_log"] = [tuple(x) for x in doc.get("raid_log", [])]
        state = KnarrState(**fields)
        state.data = self.data_of(doc)
        return state


GAME = Knarr()

"""Mainland as a ``sim.game.Game``: metadata plus thin wrappers over ``rules``."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.game import GameBase, Result, RuleSwitch, copy_state, result_from_scores
from sim.games.mainland import data as data_module
from sim.games.mainland import rules
from sim.games.mainland.data import MainlandData
from sim.games.mainland.state import KINDS, OVER, PLACE_CAMP, PLACE_CARD, REPLACE, MainlandState
from sim.games.mainland.view import MainlandView, view_of

RULE_SWITCHES = (
    RuleSwitch(
        name="castle_needs_overlap",
        default=True,
        choices=(True, False),
        doc="R4: a castle card is exempt from rule 2 only ('does not need to overlap empty space', "
        "mainland.txt:129,257); false also exempts it from rule 1 ('can be placed anywhere').",
    ),
    RuleSwitch(
        name="card_meets_own_requirements",
        default=False,
        choices=(True, False),
        doc="R3b: by default the requirements must already be in your territories when you play the card "
        "('before playing a village, you must have...', mainland.txt:115); true lets the card's own items "
        "count (a village-and-tower card would then supply its own village).",
    ),
)


#: ``MainlandState``'s containers for ``copy``: one level deep (``scores`` is read-only and replaced,
#: never written, so it is shared), two levels deep
_FLAT = ("rules", "items", "owner", "counts", "tokens", "totals")
_NESTED = ("hands", "decks", "discards", "stats")


class Mainland(GameBase[MainlandState, MainlandData]):
    name = "mainland"
    min_players = 2
    max_players = 4
    rule_switches = RULE_SWITCHES
    action_fields = ("round", "hand_index", "card", "rotation", "row", "col")
    #: per action kind (the ``kind`` that ``record`` returns), the action columns it fills;
    #: every other action column is -1 in that kind's rows
    action_kinds: dict[str, tuple[str, ...]] = {
        "camp": ("round", "card", "rotation", "row", "col"),
        "keep": ("round",),
        "replace": ("round", "hand_index", "card"),
        "gather": ("round",),
        "place": ("round", "hand_index", "card", "rotation", "row", "col"),
        "pass": ("round",),
    }
    #: for every action column, what it holds
    action_docs: dict[str, str] = {
        "round": "round of play: 0 while the camps are placed (line 67), then 1, 2, ... from seat 0's turn",
        "hand_index": "position (0 = first) in the mover's hand of the card placed or replaced, before it",
        "card": "the card: an index into the clan's cards, in the data file's [[cards]] order",
        "rotation": "quarter turns clockwise (0 to 3) from the card's items as listed in the data file",
        "row": "board row of the card's top-left tile (0 = top row)",
        "col": "board column of the card's top-left tile (0 = left column)",
    }
    part_fields = ("mainland_tiles", "mainland_items", "minor_items", *rules.STATS, "tokens_left")
    default_max_decisions = 2000
    default_data_path = data_module.DEFAULT_PATH
    read_data = staticmethod(data_module.load)
    new_game = staticmethod(rules.new_game)

    def to_move(self, state: MainlandState) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.current,)

    def legal_options(self, state: MainlandState, seat: int) -> np.ndarray:
        return rules.options(state, state.data, seat)

    def view(self, state: MainlandState, seat: int) -> MainlandView:
        return view_of(state, state.data, seat)

    def apply(self, state: MainlandState, choices: dict[int, Any]) -> None:
        for seat, option in choices.items():
            rules.apply(state, state.data, seat, np.asarray(option))

    def record(self, state: MainlandState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """(kind, (round, hand_index, card, rotation, row, col)): the columns of ``action_kinds[kind]``,
        -1 in the others (the camp card is set aside, not in the hand: no hand index)."""
        kind, index, rot, r, c = option.tolist() if isinstance(option, np.ndarray) else tuple(option)[:5]
        if kind == PLACE_CARD or kind == REPLACE:
            hand = state.hands[seat]
            if 0 <= index < len(hand):
                card = hand[index]
            else:
                card = index = -1
            if kind == REPLACE:
                rot = r = c = -1
        elif kind == PLACE_CAMP:
            card = state.data.camp_card
            index = -1
        else:
            card = index = rot = r = c = -1
        return KINDS[kind], (state.round, index, card, rot, r, c)

    def scores(self, state: MainlandState) -> list[float]:
        return state.totals  # kept beside ``state.scores`` by ``rules.set_scores``

    def is_terminal(self, state: MainlandState) -> bool:
        return state.phase == OVER

    def result(self, state: MainlandState) -> Result:
        """Highest score wins (line 235); equal scores share the win (ruling R8)."""
        s = state.scores
        assert s is not None  # set by rules.set_scores from the first placement on
        parts = [
            {
                "mainland_tiles": float(s[p, 1]),
                "mainland_items": float(s[p, 2]),
                "minor_items": float(s[p, 3]),
                **{k: float(v[p]) for k, v in state.stats.items()},
                "tokens_left": float(state.tokens[p]),
            }
            for p in range(state.n_players)
        ]
        return result_from_scores(s[:, 0].tolist(), parts)

    def to_dict(self, state: MainlandState) -> dict[str, Any]:
        return {
            "n_players": state.n_players,
            "seed": int(state.seed),
            "rules": dict(state.rules),
            "data_path": state.data.path,
            "items": state.items.tolist(),
            "owner": state.owner.tolist(),
            "hands": [list(h) for h in state.hands],
            "decks": [list(d) for d in state.decks],
            "discards": [list(d) for d in state.discards],
            "tokens": list(state.tokens),
            "current": state.current,
            "phase": state.phase,
            "round": state.round,
            "stats": {k: list(v) for k, v in state.stats.items()},
            "rng": state.rng.bit_generator.state,
        }

    def copy(self, state: MainlandState) -> MainlandState:
        new = copy_state(state, _FLAT, _NESTED)
        new.public_arrays = new.rules_proxy = None  # views of the original's arrays and rules
        return new

    def determinize(self, state: MainlandState, seat: int, rng: Any) -> MainlandState:
        """A full state consistent with what ``seat`` has seen, the rest redrawn (``mainland.hidden``)."""
        from sim.games.mainland.hidden import determinize

        return determinize(state, seat, rng)

    def from_dict(self, doc: dict[str, Any]) -> MainlandState:
        data = self.data_of(doc)
        state = self.new_state(doc["n_players"], doc["rules"], data, doc["seed"])
        state.items = np.array(doc["items"], dtype=np.int8)
        state.owner = np.array(doc["owner"], dtype=np.int8)
        state.counts[:] = 0
        for r, c in zip(*np.nonzero(state.items)):
            state.counts[state.owner[r, c], state.items[r, c]] += 1
        state.hands = [list(h) for h in doc["hands"]]
        state.decks = [list(d) for d in doc["decks"]]
        state.discards = [list(d) for d in doc["discards"]]
        state.tokens = list(doc["tokens"])
        state.current, state.phase, state.round = doc["current"], doc["phase"], doc["round"]
        state.stats = {k: list(v) for k, v in doc["stats"].items()}
        state.rng.bit_generator.state = doc["rng"]
        scores = rules.kernels.score_board(state.items, state.owner, state.n_players, data.points)
        rules.set_scores(state, scores)
        return state


GAME = Mainland()

"""Greenland (third edition) as a ``sim.game.Game``: 2-4 tribes surviving ten generations."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import numpy as np

from sim.game import Result, RuleSwitch, ranks_from_scores
from sim.games.greenland import data as data_module
from sim.games.greenland import rules
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.rules import DICE_KINDS, pack, population, preview
from sim.games.greenland.state import ALPHA_DEAD, MONO, PHASES, STATS, GreenlandState, Option
from sim.games.greenland.view import GreenlandView, view_of

RULE_SWITCHES = (
    RuleSwitch(
        name="advanced",
        default=True,
        choices=(True, False),
        doc="G13: the Advanced rules of phase F (greenland-third-edition.txt:62-64): attack rolls on "
        "contested cards, the New World turning hostile above 6 colonists, the iron rule. false = contested "
        "cards are settled by the hunt order alone (line 33) and no iron is spent.",
    ),
    RuleSwitch(
        name="contest_success",
        default="first",
        choices=("first", "all"),
        doc="G6: line 49 lets 'any number of players successfully hunt' only in the New World. first = "
        "elsewhere the first successful tribe (fewest tribesmen roll first, line 33) ends the hunt on the "
        "card; all = every tribe on the card may succeed.",
    ),
    RuleSwitch(
        name="conversion",
        default="no_elders",
        choices=("no_elders", "any"),
        doc="G15: line 27 'If you have no elders, you may convert to monotheism'. no_elders = the text; "
        "any = a polytheist may convert in any elder phase (a what-if for the conversion study).",
    ),
    RuleSwitch(
        name="elder_actions",
        default="per_elder",
        choices=("per_elder", "per_rank"),
        doc="G14: line 27 'if they have elders in the appropriate rank'. per_elder = each elder acts once "
        "a generation; per_rank = one action per filled rank, however many elders it holds.",
    ),
    RuleSwitch(
        name="bribes",
        default=True,
        choices=(True, False),
        doc="G23: line 59 'You can trade discs ... as well as offer daughters for marriage'. true = on a "
        "contested card a tribe may ask another to leave for 1-2 discs or a daughter in marriage (its "
        "tribesman becomes her Husband, line 61); false = only stay or withdraw.",
    ),
    RuleSwitch(
        name="war_parties",
        default="war_chief",
        choices=("war_chief", "none"),
        doc="G24: line 62 'Except for War Parties, each will kill one tribesman of the victim's choice'; the "
        "text defines no War Party. war_chief = an attack by a tribe with a War Chief (rank 4, line 52) is a "
        "War Party and the attacker chooses the casualties; none = every casualty is the victim's choice.",
    ),
    RuleSwitch(
        name="upkeep",
        default="fuel",
        choices=("fuel", "none"),
        doc="G16: the text has no upkeep; line 5 says the Hunters gather 'food and fuel to sustain their "
        "children, elders, and livestock'. fuel = at the end of phase H each tribe burns 1 energy per 5 "
        "living tribesmen (setup.toml upkeep_per) and loses a tribesman per missing energy; "
        "none = no upkeep.",
    ),
)

ACTION_FIELDS = (
    "generation",
    "phase",
    "a",
    "b",
    "c",
    "dice",
    "roll",
    "reroll",
    "hits",
    "killed",
    "success",
    "event",
)


@lru_cache(maxsize=8)
def _load(path: str | None) -> GreenlandData:
    return data_module.load(path)


class Greenland:
    name = "greenland"
    min_players = 2
    max_players = 4
    rule_switches = RULE_SWITCHES
    action_fields = ACTION_FIELDS
    part_fields = (
        "tribe",
        "survived",
        "generation_died",
        "population",
        "elders",
        "colonists",
        "husbands",
        "trophies",
        "trophy_vp",
        "iron",
        "ivory",
        "energy",
        "monotheist",
        "converted",
        "tableau",
        "hand",
        "alpha_alive",
        "generations",
        *[s for s in STATS if s != "generation_died"],
    )
    default_max_decisions = 6000

    def load_data(self, path: str | None) -> GreenlandData:
        return _load(str(path) if path else None)

    def new_state(
        self, n_players: int, rules_config: dict[str, Any], data: GreenlandData, seed: int
    ) -> GreenlandState:
        config = {s.name: s.default for s in RULE_SWITCHES} | dict(rules_config)
        state = rules.new_game(data, n_players, config, seed)
        state.data = data  # type: ignore[attr-defined]  # kept beside the state, not serialised
        return state

    def to_move(self, state: GreenlandState) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_options(self, state: GreenlandState, seat: int) -> list[Option]:
        return rules.options(state, state.data, seat)  # type: ignore[attr-defined]

    def view(self, state: GreenlandState, seat: int) -> GreenlandView:
        return view_of(state, state.data, seat)  # type: ignore[attr-defined]

    def apply(self, state: GreenlandState, choices: dict[int, Any]) -> None:
        rules.apply(state, state.data, choices)  # type: ignore[attr-defined]

    def record(self, state: GreenlandState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """Kind and fields; a hunt or attack decision logs its dice (read ahead, ``rules.peek_dice``):
        dice = how many this decision rolls, roll = a first roll as decimal digits (first die first),
        reroll = a re-roll's result, and on the decision that makes the dice final (the roll without
        re-rolls, the last re-roll, keep, defend) hits, killed, success (1/0); -1 where not applicable."""
        o = option if type(option) is Option else Option(*option)
        head = (state.generation, state.phase, int(o.a), int(o.b), int(o.c))
        if o.kind not in DICE_KINDS:
            return o.kind, (*head, -1, -1, -1, -1, -1, -1, state.event)
        roll = preview(state, state.data, seat, o)  # type: ignore[attr-defined]
        assert roll is not None
        dice = (
            len(roll.dice) + len(roll.rerolled),
            pack(roll.dice),
            pack(roll.rerolled),
            roll.hits,
            roll.killed,
            int(roll.success),
        )
        return o.kind, (*head, *dice, state.event)

    def scores(self, state: GreenlandState) -> list[float]:
        return rules.current_scores(state, state.data)  # type: ignore[attr-defined]

    def is_terminal(self, state: GreenlandState) -> bool:
        return state.phase == PHASES.index("over")

    def result(self, state: GreenlandState) -> Result:
        """Highest score wins; the sole remaining culture wins whatever the score (line 5); ties share."""
        data = state.data  # type: ignore[attr-defined]
        scores = [float(x) for x in rules.scores(state, data)]
        alive = [s for s in range(state.n_players) if state.alive[s]]
        sole = len(alive) == 1 and state.n_players > 1 and data.end["sole_survivor_wins"]
        keys = [sc + (1e6 if sole and s in alive else 0.0) for s, sc in enumerate(scores)]
        best = max(keys)
        parts = []
        for p in range(state.n_players):
            parts.append(
                {
                    "tribe": float(state.tribe[p]),
                    "survived": float(state.alive[p]),
                    "generation_died": float(state.stats["generation_died"][p]),
                    "population": float(population(state, p) if state.alive[p] else 0),
                    "elders": float(sum(state.elders[p])),
                    "husbands": float(sum(state.husbands[p].values())),
                    "colonists": float(sum(state.colonists[p].values())),
                    "trophies": float(len(state.trophies[p])),
                    "trophy_vp": float(sum(data.biomes[c].trophy for c in state.trophies[p])),
                    "iron": float(state.iron[p]),
                    "ivory": float(state.ivory[p]),
                    "energy": float(state.energy[p]),
                    "monotheist": float(state.religion[p] == MONO),
                    "converted": float(state.converted[p]),
                    "tableau": float(len(state.tableau[p])),
                    "hand": float(len(state.hands[p])),
                    "alpha_alive": float(state.alpha[p] != ALPHA_DEAD),
                    "generations": float(state.generation),
                    **{k: float(v[p]) for k, v in state.stats.items() if k != "generation_died"},
                }
            )
        return Result(
            scores=scores,
            ranks=ranks_from_scores(keys),
            winners=[i for i, k in enumerate(keys) if k == best],
            parts=parts,
        )

    def to_dict(self, state: GreenlandState) -> dict[str, Any]:
        doc = {k: v for k, v in vars(state).items() if k not in ("rng", "data", "score_memo")}
        doc["rng"] = state.rng.bit_generator.state
        doc["data_path"] = state.data.path  # type: ignore[attr-defined]
        for key in ("hunters", "colonists", "placed", "husbands"):
            doc[key] = [{str(c): k for c, k in d.items()} for d in getattr(state, key)]
        doc["hunts"] = [list(h) for h in state.hunts]
        doc["log"] = [list(x) for x in state.log]
        return copy.deepcopy(doc)  # a snapshot: nothing shared with the live state

    def from_dict(self, doc: dict[str, Any]) -> GreenlandState:
        path = doc["data_path"]
        data = self.load_data(None if path == str(data_module.DEFAULT_DIR) else path)
        fields = {k: v for k, v in doc.items() if k not in ("rng", "data_path")}
        fields["rng"] = np.random.default_rng(0)
        fields["rng"].bit_generator.state = doc["rng"]
        for key in ("hunters", "colonists", "placed", "husbands"):
            fields[key] = [{int(c): k for c, k in d.items()} for d in doc[key]]
        fields["hunts"] = [tuple(h) for h in doc["hunts"]]
        fields["log"] = [tuple(x) for x in doc["log"]]
        state = GreenlandState(**fields)
        state.data = data  # type: ignore[attr-defined]
        return state


GAME = Greenland()

"""Greenland (third edition) as a ``sim.game.Game``: 2-4 tribes surviving ten generations."""

from __future__ import annotations

import copy
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from sim.game import GameBase, Result, RuleSwitch, copy_state, fields_doc, fields_of, result_from_scores
from sim.games.greenland import data as data_module
from sim.games.greenland import rules, value
from sim.games.greenland.data import GreenlandData
from sim.games.greenland.rules import DICE_KINDS, pack, population, preview
from sim.games.greenland.state import (
    ALPHA_DEAD,
    CARD,
    KINDS,
    MARRY,
    MONO,
    PHASES,
    STATS,
    GreenlandState,
    Option,
)
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
        name="married_raids",
        default="takes",
        choices=("takes", "off"),
        doc="G22: line 52 'To raid a Livestock or Daughter card in an opponent's tableau'; line 53 lets a "
        "tribe guard 'daughters you are married to'. takes = a married daughter can be raided like any "
        "other, and a successful raid takes her from the tribe she was married to (its Husbands go home, "
        "the raider's tribe raises her children); off = only unmarried daughters can be raided (a what-if).",
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

#: the turns table's action columns (``action_docs`` says what each holds); -1 where a kind leaves one out
ACTION_FIELDS = (
    "generation",
    "phase",
    "event",
    "place",
    "from_place",
    "rank",
    "target_rank",
    "tcard",
    "action",
    "alpha",
    "iron_rule",
    "face",
    "target_seat",
    "attacker_seat",
    "energy",
    "ivory",
    "iron",
    "dice",
    "roll",
    "reroll",
    "hits",
    "killed",
    "success",
)
ACTION_DOCS = {
    "generation": "the generation (turn) 1-10 (line 20)",
    "phase": "the phase, an index into state.PHASES (event, bid, assign, sunstone, negotiate, hunt, "
    "domestic, elder, over, setup)",
    "event": "the event card of this generation, an index into events.toml's cards (-1 before the first)",
    "place": "a place tribesmen stand on: a biome card (an index into biomes.toml's cards; a New World card "
    "makes a colonist), or 1000 + a tableau card (a Daughter or Livestock card as the Guards' and Raiders' "
    "place, lines 52-53); hunt, guard, raid, alpha, move: where the tribesman goes; the other kinds: the "
    "card the decision is about",
    "from_place": "move (Sun Stone, line 54): the place the tribesman leaves, as place",
    "rank": "an elder rank 0-5 (Chief, Shaman, Crafter, War Chief, Tracker, Mariner): promote, alpha, move: "
    "the rank promoted to (line 51); breed: the rank of the elder spent (-1: energy paid); elder: the "
    "acting elder's rank",
    "target_rank": "elder (Burn a Witch): the rank of the elder burnt",
    "tcard": "a tableau card, an index into the game's tableau cards (animals, daughters, inventions, "
    "imports, in load order): animal: the farm animal chosen (line 13); breed: the card that raises "
    "babies; table: the hand card tabled; elder (domesticate): the animal; bribe, counter, accept, refuse: "
    "the card traded, or the daughter offered in marriage (a daughter card is always a marriage, line 59)",
    "action": "elder: the action's index among its rank's actions in elders.toml",
    "alpha": "1 the Alpha (line 55): move: the Alpha is moved; roll: it takes its automatic hit instead of "
    "rolling; casualty: it is among the dead; 0 otherwise",
    "iron_rule": "roll, defend: 1 = iron spent to cancel all casualties of the roll (line 64), 0 not",
    "face": "reroll: the face 1-6 of the die rolled again (line 71)",
    "target_seat": "attack: the seat attacked; bribe: the seat asked to leave (line 59)",
    "attacker_seat": "defend: the attacking seat",
    "energy": "bribe, counter, accept, refuse: energy discs offered or asked for (0 when the offer is a "
    "card)",
    "ivory": "bid: the ivory bid for the trade ship's import (ruling G3); bribe, counter, accept, refuse: "
    "ivory discs offered or asked for",
    "iron": "bribe, counter, accept, refuse: iron discs offered or asked for",
    "dice": "roll, reroll, defend: how many dice this decision rolls",
    "roll": "roll, defend: the first roll as decimal digits, first die first",
    "reroll": "reroll: the new face of the die rolled again",
    "hits": "on the decision that makes the dice final (a roll without re-rolls, the last reroll, keep, "
    "defend): the hits (-1 while re-rolls are to come)",
    "killed": "as hits: the tribesmen the roll kills",
    "success": "as hits: 1 the hunt, raid or attack succeeded, 0 not",
}


def _offer(code: int) -> tuple[int, int, int, int]:
    """A bribe's offer (``Option.c``) as (energy, ivory, iron, tcard) (line 59)."""
    if code >= CARD:
        return 0, 0, 0, code - CARD
    if code >= MARRY:
        return 0, 0, 0, code - MARRY
    discs = [0, 0, 0]
    discs[code // 10] = code % 10
    return discs[0], discs[1], discs[2], -1


def _elder(state: GreenlandState, o: Option) -> tuple[int, ...]:
    name = state.data.ranks[o.a].actions[o.b].name
    if name == "domesticate":
        return o.a, o.b, o.c, -1
    return o.a, o.b, -1, o.c if name == "burn_witch" else -1


def _a(state: GreenlandState, o: Option) -> tuple[int, ...]:
    return (o.a,)


#: per kind: (its own columns, how its option fills them, in that order); with the columns every kind fills
#: (``_COMMON``) and, for the decisions that roll or settle dice, those of ``_DICE`` it fills (``_DICE_OF``)
_OWN: dict[str, tuple[tuple[str, ...], Callable[[GreenlandState, Option], tuple[int, ...]]]] = {
    "animal": (("tcard",), _a),
    "bid": (("ivory",), _a),
    **{k: (("place",), _a) for k in ("hunt", "guard", "raid", "stay", "withdraw", "pick", "pacify", "keep")},
    "alpha": (("place", "rank"), lambda s, o: (o.a, -1) if o.a >= 0 else (-1, -1 - o.a)),
    "promote": (("rank",), _a),
    "done": ((), lambda s, o: ()),
    "convert": ((), lambda s, o: ()),
    "move": (
        ("from_place", "place", "rank", "alpha"),
        lambda s, o: (o.a, o.b, -1, int(o.c == 1)) if o.b >= 0 else (o.a, -1, -1 - o.b, int(o.c == 1)),
    ),
    "attack": (("place", "target_seat"), lambda s, o: (o.a, o.b)),
    "defend": (("place", "iron_rule", "attacker_seat"), lambda s, o: (o.a, o.b, o.c)),
    "roll": (("place", "alpha", "iron_rule"), lambda s, o: (o.a, o.b & 1, o.b >> 1)),
    "reroll": (("place", "face"), lambda s, o: (o.a, o.b)),
    "casualty": (("place", "alpha"), lambda s, o: (o.a, o.b)),
    "bribe": (
        ("place", "target_seat", "energy", "ivory", "iron", "tcard"),
        lambda s, o: (o.a, o.b, *_offer(o.c)),
    ),
    **{
        k: (("place", "energy", "ivory", "iron", "tcard"), lambda s, o: (o.a, *_offer(o.c)))
        for k in ("counter", "accept", "refuse")
    },
    "breed": (("tcard", "rank"), lambda s, o: (o.a, o.c)),
    "elder": (("rank", "action", "tcard", "target_rank"), _elder),
    "table": (("tcard",), _a),
}
_COMMON = ("generation", "phase", "event")
_DICE = ("dice", "roll", "reroll", "hits", "killed", "success")
_DICE_OF = {
    "roll": ("dice", "roll", "hits", "killed", "success"),
    "reroll": ("dice", "reroll", "hits", "killed", "success"),
    "keep": ("dice", "hits", "killed", "success"),  # the tally of the dice as they lie (dice = 0)
    "defend": ("dice", "roll", "hits", "killed", "success"),
}


def _kind_columns(kind: str) -> tuple[str, ...]:
    """The columns ``kind`` fills, in ACTION_FIELDS order (the set-up's ``animal`` comes before any event)."""
    used = {*_COMMON, *_OWN[kind][0], *_DICE_OF.get(kind, ())} - ({"event"} if kind == "animal" else set())
    return tuple(f for f in ACTION_FIELDS if f in used)


#: per kind (in the order of state.KINDS), the action columns it fills (every other column is -1 in its rows)
ACTION_KINDS = {kind: _kind_columns(kind) for kind in KINDS}


def _layout(kind: str) -> tuple[Callable[[GreenlandState, Option], tuple[int, ...]], Callable[..., tuple]]:
    """(the kind's option decoder, the getter laying out (-1, generation, phase, event, *own, *dice) as a
    row of ACTION_FIELDS): worked out once per kind, so ``record`` builds no dict."""
    source = ("-", *_COMMON, *_OWN[kind][0], *(_DICE if kind in DICE_KINDS else ()))
    used = ACTION_KINDS[kind]
    return _OWN[kind][1], itemgetter(*(source.index(f) if f in used else 0 for f in ACTION_FIELDS))


_LAYOUTS = {kind: _layout(kind) for kind in KINDS}


#: ``GreenlandState``'s containers for ``copy``: one level deep, two levels deep (``score_memo``, a
#: list or None, is copied by hand; every other field is immutable)
_FLAT = (
    "rules", "tribe", "events", "inventions", "imports", "pool", "alpha", "valhalla", "pieces", "energy",
    "ivory", "iron", "religion", "alive", "hostile", "gone", "discards", "order", "contests", "queue",
    "offers", "hunts", "left_cards", "faces", "dice", "won", "converted", "log",
)
_NESTED = (
    "decks", "warm", "cold", "elders", "hunters", "colonists", "placed", "tableau", "trophies", "hands",
    "husbands", "used", "bred", "stats",
)


class Greenland(GameBase[GreenlandState, GreenlandData]):
    name = "greenland"
    min_players = 2
    max_players = 4
    rule_switches = RULE_SWITCHES
    action_fields = ACTION_FIELDS
    action_kinds = ACTION_KINDS
    action_docs = ACTION_DOCS
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
    default_data_path = data_module.DEFAULT_DIR
    read_data = staticmethod(data_module.load)
    new_game = staticmethod(rules.new_game)

    def to_move(self, state: GreenlandState) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_options(self, state: GreenlandState, seat: int) -> list[Option]:
        return rules.options(state, state.data, seat)

    def view(self, state: GreenlandState, seat: int) -> GreenlandView:
        return view_of(state, state.data, seat)

    def apply(self, state: GreenlandState, choices: dict[int, Any]) -> None:
        rules.apply(state, state.data, choices)

    def record(self, state: GreenlandState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        """Kind and ACTION_FIELDS (``action_kinds`` says which a kind fills, -1 elsewhere; ``action_docs``
        what each holds); a hunt or attack decision logs its dice (read ahead, ``rules.peek_dice``): dice =
        how many this decision rolls, roll = a first roll as decimal digits (first die first), reroll = a
        re-roll's result, and on the decision that makes the dice final (the roll without re-rolls, the last
        re-roll, keep, defend) hits, killed, success (1/0)."""
        o = option if type(option) is Option else Option(*option)
        decode, row = _LAYOUTS[o.kind]
        values = (-1, state.generation, state.phase, state.event, *decode(state, o))
        if o.kind in DICE_KINDS:
            roll = preview(state, state.data, seat, o)
            assert roll is not None
            values += (
                len(roll.dice) + len(roll.rerolled),
                pack(roll.dice),
                pack(roll.rerolled),
                roll.hits,
                roll.killed,
                int(roll.success),
            )
        return o.kind, row(values)

    def scores(self, state: GreenlandState) -> list[float]:
        return rules.current_scores(state, state.data)

    def is_terminal(self, state: GreenlandState) -> bool:
        return state.phase == PHASES.index("over")

    def result(self, state: GreenlandState) -> Result:
        """Highest score wins; the sole remaining culture wins whatever the score (line 5); ties share."""
        data = state.data
        scores = [float(x) for x in rules.scores(state, data)]
        alive = [s for s in range(state.n_players) if state.alive[s]]
        sole = len(alive) == 1 and state.n_players > 1 and data.end["sole_survivor_wins"]
        keys = [sc + (1e6 if sole and s in alive else 0.0) for s, sc in enumerate(scores)]
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
        return result_from_scores(scores, parts, keys)

    def to_dict(self, state: GreenlandState) -> dict[str, Any]:
        doc = fields_doc(state, ("score_memo",))
        for key in ("hunters", "colonists", "placed", "husbands"):
            doc[key] = [{str(c): k for c, k in d.items()} for d in getattr(state, key)]
        doc["hunts"] = [list(h) for h in state.hunts]
        doc["log"] = [list(x) for x in state.log]
        return copy.deepcopy(doc)  # a snapshot: nothing shared with the live state

    def copy(self, state: GreenlandState) -> GreenlandState:
        new = copy_state(state, _FLAT, _NESTED)
        if state.score_memo is not None:
            new.score_memo = state.score_memo.copy()
        return new

    def determinize(self, state: GreenlandState, seat: int, rng: Any) -> GreenlandState:
        """A full state consistent with what ``seat`` has seen, the rest redrawn (``greenland.hidden``)."""
        from sim.games.greenland.hidden import determinize

        return determinize(state, seat, rng)

    def evaluate(self, state: GreenlandState, seat: int) -> float:
        """A search playout cut before the end, judged for ``seat`` in [0, 1]: its fitted chance of
        finishing ahead of each other seat, averaged (``greenland.value``)."""
        return value.evaluate(state, seat)

    def from_dict(self, doc: dict[str, Any]) -> GreenlandState:
        fields = fields_of(doc)
        for key in ("hunters", "colonists", "placed", "husbands"):
            fields[key] = [{int(c): k for c, k in d.items()} for d in doc[key]]
        fields["hunts"] = [tuple(h) for h in doc["hunts"]]
        fields["log"] = [tuple(x) for x in doc["log"]]
        state = GreenlandState(**fields)
        state.data = self.data_of(doc)
        return state


GAME = Greenland()

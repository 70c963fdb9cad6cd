"""The scripted Greenland strategies (strategies/greenland.py): they decide from their tribe's view alone,
plan a whole hunt on a card that needs three hits, keep the fuel upkeep (ruling G16) and convert only from
their ``convert_at`` generation on."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import numpy as np
import pytest

from sim.games.greenland import rules
from sim.games.greenland.data import TRIBES
from sim.games.greenland.game import GAME
from sim.games.greenland.state import ALPHA_DEAD, ALPHA_POOL, ASSIGN, DOMESTIC, ELDER, OVER, POLY, Option
from sim.games.greenland.view import GreenlandView, view_of
from strategies.greenland import ElderStrategy, GreedyStrategy, SpreaderStrategy

DATA = GAME.load_data(None)
SCRIPTED = (GreedyStrategy, SpreaderStrategy, ElderStrategy)


def biome(name: str) -> int:
    return next(b.id for b in DATA.biomes if b.name == name)


def strategy(cls, seat: int, **params):
    return cls(seat, np.random.default_rng(0), **params)


def north_seat(state, home: int = 0) -> int:
    return next(s for s in range(state.n_players) if DATA.tribes[state.tribe[s]].home == home)


def only_cards(state, cards: list[int]) -> None:
    """The North row's warm side holds exactly ``cards``; every other row side is empty."""
    for c in cards:
        for pile in (*state.decks, *state.warm, *state.cold):
            if c in pile:
                pile.remove(c)
    state.warm[0][:] = cards
    state.cold[0][:] = []
    state.warm[1][:] = []
    state.cold[1][:] = []


def at_assign(
    state, seat: int, *, pool: int, energy: int, alpha: int = ALPHA_POOL, elders: int = 3, mariners: int = 0
):
    """``seat`` assigns first with ``pool`` tribesmen, ``elders`` elders in each rank but the Mariner's
    (``mariners``), no tableau and no hunters anywhere."""
    state.phase = ASSIGN
    state.order = [seat] + [s for s in range(state.n_players) if s != seat]
    state.idx = 0
    for p in range(state.n_players):
        state.placed[p] = {}
        state.hunters[p] = {}
        state.colonists[p] = {}
        state.alpha[p] = ALPHA_POOL
    state.alpha[seat] = alpha
    state.tableau[seat] = []
    state.elders[seat] = [elders] * 5 + [mariners]
    state.pool[seat] = pool
    state.valhalla[seat] = max(4, int(DATA.setup["tribesmen"]) - pool - 5 * elders)
    state.energy[seat] = energy
    return state


def assign_all(state, seat: int, player, kinds: tuple[str, ...] = ()) -> list[Option]:
    """Let ``player`` make every assignment of ``seat`` in turn (among the options of ``kinds``, all when
    empty; the Alpha's promotion, a = -1 - rank, counts as a ``promote``); the options it chose."""
    chosen = []
    while state.phase == ASSIGN and rules.current(state) == seat:
        opts = [
            o
            for o in GAME.legal_options(state, seat)
            if not kinds or ("promote" if o.kind == "alpha" and o.a < 0 else o.kind) in kinds
        ]
        o = Option(*player.choose(GAME.view(state, seat), opts))
        chosen.append(o)
        GAME.apply(state, {seat: o})
        if o.kind == "done":
            break
    return chosen


# ------------------------------------------------------------------ the view alone


#: the Greenland modules a strategy may import: the data, the state's constants and the view; every other
#: module of the package is the rules (split by phase, rules.py's docstring) or the game
VIEW_SIDE = {"__init__", "data", "state", "view", "plugin"}
RULE_MODULES = tuple(
    p.stem for p in sorted(Path("sim/games/greenland").glob("*.py")) if p.stem not in VIEW_SIDE
)


def test_strategies_import_nothing_that_reads_the_game_state():
    """The module may read the view, the data and the state's constants, never the rules or the state."""
    tree = ast.parse(Path("strategies/greenland.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    assert {"rules", "flow", "hunt", "dice"} <= set(RULE_MODULES), RULE_MODULES
    rule_modules = [f"sim.games.greenland.{m}" for m in RULE_MODULES]
    assert not any(name.startswith(tuple(rule_modules)) for name in imported), imported
    assert "sim.games.greenland.state.GreenlandState" not in imported
    assert not any(name.startswith(("sim.games.greenland.game", "sim.runner")) for name in imported)


@pytest.mark.parametrize("cls", SCRIPTED)
def test_choice_depends_on_the_view_only(cls):
    """Along a played game, every decision is the same when what the view does not show (the decks'
    order, the other tribes' hands, the generator) is scrambled, and the strategy only ever gets a view."""
    state = GAME.new_state(4, {}, DATA, 7)
    players = [strategy(cls if s == 0 else GreedyStrategy, s) for s in range(4)]
    checked = 0
    while state.phase != OVER and checked < 400:
        movers = GAME.to_move(state)
        choices = {}
        for s in movers:
            opts = GAME.legal_options(state, s)
            view = GAME.view(state, s)
            assert isinstance(view, GreenlandView)
            choices[s] = players[s].choose(view, opts)
            if s == 0 and len(opts) > 1:
                other = copy.deepcopy(state)
                rng = np.random.default_rng(checked)
                for deck in (*other.decks, other.events, other.inventions, other.imports):
                    rng.shuffle(deck)
                for p in range(1, 4):
                    other.hands[p] = list(reversed(other.hands[p]))
                other.rng = np.random.default_rng(99)
                twin = strategy(cls, 0)
                assert twin.choose(view_of(other, DATA, 0), opts) == choices[0]
                checked += 1
        GAME.apply(state, choices)
    assert checked > 100


# ------------------------------------------------------------------ a planned hunt


def test_planned_hunt_sends_a_party_to_a_card_needing_three_hits():
    """The Bowhead Whale needs 3 hits: its first die alone is worth nothing (and risks a life), but a party
    of Hunters with the Alpha's automatic hit takes it more often than not; the plan sends the party."""
    state = GAME.new_state(4, {}, DATA, 3)
    seat = north_seat(state)
    whale = biome("Bowhead Whale")
    assert DATA.biomes[whale].need == 3
    only_cards(state, [whale])
    at_assign(state, seat, pool=6, energy=20)
    player = strategy(GreedyStrategy, seat)
    view = GAME.view(state, seat)
    # the one-step valuation the plan replaces: one more die on an empty card loses value
    assert player.hunt_value(view, whale, 1, False) < 0
    assert player.plan_rate(view, whale, True) > 0

    assign_all(state, seat, player)
    hunters = state.hunters[seat].get(whale, 0)
    assert state.alpha[seat] == whale and hunters >= 3
    view = GAME.view(state, seat)
    assert player.success(view, whale, hunters, True) > 0.5


def test_no_party_where_the_pool_cannot_reach_the_threshold():
    """Two Hunters and no Alpha can never roll three hits: nobody is sent to die for nothing."""
    state = GAME.new_state(4, {}, DATA, 3)
    seat = north_seat(state)
    whale = biome("Bowhead Whale")
    only_cards(state, [whale])
    at_assign(state, seat, pool=2, energy=20, alpha=ALPHA_DEAD)
    player = strategy(GreedyStrategy, seat)
    chosen = assign_all(state, seat, player)
    assert not state.hunters[seat].get(whale, 0)
    assert all(o.kind != "hunt" for o in chosen)


def test_planned_party_is_limited_by_transport():
    """The whale seen from the South: one Mariner carries at most 4 (line 46), so the plan counts on 4."""
    state = GAME.new_state(4, {}, DATA, 3)
    whale = biome("Bowhead Whale")
    only_cards(state, [whale])
    north = north_seat(state)
    at_assign(state, north, pool=8, energy=20)
    player = strategy(GreedyStrategy, north)
    assert player.room(GAME.view(state, north), whale) >= 8
    seat = north_seat(state, home=1)
    at_assign(state, seat, pool=8, energy=20, mariners=1)
    player = strategy(GreedyStrategy, seat)
    view = GAME.view(state, seat)
    assert player.needs_transport(view, whale) and player.room(view, whale) == 4
    assign_all(state, seat, player, ("hunt", "alpha", "done"))  # no second Mariner
    assert 3 <= state.hunters[seat].get(whale, 0) + (state.alpha[seat] == whale) <= 4


# ------------------------------------------------------------------ the fuel upkeep


def test_elder_hunts_for_fuel_when_the_upkeep_is_short():
    """Driftwood (2 energy, a bloody face) against Arctic Hare (a baby, none), in the homeland: with the
    upkeep covered the elder takes the baby; with the store empty it goes for the fuel (ruling G16)."""
    picks = {}
    for energy in (20, 0):
        state = GAME.new_state(4, {}, DATA, 3)
        seat = north_seat(state)
        wood, hare = biome("Driftwood"), biome("Arctic Hare")
        only_cards(state, [hare, wood])
        at_assign(state, seat, pool=1, energy=energy, alpha=ALPHA_DEAD)
        player = strategy(ElderStrategy, seat)
        opts = [o for o in GAME.legal_options(state, seat) if o.kind in ("hunt", "done")]
        picks[energy] = Option(*player.choose(GAME.view(state, seat), opts))
    assert picks[20] == Option("hunt", biome("Arctic Hare"))
    assert picks[0] == Option("hunt", biome("Driftwood"))


def test_elder_does_not_breed_a_mouth_it_cannot_feed():
    """A daughter's baby for 1 energy when the baby would raise the upkeep past the store: no; with the
    store enough for the larger upkeep: yes."""
    for energy, breeds in ((5, False), (7, True)):
        state = GAME.new_state(4, {}, DATA, 3)
        seat = north_seat(state)
        daughter = next(c for c in state.tableau[seat] if DATA.tcards[c].kind == "daughter")
        state.phase = DOMESTIC
        state.order = [seat] + [s for s in range(4) if s != seat]
        state.idx = 0
        # 20 living tribesmen: upkeep 4; one baby more makes it 5
        state.hunters[seat], state.colonists[seat], state.husbands[seat] = {}, {}, {}
        state.elders[seat] = [1, 0, 0, 0, 0, 0]
        state.alpha[seat] = ALPHA_POOL
        state.pool[seat] = 18
        state.valhalla[seat] = 0
        state.pool[seat] -= 1
        state.valhalla[seat] += 1
        state.elders[seat][1] += 1
        state.pieces[seat] = 20  # a tribe grown past the box's 18 (babies not from Valhalla)
        assert rules.population(state, seat) == 20
        state.energy[seat] = energy
        player = strategy(ElderStrategy, seat)
        view = GAME.view(state, seat)
        assert player.upkeep_due(view) == 4 and player.upkeep_due(view, 1) == 5
        opts = [Option("breed", daughter, -1, -1), Option("done")]
        o = Option(*player.choose(view, opts))
        assert (o.kind == "breed") == breeds, energy


def test_elder_promotes_when_fed_and_not_when_the_upkeep_would_be_short():
    """The elder-builder's identity: a promotion when the store covers the upkeep, none that starves."""
    for energy, promotes in ((20, True), (2, False)):
        state = GAME.new_state(4, {}, DATA, 3)
        seat = north_seat(state)
        only_cards(state, [])
        at_assign(state, seat, pool=3, energy=energy, alpha=ALPHA_DEAD, elders=1, mariners=1)
        player = strategy(ElderStrategy, seat)
        view = GAME.view(state, seat)
        assert player.upkeep_due(view) == 2  # 9 tribesmen
        opts = GAME.legal_options(state, seat)
        o = Option(*player.choose(view, opts))
        assert (o.kind == "promote") == promotes, energy


# ------------------------------------------------------------------ conversion


def _phase_i(state, seat: int, generation: int) -> GreenlandView:
    """``seat``'s view in phase I of ``generation``: a polytheist with iron and ivory and no Trophy."""
    state.religion[seat] = POLY
    state.trophies[seat] = []
    state.iron[seat], state.ivory[seat] = 3, 3
    return GAME.view(state, seat)._replace(phase=ELDER, generation=generation)


@pytest.mark.parametrize(
    ("cls", "params", "generation", "converts"),
    [
        (GreedyStrategy, {}, 1, False),
        (SpreaderStrategy, {}, 9, False),
        (GreedyStrategy, {"convert_at": 1}, 1, True),
        (ElderStrategy, {}, 5, False),
        (ElderStrategy, {}, 6, True),
    ],
)
def test_convert_only_from_convert_at_on(cls, params, generation, converts):
    """Under ``--rule conversion=any`` monotheism's iron and ivory outscore no Trophies at once; a strategy
    converts only from its ``convert_at`` generation on (greedy and spreader: 99, never)."""
    state = GAME.new_state(4, {"conversion": "any"}, DATA, 3)
    seat = 0
    view = _phase_i(state, seat, generation)
    player = strategy(cls, seat, **params)
    opts = [Option("convert"), Option("done")]
    assert (Option(*player.choose(view, opts)).kind == "convert") == converts


def test_tribes_named_in_data():
    assert len(TRIBES) == len(DATA.tribes)

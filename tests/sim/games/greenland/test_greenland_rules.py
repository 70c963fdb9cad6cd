"""Greenland rules, each test quoting the rule it checks (greenland-third-edition.txt:LINE; reference B.x)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.errors import IllegalChoice, SkaldError
from sim.games.greenland import rules
from sim.games.greenland.data import DEFAULT_DIR, KINDS, TRIBES, Event, load
from sim.games.greenland.game import GAME
from sim.games.greenland.rules import ALPHA_FLAG, IRON_FLAG, MARINER, WAR_CHIEF
from sim.games.greenland.state import (
    ALPHA_DEAD,
    ALPHA_HUSBAND,
    ALPHA_POOL,
    ASSIGN,
    BID,
    CARD,
    DOMESTIC,
    ELDER,
    HUNT,
    MARRY,
    MONO,
    NEGOTIATE,
    POLY,
    SETUP,
    TPLACE,
    Option,
    alpha_bride,
    alpha_rank,
)
from sim.games.greenland.state import KINDS as OPTION_KINDS

DATA = GAME.load_data(None)
NORTH, SOUTH = 0, 1
MARKLAND, VINLAND = DATA.new_world(0), DATA.new_world(1)


class NoMoreDice:
    """A stand-in generator for loaded dice: a roll past the loaded faces fails the test."""

    def integers(self, *args, **kwargs):
        raise AssertionError("the rules rolled more dice than the test loaded")


def load_dice(state, *faces: int) -> None:
    """The next rolls show ``faces``, in order (the die faces drawn ahead, rules.peek_dice)."""
    state.faces = list(faces)
    state.rng = NoMoreDice()


def new(n=4, seed=1, **rules_):
    return GAME.new_state(n, rules_, DATA, seed)


def seat_of(state, tribe: str) -> int:
    return state.tribe.index(TRIBES.index(tribe))


def game_with(tribes: tuple[str, ...], seed=1, **rules_):
    """A game in which every tribe of ``tribes`` plays (seed searched deterministically)."""
    for s in range(seed, seed + 500):
        state = new(len(tribes), s, **rules_)
        if all(TRIBES.index(t) in state.tribe for t in tribes):
            return state
    raise AssertionError("no seed gives these tribes")


def at_assign(state, seat):
    state.phase = ASSIGN
    state.order = [seat] + [s for s in range(state.n_players) if s != seat]
    state.idx = 0
    for p in range(state.n_players):
        state.placed[p] = {}
    return state


def plain(state, seat: int = 0):
    """No tableau cards and no elders: no re-rolls and no modifiers."""
    state.tableau[seat] = []
    state.elders[seat] = [0] * 6
    return state


def card_in(state, row: int, cold: bool = False) -> int:
    """A visible non-New-World card of ``row`` (warm side, or moved to the cold side)."""
    card = next(c for c in state.warm[row] if not DATA.biomes[c].new_world)
    if cold:
        state.warm[row].remove(card)
        state.cold[row].insert(0, card)
    return card


def biome_where(state, row: int, pred) -> int:
    """A visible warm card of ``row`` whose Biome passes ``pred``."""
    return next(c for c in state.warm[row] if pred(DATA.biomes[c]) and not DATA.biomes[c].new_world)


# ------------------------------------------------------------------ data and set-up


def test_every_data_value_is_marked_printed_or_reconstructed():
    """Each value printed (rulebook line or reference source) or reconstructed (with a reason)."""
    assert "biomes:biomes.Walrus" in DATA.reconstructed  # no card of the third edition was recovered
    assert "dice:die.warm_hits" not in DATA.reconstructed  # reference B.2 'Hunt dice'
    assert DATA.reconstructed  # the text lacks most numbers
    assert not any(r.startswith("setup:tribes.") for r in DATA.reconstructed)  # line 13 prints the tribes
    assert "scoring:end.generations" not in DATA.reconstructed  # reference B.2 '10 rounds'


def test_a_value_without_source_is_a_clean_error(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    for kind in KINDS:
        (folder / f"{kind}.toml").write_text((DEFAULT_DIR / f"{kind}.toml").read_text())
    dice = (
        (folder / "dice.toml")
        .read_text()
        .replace(
            ', source = "printed", ref = "reference B.2 \'Hunt dice\': '
            "one d6 per Hunter (verywordy, spacebiff, quartertothree; "
            '2nd ed.)"',
            "",
        )
    )
    (folder / "dice.toml").write_text(dice)
    with pytest.raises(SkaldError, match="dice.toml.*die.sides.*source"):
        load(folder)


def _copy_data(folder: Path) -> Path:
    folder.mkdir()
    for kind in KINDS:
        (folder / f"{kind}.toml").write_text((DEFAULT_DIR / f"{kind}.toml").read_text())
    return folder


def test_data_folder_loads_like_the_packaged_one_and_a_missing_kind_is_named(tmp_path):
    """--data FOLDER: a copy of the eight kind files loads like the packaged data; a folder lacking one is a
    one-line error naming the file."""
    folder = _copy_data(tmp_path / "mine")
    mine = GAME.load_data(str(folder))
    assert mine.biomes == DATA.biomes and mine.tcards == DATA.tcards and mine.sha1 == DATA.sha1
    (folder / "dice.toml").unlink()
    with pytest.raises(SkaldError, match=r"lacks dice\.toml") as err:
        load(folder)
    assert "\n" not in str(err.value)


def _skald(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_data_bad_folder_is_a_one_line_error(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "setup.toml").write_text((DEFAULT_DIR / "setup.toml").read_text())
    out = tmp_path / "out"
    r = _skald(
        "run",
        "greenland",
        "--players",
        "2",
        "--games",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--data",
        str(folder),
        "--out",
        str(out),
    )
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr
    assert str(folder) in r.stderr and not out.exists()


@pytest.mark.parametrize("form", ["folder", "file"])
def test_cli_runs_with_data_file_or_folder(tmp_path, form):
    """skald run greenland --data FOLDER (the eight kind files) or --data FILE (them concatenated)."""
    if form == "folder":
        data = _copy_data(tmp_path / "data")
    else:
        data = tmp_path / "greenland.toml"
        data.write_text("\n".join((DEFAULT_DIR / f"{k}.toml").read_text() for k in KINDS))
    out = tmp_path / "out"
    r = _skald(
        "run",
        "greenland",
        "--players",
        "2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--quiet",
        "--data",
        str(data),
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    assert (out / "manifest.json").exists()


def test_one_file_with_every_kind_loads_like_the_folder(tmp_path):
    """--data FILE: the eight files concatenated (the runner hands the game one file)."""
    one = tmp_path / "greenland.toml"
    one.write_text("\n".join((DEFAULT_DIR / f"{k}.toml").read_text() for k in KINDS))
    mine = load(one)
    assert mine.biomes == DATA.biomes and mine.events == DATA.events and mine.tcards == DATA.tcards
    assert len(mine.reconstructed) == len(DATA.reconstructed)
    with pytest.raises(SkaldError):
        load(tmp_path / "missing-folder")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    """Lines 9-16: 10 events; rows of six plus the New World card nearest the deck, warm; placards on
    polytheism; daughters and farm animals; Alpha + 5 unassigned, 6 elders one per rank, rest in Valhalla;
    the Tunit colony of 5 from Valhalla; 5 energy, 1 ivory, 1 iron."""
    for seed in range(6):
        state = rules.setup(DATA, n, {}, seed)
        assert len(state.events) == 10 and not state.log  # line 9
        assert len(set(state.tribe)) == n
        for row, nw in ((0, MARKLAND), (1, VINLAND)):
            assert len(state.warm[row]) == 7 and state.warm[row][0] == nw  # lines 3-4, 11
            assert all(DATA.biomes[c].deck == ("north", "south")[row] for c in state.warm[row][1:])
        for seat, t in enumerate(state.tribe):
            tribe = DATA.tribes[t]
            assert state.religion[seat] == POLY  # line 13
            assert state.alpha[seat] == ALPHA_POOL and state.pool[seat] == 5  # line 14
            assert state.elders[seat] == [1] * 6
            assert (state.energy[seat], state.ivory[seat], state.iron[seat]) == (5, 1, 1)  # line 16
            daughters = [c for c in state.tableau[seat] if DATA.tcards[c].kind == "daughter"]
            animals = [c for c in state.tableau[seat] if DATA.tcards[c].kind == "animal"]
            assert len(daughters) == {"tunit": 3, "thule": 3, "norse": 2, "sami": 2}[tribe.name]
            assert not animals  # chosen as the first decision (line 13 'of their choice')
            colonists = state.colonists[seat].get(MARKLAND, 0)
            assert colonists == (5 if tribe.name == "tunit" else 0)  # line 15
            alive = state.pool[seat] + sum(state.elders[seat]) + colonists
            assert alive + state.valhalla[seat] == 18  # line 14: 18 tribesmen


# ------------------------------------------------------------------ hunter assignment


def test_norse_and_sami_choose_their_farm_animal_first():
    """Line 13 'The Red player (the Norse) additionally starts with one side of a Norse farm animal card of
    their choice (cattle, pony, sheep, or goat) ... The Blue player (Sea Sami) ... (domestic reindeer or
    lappget).'"""
    state = game_with(("norse", "sami", "thule"))
    norse, sami = seat_of(state, "norse"), seat_of(state, "sami")
    assert state.phase == SETUP and set(GAME.to_move(state)) == {norse, sami}
    names = {o.a: DATA.tcards[o.a].name for o in GAME.legal_options(state, norse)}
    assert set(names.values()) == {"cattle", "pony", "sheep", "goat"}
    assert {DATA.tcards[o.a].name for o in GAME.legal_options(state, sami)} == {"reindeer", "lappget"}
    goat = next(c for c, name in names.items() if name == "goat")
    reindeer = next(o for o in GAME.legal_options(state, sami) if DATA.tcards[o.a].name == "reindeer")
    GAME.apply(state, {norse: Option("animal", goat), sami: reindeer})
    assert goat in state.tableau[norse] and reindeer.a in state.tableau[sami] and state.phase != SETUP
    assert state.log  # the first event is revealed
    state = game_with(("tunit", "thule"))
    assert state.phase != SETUP  # nobody to choose


def domesticable(state, seat: int) -> set[str]:
    """The animals ``seat``'s Shaman may domesticate now (elder phase, energy to spare)."""
    state.phase, state.order, state.idx = ELDER, [seat], 0
    state.energy[seat] = 9
    return {
        DATA.tcards[o.c].name
        for o in GAME.legal_options(state, seat)
        if o.kind == "elder" and o.c >= 0 and DATA.ranks[o.a].actions[o.b].name == "domesticate"
    }


def test_the_sami_animal_is_one_card_with_two_sides():
    """Line 13 'The Blue player (Sea Sámi) additionally starts with one side of the Sámi farm animal card
    (domestic reindeer or lappget)': one card, so the side not chosen is not a second animal anyone can
    domesticate; unused Norse animals are 'set aside for possible later use' (ruling G2)."""
    reindeer, lappget = DATA.tribes[TRIBES.index("sami")].animals
    assert DATA.tcards[reindeer].card == DATA.tcards[lappget].card == reindeer
    state = game_with(("norse", "sami", "thule"))
    norse, sami, thule = seat_of(state, "norse"), seat_of(state, "sami"), seat_of(state, "thule")
    goat = next(c for c in DATA.tribes[TRIBES.index("norse")].animals if DATA.tcards[c].name == "goat")
    GAME.apply(state, {norse: Option("animal", goat), sami: Option("animal", reindeer)})
    assert domesticable(state, thule) == {"cattle", "pony", "sheep"}  # no lappget: it is the reindeer's card
    assert domesticable(state, sami) == {"cattle", "pony", "sheep"}
    state.tableau[sami].remove(reindeer)
    state.tableau[thule].append(reindeer)  # the card moves (a Livestock raid): it stays one card
    assert "lappget" not in domesticable(state, norse)
    # with no Sámi in play their card is unused: either side may be domesticated, and then the other is gone
    state = game_with(("tunit", "thule"))
    assert {"reindeer", "lappget"} <= domesticable(state, 0)
    tame = next(o for o in GAME.legal_options(state, 0) if o.kind == "elder" and o.c == lappget)
    GAME.apply(state, {0: tame})
    assert lappget in state.tableau[0] and not {"reindeer", "lappget"} & domesticable(state, 1)


def test_homeland_limit_and_sleds():
    """Line 45 'The Thule and Tunit share a homeland in North Greenland'; line 46 'You must have a Mariner
    ... for each Biome ... outside your homeland'; line 47 sleds; line 48 the New World needs a Mariner."""
    state = game_with(("thule", "norse"))
    thule = seat_of(state, "thule")
    at_assign(state, thule)
    state.elders[thule][MARINER] = 0
    north, south = card_in(state, NORTH), card_in(state, SOUTH)
    hunt = {o.a for o in GAME.legal_options(state, thule) if o.kind == "hunt"}
    assert north in hunt and south not in hunt and MARKLAND not in hunt and VINLAND not in hunt
    sled = next(c.id for c in DATA.tcards if c.sled and c.kind == "invention")
    state.tableau[thule].append(sled)
    hunt = {o.a for o in GAME.legal_options(state, thule) if o.kind == "hunt"}
    assert south in hunt and MARKLAND not in hunt  # 'Sleds only work in Greenland, not the New World'


def test_mariner_carries_four_to_a_single_card():
    """Line 46 'Each Mariner can transport up to 4 Hunters to a single biome or tableau card per turn.'"""
    state = game_with(("thule", "norse"))
    thule = seat_of(state, "thule")
    at_assign(state, thule)
    state.elders[thule][MARINER] = 1
    state.pool[thule] = 9
    south = [c for c in state.warm[SOUTH] if not DATA.biomes[c].new_world]
    for _ in range(4):
        GAME.apply(state, {thule: Option("hunt", south[0])})
    legal = GAME.legal_options(state, thule)
    assert Option("hunt", south[0]) not in legal  # a fifth needs a second Mariner
    assert Option("hunt", south[1]) not in legal  # the one Mariner serves a single card
    assert Option("hunt", card_in(state, NORTH)) in legal  # home needs none
    state.elders[thule][MARINER] = 2
    assert Option("hunt", south[0]) in GAME.legal_options(state, thule)
    with pytest.raises(IllegalChoice):
        state.elders[thule][MARINER] = 1
        GAME.apply(state, {thule: Option("hunt", south[1])})


def test_colonists_stay_hunters_return():
    """Line 50 'Tribesmen assigned to Markland or Vinland become Colonists and are permanently assigned';
    line 68 'all your surviving Hunters (except colonists) are returned to your pool'."""
    state = game_with(("tunit", "norse"))
    tunit = seat_of(state, "tunit")
    at_assign(state, tunit)
    state.pool[tunit] = 3
    before = state.colonists[tunit][MARKLAND]
    GAME.apply(state, {tunit: Option("hunt", MARKLAND)})
    assert state.colonists[tunit][MARKLAND] == before + 1 and state.stats["colonists_sent"][tunit] == 1
    home = card_in(state, NORTH)
    state.hunters[tunit][home] = 1
    state.pool[tunit] = 0
    plain(state, tunit)
    load_dice(state, 3)
    rules.resolve_hunt(state, DATA, tunit, home, 0)
    assert home not in state.hunters[tunit] and state.pool[tunit] == 1
    load_dice(state, *([3] * 10))
    rules.resolve_hunt(state, DATA, tunit, MARKLAND, 0)
    assert state.colonists[tunit][MARKLAND] == before + 1  # still there


def test_promotion_costs_one_energy_and_is_permanent():
    """Line 51 'By spending one energy, you can assign an unassigned tribesman to one of the six elder ranks
    ... it is a permanent assignment.'"""
    state = new(2, 3)
    at_assign(state, 0)
    state.pool[0], state.energy[0] = 2, 1
    elders = list(state.elders[0])
    GAME.apply(state, {0: Option("promote", 2)})
    assert state.elders[0][2] == elders[2] + 1 and state.energy[0] == 0 and state.pool[0] == 1
    assert not [o for o in GAME.legal_options(state, 0) if o.kind == "promote"]  # no energy left


def test_alpha_automatic_hit_and_never_dies_by_its_own_roll():
    """Line 55 'you have the option to consider its hunt roll as [a hit], without actually rolling'."""
    state = plain(new(2, 5))
    card = biome_where(state, rules.home(state, DATA, 0), lambda b: b.need == 1 and not b.trophy)
    state.hunters[0] = {card: 1}
    state.alpha[0] = card
    roll = rules.roll_hunt(state, DATA, 0, card, ALPHA_FLAG, [6])
    assert roll.dice == (6,) and roll.hits == 1 and roll.success  # one die rolled, the Alpha hits
    roll = rules.roll_hunt(state, DATA, 0, card, 0, [6, 6])
    assert len(roll.dice) == 2  # without the option the Alpha rolls too


# ------------------------------------------------------------------ the hunt


def test_the_alpha_is_treated_as_a_tribesman_except_when_used_as_a_hunter():
    """Line 55 'The Alpha: ... It is treated as a tribesman, except when used as a Hunter, you have the
    option to consider its hunt roll as [a hit]'; line 42 'A tribesman can be placed on a Biome card
    (hunting), Placard (promotion), Daughter or Livestock (raiding or defense), or in the New World
    (colonization)' (ruling G20)."""
    state = game_with(("thule", "tunit"))
    thule = seat_of(state, "thule")
    at_assign(state, thule)
    state.pool[thule] = 0  # only the Alpha is left to assign
    own, theirs = (TPLACE + DATA.tribes[TRIBES.index(t)].daughters[0] for t in ("thule", "tunit"))
    north = card_in(state, NORTH)
    alpha = {o.a for o in GAME.legal_options(state, thule) if o.kind == "alpha"}
    assert {north, MARKLAND, own, theirs} | {-1 - r for r in range(6)} <= alpha  # War Chief, Mariner, energy
    state.elders[thule][WAR_CHIEF] = state.elders[thule][MARINER] = 0
    alpha = {o.a for o in GAME.legal_options(state, thule) if o.kind == "alpha"}
    # a Raider needs a War Chief (line 52), the New World a Mariner (line 48)
    assert theirs not in alpha and MARKLAND not in alpha and own in alpha
    state.elders[thule][MARINER] = 1
    # colonization: a colonist for good (line 50), still hunting with its automatic hit
    GAME.apply(state, {thule: Option("alpha", MARKLAND)})
    assert state.alpha[thule] == MARKLAND and state.stats["colonists_sent"][thule] == 1
    state.phase, state.hunts, state.idx = HUNT, [(MARKLAND, thule)], 0
    assert Option("roll", MARKLAND, ALPHA_FLAG) in GAME.legal_options(state, thule)
    plain(state, thule)
    load_dice(state)
    rules.resolve_hunt(state, DATA, thule, MARKLAND, ALPHA_FLAG)
    assert state.alpha[thule] == MARKLAND  # it stays
    # promotion: an elder for one energy, for good; in its rank an ordinary elder dies first
    state = at_assign(new(2, 3), 0)
    state.pool[0], energy, pop = 0, state.energy[0], rules.population(state, 0)
    GAME.apply(state, {0: Option("alpha", -1 - MARINER)})
    assert state.elders[0][MARINER] == 2 and state.energy[0] == energy - 1
    assert rules.population(state, 0) == pop and alpha_rank(state.alpha[0]) == MARINER
    assert rules.assign_options(state, DATA, 0) == [Option("done")]  # nothing left to assign
    heaven = state.valhalla[0]
    assert rules.kill_elder(state, 0) and state.valhalla[0] == heaven + 1  # the ordinary Mariner
    assert alpha_rank(state.alpha[0]) == MARINER
    assert rules.kill_elder(state, 0) and state.alpha[0] == ALPHA_DEAD and state.valhalla[0] == heaven + 1
    assert state.elders[0][MARINER] == 0 and rules.population(state, 0) == pop - 2
    # a Raider rolls like any tribesman (no automatic hit: it is not a Hunter) and, alone, becomes the Husband
    state = game_with(("thule", "tunit"))
    thule = seat_of(state, "thule")
    theirs = TPLACE + DATA.tribes[TRIBES.index("tunit")].daughters[0]
    state.alpha[thule], state.hunters[thule] = theirs, {}
    state.phase, state.hunts, state.idx = HUNT, [(theirs, thule)], 0
    assert Option("roll", theirs, ALPHA_FLAG) not in GAME.legal_options(state, thule)
    load_dice(state, DATA.tcards[theirs - TPLACE].raid_hits[0])
    assert rules.resolve_hunt(state, DATA, thule, theirs, 0).success
    bride = theirs - TPLACE
    assert alpha_bride(state.alpha[thule]) == bride and state.husbands[thule] == {bride: 1}
    # the Alpha starves last (ruling G16): after an ordinary Husband and an elder
    state.pool[thule], state.colonists[thule], state.elders[thule] = 0, {}, [1, 0, 0, 0, 0, 0]
    state.husbands[thule] = {bride: 2}  # the Alpha and one ordinary Husband
    state.valhalla[thule] = state.pieces[thule] - 2
    state.energy[thule] = 0
    rules.upkeep(state, DATA)
    assert state.husbands[thule] == {bride: 1} and alpha_bride(state.alpha[thule]) == bride
    rules.upkeep(state, DATA)
    assert state.elders[thule] == [0] * 6 and alpha_bride(state.alpha[thule]) == bride
    rules.upkeep(state, DATA)
    assert state.alpha[thule] == ALPHA_DEAD and not state.husbands[thule]
    assert rules.population(state, thule) == 0


def test_warm_and_cold_hits():
    """Line 68 'If the card is on the "warm" side, each [1 or 2] die roll is a hit. If the card is on the
    "cold" side, only a [1] will hit' (faces from reference B.2, dice.toml)."""
    state = plain(new(2, 7))
    cold = card_in(state, 0, cold=True)
    warm = card_in(state, 0)
    hits, _, _ = rules.faces(state, DATA, 0, warm)
    assert hits == {1, 2}
    hits, bloody, _ = rules.faces(state, DATA, 0, cold)
    assert hits == {1} and 6 in bloody  # the icy 6 (dice.toml cold_bloody)
    state.hunters[0] = {cold: 2}
    assert rules.roll_hunt(state, DATA, 0, cold, 0, [2, 2]).hits == 0
    state.hunters[0] = {warm: 2}
    assert rules.roll_hunt(state, DATA, 0, warm, 0, [2, 2]).hits == 2


def test_threshold_bloody_faces_and_attrition_before_rewards():
    """Line 68 'greater than or equal to the number of dice shown'; line 25 'The bloody die icons show which
    die rolls kill Hunters, regardless of hunt success'; line 73 'first suffer attrition'."""
    state = plain(new(2, 11))
    card = biome_where(state, rules.home(state, DATA, 0), lambda b: b.need == 2 and b.babies and b.bloody)
    b = DATA.biomes[card]
    bloody = max(b.bloody)
    # success (2 hits) with one survivor: rewarded after the loss
    state.hunters[0] = {card: 3}
    state.pool[0], state.valhalla[0] = 0, 10
    load_dice(state, 1, 1, bloody)
    roll = rules.resolve_hunt(state, DATA, 0, card, 0)
    assert roll.success and roll.killed == 1
    assert state.pool[0] == 2 + min(b.babies, 11)  # 2 survivors back, babies from Valhalla
    # a failed hunt still loses Hunters, and gets nothing
    state = plain(new(2, 11))
    state.hunters[0] = {card: 2}
    state.pool[0], energy = 0, state.energy[0]
    load_dice(state, 3, bloody)
    roll = rules.resolve_hunt(state, DATA, 0, card, 0)
    assert not roll.success and roll.killed == 1 and state.pool[0] == 1 and state.energy[0] == energy
    # success but every Hunter dies: attrition comes first, nobody is left to bring the reward home
    state = plain(new(2, 11))
    need1 = biome_where(state, rules.home(state, DATA, 0), lambda b: b.need == 1 and b.bloody and b.babies)
    state.hunters[0] = {need1: 2}
    state.pool[0], babies = 0, state.stats["babies"][0]
    b1 = DATA.biomes[need1]
    load_dice(state, 1, max(b1.bloody))
    roll = rules.resolve_hunt(state, DATA, 0, need1, 0)
    assert roll.success and roll.killed == 1 and state.stats["babies"][0] > babies
    state.hunters[0] = {need1: 1}
    state.pool[0] = 0
    state.alpha[0] = ALPHA_POOL
    load_dice(state, max(b1.bloody))
    assert not rules.resolve_hunt(state, DATA, 0, need1, 0).success


def at_hunt(state, card, seat):
    """Phase G with ``seat`` about to roll on ``card``."""
    state.phase, state.hunts, state.idx, state.left_cards = HUNT, [(card, seat)], 0, []
    state.order = [seat] + [s for s in range(state.n_players) if s != seat]
    state.lead = state.order[0]
    return state


def test_rerolls_are_the_players_decisions():
    """Line 71 'you are entitled to re-rolls of the indicated number for all hunt rolls in that biome type'
    (ruling G9: which die to roll again, or none, is the player's decision; one option per face shown)."""
    state = plain(new(2, 13))
    sea = biome_where(state, rules.home(state, DATA, 0), lambda b: b.type == "sea" and b.bloody)
    bloody = max(DATA.biomes[sea].bloody)
    state.hunters[0] = {sea: 1}
    at_hunt(state, sea, 0)
    load_dice(state, bloody)
    GAME.apply(state, {0: Option("roll", sea, 0)})
    assert state.phase != HUNT or sea not in state.hunters[0]  # no re-roll: settled at once, one dies
    assert state.stats["hunters_killed"][0] == 1
    state = plain(new(2, 13))
    state.elders[0][1] = 1  # a Shaman: one sea re-roll (elders.toml)
    state.hunters[0] = {sea: 3}
    at_hunt(state, sea, 0)
    load_dice(state, bloody, 4, bloody, 1)
    GAME.apply(state, {0: Option("roll", sea, 0)})
    faces = sorted({bloody, 4})
    assert GAME.legal_options(state, 0) == [*(Option("reroll", sea, f) for f in faces), Option("keep", sea)]
    row = named(GAME.record(state, 0, Option("reroll", sea, bloody))[1])
    assert row["reroll"] == 1 and row["face"] == bloody  # the last re-roll logs its die and the tally
    assert -1 not in (row["hits"], row["killed"], row["success"])
    GAME.apply(state, {0: Option("reroll", sea, bloody)})
    assert state.stats["hunters_killed"][0] == 1 and not state.dice  # 1, 4 and one killing die
    # keeping the dice: both killing dice stand
    state = plain(new(2, 13))
    state.elders[0][1] = 1
    state.hunters[0] = {sea: 3}
    at_hunt(state, sea, 0)
    load_dice(state, bloody, 4, bloody)
    GAME.apply(state, {0: Option("roll", sea, 0)})
    GAME.apply(state, {0: Option("keep", sea)})
    assert state.stats["hunters_killed"][0] == 2


def test_modifiers():
    """Line 72 'dice showing the indicated number optionally become [hits]' (a hit never hurts: always
    taken, ruling G9)."""
    state = plain(new(2, 13))
    sea = biome_where(state, rules.home(state, DATA, 0), lambda b: b.type == "sea" and b.bloody)
    state.hunters[0] = {sea: 1}
    harpoon = next(c.id for c in DATA.tcards if ("sea", 3) in c.modifiers)
    assert rules.roll_hunt(state, DATA, 0, sea, 0, [3]).hits == 0
    state.tableau[0].append(harpoon)
    assert rules.roll_hunt(state, DATA, 0, sea, 0, [3]).hits == 1


def test_casualties_are_the_victims_choice():
    """Line 62 'each will kill one tribesman of the victim's choice'; line 25 'The bloody die icons show
    which die rolls kill Hunters' (ruling G10: the Alpha is the one tribesman who differs, so the choice is
    whether it is among the dead, offered only when some but not all die)."""
    state = plain(new(2, 17))
    card = biome_where(state, rules.home(state, DATA, 0), lambda b: b.bloody)
    f = max(DATA.biomes[card].bloody)
    for alpha_dies in (0, 1):
        state = plain(new(2, 17))
        state.hunters[0], state.alpha[0], state.iron[0] = {card: 1}, card, 0
        at_hunt(state, card, 0)
        load_dice(state, f, 3)
        GAME.apply(state, {0: Option("roll", card, 0)})
        assert GAME.to_move(state) == (0,)
        assert GAME.legal_options(state, 0) == [Option("casualty", card, 0), Option("casualty", card, 1)]
        GAME.apply(state, {0: Option("casualty", card, alpha_dies)})
        assert (state.alpha[0] == ALPHA_DEAD) == bool(alpha_dies)
        assert state.stats["hunters_killed"][0] == 1
    # every tribesman dies: nothing to choose
    state = plain(new(2, 17))
    state.hunters[0], state.alpha[0], state.iron[0] = {card: 1}, card, 0
    at_hunt(state, card, 0)
    load_dice(state, f, f)
    GAME.apply(state, {0: Option("roll", card, 0)})
    assert state.alpha[0] == ALPHA_DEAD and card not in state.hunters[0]
    # an attack: the victim chooses
    state = new(2, 29)
    north = card_in(state, 0)
    state.hunters[0], state.hunters[1] = {north: 2}, {north: 1}
    state.alpha[0] = north
    state.elders[1][WAR_CHIEF] = 0  # not a War Party (G24)
    state.iron, state.order = [0, 1], [0, 1]
    rules.enter(state, DATA, NEGOTIATE)
    GAME.apply(state, {1: Option("stay", north)})
    GAME.apply(state, {0: Option("stay", north)})
    load_dice(state, 1)
    GAME.apply(state, {0: Option("defend", north, 0, 1)})
    assert GAME.to_move(state) == (0,) and GAME.legal_options(state, 0)[0] == Option("casualty", north, 0)
    GAME.apply(state, {0: Option("casualty", north, 0)})
    assert state.alpha[0] == north and state.hunters[0][north] == 1 and state.stats["kills_inflicted"][1] == 1


def test_first_player_orders_the_hunts_most_iron_orders_the_negotiations():
    """Line 33 'The first player decides which card is hunted first, second, etc.'; line 32 'The player with
    the most iron (black discs) determines the order of negotiations between cards containing tribesmen from
    different players' (ruling G8: a ``pick`` decision whenever two or more cards are left)."""
    state = new(2, 31)
    a, b = card_in(state, 0), card_in(state, 1)
    for s in (0, 1):
        state.hunters[s], state.colonists[s] = {}, {}
    state.hunters[0], state.hunters[1] = {a: 1}, {b: 1}
    state.order = [1, 0]
    rules.enter(state, DATA, HUNT)
    assert GAME.to_move(state) == (1,)
    assert sorted(GAME.legal_options(state, 1)) == sorted([Option("pick", a), Option("pick", b)])
    GAME.apply(state, {1: Option("pick", a)})
    assert GAME.to_move(state) == (0,) and GAME.legal_options(state, 0)[0] == Option("roll", a, 0)
    state = new(2, 31)
    a, b = card_in(state, 0), [c for c in state.warm[0] if not DATA.biomes[c].new_world][1]
    state.hunters[0], state.hunters[1] = {a: 1, b: 1}, {a: 1, b: 1}
    state.iron, state.order = [0, 2], [0, 1]
    rules.enter(state, DATA, NEGOTIATE)
    assert GAME.to_move(state) == (1,)  # most iron
    assert sorted(GAME.legal_options(state, 1)) == sorted([Option("pick", a), Option("pick", b)])
    GAME.apply(state, {1: Option("pick", b)})
    assert state.contest == b and GAME.legal_options(state, 1)[0] == Option("stay", b)


def test_iron_rule_cancels_casualties():
    """Line 64 'Before rolling for a hunt or before an opponent makes their attack roll against you, you can
    spend 1 iron to cancel all casualties resulting from the roll.'"""
    state = plain(new(2, 17))
    card = biome_where(state, rules.home(state, DATA, 0), lambda b: b.bloody)
    state.hunters[0] = {card: 2}
    state.iron[0], state.pool[0] = 1, 0
    f = max(DATA.biomes[card].bloody)
    load_dice(state, f, f)
    roll = rules.resolve_hunt(state, DATA, 0, card, IRON_FLAG)
    assert roll.killed == 0 and state.iron[0] == 0 and state.pool[0] == 2
    # without the Advanced rules there is no iron option
    state = new(2, 17, advanced=False)
    state.phase, state.hunts, state.idx = HUNT, [(card, 0)], 0
    state.hunters[0] = {card: 1}
    assert all(not o.b & IRON_FLAG for o in GAME.legal_options(state, 0))


def test_only_the_first_success_counts_except_in_the_new_world():
    """Line 49 'unlike all other biomes, any number of players can successfully hunt here'."""
    state = new(2, 19)
    card = card_in(state, 0)
    state.won = [card]
    state.phase, state.hunts, state.idx = HUNT, [(card, 1)], 0
    state.hunters[1] = {card: 2}
    pool = state.pool[1]
    rules.next_hunt(state, DATA)
    assert state.pool[1] == pool + 2 and state.phase != HUNT  # sent home without a roll
    state = new(2, 19)
    state.won = [MARKLAND]
    state.colonists[1] = {MARKLAND: 2}
    state.phase, state.hunts, state.idx = HUNT, [(MARKLAND, 1)], 0
    rules.next_hunt(state, DATA)
    assert state.phase == HUNT  # the New World is inexhaustible
    state = new(2, 19, contest_success="all")
    state.won = [card]
    state.phase, state.hunts, state.idx = HUNT, [(card, 1)], 0
    state.hunters[1] = {card: 2}
    rules.next_hunt(state, DATA)
    assert state.phase == HUNT


# ------------------------------------------------------------------ negotiate and attack


def test_hostile_flip_above_six_colonists_and_pacify():
    """Line 63 'more than 6 Colonists are on a peaceful New World card (counting all players' colonists
    combined), it flips to its hostile side'; line 26 'may spend an ivory to pacify it'."""
    state = game_with(("tunit", "thule"))
    tunit, thule = seat_of(state, "tunit"), seat_of(state, "thule")
    state.colonists[tunit] = {MARKLAND: 5}
    state.colonists[thule] = {MARKLAND: 1}
    rules.finish_negotiation(state, DATA)
    assert MARKLAND not in state.hostile
    state = game_with(("tunit", "thule"))
    state.colonists[tunit] = {MARKLAND: 5}
    state.colonists[thule] = {MARKLAND: 2}
    rules.finish_negotiation(state, DATA)
    assert MARKLAND in state.hostile
    _, bloody, need = rules.faces(state, DATA, thule, MARKLAND)
    assert need == DATA.biomes[MARKLAND].need_hostile
    state.phase, state.order, state.idx, state.ivory[thule] = DOMESTIC, [thule], 0, 1
    assert Option("pacify", MARKLAND) in GAME.legal_options(state, thule)
    GAME.apply(state, {thule: Option("pacify", MARKLAND)})
    assert MARKLAND not in state.hostile and state.ivory[thule] == 0
    state = game_with(("tunit", "thule"), advanced=False)
    state.colonists[tunit] = {MARKLAND: 9}
    rules.finish_negotiation(state, DATA)
    assert MARKLAND not in state.hostile


def test_contested_card_withdraw_then_attack_in_iron_order():
    """Line 32 'The player with the most iron ... Unless all but one player's tribesmen leave a card, all
    players must immediately attack, starting with the player with the most iron'; line 62 'rolling a
    number of dice equal to the number of your tribesmen present ... each will kill one tribesman'."""
    state = new(3, 23)
    card = card_in(state, 0)
    for s in range(3):
        state.hunters[s] = {card: 2}
        state.alpha[s] = ALPHA_POOL
        state.iron[s] = s  # seat 2 has the most iron
    state.order = [0, 1, 2]
    rules.enter(state, DATA, NEGOTIATE)
    assert state.phase == NEGOTIATE and GAME.to_move(state) == (2,)
    GAME.apply(state, {2: Option("stay", card)})
    assert GAME.to_move(state) == (1,)
    GAME.apply(state, {1: Option("withdraw", card)})
    assert card not in state.hunters[1] and state.stats["withdrawals"][1] == 1
    GAME.apply(state, {0: Option("stay", card)})
    assert GAME.to_move(state) == (0,)  # seat 2 attacks first: its only target, seat 0, defends
    opts = GAME.legal_options(state, 0)
    assert opts == [Option("defend", card, 0, 2)]  # no iron: no iron rule
    roll = rules.preview(state, DATA, 0, opts[0])
    GAME.apply(state, {0: opts[0]})
    assert state.hunters[0].get(card, 0) == max(0, 2 - roll.killed)
    assert state.stats["attacks"][2] == 1


def test_iron_rule_against_an_attack():
    """Line 64 'before an opponent makes their attack roll against you, you can spend 1 iron'."""
    state = new(2, 29)
    card = card_in(state, 0)
    state.hunters[0], state.hunters[1] = {card: 3}, {card: 3}
    state.iron = [0, 1]
    state.order = [0, 1]
    rules.enter(state, DATA, NEGOTIATE)
    GAME.apply(state, {1: Option("stay", card)})
    GAME.apply(state, {0: Option("stay", card)})
    assert GAME.to_move(state) == (0,)  # seat 1 (more iron) attacks; seat 0 has no iron
    load_dice(state, 1, 1, 1)
    GAME.apply(state, {0: Option("defend", card, 0, 1)})
    assert card not in state.hunters[0]  # three hits kill all three
    assert state.phase != NEGOTIATE or GAME.to_move(state) != (0,)
    state = new(2, 29)
    state.hunters[0], state.hunters[1] = {card: 3}, {card: 3}
    state.iron, state.order = [1, 2], [0, 1]
    rules.enter(state, DATA, NEGOTIATE)
    GAME.apply(state, {1: Option("stay", card)})
    GAME.apply(state, {0: Option("stay", card)})
    load_dice(state, 1, 1, 1)
    GAME.apply(state, {0: Option("defend", card, 1, 1)})
    assert state.hunters[0][card] == 3 and state.iron[0] == 0


# ------------------------------------------------------------------ the event phase


def test_the_trade_ship_is_auctioned_at_its_own_icon_left_to_right():
    """Line 22 'Reveal an event card to start the turn. Then, determine the first player and apply the
    effects of the event icons from left to right to all players. If the card shows a Norse trade ship,
    auction its imported good' (ruling G3): the ship's auction comes at its icon's place on the card, after
    the icons to its left and before those to its right."""
    ship = Event(
        len(DATA.events), "Feast, ship, feast", "yellow", (("feast", ""), ("ship", ""), ("feast", ""))
    )
    data = dataclasses.replace(DATA, events=(*DATA.events, ship))
    state = next(s for s in (GAME.new_state(2, {}, data, seed) for seed in range(50)) if s.phase == ASSIGN)
    state.events.append(ship.id)
    energy = list(state.energy)
    state.ivory = [1, 1]
    rules.start_generation(state, data)
    assert state.phase == BID and state.offer >= 0
    assert state.energy == [e + 1 for e in energy]  # the feast left of the ship, not yet the one right of it
    offer = state.offer
    GAME.apply(state, {0: Option("bid", 1), 1: Option("bid", 0)})
    assert offer in state.tableau[0] and state.ivory == [0, 1]
    assert state.energy == [e + 2 for e in energy] and state.phase != BID  # then the icon right of the ship


# ------------------------------------------------------------------ player order


def test_player_order_of_phases_1_2_and_5_follows_the_event_colour():
    """Line 31 'The icons in the top center of the turn's event card show the color of the first player ...
    Then, play passes to the next player color in line.'"""
    state = new(4, 31)
    line = DATA.setup["colour_line"]
    for colour in line:
        order = rules.player_order(state, DATA, colour)
        colours = [DATA.tribes[state.tribe[s]].colour for s in order]
        start = line.index(colour)
        assert colours == [line[(start + k) % 4] for k in range(4)]
    state = game_with(("thule", "norse"))
    missing = next(c for c in line if c not in {DATA.tribes[t].colour for t in state.tribe})
    order = rules.player_order(state, DATA, missing)
    assert len(order) == 2  # an absent colour passes to the next colour in line (ruling G1)


def test_hunt_order_fewest_first_and_elder_order_polytheists_first():
    """Line 33 'On a contested card, the player with the fewest tribesmen there rolls first. In case of a tie,
    the player order ... is followed'; line 34 'All polytheists go first ..., then all monotheists'."""
    state = new(3, 37)
    card = card_in(state, 0)
    state.order = [0, 1, 2]
    for s in range(3):
        state.colonists[s] = {}
    state.hunters = [{card: 3}, {card: 1}, {card: 1}]
    hunts = [h for h in rules.hunt_order(state, DATA) if h[0] == card]
    assert hunts == [(card, 1), (card, 2), (card, 0)]
    state.religion = [POLY, MONO, POLY]
    assert rules.elder_order(state) == [0, 2, 1]
    state.iron = [1, 1, 1]
    assert rules.iron_order(state, [0, 1, 2]) == [0, 1, 2]  # all tied: the player order
    state.iron = [0, 0, 3]
    assert rules.iron_order(state, [0, 1, 2]) == [2, 0, 1]


# ------------------------------------------------------------------ phases H and I


def test_daughters_for_energy_or_an_elder_and_the_fuel_upkeep():
    """Line 26 'gives you the specified babies without a hunt roll, if you spend the specified energy or
    elders'; ruling G16 upkeep (line 5 'fuel to sustain their children, elders, and livestock')."""
    state = game_with(("thule", "norse"))
    thule = seat_of(state, "thule")
    daughter = DATA.tribes[TRIBES.index("thule")].daughters[0]
    state.phase, state.order, state.idx = DOMESTIC, [thule], 0
    state.energy[thule], state.valhalla[thule] = 1, 5
    opts = GAME.legal_options(state, thule)
    assert Option("breed", daughter) in opts and Option("breed", daughter, -1, 0) in opts
    elders, pool = sum(state.elders[thule]), state.pool[thule]
    GAME.apply(state, {thule: Option("breed", daughter, -1, 0)})
    assert (
        sum(state.elders[thule]) == elders - 1 and state.pool[thule] == pool + 1 and state.energy[thule] == 1
    )
    assert all(o.a != daughter for o in GAME.legal_options(state, thule))  # once a generation
    pop = rules.population(state, thule)
    state.energy[thule] = 0
    rules.upkeep(state, DATA)
    assert rules.population(state, thule) == pop - -(-pop // 5)  # nothing to burn: lives are lost
    state.stats["starved"][thule] = 0
    state.energy[thule] = 10
    rules.upkeep(state, DATA)
    assert state.energy[thule] == 10 - -(-rules.population(state, thule) // 5)


def test_conversion_needs_no_elders():
    """Line 27 'If you have no elders, you may convert to monotheism (i.e., flip your Placard).'"""
    state = new(2, 41)
    state.phase, state.order, state.idx = ELDER, [0, 1], 0
    assert Option("convert") not in GAME.legal_options(state, 0)
    state.elders[0] = [0] * 6
    assert Option("convert") in GAME.legal_options(state, 0)
    GAME.apply(state, {0: Option("convert")})
    assert state.religion[0] == MONO and state.converted[0] == state.generation
    state = new(2, 41, conversion="any")
    state.phase, state.order, state.idx = ELDER, [0, 1], 0
    assert Option("convert") in GAME.legal_options(state, 0)


def test_scoring_polytheist_trophies_monotheist_iron_and_ivory():
    """Reference B.2 (hiewand): polytheists score Trophies, monotheists iron and ivory, both population."""
    state = new(2, 43)
    trophy = next(b for b in DATA.biomes if b.trophy)
    state.trophies[0] = [trophy.id]
    state.iron[0], state.ivory[0] = 2, 3
    pop = rules.population(state, 0)
    assert rules.score(state, DATA, 0) == pop + trophy.trophy
    state.religion[0] = MONO
    assert rules.score(state, DATA, 0) == pop + 2 * DATA.score["iron"] + 3 * DATA.score["ivory"]


def test_a_sole_survivor_wins_and_the_game_ends():
    """Line 5 'The objective is to survive and accumulate more victory points ..., or be the sole remaining
    culture.'"""
    state = new(3, 47)
    for s in (1, 2):
        state.pool[s], state.elders[s], state.colonists[s], state.hunters[s] = 0, [0] * 6, {}, {}
        state.valhalla[s] = state.pieces[s]  # every tribesman dead, in Valhalla (line 14)
        state.alpha[s] = ALPHA_DEAD
    state.trophies[1] = [next(b.id for b in DATA.biomes if b.trophy)]
    rules.check_alive(state)
    assert rules.end_if_decided(state, DATA) and GAME.is_terminal(state)
    result = GAME.result(state)
    assert result.winners == [0] and result.scores[1] == 0


DICE_COLUMNS = ("dice", "roll", "reroll", "hits", "killed", "success")


def named(fields: tuple[int, ...]) -> dict[str, int]:
    """A turn record's action fields by column name."""
    return dict(zip(GAME.action_fields, fields, strict=True))


def test_action_columns_are_named_and_each_kind_fills_its_own():
    """Each action column says what it holds (``action_docs``); a kind fills the columns
    ``action_kinds`` names for it and leaves every other one -1; in seeded games every declared column of a
    kind is filled somewhere, and the columns hold the option's values (the place, a bribe's discs)."""
    assert set(GAME.action_kinds) == set(OPTION_KINDS) and set(GAME.action_docs) == set(GAME.action_fields)
    filled: dict[str, set[str]] = {}
    for seed in (17, 20, 119):  # random play; 119 has an attack with several targets (rare)
        rng = np.random.default_rng(seed)
        state = new(4, seed)
        state.tableau[0].append(next(c.id for c in DATA.tcards if c.sun_stone))  # a Sun Stone for moves
        while not GAME.is_terminal(state):
            choices = {}
            for s in GAME.to_move(state):
                opts = GAME.legal_options(state, s)
                o = choices[s] = opts[int(rng.integers(len(opts)))]
                kind, fields = GAME.record(state, s, o)
                row = named(fields)
                assert (
                    kind == o.kind and row["generation"] == state.generation and row["event"] == state.event
                )
                assert all(v == -1 for c, v in row.items() if c not in GAME.action_kinds[kind]), (kind, row)
                filled.setdefault(kind, set()).update(c for c, v in row.items() if v != -1)
                if "place" in GAME.action_kinds[kind] and kind not in ("alpha", "move"):
                    assert row["place"] == o.a
                if kind == "move":
                    assert row["from_place"] == o.a and (row["place"] == o.b or row["rank"] == -1 - o.b)
                if kind in ("bribe", "counter", "accept", "refuse") and o.c < MARRY:
                    assert row["energy"] + row["ivory"] + row["iron"] == o.c % 10
            GAME.apply(state, choices)
    never = {(k, c) for k, cols in GAME.action_kinds.items() for c in cols if c not in filled.get(k, ())}
    assert not never, sorted(never)


def test_record_logs_the_dice_that_apply_rolls():
    """Every roll is logged; the record's dice are the dice the decision then rolls."""
    rng = np.random.default_rng(0)
    seen = 0
    for seed in range(53, 56):
        state = new(4, seed)
        logged = [0] * 4
        while not GAME.is_terminal(state):
            movers = GAME.to_move(state)
            choices = {}
            for s in movers:
                opts = GAME.legal_options(state, s)
                choices[s] = opts[int(rng.integers(len(opts)))]
            records = {s: GAME.record(state, s, o) for s, o in choices.items()}
            GAME.apply(state, choices)
            for s, (kind, fields) in records.items():
                row = named(fields)
                if kind not in ("roll", "reroll", "keep"):
                    assert [row[c] for c in DICE_COLUMNS] == [-1] * 6 or kind == "defend"
                    continue
                seen += kind == "roll"
                n, packed, again, killed = row["dice"], row["roll"], row["reroll"], row["killed"]
                digits = str(packed) if packed >= 0 else ""
                if kind == "roll":
                    assert len(digits) == n and set(digits) <= set("123456")
                elif kind == "reroll":
                    assert n == 1 and 1 <= again <= 6
                logged[s] += max(killed, 0)  # the decision that makes the dice final logs the dead
        assert logged == state.stats["hunters_killed"]
    assert seen >= 50


def test_bad_choice_is_illegal():
    state = new(2, 59)
    seat = GAME.to_move(state)[0]
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {seat: Option("convert", 99)})


def test_packaged_data_path_is_the_folder():
    assert Path(DATA.path) == DEFAULT_DIR


# ------------------------------------------------------------------ raids, guards, exogamy (Advanced)


def test_raiders_need_a_war_chief_guards_protect_their_own():
    """Line 52 'To raid a Livestock or Daughter card in an opponent's tableau, assign a Raider to their card
    ... You must have a rank 4 Elder (War Chief) to assign a Raider'; line 53 'You can assign tribesmen to any
    of your Daughter or Livestock Tableau cards ... as Guards'."""
    state = game_with(("thule", "tunit"))
    thule, tunit = seat_of(state, "thule"), seat_of(state, "tunit")
    at_assign(state, thule)
    state.pool[thule] = 3
    state.elders[thule][WAR_CHIEF] = 0
    raids = [o for o in GAME.legal_options(state, thule) if o.kind == "raid"]
    guards = {o.a - TPLACE for o in GAME.legal_options(state, thule) if o.kind == "guard"}
    assert not raids and guards == set(state.tableau[thule])
    state.elders[thule][WAR_CHIEF] = 1
    raids = {o.a - TPLACE for o in GAME.legal_options(state, thule) if o.kind == "raid"}
    assert raids == set(state.tableau[tunit])  # daughters (and livestock) of the other tribe
    state = new(2, 3, advanced=False)
    at_assign(state, 0)
    state.pool[0] = 2
    assert not [o for o in GAME.legal_options(state, 0) if o.kind in ("raid", "guard")]


def test_guards_and_raiders_fight_in_phase_f_then_raiders_roll():
    """Line 52 'This will be resolved in Phases F and G'; line 70 'Each Raider makes a hunt roll. If any of
    the Raiders roll one of the die faces shown in the "success" field, the raid is successful, assuming at
    least one raider survives attrition.'"""
    state = game_with(("thule", "tunit"))
    thule, tunit = seat_of(state, "thule"), seat_of(state, "tunit")
    daughter = DATA.tribes[TRIBES.index("tunit")].daughters[0]
    place = TPLACE + daughter
    for s in range(2):
        state.hunters[s], state.colonists[s] = {}, {}
    state.hunters[thule] = {place: 2}
    state.hunters[tunit] = {place: 1}
    state.order = [thule, tunit]
    assert rules.contested(state, DATA) == [place]
    hunts = rules.hunt_order(state, DATA)
    assert hunts == [(place, thule)]  # the Guard does not roll
    plain(state, thule)
    t = DATA.tcards[daughter]
    load_dice(state, max(t.raid_hits), max(t.raid_bloody))
    roll = rules.resolve_hunt(state, DATA, thule, place, 0)
    assert roll.success and roll.killed == 1
    assert state.husbands[thule] == {daughter: 1}  # line 61: a Raider becomes a Husband, for good
    assert place not in state.hunters[thule] and state.stats["raids_won"][thule] == 1
    # the married daughter now raises children for the husband's tribe (ruling G22)
    state.phase, state.order, state.idx = DOMESTIC, [thule, tunit], 0
    state.energy[thule], state.valhalla[thule] = 1, 3
    assert Option("breed", daughter) in GAME.legal_options(state, thule)
    state.idx = 1
    assert all(o.a != daughter for o in GAME.legal_options(state, tunit))


def married(state, husband: str, bride_tribe: str, k: int = 1) -> int:
    """``k`` tribesmen of ``husband`` from its unassigned pool become Husbands of the first daughter of
    ``bride_tribe`` (line 61); returns her card."""
    seat, daughter = seat_of(state, husband), DATA.tribes[TRIBES.index(bride_tribe)].daughters[0]
    state.husbands[seat] = {daughter: k}
    state.pool[seat] -= k
    return daughter


def test_a_married_daughter_can_be_raided():
    """Line 52 'To raid a Livestock or Daughter card in an opponent's tableau, assign a Raider to their card';
    line 53 'You can assign tribesmen ... to daughters you are married to, as Guards to defend them': a
    married daughter is raided like any other (ruling G22); ``married_raids=off`` raids only unmarried
    ones."""
    for rules_, raidable in (({}, True), ({"married_raids": "off"}, False)):
        state = game_with(("thule", "tunit", "norse"), **rules_)
        thule = seat_of(state, "thule")
        daughter = married(state, "norse", "tunit")
        at_assign(state, thule)
        state.pool[thule], state.elders[thule][WAR_CHIEF] = 3, 1
        raids = {o.a - TPLACE for o in GAME.legal_options(state, thule) if o.kind == "raid"}
        assert (daughter in raids) == raidable
        assert set(state.tableau[seat_of(state, "tunit")]) - {daughter} <= raids


def test_a_raid_on_a_married_daughter_takes_her_from_her_husbands_tribe():
    """Line 70 (a successful Sabine raid) and line 61 'convert one of the Raiders into a Husband, placing it
    in the exogamy box of a daughter card': taken from the tribe she was married to, whose Husbands (its
    Alpha among them) go home; she raises children for the raider's tribe, and her former husbands' tribe
    no longer guards her (ruling G22)."""
    state = game_with(("thule", "tunit", "norse"))
    thule, tunit, norse = seat_of(state, "thule"), seat_of(state, "tunit"), seat_of(state, "norse")
    daughter = married(state, "norse", "tunit", k=1)
    state.husbands[norse][daughter] = 2  # and the Alpha
    state.alpha[norse] = ALPHA_HUSBAND - daughter
    pool, place = state.pool[norse], TPLACE + daughter
    for s in range(3):
        state.hunters[s], state.colonists[s] = {}, {}
    state.hunters[thule] = {place: 1}
    state.order = [thule, tunit, norse]
    plain(state, thule)
    load_dice(state, DATA.tcards[daughter].raid_hits[0])
    assert rules.resolve_hunt(state, DATA, thule, place, 0).success
    assert state.husbands[thule] == {daughter: 1} and not state.husbands[norse]
    assert state.pool[norse] == pool + 1 and state.alpha[norse] == ALPHA_POOL
    state.phase, state.idx = DOMESTIC, 0
    state.energy, state.valhalla = [5, 5, 5], [3, 3, 3]
    assert Option("breed", daughter) in GAME.legal_options(state, thule)
    state.idx = 2
    assert not [o for o in GAME.legal_options(state, norse) if o.kind == "breed" and o.a == daughter]
    at_assign(state, norse)
    state.elders[norse][MARINER], state.elders[norse][WAR_CHIEF] = 1, 0
    options = GAME.legal_options(state, norse)
    assert Option("guard", place) not in options and Option("raid", place) not in options
    state.elders[norse][WAR_CHIEF] = 1
    assert Option("raid", place) in GAME.legal_options(state, norse)


def test_guarding_a_wife_in_the_other_homeland_needs_a_mariner_or_a_sled():
    """Ruling G22 'A tableau card lies in its owner's homeland'; line 46 'You must have a Mariner ... for
    each Biome or Tableau card outside your homeland where you place Hunters'; line 47 'Sleds'; line 53
    Guards on 'daughters you are married to' are placed like any tribesman."""
    state = game_with(("thule", "norse"))
    thule = seat_of(state, "thule")
    wife = married(state, "thule", "norse")
    at_assign(state, thule)
    state.pool[thule], state.elders[thule][MARINER] = 3, 0
    state.tableau[thule] = [c for c in state.tableau[thule] if not DATA.icons["sled"][c]]
    own = {c for c in state.tableau[thule] if DATA.tcards[c].kind in ("daughter", "animal")}

    def guards() -> set[int]:
        return {o.a - TPLACE for o in GAME.legal_options(state, thule) if o.kind == "guard"}

    assert guards() == own  # one's own cards lie at home
    state.elders[thule][MARINER] = 1
    assert guards() == own | {wife}
    state.elders[thule][MARINER] = 0
    state.tableau[thule].append(next(c.id for c in DATA.tcards if c.sled and c.kind == "invention"))
    assert wife in guards()


def test_livestock_raid_takes_the_animal():
    """Line 70: a successful Livestock raid; the card goes to the raider's tableau (ruling G22)."""
    state = game_with(("norse", "sami"))
    norse, sami = seat_of(state, "norse"), seat_of(state, "sami")
    GAME.apply(
        state,
        {
            norse: Option("animal", DATA.tribes[TRIBES.index("norse")].animals[0]),
            sami: Option("animal", DATA.tribes[TRIBES.index("sami")].animals[0]),
        },
    )
    cattle = DATA.tribes[TRIBES.index("norse")].animals[0]
    place = TPLACE + cattle
    state.hunters[sami] = {place: 1}
    load_dice(state, DATA.tcards[cattle].raid_hits[0])
    assert rules.resolve_hunt(state, DATA, sami, place, 0).success
    assert cattle in state.tableau[sami] and cattle not in state.tableau[norse]
    assert state.pool[sami] >= 1 and place not in state.hunters[sami]
    # a raid that succeeds but loses its only Raider takes nothing
    pig = next(c for c in state.tableau[sami] if DATA.tcards[c].kind == "animal" and c != cattle)
    state.hunters[norse] = {TPLACE + pig: 1}
    t = DATA.tcards[pig]
    bloody = next(f for f in t.raid_bloody if f not in t.raid_hits)
    load_dice(state, bloody)
    assert not rules.resolve_hunt(state, DATA, norse, TPLACE + pig, 0).success and pig in state.tableau[sami]


def test_bribes_and_marriage_offers_on_a_contested_card():
    """Line 59 'You can ask them to leave peacefully ... You can trade discs ... as well as offer daughters
    for marriage'; line 61 'If agreed upon during negotiations ... you can convert one of the Raiders into a
    Husband' (ruling G23: the bribed tribe's tribesman becomes the Husband)."""
    state = game_with(("thule", "tunit"))
    thule, tunit = seat_of(state, "thule"), seat_of(state, "tunit")
    card = card_in(state, NORTH)
    state.hunters[thule], state.hunters[tunit] = {card: 2}, {card: 3}
    state.iron = [0, 0]
    state.iron[thule] = 1  # Thule negotiates first (line 32)
    state.energy[thule], state.energy[tunit] = 2, 0
    state.order = [thule, tunit]
    rules.enter(state, DATA, NEGOTIATE)
    assert GAME.to_move(state) == (thule,)
    opts = GAME.legal_options(state, thule)
    assert Option("bribe", card, tunit, 2) in opts  # 2 energy
    daughter = DATA.tribes[TRIBES.index("thule")].daughters[0]
    assert Option("bribe", card, tunit, MARRY + daughter) in opts
    GAME.apply(state, {thule: Option("bribe", card, tunit, 2)})
    assert GAME.to_move(state) == (tunit,)
    assert GAME.legal_options(state, tunit)[:2] == [
        Option("accept", card, -1, 2),
        Option("refuse", card, -1, 2),
    ]
    pool = state.pool[tunit]
    GAME.apply(state, {tunit: Option("accept", card, -1, 2)})
    assert state.energy[thule] == 0 and state.energy[tunit] == 2
    assert card not in state.hunters[tunit] and state.pool[tunit] == pool + 3
    assert state.hunters[thule][card] == 2 and state.phase != NEGOTIATE  # nobody left to fight
    # a marriage: one of the bribed tribe's tribesmen becomes her Husband, the others go home
    state = game_with(("thule", "tunit"))
    state.hunters[thule], state.hunters[tunit] = {card: 2}, {card: 3}
    state.iron = [0, 0]
    state.iron[thule] = 1
    state.order = [thule, tunit]
    rules.enter(state, DATA, NEGOTIATE)
    GAME.apply(state, {thule: Option("bribe", card, tunit, MARRY + daughter)})
    GAME.apply(state, {tunit: Option("accept", card, -1, MARRY + daughter)})
    assert state.husbands[tunit] == {daughter: 1} and card not in state.hunters[tunit]
    # refused: the briber stays, and everyone on the card must attack (line 32)
    state = game_with(("thule", "tunit"))
    state.hunters[thule], state.hunters[tunit] = {card: 2}, {card: 3}
    state.iron = [0, 0]
    state.iron[thule], state.ivory[thule] = 1, 1
    state.order = [thule, tunit]
    rules.enter(state, DATA, NEGOTIATE)
    GAME.apply(state, {thule: Option("bribe", card, tunit, 11)})
    GAME.apply(state, {tunit: Option("refuse", card, -1, 11)})
    assert GAME.to_move(state) == (thule,)  # the briber may try again (G23), or stay
    GAME.apply(state, {thule: Option("stay", card)})
    assert state.ivory[thule] == 1 and GAME.to_move(state) == (tunit,)
    assert {o.kind for o in GAME.legal_options(state, tunit)} == {"stay", "withdraw", "bribe"}
    GAME.apply(state, {tunit: Option("stay", card)})
    assert GAME.legal_options(state, tunit)[0].kind == "defend"  # Thule (more iron) attacks first
    assert not [o for o in rules.options(new(2, 3, bribes=False), DATA, 0, check=False) if o.kind == "bribe"]


def test_a_war_party_chooses_the_victims_casualties():
    """Line 62 'Except for War Parties, each will kill one tribesman of the victim's choice' (ruling G24: an
    attack by a tribe with a War Chief, rank 4, line 52, is a War Party; its attacker chooses)."""
    for war_chief, rules_, chooser in ((1, {}, 1), (0, {}, 0), (1, {"war_parties": "none"}, 0)):
        state = new(2, 29, **rules_)
        north = card_in(state, 0)
        state.hunters[0], state.hunters[1] = {north: 2}, {north: 1}
        state.alpha[0] = north
        state.elders[1][WAR_CHIEF] = war_chief
        state.iron, state.order = [0, 1], [0, 1]
        rules.enter(state, DATA, NEGOTIATE)
        GAME.apply(state, {1: Option("stay", north)})
        GAME.apply(state, {0: Option("stay", north)})
        load_dice(state, 1)
        GAME.apply(state, {0: Option("defend", north, 0, 1)})
        assert GAME.to_move(state) == (chooser,)
        assert GAME.legal_options(state, chooser) == [
            Option("casualty", north, 0),
            Option("casualty", north, 1),
        ]
        if chooser == 1:
            GAME.apply(state, {1: Option("casualty", north, 1)})
            assert state.alpha[0] == ALPHA_DEAD and state.hunters[0][north] == 2


def test_hand_cards_and_hand_size():
    """Line 59 'You can trade discs, hand cards, ...'; reference B.2 'Maximum hand size is normally 0! but
    various cards in the tableau can raise that size. Should your hand ever go above this maximum size, cards
    must be immediately discarded'; the Crafter 'raises hand size' (ruling G19)."""
    state = new(2, 41)
    assert rules.hand_size(state, DATA, 0) == 1  # 0, plus the Crafter (rank 3)
    state.phase, state.order, state.idx = ELDER, [0, 1], 0
    state.ivory[0], state.energy[0] = 2, 2
    invent = next(Option("elder", 2, i) for i, a in enumerate(DATA.ranks[2].actions) if a.name == "invent")
    top = state.inventions[-1]
    GAME.apply(state, {0: invent})
    assert state.hands[0] == [top] and top not in state.tableau[0]  # drawn into the hand
    view = GAME.view(state, 1)
    assert view.hand == () and view.hand_sizes[0] == 1  # hidden from the other tribe
    assert GAME.view(state, 0).hand == (top,)
    assert Option("table", top) in GAME.legal_options(state, 0)
    GAME.apply(state, {0: Option("table", top)})
    assert top in state.tableau[0] and not state.hands[0] and state.energy[0] == 1
    # the Crafter dies: the hand size drops to 0 and the card is discarded at once
    state.hands[0] = [state.inventions.pop()]
    state.elders[0][2] = 0
    rules.check_hand(state, DATA, 0)
    assert not state.hands[0] and state.discards and state.stats["discarded"][0] == 1


def test_counter_offers_repeated_offers_and_card_trades():
    """Line 59 'You can ask them to leave peacefully, or volunteer to leave. You can trade discs, hand cards,
    or Invention or Domestic Animal cards in your tableau, as well as offer daughters for marriage or make
    non-binding agreements about plays in future turns' (ruling G23: the asked tribe may name its own price;
    each tribe makes at most setup.offers_per_card offers per card; agreements about later turns bind
    nothing and are not modelled)."""
    state = game_with(("thule", "tunit"))
    thule, tunit = seat_of(state, "thule"), seat_of(state, "tunit")
    card = card_in(state, NORTH)
    kayak = next(c.id for c in DATA.tcards if c.name == "Kayak")
    weir = next(c.id for c in DATA.tcards if c.name == "Fish Weir")
    state.tableau[thule].append(kayak)
    state.hands[thule] = [weir]
    state.hunters[thule], state.hunters[tunit] = {card: 2}, {card: 3}
    state.iron = [0, 0]
    state.iron[thule], state.ivory[thule] = 1, 1
    state.order = [thule, tunit]
    rules.enter(state, DATA, NEGOTIATE)
    opts = GAME.legal_options(state, thule)
    assert Option("bribe", card, tunit, CARD + kayak) in opts  # an Invention of the tableau
    assert Option("bribe", card, tunit, CARD + weir) in opts  # a hand card
    GAME.apply(state, {thule: Option("bribe", card, tunit, 11)})
    counters = [o for o in GAME.legal_options(state, tunit) if o.kind == "counter"]
    assert Option("counter", card, -1, CARD + kayak) in counters
    assert Option("counter", card, -1, CARD + weir) not in counters  # hidden in the Thule hand
    GAME.apply(state, {tunit: Option("counter", card, -1, CARD + kayak)})
    assert GAME.to_move(state) == (thule,)
    assert GAME.legal_options(state, thule) == [
        Option("accept", card, -1, CARD + kayak),
        Option("refuse", card, -1, CARD + kayak),
    ]
    GAME.apply(state, {thule: Option("refuse", card, -1, CARD + kayak)})
    assert GAME.to_move(state) == (thule,)  # a second offer
    GAME.apply(state, {thule: Option("bribe", card, tunit, CARD + weir)})
    GAME.apply(state, {tunit: Option("accept", card, -1, CARD + weir)})
    assert weir in state.hands[tunit] or weir in state.discards  # over the hand size: discarded (G19)
    assert weir not in state.hands[thule] and card not in state.hunters[tunit]
    # the offers are used up: a third is not offered
    state = game_with(("thule", "tunit"))
    state.hunters[thule], state.hunters[tunit] = {card: 2}, {card: 3}
    state.iron = [0, 0]
    state.iron[thule] = 1
    state.order = [thule, tunit]
    rules.enter(state, DATA, NEGOTIATE)
    for _ in range(int(DATA.setup["offers_per_card"])):
        GAME.apply(state, {thule: Option("bribe", card, tunit, 1)})
        GAME.apply(state, {tunit: Option("refuse", card, -1, 1)})
    assert {o.kind for o in GAME.legal_options(state, thule)} == {"stay", "withdraw"}


def test_sun_stone_reassigns_any_three_tribesmen():
    """Line 54 'The Sun Stone/Sun compass card in your tableau allows you to reassign three of your tribesmen
    after everyone has assigned all their tribesmen' (ruling G5: tribesmen, not only Hunters: Guards,
    Raiders and the Alpha too, to any place line 42 allows; colonists (line 50) and elders (line 51) are
    assigned for good)."""
    state = game_with(("thule", "tunit"))
    thule = seat_of(state, "thule")
    stone = next(c.id for c in DATA.tcards if c.sun_stone)
    state.tableau[thule].append(stone)
    a, b = card_in(state, NORTH), [c for c in state.warm[NORTH] if not DATA.biomes[c].new_world][1]
    daughter = DATA.tribes[TRIBES.index("thule")].daughters[0]
    state.hunters[thule] = {a: 1, TPLACE + daughter: 1}
    state.placed[thule] = {a: 2, TPLACE + daughter: 1}
    state.alpha[thule] = a
    state.colonists[thule] = {MARKLAND: 1}
    state.elders[thule][MARINER] = 1
    state.phase, state.order, state.idx, state.moves = rules.SUNSTONE, [thule], 0, 0
    opts = GAME.legal_options(state, thule)
    assert Option("move", a, b) in opts and Option("move", a, MARKLAND) in opts  # a Hunter, even to a colony
    assert Option("move", TPLACE + daughter, b) in opts  # a Guard
    # the Alpha, a tribesman (line 55, ruling G20): to another card, a colony, a Guard's place, the Placard
    assert {Option("move", a, d, 1) for d in (b, MARKLAND, TPLACE + daughter, -1 - 2)} <= set(opts)
    assert Option("move", a, -1 - 2) in opts  # to the Placard: a promotion for one energy (line 51)
    assert not [o for o in opts if o.a == MARKLAND]  # colonists stay
    GAME.apply(state, {thule: Option("move", a, b, 1)})
    GAME.apply(state, {thule: Option("move", TPLACE + daughter, a)})
    energy = state.energy[thule]
    GAME.apply(state, {thule: Option("move", a, -1 - 2)})
    assert state.alpha[thule] == b and state.energy[thule] == energy - 1 and state.elders[thule][2] == 2
    assert state.phase != rules.SUNSTONE  # three moves made


def test_babies_come_from_valhalla_and_population_counts_them():
    """Line 25 'babies' are new unassigned tribesmen, the tribe's own pieces from Valhalla (ruling G7): the
    living count rises by the babies born, capped by Valhalla; with babies_from_valhalla off a data file
    makes new pieces, and the living count rises just the same."""
    state = new(3, 5)
    pop, heaven = rules.population(state, 0), state.valhalla[0]
    assert rules.babies(state, DATA, 0, 2) == 2
    assert rules.population(state, 0) == pop + 2 and state.valhalla[0] == heaven - 2
    left = state.valhalla[0]
    assert rules.babies(state, DATA, 0, left + 3) == left  # no more than Valhalla holds
    assert rules.population(state, 0) == pop + 2 + left and state.valhalla[0] == 0
    free = dataclasses.replace(DATA, hunt={**DATA.hunt, "babies_from_valhalla": False})
    assert rules.babies(state, free, 0, 4) == 4 and state.valhalla[0] == 0
    assert rules.population(state, 0) == pop + 6 + left
    assert state.pieces[0] == int(DATA.setup["tribesmen"]) + 4

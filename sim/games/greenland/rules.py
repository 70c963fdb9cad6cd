"""Greenland (third edition) rules: greenland-third-edition.txt (LINE numbers) and, where the text stops,
the reference notes (``../shared/reference/greenland-third-edition.md``, section B.x) through the data files.

Rulings (G1...) are in RULINGS.md. Every die is rolled with the game's generator inside the ``apply`` of
the decision that causes it; ``roll_hunt`` and ``roll_attack`` are pure apart from the generator, so
``record`` replays them on a copy of it to log the dice before they are applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from sim.errors import IllegalChoice as _IllegalChoice
from sim.games.greenland.data import COLOURS, N_RANKS, GreenlandData
from sim.games.greenland.state import (
    ALPHA_DEAD,
    ALPHA_ELDER,
    ALPHA_HUSBAND,
    ALPHA_POOL,
    ASSIGN,
    BID,
    CARD,
    DOMESTIC,
    DONE,
    ELDER,
    EVENT,
    HUNT,
    MARRY,
    MONO,
    NEGOTIATE,
    OVER,
    POLY,
    SETUP,
    STATS,
    SUNSTONE,
    TPLACE,
    GreenlandState,
    Option,
    alpha_bride,
    alpha_rank,
)

CHIEF, SHAMAN, CRAFTER, WAR_CHIEF, TRACKER, MARINER = range(N_RANKS)
ALPHA_FLAG, IRON_FLAG = 1, 2


def IllegalChoice(message: str, seat: int) -> _IllegalChoice:  # noqa: N802 - reads like the class
    exc = _IllegalChoice(message)
    exc.seat = seat
    return exc


# --------------------------------------------------------------------------- set-up (lines 9-16)


def new_game(data: GreenlandData, n: int, rules: dict[str, Any], seed: int) -> GreenlandState:
    """Set up (lines 9-16); the Norse and Sami choose their farm animal (line 13); then the first event."""
    state = setup(data, n, rules, seed)
    state.queue = choosers(state, data)
    if state.queue:
        state.phase = SETUP
    else:
        start_generation(state, data)
    return state


def choosers(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Seats still to choose their starting farm animal (line 13 'of their choice')."""
    return [
        s
        for s, t in enumerate(state.tribe)
        if data.tribes[t].animals and not any(c in data.tribes[t].animals for c in state.tableau[s])
    ]


def setup(data: GreenlandData, n: int, rules: dict[str, Any], seed: int) -> GreenlandState:
    """The table before the first event (lines 9-16)."""
    rng = np.random.default_rng(seed)
    s = data.setup
    tribes = [int(t) for t in rng.permutation(len(data.tribes))[:n]]  # line 13 'Randomly assign a Placard'
    events = [int(e) for e in rng.permutation(len(data.events))[: int(s["events_in_deck"])]]  # line 9
    decks = []
    for name in ("north", "south"):  # line 10
        deck = data.deck(name)
        rng.shuffle(deck)
        decks.append([int(c) for c in deck])
    warm: list[list[int]] = [[], []]
    for row in (0, 1):  # line 11: six cards each, warm side; line 4: the New World card nearest the deck
        warm[row] = [data.new_world(row)] + [decks[row].pop() for _ in range(int(s["row_size"]))]
    inventions = data.tcards_of("invention")
    imports = data.tcards_of("import")
    rng.shuffle(inventions)
    rng.shuffle(imports)
    total, free = int(s["tribesmen"]), int(s["unassigned"])
    state = GreenlandState(
        n_players=n,
        seed=seed,
        rules=dict(rules),
        rng=rng,
        tribe=tribes,
        events=events,
        decks=decks,
        warm=warm,
        cold=[[], []],
        inventions=[int(c) for c in inventions],
        imports=[int(c) for c in imports],
        pool=[free] * n,
        alpha=[ALPHA_POOL] * n,
        elders=[[1] * N_RANKS for _ in range(n)],
        hunters=[{} for _ in range(n)],
        colonists=[{} for _ in range(n)],
        placed=[{} for _ in range(n)],
        valhalla=[total - free - int(s["elders"])] * n,
        pieces=[total] * n,
        energy=[int(s["energy"])] * n,
        ivory=[int(s["ivory"])] * n,
        iron=[int(s["iron"])] * n,
        tableau=[[] for _ in range(n)],
        husbands=[{} for _ in range(n)],
        hands=[[] for _ in range(n)],
        offers=[0] * n,
        trophies=[[] for _ in range(n)],
        religion=[POLY] * n,
        alive=[True] * n,
        used=[[0] * N_RANKS for _ in range(n)],
        bred=[[] for _ in range(n)],
        converted=[-1] * n,
        stats={k: [0] * n for k in STATS},
    )
    state.stats["generation_died"] = [-1] * n
    if int(s["elders"]) != N_RANKS:  # line 14 'one next to each row'; a user's file may differ
        per, extra = divmod(int(s["elders"]), N_RANKS)
        state.elders = [[per + (r < extra) for r in range(N_RANKS)] for _ in range(n)]
    for seat, t in enumerate(tribes):
        tribe = data.tribes[t]
        state.tableau[seat].extend(tribe.daughters)  # line 13
        if tribe.name == "tunit":  # line 15: 5 colonists on Markland, from Valhalla
            k = min(int(s["tunit_colonists"]), state.valhalla[seat])
            state.valhalla[seat] -= k
            state.colonists[seat][data.new_world(0)] = k
    return state


# --------------------------------------------------------------------------- helpers


def population(state: GreenlandState, seat: int) -> int:
    """Living tribesmen: unassigned, Hunters (Guards, Raiders), colonists, husbands, elders and the Alpha.

    Tribesmen only move between those places and Valhalla (line 14; the playout tests check it after
    every decision), so the living ones are the tribe's pieces less those in Valhalla, plus the Alpha."""
    return state.pieces[seat] - state.valhalla[seat] + (state.alpha[seat] != ALPHA_DEAD)


def home(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    return data.tribes[state.tribe[seat]].home


def row_of(state: GreenlandState, card: int) -> tuple[int, bool]:
    """(row, cold) of a visible card; (-1, False) if it is not in a row."""
    for row in (0, 1):
        if card in state.warm[row]:
            return row, False
        if card in state.cold[row]:
            return row, True
    return -1, False


def visible(state: GreenlandState) -> list[int]:
    """Cards in the rows, North then South, warm side then cold, nearest the deck first."""
    return state.warm[0] + state.cold[0] + state.warm[1] + state.cold[1]


def has(state: GreenlandState, data: GreenlandData, seat: int, attr: str) -> int:
    """How many ``attr`` icons (sled, transport, vp, ...) the seat's tableau shows."""
    count = data.icons[attr]
    return sum([count[c] for c in state.tableau[seat]])


def mariners(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """Mariners (rank 6, line 46) plus boat icons in the tableau (reference B.2)."""
    return state.elders[seat][MARINER] + has(state, data, seat, "transport")


def owner(state: GreenlandState, tcard: int) -> int:
    """The seat whose tableau holds ``tcard`` (-1 none)."""
    return next((s for s in range(state.n_players) if tcard in state.tableau[s]), -1)


def needs_transport(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> bool:
    """Lines 46-48: outside the homeland a Mariner is needed, unless a sled (Greenland only). A tableau
    card lies in its owner's homeland (ruling G22)."""
    if card >= TPLACE:
        other = owner(state, card - TPLACE)
        if other < 0 or home(state, data, other) == home(state, data, seat):
            return False
        return not has(state, data, seat, "sled")
    b = data.biomes[card]
    if b.new_world:
        return True  # line 48 'you need a Mariner to go there (sleds do not work)'
    if b.row == home(state, data, seat):
        return False
    return not has(state, data, seat, "sled")  # line 47


def transport_used(state: GreenlandState, data: GreenlandData, seat: int, placed: dict[int, int]) -> int:
    """Mariners needed: one per 4 tribesmen sent to each card that needs transport (line 46, ruling G4)."""
    cap = int(data.setup["mariner_capacity"])
    return sum(-(-k // cap) for c, k in placed.items() if k and needs_transport(state, data, seat, c))


def can_send(
    state: GreenlandState,
    data: GreenlandData,
    seat: int,
    card: int,
    extra: int = 1,
    placed: dict[int, int] | None = None,
) -> bool:
    placed = dict(state.placed[seat] if placed is None else placed)
    if not needs_transport(state, data, seat, card):
        return True
    placed[card] = placed.get(card, 0) + extra
    return transport_used(state, data, seat, placed) <= mariners(state, data, seat)


def sender(state: GreenlandState, data: GreenlandData, seat: int) -> Any:
    """``can_send`` for one more tribesman, with the tribe's transport worked out once (options)."""
    placed = state.placed[seat]
    cap = int(data.setup["mariner_capacity"])
    spare = mariners(state, data, seat) - transport_used(state, data, seat, placed)
    my_home = home(state, data, seat)
    sled = bool(has(state, data, seat, "sled"))
    biomes = data.biomes

    def ok(card: int) -> bool:
        if card >= TPLACE:
            other = owner(state, card - TPLACE)
            if other < 0 or home(state, data, other) == my_home or sled:
                return True
        elif not biomes[card].new_world and (biomes[card].row == my_home or sled):
            return True
        k = placed.get(card, 0)
        return -(-(k + 1) // cap) - -(-k // cap) <= spare

    return ok


def to_valhalla(state: GreenlandState, seat: int, k: int) -> None:
    if k:
        state.valhalla[seat] += k
        rescore(state)


def babies(state: GreenlandState, data: GreenlandData, seat: int, k: int) -> int:
    """New unassigned tribesmen (line 25), the tribe's own pieces from Valhalla (ruling G7)."""
    if data.hunt["babies_from_valhalla"]:
        k = min(k, state.valhalla[seat])
        state.valhalla[seat] -= k
    else:
        state.pieces[seat] += k  # new pieces, beyond the box's
    if k:
        rescore(state)
    state.pool[seat] += k
    state.stats["babies"][seat] += k
    return k


def kill_elder(state: GreenlandState, seat: int, rank: int = -1, alpha: bool = True) -> bool:
    """An elder dies (to Valhalla): the given rank, else the highest rank number present (ruling G11); in
    the rank of a promoted Alpha an ordinary elder dies first, the Alpha only when it is alone there (G20),
    and never with ``alpha`` false. False if no elder died."""
    ranks = [rank] if rank >= 0 else list(range(N_RANKS - 1, -1, -1))
    for r in ranks:
        if state.elders[seat][r] > 0:
            if state.elders[seat][r] == 1 and alpha_rank(state.alpha[seat]) == r:
                if not alpha:
                    continue
                kill_alpha(state, seat)
            else:
                state.elders[seat][r] -= 1
                to_valhalla(state, seat, 1)
            return True
    return False


def kill_alpha(state: GreenlandState, seat: int) -> None:
    """The Alpha dies, wherever it is (a promoted or married Alpha leaves its rank or its daughter's
    exogamy box); it is not one of the tribesmen in Valhalla that babies come from (ruling G7)."""
    a = state.alpha[seat]
    if alpha_rank(a) >= 0:
        state.elders[seat][alpha_rank(a)] -= 1
    elif alpha_bride(a) >= 0:
        take_one(state.husbands[seat], alpha_bride(a))
    state.alpha[seat] = ALPHA_DEAD
    rescore(state)


def take_one(where: dict[int, int], key: int) -> None:
    """One tribesman fewer in ``where[key]`` (the key goes with the last one)."""
    where[key] -= 1
    if not where[key]:
        del where[key]


def rerolls(state: GreenlandState, data: GreenlandData, seat: int, kind: str) -> int:
    """Line 71: re-rolls from tableau cards and from elders (of a filled rank) of the biome type."""
    n = sum(
        k for r, rank in enumerate(data.ranks) if state.elders[seat][r] for t, k in rank.rerolls if t == kind
    )
    return n + sum(k for c in state.tableau[seat] for t, k in data.tcards[c].rerolls if t == kind)


def modifiers(state: GreenlandState, data: GreenlandData, seat: int, kind: str) -> set[int]:
    """Line 72: faces that become hits on this biome type."""
    return {f for c in state.tableau[seat] for t, f in data.tcards[c].modifiers if t == kind}


def faces(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> tuple[set[int], set[int], int]:
    """(hit faces, bloody faces, hits needed) for ``seat`` hunting ``card`` now (lines 25, 68, 72); a raid
    needs one die on the card's success faces (line 70)."""
    if card >= TPLACE:
        t = data.tcards[card - TPLACE]
        return set(t.raid_hits), set(t.raid_bloody) - set(t.raid_hits), 1
    b = data.biomes[card]
    _, cold = row_of(state, card)
    die = data.die
    hits = set(die["cold_hits"] if cold else die["warm_hits"])
    hostile = card in state.hostile
    bloody = set(b.bloody_hostile if hostile else b.bloody)
    if cold:
        bloody |= set(die["cold_bloody"])
    mods = modifiers(state, data, seat, b.type)
    hits |= mods
    bloody -= hits  # a modified face is a hit, not a death (line 72 'optionally become [a hit]')
    return hits, bloody, (b.need_hostile if hostile else b.need)


class Roll(NamedTuple):
    dice: tuple[int, ...]  # the dice this decision rolls, in order
    rerolled: tuple[int, ...]  # a re-roll's result
    hits: int  # -1 while the roll is not over (re-rolls to come)
    killed: int
    success: int  # 1 / 0; -1 while the roll is not over


def pack(dice: tuple[int, ...]) -> int:
    """Dice as decimal digits, first die first (at most 19 dice fit an int64); -1 for none."""
    out = 0
    for d in dice:
        out = out * 10 + d
    return out if dice else -1


def dice_count(state: GreenlandState, seat: int, card: int, flags: int) -> int:
    """Line 68: one die per Hunter (colonists included); the Alpha rolls unless it takes its hit (line 55)."""
    alpha_here = state.alpha[seat] == card
    return (
        state.hunters[seat].get(card, 0)
        + state.colonists[seat].get(card, 0)
        + (alpha_here and not flags & ALPHA_FLAG)
    )


def tally(
    state: GreenlandState,
    data: GreenlandData,
    seat: int,
    card: int,
    flags: int,
    dice: list[int] | tuple[int, ...],
) -> tuple[int, int, bool]:
    """(hits, casualties, success) of ``dice`` (line 68 threshold; line 25 bloody faces kill whatever the
    result; line 64 iron cancels all casualties; line 55 the Alpha's automatic hit)."""
    hit, bloody, need = faces(state, data, seat, card)
    auto = bool(flags & ALPHA_FLAG) and state.alpha[seat] == card
    hits = sum(d in hit for d in dice) + auto
    killed = 0 if flags & IRON_FLAG else min(len(dice), sum(d in bloody for d in dice))
    return hits, killed, hits >= need


DICE_BLOCK = 64  # die faces drawn from the game's generator at a time


def peek_dice(state: GreenlandState, data: GreenlandData, n: int) -> list[int]:
    """The next ``n`` die faces, not used up. Faces are drawn from the game's generator (used for nothing
    else after setup) ``DICE_BLOCK`` at a time, so the turn record can show a roll before it is made."""
    faces = state.faces
    while len(faces) < n:
        faces.extend(state.rng.integers(1, int(data.die["sides"]) + 1, size=DICE_BLOCK).tolist())
    return faces[:n]


def take_dice(state: GreenlandState, data: GreenlandData, n: int) -> list[int]:
    """Roll ``n`` dice: the next ``n`` faces (``peek_dice``), used up."""
    out = peek_dice(state, data, n)
    del state.faces[:n]
    return out


def reroll_count(state: GreenlandState, data: GreenlandData, seat: int, card: int, dice: int) -> int:
    """Line 71: the re-rolls a hunt roll on ``card`` is entitled to (none for a raid or without dice)."""
    if card >= TPLACE or not dice:
        return 0
    return rerolls(state, data, seat, data.biomes[card].type)


def roll_hunt(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, flags: int, faces: Sequence[int]
) -> Roll:
    """The first roll of a hunt: one die per Hunter (line 68), showing the first of ``faces``. Re-rolls
    (line 71) are the player's own decisions (``reroll`` / ``keep``, ruling G9); the roll is over at once
    when there are none."""
    n = dice_count(state, seat, card, flags)
    dice = tuple(faces[:n])
    if reroll_count(state, data, seat, card, n):
        return Roll(dice, (), -1, -1, -1)
    hits, killed, success = tally(state, data, seat, card, flags, dice)
    return Roll(dice, (), hits, killed, int(success))


def roll_again(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, face: int, faces: Sequence[int]
) -> Roll:
    """Line 71: re-roll one die showing ``face`` (it shows ``faces[0]`` now); the roll is over after the
    last re-roll."""
    new = faces[0]
    if state.rerolls > 1:
        return Roll((), (new,), -1, -1, -1)
    dice = list(state.dice)
    dice[dice.index(face)] = new
    hits, killed, success = tally(state, data, seat, card, state.flags, dice)
    return Roll((), (new,), hits, killed, int(success))


def attack_dice(state: GreenlandState, data: GreenlandData, attacker: int, card: int) -> int:
    """Line 62: one die per attacking tribesman on the card (the Alpha too), plus attack icons."""
    return (
        state.hunters[attacker].get(card, 0)
        + (state.alpha[attacker] == card)
        + has(state, data, attacker, "attack")
    )


def roll_attack(
    state: GreenlandState, data: GreenlandData, attacker: int, card: int, faces: Sequence[int]
) -> Roll:
    """Line 62: the attack's dice show the first of ``faces``; each hit kills one (ruling G13)."""
    dice = tuple(faces[: attack_dice(state, data, attacker, card)])
    hits = sum(d in data.die["attack_hits"] for d in dice)
    return Roll(dice, (), hits, hits, hits > 0)


def lose_hunters(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, k: int, alpha_first: bool = False
) -> int:
    """Casualties on a card: Hunters, then colonists, the Alpha last, unless the chooser took the Alpha
    (line 62 'of the victim's choice'; ruling G10: the Alpha is the only tribesman who differs)."""
    lost = 0
    if alpha_first and k > 0 and state.alpha[seat] == card:
        kill_alpha(state, seat)
        lost += 1
    for where in (state.hunters[seat], state.colonists[seat]):
        take = min(k - lost, where.get(card, 0))
        if take:
            where[card] -= take
            if not where[card]:
                del where[card]
            to_valhalla(state, seat, take)
            lost += take
    if lost < k and state.alpha[seat] == card:
        kill_alpha(state, seat)
        lost += 1
    return lost


def alpha_at_stake(state: GreenlandState, seat: int, card: int, k: int, eligible: int) -> bool:
    """Ruling G10: a casualty decision exists only when it has two outcomes: the Alpha is among the
    ``eligible`` tribesmen who can die and some but not all of them die."""
    return state.alpha[seat] == card and 0 < k < eligible


def present(state: GreenlandState, seat: int, card: int) -> int:
    return state.hunters[seat].get(card, 0) + state.colonists[seat].get(card, 0) + (state.alpha[seat] == card)


def return_hunters(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """Line 68: surviving Hunters (not colonists, the Alpha among them) go back to the unassigned pool."""
    state.pool[seat] += state.hunters[seat].pop(card, 0)
    if state.alpha[seat] == card and not colony(data, card):
        state.alpha[seat] = ALPHA_POOL


def colony(data: GreenlandData, card: int) -> bool:
    """A New World card: tribesmen sent there are colonists for good (line 50)."""
    return card < TPLACE and data.biomes[card].new_world


def living(state: GreenlandState) -> list[int]:
    return [s for s in range(state.n_players) if state.alive[s]]


def check_alive(state: GreenlandState) -> None:
    for seat in range(state.n_players):
        if state.alive[seat] and population(state, seat) == 0:
            state.alive[seat] = False
            rescore(state)
            state.stats["generation_died"][seat] = state.generation


def hand_size(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """Reference B.2: 'Maximum hand size is normally 0! but various cards in the tableau can raise that
    size' (setup.hand_size, tableau cards' ``hand``); the Crafter rank 'raises hand size' (elders.toml)."""
    ranks = sum(1 for r, rank in enumerate(data.ranks) if "hand" in rank.passive and state.elders[seat][r])
    return int(data.setup["hand_size"]) + ranks + has(state, data, seat, "hand")


def check_hands(state: GreenlandState, data: GreenlandData) -> None:
    for seat in range(state.n_players):
        if state.hands[seat]:
            check_hand(state, data, seat)


def check_hand(state: GreenlandState, data: GreenlandData, seat: int) -> None:
    """Reference B.2: 'Should your hand ever go above this maximum size, cards must be immediately
    discarded' (ruling G19: the cards drawn last go first; with the packaged data the size only ever drops to
    0, so there is nothing to choose)."""
    limit = hand_size(state, data, seat)
    while len(state.hands[seat]) > limit:
        state.discards.append(state.hands[seat].pop())
        state.stats["discarded"][seat] += 1


def scores(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Every seat's score, reference B.2/B.3.7 (scoring.toml): population, plus Trophies (polytheist) or
    iron and ivory (monotheist); a dead tribe scores ``dead_tribe``. One pass over the seats: the turn
    records ask for it after every decision."""
    per_head, dead, trophy_scale, iron, ivory = data.points
    trophy, vp = data.trophy_of.__getitem__, data.icons["vp"].__getitem__
    pieces, valhalla, alpha, religion = state.pieces, state.valhalla, state.alpha, state.religion
    out = []
    for seat, alive in enumerate(state.alive):
        if not alive:
            out.append(dead)
            continue
        pts = (pieces[seat] - valhalla[seat] + (alpha[seat] != ALPHA_DEAD)) * per_head  # population()
        if religion[seat] == POLY:
            pts += sum(map(trophy, state.trophies[seat])) * trophy_scale
        else:
            pts += state.iron[seat] * iron + state.ivory[seat] * ivory + sum(map(vp, state.tableau[seat]))
        out.append(pts)
    return out


def rescore(state: GreenlandState) -> None:
    """A score input (population, Valhalla, the Alpha's death, Trophies, iron, ivory, the tableau, religion,
    a tribe's death) just changed: the scores ``current_scores`` remembers are stale. Every rule that
    changes one calls this; the random-playout invariant test checks the memo against ``scores``."""
    state.score_memo = None


def current_scores(state: GreenlandState, data: GreenlandData) -> list[float]:
    """``scores`` as floats, remembered until a rule calls ``rescore``: the turn records ask after every
    decision, and about seven decisions in eight change no score (random players; one in four calls
    ``rescore``, some of them for changes that cancel out). The list is shared: do not change it."""
    memo = state.score_memo
    if memo is None:
        memo = state.score_memo = [float(x) for x in scores(state, data)]
    return memo


def score(state: GreenlandState, data: GreenlandData, seat: int) -> int:
    """One seat's score (``scores``)."""
    return scores(state, data)[seat]


# --------------------------------------------------------------------------- player order (lines 29-34)


def player_order(state: GreenlandState, data: GreenlandData, colour: str) -> list[int]:
    """Line 31: the event's colour first, then the next colour in line (ruling G1 for absent colours)."""
    line = list(data.setup["colour_line"])
    start = line.index(colour)
    seats_by_colour = {COLOURS[t]: seat for seat, t in enumerate(state.tribe)}
    order = []
    for k in range(len(line)):
        c = line[(start + k) % len(line)]
        if c in seats_by_colour and state.alive[seats_by_colour[c]]:
            order.append(seats_by_colour[c])
    return order


def iron_order(state: GreenlandState, seats: list[int]) -> list[int]:
    """Line 32: most iron first; ties in the order of phases 1, 2 and 5."""
    pos = {s: i for i, s in enumerate(state.order)}
    return sorted(seats, key=lambda s: (-state.iron[s], pos.get(s, 99)))


def hunt_order(state: GreenlandState, data: GreenlandData) -> list[tuple[int, int]]:
    """Every hunt of the generation, cards in row order (the first player may take them in any order,
    ``card_hunters``): on a card the fewest tribesmen roll first, ties in player order (line 33)."""
    return [(card, s) for card in visible(state) + raid_places(state) for s in card_hunters(state, card)]


def card_hunters(state: GreenlandState, card: int) -> list[int]:
    """Line 33: the seats that roll on ``card``, fewest tribesmen first, ties in player order; on a tableau
    card only Raiders roll (line 70; Guards fought in phase F)."""
    pos = {s: i for i, s in enumerate(state.order)}
    seats = [s for s in state.order if present(state, s, card)]
    if card >= TPLACE:
        seats = [s for s in seats if s != owner(state, card - TPLACE) and not guarding(state, s, card)]
    return sorted(seats, key=lambda s: (present(state, s, card), pos[s]))


def raid_places(state: GreenlandState) -> list[int]:
    """Tableau cards with tribesmen on them (Guards, Raiders, the Alpha too), in card order."""
    return sorted(
        {c for h in state.hunters for c in h if c >= TPLACE} | {a for a in state.alpha if a >= TPLACE}
    )


def guarding(state: GreenlandState, seat: int, place: int) -> bool:
    """Line 53: a tribe guards its own daughters and livestock, and daughters it is married to."""
    tcard = place - TPLACE
    return owner(state, tcard) == seat or state.husbands[seat].get(tcard, 0) > 0


def elder_order(state: GreenlandState) -> list[int]:
    """Line 34: polytheists first, then monotheists, each in player order."""
    return [s for s in state.order if state.religion[s] == POLY] + [
        s for s in state.order if state.religion[s] == MONO
    ]


# --------------------------------------------------------------------------- flow


def start_generation(state: GreenlandState, data: GreenlandData) -> None:
    """Phase 1 (line 22): reveal an event, set the player order, apply its icons left to right."""
    state.phase = EVENT
    state.event = state.events.pop()
    state.log.append((state.generation, state.event))
    state.order = player_order(state, data, data.events[state.event].colour)
    state.icon = 0
    for seat in range(state.n_players):
        state.used[seat] = [0] * N_RANKS
        state.bred[seat] = []
        state.placed[seat] = {}
    state.won = []
    run_icons(state, data)


def run_icons(state: GreenlandState, data: GreenlandData) -> None:
    """Line 22 'apply the effects of the event icons from left to right ... If the card shows a Norse trade
    ship, auction its imported good': a ship's auction pauses the icons at its own place (ruling G3); the
    icons to its right follow once the bids are in (``resolve_auction``)."""
    icons = data.events[state.event].icons
    while state.icon < len(icons):
        icon, arg = icons[state.icon]
        state.icon += 1
        if icon == "ship":
            if start_auction(state, data):
                return
        else:
            apply_icon(state, data, icon, arg)
    check_alive(state)
    if end_if_decided(state, data):
        return
    enter(state, data, ASSIGN)


def apply_icon(state: GreenlandState, data: GreenlandData, icon: str, arg: str) -> None:
    """The event icons (events.toml; reference B.3.4)."""
    if icon in ("cool", "warm", "migration"):
        row = ("north", "south").index(arg)
        if icon == "cool" and state.warm[row]:
            state.cold[row].insert(0, state.warm[row].pop(0))
        elif icon == "warm" and state.cold[row]:
            state.warm[row].insert(0, state.cold[row].pop(0))
        elif icon == "migration":
            far = [c for c in state.warm[row] if not data.biomes[c].new_world]
            if far:
                state.warm[row].remove(far[-1])
                state.gone.append(far[-1])
                if state.decks[row]:
                    state.warm[row].append(state.decks[row].pop())
        return
    for seat in living(state):
        before = population(state, seat)
        if icon == "decimate":
            if population(state, seat) >= int(arg) and not state.elders[seat][CHIEF]:
                k = state.pool[seat] // 2
                state.pool[seat] -= k
                to_valhalla(state, seat, k)
        elif icon == "elder_death":
            kill_elder(state, seat)
        elif icon == "winter":
            if not has(state, data, seat, "winter_free"):
                due = -(-sum(state.elders[seat]) // 2)
                paid = min(due, state.energy[seat])
                state.energy[seat] -= paid
                for _ in range(due - paid):
                    kill_elder(state, seat)
        elif icon == "plague":
            k = state.pool[seat] // 5
            state.pool[seat] -= k
            to_valhalla(state, seat, k)
        elif icon == "feast":
            state.energy[seat] += 1
        state.stats["event_losses"][seat] += before - population(state, seat)


def start_auction(state: GreenlandState, data: GreenlandData) -> bool:
    """Line 22: a Norse trade ship's imported good is auctioned (for ivory, ruling G3). True if bids are
    due."""
    if not state.imports:
        return False
    state.offer = state.imports.pop()
    if not any(state.ivory[s] > 0 for s in living(state)):
        state.offer = -1  # nobody can bid: the good sails on
        return False
    state.phase = BID
    return True


def bidders(state: GreenlandState) -> list[int]:
    return [s for s in state.order if state.ivory[s] > 0]


def resolve_auction(state: GreenlandState, data: GreenlandData, bids: dict[int, int]) -> None:
    best = max(bids.values(), default=0)
    if best > 0:
        winner = next(s for s in state.order if bids.get(s, 0) == best)  # ties: player order (ruling G3)
        state.ivory[winner] -= best
        state.tableau[winner].append(state.offer)
        rescore(state)
        state.stats["imports_won"][winner] += 1
    state.offer = -1
    run_icons(state, data)


def end_if_decided(state: GreenlandState, data: GreenlandData) -> bool:
    """Line 5 'or be the sole remaining culture': with one culture left (or none) the game is over."""
    alive = living(state)
    if not alive or (state.n_players > 1 and len(alive) <= 1 and data.end["end_when_one_left"]):
        state.phase = OVER
        return True
    return False


def enter(state: GreenlandState, data: GreenlandData, phase: int) -> None:
    """Start ``phase`` and skip to the first decision (a phase with nothing to decide passes by itself)."""
    check_alive(state)
    check_hands(state, data)
    if end_if_decided(state, data):
        return
    state.order = [s for s in state.order if state.alive[s]]
    state.phase = phase
    state.idx = 0
    state.moves = 0
    if phase == NEGOTIATE:
        state.contests = contested(state, data)
        state.contest = -1
        state.stage = 0
        state.queue = []
        # line 32: the player with the most iron determines the order of negotiations between cards
        state.lead = iron_order(state, state.order)[0]
        next_contest(state, data)
        return
    if phase == HUNT:
        state.left_cards = [c for c in visible(state) + raid_places(state) if card_hunters(state, c)]
        state.lead = state.order[0]  # line 33 'The first player decides which card is hunted first'
        state.hunts, state.idx = [], 0
        next_hunt(state, data)
        return
    advance(state, data)


def advance(state: GreenlandState, data: GreenlandData) -> None:
    """Move ``idx`` to the next seat of a sequential phase that has something to decide."""
    seats = elder_order(state) if state.phase == ELDER else state.order
    while state.idx < len(seats):
        seat = seats[state.idx]
        if state.alive[seat] and len(options(state, data, seat, check=False)) > 1:
            return
        state.idx += 1
        state.moves = 0
    following = {ASSIGN: SUNSTONE, SUNSTONE: NEGOTIATE, DOMESTIC: ELDER}
    if state.phase == DOMESTIC:
        upkeep(state, data)
    if state.phase in following:
        enter(state, data, following[state.phase])
    elif state.phase == ELDER:
        end_generation(state, data)


def upkeep(state: GreenlandState, data: GreenlandData) -> None:
    """Ruling G16 (line 5 'fuel to sustain their children, elders, and livestock'; reference B.3.2): at the
    end of phase H each tribe burns 1 energy per ``upkeep_per`` living tribesmen; each missing energy costs a
    life: an unassigned tribesman, else a colonist, else a Husband, else an elder (highest rank), else the
    Alpha, wherever it is (unassigned, a colonist, an elder or a Husband, ruling G20)."""
    per = int(data.setup["upkeep_per"])
    if state.rules.get("upkeep", "fuel") != "fuel" or per <= 0:
        return
    for seat in state.order:
        due = -(-population(state, seat) // per)
        paid = min(due, state.energy[seat])
        state.energy[seat] -= paid
        for _ in range(due - paid):
            state.stats["starved"][seat] += 1
            if state.pool[seat]:
                state.pool[seat] -= 1
                to_valhalla(state, seat, 1)
            elif state.colonists[seat]:
                card = next(iter(state.colonists[seat]))
                lose_hunters(state, data, seat, card, 1)
            elif not lose_husband(state, seat) and not kill_elder(state, seat, alpha=False):
                if state.alpha[seat] != ALPHA_DEAD:
                    kill_alpha(state, seat)


def lose_husband(state: GreenlandState, seat: int) -> bool:
    """A Husband (not the Alpha) dies, to Valhalla; False if there is none."""
    bride = alpha_bride(state.alpha[seat])
    tcard = next((c for c, k in state.husbands[seat].items() if k > (c == bride)), -1)
    if tcard < 0:
        return False
    take_one(state.husbands[seat], tcard)
    to_valhalla(state, seat, 1)
    return True


def end_generation(state: GreenlandState, data: GreenlandData) -> None:
    check_alive(state)
    if end_if_decided(state, data):
        return
    if state.generation >= int(data.end["generations"]) or not state.events:
        state.phase = OVER
        return
    state.generation += 1
    start_generation(state, data)


def picker(state: GreenlandState) -> int:
    """The seat that picks the next card (ruling G8); if it has died out, the next living seat in order."""
    if state.alive[state.lead]:
        return state.lead
    return next(s for s in state.order if state.alive[s])


def current(state: GreenlandState) -> int:
    if state.phase in (ASSIGN, SUNSTONE, DOMESTIC):
        return state.order[state.idx]
    if state.phase == ELDER:
        return elder_order(state)[state.idx]
    if state.kills >= 0:
        return state.killer
    if state.phase == NEGOTIATE:
        if state.contest < 0:
            return picker(state)
        if state.counter >= 0:
            return state.attacker  # the briber answers the counter-offer
        return state.target if state.target >= 0 else state.queue[0]
    if state.phase == HUNT:
        return state.hunts[state.idx][1] if state.hunts else picker(state)
    return -1


def to_move(state: GreenlandState) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == BID:
        return tuple(bidders(state))
    if state.phase == SETUP:
        return tuple(state.queue)
    return (current(state),)


# --------------------------------------------------------------------------- phase F (lines 57-64)


def contested(state: GreenlandState, data: GreenlandData) -> list[int]:
    """Cards (not the inexhaustible New World, line 49) with tribesmen of two or more tribes."""
    if not state.rules.get("advanced", True):
        return []
    return [
        c
        for c in visible(state) + raid_places(state)
        if (c >= TPLACE or not data.biomes[c].new_world)
        and sum(1 for s in state.order if present(state, s, c)) >= 2
    ]


def next_contest(state: GreenlandState, data: GreenlandData) -> None:
    """Line 32: the most-iron player picks the next contested card; on it, in iron order, every tribe stays
    or withdraws (or bargains, line 59); then, unless all but one left, each attacks once (line 62)."""
    state.target = state.attacker = state.bribe = state.counter = -1
    while True:
        if state.queue:
            card = state.contest
            others = [s for s in state.order if s != state.queue[0] and present(state, s, card)]
            seat = state.queue[0]
            if not present(state, seat, card) or not others:
                state.queue.pop(0)
                continue
            if state.stage == 0:
                return  # stay / withdraw decision
            targets = others
            if len(targets) == 1:
                state.attacker, state.target = seat, targets[0]
            return  # attack decision (or the target's defend decision)
        if state.stage == 0 and state.contest >= 0:
            card = state.contest
            there = [s for s in state.order if present(state, s, card)]
            if len(there) >= 2:  # line 32 'Unless all but one player's tribesmen leave a card ... attack'
                state.stage = 1
                state.queue = iron_order(state, there)
                continue
        state.contest, state.stage = -1, 0
        state.contests = [
            c for c in state.contests if sum(1 for s in state.order if present(state, s, c)) >= 2
        ]
        if not state.contests:
            finish_negotiation(state, data)
            return
        if len(state.contests) > 1:
            return  # the lead's ``pick`` decision (ruling G8)
        open_contest(state, state.contests[0])


def tribes_on(state: GreenlandState, card: int) -> list[int]:
    return [s for s in state.order if present(state, s, card)]


def open_contest(state: GreenlandState, card: int) -> None:
    state.contests.remove(card)
    state.contest = card
    state.offers = [0] * state.n_players
    state.stage = 0
    state.queue = iron_order(state, [s for s in state.order if present(state, s, card)])


def finish_negotiation(state: GreenlandState, data: GreenlandData) -> None:
    """Line 63: a peaceful New World card with more than 6 colonists turns hostile."""
    state.queue = []
    if state.rules.get("advanced", True):
        for row in (0, 1):
            card = data.new_world(row)
            total = sum(
                state.colonists[s].get(card, 0) + (state.alpha[s] == card) for s in range(state.n_players)
            )
            if card not in state.hostile and total > int(data.setup["hostile_above"]):
                state.hostile.append(card)
    enter(state, data, HUNT)


# --------------------------------------------------------------------------- phase G (lines 66-73)


def next_hunt(state: GreenlandState, data: GreenlandData) -> None:
    """Skip hunts with nobody left, and hunts on a card someone already won (line 49, ruling G6); between
    cards the first player picks the next card to hunt (line 33, ruling G8)."""
    while True:
        while state.idx < len(state.hunts):
            card, seat = state.hunts[state.idx]
            if not present(state, seat, card) or not state.alive[seat]:
                state.idx += 1
                continue
            if (
                card in state.won
                and (card >= TPLACE or not data.biomes[card].new_world)
                and data.hunt["one_success_per_card"]
                and state.rules.get("contest_success", "first") == "first"
            ):
                return_hunters(state, data, seat, card)
                state.idx += 1
                continue
            return
        state.hunts, state.idx = [], 0
        state.left_cards = [c for c in state.left_cards if card_hunters(state, c)]
        if not state.left_cards:
            break
        if len(state.left_cards) > 1:
            return  # the first player's ``pick`` decision
        open_hunt(state, state.left_cards[0])
    for seat in range(state.n_players):  # Guards (and anyone left on a tableau card) go home
        for place in {c for c in (*state.hunters[seat], state.alpha[seat]) if c >= TPLACE}:
            return_hunters(state, data, seat, place)
    check_alive(state)
    enter(state, data, DOMESTIC)


def open_hunt(state: GreenlandState, card: int) -> None:
    state.left_cards.remove(card)
    state.hunts = [(card, s) for s in card_hunters(state, card)]
    state.idx = 0


def start_roll(state: GreenlandState, data: GreenlandData, seat: int, card: int, flags: int) -> None:
    """The ``roll`` decision: the iron is paid before the roll (line 64), the dice are rolled (line 68);
    with re-rolls (line 71) the player decides on them, else the hunt is settled."""
    if flags & IRON_FLAG:
        state.iron[seat] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][seat] += 1
        rescore(state)
    n = dice_count(state, seat, card, flags)
    state.dice = take_dice(state, data, n)
    state.flags = flags
    state.rerolls = reroll_count(state, data, seat, card, n)
    if state.rerolls <= 0:
        end_roll(state, data, seat, card)


def reroll_die(state: GreenlandState, data: GreenlandData, seat: int, card: int, face: int) -> None:
    """Line 71: one re-roll, on a die showing ``face`` (the player's choice, ruling G9)."""
    state.dice[state.dice.index(face)] = take_dice(state, data, 1)[0]
    state.rerolls -= 1
    if state.rerolls <= 0:
        end_roll(state, data, seat, card)


def end_roll(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """The dice are final: casualties (the victim's choice when the Alpha rolled, G10), then the hunt."""
    state.rerolls = -1
    _, killed, _ = tally(state, data, seat, card, state.flags, state.dice)
    if alpha_at_stake(state, seat, card, killed, len(state.dice)):
        state.kills, state.killer, state.victim = killed, seat, seat
        return
    settle_hunt(state, data, seat, card, False)


def settle_hunt(state: GreenlandState, data: GreenlandData, seat: int, card: int, alpha_dies: bool) -> Roll:
    """Line 73: attrition first, then the reward; the surviving Hunters go home (line 68)."""
    dice, flags = tuple(state.dice), state.flags
    hits, killed, success = tally(state, data, seat, card, flags, dice)
    state.dice, state.flags, state.kills, state.killer, state.victim = [], 0, -1, -1, -1
    state.stats["raids" if card >= TPLACE else "hunts"][seat] += 1
    state.stats["hunters_killed"][seat] += lose_hunters(state, data, seat, card, killed, alpha_dies)
    roll = Roll(dice, (), hits, killed, int(success))
    if card >= TPLACE:
        if success and present(state, seat, card):  # line 70 'assuming at least one raider survives'
            won_raid(state, data, seat, card)
        return_hunters(state, data, seat, card)
        return roll
    b = data.biomes[card]
    if success and (present(state, seat, card) or not data.hunt["attrition_before_rewards"]):
        state.stats["hunts_won"][seat] += 1
        state.won.append(card)
        babies(state, data, seat, b.babies)
        state.energy[seat] += b.energy
        state.ivory[seat] += b.ivory
        state.iron[seat] += b.iron
        rescore(state)
        if b.trophy and data.hunt["trophy_takes_card"]:
            take_trophy(state, data, seat, card)
    return_hunters(state, data, seat, card)
    return roll


def resolve_hunt(
    state: GreenlandState, data: GreenlandData, seat: int, card: int, flags: int, alpha_dies: bool = False
) -> Roll:
    """A whole hunt roll without re-rolls, settled at once (for tests and tools)."""
    if flags & IRON_FLAG:
        state.iron[seat] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][seat] += 1
        rescore(state)
    state.dice = take_dice(state, data, dice_count(state, seat, card, flags))
    state.flags = flags
    return settle_hunt(state, data, seat, card, alpha_dies)


def won_raid(state: GreenlandState, data: GreenlandData, seat: int, place: int) -> None:
    """Line 70: a Livestock raid takes the animal into the raider's tableau; a Sabine raid turns one Raider
    into a Husband in the daughter's exogamy box, for good (line 61; ruling G22)."""
    tcard = place - TPLACE
    victim = owner(state, tcard)
    state.won.append(place)
    state.stats["raids_won"][seat] += 1
    if data.tcards[tcard].kind == "animal":
        state.tableau[victim].remove(tcard)
        state.tableau[seat].append(tcard)
        rescore(state)
        state.bred[victim] = [c for c in state.bred[victim] if c != tcard]
    else:
        marry(state, seat, place, tcard)


def marry(state: GreenlandState, seat: int, place: int, daughter: int) -> None:
    """Line 61: one of the tribe's tribesmen on ``place`` becomes a Husband in the exogamy box of
    ``daughter``, for good: an ordinary one, the Alpha (a tribesman, line 55) only when it is there alone."""
    if state.hunters[seat].get(place, 0):
        take_one(state.hunters[seat], place)
    else:
        state.alpha[seat] = ALPHA_HUSBAND - daughter
    state.husbands[seat][daughter] = state.husbands[seat].get(daughter, 0) + 1


def take_trophy(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> None:
    """Reference B.3.1: the last of a species becomes a Trophy; the deck's top card takes its place (G12)."""
    row, cold = row_of(state, card)
    side = state.cold[row] if cold else state.warm[row]
    i = side.index(card)
    for s in range(state.n_players):  # everyone still there goes home
        return_hunters(state, data, s, card)
    state.trophies[seat].append(card)
    rescore(state)
    if state.decks[row]:
        side[i] = state.decks[row].pop()
    else:
        side.pop(i)


# --------------------------------------------------------------------------- options


def options(state: GreenlandState, data: GreenlandData, seat: int, check: bool = True) -> list[Option]:
    if state.phase == OVER or (check and seat not in to_move(state)):
        return []
    phase = state.phase
    if phase == BID:
        return [Option("bid", k) for k in range(state.ivory[seat] + 1)]
    if phase == SETUP:
        return [Option("animal", c) for c in data.tribes[state.tribe[seat]].animals]
    if phase == ASSIGN:
        return assign_options(state, data, seat)
    if phase == SUNSTONE:
        return sunstone_options(state, data, seat)
    if state.kills >= 0:  # line 62 'of the victim's choice' (ruling G10): does the Alpha die?
        card = state.contest if phase == NEGOTIATE else state.hunts[state.idx][0]
        return [Option("casualty", card, 0), Option("casualty", card, 1)]
    if phase == NEGOTIATE:
        if state.contest < 0:  # line 32: the most-iron player picks the next card
            return [Option("pick", c) for c in state.contests]
        card = state.contest
        if state.counter >= 0:  # the briber answers the counter-offer (ruling G23)
            return [Option("accept", card, -1, state.counter), Option("refuse", card, -1, state.counter)]
        if state.bribe >= 0:  # line 59: the tribe asked to leave answers, or names its own price
            counters = [
                Option("counter", card, -1, c)
                for c in offer_items(state, data, state.attacker, seat, card, public=True)
                if c != state.bribe
            ]
            return [
                Option("accept", card, -1, state.bribe),
                Option("refuse", card, -1, state.bribe),
                *counters,
            ]
        if state.target >= 0:
            iron = (
                [Option("defend", card, 1, state.attacker)]
                if state.iron[seat] >= int(data.setup["iron_rule_cost"])
                else []
            )
            return [Option("defend", card, 0, state.attacker), *iron]
        if state.stage == 0:
            return [Option("stay", card), Option("withdraw", card), *bribe_options(state, data, seat, card)]
        return [Option("attack", card, t) for t in state.order if t != seat and present(state, t, card)]
    if phase == HUNT:
        if not state.hunts:  # line 33: the first player picks the next card
            return [Option("pick", c) for c in state.left_cards]
        card = state.hunts[state.idx][0]
        if state.rerolls > 0:  # line 71: one re-roll on a die showing this face, or keep the dice
            return [*(Option("reroll", card, f) for f in sorted(set(state.dice))), Option("keep", card)]
        out = [Option("roll", card, 0)]
        if state.alpha[seat] == card and card < TPLACE:  # line 55 'when used as a Hunter' (not a Raider)
            out.append(Option("roll", card, ALPHA_FLAG))
        if state.rules.get("advanced", True) and state.iron[seat] >= int(data.setup["iron_rule_cost"]):
            out += [Option("roll", card, o.b | IRON_FLAG) for o in list(out)]
        return out
    if phase == DOMESTIC:
        return domestic_options(state, data, seat)
    if phase == ELDER:
        return elder_options(state, data, seat)
    return []


def assign_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Lines 42-55: each unassigned tribesman, and the Alpha ('treated as a tribesman', line 55), goes to any
    place line 42 allows (``destinations``)."""
    alpha = state.alpha[seat] == ALPHA_POOL
    if not state.pool[seat] and not alpha:
        return [DONE]
    dests = destinations(state, data, seat, sender(state, data, seat))
    out = [tribesman_option(state, seat, d) for d in dests] if state.pool[seat] else []
    if alpha:
        out += [Option("alpha", d) for d in dests]
    out.append(DONE)
    return out


def destinations(state: GreenlandState, data: GreenlandData, seat: int, ok: Any) -> list[int]:
    """Line 42 'A tribesman can be placed on a Biome card (hunting), Placard (promotion), Daughter or
    Livestock (raiding or defense), or in the New World (colonization)': every visible card ``ok`` (the
    transport, lines 46-48) allows, a New World card making a colonist (line 50); -1 - rank, a promotion for
    one energy (line 51); TPLACE + a Daughter or Livestock card, a Guard or a Raider (``tableau_places``)."""
    out = [c for c in visible(state) if ok(c)]
    if state.energy[seat] >= int(data.setup["promotion_energy"]):
        out += [-1 - r for r in range(N_RANKS)]
    if state.rules.get("advanced", True):
        out += tableau_places(state, data, seat, ok)
    return out


def tribesman_option(state: GreenlandState, seat: int, dest: int) -> Option:
    """The assignment of an unassigned tribesman to a place of ``destinations``."""
    if dest < 0:
        return Option("promote", -1 - dest)
    if dest >= TPLACE:
        return Option("guard" if guarding(state, seat, dest) else "raid", dest)
    return Option("hunt", dest)


def tableau_places(state: GreenlandState, data: GreenlandData, seat: int, ok: Any) -> list[int]:
    """Line 52: a Raider on an opponent's Livestock or (unmarried) Daughter card needs a War Chief (rank 4);
    line 53: Guards on one's own Daughters and Livestock, or daughters one is married to."""
    out = []
    war_chief = state.elders[seat][WAR_CHIEF] > 0
    married = {c for h in state.husbands for c in h} if war_chief else set()
    for other in range(state.n_players):
        for c in state.tableau[other]:
            kind = data.tcards[c].kind
            if kind not in ("daughter", "animal"):
                continue
            place = TPLACE + c
            guard = other == seat or state.husbands[seat].get(c, 0)
            if guard or (war_chief and state.alive[other] and c not in married and ok(place)):
                out.append(place)
    return out


def sunstone_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 54: 'reassign three of your tribesmen after everyone has assigned all their tribesmen' (ruling
    G5): any tribesman whose assignment is not permanent (Hunters, Guards, Raiders, the Alpha among them, line
    55; not colonists, line 50, elders, line 51, or Husbands, line 61) moves to any place line 42 allows
    (``destinations``), under the same rules as an assignment (transport, War Chief, promotion's energy)."""
    if not has(state, data, seat, "sun_stone") or state.moves >= int(data.setup["sun_stone_moves"]):
        return [DONE]
    sources = [(src, -1) for src, k in state.hunters[seat].items() if k]
    if state.alpha[seat] >= 0 and not colony(data, state.alpha[seat]):
        sources.append((state.alpha[seat], 1))  # the Alpha (c = 1)
    out = []
    for src, alpha in sources:
        placed = dict(state.placed[seat])
        placed[src] = placed.get(src, 0) - 1

        def ok(card: int, placed: dict[int, int] = placed) -> bool:
            return can_send(state, data, seat, card, 1, placed)

        out += [Option("move", src, d, alpha) for d in destinations(state, data, seat, ok) if d != src]
    return [*out, DONE]


def domestic_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 26: tableau cards give babies for energy or elders; a hostile New World may be pacified."""
    out = []
    married = {c for h in state.husbands for c in h}
    for c in [c for c in state.tableau[seat] if c not in married] + list(state.husbands[seat]):
        t = data.tcards[c]
        if not t.babies or c in state.bred[seat]:
            continue
        with_energy = state.energy[seat] >= t.energy and (t.either or sum(state.elders[seat]) >= t.elders)
        if t.elders and (t.either or with_energy) and sum(state.elders[seat]) >= t.elders:
            out += [Option("breed", c, -1, r) for r in range(N_RANKS) if state.elders[seat][r]]
        if with_energy and (t.either or not t.elders):
            out.append(Option("breed", c))
    if state.ivory[seat] >= int(data.setup["pacify_ivory"]):
        out += [Option("pacify", c) for c in state.hostile if present(state, seat, c)]
    return [*out, DONE]


def untamed(state: GreenlandState, data: GreenlandData) -> list[int]:
    """The animals a Shaman can domesticate: those whose printed card is in no tableau. Unused Norse animals
    wait 'for possible later use' (line 13); the Sámi start with 'one side of the Sámi farm animal card
    (domestic reindeer or lappget)' (line 13), so the side not chosen is the same card and never a second
    animal. With no Sámi in play their card is unused and either side can be domesticated (ruling G2)."""
    cards = data.tcards
    taken = {cards[c].card for t in state.tableau for c in t}
    return [c for c in data.tcards_of("animal") if cards[c].card not in taken]


def elder_options(state: GreenlandState, data: GreenlandData, seat: int) -> list[Option]:
    """Line 27: each elder acts once with its rank's power (elders.toml, ruling G14); conversion."""
    out = []
    per_elder = state.rules.get("elder_actions", "per_elder") == "per_elder"
    for r, rank in enumerate(data.ranks):
        if state.used[seat][r] >= (state.elders[seat][r] if per_elder else min(1, state.elders[seat][r])):
            continue
        for i, act in enumerate(rank.actions):
            if (
                state.energy[seat] < act.energy
                or state.ivory[seat] < act.ivory
                or state.iron[seat] < act.iron
            ):
                continue
            if act.name == "domesticate":
                out += [Option("elder", r, i, c) for c in untamed(state, data)]
            elif act.name == "burn_witch":
                out += [Option("elder", r, i, k) for k in range(N_RANKS) if state.elders[seat][k]]
            elif act.name == "invent":  # the top Invention into the hand, if it has room (G19)
                if state.inventions and len(state.hands[seat]) < hand_size(state, data, seat):
                    out.append(Option("elder", r, i))
            else:
                out.append(Option("elder", r, i))
    if state.energy[seat] >= int(data.setup["table_energy"]):  # a hand card into the tableau (G19)
        out += [Option("table", c) for c in state.hands[seat]]
    if state.religion[seat] == POLY and (
        state.rules.get("conversion", "no_elders") == "any" or not sum(state.elders[seat])
    ):
        out.append(Option("convert"))
    return [*out, DONE]


# --------------------------------------------------------------------------- apply


def apply(state: GreenlandState, data: GreenlandData, choices: dict[int, Any]) -> None:
    for seat, option in choices.items():
        legal = options(state, data, seat)
        try:
            ok = option in legal
        except Exception:  # noqa: BLE001 - any comparison failure means the option is not ours
            ok = False
        if not ok:
            raise IllegalChoice(f"{option!r} is not a legal option now", seat=seat)
    if state.phase == BID:
        resolve_auction(state, data, {s: Option(*o).a for s, o in choices.items()})
    elif state.phase == SETUP:
        for s in sorted(choices):
            state.tableau[s].append(Option(*choices[s]).a)
        rescore(state)
        state.queue = []
        start_generation(state, data)
    else:
        ((seat, option),) = choices.items()
        apply_one(state, data, seat, Option(*option))
    check_alive(state)
    check_hands(state, data)


def apply_one(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    phase = state.phase
    if phase in (ASSIGN, SUNSTONE, DOMESTIC, ELDER):
        if o.kind == "done":
            state.idx += 1
            state.moves = 0
        else:
            act(state, data, seat, o)
        if state.phase == phase:
            advance(state, data)
    elif phase == NEGOTIATE:
        negotiate(state, data, seat, o)
    elif phase == HUNT:
        card = o.a
        if o.kind == "pick":
            open_hunt(state, card)
        elif o.kind == "roll":
            start_roll(state, data, seat, card, o.b)
        elif o.kind == "reroll":
            reroll_die(state, data, seat, card, o.b)
        elif o.kind == "keep":
            end_roll(state, data, seat, card)
        elif o.kind == "casualty":
            settle_hunt(state, data, state.victim, card, bool(o.b))
        if o.kind == "pick" or (state.rerolls < 0 and state.kills < 0):
            if o.kind != "pick":
                state.idx += 1  # this seat's hunt on the card is over
            next_hunt(state, data)


def act(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    kind = o.kind
    if kind in ("hunt", "guard", "raid"):  # lines 42-53
        state.pool[seat] -= 1
        place(state, data, seat, o.a, False)
    elif kind == "promote":  # line 51
        state.pool[seat] -= 1
        place(state, data, seat, -1 - o.a, False)
    elif kind == "alpha":  # line 55: as a tribesman
        place(state, data, seat, o.a, True)
    elif kind == "move":  # line 54 (ruling G5)
        state.placed[seat][o.a] -= 1
        state.moves += 1
        if o.c != 1:  # a tribesman leaves; the Alpha's place is set by ``place``
            take_one(state.hunters[seat], o.a)
        place(state, data, seat, o.b, o.c == 1)
    elif kind == "breed":  # line 26
        t = data.tcards[o.a]
        if o.c < 0 or not t.either:  # the energy (line 26); with 'either' the elders instead
            state.energy[seat] -= t.energy
        if o.c >= 0:
            for _ in range(t.elders):
                if not kill_elder(state, seat, o.c):
                    kill_elder(state, seat)
        state.bred[seat].append(o.a)
        babies(state, data, seat, t.babies)
        state.stats["bred"][seat] += 1
    elif kind == "pacify":  # line 26
        state.ivory[seat] -= int(data.setup["pacify_ivory"])
        rescore(state)
        state.hostile.remove(o.a)
    elif kind == "elder":
        elder_action(state, data, seat, o)
    elif kind == "table":  # ruling G19
        state.energy[seat] -= int(data.setup["table_energy"])
        state.hands[seat].remove(o.a)
        state.tableau[seat].append(o.a)
        rescore(state)
        state.stats["tabled"][seat] += 1
    elif kind == "convert":  # line 27
        state.religion[seat] = MONO
        rescore(state)
        state.converted[seat] = state.generation
    check_alive(state)
    check_hands(state, data)


def place(state: GreenlandState, data: GreenlandData, seat: int, dest: int, alpha: bool) -> None:
    """Line 42: one tribesman (with ``alpha``, the Alpha, line 55) goes to ``dest`` (``destinations``): a
    biome card as a Hunter, a New World card as a colonist for good (line 50), a tableau card as a Guard or a
    Raider (lines 52-53), or the Placard (-1 - rank) as an elder for one energy, for good (line 51)."""
    if dest < 0:
        rank = -1 - dest
        state.energy[seat] -= int(data.setup["promotion_energy"])
        state.elders[seat][rank] += 1
        state.stats["promotions"][seat] += 1
        if alpha:
            state.alpha[seat] = ALPHA_ELDER - rank
        return
    state.placed[seat][dest] = state.placed[seat].get(dest, 0) + 1
    settled = colony(data, dest)
    if alpha:
        state.alpha[seat] = dest
    else:
        where = (state.colonists if settled else state.hunters)[seat]
        where[dest] = where.get(dest, 0) + 1
    if settled:
        state.stats["colonists_sent"][seat] += 1
    elif dest >= TPLACE and guarding(state, seat, dest):
        state.stats["guards"][seat] += 1


def elder_action(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    action = data.ranks[o.a].actions[o.b]
    state.used[seat][o.a] += 1
    state.stats["elder_actions"][seat] += 1
    state.energy[seat] += action.gain_energy - action.energy
    state.ivory[seat] += action.gain_ivory - action.ivory
    state.iron[seat] += action.gain_iron - action.iron
    if action.gain_ivory != action.ivory or action.gain_iron != action.iron:
        rescore(state)
    if action.name == "domesticate":
        state.tableau[seat].append(o.c)
        rescore(state)
    elif action.name == "burn_witch":
        kill_elder(state, seat, o.c)
    elif action.name == "invent":
        state.hands[seat].append(state.inventions.pop())


def negotiate(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> None:
    card = o.a
    if o.kind == "pick":
        open_contest(state, card)
    elif o.kind == "withdraw":
        return_hunters(state, data, seat, card)
        state.placed[seat].pop(card, None)
        state.stats["withdrawals"][seat] += 1
        state.queue.pop(0)
    elif o.kind == "stay":
        state.queue.pop(0)
    elif o.kind == "attack":
        state.attacker, state.target = seat, o.b
        return
    elif o.kind == "defend":
        resolve_attack(state, data, state.attacker, seat, card, bool(o.b))
        if state.kills >= 0:
            return  # the casualties are chosen first (G10)
        state.queue.pop(0)
    elif o.kind == "casualty":
        lost = lose_hunters(state, data, state.victim, card, state.kills, bool(o.b))
        state.stats["kills_inflicted"][state.attacker] += lost
        state.kills, state.killer, state.victim = -1, -1, -1
        state.queue.pop(0)
    elif o.kind == "bribe":
        state.attacker, state.target, state.bribe = seat, o.b, o.c
        state.offers[seat] += 1
        return
    elif o.kind == "counter":
        state.counter = o.c
        return
    elif o.kind in ("accept", "refuse"):
        if o.kind == "accept":
            accept_bribe(state, data, state.attacker, state.target, card, o.c)
        # the briber's turn on this card goes on: another offer, stay or withdraw (ruling G23)
    next_contest(state, data)


DISCS = ("energy", "ivory", "iron")


def bribe_options(state: GreenlandState, data: GreenlandData, seat: int, card: int) -> list[Option]:
    """Line 59: ask a tribe on the card to leave peacefully for 1 or 2 discs, a daughter in marriage (line 61
    Exogamy 'if agreed upon during negotiations'), a hand card or an Invention or Domestic Animal card of the
    tableau; at most ``offers_per_card`` offers per tribe and card (ruling G23)."""
    if not state.rules.get("bribes", True) or state.offers[seat] >= int(data.setup["offers_per_card"]):
        return []
    return [
        Option("bribe", card, t, c)
        for t in state.order
        if t != seat and present(state, t, card)
        for c in offer_items(state, data, seat, t, card)
    ]


def offer_items(
    state: GreenlandState, data: GreenlandData, giver: int, taker: int, card: int, public: bool = False
) -> list[int]:
    """What ``giver`` can hand ``taker`` for leaving ``card`` (line 59), as Option.c codes. ``public``: only
    what ``taker`` can see (a counter-offer cannot name a card hidden in the giver's hand)."""
    out = []
    for d, name in enumerate(DISCS):
        have = getattr(state, name)[giver]
        out += [10 * d + k for k in (1, 2) if have >= k]
    if present(state, taker, card):  # one of the taker's tribesmen there marries (line 61)
        married = {c for h in state.husbands for c in h}
        out += [
            MARRY + c for c in state.tableau[giver] if data.tcards[c].kind == "daughter" and c not in married
        ]
    busy = {c - TPLACE for c in raid_places(state)}
    out += [
        CARD + c
        for c in state.tableau[giver]
        if data.tcards[c].kind in ("invention", "animal") and c not in busy and TPLACE + c != card
    ]
    if not public:
        out += [CARD + c for c in state.hands[giver]]
    return out


def accept_bribe(
    state: GreenlandState, data: GreenlandData, briber: int, target: int, card: int, offer: int
) -> None:
    """The target takes the discs, the card (a hand card into its hand, a tableau card into its tableau) or
    the bride (one of its tribesmen on the card becomes her Husband), and all its tribesmen leave the card."""
    if offer >= CARD:
        tcard = offer - CARD
        if tcard in state.hands[briber]:
            state.hands[briber].remove(tcard)
            state.hands[target].append(tcard)  # over the hand size it is discarded at once (G19)
        else:
            state.tableau[briber].remove(tcard)
            state.tableau[target].append(tcard)
            rescore(state)
    elif offer >= MARRY:
        marry(state, target, card, offer - MARRY)
    else:
        name, k = DISCS[offer // 10], offer % 10
        getattr(state, name)[briber] -= k
        getattr(state, name)[target] += k
        rescore(state)
    return_hunters(state, data, target, card)
    state.placed[target].pop(card, None)
    state.stats["bribes"][briber] += 1
    state.stats["bribes_taken"][target] += 1
    if target in state.queue:
        state.queue.remove(target)


def war_party(state: GreenlandState, attacker: int) -> bool:
    """Line 62 'Except for War Parties, each will kill one tribesman of the victim's choice' (ruling G24): an
    attack by a tribe with a War Chief (rank 4, line 52) is a War Party, whose hits kill tribesmen of the
    attacker's choice."""
    return (
        state.rules.get("war_parties", "war_chief") == "war_chief" and state.elders[attacker][WAR_CHIEF] > 0
    )


def resolve_attack(
    state: GreenlandState, data: GreenlandData, attacker: int, victim: int, card: int, iron: bool
) -> Roll:
    """Line 62: the attacker rolls; each hit kills one tribesman of the victim's choice (G10), a War Party's
    of the attacker's choice (G24), unless the victim spent iron before the roll (line 64)."""
    faces = take_dice(state, data, attack_dice(state, data, attacker, card))
    roll = roll_attack(state, data, attacker, card, faces)
    state.stats["attacks"][attacker] += 1
    state.target = -1
    if iron:  # line 64: the victim spends 1 iron before the roll to cancel all casualties
        state.iron[victim] -= int(data.setup["iron_rule_cost"])
        state.stats["iron_spent"][victim] += 1
        rescore(state)
    elif alpha_at_stake(state, victim, card, roll.killed, present(state, victim, card)):
        chooser = attacker if war_party(state, attacker) else victim
        state.kills, state.killer, state.victim = roll.killed, chooser, victim
        return roll  # the attacker stays recorded until the casualties are chosen
    else:
        state.stats["kills_inflicted"][attacker] += lose_hunters(state, data, victim, card, roll.killed)
    state.attacker = -1
    return roll


#: the decisions that roll or settle dice (``preview`` returns None for any other)
DICE_KINDS = frozenset({"roll", "reroll", "keep", "defend"})


def preview(state: GreenlandState, data: GreenlandData, seat: int, o: Option) -> Roll | None:
    """The dice ``o`` will roll, read ahead without using them (for the turn record); a ``keep`` logs the
    final tally of the dice."""
    if o.kind == "roll":
        faces = peek_dice(state, data, dice_count(state, seat, o.a, o.b))
        return roll_hunt(state, data, seat, o.a, o.b, faces)
    if o.kind == "reroll":
        return roll_again(state, data, seat, o.a, o.b, peek_dice(state, data, 1))
    if o.kind == "keep":
        hits, killed, success = tally(state, data, seat, o.a, state.flags, state.dice)
        return Roll((), (), hits, killed, int(success))
    if o.kind == "defend":
        faces = peek_dice(state, data, attack_dice(state, data, o.c, o.a))
        return roll_attack(state, data, o.c, o.a, faces)
    return None

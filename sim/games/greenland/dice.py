"""Greenland's dice: hunt rolls and re-rolls (lines 25, 68-72), attack rolls (line 62), reading them ahead.

Every die is rolled with the game's generator inside the ``apply`` of the decision that causes it;
``roll_hunt`` and ``roll_attack`` are pure apart from the generator, so ``record`` replays them on a copy of
it (``preview``) to log the dice before they are applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sim.games.greenland.data import GreenlandData
from sim.games.greenland.state import TPLACE, GreenlandState, Option
from sim.games.greenland.table import has, row_of

#: a hunt roll's flags (Option.b): the Alpha takes its automatic hit (line 55), iron cancels the
#: casualties (line 64)
ALPHA_FLAG, IRON_FLAG = 1, 2


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


def alpha_at_stake(state: GreenlandState, seat: int, card: int, k: int, eligible: int) -> bool:
    """Ruling G10: a casualty decision exists only when it has two outcomes: the Alpha is among the
    ``eligible`` tribesmen who can die and some but not all of them die."""
    return state.alpha[seat] == card and 0 < k < eligible


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

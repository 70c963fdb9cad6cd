"""Knarr's option enumeration, made faster, gives exactly the options it gave before, in the
same order (random strategies index into the list), over many states of seeded games in every rule set;
and ``apply`` takes the runner's own option objects without enumerating the options again.

The reference below is the enumeration as it stood before (payments, recruit and explore options),
kept here only.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

import numpy as np
import pytest

from sim.errors import IllegalChoice
from sim.games.knarr import rules
from sim.games.knarr.data import COLOURS_COST, RECRUIT, SAME, KnarrData
from sim.games.knarr.game import GAME
from sim.games.knarr.state import CAULDRON, KnarrState, Option

pytestmark = pytest.mark.slow


def old_payments(data: KnarrData, counts: list[int], recruits: int, dest: int) -> list[tuple[int, ...]]:
    """Ways to pay a destination: cards per colour plus recruits covering missing cards 1:1 (A.5 Explore)."""
    d = data.destinations[dest]
    out: list[tuple[int, ...]] = []
    if d.cost_kind == COLOURS_COST:
        ranges = [
            range(max(0, need - recruits), min(have, need) + 1) if need else range(1)
            for need, have in zip(d.cost, counts, strict=True)
        ]
        _product(ranges, [], out, d.cost, recruits)
    elif d.cost_kind == SAME:
        for c in range(5):
            for k in range(max(1, d.cost_n - recruits), min(counts[c], d.cost_n) + 1):
                pay = [0] * 5
                pay[c] = k
                out.append((*pay, d.cost_n - k))
        if recruits >= d.cost_n:
            out.append((0, 0, 0, 0, 0, d.cost_n))
    else:  # DIFF: n cards of n different colours
        held = [c for c in range(5) if counts[c]]
        for k in range(max(0, d.cost_n - recruits), min(len(held), d.cost_n) + 1):
            for chosen in combinations(held, k):
                pay = [0] * 5
                for c in chosen:
                    pay[c] = 1
                out.append((*pay, d.cost_n - k))
    return out


def _product(
    ranges: list[range], prefix: list[int], out: list[tuple[int, ...]], cost: tuple[int, ...], recruits: int
) -> None:
    if len(prefix) == 5:
        r = sum(cost) - sum(prefix)
        if r <= recruits:
            out.append((*prefix, r))
        return
    for k in ranges[len(prefix)]:
        _product(ranges, [*prefix, k], out, cost, recruits)


def old_recruit_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    out = []
    seen = set()
    counts = rules.crew_counts(state, seat)
    for card in state.hands[seat]:
        c = data.viking_colour[card]
        key = (c, data.viking_asset[card])
        if key in seen:
            continue
        seen.add(key)
        column_recruits = sum(data.viking_asset[x] == RECRUIT for x in state.crews[seat][c])
        column_recruits += data.viking_asset[card] == RECRUIT
        recruits = min(rules.cap(state, data, RECRUIT), state.recruits[seat] + column_recruits)
        free_any = CAULDRON in state.artifacts and counts[c] == 1
        for slot in range(5):
            if state.board[slot] < 0:
                continue
            if slot == c or free_any or recruits >= 1:
                out.append(Option("recruit", card, slot))
        if state.board[c] < 0 and not free_any:
            out.append(Option("recruit", card, -1))
    return out


def old_explore_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """One option per destination, count per colour and recruits (``payments``) and choice of the
    Vikings inside each column (``column_choices``, ruling R4)."""
    out = []
    crew = state.crews[seat]
    counts = [len(col) for col in crew]
    r = state.recruits[seat]
    slots = [(i, d) for i, d in enumerate(state.visible) if d >= 0]
    slots += [(6 + i, d) for i, d in enumerate(state.reserved[seat])]
    choices: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for slot, dest in slots:
        for pay in old_payments(data, counts, r, dest):
            per_colour = []
            for c in range(5):
                key = (c, pay[c])
                if key not in choices:
                    choices[key] = rules.column_choices(data, crew[c], pay[c])
                per_colour.append(choices[key])
            for combo in product(*per_colour):
                out.append(Option("explore", slot, dest, pay, tuple(x for part in combo for x in part)))
    return out


def old_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """``rules.options`` with the reference recruit and explore enumerations."""
    if state.phase == rules.BONUS and state.bonus[0] == "explore":
        return [*old_explore_options(state, data, seat), rules.SKIP]
    if state.phase == rules.BONUS and state.bonus[0] == "recruit":
        return [*old_recruit_options(state, data, seat), rules.SKIP]
    if state.phase != rules.TURN or state.acted:
        return rules.options(state, data, seat)
    actions = old_recruit_options(state, data, seat) + old_explore_options(state, data, seat)
    return (actions or [rules.PASS]) + rules.free_options(state, data, seat)


RULE_SETS: list[dict[str, Any]] = [
    {},
    {"skali": True},
    {"artifacts": True},
    {"skali": True, "artifacts": True, "helmet": "cover"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda r: ",".join(r) or "base")
def test_options_equal_the_old_enumeration_in_order(players: int, rule_set: dict[str, Any]) -> None:
    """Every decision point of 12 seeded random games: the same options, in the same order."""
    data = GAME.load_data(None)
    checked = explores = 0
    for seed in range(12):
        state = GAME.new_state(players, rule_set, data, seed)
        pick = np.random.default_rng(seed)
        while not GAME.is_terminal(state):
            choices = {}
            for seat in GAME.to_move(state):
                options = GAME.legal_options(state, seat)
                assert options == old_options(state, data, seat)
                checked += 1
                explores += sum(o.kind == "explore" for o in options)
                choices[seat] = options[int(pick.integers(len(options)))]
            GAME.apply(state, choices)
    assert checked > 600 and explores > 200


def test_payments_equal_the_old_ones_for_every_destination_and_crew() -> None:
    """A.5 Explore 'pay its cost by discarding Vikings ... recruits ... 1:1': every destination, crew
    counts 0-3 per colour and 0-4 recruits."""
    data = GAME.load_data(None)
    for dest in range(len(data.destinations)):
        for counts in product(range(4), repeat=5):
            for recruits in range(5):
                assert rules.payments(data, list(counts), recruits, dest) == old_payments(
                    data, list(counts), recruits, dest
                )


def test_apply_checks_an_option_not_taken_from_the_list_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's own option objects are legal without a second enumeration; an equal option built
    anew is looked for among the options enumerated again, and one that is not legal is refused."""
    enumerated = []
    real = rules.options
    monkeypatch.setattr(rules, "options", lambda *args: enumerated.append(args[2]) or real(*args))
    state = GAME.new_state(4, {}, GAME.load_data(None), 3)
    options = GAME.legal_options(state, 0)
    assert state.legal == (0, options) and len(enumerated) == 1
    GAME.apply(state, {0: options[-1]})
    assert state.legal is None and len(enumerated) == 1  # not enumerated again
    seat = GAME.to_move(state)[0]
    options = GAME.legal_options(state, seat)
    with pytest.raises(IllegalChoice):
        GAME.apply(state, {seat: Option("explore", 0, 999, (9, 0, 0, 0, 0, 0), ())})
    assert state.legal is None and len(enumerated) == 3
    options = GAME.legal_options(state, seat)
    GAME.apply(state, {seat: Option(*options[0])})  # equal, not the same object
    assert len(enumerated) == 5

"""The most victory points one building phase can reach (graenaland.txt:128, 311-313; ruling G25).

Line 311: a player may announce "that they are able to win — that is, that they can achieve 6
victory points if given the opportunity to build", and line 128: "You may build as many buildings
as you have resources for". So a seat is able to win when some sequence of builds it can pay for in
one building phase reaches the winning points, and the priority of line 313 ("the highest number of
victory points takes priority") ranks seats by the most points such a sequence reaches. The phase
is a final building phase (lines 235-237, 312, 315): no supply card is taken and no public building
is built, so the builds are villages (line 143), fortresses, churches and halls (151-154) and army
steps (163-169), each paid as ``building.payments`` pays it (gold wild, a supply card for one
building only, each marketplace once, one reached by a first village usable from then on, line
198), a first village behind a palisade also paying the fee (line 203).

``most_points`` is a depth-first search over the affordable builds:

* in one order: villages first, then buildings by territory and type, then army steps. Any
  sequence can be played in that order: a building never enables a village (it needs an own
  village there already, line 151), nor a marketplace (its territory is already settled), and an
  army step enables nothing; a village first only gives the later builds more marketplaces (198)
  and a fortress first only cheaper army steps (167);
* a position met before (what is built, and cards, supply cards and marketplaces left that cover
  the new ones: more never close a way) is not searched again;
* of the payments of one build, one whose leftovers another's cover (a gold card standing for any
  other card, line 127) is skipped;
* a bound: ``j`` army steps and, with the cards left, as many villages or buildings as the houses
  and free building spaces allow, each goal value taking all of them it can use; a build or
  position whose bound cannot beat the best points found is not searched, and with ``at_least``
  totals below it are not looked for (an announcement needs the winning points, line 311);
* it stops as soon as the best points found reach the start's bound.

Its cost is measured in ruling G25 (RULINGS.md).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import NamedTuple

from sim.games.graenaland.board import Board
from sim.games.graenaland.building import Hand, army_cost_variants, payments
from sim.games.graenaland.data import BUILDINGS, GOLD, GraenalandData
from sim.games.graenaland.options import Action, Pay
from sim.games.graenaland.state import FORTRESS, MARKET, PALISADE

Pairs = tuple[tuple[int, int], ...]


class Position(NamedTuple):
    """What the search reads: the public board and the seat's own cards, so that the rules build it
    from the state (``advanced.claim``) and a strategy from its view."""

    seat: int
    villages: Sequence[Sequence[int]]  # [territory][seat]
    buildings: Sequence[Sequence[int]]  # [territory][fortress, church, hall] -> owner or -1
    public: Sequence[Sequence[bool]]  # [territory][road, yield, market, palisade]
    army: int
    houses: int
    hand: Hand  # own resource cards by type
    supplies: Pairs  # own supply cards, as sorted pairs
    markets: int  # marketplaces the seat may still use in this building phase
    three: bool  # three-player adjustments: the first building does not count (line 249)
    levels: tuple[tuple[int, ...], ...]  # the seat's victory point card, levels per goal (line 286)


class Step(NamedTuple):
    """One build of a plan: the action, its payment, and the palisade fee cards by resource (line 203)."""

    action: Action
    pay: Pay
    fee: tuple[int, ...]


class Reach(NamedTuple):
    points: int  # the most victory points reachable (the points now when no build adds any)
    steps: tuple[Step, ...]  # builds reaching them, in an order that can be played
    nodes: int  # positions the search expanded (its cost)


class _Found(Exception):
    """The start's bound is reached: nothing better exists."""


def most_points(pos: Position, board: Board, data: GraenalandData, at_least: int = 0) -> Reach:
    """The most victory points ``pos.seat`` can reach with builds paid for in one building phase, and
    a sequence of builds reaching them (see the module docstring). Only totals of at least ``at_least``
    are looked for: when none is reachable, the points now, with no steps."""
    seat, n = pos.seat, board.n
    size = data.goals["territory_size"]
    levels = pos.levels
    per = [pos.villages[t][seat] + sum(1 for o in pos.buildings[t] if o == seat) for t in range(n)]
    vil = [pos.villages[t][seat] for t in range(n)]
    free = [[board.allows_buildings(t) and pos.buildings[t][b] < 0 for b in range(3)] for t in range(n)]
    forts = [data.fortress_resource[board.terrain[t]] for t in range(n) if pos.buildings[t][FORTRESS] == seat]
    market = [pos.public[t][MARKET] for t in range(n)]
    fee_at = [sum(1 for p in range(len(pos.villages[t])) if p != seat and (
        pos.villages[t][p] or p in pos.buildings[t])) if pos.public[t][PALISADE] else 0 for t in range(n)]
    village_cost = min(map(sum, board.village_cost))
    building_cost = min(sum(data.costs[b]) for b in BUILDINGS)
    army_cost = min(map(sum, army_cost_variants(data, set(data.fortress_resource) - {-1})))
    ARMY = 3 * n  # builds go villages first, then buildings by 3 * territory + type, then army steps

    def points(owned: int, army: int) -> int:
        counted = max(0, owned - 1) if pos.three else owned
        values = (sum(per), sum(1 for x in per if x >= size), max(per), counted, army)
        return sum(1 for v, lv in zip(values, levels, strict=True) for x in lv if v >= x)

    def bound(units: int, houses: int, owned: int, army: int, last: int, built: int, enough: int) -> int:
        """At most: ``j`` army steps, and with the cards left ``h`` more villages or buildings as the
        houses and the free building spaces allow (after a building only buildings later in the order),
        every goal value taking all it can of them: Settlements ``h``, Buildings up to the free spaces,
        Largest up to a territory's room, Territories the cheapest pairs. Returns as soon as it exceeds
        ``enough``."""
        if last < 0:
            room = [houses] * n
            spaces = sum(sum(row) for row in free) - built.bit_count()
        else:
            room = [sum(1 for b in range(3) if free[t][b] and 3 * t + b > last) if vil[t] and last < ARMY
                    else 0 for t in range(n)]
            spaces = sum(room)
        cheapest = village_cost if last < 0 else building_cost
        gaps = list(accumulate(sorted(size - x for t, x in enumerate(per)
                                      if x < size and room[t] >= size - x)))
        settled, paired = sum(per), sum(1 for x in per if x >= size)
        top = 0
        for j in range(min(data.army_max - army, units // army_cost), -1, -1):
            h = min(houses, (units - j * army_cost) // cheapest, sum(room))
            counted = owned + min(h, spaces)
            values = (settled + h, paired + bisect_right(gaps, h),
                      max(x + min(h, room[t]) for t, x in enumerate(per)),
                      max(0, counted - 1) if pos.three else counted, army + j)
            top = max(top, sum(1 for v, lv in zip(values, levels, strict=True) for x in lv if v >= x))
            if top > enough:
                break
        return top

    owned0 = sum(1 for row in pos.buildings for o in row if o == seat)
    now = points(owned0, pos.army)
    best = max(now, at_least - 1)
    best_steps: tuple[Step, ...] = ()
    top = bound(sum(pos.hand) + 2 * len(pos.supplies), pos.houses, owned0, pos.army, -1, 0, 99)
    seen: dict[tuple, list[tuple[Hand, Pairs, int]]] = {}  # what is built -> the cards left searched
    path: list[Step] = []
    nodes = 0

    def search(hand: Hand, sup: Pairs, markets: int, houses: int, owned: int, army: int, last: int,
               built: int) -> None:
        nonlocal best, best_steps, nodes
        left = (hand, sup, markets)
        here = seen.setdefault((tuple(vil), built, army), [])
        if any(_covers(other, left) for other in here) or bound(
                sum(hand) + 2 * len(sup), houses, owned, army, last, built, best) <= best:
            return
        here.append(left)
        nodes += 1
        builds: list[tuple[str, int, int, list]] = []
        if houses and last < 0:
            near = {t for t in range(n) if per[t]}
            for t in list(near):
                near |= board.adjacent[t]
            builds += [("village", t, -1, [board.village_cost[t]]) for t in sorted(near)]
        if houses and last < ARMY:
            builds += [(name, t, b, [data.costs[name]]) for t in range(n) if vil[t]
                       for b, name in enumerate(BUILDINGS) if free[t][b] and 3 * t + b > last]
        if army < data.army_max:
            builds.append(("army", -1, -1, army_cost_variants(data, forts)))
        for kind, t, b, costs in builds:
            first = kind == "village" and per[t] == 0
            fee = fee_at[t] if first else 0
            ways: dict[tuple, Pay] = {}
            for cost in costs:
                for p in payments(cost, hand, sup, markets):
                    if sum(hand) - sum(p.resources) >= fee:
                        left = (_minus(hand, p.resources), _without(sup, p.supplies), markets - p.markets)
                        ways.setdefault(left, p)
            if not ways:
                continue
            order = -1 if kind == "village" else ARMY if kind == "army" else 3 * t + b
            built2 = built | (1 << order if b >= 0 else 0)
            houses2, owned2, army2 = houses - (kind != "army"), owned + (b >= 0), army + (kind == "army")
            if kind != "army":
                per[t] += 1
            if kind == "village":
                vil[t] += 1
            if b == FORTRESS:
                forts.append(data.fortress_resource[board.terrain[t]])
            got = points(owned2, army2)
            if got > best:
                (h, _, _), p = next(iter(ways.items()))
                best, best_steps = got, (*path, Step(Action(kind, t), p, next(_fees(h, fee))[0]))
                if best >= top:
                    raise _Found
            most = max(sum(h) + 2 * len(s) for (h, s, _) in ways) - fee
            if bound(most, houses2, owned2, army2, order, built2, best) > best:
                for (h, s, m), p in _undominated(ways):
                    for given, h2 in _fees(h, fee):
                        path.append(Step(Action(kind, t), p, given))
                        search(h2, s, m + (first and market[t]), houses2, owned2, army2, order, built2)
                        path.pop()
            if b == FORTRESS:
                forts.pop()
            if kind == "village":
                vil[t] -= 1
            if kind != "army":
                per[t] -= 1

    if best < top:
        try:
            search(pos.hand, pos.supplies, pos.markets, pos.houses, owned0, pos.army, -1, 0)
        except _Found:
            pass
    return Reach(best, best_steps, nodes) if best_steps else Reach(now, (), nodes)


def _minus(hand: Hand, used: Sequence[int]) -> Hand:
    return (hand[0] - used[0], hand[1] - used[1], hand[2] - used[2], hand[3] - used[3], hand[4] - used[4])


def _without(sup: Pairs, used: Pairs) -> Pairs:
    """The supply cards left after using ``used`` (both sorted)."""
    if not used:
        return sup
    rest = list(sup)
    for pair in used:
        rest.remove(pair)
    return tuple(rest)


def _covers(a: tuple[Hand, Pairs, int], b: tuple[Hand, Pairs, int]) -> bool:
    """Whether what is left in ``a`` can do all that ``b`` can: as many marketplaces, ``b``'s supply
    cards, and ``b``'s resource cards, a gold card standing for any missing one (line 127)."""
    (ha, sa, ma), (hb, sb, mb) = a, b
    if ma < mb or not _contains(sa, sb):
        return False
    missing = sum(max(0, hb[r] - ha[r]) for r in range(GOLD))
    return ha[GOLD] - hb[GOLD] >= missing


def _contains(big: Pairs, small: Pairs) -> bool:
    rest = list(big)
    for pair in small:
        if pair not in rest:
            return False
        rest.remove(pair)
    return True


def _undominated(ways: dict[tuple, Pay]) -> list[tuple[tuple, Pay]]:
    """The ways whose leftovers no other kept way's leftovers cover. A cover leaves at least as many
    cards, supply cards and marketplaces, so the ways are taken largest leftovers first (gold first
    among equals) and each is kept unless one kept already covers it."""
    kept: list[tuple[tuple, Pay]] = []
    def size(way: tuple[tuple, Pay]) -> tuple[int, ...]:
        (hand, sup, markets), _ = way
        return (-sum(hand), -len(sup), -markets, -hand[GOLD])

    for left, p in sorted(ways.items(), key=size):
        if not any(_covers(other, left) for other, _ in kept):
            kept.append((left, p))
    return kept


def _fees(hand: Hand, k: int) -> Iterator[tuple[tuple[int, ...], Hand]]:
    """The ways to give ``k`` resource cards from ``hand`` (resources given, sorted; the hand left).
    Gold is given only when nothing else is left: keeping the wild card covers keeping any other."""
    if k == 0:
        yield (), hand
        return
    plain = sum(hand[:GOLD])
    if plain < k:
        gold = k - plain
        given = (*(r for r in range(GOLD) for _ in range(hand[r])), *([GOLD] * gold))
        yield given, (0, 0, 0, 0, hand[GOLD] - gold)
        return
    yield from _give(hand, k, 0, ())


def _give(hand: Hand, k: int, r: int, given: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], Hand]]:
    if k == 0:
        yield given, hand
        return
    if r == GOLD:
        return
    for c in range(min(k, hand[r]), -1, -1):
        h = list(hand)
        h[r] -= c
        yield from _give((h[0], h[1], h[2], h[3], h[4]), k - c, r + 1, (*given, *([r] * c)))

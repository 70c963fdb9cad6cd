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

``most_points`` is a depth-first search over the affordable builds (``_Search``):

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
    search = _Search(pos, board, data)
    owned0 = sum(1 for row in pos.buildings for o in row if o == pos.seat)
    now = search.points(owned0, pos.army)
    search.best = max(now, at_least - 1)
    search.top = search.bound(sum(pos.hand) + 2 * len(pos.supplies), pos.houses, owned0, pos.army, -1, 0, 99)
    if search.best < search.top:
        try:
            search.visit(pos.hand, pos.supplies, pos.markets, pos.houses, owned0, pos.army, -1, 0)
        except _Found:
            pass
    if search.best_steps:
        return Reach(search.best, search.best_steps, search.nodes)
    return Reach(now, (), search.nodes)


class _Search:
    """``most_points``'s depth-first search: what the seat holds on the board (changed as builds are
    tried and put back), the goal levels, the bound, and the best found so far."""

    def __init__(self, pos: Position, board: Board, data: GraenalandData) -> None:
        seat, n = pos.seat, board.n
        self.board, self.data, self.n, self.three = board, data, n, pos.three
        self.size = data.goals["territory_size"]
        self.levels = pos.levels
        #: per territory: the seat's pieces (villages and buildings), its villages, the free building spaces
        self.per = [pos.villages[t][seat] + sum(1 for o in pos.buildings[t] if o == seat) for t in range(n)]
        self.vil = [pos.villages[t][seat] for t in range(n)]
        self.free = [[board.allows_buildings(t) and pos.buildings[t][b] < 0 for b in range(3)]
                     for t in range(n)]
        #: the resources of the seat's fortresses (cheaper army steps, line 167)
        self.forts = [data.fortress_resource[board.terrain[t]] for t in range(n)
                      if pos.buildings[t][FORTRESS] == seat]
        self.market = [pos.public[t][MARKET] for t in range(n)]
        #: the palisade fee a first village there pays: a card to every other player settled there (203)
        self.fee_at = [sum(1 for p in range(len(pos.villages[t])) if p != seat and (
            pos.villages[t][p] or p in pos.buildings[t])) if pos.public[t][PALISADE] else 0 for t in range(n)]
        self.village_cost = min(map(sum, board.village_cost))
        self.building_cost = min(sum(data.costs[b]) for b in BUILDINGS)
        self.army_cost = min(map(sum, army_cost_variants(data, set(data.fortress_resource) - {-1})))
        #: builds go villages first (-1), then buildings by 3 * territory + type, then army steps (this)
        self.army_order = 3 * n
        self.best, self.top, self.nodes = 0, 0, 0
        self.best_steps: tuple[Step, ...] = ()
        self.seen: dict[tuple, list[tuple[Hand, Pairs, int]]] = {}  # what is built -> the cards left searched
        self.path: list[Step] = []

    def points(self, owned: int, army: int) -> int:
        """The victory points of the seat's pieces now (lines 223-231, 286), ``owned`` buildings."""
        per = self.per
        counted = max(0, owned - 1) if self.three else owned
        values = (sum(per), sum(1 for x in per if x >= self.size), max(per), counted, army)
        return sum(1 for v, lv in zip(values, self.levels, strict=True) for x in lv if v >= x)

    def bound(self, units: int, houses: int, owned: int, army: int, last: int, built: int,
              enough: int) -> int:
        """At most: ``j`` army steps, and with the cards left ``h`` more villages or buildings as the
        houses and the free building spaces allow (after a building only buildings later in the order),
        every goal value taking all it can of them: Settlements ``h``, Buildings up to the free spaces,
        Largest up to a territory's room, Territories the cheapest pairs. Returns as soon as it exceeds
        ``enough``."""
        n, per, free, size, data = self.n, self.per, self.free, self.size, self.data
        if last < 0:
            room = [houses] * n
            spaces = sum(sum(row) for row in free) - built.bit_count()
        else:
            room = [sum(1 for b in range(3) if free[t][b] and 3 * t + b > last)
                    if self.vil[t] and last < self.army_order else 0 for t in range(n)]
            spaces = sum(room)
        cheapest = self.village_cost if last < 0 else self.building_cost
        gaps = list(accumulate(sorted(size - x for t, x in enumerate(per)
                                      if x < size and room[t] >= size - x)))
        settled, paired = sum(per), sum(1 for x in per if x >= size)
        top = 0
        army_cost, levels = self.army_cost, self.levels
        for j in range(min(data.army_max - army, units // army_cost), -1, -1):
            h = min(houses, (units - j * army_cost) // cheapest, sum(room))
            counted = owned + min(h, spaces)
            values = (settled + h, paired + bisect_right(gaps, h),
                      max(x + min(h, room[t]) for t, x in enumerate(per)),
                      max(0, counted - 1) if self.three else counted, army + j)
            top = max(top, sum(1 for v, lv in zip(values, levels, strict=True) for x in lv if v >= x))
            if top > enough:
                break
        return top

    def builds(self, houses: int, army: int, last: int) -> list[tuple[str, int, int, list]]:
        """The builds open after the build ordered ``last``, as (kind, territory, building type, costs):
        villages next to the seat's pieces (line 143), buildings beside an own village (151-154), an
        army step (163-169)."""
        board, data, n, per, vil, free = self.board, self.data, self.n, self.per, self.vil, self.free
        builds: list[tuple[str, int, int, list]] = []
        if houses and last < 0:
            near = {t for t in range(n) if per[t]}
            for t in list(near):
                near |= board.adjacent[t]
            builds += [("village", t, -1, [board.village_cost[t]]) for t in sorted(near)]
        if houses and last < self.army_order:
            builds += [(name, t, b, [data.costs[name]]) for t in range(n) if vil[t]
                       for b, name in enumerate(BUILDINGS) if free[t][b] and 3 * t + b > last]
        if army < data.army_max:
            builds.append(("army", -1, -1, army_cost_variants(data, self.forts)))
        return builds

    def visit(self, hand: Hand, sup: Pairs, markets: int, houses: int, owned: int, army: int, last: int,
              built: int) -> None:
        """Search on from a position unless one met before covers it or its bound cannot beat the best."""
        left = (hand, sup, markets)
        here = self.seen.setdefault((tuple(self.vil), built, army), [])
        if any(_covers(other, left) for other in here) or self.bound(
                sum(hand) + 2 * len(sup), houses, owned, army, last, built, self.best) <= self.best:
            return
        here.append(left)
        self.nodes += 1
        for kind, t, b, costs in self.builds(houses, army, last):
            first = kind == "village" and self.per[t] == 0
            fee = self.fee_at[t] if first else 0
            ways: dict[tuple, Pay] = {}
            for cost in costs:
                for p in payments(cost, hand, sup, markets):
                    if sum(hand) - sum(p.resources) >= fee:
                        rest = (_minus(hand, p.resources), _without(sup, p.supplies), markets - p.markets)
                        ways.setdefault(rest, p)
            if ways:
                self.follow(kind, t, b, ways, fee, houses, owned, army, built)

    def follow(self, kind: str, t: int, b: int, ways: dict[tuple, Pay], fee: int, houses: int, owned: int,
               army: int, built: int) -> None:
        """Place one build (its pieces on the board), note it if it beats the best, search on from each
        undominated way to pay it, then take it back."""
        data, per = self.data, self.per
        first = kind == "village" and per[t] == 0
        order = -1 if kind == "village" else self.army_order if kind == "army" else 3 * t + b
        built2 = built | (1 << order if b >= 0 else 0)
        houses2, owned2, army2 = houses - (kind != "army"), owned + (b >= 0), army + (kind == "army")
        if kind != "army":
            per[t] += 1
        if kind == "village":
            self.vil[t] += 1
        if b == FORTRESS:
            self.forts.append(data.fortress_resource[self.board.terrain[t]])
        got = self.points(owned2, army2)
        if got > self.best:
            (h, _, _), p = next(iter(ways.items()))
            self.best, self.best_steps = got, (*self.path, Step(Action(kind, t), p, next(_fees(h, fee))[0]))
            if self.best >= self.top:
                raise _Found
        most = max(sum(h) + 2 * len(s) for (h, s, _) in ways) - fee
        if self.bound(most, houses2, owned2, army2, order, built2, self.best) > self.best:
            path = self.path
            for (h, s, m), p in _undominated(ways):
                for given, h2 in _fees(h, fee):
                    path.append(Step(Action(kind, t), p, given))
                    self.visit(h2, s, m + (first and self.market[t]), houses2, owned2, army2, order, built2)
                    path.pop()
        if b == FORTRESS:
            self.forts.pop()
        if kind == "village":
            self.vil[t] -= 1
        if kind != "army":
            per[t] -= 1


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

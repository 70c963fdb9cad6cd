"""Building (graenaland.txt:123-212): what the builder may do, the ways to pay, and the effects.

A build is two decisions: the action (``Action``: what and where) and the payment (``Pay``: the
distinct ways to pay by card type, so strategies choose what to spend). A payment covers each
unit of the cost with a resource card of that type, a gold card (wild, line 127), a supply card
(one of its two resources, or both as a pair, for one building only, lines 133-134), or, once per
marketplace, any other card or a whole supply card (lines 194-197).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from itertools import product

from sim.games.graenaland import production
from sim.games.graenaland.board import Board
from sim.games.graenaland.data import BUILDINGS, GOLD, PUBLIC, GraenalandData
from sim.games.graenaland.options import END, Action, Contribute, Fee, Pay
from sim.games.graenaland.state import (
    CHURCH,
    FORTRESS,
    HALL,
    MARKET,
    PALISADE,
    PRIEST,
    SKALD,
    GraenalandState,
    board_changed,
)
from sim.games.graenaland.votes import settlements_on

Cost = tuple[int, int, int, int]
Hand = tuple[int, int, int, int, int]


def hand_counts(state: GraenalandState, data: GraenalandData, seat: int) -> Hand:
    counts = [0, 0, 0, 0, 0]
    card_resource = data.card_resource
    for card in state.hands[seat]:
        counts[card_resource[card]] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def supply_pairs(state: GraenalandState, data: GraenalandData, seat: int) -> tuple[tuple[int, int], ...]:
    """The seat's supply cards as sorted resource pairs (the order of the symbols does not matter)."""
    return tuple(sorted(tuple(sorted(data.supply_cards[c])) for c in state.supplies[seat]))  # type: ignore[misc]


def markets_available(state: GraenalandState, seat: int) -> list[int]:
    """Marketplaces on territories where the seat has a settlement, not yet used this building phase
    (lines 194-195, 198); none for a player building on the five-player offer (line 303)."""
    if state.offer_active:
        return []
    used, villages, buildings = state.markets_used, state.villages, state.buildings
    return [t for t, row in enumerate(state.public) if row[MARKET] and t not in used
            and (villages[t][seat] > 0 or seat in buildings[t])]


# --------------------------------------------------------------------------- payments


def _capped(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], markets: int
            ) -> tuple[Hand, tuple[tuple[int, int], ...], int]:
    """The hand, supply cards and marketplaces with no more of each than a way to pay ``need`` can use,
    so that equal situations share their remembered ways: at most ``sum(need)`` cards or marketplaces
    in all, a resource card only for its own resource or through a marketplace (lines 127, 194-197),
    a supply card showing no resource needed only through a marketplace."""
    n0, n1, n2, n3 = need
    total = n0 + n1 + n2 + n3
    m = markets if markets < total else total
    h0, h1, h2, h3, gold = hand
    n0, n1, n2, n3 = n0 + m, n1 + m, n2 + m, n3 + m
    capped_hand: Hand = (h0 if h0 < n0 else n0, h1 if h1 < n1 else n1, h2 if h2 < n2 else n2,
                         h3 if h3 < n3 else n3, gold if gold < total else total)
    if sup:
        usable = [pair for pair in sup if m or need[pair[0]] or need[pair[1]]]
        if len(usable) > total:  # then one pair may be held more often than any way can use it
            capped_sup: list[tuple[int, int]] = []
            for pair in usable:
                if capped_sup.count(pair) < total:
                    capped_sup.append(pair)
            usable = capped_sup
        sup = tuple(usable)
    return capped_hand, sup, m


def payments(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], markets: int) -> list[Pay]:
    """The distinct ways to pay ``need`` (by card type), each with the fewest marketplaces it needs."""
    return list(_payments(need, *_capped(need, hand, sup, markets)))


def can_pay(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], markets: int, keep: int = 0) -> bool:
    """Whether ``payments`` lists a way to pay ``need`` that leaves at least ``keep`` resource cards in
    the hand (the palisade fee, line 203), without listing the ways.

    Resource cards alone pay when the units their own resources leave open (``short``) are at most the
    gold cards (line 127) plus the marketplaces' substitutes (lines 194-197) from the cards left over
    (``spare``); such a way uses one card per unit. A supply card covers at most its needed symbols,
    or one unit through a marketplace (lines 133-134, 197): when even all of them cannot close
    ``short``, no way pays. Otherwise a search over the supply cards finds a way (``_supplies_cover``) or,
    with cards to keep, the fewest cards a way uses (``_fewest``)."""
    d0, d1, d2, d3 = need[0] - hand[0], need[1] - hand[1], need[2] - hand[2], need[3] - hand[3]
    short = (d0 > 0 and d0) + (d1 > 0 and d1) + (d2 > 0 and d2) + (d3 > 0 and d3)
    spare = short - d0 - d1 - d2 - d3
    covered = hand[GOLD] + (markets if markets < spare else spare)
    if short <= covered:
        left = sum(hand) - sum(need)
        if not sup or left >= keep:
            return left >= keep
    else:
        for a, b in sup:
            covered += max(bool(need[a]) + (need[b] > (a == b)), bool(markets))
        if covered < short:
            return False
    if not keep:  # every way leaves no fewer than nothing: whether any way pays
        return _supplies_cover(need, hand, sup, 0, markets)
    return sum(hand) - _fewest(need, hand, sup, markets) >= keep


_NO_WAY = 1 << 30


def _fewest(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], m: int) -> int:
    """``_capped_fewest`` of the capped purse (``_capped``: equal situations share what is remembered)."""
    return _capped_fewest(need, *_capped(need, hand, sup, m))


@lru_cache(maxsize=200_000)
def _capped_fewest(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], m: int) -> int:
    """The fewest resource cards of the ways ``_payments`` lists, ``_NO_WAY`` when it lists none.

    Every resource card covers one unit, so the fewest cards are the units the supply cards leave: the
    search runs over the supply cards alone (each unused, covering one unit it shows, two units it
    shows (lines 133-134) or, through a marketplace, any one unit (line 197)) and the cards' part is
    closed-form (``_cards_cover``)."""
    return _supplies_fewest(need, hand, sup, 0, m)


def _cards_cover(need: Cost, hand: Hand, m: int) -> bool:
    """Whether resource cards alone cover ``need``: each unit by a card of its resource, a gold card
    (line 127) or, once per marketplace, a card of another resource (lines 194-197). A card of a needed
    resource is best spent on its own resource, so the units short of their own cards (``short``) must
    be covered by gold cards and by marketplaces trading the cards left over (``spare``)."""
    short = spare = 0
    for r in range(4):
        d = need[r] - hand[r]
        if d > 0:
            short += d
        else:
            spare -= d
    return short <= hand[GOLD] + (m if m < spare else spare)


def _supplies_cover(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], i: int, m: int) -> bool:
    """Whether some way pays ``need`` with the supply cards before ``sup[i]`` decided (the choices of
    ``_supplies_fewest``, stopping at the first way found)."""
    if _cards_cover(need, hand, m):
        return True
    if i == len(sup):
        return False
    for left, market in _card_uses(need, sup[i], m > 0):
        if _supplies_cover(left, hand, sup, i + 1, m - market):
            return True
    return _supplies_cover(need, hand, sup, i + 1, m)  # unused


def _supplies_fewest(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], i: int, m: int) -> int:
    """``_capped_fewest`` with the supply cards before ``sup[i]`` decided."""
    if i == len(sup):
        return need[0] + need[1] + need[2] + need[3] if _cards_cover(need, hand, m) else _NO_WAY
    best = _supplies_fewest(need, hand, sup, i + 1, m)  # unused
    for left, market in _card_uses(need, sup[i], m > 0):
        best = min(best, _supplies_fewest(left, hand, sup, i + 1, m - market))
    return best


@lru_cache(maxsize=8192)
def _card_uses(need: Cost, pair: tuple[int, int], market: bool) -> tuple[tuple[Cost, int], ...]:
    """What a supply card showing ``pair`` may cover of ``need``, as (the need it leaves, marketplaces it
    takes): both symbols (a second unit of a when a == b) or one it shows (lines 133-134), or, with a
    marketplace open, any one unit (line 197)."""
    a, b = pair
    n = list(need)
    out: list[tuple[Cost, int]] = []
    if n[a]:
        n[a] -= 1
        if n[b]:
            n[b] -= 1
            out.append(((n[0], n[1], n[2], n[3]), 0))
            n[b] += 1
        out.append(((n[0], n[1], n[2], n[3]), 0))
        n[a] += 1
    if b != a and n[b]:
        n[b] -= 1
        out.append(((n[0], n[1], n[2], n[3]), 0))
        n[b] += 1
    if market:
        for r in range(4):
            if n[r]:
                n[r] -= 1
                out.append(((n[0], n[1], n[2], n[3]), 1))
                n[r] += 1
    return tuple(out)


@lru_cache(maxsize=100_000)
def _payments(need: Cost, hand: Hand, sup: tuple[tuple[int, int], ...], markets: int) -> tuple[Pay, ...]:
    """The distinct ways to pay ``need`` from the (capped) purse, each with the fewest marketplaces, sorted.

    A way is the resource cards used by type and the supply cards used. The search runs over the supply
    cards (as ``_supplies_fewest``); the resource cards covering what they leave are closed-form
    (``_card_ways``)."""
    best: dict[tuple[Hand, tuple[tuple[int, int], ...]], int] = {}

    def search(n: Cost, i: int, m: int, used: tuple[tuple[int, int], ...], mk: int) -> None:
        if i == len(sup):
            for cards, k in _card_ways(n, hand, m):
                key = (cards, used)
                if best.get(key, _NO_WAY) > k + mk:
                    best[key] = k + mk
            return
        search(n, i + 1, m, used, mk)  # unused
        with_it = (*used, sup[i])
        for left, market in _card_uses(n, sup[i], m > 0):
            search(left, i + 1, m - market, with_it, mk + market)

    search(need, 0, markets, (), 0)
    return tuple(Pay(cards, used, k) for (cards, used), k in sorted(best.items()))


@lru_cache(maxsize=100_000)
def _card_ways(need: Cost, hand: Hand, m: int) -> tuple[tuple[Hand, int], ...]:
    """Every way resource cards alone cover ``need`` (cards used by type, grain .. gold) with its fewest
    marketplaces: each card covers one unit; a card of resource s covers a unit of s, a gold card any
    unit (line 127), and a card beyond the units of its own resource covers another unit through a
    marketplace (lines 194-197), so a way uses ``sum(max(0, used[s] - need[s]))`` of at most ``m``."""
    total = need[0] + need[1] + need[2] + need[3]
    out = []
    for u0 in range(min(hand[0], need[0] + m, total) + 1):
        k0 = u0 - need[0] if u0 > need[0] else 0
        for u1 in range(min(hand[1], need[1] + m - k0, total - u0) + 1):
            k1 = k0 + (u1 - need[1] if u1 > need[1] else 0)
            for u2 in range(min(hand[2], need[2] + m - k1, total - u0 - u1) + 1):
                k2 = k1 + (u2 - need[2] if u2 > need[2] else 0)
                for u3 in range(min(hand[3], need[3] + m - k2, total - u0 - u1 - u2) + 1):
                    gold = total - u0 - u1 - u2 - u3
                    if gold <= hand[GOLD]:
                        out.append(((u0, u1, u2, u3, gold), k2 + (u3 - need[3] if u3 > need[3] else 0)))
    return tuple(out)


def cost_variants(state: GraenalandState, board: Board, data: GraenalandData, seat: int, kind: str, t: int
                  ) -> list[Cost]:
    """The cost of a build: a village's is printed on its piece (line 144); the army's is 1 grain +
    1 ore + 3 grain, or 1 grain + 1 ore + the resource of a fortress's terrain (lines 165-168)."""
    if kind == "village":
        return [board.village_cost[t]]
    if kind == "army":
        return army_costs(state.buildings, board, data, seat)
    return [data.costs[kind]]


def army_costs(
    buildings: Sequence[Sequence[int]], board: Board, data: GraenalandData, seat: int
) -> list[Cost]:
    """The army's costs for ``seat`` (lines 165-168): 1 grain + 1 ore + 3 grain, and 1 grain + 1 ore +
    the resource of each own fortress's terrain. ``buildings[t]`` are t's building owners (public: a
    strategy passes its view's)."""
    return army_cost_variants(data, [data.fortress_resource[board.terrain[t]] for t in range(board.n)
                                     if buildings[t][FORTRESS] == seat])


def army_cost_variants(data: GraenalandData, fortress_resources: Iterable[int]) -> list[Cost]:
    """1 grain + 1 ore + 3 grain, then 1 grain + 1 ore + each resource shown beneath an own fortress
    (``fortress_resources``, in order; lines 165-168), each cost once."""
    out = [data.costs["army"]]
    base = data.costs["army_fortress_base"]
    for r in fortress_resources:
        c = list(base)
        c[r] += 1
        cost: Cost = (c[0], c[1], c[2], c[3])
        if cost not in out:
            out.append(cost)
    return out


def fee_recipients(state: GraenalandState, t: int, seat: int) -> list[int]:
    """A first village on a territory with a palisade costs one resource card to every player who
    already has a settlement there (line 203), clockwise from the builder."""
    if not state.public[t][PALISADE] or settlements_on(state, t, seat) > 0:
        return []
    n = state.n_players
    order = [(seat + i) % n for i in range(1, n)]
    return [p for p in order if settlements_on(state, t, p) > 0]


def payment_options(state: GraenalandState, board: Board, data: GraenalandData, seat: int, kind: str,
                    t: int, need: Cost | None = None) -> list[Pay]:
    """Ways for ``seat`` to pay for ``kind`` at ``t`` (or the remainder ``need`` of a joint building);
    for a village behind a palisade, only those leaving enough resource cards for the fee."""
    hand = hand_counts(state, data, seat)
    sup = supply_pairs(state, data, seat)
    markets = len(markets_available(state, seat))
    variants = (need,) if need is not None else tuple(cost_variants(state, board, data, seat, kind, t))
    fee = len(fee_recipients(state, t, seat)) if kind == "village" else 0
    return list(_payment_list(variants, hand, sup, markets, fee))


@lru_cache(maxsize=100_000)
def _payment_list(variants: tuple[Cost, ...], hand: Hand, sup: tuple[tuple[int, int], ...], markets: int,
                  fee: int) -> tuple[Pay, ...]:
    """``payment_options`` for a purse: the ways to pay any of the cost ``variants`` (each way once, with
    its fewest marketplaces) that leave ``fee`` resource cards, sorted."""
    seen: dict[tuple, Pay] = {}
    for cost in variants:
        for pay in payments(cost, hand, sup, markets):
            if fee and sum(hand) - sum(pay.resources) < fee:
                continue
            key = (pay.resources, pay.supplies)
            if key not in seen or pay.markets < seen[key].markets:
                seen[key] = pay
    return tuple(sorted(seen.values()))


# --------------------------------------------------------------------------- actions


def action_options(state: GraenalandState, board: Board, data: GraenalandData, seat: int) -> list[Action]:
    """The builder's actions now (lines 125-212, 233-237, 300-304): the candidates that need no payment
    or can be paid."""
    purse = _purse(state, data, seat)
    hand, sup, _ = purse
    if sum(hand) + 2 * len(sup) < _cheapest(data):  # a unit of cost takes a card or a supply symbol
        return _candidates(state, board, data, seat, _none_payable)
    known: dict = {}
    return _candidates(state, board, data, seat,
                       lambda kind, t: _payable(state, board, data, seat, purse, kind, t, known))


def action_allowed(state: GraenalandState, board: Board, data: GraenalandData, seat: int, choice: object
                   ) -> Action | None:
    """The action of ``action_options`` equal to ``choice``, or None; only its own payment is checked.

    An action is a tuple whose first field is its kind, so only the candidates of ``choice``'s kind can
    equal it: those alone are listed (all of them for a choice that is not a tuple)."""
    only = choice[0] if isinstance(choice, tuple) and len(choice) == len(END) and isinstance(choice[0], str) \
        else None
    if only is not None and only not in _KINDS:
        return None  # no candidate has this kind
    for action in _candidates(state, board, data, seat, _any_payable, only):
        if action == choice:
            if action.kind in _PAID and not _payable(state, board, data, seat, _purse(state, data, seat),
                                                     action.kind, action.territory, {}):
                return None
            return action
    return None


_PAID = frozenset(("village", *BUILDINGS, "army", *PUBLIC))  # the actions that must be paid for


def _any_payable(kind: str, t: int) -> bool:
    return True


def _none_payable(kind: str, t: int) -> bool:
    return False


@lru_cache(maxsize=8)
def _cheapest(data: GraenalandData) -> int:
    """The fewest units any build costs: a village on any piece (line 144), a building, an army step
    (1 grain + 1 ore + a fortress's resource at the least, lines 165-168) or a public building."""
    costs = [sum(p.village_cost) for p in data.pieces.values()]
    costs += [sum(data.costs[kind]) for kind in (*BUILDINGS, "army", *PUBLIC)]
    return min(costs + [sum(data.costs["army_fortress_base"]) + 1])


Purse = tuple[Hand, tuple[tuple[int, int], ...], int]


def _purse(state: GraenalandState, data: GraenalandData, seat: int) -> Purse:
    """What the builder pays with: resource cards by type, supply pairs, marketplaces open to it."""
    markets = len(markets_available(state, seat))
    return hand_counts(state, data, seat), supply_pairs(state, data, seat), markets


def _payable(state: GraenalandState, board: Board, data: GraenalandData, seat: int, purse: Purse,
             kind: str, t: int, known: dict) -> bool:
    """Whether ``payment_options`` lists a way to pay for ``kind`` at ``t`` (one leaving the palisade
    fee's cards, line 203); ``known`` remembers the answers for this purse by cost and fee, and by kind
    where the cost is the same everywhere."""
    fee = 0
    if kind == "village":
        fee = len(fee_recipients(state, t, seat))
        key: object = (board.village_cost[t], fee)
    else:
        key = kind
    ok = known.get(key)
    if ok is None:
        hand, sup, markets = purse
        for cost in cost_variants(state, board, data, seat, kind, t):
            ok = known.get((cost, fee))
            if ok is None:
                ok = known[cost, fee] = can_pay(cost, hand, sup, markets, fee)
            if ok:
                break
        known[key] = ok
    return bool(ok)


_action = cache(Action)  # the same immutable Action for the same fields: cheaper than making one


def _candidates(state: GraenalandState, board: Board, data: GraenalandData, seat: int,
                payable: Callable[[str, int], bool], only: object = None) -> list[Action]:
    """The builder's actions now, those that must be paid for (``_PAID``) only where ``payable``; with
    ``only`` a kind, just that kind's (in the same order)."""
    out: list[Action] = []
    offer = state.offer_active
    basic = not state.final and not offer
    every = only is None
    if basic and not state.supply_taken and (every or only == "supply"):
        out.extend(_action("supply", -1, i) for i in range(len(state.supply_row)))
    villages, buildings, public, tokens = state.villages, state.buildings, state.public, state.tokens
    own = [t for t in range(board.n) if villages[t][seat] or seat in buildings[t]]
    if state.houses[seat] > 0:
        _settlements(state, board, seat, own, payable, only, out)
    if (every or only == "army") and state.army[seat] < data.army_max and payable("army", -1):  # 163-169
        out.append(_action("army"))
    if not state.final and (every or only in PUBLIC):  # no public buildings in the final phases (line 237)
        for t in own:  # line 175, 177
            built = public[t]
            out.extend(_action(name, t) for k, name in enumerate(PUBLIC)
                       if not built[k] and tokens[k] > 0 and (every or name == only) and payable(name, t))
    if basic and not state.joint_used:  # one joint proposal per round (line 207)
        if every or only == "joint":
            for t in own:
                built = public[t]
                out.extend(_action("joint", t, k) for k in range(len(PUBLIC))
                           if not built[k] and tokens[k] > 0)
        if (every or only == "offer") and state.rules.get("five_player_offer") and state.n_players == 5:
            out.extend(_action("offer", -1, p) for p in range(state.n_players) if p != seat)  # lines 298-304
    if (every or only == "end") and (not basic or state.supply_taken or not state.supply_row):  # line 132
        out.append(END)
    return out


def _settlements(state: GraenalandState, board: Board, seat: int, own: list[int],
                 payable: Callable[[str, int], bool], only: object, out: list[Action]) -> None:
    """``_candidates``' villages (next to the builder's own territories, line 143) and buildings (on a
    territory with its village, lines 151-154), added to ``out``."""
    if only is None or only == "village":
        near = set(own)
        for t in own:
            near |= board.adjacent[t]
        out.extend(_action("village", t) for t in sorted(near) if payable("village", t))
    if only is None or only in BUILDINGS:
        villages, buildings = state.villages, state.buildings
        for t in range(board.n):
            if villages[t][seat] > 0 and board.allows_buildings(t):
                owners = buildings[t]
                out.extend(_action(name, t) for b, name in enumerate(BUILDINGS)
                           if owners[b] < 0 and (only is None or name == only) and payable(name, t))


#: every kind ``_candidates`` lists
_KINDS = frozenset(("supply", "village", *BUILDINGS, "army", *PUBLIC, "joint", "offer", "end"))


def remove_cards(state: GraenalandState, data: GraenalandData, seat: int, resources: tuple[int, ...]
                 ) -> list[int]:
    """Take cards of the given types from the seat's hand (the earliest held first)."""
    want = list(resources)
    taken, kept = [], []
    for card in state.hands[seat]:
        r = data.card_resource[card]
        if want[r] > 0:
            want[r] -= 1
            taken.append(card)
        else:
            kept.append(card)
    if any(want):
        raise ValueError(f"seat {seat} lacks cards {resources}")
    state.hands[seat] = kept
    return taken


def discard(state: GraenalandState, data: GraenalandData, cards: list[int]) -> None:
    """Used cards go to the discard pile of their terrain deck (line 126); an exhausted deck is formed
    again from its pile once the whole payment lies there."""
    for deck in sorted({data.card_deck[card] for card in cards}):
        production.discard(state, deck, [card for card in cards if data.card_deck[card] == deck])


def pay(state: GraenalandState, data: GraenalandData, seat: int, option: Pay) -> None:
    """Spend the cards of a payment; used supply cards leave the game to the supply discard pile."""
    discard(state, data, remove_cards(state, data, seat, option.resources))
    for pair in option.supplies:
        for i, card in enumerate(state.supplies[seat]):
            if tuple(sorted(data.supply_cards[card])) == tuple(pair):
                state.supply_discard.append(state.supplies[seat].pop(i))
                break
        else:
            raise ValueError(f"seat {seat} lacks supply card {pair}")
    available = markets_available(state, seat)
    state.markets_used.extend(available[: option.markets])


def place(state: GraenalandState, board: Board, data: GraenalandData, seat: int, kind: str, t: int
          ) -> tuple[int, int] | None:
    """Put the paid build on the board. Returns (hero, territory) when the seat may move its priest or
    skald to the new church or hall (line 157-158), else None."""
    if kind == "village":
        state.villages[t][seat] += 1
        state.houses[seat] -= 1
        state.stats["villages_built"][seat] += 1
        board_changed(state, seat)
        return None
    if kind == "army":
        state.army[seat] += 1
        state.stats["army_built"][seat] += 1
        board_changed(state, seat)
        return None
    if kind in BUILDINGS:
        b = BUILDINGS.index(kind)
        state.buildings[t][b] = seat
        state.houses[seat] -= 1
        board_changed(state, seat)
        state.stats["buildings_built"][seat] += 1
        if b in (CHURCH, HALL):
            return _hero_enters(state, seat, PRIEST if b == CHURCH else SKALD, t)
        return None
    k = PUBLIC.index(kind)
    state.public[t][k] = True
    state.tokens[k] -= 1
    state.stats["public_built"][seat] += 1
    return None


def _hero_enters(state: GraenalandState, seat: int, hero: int, t: int) -> tuple[int, int] | None:
    """A church (hall) just built at ``t`` brings the priest (skald) into play (lines 157-158, ruling G5).

    Out of play: "Place one of the priest tokens on the territory where you built your first church"
    at once, in this building phase; only "If another of your heroes is already there, you must wait"
    (``waiting``, entered by ``heroes.enter_waiting`` after a movement phase). A later church while it
    waits does not move that place. In play: "you may move it to that territory instead, if you wish —
    provided none of your other heroes is there": returns (hero, t) for that decision, else None."""
    mine = state.heroes[seat]
    if mine[hero] >= 0:
        return (hero, t) if t not in mine else None
    if state.waiting[seat][hero] < 0:
        if t in mine:
            state.waiting[seat][hero] = t
        else:
            mine[hero] = t
    return None


def fee_options(state: GraenalandState, data: GraenalandData, seat: int) -> list[Fee]:
    return [Fee(r) for r, c in enumerate(hand_counts(state, data, seat)) if c]


# --------------------------------------------------------------------------- joint public buildings


def contribution_options(state: GraenalandState, data: GraenalandData, seat: int, cost: Cost
                         ) -> list[Contribute]:
    """Resource cards a player may offer to a joint public building (line 210): at most the cost of
    each resource, gold (wild) up to the whole cost, never more cards than the cost in all."""
    hand = hand_counts(state, data, seat)
    total = sum(cost)
    most = (min(hand[0], cost[0]), min(hand[1], cost[1]), min(hand[2], cost[2]), min(hand[3], cost[3]),
            min(hand[GOLD], total))
    return list(_contributions(total, most))


@lru_cache(maxsize=4096)
def _contributions(total: int, most: tuple[int, ...]) -> tuple[Contribute, ...]:
    """Every offer of up to ``most`` cards of each type and ``total`` cards in all."""
    return tuple(Contribute(v) for v in product(*(range(k + 1) for k in most))  # type: ignore[arg-type]
                 if sum(v) <= total)


def can_contribute(state: GraenalandState, data: GraenalandData, seat: int, cost: Cost) -> bool:
    """Whether ``contribution_options`` offers more than contributing nothing: the seat holds a card of
    a resource in the cost, or a gold card (line 210)."""
    hand = hand_counts(state, data, seat)
    return any(min(hand[r], cost[r]) for r in range(4)) or min(hand[GOLD], sum(cost)) > 0


def take_from_contributions(cost: Cost, offers: list[tuple[int, tuple[int, ...]]]
                            ) -> tuple[dict[int, tuple[int, ...]], Cost]:
    """Cards taken from each contributor (in the given order: exact resources, then gold for what is
    still missing) and the remainder the main player pays; surplus stays with its owner (line 211)."""
    need = list(cost)
    taken: dict[int, tuple[int, ...]] = {}
    for seat, offer in offers:
        t = [0, 0, 0, 0, 0]
        for r in range(4):
            t[r] = min(offer[r], need[r])
            need[r] -= t[r]
        t[GOLD] = min(offer[GOLD], sum(need))
        for _ in range(t[GOLD]):
            r = next(i for i in range(4) if need[i])
            need[r] -= 1
        if any(t):
            taken[seat] = tuple(t)
    return taken, (need[0], need[1], need[2], need[3])

"""Knarr's rules (knarr.md A.4-A.7) and the skáli/raid expansion (knarr-skali-expansion.txt).

Rulings (R1...) are in RULINGS.md; line references are to the expansion text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import chain, combinations, product
from typing import Any

from sim.errors import IllegalChoice
from sim.games.knarr.data import (
    BRACELET,
    CARD,
    COIN,
    COLOURS_COST,
    N_ASSETS,
    RAID,
    RECRUIT,
    RENEW,
    REP,
    ROW_EXPLORE_A,
    ROW_EXPLORE_B,
    ROW_RECRUIT_NEW,
    ROW_RECRUIT_OLD,
    SAME,
    VP,
    Gain,
    KnarrData,
)
from sim.games.knarr.setup import set_up
from sim.games.knarr.state import (
    AMULET,
    BONUS,
    CAULDRON,
    DISCARD,
    END,
    GOLDEN_BRACELET,
    HELMET,
    MEAD_CUP,
    OVER,
    PASS,
    SILVER_COINS,
    SKIP,
    TURN,
    WEATHERVANE,
    KnarrState,
    Option,
)


def skali(state: KnarrState) -> bool:
    return bool(state.rules.get("skali"))


# --------------------------------------------------------------------------- set-up


def new_game(data: KnarrData, n: int, rules: dict[str, Any], seed: int) -> KnarrState:
    """Set-up (``sim.games.knarr.setup.set_up``: knarr.md A.4, knarr-skali-expansion.txt:5-16, A.7), then
    the first player's turn."""
    state = set_up(data, n, rules, seed)
    start_turn(state, data)
    return state


# --------------------------------------------------------------------------- assets


def cap(state: KnarrState, data: KnarrData, asset: int) -> int:
    setup = data.setup
    if asset == RECRUIT:
        return int(setup["cap_recruit"])
    if asset == BRACELET:
        return int(setup["cap_bracelet"])
    if asset == REP:
        return int(setup["reputation_max"])
    if asset == COIN:
        return int(setup["coins_max"])
    return 10**9


def draw(state: KnarrState) -> int:
    """Top Viking of the deck; an empty deck is rebuilt from the shuffled discard pile (A.5). -1 if none."""
    if not state.deck and state.discard:
        state.deck, state.discard = state.discard, []
        state.rng.shuffle(state.deck)
    return state.deck.pop() if state.deck else -1


def add_vp(state: KnarrState, data: KnarrData, seat: int, n: int) -> None:
    """Every VP change of the game goes through here: VP never below 0 (A.5), and knarr.md A.6 "The end is
    triggered when a player reaches or passes 40 VP" the moment a score gets there, even when the same turn
    later takes it below 40 again (a -1 VP Building, a raid loss)."""
    vp = max(0, state.vp[seat] + n)
    state.vp[seat] = vp
    if vp >= int(data.setup["end_vp"]):
        state.end_triggered = True


def gain(state: KnarrState, data: KnarrData, seat: int, g: Gain, times: int = 1) -> None:
    """Apply a gain ``times`` over; caps lose the excess (A.5), VP through ``add_vp``."""
    if not any(g):
        return
    expansion = skali(state)
    for asset in range(N_ASSETS):
        n = g[asset] * times
        if not n:
            continue
        if asset == VP:
            add_vp(state, data, seat, n)
        elif asset == BRACELET:
            state.bracelets[seat] = max(0, min(cap(state, data, BRACELET), state.bracelets[seat] + n))
        elif asset == RECRUIT:
            state.recruits[seat] = max(0, min(cap(state, data, RECRUIT), state.recruits[seat] + n))
        elif asset == REP:
            state.rep[seat] = max(0, min(cap(state, data, REP), state.rep[seat] + n))
        elif asset == CARD:
            for _ in range(n):
                card = draw(state)
                if card < 0:
                    break  # ruling R5: nothing to draw, the card asset is lost
                state.crews[seat][data.viking_colour[card]].append(card)
        elif asset == COIN and expansion:
            state.coins[seat] = max(0, min(cap(state, data, COIN), state.coins[seat] + n))
        elif asset == RAID and expansion:
            for _ in range(n):
                take_raid(state, seat)
        elif asset == RENEW and expansion:
            state.renewal[seat] = True


def take_raid(state: KnarrState, seat: int) -> None:
    """knarr-skali-expansion.txt:45 from the board; ruling R12: then the reserve (BGA); else nothing."""
    if state.raid_board > 0:
        state.raid_board -= 1
    elif state.raid_reserve > 0:
        state.raid_reserve -= 1
    else:
        return
    state.raids[seat] += 1


def crew_counts(state: KnarrState, seat: int) -> list[int]:
    return [len(col) for col in state.crews[seat]]


def trade_rows(state: KnarrState, data: KnarrData, seat: int) -> list[tuple[Gain, Gain, Gain]]:
    rows = [data.ship[str(state.rules.get("ship", "normal"))]]
    covered = state.covered[seat]
    rows.extend(data.destinations[d].row for d in state.owned[seat] if d not in covered)
    return rows


# --------------------------------------------------------------------------- turn flow


def start_turn(state: KnarrState, data: KnarrData) -> None:
    """A.5 step 1: reputation income."""
    seat = state.current
    income = 0
    for threshold, vp in data.setup["reputation_income"]:
        if state.rep[seat] >= threshold:
            income = vp
    if income:
        add_vp(state, data, seat, income)
    state.acted = state.traded = state.developed = False
    state.phase = TURN


def end_turn(state: KnarrState, data: KnarrData) -> None:
    """The raid of line 45, then the next seat; A.6: once the end is triggered (``add_vp``) the round is
    finished."""
    if skali(state) and state.raid_board == 0:
        raid(state, data)
    state.current = (state.current + 1) % state.n_players
    if state.current == 0:
        if state.end_triggered:  # A.6: the round is finished, then the game ends
            state.phase = OVER
            finish(state, data)
            return
        state.round += 1
    start_turn(state, data)


def village_gain(state: KnarrState, data: KnarrData, seat: int, row: int) -> None:
    """knarr-skali-expansion.txt:22,34: after an action, the skáli row plus every Building's row."""
    gain(state, data, seat, data.skali_rows[row])
    for b in state.buildings[seat]:
        gain(state, data, seat, data.buildings[b].rows[row])
    if state.n_players == 2:
        gain(state, data, seat, data.special_rows[row])


def raid(state: KnarrState, data: KnarrData) -> None:
    """knarr-skali-expansion.txt:45-51."""
    n = state.n_players
    most, fewest = max(state.raids), min(state.raids)
    winners = [s for s in range(n) if state.raids[s] == most]
    losers = [s for s in range(n) if state.raids[s] == fewest]
    if most == fewest:
        rule = state.rules.get("raid_all_tied", "both") if n > 2 else "both"
        if rule == "most":
            losers = []
    for s in winners:
        gain(state, data, s, data.skali_most)
        for b in state.buildings[s]:
            gain(state, data, s, data.buildings[b].most_raid)
        state.stats["raids_won"][s] += 1
    for s in losers:
        gain(state, data, s, data.skali_fewest)
        for b in state.buildings[s]:
            gain(state, data, s, data.buildings[b].fewest_raid)
        state.stats["raids_lost"][s] += 1
    outcome = [int(s in winners) - int(s in losers) for s in range(n)]
    state.raid_log.append((state.round, state.current, *outcome))
    tied = most == fewest
    for s in range(n):
        if s in winners:
            back = state.raids[s]  # line 47: return all
        elif s in losers and not (n == 2 and not tied):
            back = 0  # line 48: keep
        else:
            back = min(1, state.raids[s])  # line 49; line 51: the 2-player loser returns 1
        state.raids[s] -= back
        state.raid_board += back


def refill_board(state: KnarrState, data: KnarrData, slot: int) -> None:
    card = draw(state)
    if card < 0:
        state.pending_refill.append(slot)
    else:
        state.board[slot] = card


def refill_destination(state: KnarrState, slot: int) -> None:
    pile = state.deck_a if slot < 3 else state.deck_b
    state.visible[slot] = pile.pop() if pile else -1


def discard_movers(state: KnarrState) -> list[int]:
    """A.5 'Empty Viking deck': the player(s) with the most Vikings in front of them discard one."""
    sizes = [sum(crew_counts(state, s)) for s in range(state.n_players)]
    most = max(sizes)
    return [] if most == 0 else [s for s in range(state.n_players) if sizes[s] == most]


def settle_refills(state: KnarrState) -> None:
    """After a step: a pending board refill opens the discard step (or waits if no Viking is anywhere)."""
    if state.pending_refill and state.phase != OVER:
        if discard_movers(state):
            if state.phase != DISCARD:
                state.resume = state.phase
            state.phase = DISCARD
        else:
            state.pending_refill.clear()  # ruling R6: nothing anywhere to draw, the slot stays empty


def to_move(state: KnarrState) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == DISCARD:
        return tuple(discard_movers(state))
    return (state.current,)


# --------------------------------------------------------------------------- options


def payments(data: KnarrData, counts: Sequence[int], recruits: int, dest: int) -> list[tuple[int, ...]]:
    """Ways to pay a destination: cards per colour plus recruits covering missing cards 1:1 (A.5 Explore).

    In order: colour 0's count outermost, each count ascending.  A cost the crew and the recruits cannot
    cover gives no payment (checked before anything is enumerated).  Memoised on the cost, the counts
    and the recruits."""
    d = data.destinations[dest]
    return list(_payments(d.cost_kind, d.cost, d.cost_n, tuple(counts), recruits))


@lru_cache(maxsize=1 << 16)
def _payments(
    kind: int, cost: tuple[int, ...], cost_n: int, counts: tuple[int, ...], recruits: int
) -> tuple[tuple[int, ...], ...]:
    if kind == COLOURS_COST:
        missing = 0
        for need, have in zip(cost, counts, strict=True):
            if need > have:
                missing += need - have
        if missing > recruits:
            return ()
        total = sum(cost)
        ranges = [
            range(max(0, need - recruits), min(have, need) + 1) if need else _NOTHING
            for need, have in zip(cost, counts, strict=True)
        ]
        return tuple([(*pay, r) for pay in product(*ranges) if (r := total - sum(pay)) <= recruits])
    out: list[tuple[int, ...]] = []
    if kind == SAME:
        for c in range(5):
            for k in range(max(1, cost_n - recruits), min(counts[c], cost_n) + 1):
                pay = [0] * 5
                pay[c] = k
                out.append((*pay, cost_n - k))
        if recruits >= cost_n:
            out.append((0, 0, 0, 0, 0, cost_n))
    else:  # DIFF: n cards of n different colours
        held = [c for c in range(5) if counts[c]]
        for k in range(max(0, cost_n - recruits), min(len(held), cost_n) + 1):
            for chosen in combinations(held, k):
                pay = [0] * 5
                for c in chosen:
                    pay[c] = 1
                out.append((*pay, cost_n - k))
    return tuple(out)


_NOTHING = range(1)  # a colour a cost does not ask for: 0 cards of it


def recruit_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """One Recruit per distinct Viking in hand (colour and asset) and board slot it may take: the slot of
    its colour, any slot when a recruit can be spent or the Cauldron makes it free (A.5 Recruit), none
    when its colour's slot is empty."""
    out: list[Option] = []
    seen = set()
    crew = state.crews[seat]
    colours, assets = data.viking_colour, data.viking_asset
    board = state.board
    open_slots = [slot for slot in range(5) if board[slot] >= 0]
    most = cap(state, data, RECRUIT)
    held = state.recruits[seat]
    cauldron = CAULDRON in state.artifacts
    for card in state.hands[seat]:
        c = colours[card]
        key = (c, assets[card])
        if key in seen:
            continue
        seen.add(key)
        free_any = cauldron and len(crew[c]) == 1
        gained = (assets[card] == RECRUIT) + sum(assets[x] == RECRUIT for x in crew[c])
        if free_any or min(most, held + gained) >= 1:
            out.extend([_new(Option, ("recruit", card, slot, (), ())) for slot in open_slots])
        elif board[c] >= 0:
            out.append(_new(Option, ("recruit", card, c, (), ())))
        if board[c] < 0 and not free_any:
            out.append(_new(Option, ("recruit", card, -1, (), ())))
    return out


_new = tuple.__new__  # an Option from a full tuple of its fields (positional construction costs more)


def column_choices(data: KnarrData, column: list[int], k: int) -> list[tuple[int, ...]]:
    """The distinct ways to discard ``k`` Vikings from one colour column (A.5 Explore: 'pay its cost by
    discarding Vikings from your crew zone'; ruling R4: the player chooses which).

    Cards of one column with the same asset are interchangeable (A.5 Recruit step 2 gains 'the asset of
    every card in that column'), so there is one choice per multiset of assets discarded, i.e. per
    column left behind. The representative cards are the last placed of each asset; a choice lists its
    cards by asset, then in the order placed.
    """
    if k == 0:
        return [()]
    return list(_column_choices(tuple(column), tuple([data.viking_asset[card] for card in column]), k))


@lru_cache(maxsize=1 << 16)
def _column_choices(column: tuple[int, ...], assets: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """``column_choices`` of a column of cards with these assets (memoised: the tuple returned is shared)."""
    groups: dict[int, list[int]] = {}
    for card, asset in zip(column, assets, strict=True):
        groups.setdefault(asset, []).append(card)
    piles = [groups[a] for a in sorted(groups)]
    out: list[tuple[int, ...]] = []

    def take(i: int, left: int, chosen: tuple[int, ...]) -> None:
        if left == 0:
            out.append(chosen)
            return
        if i == len(piles) or left > sum(len(p) for p in piles[i:]):
            return
        pile = piles[i]
        for t in range(min(left, len(pile)), -1, -1):
            take(i + 1, left - t, chosen + tuple(pile[len(pile) - t :]))

    take(0, k, ())
    return tuple(out)


def explore_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """One option per destination, count per colour and recruits (``payments``) and choice of the
    Vikings inside each column (``column_choices``, ruling R4)."""
    out = []
    crew = state.crews[seat]
    counts = tuple([len(col) for col in crew])
    r = state.recruits[seat]
    slots = [(i, d) for i, d in enumerate(state.visible) if d >= 0]
    slots += [(6 + i, d) for i, d in enumerate(state.reserved[seat])]
    choices: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    destinations = data.destinations
    for slot, dest in slots:
        d = destinations[dest]
        for pay in _payments(d.cost_kind, d.cost, d.cost_n, counts, r):
            per_colour = []
            for c in range(5):
                if pay[c]:
                    picks = choices.get((c, pay[c]))
                    if picks is None:
                        picks = choices[c, pay[c]] = column_choices(data, crew[c], pay[c])
                    per_colour.append(picks)
            if not per_colour:
                out.append(_new(Option, ("explore", slot, dest, pay, ())))
            elif len(per_colour) == 1:
                out.extend([_new(Option, ("explore", slot, dest, pay, cards)) for cards in per_colour[0]])
            else:
                for combo in product(*per_colour):
                    out.append(_new(Option, ("explore", slot, dest, pay, tuple(chain.from_iterable(combo)))))
    return out


def discard_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """A.5 'Empty Viking deck: ... each discard one of their choice' (ruling R4: one option per distinct
    Viking, i.e. per colour and asset; the representative is the last placed of that asset)."""
    return [
        Option("discard", c, cards[0])
        for c, col in enumerate(state.crews[seat])
        for cards in column_choices(data, col, 1)
    ]


def free_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    """Trade (A.5 step 3), Develop (line 20) and Renew (line 30), each once per turn."""
    out: list[Option] = []
    if not state.traded:
        out.extend(Option("trade", k) for k in range(1, min(3, state.bracelets[seat]) + 1))
    if skali(state):
        if not state.developed:
            out.extend(
                Option("develop", i)
                for i, b in enumerate(state.display)
                if b >= 0 and data.buildings[b].cost <= state.coins[seat]
            )
        if state.n_players == 2 and state.renewal[seat]:
            out.extend(renew_options(state))
    return out


def renew_options(state: KnarrState) -> list[Option]:
    """knarr-skali-expansion.txt:30 'Renew 1 or 2 of the 4 face-up Building cards ... slide the chosen
    card(s) under the deck, and reveal new cards to replace them' (ruling R19): every renewed card is
    replaced by a new one, so no more cards are renewed than the Building deck holds."""
    live = [i for i, b in enumerate(state.display) if b >= 0]
    out: list[Option] = []
    for k in range(1, min(2, len(state.building_deck)) + 1):
        out.extend(Option("renew", pay=slots) for slots in combinations(live, k))
    return out


def renew(state: KnarrState, seat: int, slots: tuple[int, ...]) -> None:
    """knarr-skali-expansion.txt:30 'flip the Renewal token to its used side, slide the chosen card(s) under
    the deck, and reveal new cards to replace them' (ruling R19): the new cards are the top cards of the deck
    as it stood before the renewed ones went under it."""
    new = [state.building_deck.pop() for _ in slots]
    for slot, card in zip(slots, new, strict=True):
        state.building_deck.insert(0, state.display[slot])
        state.display[slot] = card
    state.renewal[seat] = False


def options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    if state.phase == OVER or seat not in to_move(state):
        return []
    if state.phase == DISCARD:
        return discard_options(state, data, seat)
    if state.phase == BONUS:
        return bonus_options(state, data, seat)
    if state.acted:
        return [*free_options(state, data, seat), END]
    actions = recruit_options(state, data, seat) + explore_options(state, data, seat)
    if not actions:
        actions = [PASS]  # ruling R7: no Recruit or Explore is possible
    return actions + free_options(state, data, seat)


def bonus_options(state: KnarrState, data: KnarrData, seat: int) -> list[Option]:
    what = state.bonus[0]
    if what == "explore":
        return [*explore_options(state, data, seat), SKIP]
    if what == "recruit":
        return [*recruit_options(state, data, seat), SKIP]
    if what == "reserve":
        if len(state.reserved[seat]) >= 2:
            return [SKIP]
        return [*(Option("reserve", i, d) for i, d in enumerate(state.visible) if d >= 0), SKIP]
    if what == "swap":
        return [*(Option("swap", i) for i in range(5) if state.board[i] >= 0), SKIP]
    if what == "cover":
        return [
            *(
                Option("cover", i, d)
                for i, d in enumerate(state.owned[seat])
                if data.destinations[d].deck == "A" and d not in state.covered[seat]
            ),
            SKIP,
        ]
    raise AssertionError(what)


# --------------------------------------------------------------------------- apply


def _trade(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    trade(state, data, seat, option.a)


def _develop(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    """Buy the building at display slot ``a``; the slot is refilled from the building deck."""
    b = state.display[option.a]
    state.coins[seat] -= data.buildings[b].cost
    state.buildings[seat].append(b)
    state.display[option.a] = state.building_deck.pop() if state.building_deck else -1
    state.developed = True
    state.stats["buildings_bought"][seat] += 1


def _renew(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    renew(state, seat, option.pay)


def _end(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    end_turn(state, data)


def _pass(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    state.acted = True
    state.stats["passes"][seat] += 1


def _recruit(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    if state.phase == BONUS:
        state.bonus.pop(0)
    recruit(state, data, seat, option)


def _explore(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    if state.phase == BONUS:
        state.bonus.pop(0)
    explore(state, data, seat, option)


def _reserve(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    state.reserved[seat].append(option.b)
    refill_destination(state, option.a)
    state.bonus.pop(0)


def _swap(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    state.discard.append(state.board[option.a])
    state.board[option.a] = -1
    refill_board(state, data, option.a)
    state.bonus.pop(0)


def _cover(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    state.covered[seat].append(option.b)
    state.bonus.pop(0)
    state.bonus.insert(0, "recruit")


def _skip(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    state.bonus.pop(0)


#: what each kind of option does (``apply`` checks the option first, and settles the phase after)
ACTIONS: dict[str, Callable[[KnarrState, KnarrData, int, Option], None]] = {
    "trade": _trade,
    "develop": _develop,
    "renew": _renew,
    "end": _end,
    "pass": _pass,
    "recruit": _recruit,
    "explore": _explore,
    "reserve": _reserve,
    "swap": _swap,
    "cover": _cover,
    "skip": _skip,
}


def apply(state: KnarrState, data: KnarrData, seat: int, option: Any) -> None:
    """Check ``option`` against the seat's options and play it.  An option that is one of the very
    objects of the list ``Knarr.legal_options`` last gave this seat (``state.legal``: what the runner
    passes) is legal without enumerating the options again; any other is looked for among them."""
    kept, state.legal = state.legal, None
    ok = kept is not None and kept[0] == seat and any(o is option for o in kept[1])
    if not ok:
        try:
            ok = option in options(state, data, seat)
        except Exception:  # noqa: BLE001 - any comparison failure means the option is not ours
            ok = False
    if not ok:
        raise IllegalChoice(f"{option!r} is not a legal option now", seat=seat)
    option = Option(*option)
    ACTIONS[option.kind](state, data, seat, option)
    if state.phase != OVER:
        state.phase = BONUS if state.bonus else TURN
        settle_refills(state)
        if state.phase == TURN and state.acted and not free_options(state, data, seat):
            end_turn(state, data)  # nothing optional is left: the turn ends by itself
            settle_refills(state)


def apply_discards(state: KnarrState, data: KnarrData, choices: dict[int, Any]) -> None:
    state.legal = None
    movers = discard_movers(state)
    for seat in movers:
        if seat not in choices:
            raise IllegalChoice("every player with the most Vikings must discard one", seat=seat)
    picks = {}
    for seat, option in choices.items():
        if seat not in movers:
            raise IllegalChoice("not this player's decision", seat=seat)
        if option not in options(state, data, seat):
            raise IllegalChoice(f"{option!r} is not a legal option now", seat=seat)
        o = Option(*option)
        picks[seat] = (o.a, o.b)
    for seat, (colour, card) in picks.items():
        state.crews[seat][colour].remove(card)  # ruling R4: the Viking of their choice
        state.discard.append(card)
    slots, state.pending_refill = state.pending_refill, []
    state.phase = state.resume
    for slot in slots:
        refill_board(state, data, slot)
    settle_refills(state)
    if state.phase == TURN and state.acted and not free_options(state, data, state.current):
        end_turn(state, data)
        settle_refills(state)


def trade(state: KnarrState, data: KnarrData, seat: int, k: int) -> None:
    """A.5 step 3: k bracelets give columns 1..k of every trade row."""
    state.bracelets[seat] -= k
    state.traded = True
    state.stats["trades"][seat] += 1
    state.stats["bracelets_traded"][seat] += k
    for row in trade_rows(state, data, seat):
        for col in range(k):
            gain(state, data, seat, row[col])


def recruit(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    """A.5 Recruit: play, gain the whole column, take a board Viking, refill."""
    card, slot = option.a, option.b
    c = data.viking_colour[card]
    before = crew_counts(state, seat)
    state.hands[seat].remove(card)
    column = state.crews[seat][c]
    column.append(card)
    for x in column:
        g = [0] * N_ASSETS
        g[data.viking_asset[x]] = 1
        gain(state, data, seat, tuple(g))
    if slot >= 0:
        free = slot == c or (CAULDRON in state.artifacts and before[c] == 1)
        if not free:
            state.recruits[seat] -= 1
        state.hands[seat].append(state.board[slot])
        state.board[slot] = -1
        refill_board(state, data, slot)
    state.acted = True
    state.stats["recruits_played"][seat] += 1
    new_colour = before[c] == 0
    if skali(state):
        village_gain(state, data, seat, ROW_RECRUIT_NEW if new_colour else ROW_RECRUIT_OLD)
    after_action(state, data, seat, before)
    arts = state.artifacts
    if arts:
        n = len(column)
        if SILVER_COINS in arts and n > 3:
            # A.7 'you recruit a Viking beyond the 3rd of one colour | +1 VP for each such Viking': +1 per
            # such recruit (ruling R16; BGA ArtifactManager::checkArtifact `[VP => 1]`). Switch
            # silver_coins=column: +1 per Viking beyond the 3rd in the column (4th +1, 5th +2, ...).
            add_vp(state, data, seat, n - 3 if state.rules.get("silver_coins", "flat") == "column" else 1)
        if GOLDEN_BRACELET in arts and n == 3:
            state.bonus.append("reserve")


def explore(state: KnarrState, data: KnarrData, seat: int, option: Option) -> None:
    """A.5 Explore: pay with the chosen Vikings (ruling R4; recruits cover missing cards 1:1), take the
    destination, gain, refill. Helmet (A.7, ruling R16): a Land of Influence placed directly onto a Trading
    Land gives an extra Recruit."""
    slot, dest, pay = option.a, option.b, option.pay
    before = crew_counts(state, seat)
    for card in option.cards:  # ruling R4: the Vikings of the player's choice
        state.crews[seat][data.viking_colour[card]].remove(card)
        state.discard.append(card)
    state.recruits[seat] -= pay[5]
    if slot >= 6:
        state.reserved[seat].pop(slot - 6)
    else:
        refill_destination(state, slot)
    state.owned[seat].append(dest)
    d = data.destinations[dest]
    gain(state, data, seat, d.gain)
    state.acted = True
    state.stats["explores"][seat] += 1
    if skali(state):
        village_gain(state, data, seat, ROW_EXPLORE_B if d.deck == "B" else ROW_EXPLORE_A)
    after_action(state, data, seat, before)
    arts = state.artifacts
    if MEAD_CUP in arts:
        state.bonus.append("swap")
    if HELMET in arts and d.deck == "B":
        if state.rules.get("helmet", "stack") == "cover":
            state.bonus.append("cover")  # ruling R16, switch helmet=cover
        elif len(state.owned[seat]) >= 2 and data.destinations[state.owned[seat][-2]].deck == "A":
            state.bonus.append("recruit")  # ruling R16: placed directly onto a Trading Land (BGA)


def after_action(state: KnarrState, data: KnarrData, seat: int, before: list[int]) -> None:
    """A.7: line artifacts trigger after the action when the 5-colour minimum went up."""
    if not state.artifacts:
        return
    if min(crew_counts(state, seat)) > min(before):
        if AMULET in state.artifacts:
            g = [0] * N_ASSETS
            g[BRACELET] = g[RECRUIT] = g[REP] = 1
            gain(state, data, seat, tuple(g))
        if WEATHERVANE in state.artifacts:
            state.bonus.append("explore")


def final_scores(state: KnarrState) -> list[float]:
    return [float(v) for v in state.vp]


def tiebreak(state: KnarrState) -> list[int]:
    """A.6: recruits + bracelets; ruling R14 switch adds coins and raid tokens."""
    out = [state.recruits[s] + state.bracelets[s] for s in range(state.n_players)]
    if skali(state) and state.rules.get("skali_end") == "tiebreak_coins":
        out = [t + state.coins[s] + state.raids[s] for s, t in enumerate(out)]
    return out


def finish(state: KnarrState, data: KnarrData) -> None:
    """Optional final raid (ruling R14)."""
    if skali(state) and state.rules.get("skali_end") == "final_raid":
        raid(state, data)

"""A Knarr choice in words, read from the state before the choice is applied: the Viking
cards, destinations and Buildings by colour, asset, deck and printed id (``words``).

``describe(state, seat, option)`` says what ``seat`` does ("plays the red Viking (VP) into the red
column ..."); the replay viewer names the seat.  Every option kind of ``state.KINDS`` is covered.
"""

from __future__ import annotations

from collections.abc import Callable

from sim.games.knarr import rules
from sim.games.knarr.data import (
    COLOURS,
    N_ASSETS,
    ROW_EXPLORE_A,
    ROW_EXPLORE_B,
    ROW_RECRUIT_NEW,
    ROW_RECRUIT_OLD,
    Gain,
    KnarrData,
)
from sim.games.knarr.state import BONUS, CAULDRON, KINDS, KnarrState, Option
from sim.games.knarr.words import (
    BONUSES,
    building_text,
    destination_name,
    destination_text,
    gain_text,
    viking_text,
)


def describe(state: KnarrState, seat: int, option: object) -> str:
    """What ``seat`` does by choosing ``option`` in ``state`` (before it is applied), in words."""
    o = option if type(option) is Option else Option(*option)  # type: ignore[misc]
    text = _KINDS[o.kind](state, seat, o)
    if state.phase == BONUS and state.bonus and o.kind in ("recruit", "explore"):
        text += f" ({BONUSES[state.bonus[0]][0]} bonus)"
    return text


def _sum(gains: list[Gain]) -> Gain:
    return tuple(sum(g[a] for g in gains) for a in range(N_ASSETS))


def _one(asset: int) -> Gain:
    return tuple(int(a == asset) for a in range(N_ASSETS))


def _village(state: KnarrState, seat: int, row: int) -> str:
    """The village activation after an action (knarr-skali-expansion.txt:22, 34-39), or nothing without
    the expansion."""
    if not rules.skali(state):
        return ""
    data = state.data
    gains = [data.skali_rows[row], *(data.buildings[b].rows[row] for b in state.buildings[seat])]
    if state.n_players == 2:
        gains.append(data.special_rows[row])
    return f"; village: {gain_text(_sum(gains))}"


def _recruit(state: KnarrState, seat: int, o: Option) -> str:
    """A.5 Recruit: play a hand Viking into its colour column, gain every asset of the column, take a
    board Viking (the slot of its colour free, another for a recruit, ruling R3; Cauldron A.7)."""
    data = state.data
    card, slot = o.a, o.b
    c = data.viking_colour[card]
    column = [*state.crews[seat][c], card]
    gains = _sum([_one(data.viking_asset[x]) for x in column])
    text = (
        f"recruits: plays the {viking_text(data, card)} into the {COLOURS[c]} column "
        f"(Viking {len(column)} there), gaining {gain_text(gains)}"
    )
    if slot < 0:
        text += f"; takes nothing from the board (the {COLOURS[c]} slot is empty)"
    else:
        free = slot == c or (CAULDRON in state.artifacts and len(column) == 2)
        paid = "" if free else ", spending 1 recruit"
        text += (
            f"; takes the {viking_text(data, state.board[slot])} from the {COLOURS[slot]} board slot{paid}"
        )
    row = ROW_RECRUIT_OLD if len(column) > 1 else ROW_RECRUIT_NEW
    return text + _village(state, seat, row)


def _payment(data: KnarrData, o: Option) -> str:
    """The Vikings discarded (ruling R4: the player's choice) and the recruits spent (A.5 Explore)."""
    parts = [f"the {viking_text(data, card)}" for card in o.cards]
    if o.pay[5]:
        parts.append(f"{o.pay[5]} recruit{'s' if o.pay[5] > 1 else ''}")
    if not parts:
        return "paying nothing"
    return "paying " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])


def _explore(state: KnarrState, seat: int, o: Option) -> str:
    """A.5 Explore: pay a destination's cost, take it and its gain (from the display or, Golden Bracelet
    A.7, the seat's reserve)."""
    data = state.data
    where = "from the reserve" if o.a >= 6 else "from the display"
    deck = data.destinations[o.b].deck
    row = ROW_EXPLORE_B if deck == "B" else ROW_EXPLORE_A
    return f"explores {destination_text(data, o.b)} {where}, {_payment(data, o)}" + _village(state, seat, row)


def _trade(state: KnarrState, seat: int, o: Option) -> str:
    """A.5 step 3: k bracelets give columns 1..k of every trade row (the ship and each destination's)."""
    rows = rules.trade_rows(state, state.data, seat)
    gains = _sum([row[col] for row in rows for col in range(o.a)])
    columns = "column 1" if o.a == 1 else f"columns 1-{o.a}"
    where = "the ship's trade row" if len(rows) == 1 else f"the {len(rows)} trade rows (ship, destinations)"
    return f"trades {o.a} bracelet{'s' if o.a > 1 else ''}: {columns} of {where}, gaining {gain_text(gains)}"


def _develop(state: KnarrState, seat: int, o: Option) -> str:
    """knarr-skali-expansion.txt:24: buy a face-up Building with coins."""
    return f"develops the village: buys {building_text(state.data, state.display[o.a])}"


def _renew(state: KnarrState, seat: int, o: Option) -> str:
    """knarr-skali-expansion.txt:30 (2 players): renewed Buildings go under the deck, new ones revealed."""
    names = " and ".join(building_text(state.data, state.display[slot]) for slot in o.pay)
    return f"renews {names}: under the Building deck, new ones revealed; the Renewal token is used"


def _discard(state: KnarrState, seat: int, o: Option) -> str:
    """A.5 'Empty Viking deck' (ruling R6): the players with the most Vikings each discard one."""
    return (
        f"discards the {viking_text(state.data, o.b)} from the {COLOURS[o.a]} column "
        "(the Viking deck and discard pile are empty)"
    )


def _reserve(state: KnarrState, seat: int, o: Option) -> str:
    """Golden Bracelet (A.7): reserve a visible destination, to explore later."""
    return f"reserves {destination_text(state.data, o.b)} (Golden Bracelet)"


def _swap(state: KnarrState, seat: int, o: Option) -> str:
    """Mead Cup (A.7): discard a board Viking, the slot refilled from the deck."""
    card = state.board[o.a]
    return (
        f"discards the {viking_text(state.data, card)} from the {COLOURS[o.a]} board slot, "
        "refilled from the deck (Mead Cup)"
    )


def _cover(state: KnarrState, seat: int, o: Option) -> str:
    """Helmet, ``helmet=cover`` (ruling R16): cover an own Trading Land, whose trade row stops counting."""
    return (
        f"covers own {destination_name(state.data, o.b)} with the Land of Influence just explored "
        "(Helmet): its trade row stops counting, an extra Recruit follows"
    )


def _skip(state: KnarrState, seat: int, o: Option) -> str:
    """Declines the pending artifact bonus (ruling R16: the bonuses are optional)."""
    if state.bonus:
        artifact, bonus = BONUSES[state.bonus[0]]
        return f"declines the {artifact} bonus ({bonus})"
    return "declines the bonus"


_KINDS: dict[str, Callable[[KnarrState, int, Option], str]] = {
    "recruit": _recruit,
    "explore": _explore,
    "trade": _trade,
    "develop": _develop,
    "renew": _renew,
    "end": lambda state, seat, o: "ends the turn",
    "pass": lambda state, seat, o: "passes the action: no Recruit or Explore is possible (ruling R7)",
    "discard": _discard,
    "reserve": _reserve,
    "swap": _swap,
    "cover": _cover,
    "skip": _skip,
}
assert tuple(_KINDS) == KINDS

"""Knarr's components in words, shared by the picture (``picture``) and the choices in words (``describe``).

Names come from the data (``data.py``: colours, assets, decks, ids) and the rules' artifact names
(``state.ARTIFACTS``, knarr.md A.7); nothing here changes a rule.
"""

from __future__ import annotations

from sim.games.knarr.data import (
    ASSETS,
    COLOURS,
    COLOURS_COST,
    DIFF,
    SAME,
    Building,
    Destination,
    Gain,
    KnarrData,
)
from sim.games.knarr.state import ARTIFACTS

#: each asset in a sentence (singular, plural)
ASSET_WORDS: dict[str, tuple[str, str]] = {
    "vp": ("VP", "VP"),
    "bracelet": ("bracelet", "bracelets"),
    "recruit": ("recruit", "recruits"),
    "rep": ("reputation", "reputation"),
    "card": ("card from the deck", "cards from the deck"),
    "coin": ("coin", "coins"),
    "raid": ("raid token", "raid tokens"),
    "renew": ("Renewal token ready", "Renewal token ready"),
}
#: each asset on a small card (the picture's legend spells them out)
ASSET_SHORT: dict[str, str] = {
    "vp": "VP",
    "bracelet": "brc",
    "recruit": "rec",
    "rep": "rep",
    "card": "card",
    "coin": "coin",
    "raid": "raid",
    "renew": "renew",
}
#: the destination decks (knarr.md A.3): full name, short name
DECKS = {"A": ("Trading Land", "TL"), "B": ("Land of Influence", "LoI")}
#: the village rows (knarr-skali-expansion.txt:36-39), in ``data.ROW_*`` order: full, short
VILLAGE_ROWS = (
    ("explore a Land of Influence", "LoI"),
    ("explore a Trading Land", "TL"),
    ("recruit a colour held", "same"),
    ("recruit a new colour", "new"),
)
#: what each pending artifact bonus is (``state.bonus``; knarr.md A.7): the artifact, the bonus
BONUSES = {
    "explore": ("Weathervane", "an extra Explore"),
    "recruit": ("Helmet", "an extra Recruit"),
    "reserve": ("Golden Bracelet", "reserving a destination"),
    "swap": ("Mead Cup", "replacing a board Viking"),
    "cover": ("Helmet", "covering a Trading Land for an extra Recruit"),
}


def artifact_name(index: int) -> str:
    """``golden_bracelet`` -> ``Golden Bracelet`` (knarr.md A.7 table)."""
    return ARTIFACTS[index].replace("_", " ").title()


def gain_text(gain: Gain, short: bool = False) -> str:
    """``2 VP, bracelet, raid token``; ``-1 VP``; ``nothing`` for no gain (short: ``2 VP brc``)."""
    parts = []
    for asset, n in zip(ASSETS, gain, strict=True):
        if not n:
            continue
        if short:
            word = ASSET_SHORT[asset]
            parts.append(word if n == 1 else f"{n} {word}")
        else:
            one, many = ASSET_WORDS[asset]
            parts.append(one if n == 1 else f"{n} {many}")
    if not parts:
        return "–" if short else "nothing"
    return (" " if short else ", ").join(parts)


def viking_text(data: KnarrData, card: int) -> str:
    """``red Viking (reputation)``: a Viking card's colour and asset (knarr.md A.2)."""
    asset = ASSETS[data.viking_asset[card]]
    return f"{COLOURS[data.viking_colour[card]]} Viking ({ASSET_WORDS[asset][0]})"


def destination_name(data: KnarrData, index: int, short: bool = False) -> str:
    """``Trading Land 4`` / ``LoI 23``: the deck and the printed id (knarr.md A.3)."""
    d = data.destinations[index]
    return f"{DECKS[d.deck][1 if short else 0]} {d.id}"


def cost_text(d: Destination) -> str:
    """``3 different colours``, ``4 of one colour``, ``2 purple + 1 red``, ``one of each colour``
    (knarr.md A.3 costs)."""
    if d.cost_kind == DIFF:
        return f"{d.cost_n} different colours"
    if d.cost_kind == SAME:
        return f"{d.cost_n} of one colour"
    assert d.cost_kind == COLOURS_COST
    if d.cost == (1,) * len(COLOURS):
        return "one of each colour"
    return " + ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(d.cost) if n)


def row_text(d: Destination, short: bool = False) -> str:
    """The trade row, columns 1 / 2 / 3 (knarr.md A.5 step 3): ``– / VP / recruit``."""
    return " / ".join(gain_text(g, short) if any(g) else "–" for g in d.row)


def destination_text(data: KnarrData, index: int) -> str:
    """``Trading Land 4 (cost 3 different colours; gain bracelet; trade row VP / reputation / recruit)``."""
    d = data.destinations[index]
    return (
        f"{destination_name(data, index)} (cost {cost_text(d)}; gain {gain_text(d.gain)}; "
        f"trade row {row_text(d)})"
    )


def building_name(data: KnarrData, index: int) -> str:
    """``Building 12``: the printed id (knarr.md A.8 Building data)."""
    return f"Building {data.buildings[index].id}"


def building_effects(b: Building, short: bool = False) -> list[str]:
    """Its non-empty village rows and raid assets: ``TL: VP``, ``raid most: 2 VP`` (short) or
    ``explore a Trading Land: VP`` (knarr-skali-expansion.txt:34-39, 47-48)."""
    out = [
        f"{names[1 if short else 0]}: {gain_text(g, short)}"
        for names, g in zip(VILLAGE_ROWS, b.rows, strict=True)
        if any(g)
    ]
    if any(b.most_raid):
        out.append(f"raid most: {gain_text(b.most_raid, short)}")
    if any(b.fewest_raid):
        out.append(f"raid fewest: {gain_text(b.fewest_raid, short)}")
    return out


def building_text(data: KnarrData, index: int) -> str:
    """``Building 12 (cost 2 coins; recruit a colour held: VP; raid most: 2 VP)``."""
    b = data.buildings[index]
    effects = "; ".join(building_effects(b)) or "no effect"
    return f"{building_name(data, index)} (cost {b.cost} coin{'s' if b.cost != 1 else ''}; {effects})"

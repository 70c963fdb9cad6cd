"""Load and check Knarr's component data (``data/knarr.toml`` or a user's file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.datafile import (
    MAX_COUNT,
    array,
    boolean,
    entry,
    fail,
    integer,
    load_data_file,
    mapping,
    table,
    tables,
    text,
)

DEFAULT_PATH = Path(__file__).parent / "data" / "knarr.toml"
PLAYER_COUNTS = (2, 3, 4)
COLOURS = ("red", "yellow", "green", "blue", "purple")  # board slot order
LETTERS = "RYGBP"
ASSETS = ("vp", "bracelet", "recruit", "rep", "card", "coin", "raid", "renew")
VP, BRACELET, RECRUIT, REP, CARD, COIN, RAID, RENEW = range(8)
N_ASSETS = len(ASSETS)
#: cost kinds
DIFF, SAME, COLOURS_COST = 0, 1, 2
#: activation rows (knarr.md A.8 "Building cards")
ROW_EXPLORE_B, ROW_EXPLORE_A, ROW_RECRUIT_OLD, ROW_RECRUIT_NEW = range(4)

Gain = tuple[int, ...]  # one count per asset (N_ASSETS)
ZERO: Gain = (0,) * N_ASSETS


@dataclass(frozen=True, slots=True)
class Destination:
    """A destination card (knarr.md A.3; expansion ones A.8)."""

    id: int
    deck: str  # "A" Trading Land, "B" Land of Influence
    cost_kind: int  # DIFF, SAME or COLOURS_COST
    cost_n: int  # cards for DIFF/SAME
    cost: tuple[int, ...]  # per colour for COLOURS_COST
    gain: Gain
    row: tuple[Gain, Gain, Gain]
    expansion: bool


@dataclass(frozen=True, slots=True)
class Building:
    """A Building card of the skáli expansion (knarr.md A.8)."""

    id: int
    cost: int
    rows: tuple[Gain, Gain, Gain, Gain]
    most_raid: Gain
    fewest_raid: Gain


@dataclass(frozen=True, slots=True)
class KnarrData:
    """Components ready for the rules (see data/knarr.toml for where each value comes from)."""

    path: str
    sha1: str
    setup: dict[str, Any]  # values of every kind: read by key, converted where used
    ship: dict[str, tuple[Gain, Gain, Gain]]
    viking_colour: tuple[int, ...]  # card id -> colour
    viking_asset: tuple[int, ...]  # card id -> asset
    viking_min_players: tuple[int, ...]  # card id -> smallest player count using it
    destinations: tuple[Destination, ...]  # index = destination index used by the rules
    buildings: tuple[Building, ...]
    skali_rows: tuple[Gain, Gain, Gain, Gain]
    skali_most: Gain
    skali_fewest: Gain
    special_rows: tuple[Gain, Gain, Gain, Gain]
    reconstructed: tuple[str, ...]

    def deck_for(self, n_players: int) -> list[int]:
        """The Viking cards used with ``n_players`` players."""
        return [c for c, m in enumerate(self.viking_min_players) if m <= n_players]


#: a gain: an asset, or an asset times a whole number ("vp*5", "vp*-1")
GAIN_PATTERN = rf"(?:{'|'.join(ASSETS)})(?:\*-?[0-9]{{1,3}})?"
GAIN_SHAPE = f"an asset ({', '.join(ASSETS)}) or asset*N"
GAIN = text(pattern=GAIN_PATTERN, shape=GAIN_SHAPE)
GAINS = array(GAIN, max_size=20)
SLOT = text(pattern=GAIN_PATTERN, shape=GAIN_SHAPE, empty=True)
COST = text(
    pattern=r"diff[1-5]|same[1-9]|[RYGBP][1-9](?: [RYGBP][1-9])*",
    shape="diffN (N 1..5), sameN (N 1..9) or colour counts like 'P3 R2' (letters RYGBP)",
)
SETUP_LIMITS = {
    "hand_size": (1, MAX_COUNT),
    "crew_size": (1, len(COLOURS)),
    "recruits": (0, MAX_COUNT),
    "bracelets": (0, MAX_COUNT),
    "visible_trading": (0, 3),
    "visible_influence": (0, 3),
    "cap_recruit": (0, MAX_COUNT),
    "cap_bracelet": (0, MAX_COUNT),
    "end_vp": (1, MAX_COUNT),
    "reputation_max": (0, MAX_COUNT),
}
SKALI_VALUES = (
    "coins_start",
    "coins_max",
    "raid_each",
    "raid_board_extra",
    "raid_reserve",
    "building_display",
)
#: the data file, declared once (sim.datafile); what spans tables is checked in ``_build``
SCHEMA = table(
    {
        "setup": table(
            {
                **{k: entry(integer(lo, hi)) for k, (lo, hi) in SETUP_LIMITS.items()},
                "reputation_income": entry(array(array(integer(), 2))),
            }
        ),
        "ship": table({side: entry(array(SLOT, 3)) for side in ("normal", "advanced")}),
        "vikings": table(
            {
                c: table({"counts": mapping(ASSETS, array(integer(0, 99), 3, rising=True))}, sourced=True)
                for c in COLOURS
            }
        ),
        "destinations": tables(
            table(
                {
                    "id": integer(),
                    "deck": text(("A", "B")),
                    "cost": COST,
                    "gain": GAINS,
                    "row": array(SLOT, 3),
                },
                {"expansion": boolean()},
                sourced=True,
            )
        ),
        "buildings": tables(
            table(
                {
                    "id": integer(),
                    "cost": integer(),
                    "rows": array(GAINS, 4),
                    "most_raid": GAINS,
                    "fewest_raid": GAINS,
                },
                sourced=True,
            )
        ),
        "skali": table(
            {
                "rows": array(GAINS, 4),
                "most_raid": GAINS,
                "fewest_raid": GAINS,
                **{k: entry(integer()) for k in SKALI_VALUES},
            },
            sourced=("rows_", "raid_"),
        ),
        "special_building": table({"rows": array(GAINS, 4)}, sourced=True),
    }
)


def gain_of(names: list[str], where: str) -> Gain:
    """Asset counts of checked gain texts ("vp", "vp*5", "vp*-1")."""
    out = [0] * N_ASSETS
    for item in names:
        name, _, times = str(item).partition("*")
        if name not in ASSETS:
            fail(where, f"unknown asset {name!r}", ", ".join(ASSETS))
        out[ASSETS.index(name)] += int(times) if times else 1
    return tuple(out)


def _slots(row: list[str], where: str) -> tuple[Gain, ...]:
    """One gain per column ("" for nothing)."""
    return tuple(gain_of([c] if c else [], where) for c in row)


def _cost(text: str) -> tuple[int, int, tuple[int, ...]]:
    """A checked cost: (kind, cards, per-colour counts)."""
    if text.startswith("diff"):
        return DIFF, int(text[4:]), (0,) * 5
    if text.startswith("same"):
        return SAME, int(text[4:]), (0,) * 5
    counts = [0] * 5
    for part in text.split():
        counts[LETTERS.index(part[0])] += int(part[1:])
    return COLOURS_COST, sum(counts), tuple(counts)


def load(path: str | Path | None = None) -> KnarrData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, SCHEMA, _build)


def _build(doc: dict, path: Path, sha1: str, rec: list[str]) -> KnarrData:
    """Components for the rules from a checked document; checks what spans tables (in this order: the set-up,
    the ship, the Viking deck, the destinations, the buildings, the Skali)."""
    setup: dict[str, Any] = {key: item["value"] for key, item in doc["setup"].items()}
    _check_setup(doc["setup"])
    ship = {side: _slots(item["value"], f"ship.{side}") for side, item in doc["ship"].items()}
    colour, asset, min_players = _vikings(doc)
    dests = _destinations(doc["destinations"])
    buildings = _buildings(doc["buildings"])
    sk = doc["skali"]
    for key in SKALI_VALUES:
        setup[key] = sk[key]["value"]
    if sk["coins_start"]["value"] > sk["coins_max"]["value"]:
        fail("skali.coins_start", "is above skali.coins_max", "at most skali.coins_max")
    sp = doc["special_building"]
    return KnarrData(
        path=str(path),
        sha1=sha1,
        setup=setup,
        ship=ship,  # type: ignore[arg-type]
        viking_colour=tuple(colour),
        viking_asset=tuple(asset),
        viking_min_players=tuple(min_players),
        destinations=tuple(dests),
        buildings=tuple(buildings),
        skali_rows=tuple(gain_of(r, "skali.rows") for r in sk["rows"]),  # type: ignore[arg-type]
        skali_most=gain_of(sk["most_raid"], "skali.most_raid"),
        skali_fewest=gain_of(sk["fewest_raid"], "skali.fewest_raid"),
        special_rows=tuple(gain_of(r, "special_building.rows") for r in sp["rows"]),  # type: ignore[arg-type]
        reconstructed=tuple(rec),
    )


def _check_setup(setup: dict[str, Any]) -> None:
    """Reputation income thresholds rise; the starting recruits and bracelets are within their caps."""
    thresholds = [t for t, _ in setup["reputation_income"]["value"]]
    if any(b <= a for a, b in zip(thresholds, thresholds[1:], strict=False)):
        fail(
            "setup.reputation_income.value",
            f"thresholds {thresholds}",
            "[threshold, VP] pairs, thresholds rising",
        )
    for start, top in (("recruits", "cap_recruit"), ("bracelets", "cap_bracelet")):
        if setup[start]["value"] > setup[top]["value"]:
            fail(
                f"setup.{start}",
                f"{setup[start]['value']} is above setup.{top}",
                f"at most setup.{top}",
            )


def _vikings(doc: dict) -> tuple[list[int], list[int], list[int]]:
    """The Viking cards' (colour, asset, fewest players that use the card), from each colour's cumulative
    counts per player count; each player count's deck holds at least 5 cards more than its crews and hands."""
    colour, asset, min_players = [], [], []
    for cname in COLOURS:
        for aname, counts in doc["vikings"][cname]["counts"].items():
            prev = 0
            for players, count in zip(PLAYER_COUNTS, counts, strict=True):
                for _ in range(count - prev):
                    colour.append(COLOURS.index(cname))
                    asset.append(ASSETS.index(aname))
                    min_players.append(players)
                prev = count
    crew = doc["setup"]["crew_size"]["value"]
    per_seat = crew + doc["setup"]["hand_size"]["value"]
    for n in PLAYER_COUNTS:
        cards = [c for c, m in enumerate(min_players) if m <= n]
        colours = len({colour[c] for c in cards})
        if len(cards) < 5 + n * per_seat or colours < crew:
            fail(
                "vikings",
                f"the {n}-player deck has {len(cards)} cards in {colours} colours",
                f"at least 5 + {n} x (crew_size + hand_size) = {5 + n * per_seat} cards in {crew} colours",
            )
    return colour, asset, min_players


def _destinations(table: list[dict]) -> list[Destination]:
    """The destination cards, their costs and gains checked; each deck (A, B) holds 3 base cards or more."""
    dests = []
    for d in table:
        kind, n, counts = _cost(d["cost"])
        where = f"destinations.{d['id']}"
        dests.append(
            Destination(
                id=d["id"],
                deck=d["deck"],
                cost_kind=kind,
                cost_n=n,
                cost=counts,
                gain=gain_of(d["gain"], where),
                row=_slots(d["row"], where),  # type: ignore[arg-type]
                expansion=d.get("expansion", False),
            )
        )
    for key in ("A", "B"):
        if sum(d.deck == key and not d.expansion for d in dests) < 3:
            fail("destinations", f"deck {key} has fewer than 3 base destinations", "at least 3 per deck")
    return dests


def _buildings(table: list[dict]) -> list[Building]:
    """The expansion's buildings, their row and raid gains checked."""
    buildings = []
    for b in table:
        where = f"buildings.{b['id']}"
        buildings.append(
            Building(
                id=b["id"],
                cost=b["cost"],
                rows=tuple(gain_of(r, where) for r in b["rows"]),  # type: ignore[arg-type]
                most_raid=gain_of(b["most_raid"], where),
                fewest_raid=gain_of(b["fewest_raid"], where),
            )
        )
    return buildings

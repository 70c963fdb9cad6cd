"""Load and check Graenaland's component data (``data/graenaland.toml`` or a user's file).

Every value in the file is marked printed (with its rulebook line) or reconstructed (with the
reason); a problem is one ``SkaldError`` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.datafile import array, boolean, entry, fail, integer, load_data_file, mapping, table, tables, text

DEFAULT_PATH = Path(__file__).parent / "data" / "graenaland.toml"
PLAYER_COUNTS = (3, 4, 5)
#: resources (graenaland.txt:65; "stone" is ore, reference 1.3); GOLD is wild (line 127)
RESOURCES = ("grain", "cattle", "wood", "ore", "gold")
GRAIN, CATTLE, WOOD, ORE, GOLD = range(5)
#: terrain decks (graenaland.txt:34, 65)
TERRAINS = ("plains", "forest", "hills", "mountains")
PLAINS, FOREST, HILLS, MOUNTAINS = range(4)
#: what the main player can build (graenaland.txt:139-190)
BUILDINGS = ("fortress", "church", "hall")
PUBLIC = ("road", "yield", "market", "palisade")
GOALS = ("settlements", "territories", "largest", "buildings", "army")

Cost = tuple[int, int, int, int]  # grain, cattle, wood, ore (gold never appears in a cost)


@dataclass(frozen=True, slots=True)
class Piece:
    """One terrain piece (graenaland.txt:29, 144, 186)."""

    id: str
    mark: str
    terrain: int
    coastal: bool
    yield_resource: int
    village_cost: Cost


@dataclass(frozen=True, slots=True)
class VictoryCard:
    """A victory point card (advanced rules, graenaland.txt:283-288): three levels per goal."""

    id: str
    levels: tuple[tuple[int, int, int], ...]  # per goal in GOALS order


@dataclass(frozen=True, eq=False, slots=True)
class GraenalandData:
    """Components ready for the rules (see data/graenaland.toml for where each value comes from)."""

    path: str
    sha1: str
    houses: int
    start_army: int
    army_max: int
    supply_row: int
    tokens: dict[str, int]
    goals: dict[str, int]
    costs: dict[str, Cost]
    fortress_resource: tuple[int, ...]  # per terrain; -1 where no fortress may stand
    card_resource: tuple[int, ...]  # resource of each of the resource cards, by card id
    card_deck: tuple[int, ...]  # terrain deck of each card
    supply_cards: tuple[tuple[int, int], ...]
    pieces: dict[str, Piece]
    layouts: dict[int, tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]]
    victory_cards: tuple[VictoryCard, ...]
    victory_points: int
    reconstructed: tuple[str, ...]


#: the resources a cost or a supply card may show (gold is wild, graenaland.txt:127)
PAYABLE = RESOURCES[:GOLD]
GOLD_HINT = "gold is wild (graenaland.txt:127) and cannot be a cost"
GOAL_KEYS = ("settlements", "territories", "territory_size", "largest", "buildings", "army", "needed")
COST_KEYS = (*BUILDINGS, "army", "army_fortress_base", *PUBLIC)
COST = mapping(PAYABLE, integer(), hint=GOLD_HINT)
PIECE_ID = text()
#: the data file, declared once (sim.datafile); what spans tables is checked in ``_build``
SCHEMA = table(
    {
        "setup": table({k: entry(integer(1)) for k in ("houses", "start_army", "army_max", "supply_row")}),
        "tokens": table({k: entry(integer()) for k in PUBLIC}),
        "goals": table({k: entry(integer(1)) for k in GOAL_KEYS}),
        "costs": table({k: entry(COST) for k in COST_KEYS}),
        "fortress_resource": table(
            {t: entry(text(PAYABLE)) for t in TERRAINS[:MOUNTAINS]},
            hint="no buildings in the mountains, graenaland.txt:153",
        ),
        "decks": table({t: entry(mapping(RESOURCES, integer())) for t in TERRAINS}),
        "supply": entry(array(array(text(PAYABLE), 2), min_size=1)),
        "pieces": tables(
            table(
                {
                    "id": PIECE_ID,
                    "terrain": text(TERRAINS),
                    "coastal": boolean(),
                    "yield": text(RESOURCES),
                    "village": COST,
                },
                {"mark": text(empty=True)},
                sourced=True,
            )
        ),
        "layout": mapping(
            tuple(str(n) for n in PLAYER_COUNTS),
            table(
                {
                    "coast": array(PIECE_ID, min_size=1),
                    "inland": array(PIECE_ID, min_size=1),
                    "start": array(array(PIECE_ID, 2), min_size=1),
                },
                sourced=True,
            ),
            every=True,
        ),
    },
    {
        "victory_cards": table(
            {
                "points": entry(integer(1)),
                "cards": tables(
                    table(
                        {
                            "id": text(),
                            "levels": table({g: array(integer(1), 3, rising=True) for g in GOALS}),
                        },
                        sourced=True,
                    )
                ),
            }
        )
    },
)


def _cost(raw: dict, where: str) -> Cost:
    """A checked resource = count table as (grain, cattle, wood, ore); it must cost something."""
    out = [raw.get(name, 0) for name in PAYABLE]
    if sum(out) == 0:
        fail(where, "costs nothing", "a table of resource = count with at least one count above 0")
    return (out[0], out[1], out[2], out[3])


def load(path: str | Path | None = None) -> GraenalandData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, SCHEMA, _build)


def _build(doc: dict, path: Path, sha1: str, rec: list[str]) -> GraenalandData:
    """Components for the rules from a checked document; checks the references between tables."""
    setup = {k: v["value"] for k, v in doc["setup"].items()}
    if setup["army_max"] < setup["start_army"]:
        fail(
            "setup.army_max",
            f"{setup['army_max']} is below setup.start_army ({setup['start_army']})",
            "at least setup.start_army",
        )
    tokens = {k: doc["tokens"][k]["value"] for k in PUBLIC}
    goals = {k: doc["goals"][k]["value"] for k in GOAL_KEYS}
    costs = {k: _cost(doc["costs"][k]["value"], f"costs.{k}.value") for k in COST_KEYS}
    fortress = [-1] * len(TERRAINS)
    for name, item in doc["fortress_resource"].items():
        fortress[TERRAINS.index(name)] = RESOURCES.index(item["value"])
    card_res: list[int] = []
    card_deck: list[int] = []
    for t, name in enumerate(TERRAINS):
        for res, count in doc["decks"][name]["value"].items():
            card_res.extend([RESOURCES.index(res)] * count)
            card_deck.extend([t] * count)
        if t not in card_deck:
            fail(f"decks.{name}.value", "holds no cards", "counts adding up to at least 1")
    supply = [(RESOURCES.index(a), RESOURCES.index(b)) for a, b in doc["supply"]["value"]]
    if len(supply) < setup["supply_row"]:
        fail(
            "supply.value",
            f"{len(supply)} cards, fewer than the row (setup.supply_row = {setup['supply_row']})",
            "at least setup.supply_row cards",
        )
    pieces: dict[str, Piece] = {}
    for p in doc["pieces"]:
        pid = p["id"]
        if p["coastal"] and p["terrain"] == "mountains":
            fail(
                f"pieces.{pid}.coastal",
                "a coastal mountain piece",
                "plains, forest or hills on the coast (ref 1.2)",
            )
        pieces[pid] = Piece(
            pid,
            p.get("mark", ""),
            TERRAINS.index(p["terrain"]),
            p["coastal"],
            RESOURCES.index(p["yield"]),
            _cost(p["village"], f"pieces.{pid}.village"),
        )
    layouts = {}
    for n in PLAYER_COUNTS:
        layouts[n] = _layout(doc["layout"][str(n)], n, pieces)
    cards, vp = _victory_cards(doc)
    return GraenalandData(
        path=str(path),
        sha1=sha1,
        houses=setup["houses"],
        start_army=setup["start_army"],
        army_max=setup["army_max"],
        supply_row=setup["supply_row"],
        tokens=tokens,
        goals=goals,
        costs=costs,
        fortress_resource=tuple(fortress),
        card_resource=tuple(card_res),
        card_deck=tuple(card_deck),
        supply_cards=tuple(supply),
        pieces=pieces,
        layouts=layouts,
        victory_cards=cards,
        victory_points=vp,
        reconstructed=tuple(rec),
    )


def _layout(entry: dict, n: int, pieces: dict[str, Piece]) -> tuple:
    """One checked [layout.N]: its pieces exist, sit in the right row, once each; starts lie in it."""
    where = f"layout.{n}"
    coast, inland = tuple(entry["coast"]), tuple(entry["inland"])
    if len(coast) != n or len(inland) != n - 1:
        fail(
            where,
            f"{len(coast)} coastal and {len(inland)} inland pieces",
            f"one piece per player on the coast ({n}) and one fewer inland ({n - 1}) "
            "(graenaland.txt:29, reference 1.2)",
        )
    for row, ids in (("coast", coast), ("inland", inland)):
        for i, pid in enumerate(ids):
            if pid not in pieces:
                fail(f"{where}.{row}[{i}]", f"unknown piece {pid!r}", ", ".join(pieces))
            if pieces[pid].coastal != (row == "coast"):
                fail(
                    f"{where}.{row}[{i}]",
                    f"piece {pid!r} is {'' if pieces[pid].coastal else 'not '}coastal",
                    "coastal pieces in the coast row, the others inland",
                )
    if len(set(coast + inland)) != 2 * n - 1:
        fail(where, "uses a piece twice", "each piece once")
    start = tuple((a, b) for a, b in entry["start"])
    if len(start) != n:
        fail(
            f"{where}.start",
            f"{len(start)} pairs",
            f"one [coastal, other] pair per player ({n}), graenaland.txt:47-48",
        )
    for i, (a, b) in enumerate(start):
        if a not in coast or b not in coast + inland or a == b:
            fail(
                f"{where}.start[{i}]",
                f"[{a!r}, {b!r}]",
                "a coastal piece of this layout, then another piece of it (graenaland.txt:47-48)",
            )
    return coast, inland, start


def _victory_cards(doc: dict) -> tuple[tuple[VictoryCard, ...], int]:
    """Victory point cards (advanced rules, lines 279-295); optional in a user's file."""
    section = doc.get("victory_cards")
    if section is None:
        return (), 6
    cards = tuple(VictoryCard(c["id"], tuple(tuple(c["levels"][g]) for g in GOALS)) for c in section["cards"])
    return cards, section["points"]["value"]

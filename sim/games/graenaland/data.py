"""Load and check Graenaland's component data (``data/graenaland.toml`` or a user's file).

Every value in the file is marked printed (with its rulebook line) or reconstructed (with the
reason); a problem is one ``SkaldError`` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.datafile import load_data_file

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


@dataclass(frozen=True)
class Piece:
    """One terrain piece (graenaland.txt:29, 144, 186)."""

    id: str
    mark: str
    terrain: int
    coastal: bool
    yield_resource: int
    village_cost: Cost


@dataclass(frozen=True)
class VictoryCard:
    """A victory point card (advanced rules, graenaland.txt:283-288): three levels per goal."""

    id: str
    levels: tuple[tuple[int, int, int], ...]  # per goal in GOALS order


@dataclass(frozen=True, eq=False)
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


def _mark(entry: dict, name: str, reconstructed: list[str]) -> None:
    """Every value says where it comes from: printed (with ref) or reconstructed (with reason)."""
    source = entry.get("source")
    if source == "printed" and entry.get("ref"):
        return
    if source == "reconstructed" and entry.get("reason"):
        reconstructed.append(name)
        return
    raise ValueError(f"{name} needs source = 'printed' with a ref, or 'reconstructed' with a reason")


def _value(table: dict, key: str, where: str, reconstructed: list[str]) -> object:
    entry = table.get(key)
    if not isinstance(entry, dict) or "value" not in entry:
        raise ValueError(f"{where}.{key} needs a value")
    _mark(entry, f"{where}.{key}", reconstructed)
    return entry["value"]


def _resource(name: object, where: str) -> int:
    if name not in RESOURCES:
        raise ValueError(f"{where}: unknown resource {name!r} (allowed: {', '.join(RESOURCES)})")
    return RESOURCES.index(str(name))


def _cost(raw: object, where: str) -> Cost:
    if not isinstance(raw, dict) or not raw:
        raise ValueError(f"{where} must be a table of resource = count")
    out = [0, 0, 0, 0]
    for name, count in raw.items():
        r = _resource(name, where)
        if r == GOLD:
            raise ValueError(f"{where}: gold is wild (graenaland.txt:127) and cannot be a cost")
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"{where}.{name} must be a count >= 0")
        out[r] = count
    if sum(out) == 0:
        raise ValueError(f"{where} costs nothing")
    return (out[0], out[1], out[2], out[3])


def load(path: str | Path | None = None) -> GraenalandData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, _build)


def _positive(value: object, name: str) -> int:
    if not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1")
    return value


def _build(doc: dict, path: Path, sha1: str) -> GraenalandData:
    rec: list[str] = []
    setup = doc["setup"]
    houses = _positive(_value(setup, "houses", "setup", rec), "setup.houses")
    start_army = _positive(_value(setup, "start_army", "setup", rec), "setup.start_army")
    army_max = _positive(_value(setup, "army_max", "setup", rec), "setup.army_max")
    supply_row = _positive(_value(setup, "supply_row", "setup", rec), "setup.supply_row")
    if army_max < start_army:
        raise ValueError("setup.army_max is below setup.start_army")
    tokens = {k: int(_value(doc["tokens"], k, "tokens", rec)) for k in PUBLIC}
    if any(v < 0 for v in tokens.values()):
        raise ValueError("tokens must be counts >= 0")
    goal_keys = ("settlements", "territories", "territory_size", "largest", "buildings", "army", "needed")
    goals = {k: _positive(_value(doc["goals"], k, "goals", rec), f"goals.{k}") for k in goal_keys}
    cost_keys = (*BUILDINGS, "army", "army_fortress_base", *PUBLIC)
    costs = {k: _cost(_value(doc["costs"], k, "costs", rec), f"costs.{k}") for k in cost_keys}
    fortress = [-1] * len(TERRAINS)
    for name, _entry in doc["fortress_resource"].items():
        if name not in TERRAINS or name == "mountains":
            raise ValueError(f"fortress_resource.{name}: not a terrain that takes buildings "
                             "(plains, forest, hills; none in the mountains, graenaland.txt:153)")
        where = f"fortress_resource.{name}"
        r = _resource(_value(doc["fortress_resource"], name, "fortress_resource", rec), where)
        if r == GOLD:
            raise ValueError(f"fortress_resource.{name}: gold is wild and cannot be a cost")
        fortress[TERRAINS.index(name)] = r
    missing = [TERRAINS[t] for t in range(3) if fortress[t] < 0]
    if missing:
        raise ValueError(f"fortress_resource lacks {', '.join(missing)}")
    card_res: list[int] = []
    card_deck: list[int] = []
    for t, name in enumerate(TERRAINS):
        mix = _value(doc["decks"], name, "decks", rec)
        if not isinstance(mix, dict) or not mix:
            raise ValueError(f"decks.{name} must be a table of resource = count")
        for res, count in mix.items():
            r = _resource(res, f"decks.{name}")
            if not isinstance(count, int) or count < 0:
                raise ValueError(f"decks.{name}.{res} must be a count >= 0")
            card_res.extend([r] * count)
            card_deck.extend([t] * count)
        if not any(d == t for d in card_deck):
            raise ValueError(f"decks.{name} is empty")
    supply_raw = doc["supply"]
    _mark(supply_raw, "supply", rec)
    supply = []
    for i, pair in enumerate(supply_raw["value"]):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"supply[{i}] must be two resources")
        a, b = (_resource(x, f"supply[{i}]") for x in pair)
        if GOLD in (a, b):
            raise ValueError(f"supply[{i}]: supply cards show the four non-gold resources")
        supply.append((a, b))
    if len(supply) < supply_row:
        raise ValueError(f"the supply deck has {len(supply)} cards, fewer than the row ({supply_row})")
    pieces: dict[str, Piece] = {}
    for i, p in enumerate(doc["pieces"]):
        pid = str(p["id"])
        if pid in pieces:
            raise ValueError(f"pieces[{i}]: duplicate id {pid!r}")
        _mark(p, f"pieces.{pid}", rec)
        terrain = p["terrain"]
        if terrain not in TERRAINS:
            raise ValueError(f"pieces.{pid}.terrain {terrain!r} (allowed: {', '.join(TERRAINS)})")
        coastal = bool(p["coastal"])
        if coastal and terrain == "mountains":
            raise ValueError(f"pieces.{pid}: the coast is plains, forest or hills (reference 1.2)")
        y = _resource(p["yield"], f"pieces.{pid}.yield")
        pieces[pid] = Piece(pid, str(p.get("mark", "")), TERRAINS.index(terrain), coastal, y,
                            _cost(p["village"], f"pieces.{pid}.village"))
    layouts = {}
    for n in PLAYER_COUNTS:
        entry = doc["layout"].get(str(n))
        if entry is None:
            raise ValueError(f"no layout for {n} players (need [layout.3] to [layout.5])")
        _mark(entry, f"layout.{n}", rec)
        coast, inland = tuple(map(str, entry["coast"])), tuple(map(str, entry["inland"]))
        if len(coast) != n or len(inland) != n - 1:
            raise ValueError(f"layout.{n}: the coast row has one piece per player and the inland row one "
                             f"fewer (graenaland.txt:29, reference 1.2), not {len(coast)} and {len(inland)}")
        for pid in coast + inland:
            if pid not in pieces:
                raise ValueError(f"layout.{n}: unknown piece {pid!r}")
        if len(set(coast + inland)) != 2 * n - 1:
            raise ValueError(f"layout.{n} uses a piece twice")
        if not all(pieces[c].coastal for c in coast) or any(pieces[i].coastal for i in inland):
            raise ValueError(f"layout.{n}: coastal pieces belong in the coast row, the others inland")
        start = tuple(tuple(map(str, s)) for s in entry["start"])
        if len(start) != n or any(len(s) != 2 or s[0] not in coast or s[1] not in coast + inland
                                  or s[0] == s[1] for s in start):
            raise ValueError(f"layout.{n}.start needs one [coastal, other] pair of pieces in the layout per "
                             "player (graenaland.txt:47-48)")
        layouts[n] = (coast, inland, start)
    cards, vp = _victory_cards(doc, rec)
    return GraenalandData(
        path=str(path), sha1=sha1, houses=houses, start_army=start_army, army_max=army_max,
        supply_row=supply_row, tokens=tokens, goals=goals, costs=costs, fortress_resource=tuple(fortress),
        card_resource=tuple(card_res), card_deck=tuple(card_deck), supply_cards=tuple(supply),
        pieces=pieces, layouts=layouts, victory_cards=cards, victory_points=vp, reconstructed=tuple(rec),
    )


def _victory_cards(doc: dict, rec: list[str]) -> tuple[tuple[VictoryCard, ...], int]:
    """Victory point cards (advanced rules, lines 279-295); optional in a user's file."""
    section = doc.get("victory_cards")
    if section is None:
        return (), 6
    points = _positive(_value(section, "points", "victory_cards", rec), "victory_cards.points")
    cards = []
    for i, card in enumerate(section.get("cards", [])):
        cid = str(card.get("id", i))
        _mark(card, f"victory_cards.{cid}", rec)
        levels = []
        for goal in GOALS:
            lv = card["levels"][goal]
            if not (isinstance(lv, list) and len(lv) == 3 and all(isinstance(x, int) and x >= 1 for x in lv)
                    and lv == sorted(lv)):
                raise ValueError(f"victory_cards.{cid}.levels.{goal} must be three rising thresholds")
            levels.append(tuple(lv))
        cards.append(VictoryCard(cid, tuple(levels)))
    return tuple(cards), points

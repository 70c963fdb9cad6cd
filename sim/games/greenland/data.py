"""Load and check Greenland's component data: one TOML file per kind the rulebook text lacks.

The packaged data is the folder ``data/`` (setup, dice, hunt, elders, events, inventions, biomes,
scoring). ``--data`` takes either a folder laid out like ``data/`` (the eight kind files; a missing one is
a one-line error naming it) or one TOML file holding every kind's tables (the eight files concatenated, in
any order). Every value is marked
``source = "printed"`` with ``ref`` or ``source = "reconstructed"`` with ``reason``;
``GreenlandData.reconstructed`` lists the latter.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.datafile import (
    Check,
    array,
    boolean,
    entry,
    fail,
    fixed,
    integer,
    load_data_file,
    table,
    tables,
    text,
)
from sim.errors import SkaldError

DEFAULT_DIR = Path(__file__).parent / "data"
KINDS = ("setup", "dice", "hunt", "elders", "events", "inventions", "biomes", "scoring")
TRIBES = ("tunit", "norse", "sami", "thule")
COLOURS = ("green", "red", "blue", "yellow")  # the tribes' colours, in TRIBES order (line 13)
ROWS = ("north", "south")
TYPES = ("land", "sea", "iron")
N_RANKS = 6
ICONS = ("cool", "warm", "decimate", "elder_death", "winter", "migration", "plague", "feast", "ship")


@dataclass(frozen=True, slots=True)
class Biome:
    id: int
    name: str
    deck: str  # north | south | new_world
    row: int  # 0 north, 1 south
    type: str
    need: int
    bloody: tuple[int, ...]
    babies: int
    energy: int
    ivory: int
    iron: int
    trophy: int
    new_world: bool
    need_hostile: int
    bloody_hostile: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TCard:
    """A tableau card: a daughter, a domestic animal, an invention or an import."""

    id: int
    name: str
    kind: str  # daughter | animal | invention | import
    tribe: int  # the daughter's tribe; -1 otherwise
    #: the id of the printed card's first side: the sides of one card share it (line 13 'one side of the Sámi
    #: farm animal card'); every other card is its own
    card: int
    energy: int = 0  # phase H cost
    elders: int = 0
    either: bool = False  # costs the energy or the elders, not both
    babies: int = 0  # phase H yield
    sled: bool = False
    transport: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()
    rerolls: tuple[tuple[str, int], ...] = ()
    sun_stone: bool = False
    winter_free: bool = False
    attack: int = 0
    vp: int = 0
    hand: int = 0  # raises the hand size (reference B.2)
    raid_hits: tuple[int, ...] = (1,)  # a Sabine or Livestock raid's success faces (line 70)
    raid_bloody: tuple[int, ...] = (6,)


@dataclass(frozen=True, slots=True)
class Tribe:
    name: str
    colour: str
    home: int  # row index
    daughters: tuple[int, ...]  # TCard ids
    animals: tuple[int, ...]  # TCard ids of the starting choices


@dataclass(frozen=True, slots=True)
class ElderAction:
    name: str
    energy: int
    ivory: int
    iron: int
    gain_energy: int
    gain_ivory: int
    gain_iron: int


@dataclass(frozen=True, slots=True)
class Rank:
    rank: int
    name: str
    passive: tuple[str, ...]
    rerolls: tuple[tuple[str, int], ...]
    actions: tuple[ElderAction, ...]


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    name: str
    colour: str
    icons: tuple[tuple[str, str], ...]  # (icon, argument)


@dataclass(frozen=True, slots=True)
class GreenlandData:
    path: str
    sha1: str
    setup: dict[str, Any]
    die: dict[str, Any]
    hunt: dict[str, Any]
    end: dict[str, Any]
    score: dict[str, Any]
    tribes: tuple[Tribe, ...]
    biomes: tuple[Biome, ...]
    tcards: tuple[TCard, ...]
    ranks: tuple[Rank, ...]
    events: tuple[Event, ...]
    reconstructed: tuple[str, ...]
    #: tableau icon counts by attribute, one entry per TCard id (``has`` sums them over a tableau)
    icons: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    #: each biome card's Trophy value, by card id
    trophy_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: the scoring weights as integers: population, dead_tribe, trophy_scale, iron, ivory
    points: tuple[int, int, int, int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = ("sled", "transport", "sun_stone", "winter_free", "attack", "vp", "hand")
        icons = {a: tuple(int(getattr(c, a)) for c in self.tcards) for a in names}
        object.__setattr__(self, "icons", icons)
        object.__setattr__(self, "trophy_of", tuple(b.trophy for b in self.biomes))
        keys = ("population", "dead_tribe", "trophy_scale", "iron", "ivory")
        object.__setattr__(self, "points", tuple(int(self.score[k]) for k in keys))

    def deck(self, name: str) -> list[int]:
        return [b.id for b in self.biomes if b.deck == name]

    def new_world(self, row: int) -> int:
        return next(b.id for b in self.biomes if b.new_world and b.row == row)

    def tcards_of(self, kind: str) -> list[int]:
        return [c.id for c in self.tcards if c.kind == kind]


FACE = integer(1, 6)
FACES = array(FACE, max_size=6)  # a set of die faces ([] for none)
TYPE = text(TYPES)
#: [[biome type, re-rolls], ...] (line 71): each entry a mixed-type pair such as ["sea", 1]
REROLLS = array(fixed(TYPE, integer(1, 6), shape="[biome type, re-rolls]"), max_size=6)
#: [[biome type, face], ...] (line 72): dice showing that face become hits on that type
MODIFIERS = array(fixed(TYPE, FACE, shape="[biome type, die face]"), max_size=6)
SETUP_INTS = (
    "events_in_deck",
    "row_size",
    "tribesmen",
    "unassigned",
    "elders",
    "tunit_colonists",
    "energy",
    "ivory",
    "iron",
    "mariner_capacity",
    "hostile_above",
    "sun_stone_moves",
    "promotion_energy",
    "pacify_ivory",
    "iron_rule_cost",
    "upkeep_per",
    "hand_size",
    "table_energy",
    "offers_per_card",
)

FIELDS: dict[str, dict[str, Check]] = {
    "setup": {
        "setup": table(
            {
                **{k: entry(integer(0, 100)) for k in SETUP_INTS},
                "colour_line": entry(array(text(COLOURS), 4)),
            }
        ),
        "tribes": table(
            {
                name: table(
                    {
                        "colour": text(COLOURS),
                        "home": text(ROWS),
                        "daughters": integer(0, 6),
                        "animals": array(text()),
                    },
                    sourced=True,
                )
                for name in TRIBES
            }
        ),
        "daughter": table(
            {"energy": integer(0, 20), "elders": integer(0, 6), "babies": integer(0, 18)},
            {"either": boolean(), "raid_hits": FACES, "raid_bloody": FACES},
            sourced=True,
        ),
        "animals": tables(
            table(
                {
                    "name": text(),
                    "card": text(),
                    "energy": integer(0, 20),
                    "elders": integer(0, 6),
                    "babies": integer(0, 18),
                    "sled": boolean(),
                    "reroll": REROLLS,
                },
                {"raid_hits": FACES, "raid_bloody": FACES},
                sourced=True,
            ),
            key="name",
        ),
    },
    "dice": {
        "die": table(
            {
                "sides": entry(integer(2, 6)),
                "warm_hits": entry(array(FACE, min_size=1, max_size=6)),
                "cold_hits": entry(array(FACE, min_size=1, max_size=6)),
                "alpha_face": entry(FACE),
                "cold_bloody": entry(FACES),
                "attack_hits": entry(FACES),
            }
        )
    },
    "hunt": {
        "hunt": table(
            {
                "attrition_before_rewards": entry(boolean()),
                "failed_hunt_attrition": entry(boolean()),
                "babies_from_valhalla": entry(boolean()),
                "one_success_per_card": entry(boolean()),
                "trophy_takes_card": entry(boolean()),
                "alpha_dies_last": entry(boolean()),
                "reroll_policy": entry(text(("bloody_then_misses", "misses_only"))),
            }
        )
    },
    "scoring": {
        "end": table(
            {
                "generations": entry(integer(1, 50)),
                "sole_survivor_wins": entry(boolean()),
                "end_when_one_left": entry(boolean()),
            }
        ),
        "score": table(
            {k: entry(integer(0, 100)) for k in ("population", "trophy_scale", "iron", "ivory", "dead_tribe")}
        ),
    },
    "elders": {
        "ranks": tables(
            table(
                {
                    "rank": integer(1, N_RANKS),
                    "name": text(),
                    "passive": array(text(("chief", "raiders", "transport", "hand"))),
                    "reroll": REROLLS,
                    "actions": array(
                        table(
                            {
                                "name": text(
                                    (
                                        "council",
                                        "domesticate",
                                        "burn_witch",
                                        "invent",
                                        "forge",
                                        "forage",
                                        "voyage",
                                    )
                                ),
                                **{
                                    k: integer(0, 20)
                                    for k in (
                                        "energy",
                                        "ivory",
                                        "iron",
                                        "gain_energy",
                                        "gain_ivory",
                                        "gain_iron",
                                    )
                                },
                            }
                        )
                    ),
                },
                sourced=True,
            ),
            key="rank",
            min_size=N_RANKS,
        )
    },
    "events": {
        "events": tables(
            table(
                {
                    "name": text(),
                    "colour": text(COLOURS),
                    "icons": array(text(), min_size=1),
                },
                sourced=True,
            ),
            key="name",
        )
    },
    "inventions": {
        key: tables(
            table(
                {"name": text(), "deck": text(("invention", "import"))},
                {
                    "sled": boolean(),
                    "transport": integer(0, 6),
                    "modifier": MODIFIERS,
                    "reroll": REROLLS,
                    "sun_stone": boolean(),
                    "winter_free": boolean(),
                    "attack": integer(0, 6),
                    "vp": integer(0, 20),
                    "hand": integer(0, 6),
                },
                sourced=True,
            ),
            key="name",
        )
        for key in ("inventions", "imports")
    },
    "biomes": {
        "biomes": tables(
            table(
                {
                    "name": text(),
                    "deck": text(("north", "south", "new_world")),
                    "type": TYPE,
                    "need": integer(1, 19),
                    "bloody": FACES,
                    **{k: integer(0, 18) for k in ("babies", "energy", "ivory", "iron", "trophy")},
                },
                {"row": text(ROWS), "need_hostile": integer(1, 19), "bloody_hostile": FACES},
                sourced=True,
            ),
            key="name",
        )
    },
}
SCHEMAS: dict[str, Check] = {kind: table(fields) for kind, fields in FIELDS.items()}
ALL_SCHEMA = table({k: v for fields in FIELDS.values() for k, v in fields.items()})


def _pairs(items: list, where: str) -> tuple[tuple[str, int], ...]:
    out = []
    for i, (kind, n) in enumerate(items):
        if kind not in TYPES:
            fail(f"{where}[{i}]", f"unknown biome type {kind!r}", ", ".join(TYPES))
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 6:
            fail(f"{where}[{i}]", f"got {n!r}", "a whole number 0..6")
        out.append((str(kind), int(n)))
    return tuple(out)


def _values(table_: dict) -> dict[str, Any]:
    return {key: e["value"] for key, e in table_.items()}


# ------------------------------------------------------------------ one builder per kind (cross-table checks)


def _setup(doc: dict) -> dict[str, Any]:
    setup = _values(doc["setup"])
    if setup["unassigned"] + setup["elders"] + setup["tunit_colonists"] > setup["tribesmen"]:
        fail("setup", "unassigned + elders + tunit_colonists exceed tribesmen", "at most tribesmen")
    if sorted(setup["colour_line"]) != sorted(COLOURS):
        fail("setup.colour_line", "must hold each colour once", ", ".join(COLOURS))
    for name in TRIBES:
        if doc["tribes"][name]["colour"] != COLOURS[TRIBES.index(name)]:
            fail(
                f"tribes.{name}.colour",
                "the tribes' colours are printed (line 13)",
                COLOURS[TRIBES.index(name)],
            )
    animals = {a["name"]: a for a in doc["animals"]}
    for name in TRIBES:
        for a in doc["tribes"][name]["animals"]:
            if a not in animals:
                fail(f"tribes.{name}.animals", f"unknown animal {a!r}", ", ".join(animals))
    for a in doc["animals"]:
        _pairs(a["reroll"], f"animals.{a['name']}.reroll")
    return {"setup": setup, "tribes": doc["tribes"], "daughter": doc["daughter"], "animals": animals}


def _dice(doc: dict) -> dict[str, Any]:
    die = _values(doc["die"])
    for key in ("warm_hits", "cold_hits", "cold_bloody", "attack_hits"):
        if any(f > die["sides"] for f in die[key]):
            fail(f"die.{key}", "a face above die.sides", f"faces 1..{die['sides']}")
        die[key] = tuple(die[key])
    return die


def _hunt(doc: dict) -> dict[str, Any]:
    return _values(doc["hunt"])


def _scoring(doc: dict) -> dict[str, Any]:
    return {"end": _values(doc["end"]), "score": _values(doc["score"])}


def _elders(doc: dict) -> tuple[Rank, ...]:
    ranks = []
    for i, r in enumerate(doc["ranks"]):
        where = f"ranks.{r['rank']}"
        if r["rank"] != i + 1:
            fail(where, "ranks out of order", "ranks 1 to 6 in order")
        actions = tuple(
            ElderAction(
                a["name"],
                a["energy"],
                a["ivory"],
                a["iron"],
                a["gain_energy"],
                a["gain_ivory"],
                a["gain_iron"],
            )
            for a in r["actions"]
        )
        ranks.append(
            Rank(r["rank"], r["name"], tuple(r["passive"]), _pairs(r["reroll"], where + ".reroll"), actions)
        )
    if len(ranks) != N_RANKS:
        fail("ranks", f"got {len(ranks)} ranks", f"exactly {N_RANKS}")
    return tuple(ranks)


def _events(doc: dict) -> tuple[Event, ...]:
    events = []
    for i, e in enumerate(doc["events"]):
        where = f"events.{e['name']}.icons"
        icons = []
        for text_ in e["icons"]:
            icon, _, arg = text_.partition(":")
            if icon not in ICONS:
                fail(where, f"unknown icon {text_!r}", ", ".join(ICONS))
            if icon in ("cool", "warm", "migration") and arg not in ROWS:
                fail(where, f"{text_!r} needs a row", f"{icon}:north or {icon}:south")
            if icon == "decimate" and not arg.isdigit():
                fail(where, f"{text_!r} needs a threshold", "decimate:N")
            icons.append((icon, arg))
        events.append(Event(i, e["name"], e["colour"], tuple(icons)))
    return tuple(events)


def _inventions(doc: dict) -> list[dict]:
    out = []
    for key in ("inventions", "imports"):
        for c in doc[key]:
            where = f"{key}.{c['name']}"
            out.append(
                {
                    "name": c["name"],
                    "kind": "invention" if key == "inventions" else "import",
                    "sled": c.get("sled", False),
                    "transport": c.get("transport", 0),
                    "modifiers": _pairs(c.get("modifier", []), where + ".modifier"),
                    "rerolls": _pairs(c.get("reroll", []), where + ".reroll"),
                    "sun_stone": c.get("sun_stone", False),
                    "winter_free": c.get("winter_free", False),
                    "attack": c.get("attack", 0),
                    "vp": c.get("vp", 0),
                    "hand": c.get("hand", 0),
                }
            )
    return out


def _biomes(doc: dict) -> tuple[Biome, ...]:
    out = []
    for i, b in enumerate(doc["biomes"]):
        where = f"biomes.{b['name']}"
        nw = b["deck"] == "new_world"
        if nw and "row" not in b:
            fail(where, "a New World card needs its row", "row = north or south")
        row = b["row"] if nw else b["deck"]
        out.append(
            Biome(
                id=i,
                name=b["name"],
                deck=b["deck"],
                row=ROWS.index(row),
                type=b["type"],
                need=b["need"],
                bloody=tuple(b["bloody"]),
                babies=b["babies"],
                energy=b["energy"],
                ivory=b["ivory"],
                iron=b["iron"],
                trophy=b["trophy"],
                new_world=nw,
                need_hostile=b.get("need_hostile", b["need"]),
                bloody_hostile=tuple(b.get("bloody_hostile", b["bloody"])),
            )
        )
    for r, row in enumerate(ROWS):
        if sum(b.new_world and b.row == r for b in out) != 1:
            fail(
                "biomes",
                f"the {row} row needs exactly one New World card (line 4)",
                "one Markland, one Vinland",
            )
    return tuple(out)


BUILDERS: dict[str, Callable[[dict], Any]] = {
    "setup": _setup,
    "dice": _dice,
    "hunt": _hunt,
    "elders": _elders,
    "events": _events,
    "inventions": _inventions,
    "biomes": _biomes,
    "scoring": _scoring,
}


def load(path: str | Path | None = None) -> GreenlandData:
    """Read and validate the data (the packaged folder, a copy of it, or one file with every kind)."""
    parts: dict[str, Any] = {}
    rec: list[str] = []
    if path is not None and Path(path).is_file():

        def build_all(doc: dict, p: Path, sha1: str, reconstructed: list[str]) -> GreenlandData:
            for kind in KINDS:
                parts[kind] = BUILDERS[kind](doc)
            return _assemble(parts, reconstructed, str(p), sha1)

        return load_data_file(path, DEFAULT_DIR / "setup.toml", ALL_SCHEMA, build_all)
    folder = Path(path) if path is not None else DEFAULT_DIR
    if not folder.is_dir():
        raise SkaldError(f"cannot read data {str(folder)!r}: neither a file nor a folder")
    missing = [f"{kind}.toml" for kind in KINDS if not (folder / f"{kind}.toml").is_file()]
    if missing:
        raise SkaldError(
            f"data folder {str(folder)!r} lacks {', '.join(missing)} (a Greenland data folder holds one file"
            f" per kind: {', '.join(k + '.toml' for k in KINDS)})"
        )
    digest = hashlib.sha1()
    for kind in KINDS:

        def build(doc: dict, p: Path, sha1: str, reconstructed: list[str], kind: str = kind) -> str:
            parts[kind] = BUILDERS[kind](doc)
            rec.extend(f"{kind}:{name}" for name in reconstructed)
            return sha1

        digest.update(
            load_data_file(folder / f"{kind}.toml", folder / f"{kind}.toml", SCHEMAS[kind], build).encode()
        )
    try:
        return _assemble(parts, rec, str(folder), digest.hexdigest())
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SkaldError(f"data {str(folder)!r} is malformed: {' '.join(str(exc).split())}") from None


def _assemble(parts: dict[str, Any], rec: list[str], path: str, sha1: str) -> GreenlandData:
    """The data from its parsed files: the tableau cards in id order (the farm animals, every tribe's
    daughters, the inventions and imports), the tribes, then the decks checked against the set-up."""
    s = parts["setup"]
    tcards: list[TCard] = []
    animal_ids = _animal_cards(s["animals"], tcards)
    tribes = _tribes(s, animal_ids, tcards)
    for c in parts["inventions"]:
        tcards.append(TCard(id=len(tcards), tribe=-1, card=len(tcards), **c))
    _check_decks(parts, s["setup"])
    return GreenlandData(
        path=path,
        sha1=sha1,
        setup=s["setup"],
        die=parts["dice"],
        hunt=parts["hunt"],
        end=parts["scoring"]["end"],
        score=parts["scoring"]["score"],
        tribes=tuple(tribes),
        biomes=parts["biomes"],
        tcards=tuple(tcards),
        ranks=parts["elders"],
        events=parts["events"],
        reconstructed=tuple(rec),
    )


def _animal_cards(animals: dict[str, Any], tcards: list[TCard]) -> dict[str, int]:
    """Append the farm animal cards to ``tcards``; their ids by name. The two sides of one printed card
    (line 13, the Sami's) share the first side's id as their ``card``."""
    animal_ids: dict[str, int] = {}
    first_side: dict[str, int] = {}  # printed card -> its first side's id (line 13)
    for name, a in animals.items():
        animal_ids[name] = len(tcards)
        tcards.append(
            TCard(
                id=len(tcards),
                name=name,
                kind="animal",
                tribe=-1,
                card=first_side.setdefault(a["card"], len(tcards)),
                energy=int(a["energy"]),
                elders=int(a["elders"]),
                babies=int(a["babies"]),
                sled=bool(a["sled"]),
                rerolls=_pairs(a["reroll"], f"animals.{name}"),
                raid_hits=tuple(a.get("raid_hits", [1])),
                raid_bloody=tuple(a.get("raid_bloody", [6])),
            )
        )
    return animal_ids


def _tribes(s: dict[str, Any], animal_ids: dict[str, int], tcards: list[TCard]) -> list[Tribe]:
    """The tribes in placard order (line 13: colour, home row, daughters, farm animals), each tribe's
    daughter cards appended to ``tcards``."""
    tribes = []
    for t, name in enumerate(TRIBES):
        entry = s["tribes"][name]
        if entry["colour"] != COLOURS[t]:
            raise ValueError(f"tribes.{name}.colour must be {COLOURS[t]} (line 13)")
        daughters = _daughter_cards(s["daughter"], name, t, int(entry["daughters"]), tcards)
        for a in entry["animals"]:
            if a not in animal_ids:
                raise ValueError(f"tribes.{name}: unknown animal {a!r}")
        tribes.append(
            Tribe(
                name,
                COLOURS[t],
                ROWS.index(entry["home"]),
                tuple(daughters),
                tuple(animal_ids[a] for a in entry["animals"]),
            )
        )
    return tribes


def _daughter_cards(d: dict[str, Any], name: str, tribe: int, count: int, tcards: list[TCard]) -> list[int]:
    """Append a tribe's ``count`` daughter cards (all alike, ``setup.daughter``) to ``tcards``; their ids."""
    daughters = []
    for k in range(count):
        daughters.append(len(tcards))
        tcards.append(
            TCard(
                id=len(tcards),
                name=f"{name} daughter {k + 1}",
                kind="daughter",
                tribe=tribe,
                card=len(tcards),
                energy=int(d["energy"]),
                elders=int(d["elders"]),
                either=bool(d.get("either", False)),
                babies=int(d["babies"]),
                raid_hits=tuple(d.get("raid_hits", [1])),
                raid_bloody=tuple(d.get("raid_bloody", [6])),
            )
        )
    return daughters


def _check_decks(parts: dict[str, Any], setup: dict[str, Any]) -> None:
    """Enough events for the deck (line 9) and enough biomes for each row (line 11)."""
    if len(parts["events"]) < int(setup["events_in_deck"]):
        raise ValueError("events: fewer cards than setup.events_in_deck")
    for row in ROWS:
        if sum(b.deck == row for b in parts["biomes"]) < int(setup["row_size"]):
            raise ValueError(f"biomes: the {row} deck is smaller than setup.row_size")

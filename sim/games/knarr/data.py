"""Load and check Knarr's component data (``data/knarr.toml`` or a user's file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.datafile import load_data_file

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


@dataclass(frozen=True)
class Destination:
    id: int
    deck: str  # "A" Trading Land, "B" Land of Influence
    cost_kind: int  # DIFF, SAME or COLOURS_COST
    cost_n: int  # cards for DIFF/SAME
    cost: tuple[int, ...]  # per colour for COLOURS_COST
    gain: Gain
    row: tuple[Gain, Gain, Gain]
    expansion: bool


@dataclass(frozen=True)
class Building:
    id: int
    cost: int
    rows: tuple[Gain, Gain, Gain, Gain]
    most_raid: Gain
    fewest_raid: Gain


@dataclass(frozen=True)
class KnarrData:
    path: str
    sha1: str
    setup: dict[str, object]
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
        return [c for c, m in enumerate(self.viking_min_players) if m <= n_players]


def _mark(entry: dict, name: str, reconstructed: list[str], prefix: str = "") -> None:
    source = entry.get(prefix + "source")
    if source == "printed" and entry.get(prefix + "ref"):
        return
    if source == "reconstructed" and entry.get(prefix + "reason"):
        reconstructed.append(name)
        return
    raise ValueError(f"{name} needs source = 'printed' with a ref, or 'reconstructed' with a reason")


def gain_of(names: list[str], where: str) -> Gain:
    out = [0] * N_ASSETS
    for item in names:
        name, _, times = str(item).partition("*")
        if name not in ASSETS:
            raise ValueError(f"{where}: unknown asset {name!r} (allowed: {', '.join(ASSETS)})")
        out[ASSETS.index(name)] += int(times) if times else 1
    return tuple(out)


def _cost(text: str, where: str) -> tuple[int, int, tuple[int, ...]]:
    if text.startswith("diff"):
        return DIFF, int(text[4:]), (0,) * 5
    if text.startswith("same"):
        return SAME, int(text[4:]), (0,) * 5
    counts = [0] * 5
    for part in text.split():
        if part[0] not in LETTERS or not part[1:].isdigit():
            raise ValueError(f"{where}: bad cost {text!r} (diffN, sameN or colour counts like 'P3 R2')")
        counts[LETTERS.index(part[0])] += int(part[1:])
    return COLOURS_COST, sum(counts), tuple(counts)


def load(path: str | Path | None = None) -> KnarrData:
    """Read and validate the data file; any problem is a one-line ``SkaldError``."""
    return load_data_file(path, DEFAULT_PATH, _build)


def _build(doc: dict, path: Path, sha1: str) -> KnarrData:
    rec: list[str] = []
    setup = {}
    for key, entry in doc["setup"].items():
        _mark(entry, f"setup.{key}", rec)
        setup[key] = entry["value"]
    for key in ("hand_size", "crew_size", "recruits", "bracelets", "cap_recruit", "cap_bracelet", "end_vp"):
        if int(setup[key]) < 0:
            raise ValueError(f"setup.{key} must not be negative")
    ship = {}
    for side, entry in doc["ship"].items():
        _mark(entry, f"ship.{side}", rec)
        ship[side] = tuple(gain_of([c] if c else [], f"ship.{side}") for c in entry["value"])
    colour, asset, min_players = [], [], []
    for cname in COLOURS:
        entry = doc["vikings"][cname]
        _mark(entry, f"vikings.{cname}", rec)
        for aname, counts in entry["counts"].items():
            if aname not in ASSETS:
                raise ValueError(f"vikings.{cname}: unknown asset {aname!r}")
            if len(counts) != 3 or any(b < a for a, b in zip(counts, counts[1:], strict=False)):
                raise ValueError(f"vikings.{cname}.{aname} needs 3 non-decreasing counts for 2, 3, 4 players")
            prev = 0
            for players, count in zip(PLAYER_COUNTS, counts, strict=True):
                for _ in range(int(count) - prev):
                    colour.append(COLOURS.index(cname))
                    asset.append(ASSETS.index(aname))
                    min_players.append(players)
                prev = int(count)
    dests = []
    seen = set()
    for i, d in enumerate(doc["destinations"]):
        where = f"destinations[{i}] (id {d.get('id')})"
        _mark(d, where, rec)
        if d["id"] in seen:
            raise ValueError(f"{where}: duplicate id")
        seen.add(d["id"])
        if d["deck"] not in ("A", "B") or len(d["row"]) != 3:
            raise ValueError(f"{where}: deck must be A or B and row must have 3 columns")
        kind, n, counts = _cost(d["cost"], where)
        dests.append(Destination(
            id=int(d["id"]), deck=d["deck"], cost_kind=kind, cost_n=n, cost=counts,
            gain=gain_of(d["gain"], where),
            row=tuple(gain_of([c] if c else [], where) for c in d["row"]),  # type: ignore[arg-type]
            expansion=bool(d.get("expansion", False)),
        ))
    buildings = []
    for i, b in enumerate(doc.get("buildings", [])):
        where = f"buildings[{i}] (id {b.get('id')})"
        _mark(b, where, rec)
        if len(b["rows"]) != 4 or int(b["cost"]) < 0:
            raise ValueError(f"{where}: needs 4 rows and a cost >= 0")
        buildings.append(Building(
            id=int(b["id"]), cost=int(b["cost"]),
            rows=tuple(gain_of(r, where) for r in b["rows"]),  # type: ignore[arg-type]
            most_raid=gain_of(b["most_raid"], where), fewest_raid=gain_of(b["fewest_raid"], where),
        ))
    sk = doc["skali"]
    _mark(sk, "skali.rows", rec, "rows_")
    _mark(sk, "skali.raid", rec, "raid_")
    for key in ("coins_start", "coins_max", "raid_each", "raid_board_extra", "raid_reserve",
                "building_display"):
        _mark(sk[key], f"skali.{key}", rec)
        setup[key] = int(sk[key]["value"])
    sp = doc["special_building"]
    _mark(sp, "special_building", rec)
    for key in ("A", "B"):
        if sum(d.deck == key and not d.expansion for d in dests) < 3:
            raise ValueError(f"deck {key} needs at least 3 base destinations")
    return KnarrData(
        path=str(path), sha1=sha1, setup=setup, ship=ship,
        viking_colour=tuple(colour), viking_asset=tuple(asset), viking_min_players=tuple(min_players),
        destinations=tuple(dests), buildings=tuple(buildings),
        skali_rows=tuple(gain_of(r, "skali.rows") for r in sk["rows"]),  # type: ignore[arg-type]
        skali_most=gain_of(sk["most_raid"], "skali.most_raid"),
        skali_fewest=gain_of(sk["fewest_raid"], "skali.fewest_raid"),
        special_rows=tuple(gain_of(r, "special_building.rows") for r in sp["rows"]),  # type: ignore[arg-type]
        reconstructed=tuple(rec),
    )

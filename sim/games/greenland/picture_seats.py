"""One seat's panel in the Greenland picture (``picture``): its score and religion, discs (line 16),
unassigned tribesmen and Valhalla (line 14), the placard with its elders by rank (lines 14, 27, 51), the
tableau (line 13) with Guards and Raiders (lines 52-53) and Husbands in the daughters' exogamy boxes (line
61), its Trophies (reference B.3.1) and its hand (ruling G19: another seat sees only card backs).
"""

from __future__ import annotations

from sim.games.greenland.data import GreenlandData, TCard
from sim.games.greenland.picture_kit import at, placed_token, text_lines, token, tribesmen
from sim.games.greenland.picture_shown import DISC_NAMES, Shown, place_name, tcard_name, tribe_name
from sim.games.greenland.state import ALPHA_DEAD, ALPHA_POOL, MONO, TPLACE, alpha_bride, alpha_rank
from sim.picture import Svg, element, seat_colour

PANEL_W = 302
CHIP_W, CHIP_H, GAP = 98, 46, 3
DISC_COLOURS = ("#f28c28", "#ffffff", "#222222")  # orange energy, white ivory, black iron (line 16)
KIND_COLOURS = {"daughter": "#f6d3e0", "animal": "#d5ebc8", "invention": "#ddd2f2", "import": "#f1e0bd"}


def panel(svg: Svg, s: Shown, seat: int, x: float, y: float) -> float:
    """Draw ``seat``'s panel with its top left corner at (x, y); the y of its bottom. Its words that are no
    piece go into one group (``labels``), which keeps the picture small."""
    v = s.view
    colour = seat_colour(seat) if v.alive[seat] else "#999"
    religion = "monotheist" if v.religion[seat] == MONO else "polytheist"
    name = f"seat {seat} · {tribe_name(v.data, v.tribe[seat])}" + ("" if v.alive[seat] else " · died out")
    head = [
        element("rect", x=x, y=y, width=PANEL_W, height=22, rx=3, fill=colour),
        element("text", f"{name} · {religion}", x=x + 6, y=y + 15),
        element("text", f"score {s.scores[seat]}", x=x + PANEL_W - 6, y=y + 15, text_anchor="end"),
    ]
    svg.add("g", children=head, font_size=12, font_weight="bold", fill="#fff")
    labels: list[str] = []
    _discs(svg, s, seat, x, y + 38)
    _people(svg, s, seat, x, y + 58, labels)
    _placard(svg, s, seat, x, y + 74, labels)
    bottom = _tableau(svg, s, seat, x, y + 128, labels)
    bottom = _chips(svg, "trophies", _trophies(s, seat), x, bottom + 6, labels)
    bottom = _chips(svg, "hand", _hand(s, seat), x, bottom + 6, labels)
    svg.add("g", children=labels, font_size=9, fill="#666")
    return bottom


def _discs(svg: Svg, s: Shown, seat: int, x: float, y: float) -> None:
    """The tribe's energy, ivory and iron discs (line 16), one piece per colour it holds."""
    for k, name in enumerate(DISC_NAMES):
        count = getattr(s.view, name)[seat]
        if count:
            cx = x + 12 + k * 90
            svg.piece(
                "discs",
                [
                    element("circle", cx=cx, cy=y - 4, r=7, fill=DISC_COLOURS[k], stroke="#444"),
                    element("text", f"{count} {name}", x=cx + 11, y=y),
                ],
                data_seat=seat,
                data_disc=name,
            )


def _alpha_words(s: Shown, seat: int) -> str:
    """Where the Alpha is (line 55, ruling G20)."""
    a, data = s.view.alpha[seat], s.view.data
    if a == ALPHA_DEAD:
        return "Alpha dead"
    if a == ALPHA_POOL:
        return "Alpha unassigned"
    if alpha_rank(a) >= 0:
        return f"Alpha an elder ({data.ranks[alpha_rank(a)].name})"
    if alpha_bride(a) >= 0:
        return f"Alpha a Husband ({tcard_name(data, alpha_bride(a))})"
    return f"Alpha on {place_name(data, a)}"


def _people(svg: Svg, s: Shown, seat: int, x: float, y: float, labels: list[str]) -> None:
    """Unassigned tribesmen (line 14; the Alpha among them when it is), Valhalla's dead, the Alpha."""
    v = s.view
    pool, alpha_free = v.pool[seat], v.alpha[seat] == ALPHA_POOL
    if pool or alpha_free:
        shapes = placed_token(seat, pool + alpha_free, False, alpha_free, x + 12, y - 4, 7)
        svg.piece(
            "unassigned", [shapes, element("text", "unassigned", x=x + 22, y=y, font_size=10)], data_seat=seat
        )
    if v.valhalla[seat]:
        svg.piece(
            "valhalla",
            [
                element("rect", x=x + 86, y=y - 11, width=14, height=14, rx=2, fill="#777"),
                element(
                    "text",
                    str(v.valhalla[seat]),
                    x=x + 93,
                    y=y,
                    font_size=9,
                    fill="#fff",
                    text_anchor="middle",
                ),
                element("text", "in Valhalla", x=x + 104, y=y, font_size=10),
            ],
            data_seat=seat,
        )
    alpha = element(
        "text", _alpha_words(s, seat), x=x + PANEL_W - 4, y=y + 16, fill="#333", text_anchor="end"
    )
    labels.append(alpha)


def _placard(svg: Svg, s: Shown, seat: int, x: float, y: float, labels: list[str]) -> None:
    """The placard's six ranks (line 14 'one next to each row'), each with its elders (line 51)."""
    v, data = s.view, s.view.data
    labels.append(element("text", "placard: elders by rank", x=x + 2, y=y))
    for r, rank in enumerate(data.ranks):
        cx, cy = x + (r % 3) * (CHIP_W + GAP), y + 4 + (r // 3) * 22
        count = v.elders[seat][r]
        label = f"{rank.rank} {rank.name}"
        if not count:
            labels.append(element("text", f"{label}: none", x=cx + 4, y=cy + 13, fill="#999"))
            continue
        alpha = alpha_rank(v.alpha[seat]) == r
        words = f"{label}: {count}" + ("A" if alpha else "")
        text = element("text", words, x=cx + 4, y=cy + 13, fill=seat_colour(seat), class_="glb")
        svg.piece("elders", [text], data_seat=seat, data_rank=r)


def effect(t: TCard) -> str:
    """What a tableau card does, briefly (line 26 babies; lines 47, 54, 71, 72 icons; reference B.2)."""
    parts = []
    if t.babies:
        cost = f"{t.energy} energy" + (f" or {t.elders} elder" if t.either else "")
        parts.append(f"{t.babies} baby for {cost}")
    parts += ["sled"] * t.sled + [f"boat {t.transport}"] * bool(t.transport)
    parts += [f"{kind} {face}s hit" for kind, face in t.modifiers]
    parts += [f"re-roll {kind} {n}" for kind, n in t.rerolls]
    parts += ["reassign 3 after E"] * t.sun_stone + ["no winter cost"] * t.winter_free
    parts += [f"+{t.attack} attack die"] * bool(t.attack) + [f"{t.vp} VP"] * bool(t.vp)
    return ", ".join(parts)


def _chip(t: TCard, data: GreenlandData) -> list[str]:
    """A tableau card, drawn from (-4, 0) (its words start at x 0)."""
    fill = KIND_COLOURS.get(t.kind, "#eee")
    return [
        element("rect", x=-4, width=CHIP_W, height=CHIP_H, rx=3, fill=fill),
        element("text", tcard_name(data, t.id), y=11, font_size=9, font_weight="bold"),
        *text_lines(effect(t), None, 21, 21, step=9),
    ]


def _tableau(svg: Svg, s: Shown, seat: int, x: float, y: float, labels: list[str]) -> float:
    """The tableau (line 13), one piece per card; on each its Guards and Raiders (lines 52-53) and the
    Husbands in a daughter's exogamy box (line 61). The y below it."""
    v, data = s.view, s.view.data
    labels.append(element("text", "tableau", x=x + 2, y=y))
    cards = v.tableau[seat]
    for i, card in enumerate(cards):
        cx, cy = x + (i % 3) * (CHIP_W + GAP), y + 4 + (i // 3) * (CHIP_H + GAP)
        svg.piece(
            "tcard",
            _chip(data.tcards[card], data),
            data_seat=seat,
            data_tcard=card,
            transform=at(cx + 4, cy),
            font_size=8,
        )
        slot = 0
        for p in range(v.n_players):
            hunters, _, alpha = tribesmen(s, p, TPLACE + card)
            if hunters + alpha:
                svg.piece(
                    "tribesmen",
                    token(p, hunters + alpha, False, alpha, 6),
                    data_seat=p,
                    data_place=TPLACE + card,
                    transform=at(cx + 9 + 15 * slot, cy + CHIP_H - 7),
                )
                slot += 1
            husbands = v.husbands[p].get(card, 0)
            if husbands:
                hx = cx + CHIP_W - 8 - 24 * (p % 4)
                svg.piece(
                    "husbands",
                    [
                        element(
                            "text",
                            f"♥{husbands}",
                            x=hx,
                            y=cy + CHIP_H - 4,
                            font_size=10,
                            fill=seat_colour(p),
                            font_weight="bold",
                            text_anchor="end",
                        ),
                    ],
                    data_seat=p,
                    data_tcard=card,
                )
    rows = -(-len(cards) // 3)
    return y + 4 + rows * (CHIP_H + GAP)


def _trophies(s: Shown, seat: int) -> list[tuple[str, str, str, dict]]:
    data = s.view.data
    return [
        ("trophy", f"{data.biomes[c].name} {data.biomes[c].trophy} VP", "#f3e6a6", {"data_card": c})
        for c in s.view.trophies[seat]
    ]


def _hand(s: Shown, seat: int) -> list[tuple[str, str, str, dict]]:
    """The hand (ruling G19): the cards' names where this picture may show them, else card backs."""
    cards = s.hands[seat]
    if cards is None:
        return [("hand", "card (hidden)", "#39465a", {}) for _ in range(s.view.hand_sizes[seat])]
    return [("hand", tcard_name(s.view.data, c), KIND_COLOURS["invention"], {"data_tcard": c}) for c in cards]


def _chips(
    svg: Svg, title: str, chips: list[tuple[str, str, str, dict]], x: float, y: float, labels: list[str]
) -> float:
    """Small named chips (Trophies, hand cards), three to a line; the y below them."""
    if not chips:
        return y
    labels.append(element("text", title, x=x + 2, y=y + 8))
    for i, (kind, text, fill, attrs) in enumerate(chips):
        cx, cy = x + (i % 3) * (CHIP_W + GAP), y + 12 + (i // 3) * 21
        ink = "#fff" if fill == "#39465a" else "#222"
        svg.piece(
            kind,
            [
                element("rect", width=CHIP_W, height=18, rx=3, fill=fill, stroke="#888", stroke_width=0.7),
                element("text", text, x=4, y=12, font_size=9, fill=ink),
            ],
            transform=at(cx, cy),
            **attrs,
        )
    return y + 12 + -(-len(chips) // 3) * 21

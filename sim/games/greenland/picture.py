"""Greenland's state as an SVG picture (``sim.picture``'s protocol), made in pure Python.

The picture (greenland-third-edition.txt lines 9-16 lay the table out this way):

* a header: the generation, the phase, the player order, who acts, and the event card (line 22);
* the North and South rows (lines 10-12): each row's deck in the middle, its cold side to the left and its
  warm side to the right, each side's cards nearest the deck first (line 11; reference B.2 'Biomes to the
  right of the biome draw deck are "warm"; those to the left are "cold"'); Markland and Vinland, peaceful
  or hostile (lines 12, 63); on each card its needed hits, the faces that kill, the rewards, the Trophy, and
  the tribesmen there by tribe (a circle per tribe of Hunters, a square of colonists, line 50; a thick ring
  when the Alpha is among them, line 55);
* the state of the phase: the decks' sizes, the trade ship's offer, the cards still to settle, the dice;
* one panel per seat (``picture_seats``): score, religion, discs, unassigned tribesmen, Valhalla, the
  placard with elders by rank, the tableau with Guards, Raiders and Husbands, Trophies and the hand;
* a legend and the caption: ``sim.picture.ALL_SHOWN`` or whose view it is.

What a seat's picture may show is ``picture_shown.Shown`` (the seat's ``view`` and the open facts of the
table). Every piece on the table is one ``piece KIND`` element: ``card`` (a biome card in a row), ``deck``,
``event``, ``tribesmen`` (one tribe's tribesmen on one place), and in the panels ``discs``,
``unassigned``, ``valhalla``, ``elders`` (one rank's), ``tcard``, ``husbands``, ``trophy``, ``hand``.
"""

from __future__ import annotations

from sim.games.greenland.data import ROWS, GreenlandData
from sim.games.greenland.picture_kit import STYLE, at, placed_token, text_lines, token, tribesmen
from sim.games.greenland.picture_seats import PANEL_W, panel
from sim.games.greenland.picture_shown import PHASE_NAMES, Shown, place_name, seat_name, shown, tribe_name
from sim.games.greenland.state import BID, OVER, GreenlandState
from sim.picture import ALL_SHOWN, Svg, element

WIDTH = 1240
SLOT, CARD_W, CARD_H = 77, 72, 118
LEFT = 80  # x of the first slot (the row labels are to its left)
DECK_SLOT = 7  # slots 0-6: the cold side (slot 6 nearest the deck); 7: the deck; 8-14: the warm side
ROW_TOP = (78, 210)  # y of each row's cards
STATUS_Y = 342
TYPE_COLOURS = {"sea": "#2f6db5", "land": "#7a5a2e", "iron": "#555"}
NEW_WORLD_COLOUR = "#6a3d9a"
EVENT_COLOURS = {"green": "#2e8b57", "red": "#c0392b", "blue": "#2f6db5", "yellow": "#d4a017"}


def picture(state: GreenlandState, seat: int | None = None) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (None: everything, captioned ``ALL_SHOWN``)."""
    s = shown(state, seat)
    status = _statustext_lines(s)
    panel_y = STATUS_Y + 14 * len(status) + 4
    svg = Svg(WIDTH, 0, "Greenland")
    svg.add("style", STYLE)
    svg.add("rect", x=0, y=0, width="100%", height="100%", fill="#fbfaf7")
    _header(svg, s)
    for row in (0, 1):
        _row(svg, s, row)
    for i, line in enumerate(status):
        svg.add("text", line, x=8, y=STATUS_Y + 14 * i, font_size=11)
    bottom = max(panel(svg, s, p, 6 + p * (PANEL_W + 6), panel_y) for p in range(s.view.n_players))
    _legend(svg, bottom + 18)
    svg.height = bottom + 34
    return svg.render()


def _header(svg: Svg, s: Shown) -> None:
    """Generation, phase, order, who acts (lines 20-34), the caption, and the event card (line 22)."""
    v, data = s.view, s.view.data
    last = int(data.end["generations"])
    svg.add(
        "text",
        f"Greenland · generation {v.generation} of {last} · {PHASE_NAMES[v.phase]}",
        x=8,
        y=20,
        font_size=16,
        font_weight="bold",
    )
    order = ", ".join(seat_name(v, p) for p in v.order) or "none yet"
    acting = f"{seat_name(v, v.to_act)} acts" if v.to_act >= 0 else _together(v)
    svg.add("text", f"player order: {order} · {acting}", x=8, y=38, font_size=11)
    caption = (
        ALL_SHOWN
        if s.seat is None
        else (f"as {seat_name(v, s.seat)} sees it: other hands and the decks' order hidden")
    )
    svg.add("text", caption, x=8, y=54, font_size=11, fill="#555", font_style="italic")
    if v.event >= 0:
        event = data.events[v.event]
        icons = ", ".join(f"{i} {a}".strip() for i, a in event.icons)
        x = WIDTH - 330
        svg.piece(
            "event",
            [
                element(
                    "rect",
                    x=x,
                    y=6,
                    width=322,
                    height=44,
                    rx=4,
                    fill="#fff",
                    stroke=EVENT_COLOURS.get(event.colour, "#888"),
                    stroke_width=3,
                ),
                element("text", f"event: {event.name}", x=x + 8, y=24, font_size=13, font_weight="bold"),
                element("text", f"{event.colour} first · {icons}", x=x + 8, y=41, font_size=10),
            ],
            data_event=v.event,
        )


def _together(v: object) -> str:
    """Who decides when several seats decide at once (the auction, ruling G3; the farm animals, line 13)."""
    phase = getattr(v, "phase")
    if phase == BID:
        return "every tribe with ivory bids at once"
    if phase == OVER:
        return "the game is over"
    return "the Norse and Sámi choose their farm animal"


def _slot_x(row_side: str, i: int) -> float:
    """The x of the i-th card of a side, nearest the deck first (line 11)."""
    slot = DECK_SLOT - 1 - i if row_side == "cold" else DECK_SLOT + 1 + i
    return LEFT + slot * SLOT


def _row(svg: Svg, s: Shown, row: int) -> None:
    """One row (lines 10-12): its label, its cold and warm halves, the deck, the cards and tribesmen."""
    v, data = s.view, s.view.data
    y = ROW_TOP[row]
    homes = ", ".join(tribe_name(data, t) for t, tribe in enumerate(data.tribes) if tribe.home == row)
    svg.add("text", ROWS[row].capitalize(), x=6, y=y + 16, font_size=14, font_weight="bold")
    svg.add("text", "home of", x=6, y=y + 30, font_size=9, fill="#555")
    svg.add("text", homes, x=6, y=y + 41, font_size=9, fill="#555")
    half = DECK_SLOT * SLOT - 3
    svg.add("rect", x=LEFT - 3, y=y - 4, width=half, height=CARD_H + 8, fill="#e1eef9")
    svg.add(
        "rect", x=LEFT + (DECK_SLOT + 1) * SLOT - 3, y=y - 4, width=half, height=CARD_H + 8, fill="#fbeadb"
    )
    if row == 0:
        cold = " or ".join(str(f) for f in data.die["cold_hits"])
        warm = " or ".join(str(f) for f in data.die["warm_hits"])
        svg.add(
            "text",
            f"◀ cold side: a die hits on {cold}",
            x=LEFT + half / 2,
            y=y - 8,
            font_size=11,
            text_anchor="middle",
            fill="#2f6db5",
        )
        svg.add(
            "text",
            f"warm side: a die hits on {warm} ▶",
            x=LEFT + (DECK_SLOT + 1) * SLOT + half / 2,
            y=y - 8,
            font_size=11,
            text_anchor="middle",
            fill="#b35900",
        )
    _deck(svg, s, row, LEFT + DECK_SLOT * SLOT, y)
    for side, cards in (("cold", v.cold[row]), ("warm", v.warm[row])):
        for i, card in enumerate(cards):
            x = _slot_x(side, i)
            svg.piece(
                "card",
                _biome(s, card, side == "cold"),
                class_=side,
                data_card=card,
                transform=at(x + 4, y),
                font_size=9,
            )
            _tribesmen_on(svg, s, card, x, y)


def _deck(svg: Svg, s: Shown, row: int, x: float, y: float) -> None:
    """A biome deck, face down (line 10): its size; with everything shown, its top card too."""
    v = s.view
    children = [
        element("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=5, fill="#39465a"),
        element(
            "text",
            f"{ROWS[row].capitalize()} deck",
            x=x + CARD_W / 2,
            y=y + 40,
            font_size=10,
            fill="#fff",
            text_anchor="middle",
            font_weight="bold",
        ),
        element(
            "text",
            f"{v.decks_left[row]} cards",
            x=x + CARD_W / 2,
            y=y + 56,
            font_size=10,
            fill="#fff",
            text_anchor="middle",
        ),
    ]
    if s.secrets:
        top = s.secrets[1 + row].partition(": ")[2].split(", ")[0]
        children += text_lines(
            f"next: {top}", x + CARD_W / 2, y + 76, 13, font_size=8, fill="#ffd", text_anchor="middle"
        )
    svg.piece("deck", children, data_row=row)


def _biome(s: Shown, card: int, cold: bool) -> list[str]:
    """A biome card, drawn from (-4, 0) (its words start at x 0): its name and type, the hits it needs and
    the faces that kill (line 25; the cold side's own, dice.toml), its rewards, its Trophy (reference
    B.3.1), the New World's side (line 63)."""
    v, data = s.view, s.view.data
    b = data.biomes[card]
    hostile = card in v.hostile
    need = b.need_hostile if hostile else b.need
    bloody = set(b.bloody_hostile if hostile else b.bloody) | (
        set(data.die["cold_bloody"]) if cold else set()
    )
    band = NEW_WORLD_COLOUR if b.new_world else TYPE_COLOURS.get(b.type, "#555")
    stroke, width, dash = band, None, None  # an outline: the card now, still to settle, hostile
    if card == s.now:
        stroke, width = "#000", 3
    if card in v.cards_left:
        stroke, width, dash = "#000", 2, "5 3"
    if hostile:
        stroke, width = "#c0392b", 3
    out = [
        element(
            "rect",
            x=-4,
            width=CARD_W,
            height=CARD_H,
            rx=5,
            fill="#f4f9fe" if cold else "#fffaf3",
            stroke=stroke,
            stroke_width=width,
            stroke_dasharray=dash,
        ),
        element("rect", x=-4, width=CARD_W, height=26, rx=5, fill=band),
        element("g", children=text_lines(b.name + " New World" * b.new_world, None, 11, 14), class_="glw"),
        element("text", _kind(b.type, b.new_world, hostile), y=37, class_="gls", fill=band),
        element("text", f"need {need} hit{'s' * (need != 1)}", y=49),
        element("text", "dies on " + (" ".join(map(str, sorted(bloody))) or "none"), y=60, class_="glr"),
        element("g", children=text_lines(_rewards(data, card), None, 71, 16), class_="gls"),
    ]
    if b.trophy:
        out.append(element("text", f"trophy {b.trophy} VP", y=92, class_="gls", fill="#8a6d00"))
    if card in v.won:
        out.append(
            element("text", "✔ hunted", x=CARD_W - 8, y=92, class_="gls", fill="#1a7f37", text_anchor="end")
        )
    return out


def _kind(kind: str, new_world: bool, hostile: bool) -> str:
    if new_world:
        return "HOSTILE" if hostile else "peaceful"
    return kind


def _rewards(data: GreenlandData, card: int) -> str:
    """A successful hunt's rewards (line 25: babies and discs)."""
    b = data.biomes[card]
    parts = [f"+{b.babies} bab{'ies' if b.babies != 1 else 'y'}"] if b.babies else []
    parts += [f"+{n} {name}" for n, name in ((b.energy, "energy"), (b.ivory, "ivory"), (b.iron, "iron")) if n]
    return " ".join(parts) or "no reward"


def _tribesmen_on(svg: Svg, s: Shown, card: int, x: float, y: float) -> None:
    """The tribesmen on a biome card, one token per tribe (line 42), in seat order."""
    for seat in range(s.view.n_players):
        hunters, colonists, alpha = tribesmen(s, seat, card)
        total = hunters + colonists + alpha
        if total:
            cx = x + 10 + seat * 17.3
            svg.piece(
                "tribesmen",
                token(seat, total, colonists > 0, alpha, 8),
                data_seat=seat,
                data_place=card,
                transform=at(cx, y + CARD_H - 12),
            )


def _statustext_lines(s: Shown) -> list[str]:
    """The decks' sizes, the trade ship's offer (line 22), what is left to settle in phases F and G, the
    pending roll (lines 68-71) and bargain (line 59); with everything shown, the secrets."""
    v, data = s.view, s.view.data
    lines = [
        f"event deck: {v.events_left} left · Invention deck and Import deck: face down · "
        f"hand sizes: {', '.join(f'seat {p} {n}' for p, n in enumerate(v.hand_sizes))}"
    ]
    if v.offer >= 0:
        lines.append(f"trade ship: {place_name(data, 1000 + v.offer)[4:]} auctioned for ivory (sealed bids)")
    if s.now >= 0:
        lines.append(
            f"now: {place_name(data, s.now)}"
            + (
                f" · still to settle: {', '.join(place_name(data, c) for c in v.cards_left)}"
                if v.cards_left
                else ""
            )
        )
    elif v.cards_left:
        lines.append(
            f"cards to settle, one picked next: {', '.join(place_name(data, c) for c in v.cards_left)}"
        )
    if v.dice:
        roll = " ".join(map(str, v.dice))
        more = f" · {v.rerolls} re-roll{'s' * (v.rerolls != 1)} left" if v.rerolls > 0 else ""
        lines.append(f"dice on the table: {roll}{more}")
    if v.kills >= 0:
        lines.append(
            f"{v.kills} casualt{'ies' if v.kills != 1 else 'y'} to choose (is the Alpha among them?)"
        )
    if s.pending:
        lines.append(f"offer: {s.pending}")
    lines += [f"hidden: {line}" for line in s.secrets]
    return lines


def _legend(svg: Svg, y: float) -> None:
    """What the shapes and outlines mean."""
    x = 8.0
    for colonists, alpha, count, text in (
        (False, False, 3, "Hunters, Guards or Raiders"),
        (True, False, 5, "colonists (New World, line 50)"),
        (False, True, 2, "2A: the Alpha among them (line 55)"),
    ):
        shapes = placed_token(-1, count, colonists, alpha, x + 7, y, 7)
        svg.add("g", children=[shapes, element("text", text, x=x + 18, y=y + 4, font_size=10)])
        x += 30 + 5.4 * len(text)
    svg.add(
        "text",
        "dashed card: still to settle · black outline: now · red outline: hostile New World",
        x=x,
        y=y + 4,
        font_size=10,
        fill="#555",
    )

"""A Knarr state as an SVG picture (issue 20; the layout of ``sim.picture``).

Left, the table every seat sees (ruling R9 'Crews, destinations, tokens, the board, Buildings and the
discard pile are public; deck order and other hands are not'): the Viking board (knarr.md A.4 step 2), the
destinations on display with their decks (A.4 step 1), the reputation and VP tracks (A.5 step 1, A.6), and
with the expansion the raid tokens on the board and beside it (knarr-skali-expansion.txt:13-15), the skáli
rows every village has (lines 34-39, 47-48) and the Building display (line 28).  Right, one panel per seat:
its score, reputation, recruits, bracelets, coins and raid tokens, its hand, its crew by colour column
(A.5), its destinations in the order explored, its reserved destinations (Golden Bracelet, A.7) and its
Buildings (line 24).

``picture(state, None)`` shows every hand and the next card of each deck; ``picture(state, seat)`` is drawn
from ``view_of(state, seat)`` alone (``view.py``), so it cannot show more than the seat sees: the other
hands as card backs, the decks as counts.

Pieces (``class="piece KIND WHERE"``, one top-level element each): ``viking`` (board, crew, hand),
``back`` (a hidden hand card), ``destination`` (display, owned, reserved), ``building`` (display,
owned), ``raid`` (board, reserve, held), ``marker`` (rep, vp: one per seat on each track).
"""

from __future__ import annotations

from typing import NamedTuple

from sim.games.knarr.data import ASSETS, COLOURS, KnarrData
from sim.games.knarr.state import DISCARD, OVER, PHASES, KnarrState
from sim.games.knarr.view import KnarrView
from sim.games.knarr.words import (
    ASSET_SHORT,
    BONUSES,
    artifact_name,
    building_effects,
    building_name,
    cost_text,
    destination_name,
    gain_text,
    row_text,
    viking_text,
)
from sim.picture import ALL_SHOWN, Svg, element, seat_colour

WIDTH = 1200
LEFT = 10  # the table's column
RIGHT = 590  # the seats' column
PANEL_W = 600
GRID_W = 100  # a destination's or a Building's width in a seat's panel
#: a Viking card's fill and ink per colour (board slot order: red, yellow, green, blue, purple)
FILLS = ("#c8372d", "#e8b923", "#3a9a3a", "#2f6db5", "#8a4fb0")
INKS = ("#fff", "#000", "#fff", "#fff", "#fff")
#: a board Viking's asset, written in full
LONG_LABELS = {"vp": "VP", "rep": "reputation"}
#: the destination decks' plural names (knarr.md A.3)
DECK_PLURALS = {"A": "Trading Lands", "B": "Lands of Influence"}
DECK_FILLS = {"A": "#f4ead5", "B": "#dce8f4"}
BACK = "#6b4f2e"
STYLE = (
    "text{font-size:10px}.h{font-size:13px;font-weight:bold}.b{font-weight:bold}.m{text-anchor:middle}"
    ".e{text-anchor:end}.s{font-size:9px}.g{fill:#666}.w{fill:#fff;font-weight:bold}"
    + "".join(
        f".c{i}{{fill:{f}}}.k{i}{{fill:{k};text-anchor:middle;font-size:9px}}"
        for i, (f, k) in enumerate(zip(FILLS, INKS, strict=True))
    )
    + f".A{{fill:{DECK_FILLS['A']};stroke:#a08050}}.B{{fill:{DECK_FILLS['B']};stroke:#5080a0}}"
    + ".bd{fill:#efe;stroke:#6a6}.bk{fill:#6b4f2e}.r{fill:#222}.t{fill:#fff;stroke:#bbb}"
)


class Table(NamedTuple):
    """What the picture shows: a seat's view, the hands it may show (None: backs) and, when everything
    is shown, the next card of each deck in words."""

    view: KnarrView
    hands: tuple[tuple[int, ...] | None, ...]
    seat: int | None
    tops: tuple[str, ...]


def picture(state: KnarrState, seat: int | None = None) -> str:
    """The SVG of ``state``: everything (``seat`` None) or what ``seat`` may see (``view_of``)."""
    from sim.games.knarr.game import GAME  # late: game.py is imported by the plug-in's users

    if seat is None:
        view = GAME.view(state, 0)
        hands: tuple[tuple[int, ...] | None, ...] = tuple(tuple(h) for h in state.hands)
        return draw(Table(view, hands, None, _deck_tops(state)))
    view = GAME.view(state, seat)
    hands = tuple(view.hand if p == seat else None for p in range(view.n_players))
    return draw(Table(view, hands, seat, ()))


def _deck_tops(state: KnarrState) -> tuple[str, ...]:
    """The next card of each face-down deck (decks keep their top card last), for the all-shown picture."""
    data = state.data
    out = []
    if state.deck:
        out.append(f"next Viking: {viking_text(data, state.deck[-1])}")
    for name, deck in (("Trading Land", state.deck_a), ("Land of Influence", state.deck_b)):
        if deck:
            out.append(f"next {name}: {destination_name(data, deck[-1], short=True)}")
    if state.building_deck:
        out.append(f"next Building: {building_name(data, state.building_deck[-1])}")
    return tuple(out)


def draw(t: Table) -> str:
    """The document: the header, the table on the left, the seats on the right."""
    v = t.view
    svg = Svg(WIDTH, 100, f"Knarr, round {v.round}: {_who(v)}")
    svg.add("style", STYLE)
    _header(svg, t)
    y = _board(svg, t, 52)
    y = _destinations(svg, v, y + 8)
    y = _tracks(svg, v, y + 6)
    if v.rules.get("skali"):
        y = _skali(svg, v, y + 6)
    y = _legend(svg, v, y + 8)
    right = 52
    for p in range(v.n_players):
        right = _panel(svg, t, p, right) + 8
    svg.height = max(y, right) + 4
    return svg.render()


def _who(v: KnarrView) -> str:
    """Who is to move, in words (knarr.md A.5; the discard of ruling R6)."""
    if v.phase == OVER:
        return "game over"
    if v.phase == DISCARD:
        sizes = [sum(len(col) for col in crew) for crew in v.crews]
        most = max(sizes)
        seats = ", ".join(str(p) for p in range(v.n_players) if sizes[p] == most)
        return f"seat(s) {seats} discard a crew Viking (empty Viking deck)"
    return f"seat {v.current} to move ({PHASES[v.phase]})"


def _header(svg: Svg, t: Table) -> None:
    """Title, the caption saying what is shown, the rule switches and what is pending."""
    v = t.view
    svg.add("text", f"Knarr · round {v.round} · {_who(v)}", x=LEFT, y=18, class_="h")
    caption = (
        ALL_SHOWN
        if t.seat is None
        else (f"as seat {t.seat} sees it: other hands as card backs, decks face down (ruling R9)")
    )
    svg.add("text", caption, x=LEFT, y=34, class_="b")
    flags = [
        "skáli expansion" if v.rules.get("skali") else "base game",
        f"ship {v.rules.get('ship', 'normal')}",
    ]
    if v.artifacts:
        flags.append("artifacts: " + ", ".join(artifact_name(a) for a in v.artifacts))
    svg.add("text", " · ".join(flags), x=WIDTH - 10, y=18, class_="e")
    notes = []
    if v.bonus:
        notes.append("pending: " + ", ".join(f"{BONUSES[b][0]} ({BONUSES[b][1]})" for b in v.bonus))
    if v.end_triggered:
        notes.append("end triggered (40 VP): the round is finished")
    if notes:
        svg.add("text", " · ".join(notes), x=WIDTH - 10, y=34, class_="e")


def _viking(data: KnarrData, card: int, x: int, y: int, w: int, h: int, long: bool = False) -> list[str]:
    """A face-up Viking card: its colour, its asset written on it (knarr.md A.2)."""
    c = data.viking_colour[card]
    asset = ASSETS[data.viking_asset[card]]
    label = LONG_LABELS.get(asset, asset) if long else ASSET_SHORT[asset]
    return [
        element("rect", x=x, y=y, width=w, height=h, class_=f"c{c}"),
        element("text", label, x=x + w // 2, y=y + h - 4, class_=f"k{c}"),
    ]


def _board(svg: Svg, t: Table, y: int) -> int:
    """The five board slots (A.4 step 2), the Viking deck and the discard pile; the y below them."""
    v, data = t.view, t.view.data
    svg.add("text", "Viking board", x=LEFT, y=y, class_="b")
    for slot, card in enumerate(v.board):
        x = LEFT + slot * 66
        svg.add(
            "rect", x=x, y=y + 6, width=60, height=30, rx=3, fill="none", stroke=FILLS[slot], stroke_width=2
        )
        if card >= 0:
            svg.piece(
                "viking", _viking(data, card, x + 3, y + 9, 54, 24, long=True), class_="board", data_card=card
            )
        else:
            svg.add("text", f"{COLOURS[slot]}: empty", x=x + 30, y=y + 25, class_="m s g")
    x = LEFT + 5 * 66 + 4
    svg.add("rect", x=x, y=y + 6, width=34, height=30, rx=3, class_="bk")
    svg.add("text", str(v.deck_size), x=x + 17, y=y + 25, class_="m w")
    svg.add("text", "Viking deck", x=x + 40, y=y + 18)
    top = f"top {viking_text(data, v.discard[-1])}" if v.discard else "empty"
    svg.add("text", f"discard pile {len(v.discard)}: {top}", x=x + 40, y=y + 32)
    y += 50
    if t.tops:
        svg.add("text", "face down: " + " · ".join(t.tops), x=LEFT, y=y, class_="s")
        y += 10
    return y


def _destination(data: KnarrData, index: int, x: int, y: int) -> list[str]:
    """A destination card on display: deck and id, cost, one-time gain, trade row (knarr.md A.3)."""
    d = data.destinations[index]
    return [
        element("rect", x=x, y=y, width=180, height=60, rx=4, class_=d.deck),
        element("text", destination_name(data, index), x=x + 6, y=y + 14, class_="b"),
        element("text", f"cost: {cost_text(d)}", x=x + 6, y=y + 27),
        element("text", f"gain: {gain_text(d.gain, short=True)}", x=x + 6, y=y + 40),
        element("text", f"trade row: {row_text(d, short=True)}", x=x + 6, y=y + 53),
    ]


def _destinations(svg: Svg, v: KnarrView, y: int) -> int:
    """The Lands of Influence (display slots 3-5) above the Trading Lands (0-2), A.4 step 1."""
    for deck, slots, left in (("B", range(3, 6), v.dest_left[1]), ("A", range(3), v.dest_left[0])):
        svg.add("text", f"{DECK_PLURALS[deck]} on display ({left} in the deck)", x=LEFT, y=y + 10, class_="b")
        for i, slot in enumerate(slots):
            dest = v.visible[slot]
            x = LEFT + i * 186
            if dest >= 0:
                svg.piece(
                    "destination", _destination(v.data, dest, x, y + 16), class_="display", data_slot=slot
                )
            else:
                svg.add(
                    "rect",
                    x=x,
                    y=y + 16,
                    width=180,
                    height=60,
                    rx=4,
                    fill="none",
                    stroke="#bbb",
                    stroke_dasharray="4 3",
                )
        y += 82
    return y


def _track(
    svg: Svg, v: KnarrView, y: int, values: tuple[int, ...], top: int, kind: str, marks: dict[int, str]
) -> int:
    """One track 0..top, a lane per seat with its marker, ``marks`` under some cells; the y below."""
    cell = 540 / (top + 1)
    lanes = 8 * v.n_players + 4
    height = lanes + 12
    svg.add("rect", x=LEFT, y=y, width=540, height=height, class_="t")
    ticks = "".join(f"M{LEFT + i * cell:.1f} {y}v{height}" for i in range(1, top + 1))
    svg.add("path", d=ticks, stroke="#bbb", fill="none")
    for i in range(top + 1):
        if i % (5 if top > 20 else 1) == 0 or i in marks:
            svg.add("text", str(i), x=LEFT + i * cell + cell / 2, y=y + 10, class_="m s")
    for i, text in sorted(marks.items()):
        svg.add("text", text, x=LEFT + i * cell + cell / 2, y=y + lanes + 22, class_="m s g")
    for p, value in enumerate(values):
        cx = LEFT + (min(value, top) + 0.5) * cell
        circle = element("circle", cx=cx, cy=y + 16 + 8 * p, r=3.8, fill=seat_colour(p))
        svg.piece("marker", [circle], class_=kind, data_seat=p)
    return y + lanes + (26 if marks else 16)


def _tracks(svg: Svg, v: KnarrView, y: int) -> int:
    """The reputation track (A.5 step 1: income at the thresholds, capped at 14) and the VP track
    (A.6: the end is triggered at 40)."""
    setup = v.data.setup
    rep_top = int(setup["reputation_max"])
    income = {int(t): f"+{vp} VP" for t, vp in setup["reputation_income"]}
    svg.add("text", "Reputation (VP each turn from the thresholds)", x=LEFT, y=y + 8, class_="b")
    y = _track(svg, v, y + 12, v.rep, rep_top, "rep", income)
    end = int(setup["end_vp"])
    top = max(end + 9, -(-(max(v.vp) + 1) // 10) * 10 - 1)
    svg.add("text", f"Victory points (the end is triggered at {end})", x=LEFT, y=y + 8, class_="b")
    return _track(svg, v, y + 12, v.vp, top, "vp", {end: "end"})


def _effect_lines(data: KnarrData, index: int, width: int) -> list[str]:
    """A Building's effects (``building_effects``), joined with `` · `` into lines of ``width``
    characters or fewer (one effect per line when it is longer)."""
    lines: list[str] = []
    for effect in building_effects(data.buildings[index], short=True):
        if lines and len(lines[-1]) + 3 + len(effect) <= width:
            lines[-1] += " · " + effect
        else:
            lines.append(effect)
    return lines


def _building(data: KnarrData, index: int, x: int, y: int, w: int, h: int) -> list[str]:
    """A Building card: id, cost in coins (on display), its non-empty village rows and raid assets
    (line 24); at (0, 0) the x and y are left out (a seat's panel places it with a transform)."""
    b = data.buildings[index]
    cost = f" · {b.cost} coin{'s' if b.cost != 1 else ''}" if w > GRID_W else ""
    out = [
        element("rect", x=x or None, y=y or None, width=w, height=h, rx=4, class_="bd"),
        element("text", building_name(data, index) + cost, x=x + 5, y=y + 12, class_="b"),
    ]
    for i, line in enumerate(_effect_lines(data, index, w // 5)):
        out.append(element("text", line, x=x + 5, y=y + 23 + 10 * i, class_="s"))
    return out


def _skali(svg: Svg, v: KnarrView, y: int) -> int:
    """The raid tokens on the board and beside it (lines 13-15), the skáli's rows (34-39, 47-48) and the
    Building display (line 28)."""
    data = v.data
    svg.add("text", "Raid tokens on the board", x=LEFT, y=y + 10, class_="b")
    for i in range(v.raid_board):
        svg.piece(
            "raid", [element("circle", cx=LEFT + 150 + 16 * i, cy=y + 6, r=6, class_="r")], class_="board"
        )
    x = LEFT + 154 + 16 * max(v.raid_board, 1)
    svg.add("text", f"{v.raid_board} · reserve beside it: {v.raid_reserve}", x=x, y=y + 10)
    for i in range(v.raid_reserve):
        svg.piece(
            "raid", [element("circle", cx=x + 126 + 16 * i, cy=y + 6, r=6, class_="r")], class_="reserve"
        )
    skali = [
        f"{name}: {gain_text(g, short=True)}"
        for name, g in zip(("LoI", "TL", "same colour", "new colour"), data.skali_rows, strict=True)
        if any(g)
    ]
    skali += [
        f"raid most: {gain_text(data.skali_most, short=True)}",
        f"fewest: {gain_text(data.skali_fewest, short=True)}",
    ]
    svg.add("text", "Skáli (every village) · " + " · ".join(skali), x=LEFT, y=y + 28)
    svg.add(
        "text", f"Buildings on display ({v.building_deck_size} in the deck)", x=LEFT, y=y + 46, class_="b"
    )
    for slot, b in enumerate(v.display):
        if b >= 0:
            svg.piece(
                "building",
                _building(data, b, LEFT + slot * 138, y + 52, 132, 56),
                class_="display",
                data_slot=slot,
            )
    return y + 112


def _legend(svg: Svg, v: KnarrView, y: int) -> int:
    """What the short words and the colours mean."""
    words = "brc = bracelet, rec = recruit, rep = reputation, card = a Viking from the deck into the crew"
    svg.add("text", f"Legend: Viking cards show their asset; {words}", x=LEFT, y=y + 8, class_="s")
    svg.add(
        "text",
        "TL = Trading Land, LoI = Land of Influence; trade row = columns 1 / 2 / 3 (a trade of k "
        "bracelets gains columns 1..k)",
        x=LEFT,
        y=y + 20,
        class_="s",
    )
    if v.rules.get("skali"):
        svg.add(
            "text",
            "Village rows: LoI / TL = after exploring one, same / new = after recruiting a colour "
            "held / a new colour",
            x=LEFT,
            y=y + 32,
            class_="s",
        )
        y += 12
    return y + 26


def _panel(svg: Svg, t: Table, p: int, y: int) -> int:
    """Seat ``p``'s panel from ``y``: header, holdings, hand, crew by colour, destinations and Buildings;
    returns the y below it."""
    v, data = t.view, t.view.data
    crew_h = 16 + 15 * max((len(col) for col in v.crews[p]), default=0)
    cells = _grid_cells(v, p)
    grid_h = sum(h + 4 for h in _grid_rows(cells))
    h = 48 + max(14 + crew_h, grid_h) + 4
    current = p in _movers(v)
    colour = seat_colour(p)
    svg.add(
        "rect",
        x=RIGHT,
        y=y,
        width=PANEL_W,
        height=h,
        rx=4,
        fill="#fbfbfb",
        stroke=colour,
        stroke_width=3 if current else 1.5,
    )
    svg.add("rect", x=RIGHT, y=y, width=PANEL_W, height=20, rx=4, fill=colour)
    mark = " · to move" if current else ""
    svg.add(
        "text", f"seat {p} · {v.vp[p]} VP · reputation {v.rep[p]}{mark}", x=RIGHT + 8, y=y + 14, class_="w"
    )
    svg.add("text", _holdings(v, p), x=RIGHT + PANEL_W - 8, y=y + 14, class_="w e")
    _raids_held(svg, v, p, y)
    _hand(svg, t, p, y + 24)
    _crew(svg, data, v.crews[p], p, RIGHT + 8, y + 62)
    _grid(svg, cells, p, RIGHT + 278, y + 48)
    return y + h


def _movers(v: KnarrView) -> tuple[int, ...]:
    """The seats to move (``rules.to_move`` from what the view shows)."""
    if v.phase == OVER:
        return ()
    if v.phase == DISCARD:
        sizes = [sum(len(col) for col in crew) for crew in v.crews]
        return tuple(p for p in range(v.n_players) if sizes[p] == max(sizes))
    return (v.current,)


def _holdings(v: KnarrView, p: int) -> str:
    """Recruits, bracelets (A.5, capped at 3), coins (line 12, capped at 3), the Renewal token (line 16)."""
    parts = [f"recruits {v.recruits[p]}", f"bracelets {v.bracelets[p]}"]
    if v.rules.get("skali"):
        parts.append(f"coins {v.coins[p]}")
        if v.n_players == 2 and v.renewal:
            parts.append("Renewal " + ("ready" if v.renewal[p] else "used"))
    return " · ".join(parts)


def _raids_held(svg: Svg, v: KnarrView, p: int, y: int) -> None:
    """The seat's raid tokens (line 45), one disc each, on the panel's second line."""
    if not v.rules.get("skali"):
        return
    x = RIGHT + PANEL_W - 8
    svg.add("text", f"raid tokens {v.raids[p]}", x=x, y=y + 36, class_="e")
    for i in range(v.raids[p]):
        svg.piece(
            "raid",
            [element("circle", cx=x - 80 - 14 * i, cy=y + 32, r=5, class_="r")],
            class_="held",
            data_seat=p,
        )


def _hand(svg: Svg, t: Table, p: int, y: int) -> None:
    """The hand: face up when shown, card backs otherwise (ruling R9: hands are secret)."""
    v = t.view
    hand = t.hands[p]
    size = v.hand_sizes[p]
    svg.add("text", f"hand {size}", x=RIGHT + 8, y=y + 12, class_="b")
    for i in range(size):
        x = RIGHT + 56 + 52 * i
        if hand is None:
            svg.piece(
                "back", [element("rect", x=x, y=y + 2, width=48, height=14, rx=2, class_="bk")], data_seat=p
            )
        else:
            svg.piece("viking", _viking(v.data, hand[i], x, y + 2, 48, 14), class_="hand", data_seat=p)


def _crew(svg: Svg, data: KnarrData, crew: tuple[tuple[int, ...], ...], p: int, x: int, y: int) -> None:
    """The crew zone: one column per colour, the Vikings in the order played (A.5 Recruit)."""
    for c, col in enumerate(crew):
        cx = x + 52 * c
        svg.add("text", f"{COLOURS[c]} {len(col)}", x=cx + 24, y=y, class_="m b", fill=FILLS[c])
        for i, card in enumerate(col):
            svg.piece("viking", _viking(data, card, cx, y + 4 + 15 * i, 48, 14), class_="crew", data_seat=p)


def _small_destination(data: KnarrData, index: int, x: int, y: int, note: str, dashed: bool) -> list[str]:
    """An owned or reserved destination: deck and id, its trade row (the gain was taken when explored)."""
    d = data.destinations[index]
    title = destination_name(data, index, short=True) + (f" · {note}" if note else "")
    return [
        element(
            "rect",
            x=x or None,
            y=y or None,
            width=GRID_W,
            height=32,
            rx=3,
            class_=d.deck,
            stroke_dasharray="4 2" if dashed else None,
        ),
        element("text", title, x=x + 5, y=y + 12, class_="b"),
        element("text", row_text(d, short=True), x=x + 5, y=y + 26, class_="s"),
    ]


def _grid_cells(v: KnarrView, p: int) -> list[tuple[str, str, list[str], int]]:
    """(kind, where, children, height) of seat ``p``'s destinations in the order explored (covered ones
    marked, Helmet A.7), its reserved ones (Golden Bracelet) dashed, then its Buildings (line 24)."""
    data = v.data
    cells = []
    for d in v.owned[p]:
        note = "covered" if d in v.covered[p] else ""
        cells.append(("destination", "owned", _small_destination(data, d, 0, 0, note, False), 32))
    for d in v.reserved[p]:
        cells.append(("destination", "reserved", _small_destination(data, d, 0, 0, "reserved", True), 32))
    for b in v.buildings[p] if v.buildings else ():
        h = 16 + 10 * len(_effect_lines(data, b, GRID_W // 5))
        cells.append(("building", "owned", _building(data, b, 0, 0, GRID_W, h), h))
    return cells


def _grid_rows(cells: list[tuple[str, str, list[str], int]]) -> list[int]:
    """The height of each row of three cells."""
    return [max(c[3] for c in cells[i : i + 3]) for i in range(0, len(cells), 3)]


def _grid(svg: Svg, cells: list[tuple[str, str, list[str], int]], p: int, x: int, y: int) -> None:
    """The cells three to a row, each row as high as its highest cell."""
    for row, height in enumerate(_grid_rows(cells)):
        for i, (kind, where, children, _) in enumerate(cells[3 * row : 3 * row + 3]):
            svg.piece(kind, children, class_=where, data_seat=p, transform=f"translate({x + 104 * i},{y})")
        y += height + 4

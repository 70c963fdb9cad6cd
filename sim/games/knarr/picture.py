"""A Knarr state as an SVG picture (the layout of ``sim.picture``).

Above, the table every seat sees (ruling R9 'Crews, destinations, tokens, the board, Buildings and the
discard pile are public; deck order and other hands are not'): the Viking board (knarr.md A.4 step 2) with,
under it, the skáli rows every village has (knarr-skali-expansion.txt:34-39, 47-48) and the legend; beside
it the reputation and VP tracks (A.5 step 1, A.6); the destinations on display with their decks (A.4 step
1); with the expansion the Building display (line 28) and the raid tokens on the board and beside it (lines
13-15).  Below, one column per seat: its score, reputation, recruits, bracelets, coins and raid tokens, its
hand, its crew by colour column (A.5), its destinations in the order explored, its reserved destinations
(Golden Bracelet, A.7) and its Buildings (line 24).

The picture is 900 px wide with no text under 11 px, so that the replay viewer, which gives the board about
900 x 810 px of a 1400 x 900 window, draws it near its own size: text is laid out with ``sim.picture``'s
``text_width`` and ``fit_lines`` (measured in a wide font, so it fits narrower ones).

``picture(state, None)`` shows every hand and the next card of each deck; ``picture(state, seat)`` is drawn
from ``view_of(state, seat)`` alone (``view.py``), so it cannot show more than the seat sees: the other
hands as card backs, the decks as counts.

Pieces (``class="piece KIND WHERE"``, one top-level element each): ``viking`` (board, crew, hand),
``back`` (a hidden hand card), ``destination`` (display, owned, reserved), ``building`` (display,
owned), ``raid`` (board, reserve, held), ``marker`` (rep, vp: one per seat on each track).
"""

from __future__ import annotations

from html import escape
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
from sim.picture import ALL_SHOWN, Svg, element, fit_lines, seat_colour, text_width

WIDTH = 900  # shown about 1:1 in the replay viewer at 1400x900, so its smallest text (11px) stays legible
LEFT = 10
INNER = WIDTH - 2 * LEFT
TRACKS_X = 450  # the tracks' column; the board and the legend take the left of the top band
TRACKS_W = WIDTH - LEFT - TRACKS_X
TEXT, SMALL = 12, 11  # font sizes: the body, and the smallest any text is drawn at
LINE = 13  # the step between lines of small text
SLOT = 74  # a board slot's step
CHIP_W = 200  # the least width of a column of owned destinations and Buildings in a seat's panel
#: a Viking card's fill and ink per colour (board slot order: red, yellow, green, blue, purple)
FILLS = ("#c8372d", "#e8b923", "#3a9a3a", "#2f6db5", "#8a4fb0")
INKS = ("#fff", "#000", "#fff", "#fff", "#fff")
#: the space between an owned card's title and its words (an en space: it is not collapsed)
GAP = "\u2002"
#: a board Viking's asset, written in full
LONG_LABELS = {"vp": "VP", "rep": "reputation"}
#: the destination decks' plural names (knarr.md A.3)
DECK_PLURALS = {"A": "Trading Lands (TL)", "B": "Lands of Influence (LoI)"}
DECK_FILLS = {"A": "#f4ead5", "B": "#dce8f4"}
BACK = "#6b4f2e"
STYLE = (
    f"text{{font-size:{TEXT}px}}.h{{font-size:15px;font-weight:bold}}.b{{font-weight:bold}}"
    f".m{{text-anchor:middle}}.e{{text-anchor:end}}.s{{font-size:{SMALL}px}}.g{{fill:#555}}"
    ".w{fill:#fff;font-weight:bold}"
    + "".join(
        f".c{i}{{fill:{f}}}.k{i}{{fill:{k};text-anchor:middle;font-size:{SMALL}px}}"
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
        out.append(viking_text(data, state.deck[-1]))
    for deck in (state.deck_a, state.deck_b):
        if deck:
            out.append(destination_name(data, deck[-1], short=True))
    if state.building_deck:
        out.append(building_name(data, state.building_deck[-1]))
    return tuple(out)


def draw(t: Table) -> str:
    """The document: the header; the board, the legend and the tracks; the destinations on display; with
    the expansion the raid tokens, the skáli and the Buildings on display; then one column per seat."""
    v = t.view
    svg = Svg(WIDTH, 100, f"Knarr, round {v.round}: {_who(v)}")
    svg.add("style", STYLE)
    y = _header(svg, t)
    left = _board(svg, t, y + 4)
    if v.rules.get("skali"):
        left = _skali_rows(svg, v, left + 2)
    y = max(_legend(svg, v, left + 6), _tracks(svg, v, y + 4))
    y = _destinations(svg, v, y + 6)
    if v.rules.get("skali"):
        y = _skali(svg, v, y + 6)
    y = _seats(svg, t, y + 10)
    svg.height = y + 6
    return svg.render()


def _who(v: KnarrView) -> str:
    """Who is to move, in words (knarr.md A.5; the discard of ruling R6)."""
    if v.phase == OVER:
        return "game over"
    if v.phase == DISCARD:
        seats = ", ".join(str(p) for p in _movers(v))
        return f"seat(s) {seats} discard a crew Viking (empty Viking deck)"
    return f"seat {v.current} to move ({PHASES[v.phase]})"


def _header(svg: Svg, t: Table) -> float:
    """Title, the caption saying what is shown, what is face down (with everything shown, the next card of
    each deck), the rule switches and what is pending, each of these two at the right end of the first line
    with room for it; the y below them.  It is as high in every view, so a replay's views share the lines
    below it."""
    v = t.view
    title = f"Knarr · round {v.round} · {_who(v)}"
    caption = ALL_SHOWN if t.seat is None else f"as seat {t.seat} sees it (ruling R9)"
    if t.seat is not None:
        hidden = "face down: the decks, and the other hands as card backs"
    else:
        hidden = "face down, next: " + " · ".join(t.tops) if t.tops else "face down: the decks are empty"
    rows = [(19.0, title, "h", 15.0), (36.0, caption, "b", TEXT), (52.0, hidden, "s", SMALL)]
    free = []
    for y, text, class_, size in rows:
        svg.add("text", text, x=LEFT, y=y, class_=class_)
        free.append((y, text_width(text, size, bold=class_ != "s")))
    y = rows[-1][0]
    for text in (" · ".join(_flags(v)), " · ".join(_notes(v))):
        if not text:
            continue
        room = next((row for row in free if row[1] + 24 + text_width(text, SMALL) <= INNER), None)
        if room is None:
            y += LINE + 2
            svg.add("text", text, x=LEFT, y=y, class_="s")
        else:
            svg.add("text", text, x=WIDTH - LEFT, y=room[0], class_="e s")
            free.remove(room)
    return y + 6


def _flags(v: KnarrView) -> list[str]:
    """The rule switches: the expansion, the ship, the artifacts."""
    flags = [
        "skáli expansion" if v.rules.get("skali") else "base game",
        f"ship {v.rules.get('ship', 'normal')}",
    ]
    if v.artifacts:
        flags.append("artifacts: " + ", ".join(artifact_name(a) for a in v.artifacts))
    return flags


def _notes(v: KnarrView) -> list[str]:
    """What is pending: an artifact's bonus (knarr.md A.7), the end of the game (A.6)."""
    notes = []
    if v.bonus:
        notes.append("pending: " + ", ".join(f"{BONUSES[b][0]} ({BONUSES[b][1]})" for b in v.bonus))
    if v.end_triggered:
        notes.append("end triggered (40 VP): the round is finished")
    return notes


def _lines(svg: Svg, lines: list[str], x: float, y: float, class_: str = "s") -> float:
    """Small text, one line each from the baseline after ``y``; the last baseline."""
    for line in lines:
        y += LINE + 1
        svg.add("text", line, x=x, y=y, class_=class_)
    return y


def _viking(
    data: KnarrData, card: int, x: float, y: float, w: float, h: float, long: bool = False
) -> list[str]:
    """A face-up Viking card: its colour, its asset written on it (knarr.md A.2)."""
    c = data.viking_colour[card]
    asset = ASSETS[data.viking_asset[card]]
    label = LONG_LABELS.get(asset, asset) if long else ASSET_SHORT[asset]
    return [
        element("rect", x=x, y=y, width=w, height=h, class_=f"c{c}"),
        element("text", label, x=x + w / 2, y=y + h / 2 + 4, class_=f"k{c}"),
    ]


def _board(svg: Svg, t: Table, y: float) -> float:
    """The five board slots (A.4 step 2), the Viking deck and the discard pile; the y below them."""
    v, data = t.view, t.view.data
    svg.add("text", "Viking board", x=LEFT, y=y + 12, class_="b")
    top = y + 18
    for slot, card in enumerate(v.board):
        x = LEFT + slot * SLOT
        svg.add("rect", x=x, y=top, width=SLOT - 6, height=32, rx=3, fill="none", stroke=FILLS[slot],
                stroke_width=2)  # fmt: skip
        if card >= 0:
            svg.piece(
                "viking", _viking(data, card, x + 3, top + 3, SLOT - 12, 26, long=True),
                class_="board", data_card=card,
            )  # fmt: skip
        else:
            svg.add("text", COLOURS[slot], x=x + (SLOT - 6) / 2, y=top + 14, class_="m s g")
            svg.add("text", "empty", x=x + (SLOT - 6) / 2, y=top + 27, class_="m s g")
    x = LEFT + 5 * SLOT
    svg.add("rect", x=x, y=top, width=40, height=32, rx=3, class_="bk")
    svg.add("text", str(v.deck_size), x=x + 20, y=top + 21, class_="m w")
    discard = f"top {viking_text(data, v.discard[-1])}" if v.discard else "empty"
    words = f"Viking deck {v.deck_size} · discard pile {len(v.discard)}: {discard}"
    return _lines(svg, fit_lines(words.split(" "), TRACKS_X - 2 * LEFT, SMALL), LEFT, top + 34)


def _legend(svg: Svg, v: KnarrView, y: float) -> float:
    """What the short words and the colours mean, under the board."""
    words = (
        "Legend: Viking cards show their asset; brc = bracelet, rec = recruit, rep = reputation, card = a "
        "Viking from the deck into the crew. Trade row: columns 1 / 2 / 3 (a trade of k bracelets gains "
        "columns 1..k)."
    )
    if v.rules.get("skali"):
        words += (
            " Village rows: LoI / TL after exploring one, same / new after recruiting a colour held / new."
        )
    return _lines(svg, fit_lines(words.split(" "), TRACKS_X - 2 * LEFT, SMALL), LEFT, y, "s g")


def _track(
    svg: Svg, v: KnarrView, y: float, values: tuple[int, ...], top: int, kind: str, marks: dict[int, str]
) -> float:
    """One track 0..top, a lane per seat with its marker, ``marks`` under some cells; the y below."""
    cell = TRACKS_W / (top + 1)
    lanes = 7 * v.n_players + 4
    height = lanes + 13
    svg.add("rect", x=TRACKS_X, y=y, width=TRACKS_W, height=height, class_="t")
    ticks = "".join(f"M{TRACKS_X + i * cell:.1f} {y}v{height}" for i in range(1, top + 1))
    svg.add("path", d=ticks, stroke="#bbb", fill="none")
    for i in range(top + 1):
        if i % (5 if top > 20 else 1) == 0 or i in marks:
            svg.add("text", str(i), x=TRACKS_X + i * cell + cell / 2, y=y + 11, class_="m s")
    for i, text in sorted(marks.items()):
        svg.add("text", text, x=TRACKS_X + i * cell + cell / 2, y=y + height + 11, class_="m s g")
    for p, value in enumerate(values):
        cx = TRACKS_X + (min(value, top) + 0.5) * cell
        circle = element("circle", cx=cx, cy=y + 17 + 7 * p, r=3.3, fill=seat_colour(p))
        svg.piece("marker", [circle], class_=kind, data_seat=p)
    return y + height + (13 if marks else 2)


def _tracks(svg: Svg, v: KnarrView, y: float) -> float:
    """The reputation track (A.5 step 1: income at the thresholds, capped at 14) and the VP track
    (A.6: the end is triggered at 40), right of the board."""
    setup = v.data.setup
    rep_top = int(setup["reputation_max"])
    income = {int(t): f"+{vp} VP" for t, vp in setup["reputation_income"]}
    svg.add("text", "Reputation (VP each turn from the thresholds)", x=TRACKS_X, y=y + 12, class_="b")
    y = _track(svg, v, y + 17, v.rep, rep_top, "rep", income)
    end = int(setup["end_vp"])
    top = max(end + 9, -(-(max(v.vp) + 1) // 10) * 10 - 1)
    svg.add("text", f"Victory points (the end is triggered at {end})", x=TRACKS_X, y=y + 14, class_="b")
    return _track(svg, v, y + 19, v.vp, top, "vp", {end: "end"})


def _destination_lines(data: KnarrData, index: int, width: float) -> list[str]:
    """A destination on display in words (knarr.md A.3): cost, one-time gain and trade row, each wrapped
    to ``width``."""
    d = data.destinations[index]
    texts = (
        f"cost {cost_text(d)}",
        f"gain {gain_text(d.gain, short=True)}",
        f"trade row {row_text(d, short=True)}",
    )
    return [line for text in texts for line in fit_lines(text.split(" "), width, SMALL)]


def _destination(data: KnarrData, index: int, x: float, y: float, w: float, h: float) -> list[str]:
    """A destination card on display: deck and id, then its words (``_destination_lines``)."""
    d = data.destinations[index]
    out = [
        element("rect", x=x, y=y, width=w, height=h, rx=4, class_=d.deck),
        element("text", destination_name(data, index, short=True), x=x + 5, y=y + 14, class_="b"),
    ]
    for i, line in enumerate(_destination_lines(data, index, w - 10)):
        out.append(element("text", line, x=x + 5, y=y + 28 + LINE * i, class_="s"))
    return out


def _destinations(svg: Svg, v: KnarrView, y: float) -> float:
    """The Lands of Influence (display slots 3-5) beside the Trading Lands (0-2), A.4 step 1."""
    half = (INNER - 12) / 2
    w = (half - 12) / 3
    shown = [d for d in v.visible if d >= 0]
    h = 20 + LINE * max((len(_destination_lines(v.data, d, w - 10)) for d in shown), default=3)
    for k, (deck, slots, left) in enumerate(
        (("B", range(3, 6), v.dest_left[1]), ("A", range(3), v.dest_left[0]))
    ):
        x0 = LEFT + k * (half + 12)
        svg.add("text", f"{DECK_PLURALS[deck]} on display ({left} in the deck)", x=x0, y=y + 12, class_="b")
        for i, slot in enumerate(slots):
            dest, x = v.visible[slot], x0 + i * (w + 6)
            if dest >= 0:
                svg.piece("destination", _destination(v.data, dest, x, y + 18, w, h), class_="display",
                          data_slot=slot)  # fmt: skip
            else:
                svg.add("rect", x=x, y=y + 18, width=w, height=h, rx=4, fill="none", stroke="#bbb",
                        stroke_dasharray="4 3")  # fmt: skip
    return y + 18 + h


def _building(data: KnarrData, index: int, x: float, y: float, w: float, h: float) -> list[str]:
    """A Building card on display: id and cost in coins, its non-empty village rows and raid assets
    (line 24)."""
    b = data.buildings[index]
    price = f" · {b.cost} coin{'s' if b.cost != 1 else ''}"
    out = [
        element("rect", x=x, y=y, width=w, height=h, rx=4, class_="bd"),
        element("text", building_name(data, index) + price, x=x + 5, y=y + 14, class_="b"),
    ]
    for i, line in enumerate(_effect_lines(data, index, w - 10)):
        out.append(element("text", line, x=x + 5, y=y + 27 + LINE * i, class_="s"))
    return out


def _effect_lines(data: KnarrData, index: int, width: float) -> list[str]:
    """A Building's effects (``building_effects``), joined with `` · `` into lines of ``width`` px."""
    return fit_lines(building_effects(data.buildings[index], short=True), width, SMALL, " · ")


def _discs(x: float, cy: float, n: int, kind: str, **values: object) -> list[tuple[list[str], dict]]:
    """``n`` raid tokens in a row from ``x``, 14 px each: (children, piece attributes) each."""
    return [([element("circle", cx=x + 7 + 14 * i, cy=cy, r=5.5, class_="r")], {"class_": kind, **values})
            for i in range(n)]  # fmt: skip


def _skali(svg: Svg, v: KnarrView, y: float) -> float:
    """The Building display (line 28) with the raid tokens on the board and beside it (lines 13-15) on its
    heading's line."""
    data = v.data
    heading = f"Buildings on display ({v.building_deck_size} in the deck)"
    svg.add("text", heading, x=LEFT, y=y + 12, class_="b")
    x = float(WIDTH - LEFT)  # the raid tokens at the right end of the heading's line, from the right
    groups = (("beside it", v.raid_reserve, "reserve"), ("raid tokens on the board", v.raid_board, "board"))
    for label, n, kind in groups:
        x -= 14 * n
        for children, values in _discs(x, y + 8, n, kind):
            svg.piece("raid", children, **values)
        text = f"{label} {n}"
        svg.add("text", text, x=x - 4, y=y + 12, class_="s e")
        x -= text_width(text, SMALL) + 24
    y += 14
    slots = max(len(v.display), 1)
    w = (INNER - 8 * (slots - 1)) / slots
    shown = [b for b in v.display if b >= 0]
    h = 20 + LINE * max((len(_effect_lines(data, b, w - 10)) for b in shown), default=1)
    for slot, b in enumerate(v.display):
        if b >= 0:
            svg.piece("building", _building(data, b, LEFT + slot * (w + 8), y + 6, w, h),
                      class_="display", data_slot=slot)  # fmt: skip
    return y + 6 + h


def _skali_rows(svg: Svg, v: KnarrView, y: float) -> float:
    """The rows every village's skáli has (knarr-skali-expansion.txt:34-39, 47-48), under the board."""
    data = v.data
    rows = [
        f"{name}: {gain_text(g, short=True)}"
        for name, g in zip(("LoI", "TL", "same colour", "new colour"), data.skali_rows, strict=True)
        if any(g)
    ]
    rows += [
        f"raid most: {gain_text(data.skali_most, short=True)}",
        f"fewest: {gain_text(data.skali_fewest, short=True)}",
    ]
    return _lines(
        svg, fit_lines(["Skáli (every village):", *rows], TRACKS_X - 2 * LEFT, SMALL, " · "), LEFT, y
    )


def _seats(svg: Svg, t: Table, y: float) -> float:
    """One column per seat, side by side; the y below the longest."""
    n = t.view.n_players
    w = (INNER - 8 * (n - 1)) / n
    return max(_panel(svg, t, p, LEFT + p * (w + 8), y, w) for p in range(n))


def _panel(svg: Svg, t: Table, p: int, x: float, y: float, w: float) -> float:
    """Seat ``p``'s panel, ``w`` wide from (x, y): header, holdings, hand, crew by colour, destinations and
    Buildings; the y below it.  Its frame goes under what it holds once its height is known."""
    v = t.view
    current = p in _movers(v)
    colour = seat_colour(p)
    under = len(svg.lines)
    svg.add("rect", x=x, y=y, width=w, height=20, rx=4, fill=colour)
    svg.add("text", _bar(v, p, current, w - 12), x=x + 6, y=y + 14, class_="w")
    bottom = _holdings(svg, v, p, x + 6, y + 20, w - 12)
    bottom = _hand(svg, t, p, x + 6, bottom + 4, w - 12)
    bottom = _crew(svg, v.data, v.crews[p], p, x + 6, bottom + 6, w - 12)
    bottom = _grid(svg, v, p, x + 6, bottom + 6, w - 12) + 6
    frame = element("rect", x=x, y=y, width=w, height=bottom - y, rx=4, fill="#fbfbfb", stroke=colour,
                    stroke_width=3 if current else 1.5)  # fmt: skip
    svg.lines.insert(under, frame)
    return bottom


def _bar(v: KnarrView, p: int, current: bool, width: float) -> str:
    """The panel's heading: seat, VP and reputation (shortened to fit ``width``), and whether it moves."""
    for rep in ("reputation", "rep"):
        text = f"seat {p} · {v.vp[p]} VP · {rep} {v.rep[p]}"
        for mark in (" · to move", "▶ ") if current else ("",):
            shown = text + mark if mark.startswith(" ") else mark + text
            if text_width(shown, TEXT, bold=True) <= width:
                return shown
    return shown


def _movers(v: KnarrView) -> tuple[int, ...]:
    """The seats to move (``rules.to_move`` from what the view shows)."""
    if v.phase == OVER:
        return ()
    if v.phase == DISCARD:
        sizes = [sum(len(col) for col in crew) for crew in v.crews]
        return tuple(p for p in range(v.n_players) if sizes[p] == max(sizes))
    return (v.current,)


def _holdings(svg: Svg, v: KnarrView, p: int, x: float, y: float, width: float) -> float:
    """Recruits, bracelets (A.5, capped at 3), coins (line 12, capped at 3), the Renewal token (line 16)
    and the raid tokens held (line 45, one disc each), on one line where short words make them fit; the
    last baseline."""
    skali = bool(v.rules.get("skali"))
    choices = [
        (_counts(v, p, words), f"{raid} {v.raids[p]}" if skali else "")
        for words, raid in ((("recruits", "bracelets"), "raid tokens"), (("rec", "brc"), "raid tokens"),
                            (("rec", "brc"), "raids"))
    ]  # fmt: skip
    text, raids = next((c for c in choices if _room(c[1], v.raids[p]) + text_width(c[0], SMALL) <= width),
                       choices[0])  # fmt: skip
    room = _room(raids, v.raids[p])
    lines = fit_lines(text.split(" · "), width, SMALL, " · ")
    y = _lines(svg, lines, x, y + 1)
    if raids:  # at the right end of the last line, or of a line of their own
        if text_width(lines[-1], SMALL) + room > width:
            y += LINE + 1
        left = x + width - 14 * v.raids[p]
        svg.add("text", raids, x=left - 4, y=y, class_="s e")
        for children, values in _discs(left, y - 4, v.raids[p], "held", data_seat=p):
            svg.piece("raid", children, **values)
    return y


def _room(raids: str, n: int) -> float:
    """How wide the raid tokens held take on the holdings' line: words, then ``n`` discs."""
    return text_width(raids, SMALL) + 16 + 14 * n if raids else 0


def _counts(v: KnarrView, p: int, words: tuple[str, str]) -> str:
    """Seat ``p``'s recruits, bracelets, coins and Renewal token, named with ``words``."""
    parts = [f"{words[0]} {v.recruits[p]}", f"{words[1]} {v.bracelets[p]}"]
    if v.rules.get("skali"):
        parts.append(f"coins {v.coins[p]}")
        if v.n_players == 2 and v.renewal:
            parts.append("Renewal " + ("ready" if v.renewal[p] else "used"))
    return " · ".join(parts)


def _hand(svg: Svg, t: Table, p: int, x: float, y: float, width: float) -> float:
    """The hand: face up when shown, card backs otherwise (ruling R9: hands are secret); the y below."""
    v = t.view
    hand, size = t.hands[p], v.hand_sizes[p]
    label = f"hand {size}"
    svg.add("text", label, x=x, y=y + 12, class_="s b")
    left = x + text_width(label, SMALL, bold=True) + 6
    per_row = max(1, int((x + width - left + 3) // 43))
    for i in range(size):
        cx, cy = left + 43 * (i % per_row), y + 1 + 19 * (i // per_row)
        if hand is None:
            back = element("rect", x=cx, y=cy, width=40, height=16, rx=2, class_="bk")
            svg.piece("back", [back], data_seat=p)
        else:
            svg.piece("viking", _viking(v.data, hand[i], cx, cy, 40, 16), class_="hand", data_seat=p)
    return y + 1 + 19 * max(1, -(-size // per_row))


def _crew(svg: Svg, data: KnarrData, crew: tuple[tuple[int, ...], ...], p: int, x: float, y: float,
          width: float) -> float:  # fmt: skip
    """The crew zone: one column per colour, headed by its name (and count where it fits), the Vikings in
    the order played (A.5 Recruit); the y below the deepest."""
    step = min(56.0, width / 5)
    for c, col in enumerate(crew):
        cx = x + step * c
        label = f"{COLOURS[c]} {len(col)}"
        if text_width(label, SMALL) > step - 4:
            label = COLOURS[c]
        svg.add("rect", x=cx, y=y, width=step - 2, height=15, rx=2, class_=f"c{c}")
        svg.add("text", label, x=cx + (step - 2) / 2, y=y + 11.5, class_=f"k{c}")
        for i, card in enumerate(col):
            svg.piece("viking", _viking(data, card, cx, y + 17 + 15 * i, step - 2, 14), class_="crew",
                      data_seat=p)  # fmt: skip
    return y + 17 + 15 * max((len(col) for col in crew), default=0)


#: one cell of a seat's owned cards: (kind, where, children drawn at (0, 0), height)
Cell = tuple[str, str, list[str], float]


def _chip(
    title: str, parts: list[str], w: float, class_: str, dashed: bool = False
) -> tuple[list[str], float]:
    """An owned card in a seat's panel, drawn at (0, 0): its ``title`` in bold, then ``parts`` joined with
    `` · `` on the same line where they fit, else on lines of their own below; (children, height)."""
    words = GAP + " · ".join(parts) if parts else ""
    one = text_width(title, SMALL, bold=True) + text_width(words, SMALL) <= w - 10
    lines = [] if one else fit_lines(parts, w - 10, SMALL, " · ")
    h = 17 + LINE * len(lines)
    dash = "4 2" if dashed else None
    out = [
        element("rect", width=w, height=h, rx=3, class_=class_, stroke_dasharray=dash),
        element("text", x=5, y=12.5, class_="s", children=[element("tspan", title, class_="b"),
                                                           escape(words if one else "", quote=False)]),
    ]  # fmt: skip
    for i, line in enumerate(lines):
        out.append(element("text", line, x=5, y=12.5 + LINE * (i + 1), class_="s"))
    return out, h


def _small_destination(
    data: KnarrData, index: int, w: float, note: str, dashed: bool
) -> tuple[list[str], float]:
    """An owned or reserved destination: deck and id, its trade row (the gain was taken when explored)."""
    d = data.destinations[index]
    title = destination_name(data, index, short=True) + (f" · {note}" if note else "")
    return _chip(title, [row_text(d, short=True)], w, d.deck, dashed)


def _grid_cells(v: KnarrView, p: int, w: float) -> list[Cell]:
    """Seat ``p``'s destinations in the order explored (covered ones marked, Helmet A.7), its reserved ones
    (Golden Bracelet) dashed, then its Buildings (line 24), each ``w`` wide."""
    data = v.data
    cells: list[Cell] = []
    for d in v.owned[p]:
        children, h = _small_destination(data, d, w, "covered" if d in v.covered[p] else "", False)
        cells.append(("destination", "owned", children, h))
    for d in v.reserved[p]:
        children, h = _small_destination(data, d, w, "reserved", True)
        cells.append(("destination", "reserved", children, h))
    for b in v.buildings[p] if v.buildings else ():
        effects = building_effects(data.buildings[b], short=True)
        cells.append(("building", "owned", *_chip(building_name(data, b), effects, w, "bd")))
    return cells


def _grid(svg: Svg, v: KnarrView, p: int, x: float, y: float, width: float) -> float:
    """The seat's destinations and Buildings in as many columns as ``width`` holds, each cell in the
    shortest column so far; the y below the longest."""
    columns = max(1, int((width + 6) // (CHIP_W + 6)))
    w = (width - 6 * (columns - 1)) / columns
    tops = [y] * columns
    for kind, where, children, h in _grid_cells(v, p, w):
        k = tops.index(min(tops))
        at = f"translate({_num(x + k * (w + 6))},{_num(tops[k])})"
        svg.piece(kind, children, class_=where, data_seat=p, transform=at)
        tops[k] += h + 3
    return max(tops)


def _num(value: float) -> str:
    """A coordinate rounded to two places (as ``sim.picture.attrs`` writes them)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")

"""Graenaland as an SVG picture (``sim.picture``'s protocol): ``picture(state, seat)``.

The island (graenaland.txt:29-31, reference 1.2): the inland row above, the coast row below it with the
sea marked along its south edge; each terrain piece shows its id, corner mark, terrain, village cost
(line 144), the yield-improvement square (line 186) and the fortress / church / hall spaces (lines
150-153, none in the mountains).  On it: villages (houses in the seat colour), buildings (a house on
its space), heroes (W warrior, P priest, S skald; lines 70-86), public building tokens (road, yield,
market, palisade; lines 174-204) and the resource cards lying at the territory (line 66; a road's card
face down, line 182, drawn as a card back).  Below: the army strength track (line 44), one panel per
seat (ship marker for the main player, line 52; goals met, lines 223-231; hand, supply cards, houses
left; the victory point card with the advanced rules, lines 281-288) and the supply row (line 33).

With a ``seat`` the picture is drawn from ``GAME.view(state, seat)`` only (``view.py``): the other
players' hands and supply cards are counts (line 49), face-down cards backs (line 182), start cards of
the custom draft backs (line 269), the others' victory point cards hidden (line 284).  With ``seat``
None it is drawn from the whole state and says so (``sim.picture.ALL_SHOWN``): face-down cards are
still drawn as backs, with their resource written on them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sim.games.graenaland.board import Board
from sim.games.graenaland.data import BUILDINGS, GOALS, MOUNTAINS, PUBLIC, RESOURCES, TERRAINS, GraenalandData
from sim.games.graenaland.state import HEROES_NAMES, PHASES, GraenalandState
from sim.games.graenaland.view import GraenalandView
from sim.picture import ALL_SHOWN, Svg, element, seat_colour

WIDTH = 1000
TILE_W, TILE_H, GAP = 180, 164, 6
BOARD_TOP = 44
SEA_H = 18
PANEL_H = 48
#: card faces by resource (grain, cattle, wood, ore, gold) and their two-letter marks
RESOURCE_FILL = ("#F2E394", "#C68B59", "#4E8B3A", "#7D8A99", "#E0A800")
RESOURCE_INK = ("#000", "#000", "#fff", "#fff", "#000")
ABBREV = ("gr", "ca", "wo", "or", "go")
TERRAIN_FILL = ("#EEF0B5", "#B9D9A5", "#E4CFA8", "#D2D3D8")
BACK_FILL = "#2F3E5C"
PUBLIC_FILL = {"road": "#795548", "market": "#7B1FA2", "palisade": "#37474F"}
SEA = "#3C7DC4"
YIELD_X = TILE_W - 30  # the yield-improvement square, from the tile's left edge
BADGE_X = {"road": 0, "market": 38, "palisade": 88}  # public building badges along their row
HAND_SHOWN = 20  # cards drawn in a hand; more are counted


class Scene(NamedTuple):
    """What the picture may show: the board from a view, and the holdings it may reveal."""

    view: GraenalandView  # the seat's view (seat 0's when everything is shown): the public board
    seat: int | None
    cards: tuple[tuple[tuple[int, bool], ...], ...]  # per territory: (resource or -1, face down)
    start_cards: tuple[tuple[int, ...], ...]  # per territory: the draft's face-down cards (-1 unknown)
    hands: tuple[tuple[int, ...] | None, ...]  # per seat: resources, or None where only counted
    supplies: tuple[tuple[tuple[int, int], ...] | None, ...]
    victory: tuple[tuple | None, ...]  # per seat: its victory card's levels, () none, None hidden
    offers: tuple[tuple[tuple, ...] | None, ...]  # victory cards dealt, while choosing (None hidden)
    to_move: tuple[int, ...]


def scene(state: GraenalandState, seat: int | None) -> Scene:
    """The scene of ``state`` for ``seat``: from ``GAME.view(state, seat)`` alone when a seat is given."""
    from sim.games.graenaland.game import GAME

    to_move = tuple(GAME.to_move(state))
    if seat is not None:
        view = GAME.view(state, seat)
        n = view.n_players
        mine = [p == seat for p in range(n)]
        return Scene(
            view, seat, tuple(tuple((r, r < 0) for r in pile) for pile in view.cards),
            tuple((-1,) * k for k in view.draft_cards),
            tuple(view.hand if m else None for m in mine), tuple(view.supplies if m else None for m in mine),
            tuple((view.victory_card or ()) if m else None for m in mine),
            tuple(view.victory_offer if m else None for m in mine), to_move)
    view = GAME.view(state, 0)
    data: GraenalandData = state.data
    res = data.card_resource
    cards = tuple(tuple((res[c], d) for c, d in zip(pile, down, strict=True))
                  for pile, down in zip(state.cards, state.face_down, strict=True))
    cards_levels = [c.levels for c in data.victory_cards]
    return Scene(
        view, None, cards, tuple(tuple(res[c] for c in pile) for pile in state.draft_cards),
        tuple(tuple(res[c] for c in hand) for hand in state.hands),
        tuple(tuple(sorted((min(data.supply_cards[c]), max(data.supply_cards[c])) for c in s))
              for s in state.supplies),
        tuple(cards_levels[c] if c >= 0 else () for c in state.vp_card) if state.vp_card
        else ((),) * state.n_players,
        tuple(tuple(cards_levels[c] for c in offer) for offer in state.vp_offer) if state.vp_offer
        else ((),) * state.n_players,
        to_move)


def picture(state: GraenalandState, seat: int | None = None) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (None: everything, see the module docstring)."""
    sc = scene(state, seat)
    v = sc.view
    n = v.n_players
    panels_top = BOARD_TOP + 2 * TILE_H + GAP + SEA_H + 112
    height = panels_top + n * PANEL_H + 10
    svg = Svg(WIDTH, height, f"Graenaland, {n} players, round {v.round}"
              + (f" ({ALL_SHOWN})" if seat is None else f" (as seat {seat} sees it)"))
    add_defs(svg)
    _header(svg, sc)
    for t in range(v.board.n):
        _territory(svg, sc, t)
    _sea(svg, v.board)
    y = BOARD_TOP + 2 * TILE_H + GAP + SEA_H + 16
    _situation(svg, sc, y)
    _supply_line(svg, v, y + 18)
    _legend(svg, y + 36)
    _army_track(svg, v, y + 50)
    for p in range(n):
        _panel(svg, sc, p, panels_top + p * PANEL_H)
    return svg.render()


# --------------------------------------------------------------------------- names


def territory_name(board: Board, data: GraenalandData, t: int) -> str:
    """A territory in words: its piece id and terrain, e.g. "U2 (forest, coast)"."""
    where = "coast" if board.coastal[t] else "inland"
    return f"{board.pieces[t]} ({TERRAINS[board.terrain[t]]}, {where})"


def cost_words(cost: tuple[int, ...]) -> str:
    """A cost or a set of cards by resource in words: "2 grain, 1 ore" ("nothing" when empty)."""
    parts = [f"{k} {RESOURCES[r]}" for r, k in enumerate(cost) if k]
    return ", ".join(parts) if parts else "nothing"


def pair_words(pair: tuple[int, int]) -> str:
    """A supply card's two resource symbols: "grain+wood"."""
    return "+".join(RESOURCES[r] for r in pair)


def victory_card_name(data: GraenalandData, levels: tuple) -> str:
    """The data file's id of the victory card with these levels (the ids are the cards' names)."""
    for card in data.victory_cards:
        if card.levels == levels:
            return card.id
    return "a victory card"


# --------------------------------------------------------------------------- the board


def tile_origin(board: Board, t: int) -> tuple[float, float]:
    """The top left corner of territory ``t``: inland piece j between coastal pieces j and j+1 (board.py)."""
    c = board.n_players
    left = (WIDTH - c * TILE_W - (c - 1) * GAP) / 2
    if t < c:
        return left + t * (TILE_W + GAP), BOARD_TOP + TILE_H + GAP
    return left + (t - c + 0.5) * (TILE_W + GAP), BOARD_TOP


def _header(svg: Svg, sc: Scene) -> None:
    v = sc.view
    phase = PHASES[v.phase]
    builder = f", seat {v.builder} builds" if phase in ("build", "pay", "fee", "relocate", "joint") else ""
    final = " (final building)" if v.final and phase != "over" else ""
    won = f"; seat {v.announcer} announced victory" if v.announcer >= 0 else ""
    phase = "game over" if phase == "over" else f"phase {phase}"
    svg.add("text", f"Graenaland, {v.n_players} players: round {v.round}, {phase}{builder}{final}; "
            f"main player seat {v.main}{won}", x=10, y=17, font_size=15, font_weight="bold")
    caption = ALL_SHOWN if sc.seat is None else (
        f"as seat {sc.seat} sees it: the others' hands and supply cards counted, face-down cards as backs")
    svg.add("text", caption, x=10, y=34, fill="#444")


def _territory(svg: Svg, sc: Scene, t: int) -> None:
    """The terrain piece (one piece), then what stands and lies on it (a piece each)."""
    v = sc.view
    board, data = v.board, v.data
    x, y = tile_origin(board, t)
    piece = data.pieces[board.pieces[t]]
    terrain = board.terrain[t]
    parts = [element("rect", x=x, y=y, width=TILE_W, height=TILE_H, rx=6, fill=TERRAIN_FILL[terrain],
                     stroke="#555")]
    if board.coastal[t]:
        parts.append(element("rect", x=x, y=y + TILE_H - 5, width=TILE_W, height=5, fill=SEA))
    parts.append(element("text", f"{board.pieces[t]} {TERRAINS[terrain]}", x=x + 6, y=y + 15, font_size=13,
                         font_weight="bold"))
    if piece.mark:
        parts.append(element("text", piece.mark, x=x + TILE_W - 6, y=y + 14, class_="m"))
    parts.append(element("text", f"village: {cost_words(board.village_cost[t])}", x=x + 6, y=y + 28,
                         font_size=9))
    parts.append(element("use", href=f"#q{board.yield_resource[t]}", x=x + YIELD_X, y=y + 34))
    parts.append(element("use", href="#nob" if terrain == MOUNTAINS else "#slots", x=x + 6, y=y + 34))
    svg.piece("territory", parts, data_territory=t)
    for b, owner in enumerate(v.buildings[t]):
        if owner >= 0:
            svg.add("use", href=f"#{BUILDINGS[b]}", x=x + 6 + 28 * b, y=y + 34, fill=seat_colour(owner),
                    class_=f"piece {BUILDINGS[b]} seat-{owner}")
    for k, name in enumerate(PUBLIC):
        if v.public[t][k]:
            at = (x + YIELD_X, y + 34) if name == "yield" else (x + 6 + BADGE_X[name], y + 62)
            use = f"#y{board.yield_resource[t]}" if name == "yield" else f"#{name}"
            svg.add("use", href=use, x=at[0], y=at[1], class_=f"piece public {name}")
    _villages(svg, v, t, x, y + 80)
    _heroes(svg, v, t, x, y + 114)
    _cards(svg, sc, t, x, y + TILE_H - 28)


def house_path(x: float, y: float, w: float, h: float) -> str:
    """A house outline (roof and walls) in a w x h box at (x, y)."""
    roof = h * 0.4
    return f"M{x:g} {y + roof:g}L{x + w / 2:g} {y:g}L{x + w:g} {y + roof:g}V{y + h:g}H{x:g}Z"


def _villages(svg: Svg, v: GraenalandView, t: int, x: float, y: float) -> None:
    """Each village a house in its seat's colour (lines 143-147), seat by seat, 12 to a row."""
    k = 0
    for p, count in enumerate(v.villages[t]):
        for _ in range(count):
            svg.add("use", href="#v", x=x + 6 + 14 * (k % 12), y=y + 16 * (k // 12), fill=seat_colour(p),
                    class_=f"piece village seat-{p}")
            k += 1


def _heroes(svg: Svg, v: GraenalandView, t: int, x: float, y: float) -> None:
    """Each hero a disc in its seat's colour with its initial (lines 70-86), 9 to a row."""
    k = 0
    for p, places in enumerate(v.heroes):
        for hero, where in enumerate(places):
            if where == t:
                name = HEROES_NAMES[hero]
                svg.add("use", href=f"#{name}", x=x + 15 + 19 * (k % 9), y=y + 9 + 12 * (k // 9),
                        fill=seat_colour(p), class_=f"piece hero {name} seat-{p}")
                k += 1


def card_href(res: int, down: bool, small: bool = False) -> str:
    """The defined card to use: a face by resource, a back, or a back with the resource on it."""
    size = "h" if small else "c"
    if not down:
        return f"#{size}{res}"
    return f"#{size}b" if res < 0 else f"#{size}b{res}"


def _cards(svg: Svg, sc: Scene, t: int, x: float, y: float) -> None:
    """The resource cards lying at ``t`` (line 66), the face-down ones as backs (line 182); the custom
    start's face-down cards (line 269) the same way."""
    k = 0
    for res, down in sc.cards[t]:
        svg.add("use", href=card_href(res, down), x=x + 6 + 18 * k, y=y,
                class_="piece card " + ("face-down" if down else "face-up"))
        k += 1
    for res in sc.start_cards[t] if sc.start_cards else ():
        svg.add("use", href=card_href(res, True), x=x + 6 + 18 * k, y=y, class_="piece start-card")
        k += 1


def _sea(svg: Svg, board: Board) -> None:
    """The sea along the coast row (line 75: the coast is shown on the coastal pieces)."""
    x0, y0 = tile_origin(board, 0)
    x1 = tile_origin(board, board.n_players - 1)[0] + TILE_W
    top = y0 + TILE_H + 2
    svg.add("rect", x=x0, y=top, width=x1 - x0, height=SEA_H, rx=4, fill=SEA)
    svg.add("text", "sea: the coast row is the coast (heroes there move up to two pieces along it)",
            x=(x0 + x1) / 2, y=top + 13, font_size=10, text_anchor="middle", fill="#fff")


# --------------------------------------------------------------------------- below the board


def _situation(svg: Svg, sc: Scene, y: float) -> None:
    """What is being decided: the proposal voted on, the build being paid, who is to move."""
    v = sc.view
    board, data = v.board, v.data
    parts = []
    if v.proposal is not None:
        proposer, t, receivers = v.proposal
        shares = ", ".join(f"{receivers.count(p)} to seat {p}" for p in sorted(set(receivers)))
        parts.append(f"seat {proposer} proposes the cards at {territory_name(board, data, t)}: {shares}")
    if v.pending is not None:
        kind, t, k, need = v.pending
        what = f"joint {PUBLIC[k]}" if kind == "joint" else kind
        where = f" at {board.pieces[t]}" if t >= 0 else ""
        left = f" (still to pay: {cost_words(need)})" if kind == "joint" and need is not None else ""
        parts.append(f"being paid: {what}{where}{left}")
    if v.history and v.history[-1].round == v.round:
        last = v.history[-1]
        parts.append(f"last vote: seat {last.proposer} at {board.pieces[last.territory]} "
                     + ("approved" if last.approved else "rejected"))
    movers = ", ".join(f"seat {p}" for p in sc.to_move) or "nobody"
    parts.append(f"to move: {movers}")
    svg.add("text", "; ".join(parts), x=10, y=y, font_size=12)


def _supply_line(svg: Svg, v: GraenalandView, y: float) -> None:
    row = ", ".join(pair_words(p) for p in v.supply_row) or "empty"
    decks = ", ".join(f"{TERRAINS[d]} {k}" for d, k in enumerate(v.deck_sizes))
    tokens = ", ".join(f"{PUBLIC[k]} {c}" for k, c in enumerate(v.tokens))
    svg.add("text", f"supply row: {row} (deck {v.supply_deck_size}); resource decks: {decks}; "
            f"public tokens left: {tokens}", x=10, y=y, font_size=11)


def _legend(svg: Svg, y: float) -> None:
    """What the marks mean: card faces by resource, a card back, heroes, buildings."""
    parts, x = [], 10.0
    for r, name in enumerate(RESOURCES):
        parts.append(element("use", href=f"#h{r}", x=x, y=y - 12))
        parts.append(element("text", name, x=x + 16, y=y, font_size=10))
        x += 24 + 6 * len(name)
    parts.append(element("use", href="#hb", x=x, y=y - 12))
    parts.append(element("text", "face down", x=x + 16, y=y, font_size=10))
    parts.append(element("text", "heroes: W warrior, P priest, S skald; buildings: F fortress, C church, "
                         "H hall; dashed square: yield improvement", x=x + 80, y=y, font_size=10))
    svg.add("g", children=parts, class_="legend")


def _army_track(svg: Svg, v: GraenalandView, y: float) -> None:
    """The army strength track (line 44): one marker per seat on its strength; the Army goal (line 231)
    marked."""
    top = v.data.army_max
    goal = v.data.goals["army"]
    parts = [element("text", "army track", x=10, y=y + 17, font_weight="bold")]
    for s in range(1, top + 1):
        bx = 80 + (s - 1) * 46
        parts.append(element("rect", x=bx, y=y, width=44, height=26, fill="#f4f4f4", stroke="#000",
                             stroke_width=2 if s == goal else 0.5))
        parts.append(element("text", str(s) + (" goal" if s == goal else ""), x=bx + 2, y=y + 9, class_="k"))
    svg.add("g", children=parts, class_="army-track")
    stacked: dict[int, int] = {}
    for p, strength in enumerate(v.army):
        s = min(max(strength, 1), top)
        k = stacked.get(s, 0)
        stacked[s] = k + 1
        svg.add("circle", cx=80 + (s - 1) * 46 + 8 + 7 * k, cy=y + 18, r=5, fill=seat_colour(p),
                stroke="#000", class_=f"piece army seat-{p}")


def _panel(svg: Svg, sc: Scene, p: int, y: float) -> None:
    """One seat: name, main player's ship (line 52), goals (lines 223-231) or victory points (286),
    holdings."""
    v = sc.view
    colour = seat_colour(p)
    parts = [element("rect", x=4, y=y, width=WIDTH - 8, height=PANEL_H - 4, rx=4, fill="#fafafa",
                     stroke=colour, stroke_width=2),
             element("rect", x=40, y=y + 5, width=14, height=14, fill=colour, stroke="#000"),
             element("text", f"seat {p}", x=60, y=y + 17, font_size=13, font_weight="bold"),
             *_goal_parts(sc, p, y),
             element("text", f"houses left {v.houses[p]}", x=770, y=y + 17, font_size=11),
             *_victory_parts(sc, p, 870, y + 17), *_holdings(sc, p, y + 25)]
    svg.add("g", children=parts, class_=f"seat-panel seat-{p}")
    if p == v.main:
        svg.add("use", href="#ship", x=12, y=y + 8, class_="piece ship")


def _goal_parts(sc: Scene, p: int, y: float) -> list[str]:
    """The five goals: value against the victory conditions card (lines 225-231), or with victory point
    cards (line 281: that card is not used) against the seat's own card's levels where shown (286)."""
    v = sc.view
    goals = v.goals[p]
    if v.rules.get("victory_cards"):
        card = sc.victory[p]
        levels: list[tuple] = list(card) if card else [()] * len(GOALS)
        met = [bool(lv) and value >= lv[0] for value, lv in zip(goals, levels, strict=True)]
        texts = [f"{name} {value}" + (" of " + "/".join(map(str, lv)) if lv else "")
                 for name, value, lv in zip(GOALS, goals, levels, strict=True)]
        out = []
    else:
        needed = [v.data.goals[g] for g in GOALS]
        met = [value >= need for value, need in zip(goals, needed, strict=True)]
        texts = [f"{'✓ ' if ok else ''}{name} {value}/{need}"
                 for name, value, need, ok in zip(GOALS, goals, needed, met, strict=True)]
        out = [element("text", f"goals met {sum(met)} of {len(GOALS)}", x=120, y=y + 17)]
    for g, text in enumerate(texts):
        out.append(element("rect", x=240 + g * 104, y=y + 5, width=100, height=15,
                           class_="gm" if met[g] else "gn"))
        out.append(element("text", text, x=244 + g * 104, y=y + 16, font_size=10 if len(text) < 18 else 9,
                           font_weight="bold" if met[g] else None))
    return out


def _victory_parts(sc: Scene, p: int, x: float, y: float) -> list[str]:
    """The victory points of a seat whose card is shown (advanced rules, line 286)."""
    if not sc.view.rules.get("victory_cards"):
        return []
    card = sc.victory[p]
    if card is None:
        text = "victory card hidden"
    elif not card:
        text = "no victory card yet"
    else:
        points = sum(1 for val, lv in zip(sc.view.goals[p], card, strict=True) for need in lv if val >= need)
        text = f"victory points {points}/{sc.view.data.victory_points}"
    return [element("text", text, x=x, y=y, font_size=11, font_weight="bold")]


def _holdings(sc: Scene, p: int, y: float) -> list[str]:
    """The hand (faces where shown, backs otherwise, line 49), supply cards, waiting heroes, victory
    card."""
    v = sc.view
    hand = sc.hands[p]
    parts = [element("text", "hand", x=40, y=y + 12, font_size=10)]
    x = 66.0
    cards = sorted(hand) if hand is not None else [-1] * v.hand_sizes[p]
    for res in cards[:HAND_SHOWN]:
        parts.append(element("use", href=card_href(res, res < 0, small=True), x=x, y=y))
        x += 14
    if len(cards) > HAND_SHOWN:
        parts.append(element("text", f"+{len(cards) - HAND_SHOWN}", x=x + 2, y=y + 11, font_size=10))
        x += 22
    words = [f"{len(cards)} card{'s' if len(cards) != 1 else ''}"]
    supplies = sc.supplies[p]
    if supplies is None:
        words.append(f"{v.supply_counts[p]} supply cards")
    elif supplies:
        words.append("supply " + ", ".join(pair_words(s) for s in supplies))
    for hero, where in enumerate(v.waiting[p]):
        if where >= 0:
            words.append(f"{HEROES_NAMES[hero]} waits at {v.board.pieces[where]}")
    words += _victory_words(sc, p)
    parts.append(element("text", "; ".join(words), x=x + 6, y=y + 12, font_size=10))
    return parts


def _victory_words(sc: Scene, p: int) -> list[str]:
    v = sc.view
    data = v.data
    offer = sc.offers[p]
    if offer:
        return ["choosing from " + ", ".join(victory_card_name(data, lv) for lv in offer)]
    card = sc.victory[p]
    if card:
        return ["victory card " + victory_card_name(data, card)]
    return []


# --------------------------------------------------------------------------- shapes defined once


STYLE = (".m{font-size:10px;text-anchor:end;fill:#666}.k{font-size:7px;fill:#555}"
         ".gm{fill:#BFE3B4;stroke:#4A8A3A}.gn{fill:#fff;stroke:#bbb}")


def _card_defs(prefix: str, w: float, h: float, size: int, marked: bool) -> list[str]:
    """Card faces ``{prefix}0..4``, the back ``{prefix}b`` and (``marked``) backs with their resource
    written on them, ``{prefix}b0..4``."""
    mid: dict[str, Any] = dict(x=w / 2, y=h / 2 + size / 3, font_size=size, text_anchor="middle")
    out = []
    for r in range(len(RESOURCES)):
        out.append(element("g", id=f"{prefix}{r}", children=[
            element("rect", width=w, height=h, rx=2, fill=RESOURCE_FILL[r], stroke="#333"),
            element("text", ABBREV[r], fill=RESOURCE_INK[r], **mid)]))
    back = [element("rect", width=w, height=h, rx=2, fill=BACK_FILL, stroke="#000"),
            element("rect", x=2, y=2, width=w - 4, height=h - 4, rx=1, fill="none", stroke="#8899BB")]
    out.append(element("g", id=f"{prefix}b", children=back))
    for r in range(len(RESOURCES) if marked else 0):
        out.append(element("g", id=f"{prefix}b{r}", children=[
            back[0], element("rect", x=2, y=h / 2 - size / 2 - 2, width=w - 4, height=size + 4, rx=1,
                             fill=RESOURCE_FILL[r]),
            element("text", ABBREV[r], fill=RESOURCE_INK[r], **mid)]))
    return out


def _board_defs() -> list[str]:
    """Houses, buildings, heroes, public building tokens, the yield square, the ship."""
    white: dict[str, Any] = dict(text_anchor="middle", fill="#fff", stroke="#000", stroke_width=0.4,
                                 font_weight="bold")
    dashed: dict[str, Any] = dict(fill="none", stroke="#777", stroke_dasharray="3 2")
    out = [element("path", id="v", d=house_path(0, 0, 12, 14), stroke="#000")]
    for b, name in enumerate(BUILDINGS):
        out.append(element("g", id=name, children=[element("path", d=house_path(0, 0, 24, 24), stroke="#000"),
                   element("text", name[0].upper(), x=12, y=20, font_size=11, **white)]))
    for name in HEROES_NAMES:
        out.append(element("g", id=name, children=[element("circle", r=8.5, stroke="#000"),
                   element("text", name[0].upper(), y=4, font_size=11, **white)]))
    slots = []
    for b, name in enumerate(BUILDINGS):
        slots.append(element("rect", x=28 * b, width=24, height=24, **dashed))
        slots.append(element("text", name[0].upper(), x=12 + 28 * b, y=16, font_size=10, text_anchor="middle",
                             fill="#888"))
    out.append(element("g", id="slots", children=slots))
    out.append(element("text", "no buildings", id="nob", y=16, font_size=9, fill="#666"))
    for name, colour in PUBLIC_FILL.items():
        width = 7 + 6 * len(name)
        out.append(element("g", id=name, children=[element("rect", width=width, height=13, rx=3, fill=colour),
                   element("text", name, x=width / 2, y=10, font_size=9, text_anchor="middle", fill="#fff")]))
    for r in range(len(RESOURCES)):
        text: dict[str, Any] = dict(x=12, y=16, font_size=10, text_anchor="middle")
        out.append(element("g", id=f"q{r}", children=[element("rect", width=24, height=24, **dashed),
                   element("text", ABBREV[r], fill="#777", **text)]))
        out.append(element("g", id=f"y{r}", children=[
            element("rect", width=24, height=24, rx=3, fill=RESOURCE_FILL[r], stroke="#000", stroke_width=2),
            element("text", ABBREV[r], fill=RESOURCE_INK[r], font_weight="bold", **text)]))
    out.append(element("g", id="ship", children=[
        element("path", d="M0 10H22L17 16H5Z", fill="#6D4C41"),
        element("path", d="M11 -4V10M12 -3L20 7H12Z", fill="#eee", stroke="#333")]))
    return out


def add_defs(svg: Svg) -> None:
    """The style sheet and the shapes every picture uses (one line each)."""
    svg.add("style", STYLE)
    cards = [*_card_defs("c", 16, 22, 9, True), *_card_defs("h", 13, 17, 7, False)]
    svg.add("defs", children=[*cards, *_board_defs()])

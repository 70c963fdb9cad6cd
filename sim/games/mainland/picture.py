"""Mainland's picture (``sim.picture``): a state as one SVG document, made in pure Python.

The board within its limit (mainland.txt:57, ``board`` in the data file) as a grid of tiles: each tile
one ``piece tile`` element, tinted in its owner's colour (``sim.picture.seat_colour``), its item as a
short label (``LABELS``; advanced items, lines 117-123, in bold).  Each seat's Mainland (its largest
territory, lines 197-201, chosen as ``kernels.score_board`` chooses it: ruling R12) is outlined in the
seat's colour.  Beside the board, one panel per seat: score (Mainland tiles + Mainland items + minor
items, lines 205-227), chieftain tokens (line 73), hand, deck and discard pile sizes, and the hand's
cards where the picture may show them.  Under the board, a legend of the labels.

``seat`` None shows every hand and the top card of every deck ("all hidden information shown");
a seat is shown only what ``view.view_of`` gives it: its own hand, the other hands as card backs
(line 77), every deck as a count (line 79), the discard piles face up (ruling R9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.mainland.items import ADVANCED, EMPTY, ITEMS
from sim.games.mainland.state import CAMP, OVER, PHASES, MainlandState
from sim.games.mainland.view import view_of
from sim.picture import ALL_SHOWN, Svg, element, seat_colour

#: a short label per item code (index 0, empty space, is never drawn)
LABELS = ("", "camp", "tmpl", "pl", "wht", "for", "wd", "mtn", "gld", "vil", "twr", "war", "rid", "CAS")
#: tile size, board origin and the width of the seat panels, in pixels
CELL = 34
BOARD_X, BOARD_Y = 26, 58
PANEL_W = 320
MINI = 18  # a tile of a card in a hand
PANEL_H = 130  # one seat's panel
WHAT_NEXT = {"camp": "places the camp", "start": "starts the turn", "place": "places a card or passes"}


@dataclass(frozen=True)
class Shown:
    """What one picture shows: the view of a seat, or everything (``seat`` None)."""

    seat: int | None
    n_players: int
    phase: int
    round: int
    current: int
    items: np.ndarray
    owner: np.ndarray
    scores: np.ndarray
    hands: tuple[tuple[int, ...] | None, ...]  # None: face down (line 77)
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    deck_tops: tuple[int | None, ...]  # shown only with everything (line 79)
    discards: tuple[tuple[int, ...], ...]
    tokens: tuple[int, ...]
    card_ids: tuple[str, ...]
    rotations: np.ndarray
    points: np.ndarray
    start_tokens: int


def shown(state: MainlandState, seat: int | None) -> Shown:
    """Everything (``seat`` None) or exactly ``view_of(state, seat)`` plus whose turn it is (public:
    ``hidden.determinize`` keeps it)."""
    data = state.data
    if seat is None:
        hands: tuple[tuple[int, ...] | None, ...] = tuple(map(tuple, state.hands))
        tops = tuple(d[0] if d else None for d in state.decks)
        sizes = tuple(map(len, state.hands)), tuple(map(len, state.decks))
        items, owner, scores = state.items, state.owner, state.scores
        discards = tuple(map(tuple, state.discards))
        phase, rnd, n, tokens = state.phase, state.round, state.n_players, tuple(state.tokens)
    else:
        view = view_of(state, data, seat)
        hands = tuple(view.hand if p == seat else None for p in range(view.n_players))
        tops = (None,) * view.n_players
        sizes = view.hand_sizes, view.deck_sizes
        items, owner, scores, discards = view.items, view.owner, view.scores, view.discards
        phase, rnd, n, tokens = view.phase, view.round, view.n_players, view.tokens
    assert scores is not None  # set by rules.new_game
    return Shown(seat, n, phase, rnd, state.current, items, owner, scores, hands, sizes[0], sizes[1], tops,
                 discards, tokens, data.card_ids, data.rotations, data.points, data.tokens)


def picture(state: MainlandState, seat: int | None = None) -> str:
    """The SVG of ``state`` as ``seat`` sees it (None: everything; see the module docstring)."""
    s = shown(state, seat)
    rows, cols = s.items.shape
    board_w, board_h = cols * CELL, rows * CELL
    panel_x = BOARD_X + board_w + 18
    legend_y = BOARD_Y + board_h + 14
    width = panel_x + PANEL_W + 8
    height = max(legend_y + 52, BOARD_Y + s.n_players * PANEL_H + 4)
    svg = Svg(width, height, f"Mainland, {s.n_players} players, round {s.round}")
    svg.add("style", _style(s.n_players))
    svg.add("rect", width=width, height=height, fill="#fff")
    _header(svg, s)
    _board(svg, s)
    _legend(svg, s, legend_y)
    for p in range(s.n_players):
        _panel(svg, s, p, panel_x, BOARD_Y + p * PANEL_H)
    return svg.render()


def _style(n_players: int) -> str:
    """The shared look: tiles and their labels, one tint per seat (``.sP``)."""
    seats = "".join(f".s{p} rect{{fill:{_tint(seat_colour(p))}}}" for p in range(n_players))
    bold = ",".join(f".{ITEMS[i]} text" for i in ADVANCED)
    return (
        ".tile rect{stroke:#fff;stroke-width:1}"
        ".tile text{text-anchor:middle;font-size:11px;fill:#222}"
        f"{bold}{{font-weight:bold;font-size:12px}}"
        ".plain text,.wheat text{fill:#7a5c00}.forest text,.wood text{fill:#1d5e20}"
        ".mountain text,.gold text{fill:#4e3b30}"
        ".mini path{stroke:#fff}.mini text{text-anchor:middle;font-size:8px;fill:#222}"
        ".mini .name{font-size:9px}"
        ".back{fill:#777;stroke:#444}.small{font-size:10px;fill:#444}"
        f"{seats}"
    )


def _tint(colour: str, white: float = 0.6) -> str:
    """``colour`` mixed with ``white`` parts of white: a light fill the labels read well on."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(v + (255 - v) * white):02x}" for v in rgb)


def _header(svg: Svg, s: Shown) -> None:
    """Round, whose turn and what it decides; whose eyes the picture is seen with."""
    if s.phase == OVER:
        line = f"Mainland, {s.n_players} players: game over after round {s.round}"
    else:
        when = "camps being placed (line 67)" if s.phase == CAMP else f"round {s.round}"
        line = f"Mainland, {s.n_players} players, {when}: seat {s.current} {WHAT_NEXT[PHASES[s.phase]]}"
    svg.add("text", line, x=BOARD_X, y=20, font_size=15, font_weight="bold")
    if s.seat is None:
        caption = f"{ALL_SHOWN}: every hand and the top of every deck"
    else:
        caption = f"as seat {s.seat} sees it: other hands face down (line 77), decks unseen (line 79)"
    svg.add("text", caption, x=BOARD_X, y=38, class_="small")


def _board(svg: Svg, s: Shown) -> None:
    """The empty board and its grid, the row and column numbers, the tiles, the Mainland outlines."""
    rows, cols = s.items.shape
    svg.add("rect", x=BOARD_X, y=BOARD_Y, width=cols * CELL, height=rows * CELL, fill="#f4f1ea",
            stroke="#999")
    grid = "".join(f"M{BOARD_X + c * CELL} {BOARD_Y}v{rows * CELL}" for c in range(1, cols))
    grid += "".join(f"M{BOARD_X} {BOARD_Y + r * CELL}h{cols * CELL}" for r in range(1, rows))
    svg.add("path", d=grid, stroke="#ddd", fill="none")
    numbers = [element("text", str(c), x=BOARD_X + c * CELL + CELL // 2, y=BOARD_Y - 4) for c in range(cols)]
    numbers += [element("text", str(r), x=BOARD_X - 4, y=BOARD_Y + r * CELL + 21, text_anchor="end")
                for r in range(rows)]
    svg.add("g", children=numbers, class_="small", text_anchor="middle", font_size=9)
    for r, c in zip(*np.nonzero(s.items), strict=True):
        x, y = BOARD_X + int(c) * CELL, BOARD_Y + int(r) * CELL
        item = int(s.items[r, c])
        svg.piece(
            "tile",
            [element("rect", x=x, y=y, width=CELL, height=CELL),
             element("text", LABELS[item], x=x + CELL // 2, y=y + 21)],
            class_=f"{ITEMS[item]} s{int(s.owner[r, c])}",
        )
    for p in range(s.n_players):
        cells = mainland_cells(s.items, s.owner, p, s.points)
        if cells:
            svg.add("path", class_="mainland", d=_outline(cells), fill="none", stroke=seat_colour(p),
                    stroke_width=3.5, stroke_linecap="square", data_seat=p)


def mainland_cells(
    items: np.ndarray, owner: np.ndarray, seat: int, points: np.ndarray
) -> set[tuple[int, int]]:
    """The tiles of ``seat``'s Mainland: its largest territory (orthogonally connected tiles of its colour,
    line 197), ties to the higher Mainland value (line 201), then to the lower minor value (ruling R12),
    then to the first met row by row: ``kernels.score_board``'s choice, whose score it gives."""
    rows, cols = items.shape
    mine = (items != EMPTY) & (owner == seat)
    seen: set[tuple[int, int]] = set()
    best: tuple[int, int, int] | None = None
    chosen: set[tuple[int, int]] = set()
    for r0, c0 in zip(*np.nonzero(mine), strict=True):
        start = (int(r0), int(c0))
        if start in seen:
            continue
        region, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < rows and 0 <= cc < cols and mine[rr, cc] and (rr, cc) not in region:
                    region.add((rr, cc))
                    stack.append((rr, cc))
        seen |= region
        inside = sum(int(points[items[cell], 0]) for cell in region)
        minor = sum(int(points[items[cell], 1]) for cell in region)
        key = (len(region), inside, -minor)
        if best is None or key > best:
            best, chosen = key, region
    return chosen


def _outline(cells: set[tuple[int, int]]) -> str:
    """Path data along the sides of ``cells`` that face no other cell of it (runs merged)."""
    top = sorted((r, c) for r, c in cells if (r - 1, c) not in cells)
    bottom = sorted((r + 1, c) for r, c in cells if (r + 1, c) not in cells)
    left = sorted((c, r) for r, c in cells if (r, c - 1) not in cells)
    right = sorted((c + 1, r) for r, c in cells if (r, c + 1) not in cells)
    out = []
    for line, cell in _runs(top + bottom):
        out.append(f"M{BOARD_X + cell[0] * CELL} {BOARD_Y + line * CELL}h{cell[1] * CELL}")
    for line, cell in _runs(left + right):
        out.append(f"M{BOARD_X + line * CELL} {BOARD_Y + cell[0] * CELL}v{cell[1] * CELL}")
    return "".join(out)


def _runs(edges: list[tuple[int, int]]) -> list[tuple[int, tuple[int, int]]]:
    """Unit edges ``(line, position)`` merged into runs ``(line, (first position, length))``."""
    runs: list[tuple[int, tuple[int, int]]] = []
    for line, pos in sorted(set(edges)):
        if runs and runs[-1][0] == line and sum(runs[-1][1]) == pos:
            runs[-1] = (line, (runs[-1][1][0], runs[-1][1][1] + 1))
        else:
            runs.append((line, (pos, 1)))
    return runs


def _legend(svg: Svg, s: Shown, y: int) -> None:
    """Each label with its item and its points inside the Mainland / in a minor territory (lines 205-227)."""
    parts = []
    for i in range(1, len(ITEMS)):
        inside, minor = (int(v) for v in s.points[i])
        parts.append(f"{LABELS[i]} {ITEMS[i]}" + (f" {inside}/{minor}" if inside or minor else ""))
    half = (len(parts) + 1) // 2
    svg.add("text", " · ".join(parts[:half]), x=BOARD_X, y=y, class_="small")
    svg.add("text", " · ".join(parts[half:]), x=BOARD_X, y=y + 14, class_="small")
    svg.add("text", "points: inside your Mainland / in a minor territory; +1 per Mainland tile (line 207);"
            " outline: each seat's Mainland", x=BOARD_X, y=y + 28, class_="small")


def _panel(svg: Svg, s: Shown, p: int, x: int, y: int) -> None:
    """Seat ``p``: colour, score and its parts, tokens, hand / deck / discard sizes, the hand."""
    colour = seat_colour(p)
    total, tiles, inside, minor = (int(v) for v in s.scores[p])
    turn = " ▶ to move" if s.phase != OVER and s.current == p else ""
    you = " (you)" if s.seat == p else ""
    svg.add("rect", x=x, y=y, width=PANEL_W, height=PANEL_H - 6, rx=5, fill=_tint(colour, 0.88),
            stroke=colour, stroke_width=2 if turn else 1)
    svg.add("text", f"Seat {p}{you}{turn}", x=x + 8, y=y + 17, font_weight="bold", fill=colour, font_size=14)
    svg.add("text", f"{total} pts", x=x + PANEL_W - 8, y=y + 18, font_weight="bold", font_size=16,
            text_anchor="end")
    svg.add("text", f"Mainland {tiles} tiles + {inside} items · minor {minor}", x=x + 8, y=y + 33,
            class_="small")
    slots = range(max(s.start_tokens, s.tokens[p]))
    tokens = [element("circle", cx=x + 14 + 13 * k, cy=y + 45, r=5, stroke=colour,
                      fill=colour if k < s.tokens[p] else "none") for k in slots]
    svg.add("g", children=tokens, class_="tokens", data_seat=p, data_left=s.tokens[p])
    svg.add("text", f"{s.tokens[p]} tokens · hand {s.hand_sizes[p]} · deck {s.deck_sizes[p]}"
            f" · discards {len(s.discards[p])}", x=x + 14 + 13 * s.start_tokens, y=y + 49, class_="small")
    top = s.deck_tops[p]
    known = ([f"next draw {s.card_ids[top]}"] if top is not None else []) + (
        [f"last discarded {s.card_ids[s.discards[p][-1]]}"] if s.discards[p] else [])
    if known:
        svg.add("text", " · ".join(known), x=x + 8, y=y + 64, class_="small")
    hand = s.hands[p]
    for k in range(s.hand_sizes[p]):
        hx, hy = x + 8 + k * (2 * MINI + 24), y + 72
        if hand is None:
            svg.add("rect", x=hx, y=hy, width=2 * MINI, height=2 * MINI, rx=3, class_="back")
        else:
            svg.add("g", children=_mini_card(hand[k], s), class_=f"mini s{p}",
                    transform=f"translate({hx},{hy})")


def _mini_card(card: int, s: Shown) -> list[str]:
    """A hand card as printed (rotation 0): its four items, its name under it."""
    out = [element("rect", width=2 * MINI, height=2 * MINI),
           element("path", d=f"M{MINI} 0v{2 * MINI}M0 {MINI}h{2 * MINI}")]
    for j, item in enumerate(s.rotations[card, 0].tolist()):
        out.append(element("text", LABELS[item], x=(j % 2) * MINI + MINI // 2, y=(j // 2) * MINI + 12))
    out.append(element("text", s.card_ids[card], x=MINI, y=2 * MINI + 10, class_="name"))
    return out

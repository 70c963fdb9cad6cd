"""Drawing parts the Greenland picture modules share (``picture``, ``picture_seats``): wrapped text and a
tribe's token of tribesmen."""

from __future__ import annotations

from typing import Any

from sim.games.greenland.picture_shown import Shown
from sim.picture import element, seat_colour

#: the few presentation classes the pictures share (one ``<style>`` line keeps them small): ``glw`` white bold
#: words (a card's name), ``glt`` a token's count, ``gls`` small words, ``glr`` the faces that kill, ``glb``
#: a placard's elders (bold, in the seat's colour)
STYLE = (
    ".glw{fill:#fff;font-weight:bold}.glt{fill:#fff;font-weight:bold;text-anchor:middle;font-size:8.4px}"
    ".gls{font-size:8px}.glr{fill:#a00}.glb{font-weight:bold;font-size:10px}"
)


def text_lines(text: str, x: float | None, y: float, width: int, step: float = 10, **attrs: Any) -> list[str]:
    """``text`` as ``<text>`` lines of at most ``width`` characters (broken at spaces); ``x`` None leaves
    it out (0)."""
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    out.append(line)
    return [element("text", t, x=x, y=y + k * step, **attrs) for k, t in enumerate(out)]


def tribesmen(s: Shown, seat: int, place: int) -> tuple[int, int, bool]:
    """(Hunters, Guards or Raiders; colonists; whether the Alpha is there) of ``seat`` on ``place``."""
    v = s.view
    return v.hunters[seat].get(place, 0), v.colonists[seat].get(place, 0), v.alpha[seat] == place


def token(seat: int, count: int, colonists: bool, alpha: bool, r: float) -> list[str]:
    """One tribe's tribesmen on a place, centred on (0, 0): a circle (a square for colonists, line 50) in the
    seat's colour (grey for seat -1, the legend's) with how many; a thick dark ring when the Alpha is among
    them (line 55)."""
    colour = seat_colour(seat) if seat >= 0 else "#777"
    ring: dict[str, Any] = {"stroke": "#111", "stroke_width": 2.5} if alpha else {}
    if colonists:
        shape = element("rect", x=-r, y=-r, width=2 * r, height=2 * r, fill=colour, **ring)
    else:
        shape = element("circle", r=r, fill=colour, **ring)
    label = f"{count}" + ("A" if alpha else "")
    size = None if r == 8 else r * 1.05  # the class's size fits the rows' tokens (r 8)
    return [shape, element("text", label, y=r * 0.4, font_size=size, class_="glt")]


def at(x: float, y: float) -> str:
    """A ``transform`` moving a group's (0, 0) to (x, y)."""
    return f"translate({x:g} {y:g})"


def placed_token(seat: int, count: int, colonists: bool, alpha: bool, x: float, y: float, r: float) -> str:
    """``token`` as one ``<g>`` centred on (x, y) (inside a piece)."""
    return element("g", children=token(seat, count, colonists, alpha, r), transform=at(x, y))

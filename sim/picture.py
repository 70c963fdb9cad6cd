"""Pictures of game states as SVG, made in pure Python, and the action of a decision in words.

A game plug-in declares (``sim.plugin.GamePlugin``):

* ``picture = "module:function"``, a function ``(state, seat: int | None) -> str`` returning one SVG
  document; ``seat`` None shows everything (the picture then says "all hidden information shown"),
  a seat shows only what the rules let that seat see (others' hands as backs, and so on);
* ``describe = "module:function"``, a function ``(state, seat, option) -> str`` saying in plain words
  what ``seat`` does by choosing ``option`` in ``state`` (called before the choice is applied), for
  example "places card 14 (village, tower / wheat, plain) rotated 90° at row 5, col 7" (a leading
  "seat N " may be given: the viewer, which names the seat and its strategy itself, drops it).  The
  words are the same in every view of a replay: they say what the rules reveal of a choice once it is
  made (a card drawn face down is "a face-down card"), never more.

The SVG keeps one layout the replay viewer (``sim.viewer``) relies on: the ``<svg>`` opening tag on the
first line, then **one top-level element per line** (a ``<g>`` for a composite piece), then ``</svg>``.
The viewer stores each distinct line once and every frame as the list of its lines, so a 300-decision
game stays small.  Every piece on the board is one top-level element with ``class="piece KIND"`` (a
tile, a settlement, a hero...): tests count them against the state.  ``Svg`` below writes that layout;
a game's picture module builds on it, and lays out its words with ``text_width`` and ``fit_lines``.

Pictures are deterministic: the same state and seat give the same text, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

#: one colour per seat (Okabe-Ito: distinguishable with the common colour-vision deficiencies)
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
#: the caption of a picture that shows every seat's secrets
ALL_SHOWN = "all hidden information shown"


#: the advance widths of DejaVu Sans (the usual sans-serif on Linux, and a wide one: a layout measured
#: with it fits Helvetica, Arial or Liberation Sans too) in thousandths of an em, of " " to "~"
_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775,
    752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390,
    337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
)  # fmt: skip
#: the same in DejaVu Sans Bold
_BOLD_WIDTHS = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821,
    837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457,
    365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)  # fmt: skip
#: (regular, bold) widths of the other characters the pictures use; any other counts as a wide one
_OTHER_WIDTHS = {
    "·": (318, 380), "–": (500, 500), "°": (500, 500), "×": (838, 838), "▶": (769, 769), "\u2002": (500, 500),
}  # fmt: skip


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (the same in every game's picture and in the viewer's score chart)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is at font size ``size`` (DejaVu Sans, the wide font a layout is measured with)."""
    table = _BOLD_WIDTHS if bold else _WIDTHS
    total = 0
    for ch in text:
        code = ord(ch) - 32
        if 0 <= code < len(table):
            total += table[code]
        else:
            total += _OTHER_WIDTHS.get(ch, (700, 760))[bold]
    return total * size / 1000


def fit_lines(
    parts: Iterable[str], width: float, size: float, sep: str = " ", bold: bool = False
) -> list[str]:
    """``parts`` joined with ``sep`` into lines no wider than ``width`` at font size ``size`` (a part
    wider than that alone keeps a line of its own); ``fit_lines(text.split(), ...)`` wraps words."""
    lines: list[str] = []
    for part in parts:
        if lines and text_width(lines[-1] + sep + part, size, bold) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def _attribute(name: str) -> str:
    """A keyword argument's SVG attribute name: ``class_`` -> ``class``, ``font_size`` -> ``font-size``,
    ``data_kind`` -> ``data-kind``."""
    return name.rstrip("_").replace("_", "-")


def attrs(values: Mapping[str, Any]) -> str:
    """`` name="value"`` pairs, escaped, in the order given; None values are left out, floats rounded
    to two places (compact and deterministic)."""
    out = []
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        out.append(f' {_attribute(name)}="{escape(str(value), quote=True)}"')
    return "".join(out)


def element(tag: str, text: str | None = None, /, children: Iterable[str] = (), **values: Any) -> str:
    """One element as a single line: ``<tag a="..."/>``, with ``text`` (escaped) or ``children``
    (already-made elements) inside."""
    inner = escape(text, quote=False) if text is not None else "".join(children)
    if not inner:
        return f"<{tag}{attrs(values)}/>"
    return f"<{tag}{attrs(values)}>{inner}</{tag}>"


class Svg:
    """An SVG document built one top-level element (one line) at a time."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width, self.height = width, height
        self.lines: list[str] = [element("title", title)]

    def add(self, tag: str, text: str | None = None, /, children: Iterable[str] = (), **values: Any) -> None:
        """Append one top-level element (see ``element``)."""
        self.lines.append(element(tag, text, children=children, **values))

    def piece(self, kind: str, children: Iterable[str], **values: Any) -> None:
        """Append one piece on the board: a ``<g class="piece KIND">`` holding ``children``."""
        extra = values.pop("class_", "")
        self.add("g", children=children, class_=f"piece {kind} {extra}".strip(), **values)

    def render(self) -> str:
        """The document: the opening tag, one element per line, the closing tag."""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:g} {self.height:g}"'
            f' width="{self.width:g}" height="{self.height:g}" font-family="sans-serif" font-size="12">'
        )
        return "\n".join([head, *self.lines, "</svg>"]) + "\n"


class Picture:
    """An SVG picture that displays itself in Jupyter (``_repr_svg_``) and saves itself (``save``)."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Write the SVG to ``path`` (a temporary name first, then renamed: never half-written)."""
        from sim.manifest import write_text_atomic

        write_text_atomic(self.svg, path)


def declared(game: str) -> Any:
    """The plug-in of ``game`` as runs find it (``sim.games.GAMES``: the registered games and any a test
    adds), else the registered one (a one-line ``SkaldError`` naming the known games)."""
    from sim.games import GAMES
    from sim.plugin import plugin

    return GAMES[game] if game in GAMES else plugin(game)


def declared_function(game: str, field: str, purpose: str = "") -> Any:
    """The function a game's plug-in names in ``field`` (``picture`` or ``describe``); a one-line
    ``SkaldError`` when the field is empty (``purpose`` says what is then missing)."""
    from sim.errors import SkaldError
    from sim.game import capability
    from sim.plugin import load_object

    path = capability(declared(game), field)
    if path is None:
        raise SkaldError(f"game {game!r} declares no {field} (its plug-in's {field} field is empty){purpose}")
    return load_object(path, f"the {field} of {game!r}")


def picture(game: str, state: Any, seat: int | None = None) -> Picture:
    """The picture of ``state`` of the registered game ``game``, as ``seat`` sees it (None: everything)."""
    return Picture(declared_function(game, "picture")(state, seat))


def describe(game: str, state: Any, seat: int, option: Any) -> str:
    """What ``seat`` does by choosing ``option`` in ``state``, in words (before it is applied)."""
    return str(declared_function(game, "describe")(state, seat, option))


def has_pictures(game: str) -> bool:
    """Whether the registered game ``game`` declares a picture (``sim.game.has_capability``)."""
    from sim.game import has_capability

    return has_capability(declared(game), "picture")

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
a game's picture module builds on it.

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


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (the same in every game's picture and in the viewer's score chart)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


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
    from sim.plugin import load_object

    path = getattr(declared(game), field)
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
    """Whether the registered game ``game`` declares a picture."""
    return declared(game).picture is not None

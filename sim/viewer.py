"""The replay viewer: one recorded game as a self-contained HTML page.

    skald replay RUN --game ID --html FILE [--view all|N]

The game is played again from its seed and checked against its records (``sim.replay``), its frames drawn
in every view (``sim.frames``), and the page written from ``templates/viewer.html.j2``: the board, a
slider, step buttons and the arrow keys, the action in words, a score chart with a cursor at the current
decision, a choice of whose view to show, and the game's title, seed and seats.  Everything is inline
(no URL, no network); the page is deterministic (the same run and game give the same bytes).

The score chart follows the view: with all hidden information shown it charts the whole game (an
analyst's view); in a seat's view only the scores up to the current decision, and only the seat's own
where the scores are not public (``Frames.public_scores``), so that it tells no more than the seat knows.

In Jupyter, ``replay(folder, game_id)`` (or ``Replay``) displays the page (``_repr_html_``, inlined in an
iframe's ``srcdoc`` so that its script runs) and saves it (``save``).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from sim.errors import SkaldError
from sim.frames import Frames, check_pictured, frames_of
from sim.picture import Picture, seat_colour
from sim.replay import recorded

TEMPLATES = Path(__file__).resolve().parent / "templates"


def script_json(value: object) -> str:
    """``value`` as JSON that can sit inside a ``<script>`` element (no ``</`` or ``<!--`` in it)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def page(frames: Frames, seat: int | None = None) -> str:
    """The viewer page of ``frames``, first showing seat ``seat``'s view (None: everything shown)."""
    import jinja2
    from markupsafe import Markup

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )  # fmt: skip
    colours = [seat_colour(s) for s in range(len(frames.seat_texts))]
    return env.get_template("viewer.html.j2").render(
        title=frames.title, game_id=frames.game_id, run=frames.run, seed=frames.seed,
        seats=frames.seat_texts, colours=colours, views=frames.views,
        initial_view=0 if seat is None else seat + 1,
        data=Markup(script_json(frames.to_json())), colours_json=Markup(script_json(colours)),
    )  # fmt: skip


def parse_view(text: str | None) -> int | None:
    """``--view``: ``all`` (None) or a seat number (a one-line ``SkaldError`` otherwise)."""
    if text is None or text == "all":
        return None
    try:
        return int(text)
    except ValueError:
        raise SkaldError(f"--view must be 'all' or a seat number, not {text!r}") from None


def _check_seat(seat: int | None, players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        raise SkaldError(f"--view must be 'all' or a seat from 0 to {players - 1}, not {seat}")


def check_output(path: str | Path) -> Path:
    """The page's path, refused (one line) where it cannot be written: a folder, no folder to hold it, or
    a file there that is not a page Skald wrote (``sim.outputs.check_page``)."""
    from sim.outputs import check_page

    return check_page(path, "--html", "the replay viewer", report=False)


class Replay:
    """One recorded game's viewer: played again, checked and drawn on creation; displays itself in
    Jupyter (``_repr_html_``), saves itself (``save``) and gives any frame as a ``Picture``."""

    def __init__(self, folder: str | Path, game_id: int, seat: int | None = None) -> None:
        game = recorded(folder, game_id)
        check_pictured(game.plan.game_name)
        _check_seat(seat, game.plan.players)
        self.seat = seat
        self.frames = frames_of(game)
        self.html = page(self.frames, seat)

    def __len__(self) -> int:
        return len(self.frames.captions)

    def picture(self, frame: int, seat: int | None = None) -> Picture:
        """Frame ``frame``'s board as ``seat`` sees it (None: everything shown)."""
        return Picture(self.frames.svg(frame, 0 if seat is None else seat + 1))

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{escape(self.html, quote=True)}" title="{escape(self.frames.title)} replay"'
            ' style="width:100%;height:760px;border:1px solid #d0d7de;border-radius:6px"></iframe>'
        )

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path`` (a temporary name first, then renamed: never half-written)."""
        from sim.manifest import write_text_atomic

        target = check_output(path)
        try:
            write_text_atomic(self.html, target)
        except OSError as exc:
            raise SkaldError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
        return target


def replay(folder: str | Path, game_id: int, seat: int | None = None) -> Replay:
    """Game ``game_id`` of the run in ``folder`` as a viewer (see ``Replay``)."""
    return Replay(folder, game_id, seat)


def write_viewer(folder: str | Path, game_id: int, out_html: str | Path, seat: int | None = None) -> Path:
    """Write the viewer page of game ``game_id`` of the run in ``folder`` to ``out_html``, first showing
    seat ``seat``'s view (None: all hidden information shown); the path written.

    Every input is checked before the game is played and nothing is written unless it matches its records
    (``sim.replay.ReplayMismatch`` otherwise)."""
    target = check_output(out_html)
    return Replay(folder, game_id, seat).save(target)

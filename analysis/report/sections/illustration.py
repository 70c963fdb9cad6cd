"""The section "A game to watch": one illustrative game where a verdict benefits from one, for example the
median game of the seat that wins least, embedded or linked as a viewer page beside the report.

For each game whose plug-in declares a picture (``sim.picture.has_pictures``), one game is picked from the
run that carries the seat verdict (``seat_run``: the first scripted mirror match, else the first run):
the position (``start_position`` where the records hold it, else ``seat``) with the lowest win share, and
among the decided games, the median of that position's score margin to the winner (ties broken by game id,
the lower middle of an even count: ``pick``).  The game is played again from its records and its replay
viewer page (``sim.viewer.page``) is written beside the report as
``<report stem>-games/<game>-game-<id>.html`` (``write_pages``); the section shows the final board (the
all-shown picture, as an ``<img>`` with a ``data:`` URI, so that the pictures' own ``<style>`` rules and
ids stay inside them) linking to the page.

The page shows the all-shown view only (``frames``): drawing every seat's view too costs ``players + 1``
pictures per decision, 20-30 s for one Greenland game on two shared cores.  Pages are kept per process
(``_page``), so the reports of ``skald study --all`` that pick one game share its replay.

A game without a picture gets no section; a game whose records cannot be played again (a data file moved,
a changed rule) gets none either, and a one-line note in the report's contents (``watch``'s second value).
"""

from __future__ import annotations

import base64
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl

from analysis.data.design import design_seats
from analysis.data.runs import Run, Runs
from analysis.present.blocks import Section, players_words
from analysis.present.findings import Finding
from sim.frames import record_frames
from sim.picture import has_pictures
from sim.specs import parse_spec
from sim.viewer import page

#: the column of a game's start positions (Graenaland's verdict is about them, numbered from 1)
START_POSITION = "start_position"


@dataclass
class Pick:
    """The game to watch: game ``game_id`` of ``run``, the median game of ``position`` ``value``, which
    wins the lowest share ``share`` of the ``decided`` games; ``margin``: its score minus the winner's."""

    run: Run
    game_id: int
    position: str
    value: int
    share: float
    decided: int
    margin: float

    @property
    def file(self) -> str:
        """The viewer page's file name (in the folder beside the report)."""
        return f"{self.run.game}-game-{self.game_id}.html"


@dataclass
class Watch(Section):
    """A "game to watch" section: the final board's SVG, the viewer page (its HTML and file name) and,
    once written beside a report (``write_pages``), the page's address relative to the report."""

    svg: str = ""
    page: str = ""
    file: str = ""
    alt: str = ""
    href: str = ""

    @property
    def picture_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


# --------------------------------------------------------------------------- the pick


def is_mirror(run: Run) -> bool:
    """Whether ``run`` plays one strategy spec in every seat."""
    return len({str(s) for s in run.config.get("strategies", [])}) == 1


def searches(run: Run) -> bool:
    """Whether any of ``run``'s strategies searches (``Strategy.searches``: slow to play again)."""
    try:
        specs = [parse_spec(str(s), run.game) for s in run.config.get("strategies", [])]
    except Exception:
        return False
    return any(getattr(spec.cls, "searches", False) for spec in specs)


def seat_run(own: Runs) -> Run | None:
    """The run that carries a game's seat verdict: its first scripted mirror match (the standard seat test,
    ``analysis.report.verdicts.is_mirror``), else its first run without a search strategy, else its first
    run."""
    runs = list(own)
    scripted = [r for r in runs if not searches(r)]
    return (
        next((r for r in scripted if is_mirror(r)), None)
        or next(iter(scripted), None)
        or next(iter(runs), None)
    )


def position_of(run: Run) -> str:
    """The column the seat verdict is about: ``start_position`` where the records hold it, else ``seat``."""
    return START_POSITION if Runs([run]).has_column("seats", START_POSITION) else "seat"


def decided_seats(run: Run, position: str) -> pl.DataFrame:
    """The decided games' seats of ``run``: ``game_id``, the ``position``, ``win_share`` and ``margin``
    (the seat's score minus the best score of its game), in the records' order."""
    seats = design_seats(Runs([run])).filter(~pl.col("excluded")).collect()
    best = pl.col("score").max().over("game_id")
    return seats.select(
        "game_id", pl.col(position).cast(pl.Int64).alias("position"), "win_share",
        (pl.col("score") - best).alias("margin"),
    )  # fmt: skip


def pick(run: Run) -> Pick | None:
    """The median game, by score margin to the winner (ties by game id, the lower middle of an even count),
    of the position with the lowest win share over ``run``'s decided games (ties: the lowest position);
    None where no game was decided."""
    position = position_of(run)
    seats = decided_seats(run, position)
    if seats.is_empty():
        return None
    decided = seats["game_id"].n_unique()
    shares = seats.group_by("position").agg(pl.col("win_share").sum() / decided).sort("win_share", "position")
    value, share = shares.row(0)
    games = seats.filter(pl.col("position") == value).sort("margin", "game_id")
    middle = games.row((games.height - 1) // 2, named=True)
    return Pick(
        run, int(middle["game_id"]), position, int(value), float(share), decided, float(middle["margin"])
    )


# --------------------------------------------------------------------------- the replay


def frames(folder: str | Path, game_id: int) -> Any:
    """The frames of game ``game_id`` of the run in ``folder`` in the all-shown view alone (every seat's
    view too would cost one more picture per seat and decision), checked against its records."""
    return record_frames(folder, game_id, every_view=False)


@lru_cache(maxsize=16)
def _page(folder: str, game_id: int, run_id: str) -> tuple[str, str]:
    """(the viewer page, the final board's SVG) of one game (``run_id`` keys a rewritten folder apart)."""
    made = frames(folder, game_id)
    return page(made), made.svg(len(made.captions) - 1)


# --------------------------------------------------------------------------- the section


def position_words(position: str, value: int) -> str:
    return f"{position.replace('_', ' ')} {value}"


def margin_words(chosen: Pick) -> str:
    who = position_words(chosen.position, chosen.value)
    if chosen.margin == 0:
        return f"there {who} won or shared the win"
    return f"there {who} finished {-chosen.margin:g} points behind the winner"


def reading(chosen: Pick) -> str:
    """The sentence saying why the game was picked."""
    run = chosen.run
    strategies = sorted({str(s) for s in run.config.get("strategies", [])})
    mix = f"{strategies[0]} in every seat" if len(strategies) == 1 else ", ".join(strategies)
    who = position_words(chosen.position, chosen.value)
    return (
        f"Game {chosen.game_id} of run {run.label} ({players_words(run.players)}, {mix}) is the median game "
        f"of {who}, which wins least: {chosen.share:.2f} of {chosen.decided:,} decided games; "
        f"{margin_words(chosen)} (the middle of its {chosen.decided:,} margins to the winner). "
        "Its replay, every decision with the action in words and the scores, opens from the picture."
    )


def findings(sid: str, chosen: Pick) -> list[Finding]:
    """The pick as data: the game, the position, its win share against the even share, the page's file."""
    groups = {
        "run": chosen.run.label,
        "game_id": chosen.game_id,
        chosen.position: chosen.value,
        "page": chosen.file,
    }
    return [
        Finding(
            game=chosen.run.game, section=sid, metric="game to watch", groups=groups, estimate=chosen.share,
            games=chosen.decided, unit="share", expected=1.0 / chosen.run.players,
        )
    ]  # fmt: skip


def watch(own: Runs, sid: str) -> tuple[Watch | None, str]:
    """The "game to watch" section of one game's runs, or None and why not (empty where the game declares
    no picture or no game was decided: nothing to say)."""
    run = seat_run(own)
    try:
        if run is None or not has_pictures(run.game):
            return None, ""
        chosen = pick(run)
        if chosen is None:
            return None, ""
        page, svg = _page(str(run.path.resolve()), chosen.game_id, str(run.manifest.get("run") or ""))
    except Exception as exc:  # a moved data file, changed rules, unreadable records: the report stands
        first = " ".join(str(exc).split())
        return None, f"no game to watch: run {run.label if run else '?'} cannot be played again ({first})"
    section = Watch(
        sid, "A game to watch", f"What does a typical game of the {chosen.position.replace('_', ' ')} that "
        "wins least look like?", reading(chosen), findings=findings(sid, chosen), svg=svg, page=page,
        file=chosen.file, alt=f"The final board of game {chosen.game_id} of run {run.label}, all hidden "
        "information shown",
    )  # fmt: skip
    return section, ""


def write_pages(sections: Sequence[Section], out: Path, write: Callable[[Path, bytes], None]) -> None:
    """Write each ``Watch`` section's page to ``<out stem>-games/<file>`` beside ``out`` (``write``: a
    temporary name, then a rename) and set its relative address ``href``."""
    for section in sections:
        if not isinstance(section, Watch):
            continue
        folder = out.parent / f"{out.stem}-games"
        folder.mkdir(parents=True, exist_ok=True)
        write(folder / section.file, section.page.encode("utf-8"))
        section.href = urllib.parse.quote(f"{folder.name}/{section.file}")

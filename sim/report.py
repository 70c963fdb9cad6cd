"""Terminal output with rich: the progress bar of a run, its closing summary, and the steps of a report."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from sim.runner import RunSummary

stderr = Console(stderr=True)


class ShowProgress(Protocol):
    """``show(done, playing=0)``: what ``progress_bar`` gives."""

    def __call__(self, done: int, playing: int = 0) -> None: ...


@contextmanager
def progress_bar(
    total: int, *, enabled: bool = True, label: str = "games"
) -> Iterator[ShowProgress]:
    """A context giving ``show(done, playing)``: ``done`` games in finished chunks, ``playing`` more in
    chunks still being played (``done`` never goes back; ``playing`` may be stale); shows games
    done, games/s and ETA on stderr.  Safe to call from a second thread."""
    if not enabled:

        def hidden(done: int, playing: int = 0) -> None:
            return None

        yield hidden
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    start = time.perf_counter()
    with Progress(*columns, console=stderr, transient=False) as progress:
        task = progress.add_task(label, total=total, rate="")
        shown = 0

        def show(done: int, playing: int = 0) -> None:
            nonlocal shown
            shown = max(shown, min(total, done + playing))  # the bar never goes back
            elapsed = time.perf_counter() - start
            rate = f"{shown / elapsed:,.0f} games/s" if elapsed > 0 else ""
            progress.update(task, completed=shown, rate=rate)

        try:
            yield show
        except BaseException:
            progress.remove_task(task)  # leave no half bar above the error line
            raise


class ShowStep(Protocol):
    """``show(what, total=None)``: what ``step_bar`` gives."""

    def __call__(self, what: str, total: int | None = None) -> None: ...


@contextmanager
def step_bar(label: str, *, enabled: bool = True) -> Iterator[ShowStep]:
    """A context giving ``show(what, total)``: the step before is done and ``what`` is under way
    (``total``: the steps in all, once known).  Shows a bar, the steps done, the time spent and what is
    under way on stderr, and leaves nothing behind; shows nothing when not ``enabled`` or when stderr
    is not a terminal (a log gets no bar)."""
    if not enabled or not stderr.is_terminal:

        def hidden(what: str, total: int | None = None) -> None:
            return None

        yield hidden
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[what]}"),
    )
    with Progress(*columns, console=stderr, transient=True) as progress:
        task = progress.add_task(label, total=None, what="")
        started = 0

        def show(what: str, total: int | None = None) -> None:
            nonlocal started
            if total is not None:
                progress.update(task, total=total)
            progress.update(task, completed=started, what=what)
            started += 1

        yield show


def summary_tables(summary: RunSummary) -> list[RenderableType]:
    """Win shares per strategy and per seat over the decided games, with their 95% intervals, a line on
    what the rates count and leave out (``rates_note``), and the run's totals, for rich to print."""
    baseline = 1.0 / summary.players
    by_strategy = Table(title=f"win share per strategy (parity {baseline:.3f} per seat)")
    for name in ("strategy", "decided seat-games", "wins", "win rate", "95% interval"):
        by_strategy.add_column(name, justify="left" if name == "strategy" else "right")
    for row in summary.strategies:
        by_strategy.add_row(row["strategy"], f"{row['decided']:,}", *_rate_cells(row))
    by_seat = Table(title="win share per seat (seat 0 plays first)")
    for name in ("seat", "decided games", "wins", "win rate", "95% interval"):
        by_seat.add_column(name, justify="right")
    for row in summary.seats:
        by_seat.add_row(str(row["seat"]), f"{row['decided']:,}", *_rate_cells(row))
    tables: list[RenderableType] = [by_strategy, by_seat, Text(rates_note(summary))]
    if summary.search:
        tables.append(search_table(summary))
    totals = Table(title="run", show_header=False)
    totals.add_column("what")
    totals.add_column("value", justify="right")
    totals.add_row("games", f"{summary.games:,}")
    totals.add_row("decided", f"{summary.decided:,}")
    if summary.draws is not None:
        totals.add_row("draws", f"{summary.draws:,}")
        totals.add_row("ties", f"{summary.ties:,}")
    cap = "" if summary.max_decisions is None else f" (at --max-decisions {summary.max_decisions:,})"
    totals.add_row("truncated", f"{summary.capped:,}" + (cap if summary.capped else ""))
    totals.add_row("errored", f"{summary.errored:,}")
    if summary.resumed_chunks:
        totals.add_row("resumed chunks", f"{summary.resumed_chunks:,} (played before the interruption)")
    totals.add_row("decisions", f"{summary.decisions:,}")
    totals.add_row("games/s", f"{summary.games_per_second:,.1f}")
    totals.add_row("seconds", f"{summary.wall_seconds:,.2f}")
    totals.add_row("records", str(summary.out))
    return [*tables, totals]


def _rate_cells(row: dict) -> tuple[str, str, str]:
    """wins, win rate and 95% interval of a summary row ("-" where there is none)."""
    rate, low, high = row["win_rate"], row.get("ci_low"), row.get("ci_high")
    return (
        f"{row['wins']:,.1f}",
        "-" if rate is None else f"{rate:.3f}",
        "-" if low is None or high is None else f"{low:.3f}-{high:.3f}",
    )


def rates_note(summary: RunSummary) -> str:
    """What the win rates are over: the decided games and those left out, how ties and draws count and
    the intervals' method; or that no game finished."""
    cap = "" if summary.max_decisions is None else f" at --max-decisions {summary.max_decisions:,}"
    left = f"{summary.capped:,} truncated{cap}, {summary.errored:,} errored"
    if summary.decided == 0:
        return f"No game finished: all {summary.games:,} games were left out ({left}): there is no win rate."
    left_out = summary.games - summary.decided
    text = f"Win rates over the {summary.decided:,} decided games" + (
        f"; {left_out:,} left out ({left})." if left_out else " (none left out)."
    )
    n = summary.players
    draws = f", so the {summary.draws:,} draws count 1/{n} to each seat" if summary.draws else ""
    text += f" A k-way tie gives each winner 1/k of a win{draws}"
    if summary.ties:
        text += f" ({summary.ties:,} tied games)"
    blocks = "deal (base_game)" if summary.seats_mode in ("rotate", "exhaustive") else "game"
    return text + f". 95% intervals: {summary.interval}, clustered by {blocks}."


def search_table(summary: RunSummary) -> Table:
    """What each search strategy spent: decisions searched, iterations, ms per decision, iterations/s,
    and how often it played another move than its prior's."""
    table = Table(title="search (decisions with a choice; timings vary with the machine)")
    for name in ("strategy", "decisions", "iterations", "ms/decision", "iterations/s", "left the prior"):
        table.add_column(name, justify="left" if name == "strategy" else "right")
    for row in summary.search:
        ms, rate, left = row["ms_per_decision"], row["iterations_per_second"], row.get("left_prior")
        table.add_row(
            row["strategy"], f"{row['decisions']:,}", f"{row['iterations']:,}",
            "-" if ms is None else f"{ms:,.1f}", "-" if rate is None else f"{rate:,.0f}",
            "-" if left is None else f"{100 * left:.1f}%",
        )
    return table


def print_summary(summary: RunSummary, console: Console | None = None) -> None:
    """Print ``summary_tables(summary)``."""
    console = console or Console()
    for table in summary_tables(summary):
        console.print(table)

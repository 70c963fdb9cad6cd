"""Terminal output with rich: the progress bar of a run and its closing summary."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

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


def summary_tables(summary: RunSummary) -> list[Table]:
    """Win shares per strategy and per seat, and the run's totals, as rich tables."""
    baseline = 1.0 / summary.players
    by_strategy = Table(title=f"win share per strategy (parity {baseline:.3f} per seat)")
    for name in ("strategy", "seat-games", "wins", "win rate"):
        by_strategy.add_column(name, justify="left" if name == "strategy" else "right")
    for row in summary.strategies:
        by_strategy.add_row(
            row["strategy"], f"{row['seat_games']:,}", f"{row['wins']:,.1f}", f"{row['win_rate']:.3f}"
        )
    by_seat = Table(title="win share per seat (seat 0 plays first)")
    for name in ("seat", "games", "wins", "win rate"):
        by_seat.add_column(name, justify="right")
    for row in summary.seats:
        by_seat.add_row(
            str(row["seat"]), f"{row['games']:,}", f"{row['wins']:,.1f}", f"{row['win_rate']:.3f}"
        )
    tables = [by_strategy, by_seat]
    if summary.search:
        tables.append(search_table(summary))
    totals = Table(title="run", show_header=False)
    totals.add_column("what")
    totals.add_column("value", justify="right")
    totals.add_row("games", f"{summary.games:,}")
    totals.add_row("truncated", f"{summary.truncated:,}")
    totals.add_row("errored", f"{summary.errored:,}" + (" (counted as truncated)" if summary.errored else ""))
    if summary.resumed_chunks:
        totals.add_row("resumed chunks", f"{summary.resumed_chunks:,} (played before the interruption)")
    totals.add_row("decisions", f"{summary.decisions:,}")
    totals.add_row("games/s", f"{summary.games_per_second:,.1f}")
    totals.add_row("seconds", f"{summary.wall_seconds:,.2f}")
    totals.add_row("records", str(summary.out))
    return [*tables, totals]


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

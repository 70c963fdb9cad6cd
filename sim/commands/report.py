"""``skald report``, ``compare`` and ``replay``: pages from records, and one game played again."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.commands.base import MarginOpt, ResultFolders, TitleOpt, app, margin_option

#: ``--quiet`` of report and compare: their progress line shows only on a terminal, never in the page
QuietReport = Annotated[bool, typer.Option("--quiet", "-q", help="No progress line on stderr.")]


@app.command("report")
def report_command(
    results: ResultFolders,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="HTML file to write (default: FIRST_RESULTS_DIR/report.html)."),
    ] = None,
    title: TitleOpt = None,
    quiet: QuietReport = False,
    margin: MarginOpt = None,
) -> None:
    """Write a self-contained HTML report (charts embedded; also saved as PNG files beside it)."""
    _write(results, output, "report.html", title, compare=False, quiet=quiet, margin=margin)


@app.command("compare")
def compare_command(
    results: Annotated[
        list[Path],
        typer.Argument(help="Two or more run folders of one game; each is compared with the first."),
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="HTML file to write (default: FIRST_RESULTS_DIR/compare.html)."),
    ] = None,
    title: TitleOpt = None,
    quiet: QuietReport = False,
    margin: MarginOpt = None,
) -> None:
    """Compare runs of one game (two rule sets, strategy mixes or data files): every metric's difference
    with the first run, paired where the runs share seeds, the verdict first; then each run's report."""
    _write(results, output, "compare.html", title, compare=True, quiet=quiet, margin=margin)


def _write(
    results: list[Path],
    output: Path | None,
    default: str,
    title: str | None,
    compare: bool,
    quiet: bool,
    margin: float | None = None,
) -> None:
    """Check the output path and every run's parts before anything is written, then write the page.

    The page's folder must exist, and a file already there is replaced only when it is a page Skald wrote
    (``sim.outputs.check_page``); without ``-o``, a missing first folder is left to ``find_runs``."""
    from analysis.report.report import check_output, write_report
    from sim.outputs import check_page

    share = margin_option(margin)
    target = output if output is not None else results[0] / default
    if output is not None or target.parent.is_dir():
        check_page(target, "-o", "the report")
    target = check_output(target)
    # write_report checks every run's manifest and parts (analysis.data.runs.open_runs) before it writes
    page = write_report(results, target, title=title, compare=compare, progress=not quiet, margin=share)
    print(f"report: {page}")


@app.command("replay")
def replay_command(
    results: Annotated[Path, typer.Argument(help="A run folder written by `skald run`.")],
    game_id: Annotated[int, typer.Option("--game", "-g", help="The game_id of the game to replay.")],
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the game's replay viewer, one self-contained HTML page, here."),
    ] = None,
    view: Annotated[
        str | None,
        typer.Option("--view", help="With --html: the view to open, all or a seat number (default: all)."),
    ] = None,
) -> None:
    """Re-simulate one game from its stored seed, print it turn by turn and check it against the records.

    With --html, write its replay viewer instead (the board at every decision, the action in words, the
    scores; checked against the records too) and print the page's path.
    Exit code 0 when the replay matches the stored games, seats and turns rows, 1 when it does not.
    """
    if html is None:
        if view is not None:
            from sim.errors import SkaldError

            raise SkaldError("--view needs --html (the view of the replay viewer shown first)")
        from sim.replay import replay

        replay(results, game_id, echo=lambda line: print(line, flush=False))
        return
    from sim.viewer import parse_view, write_viewer

    print(f"replay viewer: {write_viewer(results, game_id, html, parse_view(view))}")

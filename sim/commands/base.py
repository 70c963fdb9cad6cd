"""What every ``skald`` subcommand shares: the typer app, the consoles, the notes on stderr, the
command class that checks GAME even with ``--help``, and the options several commands take alike."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from sim.errors import SkaldError, one_line
from sim.games import get_game

try:  # recent typer vendors click as typer._click; older versions use click itself
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException  # type: ignore[assignment]  # the same classes

def _no_flag_metavars(params: list[Any]) -> list[Any]:
    """``params`` with every flag's metavar made empty, so ``--help`` shows none (not ``<bool>``)."""
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", "") is None:
            param.metavar = ""
    return params


def one_paragraph_lines(text: str) -> str:
    """A docstring as help: each paragraph's lines joined into one (rich help keeps single line breaks,
    which cut a command's description mid-sentence in ``skald --help``)."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in part.splitlines()) for part in paragraphs)


class SkaldCommand(TyperCommand):
    """A command whose flags show no metavar in ``--help``."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _no_flag_metavars(super().get_params(ctx))


class SkaldGroup(TyperGroup):
    """The ``skald`` group, whose flags (``--version``, ``--help``) show no metavar in ``--help``."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _no_flag_metavars(super().get_params(ctx))


class SkaldTyper(typer.Typer):
    """The app: every command a ``SkaldCommand`` unless it names its own class, its help the docstring
    with each paragraph on one line."""

    def command(self, *args: Any, cls: Any = None, help: str | None = None, **kwargs: Any) -> Any:
        register = super().command

        def decorator(function: Callable[..., Any]) -> Any:
            text = help if help is not None else one_paragraph_lines(function.__doc__ or "") or None
            return register(*args, cls=cls or SkaldCommand, help=text, **kwargs)(function)

        return decorator


app = SkaldTyper(
    name="skald",
    cls=SkaldGroup,
    help="Simulate board games between scripted strategies and write per-turn records to Parquet.",
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)
out = Console()
err = Console(stderr=True)

#: the command line being run, for the manifests of the runs it starts (set by ``sim.cli``)
command_line: list[str] = []


class Resumable(Exception):
    """A run or study interrupted by Ctrl-C or SIGTERM (exit 130); its message says what was kept.

    ``drop``: options of the interrupted command line that its ``--resume`` command leaves out.
    """

    def __init__(self, message: str, drop: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.drop = drop


class GameCommand(SkaldCommand):
    """A command whose GAME argument is checked even with ``--help``.

    So ``skald run nosuchgame --help`` fails (exit 2) instead of printing help.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if any(a in ctx.help_option_names for a in args):
            try:
                opts, _, _ = self.make_parser(ctx).parse_args(args=list(args))
            except ClickException:
                opts = {}
            if isinstance(opts.get("game"), str):
                get_game(opts["game"])
        return super().parse_args(ctx, args)


def default_players(game: Any) -> int:
    """Players when ``--players`` is not given: four, or the nearest count the game allows."""
    return max(game.min_players, min(4, game.max_players))


def note(text: str) -> None:
    """A one-line note on stderr (never before an error: callers say notes once checks have passed)."""
    print(f"note: {one_line(text)}", file=sys.stderr, flush=True)


def int_list(text: str, option: str) -> list[int]:
    """``1,2,8`` as numbers; a one-line error naming ``option`` otherwise."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SkaldError(f"{option} must be comma-separated whole numbers, not {text!r}") from None
    if not values:
        raise SkaldError(f"{option} needs at least one number")
    return values


GameArg = Annotated[str, typer.Argument(help="Game name (see `skald games`).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")]
TitleOpt = Annotated[str | None, typer.Option("--title", help="Report title.")]
MarginOpt = Annotated[
    float | None,
    typer.Option(
        "--margin",
        metavar="POINTS",
        help="The seat verdicts' margin in percentage points of win share, above 0 and below 50: fair"
        " within it, unfair, or undecided (default: 5).",
        show_default=False,
    ),
]


def margin_option(points: float | None) -> float | None:
    """``--margin POINTS`` as a share (None: the default), checked: a one-line error unless above 0 and
    below 50."""
    from analysis.data.study_file import margin_share

    return None if points is None else margin_share(points)


ResultFolders = Annotated[
    list[Path], typer.Argument(help="Result folders: run folders, or study folders holding them.")
]

"""The ``skald`` command line (typer): run, replay, bench, games, strategies, rules, records, study,
report, compare; each command lives in ``sim.commands``.

``main`` turns user errors (``SkaldError``, bad options, missing arguments, bad numbers)
into one line on stderr and exit code 2, with no traceback; Ctrl-C exits with 130.
Set ``SKALD_DEBUG=1`` to see the traceback of an error as well.
"""

from __future__ import annotations

import os
import shlex
import sys
import traceback
from typing import Annotated

import typer

from sim.commands import bench, info, report, run, sensitivity, study, tune  # noqa: F401 - each registers its commands
from sim.commands.base import Resumable, app, command_line
from sim.errors import SkaldError, one_line

try:  # recent typer vendors click as typer._click; older versions use click itself
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[assignment]  # the same classes

__all__ = ["app", "main"]


def _version(value: bool) -> None:
    if value:
        import sim

        print(f"skald {sim.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print skald's version and exit."),
    ] = False,
) -> None:
    """Simulate board games between scripted strategies and write per-turn records to Parquet."""


def _fail(message: str, code: int, exc: BaseException | None = None) -> int:
    if exc is not None and os.environ.get("SKALD_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print(f"error: {one_line(message)}", file=sys.stderr, flush=True)
    return code


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``skald`` console script; exits with 0, 2 (user error) or 130 (Ctrl-C)."""
    raise SystemExit(_main(argv))


def _main(argv: list[str] | None) -> int:
    code = _dispatch(argv)
    if code == 0:  # an error comes alone; a plug-in that failed to load is named after what went well
        from sim.plugin import broken_notes

        for line in broken_notes():
            print(f"note: {one_line(line)}", file=sys.stderr, flush=True)
    return code


def _dispatch(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command_line[:] = ["skald", *args]
    try:
        result = app(args=args, prog_name="skald", standalone_mode=False)
    except Resumable as exc:
        kept = [arg for arg in args if arg not in exc.drop]
        again = kept if "--resume" in kept else [*kept, "--resume"]
        return _fail(f"{exc}; resume with: skald {shlex.join(again)}", 130, exc)
    except SkaldError as exc:
        return _fail(str(exc), getattr(exc, "exit_code", 2), exc)
    except NoArgsIsHelpError as exc:
        print(exc.format_message())
        return 0
    except ClickException as exc:
        hint = ""
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            hint = f" (see: {ctx.command_path} --help)"
        return _fail(exc.format_message() + hint, 2, exc)
    except (KeyboardInterrupt, typer.Abort) as exc:
        return _fail("interrupted", 130, exc)
    except typer.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 1
    if isinstance(result, int) and result == 130:  # typer turns Ctrl-C into Exit(130)
        print("error: interrupted", file=sys.stderr)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    main()

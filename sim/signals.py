"""Signal handlers set for the length of a block, where they can be set (the main thread).

The handlers set here raise ``Interrupted``, a ``KeyboardInterrupt``, so that the user's Ctrl-C or
SIGTERM can be told apart from a ``KeyboardInterrupt`` that code raises by itself (a strategy that
raises it is a failing strategy, not a stopped run): ``from_signal``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM, as the handlers set here raise it."""


def _interrupt(signum: int, frame: Any) -> None:
    raise Interrupted


@contextmanager
def handling(signum: int, handler: Callable[[int, Any], Any] | int) -> Iterator[None]:
    """Run the block with ``handler`` for ``signum`` and restore the previous handler after it; outside
    the main thread (where Python refuses to set handlers) the block runs unchanged."""
    try:
        previous = signal.signal(signum, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signum, previous)


def stop_on_sigterm() -> Any:
    """Treat SIGTERM (``kill``, a batch system) like Ctrl-C in the block: stop, keep the run resumable."""
    return handling(signal.SIGTERM, _interrupt)


def sigint_ignored() -> Any:
    """Ignore SIGINT in the block: child processes started in it inherit that, so Ctrl-C reaches only
    the coordinating process."""
    return handling(signal.SIGINT, signal.SIG_IGN)


def marking_interrupts() -> Any:
    """Ctrl-C raises ``Interrupted`` in the block, so that ``from_signal`` knows it; set only where Python's
    own handler is in place (not where Ctrl-C is ignored, as in worker processes, or handled by the
    caller)."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return nullcontext()
    return handling(signal.SIGINT, _interrupt)


def from_signal(exc: BaseException) -> bool:
    """Whether ``exc`` is, or may be, the user's Ctrl-C or SIGTERM rather than something code raised.

    ``Interrupted`` is; any other exception than a ``KeyboardInterrupt`` is not; a plain
    ``KeyboardInterrupt`` is not where no signal can have raised it (outside the main thread, where
    Ctrl-C is ignored, or where the handler set here raises ``Interrupted`` instead), and is taken for
    one otherwise (Python's own handler raises the very same exception)."""
    if isinstance(exc, Interrupted):
        return True
    if not isinstance(exc, KeyboardInterrupt):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, _interrupt)

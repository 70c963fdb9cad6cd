"""Signal handlers set for the length of a block, where they can be set (the main thread)."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


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

"""Where a run's chunks are played: this process, local worker processes (loky) or a Dask cluster.

Every backend runs the same ``simulate_chunk`` calls through joblib, so the records do not depend
on it: parts are a function of the run's configuration only.

* ``loky`` (default): ``--jobs`` worker processes on this machine (one chunk, or ``--jobs 1``:
  in this process).
* ``dask``: joblib's Dask backend.  With ``--scheduler ADDRESS`` (``tcp://host:8786``) the chunks go
  to that cluster's workers; without it a ``LocalCluster`` of ``--jobs`` single-threaded worker
  processes is started for the run and shut down after it.  Workers import the project (install it
  on them) and write their parts straight into the output folder, so it must be on a filesystem
  they share with this process; with ``gather`` they send the parts back instead and this process
  writes them.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from joblib import Parallel, effective_n_jobs

from sim.errors import SkaldError

BACKENDS: tuple[str, ...] = ("loky", "dask")
DASK_EXTRA = "pip install 'skald[dask]' (or: pip install 'dask[distributed]')"
CONNECT_TIMEOUT = "10s"


def check_backend(backend: str, scheduler: str | None) -> None:
    """Refuse an unknown backend, a scheduler without Dask, or Dask where it is not installed."""
    if backend not in BACKENDS:
        raise SkaldError(f"unknown backend {backend!r} (allowed: {', '.join(BACKENDS)})")
    if scheduler is not None and backend != "dask":
        raise SkaldError("--scheduler needs --backend dask")
    if scheduler is not None and not scheduler.strip():
        raise SkaldError("--scheduler needs an address (tcp://host:8786)")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
            import joblib._dask  # noqa: F401
        except ImportError:
            raise SkaldError(f"--backend dask needs Dask: {DASK_EXTRA}") from None


@dataclass
class Pool:
    """A started backend: ``map`` yields results as tasks finish (in any order)."""

    backend: str
    workers: int
    scheduler: str | None = None
    map: Callable[[Iterable[Any]], Iterator[Any]] = field(default=lambda tasks: iter(()))

    def describe(self) -> dict[str, Any]:
        return {"backend": self.backend, "workers": self.workers, "scheduler": self.scheduler}


def _in_process(tasks: Iterable[Any]) -> Iterator[Any]:
    for func, args, kwargs in tasks:
        yield func(*args, **kwargs)


@contextmanager
def pool(backend: str, jobs: int, tasks: int, scheduler: str | None = None) -> Iterator[Pool]:
    """Start ``backend`` for ``tasks`` tasks (``joblib.delayed`` calls) and stop it afterwards."""
    check_backend(backend, scheduler)
    if backend == "loky":
        workers = max(1, min(effective_n_jobs(jobs), tasks))
        if workers == 1:
            yield Pool("loky", 1, None, _in_process)
            return
        yield Pool("loky", workers, None, loky_parallel(workers, return_as="generator_unordered"))
        return
    with ExitStack() as stack:
        client, described = _dask_client(stack, jobs, scheduler)
        workers = max(1, sum(client.nthreads().values()))
        from joblib import parallel_config

        def run_tasks(items: Iterable[Any]) -> Iterator[Any]:
            with parallel_config(backend="dask", wait_for_workers_timeout=60):
                parallel = Parallel(n_jobs=-1, return_as="generator_unordered", batch_size=1)
                yield from parallel(items)

        yield Pool("dask", workers, described, run_tasks)


def loky_parallel(n_jobs: int, **kwargs: Any) -> Parallel:
    """A loky ``Parallel`` whose worker processes ignore SIGINT.

    Ctrl-C in a terminal reaches the whole process group; this process alone then stops, shuts
    its workers down and prints one line (a worker caught between tasks would print a traceback).
    """
    from joblib import parallel_config

    with parallel_config(backend="loky", initializer=ignore_sigint):
        return Parallel(n_jobs=n_jobs, **kwargs)


def ignore_sigint() -> None:
    """Worker initializer: leave Ctrl-C to the coordinating process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dask_client(stack: ExitStack, jobs: int, scheduler: str | None) -> tuple[Any, str]:
    from distributed import Client, LocalCluster

    if scheduler is None:
        # The worker processes start with Ctrl-C ignored: it reaches the whole process group, and
        # this process alone should stop (and shut them down) with one clean line.
        with _sigint_ignored():
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=max(1, effective_n_jobs(jobs)),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            )
        client = stack.enter_context(Client(cluster, set_as_default=True))
        return client, "local"
    try:
        client = stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=True))
    except (OSError, TimeoutError, ValueError) as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise SkaldError(f"cannot reach the Dask scheduler at {scheduler!r}: {detail}") from None
    return client, scheduler


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while child processes are started (they inherit it), where signals can be set."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)

"""Where a run's chunks are played: this process, local worker processes (loky), a Dask or a Ray cluster.

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
* ``ray``: Ray tasks of one CPU each (``_ray_map`` says why not joblib's Ray backend).  With
  ``--scheduler ADDRESS`` (a Ray Client address ``ray://host:10001``, a head node's ``host:6379``,
  or ``auto`` for the cluster this machine belongs to) the chunks go to that cluster; without it a
  local Ray with ``--jobs`` CPUs is started for the run and shut down after it.  The same rules on
  imports, a shared folder and ``gather`` apply.
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from joblib import Parallel, cpu_count, effective_n_jobs

from sim.errors import SkaldError, one_line
from sim.signals import sigint_ignored

BACKENDS: tuple[str, ...] = ("loky", "dask", "ray")
DASK_EXTRA = "pip install 'skald[dask]' (or: pip install 'dask[distributed]')"
RAY_EXTRA = "pip install 'skald[ray]' (or: pip install 'ray[client]')"
CONNECT_TIMEOUT = "10s"
RAY_CONNECT_TIMEOUT = 10.0  # seconds to open a TCP connection to a Ray address before ray.init
ADDRESS_EXAMPLE = {"dask": "tcp://host:8786", "ray": "ray://host:10001 or auto"}
#: seconds between a loky worker's checks that the process that started it is still alive
ORPHAN_POLL = 0.1
#: exit code of a worker that found its parent gone
ORPHANED_EXIT = 1
#: the most worker processes ``--jobs`` may ask for (a local cluster starts that many)
MAX_JOBS = 1024


def check_backend(backend: str, scheduler: str | None) -> None:
    """Refuse an unknown backend, a scheduler without a cluster backend, or one that is not installed."""
    if backend not in BACKENDS:
        raise SkaldError(f"unknown backend {backend!r} (allowed: {', '.join(BACKENDS)})")
    if scheduler is not None and backend not in ADDRESS_EXAMPLE:
        raise SkaldError("--scheduler needs --backend dask or --backend ray")
    if scheduler is not None and not scheduler.strip():
        raise SkaldError(f"--scheduler needs an address ({ADDRESS_EXAMPLE[backend]})")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
            import joblib._dask  # noqa: F401
        except ImportError:
            raise SkaldError(f"--backend dask needs Dask: {DASK_EXTRA}") from None
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise SkaldError(f"--backend ray needs Ray: {RAY_EXTRA}") from None


def check_jobs(jobs: int, option: str = "--jobs") -> str | None:
    """Refuse a worker count other than -1 (all cores) or 1 to ``MAX_JOBS``; return a note when it is more
    than the cores here (allowed: the workers then share them), else None."""
    if jobs != -1 and jobs < 1:
        raise SkaldError(f"{option} must be -1 (all cores) or a number of workers from 1 up, not {jobs}")
    if jobs > MAX_JOBS:
        raise SkaldError(
            f"{option} must be -1 (all cores) or a number of workers from 1 to {MAX_JOBS:,}, not {jobs}"
        )
    cores = cpu_count()
    if jobs > cores:
        return f"{option} {jobs} is more than the {cores} cores here: the workers will share them"
    return None


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
    check_jobs(jobs)
    if backend == "loky":
        workers = max(1, min(effective_n_jobs(jobs), tasks))
        if workers == 1:
            yield Pool("loky", 1, None, _in_process)
            return
        yield Pool("loky", workers, None, loky_parallel(workers, return_as="generator_unordered"))
        return
    if backend == "ray":
        with _ray_session(jobs, scheduler) as (workers, described):
            yield Pool("ray", workers, described, _ray_map(workers))
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
    """A loky ``Parallel`` whose worker processes ignore SIGINT and stop when this process dies.

    Ctrl-C in a terminal reaches the whole process group; this process alone then stops, shuts
    its workers down and prints one line (a worker caught between tasks would print a traceback).
    A worker whose parent is killed outright (SIGKILL, the OOM killer) exits within
    ``ORPHAN_POLL`` seconds (``worker_setup``) instead of playing and writing the chunks still
    queued for it, and idling for loky's five minutes after.
    """
    from joblib import parallel_config

    with parallel_config(backend="loky", initializer=worker_setup, initargs=(os.getpid(),)):
        return Parallel(n_jobs=n_jobs, **kwargs)


def ignore_sigint() -> None:
    """Worker initializer: leave Ctrl-C to the coordinating process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_setup(parent: int) -> None:
    """Loky worker initializer: ignore Ctrl-C and exit as soon as the process ``parent`` is gone.

    A daemon thread compares the worker's parent pid with ``parent`` every ``ORPHAN_POLL``
    seconds: a dead parent's children are handed to init (or a subreaper), which changes it.
    Portable, unlike ``prctl(PR_SET_PDEATHSIG)``, which fires when the *thread* that started
    the worker ends: loky starts workers from whichever thread submits (or from its manager
    thread), so a run made from a thread that then ended would lose its pool.
    """
    ignore_sigint()
    exit_if_orphaned(parent)
    threading.Thread(target=_watch_parent, args=(parent,), name="skald-orphan-watch", daemon=True).start()


def ray_worker_setup() -> None:
    """Ray worker setup hook: ``worker_setup`` for the worker's parent, its node's raylet.

    A local Ray's raylet dies with this process (Ray ties it to its driver); its workers noticed
    only a second or two later, time enough to finish and write the chunk in hand.
    """
    worker_setup(os.getppid())


def exit_if_orphaned(parent: int) -> None:
    """End this worker process at once (no cleanup, exit code 1) when ``parent`` is no longer its parent."""
    if os.getppid() != parent:
        os._exit(ORPHANED_EXIT)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(ORPHAN_POLL)
        exit_if_orphaned(parent)


def _dask_client(stack: ExitStack, jobs: int, scheduler: str | None) -> tuple[Any, str]:
    from distributed import Client, LocalCluster

    if scheduler is None:
        # The worker processes start with Ctrl-C ignored: it reaches the whole process group, and
        # this process alone should stop (and shut them down) with one clean line.
        with sigint_ignored():
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
        detail = one_line(exc)
        raise SkaldError(f"cannot reach the Dask scheduler at {scheduler!r}: {detail}") from None
    return client, scheduler


@contextmanager
def _ray_session(jobs: int, scheduler: str | None) -> Iterator[tuple[int, str]]:
    """Start a local Ray (``--jobs`` CPUs) or connect to ``scheduler``; yield (CPUs, description).

    A Ray this process had already started (a notebook) is used as it is and left running.
    """
    import ray

    # Ctrl-C is this process's to handle (it stops the run and says how to resume), as with loky's
    # workers: a worker interrupted mid-task made Ray's core worker abort now and then.
    options: dict[str, Any] = {
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "runtime_env": {"worker_process_setup_hook": ray_worker_setup},
    }
    if ray.is_initialized():
        owned, described = False, "existing"
    elif scheduler is None:
        owned, described = True, "local"
        with sigint_ignored():
            ray.init(num_cpus=max(1, effective_n_jobs(jobs)), include_dashboard=False, **options)
    else:
        owned, described = True, scheduler
        _probe_ray_address(scheduler)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ray.init(address=scheduler, **options)
        except (ConnectionError, TimeoutError, ValueError, RuntimeError) as exc:
            ray.shutdown()
            raise SkaldError(f"cannot reach the Ray cluster at {scheduler!r}: {one_line(exc)}") from None
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield workers, described
    finally:
        if owned:
            ray.shutdown()


def _ray_map(workers: int) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """Run tasks as Ray tasks (one CPU each), at most two per CPU in flight; yield results as they finish.

    joblib's own Ray backend (``ray.util.joblib``) is a multiprocessing pool underneath and cannot
    return results as they finish (joblib refuses ``return_as="generator_unordered"`` for it): the
    run would log no chunk and show no progress until the last one ended, and ``gather`` would hold
    every part in memory.  A task's exception is raised here as itself, as with loky.
    """
    import ray
    from ray.exceptions import RayTaskError

    call = ray.remote(num_cpus=1, max_retries=3)(_call_task)  # a lost worker: played again elsewhere

    def run_tasks(items: Iterable[Any]) -> Iterator[Any]:
        todo = iter(items)
        pending: list[Any] = []
        try:
            while True:
                for func, args, kwargs in itertools.islice(todo, max(0, 2 * workers - len(pending))):
                    pending.append(call.remote(func, args, kwargs))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    result = ray.get(done[0])
                except RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, BaseException):
                        raise cause from None
                    raise
                yield result
        finally:
            # Not force=True: killing a worker whose reply is already on its way crashed Ray's core
            # worker now and then ("Tried to complete task that was not pending") on Ctrl-C.
            for ref in pending:
                ray.cancel(ref)

    return run_tasks


def _call_task(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return func(*args, **kwargs)


def _probe_ray_address(address: str) -> None:
    """Fail fast on a host:port nobody listens on (ray.init would retry for minutes)."""
    if address == "auto":
        return  # ray.init finds the local cluster or says at once that there is none
    hostport = address.removeprefix("ray://").split("/", 1)[0]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise SkaldError(
            f"cannot reach the Ray cluster at {address!r}: expected ray://host:10001, host:6379 or auto"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise SkaldError(f"cannot reach the Ray cluster at {address!r}: {one_line(exc)}") from None

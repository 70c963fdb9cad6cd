"""Worker processes stop with their parent: a SIGKILLed run leaves no worker writing parts behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sim.resume import CHUNKS_FILE, partial_path
from strategies.random_play import RandomStrategy
from tests.sim.test_scale_resume import wait_for_chunks

pytestmark = pytest.mark.slow


psutil = pytest.importorskip("psutil")


class Slow(RandomStrategy):
    """``random``, sleeping ``SKALD_TEST_DELAY`` seconds (default 0) before each decision: a slowed run
    and a quick one write the same parts."""

    name = "slow"

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        time.sleep(float(os.environ.get("SKALD_TEST_DELAY", "0")))
        return super().choose(view, options)


SKALD = [sys.executable, "-m", "sim.cli"]
RUN = ["run", "mainland", "--players", "2", "--games", "40", "--chunk-size", "2", "--seed", "9"]
RUN += ["--strategies", "tests.sim.test_cli_workers:Slow", "--jobs", "2", "--quiet"]


def parts(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


def alive(procs: list[psutil.Process]) -> list[int]:
    """The pids of ``procs`` still running (a zombie waiting for init to reap it has stopped)."""
    running = []
    for proc in procs:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                running.append(proc.pid)
        except psutil.NoSuchProcess:
            pass
    return running


@pytest.mark.parametrize("backend", ["loky", "dask", "ray"])
def test_sigkill_of_the_run_stops_its_workers_and_resume_ignores_what_they_left(
    tmp_path: Path, backend: str
) -> None:
    """`kill -9` of the main `skald run` process (the process alone, not its group): its workers stop
    within a few seconds and write no part after that; `--resume` then completes the run to the
    parts of an uninterrupted one."""
    if backend != "loky":
        pytest.importorskip({"dask": "distributed", "ray": "ray"}[backend])
    whole = tmp_path / "whole"
    done = subprocess.run([*SKALD, *RUN, "--out", str(whole)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "r"
    slow = {**os.environ, "SKALD_TEST_DELAY": "0.005"}
    proc = subprocess.Popen(
        [*SKALD, *RUN, "--backend", backend, "--out", str(out)],
        env=slow,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    partial = partial_path(out)
    wait_for_chunks(proc, partial, 2, 180)
    assert proc.poll() is None, "the run ended before it could be killed"
    started = psutil.Process(proc.pid).children(recursive=True)
    # Ray's own dashboard and runtime-env agents write no part and go away by themselves, later
    workers = [p for p in started if not p.name().endswith("Agent")]
    assert len(workers) >= 2
    try:
        proc.kill()
        proc.wait(timeout=30)
        time.sleep(0.5)  # a worker's watchdog looks every 0.1 s
        at_death = parts(partial)
        deadline = time.monotonic() + 5
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert alive(workers) == [], [p.cmdline() for p in workers if p.pid in alive(workers)]
        time.sleep(1.0)
        assert parts(partial) == at_death  # no worker wrote a part after its parent died
    finally:
        for left in started:
            if alive([left]):
                left.kill()
    assert len((partial / CHUNKS_FILE).read_text().splitlines()) < 20
    resumed = subprocess.run(
        [*SKALD, *RUN, "--out", str(out), "--resume"], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stderr
    assert parts(out) == parts(whole) and not partial.exists()

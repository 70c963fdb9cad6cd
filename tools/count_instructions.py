"""Instructions per decision, counted by valgrind (the load of a shared machine does not move them).

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        --callgrind-out-file=/tmp/cg.out .venv/bin/python -m tools.count_instructions mainland random 100 rec
    grep -m1 '^summary:\\|^totals:' /tmp/cg.out     # Ir: divide by the DECISIONS line printed

One chunk of GAMES games (four players, every seat STRATEGY) is played with records written (``rec``) or
without (``bare``) after an uncounted warm-up (imports, compiled kernels, Arrow and Parquet); only the
timed chunk runs inside ``functools.reduce``, which is what callgrind is told to count.  The ratio of the
two modes is the cost of recording in instructions; the peer's counts are taken the same way on
``tools/peer_bench.py``.

``warm=N`` plays N games untimed before the counted chunk instead of 2, so that what the game remembers
(Graenaland's payments and votes) is as warm as in a long run: a random Graenaland decision counts 233,478
instructions after 2 warm-up games and 195,593 after 100.

About three times quicker: add ``--instr-atstart=no`` to valgrind's options and ``switch-on`` after the
mode; the start-up and warm-up then run uninstrumented and the script switches instrumentation on itself
(``callgrind_control -i on``) just before the counted chunk.  Both ways count the same chunk: a Mainland
greedy chunk of 3 games gave 235,480 and 235,527 instructions a decision (in one sitting).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sim.runner import make_plan, simulate_chunk
from sim.tables import TABLES


def switch_on() -> None:
    """Ask callgrind to instrument this process from now on; spin meanwhile (callgrind reads the request
    only while the program runs, not while it waits on the child)."""
    child = subprocess.Popen(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
    while child.poll() is None:
        pass


USAGE = "usage: python -m tools.count_instructions GAME STRATEGY GAMES rec|bare [switch-on] [warm=N]"


def main(argv: list[str]) -> None:
    if len(argv) < 4:
        raise SystemExit(USAGE)
    game, strategy, games, mode = argv[0], argv[1], int(argv[2]), argv[3]
    extra = argv[4:]
    warm = [int(a.split("=", 1)[1]) for a in extra if a.startswith("warm=")]
    if mode not in ("rec", "bare") or len(warm) > 1 or any(a != "switch-on" for a in extra
                                                             if not a.startswith("warm=")):
        raise SystemExit(USAGE)
    plan, _ = make_plan(game, 4, [strategy], seats="fixed", seed=42)
    folder = Path(tempfile.mkdtemp())
    for table in TABLES:
        (folder / table).mkdir()
    simulate_chunk(plan, 0, 10**9, 10**9 + 2, folder)  # warm-up, not counted
    simulate_chunk(plan, 0, 10**9, 10**9 + (warm[0] if warm else 2), None)
    for part in folder.rglob("*.parquet"):
        part.unlink()
    out = folder if mode == "rec" else None
    if "switch-on" in extra:
        switch_on()
    summary = functools.reduce(lambda _, __: simulate_chunk(plan, 1, 0, games, out), [0], None)
    assert summary is not None  # reduce over one item returns the chunk's summary
    print("DECISIONS", summary.decisions, "GAMES", games)


if __name__ == "__main__":
    main(sys.argv[1:])

"""A strategy that raises what ``Exception`` does not cover (``sys.exit``, ``KeyboardInterrupt``,
``GeneratorExit``) is a failing strategy like any other; the user's own Ctrl-C and SIGTERM still stop
the run, keep its chunks and say how to resume."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from sim import signals
from sim.play import GameFailure
from sim.resume import partial_path
from strategies.random_play import RandomStrategy
from tests.cli_kit import cli
from tests.toy_game import toy_run

ESCAPING = "tests.escaping_strategy"
RAISED = {
    "Exiter": "raised SystemExit: 3",
    "Interrupter": "raised KeyboardInterrupt (game seed",
    "Closer": "raised GeneratorExit (game seed",
}


def run_args(out: Path, spec: str, jobs: str, *extra: str) -> list[str]:
    args = ["run", "secretbid", "--players", "3", "--games", "12", "--chunk-size", "3", "--seed", "5"]
    args += ["--strategies", f"{spec},random,random", "--jobs", jobs, "--out", str(out), "--quiet"]
    return [*args, *extra]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("cls", sorted(RAISED))
def test_a_strategy_that_exits_or_interrupts_itself_errors_its_game(
    registered: str, tmp_path: Path, capsys, cls: str, jobs: str
) -> None:
    """`sys.exit(3)` in a strategy made `skald run` exit 3 with nothing printed, and a strategy's own
    `KeyboardInterrupt` was reported as the user's Ctrl-C (exit 130), OUT.partial left behind both times.
    Under --on-error continue the game is errored and recorded, as for any strategy exception."""
    spec = f"{ESCAPING}:{cls}:p=0.5:at=1"
    code, _, err = cli(capsys, *run_args(tmp_path / "r", spec, jobs))
    assert code == 0, err
    assert not partial_path(tmp_path / "r").exists()
    games = pl.read_parquet(tmp_path / "r" / "games")
    bad = games.filter(pl.col("errored"))
    assert 0 < bad.height < games.height == 12
    assert bad["error"].str.contains(RAISED[cls], literal=True).all()
    assert (bad["error_strategy"] == spec).all()
    assert f"note: {bad.height} of 12 games errored" in err and RAISED[cls] in err


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("cls", sorted(RAISED))
def test_on_error_stop_names_the_strategy_in_one_line_and_leaves_nothing(
    registered: str, tmp_path: Path, capsys, cls: str, jobs: str
) -> None:
    """Under --on-error stop: one line naming the strategy, exit 2, no OUT and no OUT.partial."""
    spec = f"{ESCAPING}:{cls}:at=1"
    code, _, err = cli(capsys, *run_args(tmp_path / "r", spec, jobs, "--on-error", "stop"))
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"error: strategy {spec!r} at seat "), err
    assert RAISED[cls] in err
    assert list(tmp_path.iterdir()) == []


def test_a_strategy_that_exits_when_it_is_made_errors_its_games(tmp_path: Path) -> None:
    """`sys.exit` in a strategy's constructor (at the start of every game) fails each game at turn 0,
    or the run under --on-error stop, as an exception in `choose` does."""
    strategies = ["random", f"{ESCAPING}:Unborn", "random"]
    summary = toy_run(tmp_path / "r", strategies=strategies, games=6, jobs=2, chunk_size=3, seats="fixed")
    assert summary.errored == summary.games == 6
    assert "raised SystemExit: 4 when it was set up (game seed" in (summary.first_error or "")
    games = pl.read_parquet(tmp_path / "r" / "games")
    assert games["errored"].all() and (games["decisions"] == 0).all() and (games["error_turn"] == 0).all()
    with pytest.raises(GameFailure, match="'tests.escaping_strategy:Unborn' at seat 1 raised SystemExit: 4"):
        toy_run(tmp_path / "s", strategies=strategies, games=6, on_error="stop", seats="fixed")
    assert not (tmp_path / "s").exists() and not partial_path(tmp_path / "s").exists()


def test_a_strategy_that_exits_when_the_spec_is_checked_is_refused_in_one_line(
    registered: str, tmp_path: Path, capsys
) -> None:
    """A class whose constructor calls `sys.exit` fails the up-front spec check: one line naming the spec,
    exit 2, nothing written (it used to leave with the strategy's own exit code and nothing said)."""
    spec = f"{ESCAPING}:Stillborn"
    code, _, err = cli(capsys, *run_args(tmp_path / "r", spec, "1"))
    assert code == 2, err
    assert err == f"error: --strategies: entry 1: strategy {spec!r} failed when made: SystemExit: 5\n", err
    assert list(tmp_path.iterdir()) == []


class SelfSignalling(RandomStrategy):
    """``random`` that sends its own process ``SKALD_TEST_SIGNAL`` (SIGINT: Ctrl-C; SIGTERM: ``kill``)
    from inside ``choose`` on its third decision: the user's signal arriving while a strategy plays."""

    name = "self-signalling"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made = 0

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        self.made += 1
        if self.made == 3:
            os.kill(os.getpid(), int(os.environ["SKALD_TEST_SIGNAL"]))
        return super().choose(view, options)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_users_signal_inside_a_strategy_still_interrupts_the_run(
    registered: str, tmp_path: Path, capsys, monkeypatch, sig: signal.Signals
) -> None:
    """Ctrl-C or SIGTERM while a strategy chooses (--jobs 1: in this process) is no strategy failure:
    exit 130, OUT.partial kept, the resume hint."""
    monkeypatch.setenv("SKALD_TEST_SIGNAL", str(int(sig)))
    args = run_args(tmp_path / "r", "tests.sim.test_run_failures:SelfSignalling", "1")
    code, _, err = cli(capsys, *args)
    assert code == 130, err
    assert err.count("\n") == 1 and err.startswith("error: interrupted after 0 of 4 chunks"), err
    assert err.strip().endswith(" --resume")
    assert partial_path(tmp_path / "r").is_dir() and not (tmp_path / "r").exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after the run


def test_from_signal_tells_the_users_interrupt_from_a_raised_one() -> None:
    """A plain KeyboardInterrupt may be Ctrl-C under Python's own handler, is not once the run's handler
    is set (that raises ``Interrupted``) nor outside the main thread; other exceptions never are."""
    assert signals.from_signal(KeyboardInterrupt())  # Python's handler: cannot tell, so taken for Ctrl-C
    assert signals.from_signal(signals.Interrupted())
    assert not signals.from_signal(SystemExit(3)) and not signals.from_signal(GeneratorExit())
    with signals.marking_interrupts():
        assert not signals.from_signal(KeyboardInterrupt())
        assert signals.from_signal(signals.Interrupted())
    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(signals.from_signal(KeyboardInterrupt())))
    thread.start()
    thread.join()
    assert seen == [False]

"""The bad-input sweep (tools/bad_input_sweep.py): every case across every command is a clean refusal.

A clean refusal is exit 2, one ``error:`` line, no traceback, nothing written and nothing of the user's
(a finished run, a study, a folder of their own files) changed or removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.bad_input_sweep import Case, build_sandbox, cases, judge, kind, run_case

pytestmark = pytest.mark.slow


CASES = cases()


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sandbox(tmp_path_factory.mktemp("sweep") / "box")


def test_the_sweep_covers_every_command() -> None:
    from sim.cli import app

    commands = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    swept = {case.args[0] for case in CASES if case.args}
    assert commands - swept == set(), "commands without a bad-input case"
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_refused_cleanly(case: Case, sandbox: Path) -> None:
    outcome = run_case(case, sandbox)
    assert outcome.problems == [], f"{kind(outcome)}: {outcome.problems} | {outcome.stderr.strip()[-300:]}"


def test_the_judge_sees_each_kind_of_failure() -> None:
    """The judge itself: a lost file, a traceback, an acceptance and a noisy refusal are all caught."""
    same = {"run/manifest.json": "a"}
    assert judge(2, "", "error: bad\n", same, same) == []
    assert kind_of(judge(2, "", "error: bad\n", same, {})) == "lost data"
    assert kind_of(judge(1, "", "Traceback (most recent call last):\n", same, same)) == "traceback"
    assert kind_of(judge(0, "", "", same, same)) == "accepted"
    assert kind_of(judge(2, "", "note: x\nerror: bad\n", same, same)) == "noisy"
    assert kind_of(judge(2, "", "error: bad\n", same, {**same, "out": "dir"})) == "wrote"


def kind_of(problems: list[str]) -> str:
    from tools.bad_input_sweep import Outcome

    return kind(Outcome("x", 0, "", problems))

"""Ray backend: a local Ray writes the same bytes as loky; a missing Ray or cluster is one clean line.

The tests that start a local Ray run in a child pytest (``in_child``): Ray ends its driver process when
the raylet it started dies (seen once on a loaded two-core CI machine: the suite stopped mid-file with no
summary), and that must fail one test with Ray's own words, not end the whole suite.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import psutil
import pytest

from sim.cli import main
from sim.errors import PlayError
from sim.play import GameFailure
from sim.resume import partial_path
from tests.toy_game import toy_run

pytestmark = pytest.mark.cluster


MAINLAND = [
    "run",
    "mainland",
    "--players",
    "2",
    "--games",
    "8",
    "--chunk-size",
    "4",
    "--jobs",
    "2",
    "--quiet",
]


def invoke(args: list[str]) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exc:
            return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def parts(folder: Path, count: int) -> dict[str, bytes]:
    found = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}
    assert len(found) == count
    return found


def assert_one_line_refusal(code: int, out: str, err: str, folder: Path, *needles: str) -> None:
    assert code == 2, (code, err[-500:])
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert all(needle in err for needle in needles), err
    assert "Traceback" not in out + err
    assert list(folder.iterdir()) == []


CHILD = "SKALD_TEST_RAY_CHILD"


def in_child(request: pytest.FixtureRequest) -> bool:
    """True in the child; in the parent, run this test in a child pytest and assert it passed.

    A child that ends without pytest's summary line died under the test (Ray's exit of its driver); it is
    tried once more, and both outputs are shown if that one dies too."""
    if os.environ.get(CHILD):
        return True
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", request.node.nodeid]
    tails = []
    for _ in range(2):
        child = subprocess.run(command, cwd=root, env={**os.environ, CHILD: "1"}, capture_output=True,
                               text=True, timeout=900)  # fmt: skip
        output = child.stdout + child.stderr
        tails.append(f"exit {child.returncode}: {output[-3000:]}")
        if child.returncode == 0:
            return False
        if re.search(r"\b\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+s", output):
            break  # pytest summed up: the test itself failed, no second try
    raise AssertionError("the child pytest failed:\n" + "\n---\n".join(tails))


def test_local_ray_writes_the_same_mainland_parts_as_loky_and_shuts_down(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    pytest.importorskip("ray")
    if not in_child(request):
        return
    code, _, err = invoke([*MAINLAND, "--out", str(tmp_path / "loky")])
    assert code == 0, err
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    code, _, err = invoke([*MAINLAND, "--backend", "ray", "--out", str(tmp_path / "ray")])
    assert code == 0, err
    assert parts(tmp_path / "ray", 6) == parts(tmp_path / "loky", 6)  # 2 chunks x 3 tables
    execution = json.loads((tmp_path / "ray" / "manifest.json").read_text())["execution"]
    assert execution["backend"] == "ray" and execution["scheduler"] == "local" and execution["workers"] == 2
    import ray

    assert not ray.is_initialized()
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and p.is_running()]
    gone, alive = psutil.wait_procs(left, timeout=15)
    assert not alive, [p.cmdline() for p in alive]


def test_gathered_parts_on_a_running_ray_are_the_same_bytes_and_it_keeps_running(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    ray = pytest.importorskip("ray")
    if not in_child(request):
        return
    toy_run(tmp_path / "loky", jobs=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        toy_run(tmp_path / "ray", backend="ray", gather=True)
        assert ray.is_initialized()  # a Ray this process started itself is left to it
        # a game error with --on-error stop is raised as itself (not wrapped by Ray), as with loky
        with pytest.raises(GameFailure, match="deliberate failure") as info:
            broken = ["tests.broken_strategy:Raiser", "random", "random"]
            toy_run(tmp_path / "stop", backend="ray", strategies=broken, on_error="stop")
        assert isinstance(info.value, PlayError)  # which game fails first depends on the workers
        assert not (tmp_path / "stop").exists() and not partial_path(tmp_path / "stop").exists()
    finally:
        ray.shutdown()
    assert parts(tmp_path / "ray", 9) == parts(tmp_path / "loky", 9)  # 3 chunks x 3 tables
    execution = json.loads((tmp_path / "ray" / "manifest.json").read_text())["execution"]
    assert execution["backend"] == "ray" and execution["scheduler"] == "existing"


def test_ray_not_installed_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    code, out, err = invoke([*MAINLAND, "--backend", "ray", "--out", str(tmp_path / "r")])
    assert_one_line_refusal(code, out, err, tmp_path, "--backend ray needs Ray", "pip install 'skald[ray]'")


@pytest.mark.parametrize("address", ["ray://127.0.0.1:9", "127.0.0.1:9", "no-port"])
def test_unreachable_ray_cluster_is_one_line_and_leaves_nothing(tmp_path: Path, address: str) -> None:
    pytest.importorskip("ray")
    code, out, err = invoke(
        [*MAINLAND, "--backend", "ray", "--scheduler", address, "--out", str(tmp_path / "r")]
    )
    assert_one_line_refusal(code, out, err, tmp_path, f"cannot reach the Ray cluster at {address!r}")
    assert not partial_path(tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "loky", "--scheduler", "auto"], "--scheduler needs --backend dask or --backend ray"),
        (["--backend", "ray", "--scheduler", " "], "--scheduler needs an address (ray://host:10001 or auto)"),
    ],
)
def test_bad_ray_options(tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = invoke([*MAINLAND, *args, "--out", str(tmp_path / "r")])
    assert_one_line_refusal(code, out, err, tmp_path, message)

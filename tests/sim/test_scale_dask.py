"""Backends: Dask (an existing cluster or a local one) and gathered parts write the same bytes as loky."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import psutil
import pytest

from sim.errors import SkaldError
from sim.resume import partial_path
from tests.toy_game import toy_run

pytestmark = pytest.mark.cluster


distributed = pytest.importorskip("distributed")


def parts(folder: Path) -> dict[str, bytes]:
    found = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}
    assert len(found) == 9  # 3 chunks x 3 tables
    return found


@pytest.fixture(scope="module")
def loky_parts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("loky") / "r"
    toy_run(out, jobs=2)
    return parts(out)


@pytest.fixture
def cluster():
    """A small in-process Dask cluster (threads), shut down after the test."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=logging.ERROR
    ) as local:
        yield local


def test_dask_scheduler_writes_the_same_parts_as_loky(
    tmp_path: Path, cluster, loky_parts: dict[str, bytes]
) -> None:
    summary = toy_run(tmp_path / "d", backend="dask", scheduler=cluster.scheduler_address)
    assert parts(tmp_path / "d") == loky_parts
    execution = json.loads((tmp_path / "d" / "manifest.json").read_text())["execution"]
    assert execution["backend"] == "dask" and execution["scheduler"] == cluster.scheduler_address
    assert execution["workers"] == 2 and summary.games == 12


def test_dask_local_cluster_writes_the_same_parts_and_shuts_down(
    tmp_path: Path, loky_parts: dict[str, bytes]
) -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    toy_run(tmp_path / "d", backend="dask", jobs=2)
    assert parts(tmp_path / "d") == loky_parts
    execution = json.loads((tmp_path / "d" / "manifest.json").read_text())["execution"]
    assert execution["backend"] == "dask" and execution["scheduler"] == "local"
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and p.is_running()]
    gone, alive = psutil.wait_procs(left, timeout=10)
    assert not alive, [p.cmdline() for p in alive]


def test_gathered_parts_are_the_same_bytes(tmp_path: Path, cluster, loky_parts: dict[str, bytes]) -> None:
    toy_run(tmp_path / "g", jobs=2, gather=True)
    assert parts(tmp_path / "g") == loky_parts
    toy_run(tmp_path / "h", backend="dask", scheduler=cluster.scheduler_address, gather=True)
    assert parts(tmp_path / "h") == loky_parts


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"backend": "spark"}, "unknown backend 'spark' \\(allowed: loky, dask, ray\\)"),
        ({"scheduler": "tcp://127.0.0.1:8786"}, "--scheduler needs --backend dask"),
    ],
)
def test_bad_backend_options(tmp_path: Path, overrides: dict, message: str) -> None:
    with pytest.raises(SkaldError, match=message):
        toy_run(tmp_path / "r", **overrides)
    assert list(tmp_path.iterdir()) == []


def test_unreachable_scheduler_is_one_line_and_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    import sim.backends

    monkeypatch.setattr(sim.backends, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(SkaldError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'") as info:
        toy_run(tmp_path / "r", backend="dask", scheduler="tcp://127.0.0.1:9")
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == [] and not partial_path(tmp_path / "r").exists()

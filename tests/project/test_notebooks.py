"""Every notebook in notebooks/ runs top to bottom (nbclient, small settings), shows a chart, a state picture
(SVG) and a replay (the viewer page), and leaves nothing behind in the temporary directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.notebooks


NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
#: the prefix of the temporary folder a notebook simulates into
PREFIX = "skald-notebook-"
#: a cell the test adds before the notebook's last (clean-up) cell: where the simulation wrote
PROBE = 'print("WORK=" + ("" if WORK is None else WORK.name))'


def outputs(nb: object, kind: str) -> list[object]:
    """The data of every code cell output holding the MIME type ``kind``."""
    return [
        o["data"][kind]
        for c in nb.cells  # type: ignore[attr-defined]
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if kind in o.get("data", {})
    ]


def probed_folder(nb: object) -> str:
    """What ``PROBE`` printed: the simulation's temporary folder ("" when none was made)."""
    for c in nb.cells:  # type: ignore[attr-defined]
        if c.cell_type == "code" and c.source == PROBE:
            text = "".join(o.get("text", "") for o in c.get("outputs", []))
            return text.strip().removeprefix("WORK=")
    raise AssertionError("the probe cell did not run")


def test_every_game_has_a_notebook() -> None:
    """Notebooks for Knarr and Greenland beside Mainland's and Graenaland's."""
    names = " ".join(p.stem for p in NOTEBOOKS)
    for game in ("mainland", "graenaland", "knarr", "greenland"):
        assert game in names, f"no notebook for {game}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the kernel's tempfile folder, so that leftovers can be counted
    monkeypatch.setenv("SKALD_NB_GAMES", "12")
    monkeypatch.setenv("SKALD_NB_JOBS", "1")
    monkeypatch.delenv("SKALD_NB_RESULTS", raising=False)
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    root = str(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    nb = nbformat.read(path, as_version=4)
    assert "WORK.cleanup()" in nb.cells[-1].source, "the last cell does not remove the temporary folder"
    nb.cells.insert(len(nb.cells) - 1, nbformat.v4.new_code_cell(PROBE))
    before = sorted(p.name for p in temp.glob(f"{PREFIX}*"))
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # runs every cell, then shuts the kernel down
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert outputs(nb, "image/png"), "the notebook shows no chart"
    pictures = outputs(nb, "image/svg+xml")
    assert pictures, "the notebook shows no state picture"
    assert all(str(p).lstrip().startswith("<svg") for p in pictures)
    pages = [str(h) for h in outputs(nb, "text/html") if "<iframe srcdoc=" in str(h)]
    assert pages, "the notebook shows no replay"
    assert all("replay-data" in p and "id=&quot;slider&quot;" in p for p in pages), "not the viewer page"
    made = probed_folder(nb)
    assert Path(made).parent == temp and Path(made).name.startswith(PREFIX), made  # the simulation used it
    assert not Path(made).exists()
    left = sorted(p.name for p in temp.glob(f"{PREFIX}*"))
    assert left == before, f"left behind in the temporary directory: {left}"

"""What the command-line tests share: ``skald`` called in-process, its exit code and output."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``skald ARGS`` in this process; return (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err


def refused(capsys: pytest.CaptureFixture[str], folder: Path, command: str, text: str) -> str:
    """``skald COMMAND FILE.toml --out OUT`` on a bad ``text``: exit 2, one line on stderr and no ``OUT``
    folder; the line."""
    (folder / "bad.toml").write_text(text)
    code, _, err = cli(capsys, command, str(folder / "bad.toml"), "--out", str(folder / "t"))
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert not (folder / "t").exists()
    return err

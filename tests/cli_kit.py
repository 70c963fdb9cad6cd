"""What the command-line tests share: ``skald`` called in-process, its exit code and output."""

from __future__ import annotations

import pytest

from sim.cli import main


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``skald ARGS`` in this process; return (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err

"""tools/spy_shares.py (its account of where a decision's time goes): the shares it reads from
py-spy's collapsed stacks."""

from __future__ import annotations

import pytest

from tools.spy_shares import main, shares

RAW = "\n".join([
    "<module> (x.py:1);simulate_chunk (sim/runner.py:299);play_game (sim/runner.py:211);f (g.py:3) 6",
    "<module> (x.py:1);simulate_chunk (sim/runner.py:299);play_game (sim/runner.py:213);f (g.py:4);"
    "f (g.py:3) 2",
    "<module> (x.py:1);simulate_chunk (sim/runner.py:300) 2",
    "<module> (x.py:1);import_things (y.py:9) 90",
])


def test_only_stacks_below_the_frame_count_and_recursion_counts_once() -> None:
    total, inclusive, by_function, by_line = shares(RAW, "simulate_chunk")
    assert total == 10  # the 90 start-up samples are not the games'
    assert inclusive["simulate_chunk (sim/runner.py)"] == 10
    assert inclusive["play_game (sim/runner.py)"] == 8
    assert inclusive["f (g.py)"] == 8  # the recursive sample once, not twice
    assert by_function == {"f (g.py)": 8, "simulate_chunk (sim/runner.py)": 2}
    assert by_line["f (g.py:3)"] == 8


def test_main_gives_microseconds_and_refuses_a_frame_no_stack_has(tmp_path, capsys) -> None:
    raw = tmp_path / "run.raw"
    raw.write_text(RAW, encoding="utf-8")
    main([str(raw), "--us", "20"])
    printed = capsys.readouterr().out
    assert " 80.0%  16.00 µs  f (g.py)" in printed
    with pytest.raises(SystemExit, match="no sample"):
        main([str(raw), "--below", "nowhere"])

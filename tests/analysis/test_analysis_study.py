"""Study files: parsing, clear one-line errors, expansion into runs, and the `skald study` command."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.data import study_file
from analysis.study import study as studies
from sim.cli import _main
from sim.errors import SkaldError

pytestmark = pytest.mark.slow


GOOD = """
[study]
name = "tiny"
title = "A tiny study"
games = 30
seed = 3

[[runs]]
game = "mainland"
players = [2, 3]
strategies = ["greedy", "builder", "raider"]
variants = [{ label = "strict", castle_needs_overlap = true }, { castle_needs_overlap = false }]
"""


def test_parse_and_plan() -> None:
    spec = study_file.parse(GOOD, "tiny.toml")
    planned = spec.plan()
    assert [r.name for r in planned] == [
        "mainland-2p-strict",
        "mainland-2p-castle_needs_overlap-false",
        "mainland-3p-strict",
        "mainland-3p-castle_needs_overlap-false",
    ]
    assert planned[0].strategies == ["greedy", "builder"]
    assert planned[2].strategies == ["greedy", "builder", "raider"]
    assert planned[1].rules == {"castle_needs_overlap": False}
    assert {r.games for r in planned} == {30} and {r.seed for r in planned} == {3}
    assert {r.games for r in spec.plan(games=12)} == {12}
    assert spec.missing() is None


BAD = [
    ("[study\nname = 'x'", "not valid TOML"),
    ("[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['greedy']", "needs a [study] table"),
    ("[study]\nname='x'\ngamez=3", "unknown key study.gamez"),
    ("[study]\nname='my study'", "may hold only letters"),
    ("[study]\nname='x'\ngames='many'", "study.games must be an integer"),
    ("[study]\nname='x'\ngames=0", "study.games must be at least 1"),
    ("[study]\nname='x'\nseats='diagonal'", "not a seat mode"),
    ("[study]\nname='x'", "needs at least one [[runs]] table"),
    ("[study]\nname='x'\n[extra]\na=1", "unknown table 'extra'"),
    ("[study]\nname='x'\n[[runs]]\ngame='mainland'\nstrategies=['greedy']", "runs[0].players is missing"),
    ("[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=2", "exactly one of strategies"),
    ("[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=2\nstrategies=[]", "non-empty list of strategy"),
    ("[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['a']\nrules=3", "must be a table"),
    ("[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=['two']\nstrategies=['a']", "must be an integer"),
    (
        "[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['a']\ncolour=1",
        "unknown key runs[0]",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_malformed_files_get_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(SkaldError) as info:
        study_file.parse(text, "'bad.toml'")
    assert message in str(info.value)
    assert str(info.value).startswith("study file 'bad.toml': ")
    assert "\n" not in str(info.value)


def test_too_few_strategies_and_duplicate_folders() -> None:
    text = "[study]\nname='x'\n[[runs]]\ngame='mainland'\nplayers=4\nstrategies=['a','b']"
    spec = study_file.parse(text, "f")
    with pytest.raises(SkaldError, match="2 strategies given for 4 players"):
        spec.plan()
    twice = "[study]\nname='x'\n" + "[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['greedy']\n" * 2
    with pytest.raises(SkaldError, match="share the folder 'mainland-2p'"):
        study_file.parse(twice, "f").plan()


def test_packaged_studies_parse() -> None:
    found = studies.packaged()
    assert {"mainland-scores", "start-positions", "three-player"} <= set(found)
    for spec in found.values():
        assert spec.plan()
    assert found["mainland-scores"].missing() is None


def test_cli_list_and_graenaland_studies_say_what_they_need(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A plug-in whose rules do not load keeps its studies listed, each saying what it needs (before
    anything about its folder: here the quick start's results/ already holds them); a game that is not
    registered brings no studies (they come with its plug-in)."""
    import dataclasses

    import sim.games

    monkeypatch.chdir(tmp_path)
    for name in ("start-positions", "three-player"):
        (tmp_path / "results" / name).mkdir(parents=True)
        (tmp_path / "results" / name / "report.html").write_text("an earlier study")

    broken = dataclasses.replace(sim.games.GAMES["graenaland"], game="nowhere.to.be.found:GAME")
    monkeypatch.setitem(sim.games.GAMES, "graenaland", broken)
    assert _main(["study", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "mainland-scores" in listing and "needs graenaland" in listing
    for name in ("start-positions", "three-player"):
        assert _main(["study", name]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"error: study '{name}' needs graenaland, which is not loadable yet")
        assert "\n" not in err
    monkeypatch.delitem(sim.games.GAMES, "graenaland")
    assert _main(["study", "--list"]) == 0
    assert "start-positions" not in capsys.readouterr().out


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[study]\nname = 'x'\ngames = -3\n")
    assert _main(["study", "--file", str(bad)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"error: study file '{bad}': study.games must be at least 1, not -3"
    )
    assert _main(["study"]) == 2
    assert "give one study" in capsys.readouterr().err
    assert _main(["study", "nosuch"]) == 2
    assert "unknown study 'nosuch'" in capsys.readouterr().err
    assert _main(["study", "--file", str(tmp_path / "missing.toml")]) == 2
    assert "not found" in capsys.readouterr().err
    run_folder = tmp_path / "run"
    run_folder.mkdir()
    (run_folder / "manifest.json").write_text("{}")
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    assert _main(["study", "--file", str(good), "--out", str(run_folder)]) == 2
    assert "is a run folder" in capsys.readouterr().err


def test_readme_study_example_parses() -> None:
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = re.search(r"```toml\n(.*?)```", readme, re.S)
    assert block, "README has a TOML study example"
    planned = study_file.parse(block.group(1), "README").plan()
    assert [r.name for r in planned] == [
        "mainland-3p-strict",
        "mainland-3p-loose",
        "mainland-4p-strict",
        "mainland-4p-loose",
    ]


def test_cli_all_runs_what_it_can(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = study_file.parse(
        "[study]\nname='tiny'\ngames=12\njobs=1\n[[runs]]\ngame='mainland'\nplayers=2\n"
        "strategies=['greedy','random']\n[[runs]]\nname='odd'\ngame='mainland'\nplayers=2\n"
        "strategies=['greedy']\nrules={no_such_switch=true}\n",
        "tiny.toml",
    )
    later = study_file.parse(
        "[study]\nname='later'\n[[runs]]\ngame='nosuchgame'\nplayers=3\nstrategies=['x']", "l"
    )
    monkeypatch.setattr(studies, "packaged", lambda: {"tiny": tiny, "later": later})
    assert _main(["study", "--all", "--out", str(tmp_path), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "skipped: study 'later' needs nosuchgame, which is not available yet" in captured.err
    assert "note: skipped run odd-2p: mainland has no rule switch 'no_such_switch' yet" in captured.err
    assert (tmp_path / "tiny" / "report.html").is_file() and (tmp_path / "report.html").is_file()
    assert captured.out.strip().splitlines()[-1] == f"report: {tmp_path / 'report.html'}"


def test_a_run_two_studies_share_is_played_once(tmp_path: Path) -> None:
    from analysis.data.runs import open_runs

    text = "[study]\nname='one'\ngames=6\nseed=977\njobs=1\n[[runs]]\ngame='mainland'\nplayers=2\n"
    text += "strategies=['greedy','random']\n"
    first = study_file.parse(text, "one.toml")
    second = study_file.parse(text.replace("'one'", "'two'"), "two.toml")
    studies.run_study(first, out=tmp_path / "one", progress=False, report=False)
    notes: list[str] = []
    studies.run_study(second, out=tmp_path / "two", progress=False, report=False, on_skip=notes.append)
    assert notes == [
        f"run mainland-2p is the same run as {tmp_path / 'one' / 'mainland-2p'}: copied, not played again"
    ]
    for table in ("games", "seats", "turns"):
        a = sorted((tmp_path / "one" / "mainland-2p" / table).glob("*.parquet"))
        b = sorted((tmp_path / "two" / "mainland-2p" / table).glob("*.parquet"))
        assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    runs = open_runs([tmp_path / "one", tmp_path / "two"])
    assert len(runs) == 1 and runs.duplicates == [("two/mainland-2p", "one/mainland-2p")]


def test_readme_first_command_runs_the_standard_studies() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1]
    commands = [line.strip() for line in quick.splitlines() if line.startswith("    ")]
    assert commands[0] == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/skald study --all --out results"
    )
    assert commands[1] == "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest -q"

"""Inputs refused before anything is written or played (one `error: ...` line, exit 2): strategy
parameters out of range or naming no strategy, a strategy class for another game, a rule given twice,
contradicting options, a sensitivity file's `exclude` that matches nothing; a plug-in that fails to load;
the defaults of `--strategies` for a game's plug-in; what `--help` and the listings show."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from sim.cli import app
from sim.errors import SkaldError
from sim.specs import parse_spec
from tests.cli_kit import cli, refused
from tests.example_kit import register_example


def one_error(code: int, err: str, tmp_path: Path) -> str:
    """The single line of a refused command (exit 2), which wrote nothing."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert list(tmp_path.iterdir()) == []
    return err.strip()


def mainland(out: Path, *extra: str) -> list[str]:
    return ["run", "mainland", "--players", "2", "--games", "2", "--jobs", "1", "--quiet", "--out", str(out),
            *extra]


# --------------------------------------------------------------------------- strategy parameters


@pytest.mark.parametrize(("param", "off"), [("playout", "random"), ("prior", "none")])
def test_a_search_naming_no_strategy_is_refused_before_any_game(
    tmp_path: Path, capsys, param: str, off: str
) -> None:
    """`ismcts:playout=nosuch` started the run and every game errored (exit 0)."""
    code, _, err = cli(capsys, *mainland(tmp_path / "r", "--strategies", f"ismcts:{param}=nosuch,random"))
    line = one_error(code, err, tmp_path)
    assert line == (
        f"error: --strategies: entry 1: strategy 'ismcts:{param}=nosuch': {param} takes {off}, empty (the"
        " game's best scripted strategy) or a strategy of mainland that does not search"
        f" ({'random, ' if param == 'prior' else ''}greedy, builder, raider), not 'nosuch'"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:c=nan", "c must be a finite number, not 'nan'"),
        ("ismcts:c=inf", "c must be a finite number, not 'inf'"),
        ("ismcts:c=-1", "c must be at least 0, not -1.0"),
        ("ismcts:widen=0", "widen must be above 0, not 0.0"),
        ("ismcts:alpha=1.5", "alpha must be between 0 and 1, not 1.5"),
        ("ismcts:epsilon=nan", "epsilon must be a finite number, not 'nan'"),
        ("ismcts:ms=inf", "ms must be a finite number, not 'inf'"),
        ("ismcts:keep=-0.5", "keep must be at least 0, not -0.5"),
        ("ismcts:iterations=0", "iterations must be at least 1, not 0"),
        ("ismcts:iterations=2.5", "iterations must be a whole number, not '2.5'"),
        ("ismcts:playout=ismcts", "the playout policy cannot itself search"),
        ("builder:climb=nan", "climb must be a finite number, not 'nan'"),
    ],
)
def test_every_numeric_strategy_parameter_is_checked_against_its_range(spec: str, message: str) -> None:
    """`ismcts:c=nan` was accepted (nan fails no comparison) and every game searched with it."""
    with pytest.raises(SkaldError) as info:
        parse_spec(spec, "mainland")
    assert str(info.value).startswith(f"strategy {spec!r}: {message}")


def test_parameters_in_range_and_the_defaults_still_parse() -> None:
    for spec in ("ismcts", "ismcts:c=0:alpha=1:epsilon=0.5:playout=random:prior=none", "ismcts:prior=greedy"):
        assert parse_spec(spec, "mainland").cls.name == "ismcts"
    # a game's own search defaults (Greenland's plug-in) are applied and checked like a spec's own
    assert dict(parse_spec("ismcts", "greenland").params) == {"iterations": "24", "depth": "60"}


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ("iterations=zero", "game plug-in 'greenland': bad search default: iterations must be a whole number,"
                            " not 'zero'"),
        ("playout=nosuch", "game plug-in 'greenland': bad search default: playout takes random"),
        ("iterations", "game plug-in 'greenland': bad search default 'iterations' (expected key=value"),
    ],
)
def test_a_games_own_search_defaults_are_checked_naming_its_plugin(
    monkeypatch: pytest.MonkeyPatch, search: str, message: str
) -> None:
    """A plug-in's `search` defaults go into every ismcts spec of its game: a bad one is named as the
    plug-in's, not as the user's spec."""
    import dataclasses

    import sim.games

    plugin = sim.games.GAMES["greenland"]
    monkeypatch.setitem(sim.games.GAMES, "greenland", dataclasses.replace(plugin, search=search))
    with pytest.raises(SkaldError) as info:
        parse_spec("ismcts", "greenland")
    assert str(info.value).startswith(message)


def test_a_strategy_class_for_another_game_is_refused_naming_its_games(tmp_path: Path, capsys) -> None:
    """A class declaring `games = ("knarr",)` played Mainland when given as package.module:Class."""
    code, _, err = cli(capsys, *mainland(tmp_path / "r", "--strategies", "strategies.knarr:GreedyStrategy"))
    assert one_error(code, err, tmp_path) == (
        "error: --strategies: strategy strategies.knarr:GreedyStrategy does not play mainland: it plays knarr"
        " (its class's games)"
    )
    assert parse_spec("strategies.mainland:GreedyStrategy", "mainland").cls.games == ("mainland",)


def test_bench_refuses_an_unknown_strategy_as_run_does(tmp_path: Path, capsys) -> None:
    """`skald bench mainland --strategies nosuch` exited 0 with a note; `skald run` exits 2."""
    code, _, run_err = cli(capsys, *mainland(tmp_path / "r", "--strategies", "nosuch"))
    one_error(code, run_err, tmp_path)
    args = ["bench", "mainland", "--json", "--games", "1", "--jobs", "1", "--no-recording", "--no-copy"]
    code, out, err = cli(capsys, *args, "--strategies", "nosuch")
    assert one_error(code, err, tmp_path) == run_err.strip() and out == ""
    code, out, err = cli(capsys, *args, "--strategies", "random,ismcts:c=nan")
    assert one_error(code, err, tmp_path).startswith("error: --strategies: entry 2: strategy 'ismcts:c=nan'")
    assert out == ""


# --------------------------------------------------------------------------- options


def test_a_rule_given_twice_is_refused(registered: str, tmp_path: Path, capsys) -> None:
    """`--rule bonus=1 --rule bonus=2` played bonus=2 without a word (the last one won)."""
    args = ["run", registered, "--players", "2", "--games", "2", "--jobs", "1", "--out", str(tmp_path / "r")]
    code, _, err = cli(capsys, *args, "--rule", "bonus=1", "--rule", "bonus=2")
    assert one_error(code, err, tmp_path) == (
        "error: --rule bonus is given twice (bonus=1, bonus=2): give each rule once"
    )


def test_resume_with_overwrite_is_refused(tmp_path: Path, capsys) -> None:
    """`skald run --resume --overwrite` was accepted; `skald study` refuses the pair in the same words."""
    code, _, err = cli(capsys, *mainland(tmp_path / "r", "--resume", "--overwrite"))
    assert one_error(code, err, tmp_path) == (
        "error: give --overwrite (play the run again) or --resume (keep its finished chunks), not both"
    )


@pytest.mark.parametrize("backend", [[], ["--backend", "loky"]])
def test_gather_with_the_local_backend_is_refused(tmp_path: Path, capsys, backend: list[str]) -> None:
    """`--gather` means something for dask and ray only; with loky it was silently ignored."""
    code, _, err = cli(capsys, *mainland(tmp_path / "r", "--gather", *backend))
    assert one_error(code, err, tmp_path).startswith("error: --gather applies to --backend dask or ray only")


def test_a_sensitivity_exclude_that_matches_nothing_is_refused(tmp_path: Path, capsys) -> None:
    """`exclude = ["bord.3"]` (a typo) left board.3 in the screen without a word."""
    text = Path("analysis/sensitivity/mainland.toml").read_text()
    assert 'exclude = ["board.2", "board.3"]' in text
    err = refused(capsys, tmp_path, "sensitivity", text.replace('"board.3"]', '"bord.3"]'))
    assert "sensitivity.exclude 'bord.3' matches no reconstructed value (allowed: " in err
    assert "board.3, " in err and "counts.plain" in err  # the nearest name first, then the others


def test_an_exclude_may_name_a_value_whose_name_holds_brackets() -> None:
    """`cards[id=camp]` read as an fnmatch set never matched itself: the value stayed in the screen."""
    from analysis.sensitivity.spec import parse

    text = Path("analysis/sensitivity/mainland.toml").read_text()
    kept = parse(text.replace('"board.3"]', '"board.3", "cards[id=camp]"]'))
    assert "cards[id=camp]" not in {p.name for p in kept.parameters} | {v["name"] for v in kept.not_varied}
    assert "cards[id=camp]" in {v["name"] for v in parse(text).not_varied}


# --------------------------------------------------------------------------- a plug-in that fails to load


@pytest.fixture
def broken_plugin(monkeypatch: pytest.MonkeyPatch):
    """A fake `skald.games` entry point whose module does not import, beside the real ones."""
    import sim.plugin

    real = metadata.entry_points

    def entry_points(**kwargs):
        found = list(real(**kwargs))
        if kwargs.get("group") == sim.plugin.GROUP:
            found.append(metadata.EntryPoint("zbroken", "no_such_package.plugin:PLUGIN", sim.plugin.GROUP))
        return found

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    sim.plugin.registered.cache_clear()
    yield "zbroken"
    sim.plugin.registered.cache_clear()  # found again, from the real entry points, when next asked


REASON = (
    "game plug-in 'zbroken' (entry point zbroken = no_such_package.plugin:PLUGIN) failed to load:"
    " ModuleNotFoundError: No module named 'no_such_package'"
)


def test_a_plugin_that_fails_to_load_is_skipped_and_named(broken_plugin: str, capsys) -> None:
    """One broken plug-in made every command crash, `skald games` included."""
    from sim.plugin import broken, registered

    assert {"mainland", "knarr", "greenland", "graenaland"} <= set(registered())
    assert broken_plugin not in registered() and broken() == {broken_plugin: REASON}
    code, out, err = cli(capsys, "games")
    assert code == 0 and "mainland" in out
    assert err == f"note: {REASON}; skipped\n"


def test_asking_for_a_game_whose_plugin_failed_says_why(broken_plugin: str, tmp_path: Path, capsys) -> None:
    code, _, err = cli(capsys, "run", broken_plugin, "--out", str(tmp_path / "r"))
    assert one_error(code, err, tmp_path) == f"error: {REASON}"
    code, _, err = cli(capsys, "rules", "zbroke")
    from sim.games import GAMES

    installed = ", ".join(sorted(GAMES))  # the built-in four, and any plug-in installed beside them
    assert err == f"error: unknown game 'zbroke' (allowed: {installed}; failed to load: zbroken)\n"
    assert {"graenaland", "greenland", "knarr", "mainland"} <= set(GAMES)


# --------------------------------------------------------------------------- defaults of --strategies


def test_a_plugin_game_runs_with_its_own_best_strategy_against_random(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys
) -> None:
    """`skald run tictactoe` failed: the default `greedy,random` has no greedy in tic-tac-toe."""
    game = register_example(monkeypatch)
    args = ["run", game, "--games", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path / "r")]
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["config"]["strategies"] == ["blocker", "random"]
    args = ["bench", game, "--json", "--games", "1", "--jobs", "1", "--no-recording", "--no-copy"]
    code, out, err = cli(capsys, *args)
    assert code == 0 and err == ""
    assert [json.loads(line)["strategy"] for line in out.splitlines()] == ["random", "blocker"]


def test_the_built_in_games_keep_greedy_and_random_in_turn() -> None:
    from sim.commands.run import default_seats

    for game in ("mainland", "knarr", "greenland", "graenaland"):
        assert default_seats(game, 4) == ["greedy", "random", "greedy", "random"], game
        assert default_seats(game, 3) == ["greedy", "random", "greedy"], game


def test_a_game_without_strategies_of_its_own_plays_random(registered: str) -> None:
    from sim.commands.run import default_seats

    assert default_seats(registered, 3) == ["random"]


# --------------------------------------------------------------------------- what --help and listings show

#: the group and every command it registers
COMMANDS = ["", *(command.name or "" for command in app.registered_commands)]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_type_for_a_flag_and_a_word_for_a_list(command: str, capsys) -> None:
    """Flags printed `<bool>` and --rule `<list[str]>` in every command's --help."""
    assert len(COMMANDS) >= 13
    code, out, _ = cli(capsys, *([command] if command else []), "--help")
    assert code == 0 and "--help" in out
    assert "<bool>" not in out and "<list[str]>" not in out
    if command == "run":
        assert "NAME=VALUE" in out and "SPEC,..." in out


def test_chunk_size_help_says_what_the_default_is(capsys) -> None:
    """The help said `ceil(games/64), at most 250`: 100 games a part is the usual default."""
    from sim.plan import default_chunk_size

    code, out, _ = cli(capsys, "run", "mainland", "--help")
    said = " ".join(out.replace("│", " ").split())
    assert "default: 100, fewer only to give each worker two chunks; at least games/64; at most 250" in said
    assert default_chunk_size(1000, 2) == 100  # 100 ...
    assert default_chunk_size(120, 2) == 30  # ... fewer for two chunks a worker ...
    assert default_chunk_size(12_800, 1) == 200 and default_chunk_size(10**6, 1) == 250  # games/64, 250


@pytest.mark.parametrize(("args", "names"), [
    (["games"], ["three_player_adjustments", "card_meets_own_requirements", "castle_needs_overlap"]),
    (["rules", "graenaland"], ["three_player_adjustments", "five_player_offer"]),
    (["rules", "mainland"], ["card_meets_own_requirements"]),
])
def test_rule_names_are_whole_in_an_80_column_terminal(args: list[str], names: list[str]) -> None:
    """`skald games` showed `three_player_adj…` at 80 columns: the name a user must type."""
    env = {**os.environ, "COLUMNS": "80"}
    result = subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    for name in names:
        assert name in result.stdout, name

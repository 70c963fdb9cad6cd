"""The command line's options as a new user meets them: --jobs, --strategies lists, the rounding notice,
--version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from joblib import cpu_count

import sim
from sim.errors import SkaldError
from tests.cli_kit import cli
from tests.toy_game import HIGH


def run_args(out: Path, *extra: str) -> list[str]:
    args = ["run", "secretbid", "--players", "3", "--games", "6", "--strategies", f"{HIGH},random,random"]
    args += ["--seed", "3", "--jobs", "1", "--out", str(out), "--quiet"]
    for option, value in zip(extra[::2], extra[1::2], strict=True):
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    return args


def one_error(code: int, err: str, tmp_path: Path) -> str:
    """The single line of a refused command (exit 2), which wrote nothing."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert list(tmp_path.iterdir()) == []
    return err.strip()


# --------------------------------------------------------------------------- --jobs


@pytest.mark.parametrize("jobs", ["0", "-2", "-7"])
def test_jobs_other_than_minus_one_or_positive_is_one_line_naming_what_is_allowed(
    registered: str, tmp_path: Path, capsys, jobs: str
) -> None:
    """`--jobs -7` ran with one worker: only -1 (all cores) and 1 or more are allowed."""
    code, _, err = cli(capsys, *run_args(tmp_path / "r", "--jobs", jobs))
    line = one_error(code, err, tmp_path)
    assert line == f"error: --jobs must be -1 (all cores) or a number of workers from 1 up, not {jobs}"


def test_more_jobs_than_cores_run_with_a_note(registered: str, tmp_path: Path, capsys) -> None:
    """`--jobs 99` on two cores is allowed, with a note on stderr (even with --quiet)."""
    many = str(cpu_count() + 97)
    code, _, err = cli(capsys, *run_args(tmp_path / "r", "--jobs", many, "--chunk-size", "6"))
    assert code == 0, err
    assert err == (
        f"note: --jobs {many} is more than the {cpu_count()} cores here: the workers will share them\n"
    )
    code, _, err = cli(capsys, *run_args(tmp_path / "s", "--jobs", "-1", "--chunk-size", "6"))
    assert code == 0 and err == ""


def test_the_library_refuses_a_bad_worker_count_too() -> None:
    from sim.backends import pool

    with pytest.raises(SkaldError, match="not -7"), pool("loky", -7, 3):
        pass


@pytest.mark.parametrize("jobs", ["0", "1,-3"])
def test_bench_jobs_lists_follow_the_same_rule(registered: str, tmp_path: Path, capsys, jobs: str) -> None:
    code, _, err = cli(capsys, "bench", "secretbid", "--json", "--games", "2", "--jobs", jobs)
    bad = jobs.split(",")[-1]
    assert one_error(code, err, tmp_path).endswith(f"from 1 up, not {bad}")


def test_bench_jobs_minus_one_means_all_cores(registered: str, capsys) -> None:
    """Before, `skald bench --jobs -1` was refused ("worker counts must be at least 1")."""
    args = ["bench", "secretbid", "--json", "--players", "2", "--games", "2", "--jobs", "-1"]
    code, out, err = cli(capsys, *args, "--strategies", "random", "--no-recording")
    assert code == 0, err
    assert [json.loads(line)["jobs"] for line in out.splitlines()] == [cpu_count()]


@pytest.mark.parametrize("jobs", ["0", "-5"])
def test_study_jobs_follow_the_same_rule(tmp_path: Path, capsys, jobs: str) -> None:
    code, _, err = cli(capsys, "study", "mainland-scores", "--jobs", jobs, "--out", str(tmp_path / "s"))
    assert one_error(code, err, tmp_path).endswith(f"from 1 up, not {jobs}")
    spec = tmp_path / "bad.toml"
    spec.write_text(f"[study]\nname='x'\njobs={jobs}\n[[runs]]\ngame='mainland'\nplayers=2\nstrategies=['random']\n")
    code, _, err = cli(capsys, "study", "--file", str(spec), "--out", str(tmp_path / "s"))
    assert code == 2 and err == (
        f"error: study file {str(spec)!r}: study.jobs must be -1 (all cores) or a number of workers"
        f" from 1 up, not {jobs}\n"
    )


# --------------------------------------------------------------------------- --strategies


@pytest.mark.parametrize(
    ("given", "position"), [("random,,random", 2), ("random,random,", 3), (",random,random", 1), ("", 1)]
)
def test_an_empty_strategy_entry_is_an_error_naming_its_position(
    registered: str, tmp_path: Path, capsys, given: str, position: int
) -> None:
    """`--strategies greedy,,random` silently dropped the empty entry."""
    code, _, err = cli(capsys, *run_args(tmp_path / "r", "--strategies", given))
    line = one_error(code, err, tmp_path)
    assert line.startswith(f"error: --strategies: entry {position} of {given!r} is empty")


def test_bench_refuses_an_empty_strategy_entry_too(registered: str, tmp_path: Path, capsys) -> None:
    code, _, err = cli(capsys, "bench", "secretbid", "--strategies", "random,", "--games", "2", "--jobs", "1")
    assert one_error(code, err, tmp_path).startswith("error: --strategies: entry 2 of 'random,' is empty")


def test_an_unknown_strategy_is_named_before_the_count_is_checked(
    registered: str, tmp_path: Path, capsys
) -> None:
    """With the default 4 players, `--strategies greedy,nosuch` said "2 strategies given for 4 players"
    and hid the unknown name."""
    def four_players(strategies: str) -> list[str]:
        args = run_args(tmp_path / "r", "--strategies", strategies)
        del args[args.index("--players") : args.index("--players") + 2]  # the default: 4 players
        return args

    code, _, err = cli(capsys, *four_players("random,nosuch"))
    line = one_error(code, err, tmp_path)
    assert line.startswith("error: --strategies: entry 2: unknown strategy 'nosuch' for secretbid (allowed: ")
    code, _, err = cli(capsys, *four_players("random,random"))  # known names: now the count
    assert one_error(code, err, tmp_path) == (
        "error: 2 strategies given for 4 players (give one per player, comma-separated, or a single one"
        " for all seats)"
    )


# --------------------------------------------------------------------------- the rounding notice


def test_the_rounding_notice_survives_quiet_and_the_manifest_records_both_counts(
    registered: str, tmp_path: Path, capsys
) -> None:
    """5 games asked under --seats rotate with 3 strategies, 6 played: said even with --quiet."""
    code, _, err = cli(capsys, *run_args(tmp_path / "r", "--games", "5"))
    assert code == 0
    assert err == "note: --games 5 rounded up to 6 (whole blocks of 3 for --seats rotate)\n"
    config = json.loads((tmp_path / "r" / "manifest.json").read_text())["config"]
    assert (config["games_requested"], config["games"]) == (5, 6)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("--strategies", "random,random"), "2 strategies given for 3 players"),
        (("--rule", "nope=1"), "nope"),
        (("--max-decisions", "0"), "--max-decisions must be at least 1"),
        (("--data", "/no/such/file.json"), "not found"),
    ],
)
def test_an_error_comes_alone_without_the_rounding_notice(
    registered: str, tmp_path: Path, capsys, change: tuple[str, str], message: str
) -> None:
    """The notice came before most errors, so they were two lines (without --quiet)."""
    args = [arg for arg in run_args(tmp_path / "r", "--games", "5", *change) if arg != "--quiet"]
    code, _, err = cli(capsys, *args)
    assert message in one_error(code, err, tmp_path)


def test_an_existing_output_folder_is_refused_without_the_notice(
    registered: str, tmp_path: Path, capsys
) -> None:
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "keep.txt").write_text("x")
    args = [arg for arg in run_args(tmp_path / "r", "--games", "5") if arg != "--quiet"]
    code, _, err = cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "exists and is not empty" in err


def test_a_leftover_partial_folder_is_refused_without_the_notice(
    registered: str, tmp_path: Path, capsys
) -> None:
    """The refusal of an interrupted run's folder comes after the options' checks: alone, too."""
    (tmp_path / "r.partial").mkdir()
    args = [arg for arg in run_args(tmp_path / "r", "--games", "5") if arg != "--quiet"]
    code, _, err = cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "pass --resume to finish it" in err


# --------------------------------------------------------------------------- --version


def test_version(capsys) -> None:
    code, out, err = cli(capsys, "--version")
    assert (code, out, err) == (0, f"skald {sim.__version__}\n", "")

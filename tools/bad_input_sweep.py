"""A sweep of bad input across every ``skald`` command: each case must be refused cleanly.

A clean refusal is exit code 2, nothing on stdout, exactly one line on stderr that starts with
``error:``, no traceback, and the sandbox the command ran in left exactly as it was: nothing written,
nothing removed, nothing changed (the finished run, the study and the user's own files in it).

Each case runs in a forked child of this process (Skald already imported, so a case costs
milliseconds) inside a fresh copy of a sandbox that holds:

- ``run/``: a finished two-player Mainland run of four games, with a user's ``notes.txt`` beside it;
- ``study/``: the same run inside a study-looking folder, and ``keep/precious.txt``, a user's folder;
- study, tune, sensitivity and data files, good ones to copy and bad ones to refuse.

The child gets a memory limit and a time limit, so a case that grows without bound is reported as
such, not as a hung sweep.  Usage (from the project root, in its virtual environment)::

    python -m tools.bad_input_sweep            # every case; a table of the failures and the counts
    python -m tools.bad_input_sweep --json     # the counts and failures as JSON

``tests/tools/test_bad_input_sweep.py`` runs every case and requires each to be refused cleanly.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.strategy import Strategy

#: seconds a case may take (a refusal takes milliseconds; a case that starts playing is a failure)
TIME_LIMIT = 20
#: bytes of address space a case may use (a plan that grows without bound hits it)
MEMORY_LIMIT = 3 * 1024**3

BIG = "99999999999999999999999"
RUN_OK = ["run", "mainland", "--players", "2", "--games", "2", "--jobs", "1", "--quiet"]


@dataclass(frozen=True)
class Case:
    """One bad command line; ``{sandbox}`` in an argument is replaced by the sandbox's path."""

    name: str
    args: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict, hash=False)


def _case(name: str, *args: str, **files: str) -> Case:
    return Case(name, tuple(args), {k.replace("__", "/"): v for k, v in files.items()})


def _run_cases() -> Iterator[Case]:
    base = ["run", "mainland", "--players", "2", "--games", "2", "--jobs", "1", "--quiet", "--out", "new"]
    for option, values in {
        "--players": ["0", "1", "5", "-3", "two", "2.5", BIG, ""],
        "--games": ["0", "-1", "x", BIG, "1e3"],
        "--jobs": ["0", "-2", "many", BIG],
        "--seed": ["-1", "abc", BIG],
        "--max-decisions": ["0", "-5", "x", BIG],
        "--chunk-size": ["0", "-1", "x", BIG],
        "--seats": ["rotated", "", "ROTATE!"],
        "--on-error": ["ignore", ""],
        "--backend": ["spark", ""],
    }.items():
        for value in values:
            args = list(base)
            if option in args:
                i = args.index(option)
                args[i + 1] = value
            else:
                args += [option, value]
            yield _case(f"run {option} {value!r}", *args)
    for spec in [
        "nosuch", "greedy,,random", "greedy,random,random", ",", "greedy:nosuch=1", "greedy:", ":",
        "ismcts:playout=nosuch", "ismcts:prior=nosuch", "ismcts:c=nan", "ismcts:c=inf", "ismcts:c=-1",
        "ismcts:iterations=0", "ismcts:iterations=-5", "ismcts:iterations=many", "ismcts:depth=-1",
        "random:seed=x", "os:system", "tests.nosuch:Class", "sim.cli:main", "tools.bad_input_sweep:KnarrOnly",
    ]:
        yield _case(f"run --strategies {spec!r}", *base, "--strategies", spec)
    for rule in ["nosuch=1", "noequals", "=1", "three_player_adjustments=maybe"]:
        yield _case(f"run --rule {rule!r}", *base, "--rule", rule)
    yield _case("run the same --rule twice", *base, "--rule", "deck_size=4", "--rule", "deck_size=5")
    yield _case("run unknown game", "run", "nosuchgame")
    yield _case("run unknown game with --help", "run", "nosuchgame", "--help")
    yield _case("run unknown option", *base, "--bogus")
    yield _case("run --resume --overwrite", *base, "--resume", "--overwrite")
    yield _case("run --gather with the local backend", *base, "--gather")
    yield _case("run --scheduler with --backend loky", *base, "--backend", "loky", "--scheduler", "tcp://x:1")
    yield _case("run --data missing file", *base, "--data", "nosuch.toml")
    yield _case("run --data a folder of nothing", *base, "--data", "keep")
    yield _case("run --data malformed", *base, "--data", "bad.toml", **{"bad.toml": "[[[ not toml"})
    yield _case("run --data not a Mainland file", *base, "--data", "other.toml", **{"other.toml": "x = 1\n"})
    yield _case("run --out is a file", *RUN_OK, "--out", "keep/precious.txt")
    yield _case("run --out a user folder", *RUN_OK, "--out", "keep")
    yield _case("run --out a user folder --overwrite", *RUN_OK, "--out", "keep", "--overwrite")
    yield _case("run --out the parent of a run --overwrite", *RUN_OK, "--out", ".", "--overwrite")
    yield _case("run --out a run holding a user file --overwrite", *RUN_OK, "--out", "run", "--overwrite")
    yield _case("run --out an existing run", *RUN_OK, "--out", "run")
    yield _case("run --out a study folder --overwrite", *RUN_OK, "--out", "study", "--overwrite")
    yield _case("run --resume of another run's options", "run", "mainland", "--players", "3", "--games", "2",
                "--jobs", "1", "--quiet", "--out", "run", "--resume")
    yield _case("run NUL in --out", *RUN_OK, "--out", "a\x00b")


def _report_cases() -> Iterator[Case]:
    yield _case("report a missing folder", "report", "nosuch")
    yield _case("report a user folder", "report", "keep")
    yield _case("report a file", "report", "keep/precious.txt")
    yield _case("report -o into a missing folder", "report", "run", "-o", "nosuch/dir/x.html")
    yield _case("report -o a user's file", "report", "run", "-o", "keep/precious.txt")
    yield _case("report -o a folder", "report", "run", "-o", "keep")
    yield _case("report a run with a part deleted", "report", "run", **{"run__turns__part-00000.parquet": ""})
    yield _case("report a run with an extra part", "report", "run",
                **{"run__games__part-00099.parquet": "PAR1junk"})
    yield _case("report a run whose manifest is {}", "report", "run", **{"run__manifest.json": "{}"})
    yield _case("report a run whose manifest is not JSON", "report", "run", **{"run__manifest.json": "{oops"})
    yield _case("report a run of an unregistered game", "report", "run",
                **{"run__manifest.json": "@game=nosuch"})
    yield _case("compare one folder", "compare", "run")
    yield _case("compare with a missing folder", "compare", "run", "nosuch")
    yield _case("compare with a user folder", "compare", "run", "keep")
    yield _case("compare -o into a missing folder", "compare", "run", "run", "-o", "nosuch/dir/x.html")
    yield _case("compare -o a user's file", "compare", "run", "run", "-o", "keep/precious.txt")
    yield _case("replay a missing folder", "replay", "nosuch", "--game", "0")
    yield _case("replay a game not in the run", "replay", "run", "--game", "999")
    yield _case("replay a negative game", "replay", "run", "--game", "-1")
    yield _case("replay a huge game", "replay", "run", "--game", BIG)
    yield _case("replay --html into a missing folder", "replay", "run", "--game", "0", "--html",
                "nosuch/x.html")
    yield _case("replay --html a user's file", "replay", "run", "--game", "0", "--html", "keep/precious.txt")
    yield _case("replay --view a seat not in the game", "replay", "run", "--game", "0", "--html", "v.html",
                "--view", "7")
    yield _case("replay --view nonsense", "replay", "run", "--game", "0", "--html", "v.html", "--view", "me")
    yield _case("replay --view without --html", "replay", "run", "--game", "0", "--view", "1")


STUDY_OK = """[study]
name = "mine"
title = "Mine"
description = "A small study."

[[runs]]
key = "a"
game = "mainland"
players = 2
games = 2
strategies = ["greedy", "random"]
"""


def _study_cases() -> Iterator[Case]:
    yield _case("study unknown name", "study", "nosuch")
    yield _case("study a name and --file", "study", "three-player", "--file", "s.toml",
                **{"s.toml": STUDY_OK})
    yield _case("study --all and a name", "study", "three-player", "--all")
    yield _case("study no name", "study", "--quiet")
    yield _case("study --games 0", "study", "--file", "s.toml", "--games", "0", **{"s.toml": STUDY_OK})
    yield _case("study --games huge", "study", "--file", "s.toml", "--games", BIG, "--out", "new",
                **{"s.toml": STUDY_OK})
    yield _case("study --jobs 0", "study", "--file", "s.toml", "--jobs", "0", **{"s.toml": STUDY_OK})
    yield _case("study --overwrite --resume", "study", "--file", "s.toml", "--overwrite", "--resume",
                **{"s.toml": STUDY_OK})
    yield _case("study --out a user folder --overwrite", "study", "--file", "s.toml", "--out", "keep",
                "--overwrite", **{"s.toml": STUDY_OK})
    yield _case("study --out a run folder", "study", "--file", "s.toml", "--out", "run",
                **{"s.toml": STUDY_OK})
    yield _case("study --file missing", "study", "--file", "nosuch.toml")
    yield _case("study --file not TOML", "study", "--file", "s.toml", **{"s.toml": "[[[["})
    yield _case("study --file empty", "study", "--file", "s.toml", **{"s.toml": ""})
    yield _case("study --file unknown game", "study", "--file", "s.toml",
                **{"s.toml": STUDY_OK.replace('"mainland"', '"nosuch"')})
    yield _case("study --file bad strategy", "study", "--file", "s.toml",
                **{"s.toml": STUDY_OK.replace('"greedy"', '"nosuch"')})
    yield _case("study --file negative games", "study", "--file", "s.toml",
                **{"s.toml": STUDY_OK.replace("games = 2", "games = -2")})
    yield _case("study --file a key twice", "study", "--file", "s.toml",
                **{"s.toml": STUDY_OK + STUDY_OK[STUDY_OK.index("[[runs]]"):]})
    yield from _until_decided_cases()


#: a study file that runs as it is (one two-player Mainland run, seats rotated), to refuse its options
STUDY_RUNS = STUDY_OK.replace('key = "a"\n', "")


def _until_decided_cases() -> Iterator[Case]:
    """``skald study --until-decided`` and the study file's keys for playing until decided."""
    good = {"s.toml": STUDY_RUNS}
    yield _case("study --until-decided --budget 0", "study", "--file", "s.toml", "--until-decided",
                "--budget", "0", **good)
    yield _case("study --until-decided --budget huge", "study", "--file", "s.toml", "--until-decided",
                "--budget", BIG, "--out", "new", **good)
    yield _case("study --until-decided --budget under two blocks", "study", "--file", "s.toml",
                "--until-decided", "--budget", "3", "--out", "new", **good)
    yield _case("study --until-decided --looks 0", "study", "--file", "s.toml", "--until-decided",
                "--looks", "0", **good)
    yield _case("study --until-decided --looks huge", "study", "--file", "s.toml", "--until-decided",
                "--looks", BIG, **good)
    yield _case("study --budget without --until-decided", "study", "--file", "s.toml", "--budget", "100",
                "--out", "new", **good)
    yield _case("study --looks without --until-decided", "study", "--file", "s.toml", "--looks", "3",
                "--out", "new", **good)
    head = "[study]\n"
    for key, value in (("until_decided", '"yes"'), ("budget", "0"), ("budget", "-5"), ("budget", "1.5"),
                       ("looks", "0"), ("looks", "11"), ("spending", '"nosuch"'), ("spending", "3")):
        text = STUDY_RUNS.replace(head, f"{head}{key} = {value}\n")
        yield _case(f"study --file {key} = {value}", "study", "--file", "s.toml", "--out", "new",
                    **{"s.toml": text})
    small = STUDY_RUNS.replace(head, f"{head}until_decided = true\nbudget = 3\n")
    yield _case("study --file budget under two blocks", "study", "--file", "s.toml", "--out", "new",
                **{"s.toml": small})


def _tune_cases() -> Iterator[Case]:
    for command in ("tune", "sensitivity"):
        yield _case(f"{command} missing file", command, "nosuch.toml")
        yield _case(f"{command} not TOML", command, "t.toml", **{"t.toml": "[[[["})
        yield _case(f"{command} empty file", command, "t.toml", **{"t.toml": ""})
        yield _case(f"{command} a folder", command, "keep")
        yield _case(f"{command} --budget 0", command, "@packaged", "--budget", "0")
        yield _case(f"{command} --budget huge", command, "@packaged", "--budget", BIG, "--out", "new")
        yield _case(f"{command} --jobs 0", command, "@packaged", "--jobs", "0")
        yield _case(f"{command} --seed huge", command, "@packaged", "--seed", BIG)
        yield _case(f"{command} --out a user folder", command, "@packaged", "--out", "keep")
        yield _case(f"{command} --out a run folder", command, "@packaged", "--out", "run")
        yield _case(f"{command} --resume with no folder", command, "@packaged", "--resume", "--out", "new")
    yield _case("sensitivity exclude naming no value", "sensitivity", "@exclude-nothing")


def _info_cases() -> Iterator[Case]:
    for command in ("strategies", "rules", "records", "bench"):
        yield _case(f"{command} unknown game", command, "nosuch")
        yield _case(f"{command} no game", command, "--bogus")
    yield _case("games with an argument", "games", "extra")
    yield _case("bench unknown strategy", "bench", "mainland", "--strategies", "nosuch", "--games", "1")
    yield _case("bench --jobs nonsense", "bench", "mainland", "--jobs", "a,b", "--games", "1")
    yield _case("bench --jobs 0", "bench", "mainland", "--jobs", "0", "--games", "1")
    yield _case("bench --players 9", "bench", "mainland", "--players", "9", "--games", "1")
    yield _case("bench --players huge", "bench", "mainland", "--players", BIG, "--games", "1")
    yield _case("bench --games 0", "bench", "mainland", "--games", "0")
    yield _case("bench --games huge", "bench", "mainland", "--games", BIG, "--jobs", "1")
    yield _case("bench --seconds 0", "bench", "mainland", "--seconds", "0")
    yield _case("bench --seconds nan", "bench", "mainland", "--seconds", "nan")
    yield _case("bench --seconds -1", "bench", "mainland", "--seconds", "-1")
    yield _case("unknown command", "nosuchcommand")
    yield _case("unknown top-level option", "--bogus")


def cases() -> list[Case]:
    """Every case of the sweep, in a fixed order."""
    return [*_run_cases(), *_report_cases(), *_study_cases(), *_tune_cases(), *_info_cases()]


class KnarrOnly(Strategy):
    """A strategy that declares it plays Knarr alone (offered to Mainland, it must be refused)."""

    name = "knarr-only"
    games = ("knarr",)

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return options[0]


# --- the sandbox ---------------------------------------------------------------------------------


def build_sandbox(root: Path) -> Path:
    """A sandbox with a finished run, a study-looking folder and a user's folder and files."""
    from contextlib import redirect_stderr, redirect_stdout
    from io import StringIO

    from sim.cli import main

    root.mkdir(parents=True, exist_ok=True)
    with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
        try:
            main(["run", "mainland", "--players", "2", "--games", "4", "--strategies", "greedy,random",
                  "--jobs", "1", "--quiet", "--chunk-size", "2", "--out", str(root / "run")])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError("the sweep's sandbox run failed") from None
    (root / "run" / "notes.txt").write_text("my notes on this run\n")
    (root / "keep").mkdir()
    (root / "keep" / "precious.txt").write_text("keep me\n")
    (root / "study").mkdir()
    shutil.copytree(root / "run", root / "study" / "a")
    (root / "study" / "notes.md").write_text("study notes\n")
    return root


def _packaged(command: str) -> str:
    here = Path(__file__).resolve().parent.parent / "analysis"
    return str(here / ("tunes" if command == "tune" else "sensitivity") /
               ("graenaland-three-player-layout.toml" if command == "tune" else "mainland.toml"))


def _exclude_nothing() -> str:
    text = Path(_packaged("sensitivity")).read_text()
    return text.replace('exclude = ["board.2", "board.3"]', 'exclude = ["board.2", "bord.3"]')


def _lay_files(sandbox: Path, case: Case) -> None:
    for name, text in case.files.items():
        path = sandbox / name
        if text == "":
            path.unlink(missing_ok=True)
        elif text.startswith("@game="):
            doc = json.loads(path.read_text())
            doc["config"]["game"] = text.removeprefix("@game=")
            path.write_text(json.dumps(doc))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


def _args(sandbox: Path, case: Case) -> list[str]:
    command = case.args[0] if case.args else ""
    args = []
    for arg in case.args:
        if arg == "@packaged":
            arg = _packaged(command)
        elif arg == "@exclude-nothing":
            (sandbox / "x.toml").write_text(_exclude_nothing())
            arg = "x.toml"
        args.append(arg)
    return args


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` by its relative path and content digest (folders as ``dir``)."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_dir():
            found[rel] = "dir"
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


# --- running one case ----------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one case did, and why it is not a clean refusal (``problems`` empty when it is)."""

    case: str
    code: int | None
    stderr: str
    problems: list[str]


def _child(sandbox: Path, args: list[str], out_path: Path, err_path: Path) -> None:
    """In the forked child: limits, output to files, then the command; never returns."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.alarm(TIME_LIMIT)
    os.chdir(sandbox)
    out_fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    # fresh streams on fds 1 and 2: a test runner's captured sys.stdout and sys.stderr write elsewhere
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - lives until os._exit
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
    os.environ.pop("SKALD_DEBUG", None)
    os.environ["COLUMNS"] = "100"
    code = 1
    try:
        from sim.cli import main

        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # an exception escaping main is a traceback the user would see
        import traceback

        traceback.print_exc()
        code = 99
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run_case(case: Case, template: Path) -> Outcome:
    """Run ``case`` in a fresh copy of the sandbox ``template`` and judge it."""
    with tempfile.TemporaryDirectory(prefix="skald-sweep-") as scratch:
        sandbox = Path(scratch) / "box"
        shutil.copytree(template, sandbox)
        _lay_files(sandbox, case)
        args = _args(sandbox, case)
        before = snapshot(sandbox)
        out_path, err_path = Path(scratch) / "stdout", Path(scratch) / "stderr"
        pid = os.fork()
        if pid == 0:
            _child(sandbox, args, out_path, err_path)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        stdout = out_path.read_text(errors="replace") if out_path.exists() else ""
        stderr = err_path.read_text(errors="replace") if err_path.exists() else ""
        after = snapshot(sandbox)
    return Outcome(case.name, code, stderr, judge(code, stdout, stderr, before, after))


def judge(code: int | None, stdout: str, stderr: str, before: dict[str, str],
          after: dict[str, str]) -> list[str]:
    """Why an outcome is not a clean refusal (nothing when it is)."""
    problems = []
    if code is not None and code < 0:
        signame = signal.Signals(-code).name
        problems.append(f"killed by {signame}" + (" (time limit)" if signame == "SIGALRM" else ""))
    elif code == 0:
        problems.append("accepted (exit 0)")
    elif code != 2:
        problems.append(f"exit {code}")
    if "Traceback" in stderr or "Traceback" in stdout:
        problems.append("traceback")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if code == 2 and (len(lines) != 1 or not lines[0].startswith("error: ")):
        problems.append(f"{len(lines)} lines on stderr, not one 'error:' line")
    if code == 2 and stdout.strip():
        problems.append("output on stdout")
    lost = sorted(k for k in before if k not in after or after[k] != before[k])
    made = sorted(k for k in after if k not in before)
    if lost:
        problems.append("changed or removed: " + ", ".join(lost[:4]))
    if made:
        problems.append("wrote: " + ", ".join(made[:4]))
    return problems


def kind(outcome: Outcome) -> str:
    """The outcome's worst problem, as one word for the counts."""
    text = " ".join(outcome.problems)
    for word, key in (("changed or removed", "lost data"), ("traceback", "traceback"),
                      ("killed", "unbounded"), ("accepted", "accepted"), ("wrote", "wrote"),
                      ("exit", "wrong exit code"), ("lines", "noisy"), ("stdout", "noisy")):
        if word in text:
            return key
    return "clean"


def sweep(selected: list[Case] | None = None) -> list[Outcome]:
    """Run every case (or ``selected``) against one sandbox built here."""
    with tempfile.TemporaryDirectory(prefix="skald-sweep-box-") as scratch:
        template = build_sandbox(Path(scratch) / "box")
        return [run_case(case, template) for case in (selected or cases())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the counts and failures as JSON")
    parser.add_argument("--match", default="", help="only the cases whose name holds this text")
    options = parser.parse_args(argv)
    chosen = [c for c in cases() if options.match in c.name]
    outcomes = sweep(chosen)
    counts = Counter(kind(o) for o in outcomes)
    failures = [o for o in outcomes if o.problems]
    if options.json:
        print(json.dumps({"cases": len(outcomes), "counts": dict(sorted(counts.items())),
                          "failures": [{"case": o.case, "problems": o.problems,
                                        "stderr": o.stderr[-300:]} for o in failures]}, indent=1))
    else:
        for o in failures:
            print(f"{o.case}: {'; '.join(o.problems)} | {o.stderr.strip().splitlines()[-1:] or ''}")
        print(f"{len(outcomes)} cases: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

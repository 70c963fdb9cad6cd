"""Every code block of the README, the documentation pages and the example game's guide (shown in the docs
as "Writing a game") runs as written, or is listed in ``SKIPPED`` with the reason.

* Python blocks run in this process in a fresh namespace; SQL blocks run in DuckDB; TOML blocks are read as
  what they show (a study file is parsed and planned, an entry-point table is part of ``pyproject.toml``).
* Shell blocks: each ``skald`` line runs in this process (``sim.cli.main``), in order, in a fresh folder,
  at small sizes: ``skald run`` plays at most ``RUN_GAMES`` games with ``--jobs 1``, ``skald study`` plays
  ``STUDY_GAMES`` games a run, ``skald sensitivity`` the smallest budget of the packaged Mainland screen.
  ``python -c`` lines run their code; other lines (installs, clusters, long searches) are in ``SKIPPED``.
* The folders the examples read (``results/mainland-scores``, ``results/mainland-demo``, ...) are made once
  per session, small, in a temporary folder (``made``), and copied into each block's folder: the Python
  and SQL blocks see ``results/`` as ``skald study --all --out results`` leaves it (the studies they use),
  plus the run folders they name.
* The example game (``examples/skald-tictactoe``) is registered in this process as installing it would.
* Identical blocks on several pages run once, and so do commands that begin another block's.  A block with
  no rule here fails the classification test, so a new block is run by default or given a reason.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import textwrap
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.example_kit import register_example

pytestmark = pytest.mark.slow


ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    ROOT / "examples" / "skald-tictactoe" / "README.md",  # shown in the docs as "Writing a game"
]

#: games a ``skald run`` line plays at most, and a ``skald study`` run (rounded up to whole seat blocks)
RUN_GAMES = 8
STUDY_GAMES = 4
#: the smallest budget the packaged Mainland screen takes (two Morris trajectories)
SENSITIVITY_BUDGET = 264

#: a command (its words joined by spaces, ``.venv/bin/`` dropped, comments cut) or the first line of any
#: other block, by its start: why it is not run
SKIPPED: dict[str, str] = {
    "python3 -m venv": "makes a virtual environment and installs Skald (the tests run in the installed one)",
    "pip install": "installs a package; the example game is registered in this process instead",
    "pytest -q -m": "the fast subset of this very suite, which runs every test of it",
    "skald study --all": "every packaged study at its default size: minutes on two cores "
    "(tests/analysis/test_analysis_study.py runs --all on small study files)",
    "skald run GAME": "a synopsis: GAME, N, DIR and the bracketed options are placeholders",
    "skald report RESULTS_DIR": "a synopsis; `skald report` runs in the blocks of docs/index.md and of "
    "'Writing your own game' (each report costs seconds)",
    "dask ": "starts a Dask scheduler or worker of a cluster on several machines",
    "ray start": "starts a Ray cluster on several machines",
    "skald run mainland --games 1000000 --backend": "a million games on the cluster started above "
    "(tests/sim/test_scale_dask.py and tests/sim/test_scale_ray.py run the backends locally)",
    "skald run mainland --strategies ismcts": "search in one seat: 40 CPU seconds even for the smallest "
    "block of 4 games (tests/strategies/test_search*.py play it at small budgets)",
    "skald run knarr --strategies ismcts": "search in one seat: 40 CPU seconds even for the smallest block "
    "of 4 games (tests/strategies/test_search*.py play it at small budgets)",
    "python -m tools.search_strength": "the search-strength match: 40 games with search in each of two "
    "games, tens of minutes",
    "skald tune analysis/tunes/graenaland-three-player-layout.toml": "the packaged tune: 60,000 games at its "
    "budget, and the smallest budget its 36 candidates take is still about 10 CPU seconds "
    "(tests/analysis/test_tune.py runs the command on small files)",
    "python -c from sim.testing import check_game;": "the same check_game('tictactoe') as the Python "
    "block of docs/writing-a-game.md, which runs",
    "OUT.partial/games/": "a folder listing, not a command",
    "games/part-00000.parquet": "a folder listing, not a command",
    "sim/ the game-agnostic core": "the source layout, not a command",
}

#: a synopsis line, by its whole text: the concrete command run in its place
SUBSTITUTED: dict[str, str] = {
    "skald replay RUN --game 0 --html game0.html [--view all|N]": (
        "skald replay results/mainland-2p-200g-seed42 --game 0 --html game0.html --view 1"
    ),
    "skald study mainland-scores [--games N] [--jobs N] [--out DIR] [--quiet] [--overwrite | --resume]": (
        "skald study mainland-scores --quiet"
    ),
}

#: pages whose blocks of one language another test runs
ELSEWHERE: dict[tuple[str, str], str] = {
    ("docs/writing-a-strategy.md", "python"): (
        "tests/project/test_docs.py runs every Python block of this page"
    ),
}

#: a command or first line (by its start) that fails because of a bug in Skald: the reason
XFAIL: dict[str, str] = {}

#: blocks the commands of every page find as files, by the block's first line: the file's name
FILES: dict[str, str] = {
    "# mypkg/cautious.py": "mypkg/cautious.py",  # the strategy module of docs/writing-a-strategy.md
    "[study]": "my-study.toml",  # the study file the "Studies" page runs with --file my-study.toml
}

#: what ``made`` plays: the studies the examples read (by name), and run folders they name
STUDIES = ("mainland-scores", "start-positions", "three-player", "knarr")
RUNS: dict[str, dict[str, Any]] = {
    # `skald run mainland --players 4 ... --out results/mainland-demo` (docs/running.md; the records page)
    "mainland-demo": {"players": 4, "strategies": ["greedy", "builder", "raider", "random"], "games": 8},
    # where `skald run mainland --players 2` writes (20 games here, not the default 200)
    "mainland-2p-200g-seed42": {"players": 2, "strategies": ["greedy", "random"], "games": 20},
}

SHELL_WORDS = {"skald", "python", "python3", "pip", "pytest", "dask", "ray"}
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([\w+-]*)")
ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=")


@dataclass(frozen=True)
class Block:
    """One code block: where it is (page relative to the repository, first line of its text), its
    language (empty for an indented or unlabelled block) and its text."""

    page: str
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def first(self) -> str:
        return " ".join(self.text.strip().splitlines()[0].split())


def code_blocks(path: Path) -> list[Block]:
    """The fenced and indented code blocks of a Markdown page, in order."""
    page = str(path.relative_to(ROOT))
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i, after_blank = 0, True
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence:
            indent, mark, lang = len(fence.group(1)), fence.group(2), fence.group(3).lower()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith(mark):
                end += 1
            body = [line[min(indent, len(line) - len(line.lstrip(" "))) :] for line in lines[i + 1 : end]]
            found.append(Block(page, i + 2, lang, "\n".join(body) + "\n"))
            i, after_blank = end + 1, False
            continue
        if after_blank and lines[i].startswith("    ") and lines[i].strip():
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            indented = textwrap.dedent("\n".join(lines[i:end])).strip("\n")
            found.append(Block(page, i + 1, "", indented + "\n"))
            i, after_blank = end, True
            continue
        after_blank = not lines[i].strip()
        i += 1
    return found


def is_shell(block: Block) -> bool:
    """Whether a block without a language is command lines (else a listing: a folder or the layout)."""
    words = [w for w in block.first.split() if not ENV.match(w)]
    shell = block.lang in ("", "sh", "bash", "shell", "console")
    return shell and bool(words) and words[0].removeprefix(".venv/bin/") in SHELL_WORDS


def command_lines(text: str) -> list[str]:
    """A shell block's commands: continued lines joined (``\\`` at the end, or a synopsis line that goes
    on with ``[...]``), comments cut, ``.venv/bin/`` dropped, words joined by single spaces."""
    commands: list[str] = []
    for raw in text.replace("\\\n", " ").splitlines():
        words = [w.removeprefix(".venv/bin/") for w in shlex.split(raw, comments=True)]
        if not words:
            continue
        if words[0].startswith("[") and commands:
            commands[-1] += " " + " ".join(words)
        else:
            commands.append(" ".join(words))
    return commands


def rule(key: str, table: dict[str, str]) -> str | None:
    """The entry of ``table`` whose key starts ``key``."""
    return next((table[k] for k in table if key.startswith(k)), None)


def unique(kind: Callable[[Block], bool]) -> list[Block]:
    """The blocks of every page that ``kind`` selects, each text once (its first place)."""
    seen: dict[tuple[str, str], Block] = {}
    for path in PAGES:
        for block in code_blocks(path):
            if kind(block):
                seen.setdefault((block.lang, block.text), block)
    return list(seen.values())


def params(blocks: list[Block], key: Callable[[Block], str]) -> list[Any]:
    """pytest parameters, one per block, named by place; a block in ``XFAIL`` is expected to fail."""
    out = []
    for block in blocks:
        reason = rule(key(block), XFAIL)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(block, id=block.where, marks=marks))
    return out


def _python(block: Block) -> bool:
    return block.lang in ("python", "py") and (block.page, "python") not in ELSEWHERE


PYTHON = unique(_python)
SQL = unique(lambda b: b.lang == "sql")
TOML = unique(lambda b: b.lang == "toml")


def shell_blocks() -> list[Block]:
    """The command blocks, each once: a block whose commands begin another block's runs as part of it."""
    blocks = unique(is_shell)
    lines = {block: command_lines(block.text) for block in blocks}

    def begins(short: list[str], long: list[str]) -> bool:
        return len(short) < len(long) and long[: len(short)] == short

    return [b for b in blocks if not any(begins(lines[b], lines[other]) for other in blocks)]


SHELL = shell_blocks()


# --------------------------------------------------------------------------- the folders the examples read


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The studies the examples read (``STUDIES``, a few games a run) and the run folders they name
    (``RUNS``), played once per session."""
    from analysis.study.study import get, run_study
    from sim.runner import RunConfig, run

    folder = tmp_path_factory.mktemp("made")
    for name in STUDIES:
        run_study(get(name), games=6, jobs=1, out=folder / name, progress=False, report=False)
    for name, options in RUNS.items():
        run(RunConfig(game="mainland", jobs=1, seed=42, progress=False, out=folder / name, **options))
    return folder


def world(made: Path, folder: Path, text: str, studies: bool) -> None:
    """``folder/results``: the studies (when ``studies``) and the run folders ``text`` names."""
    results = folder / "results"
    results.mkdir()
    for name in STUDIES if studies else ():
        shutil.copytree(made / name, results / name)
    for name in RUNS:
        if f"results/{name}" in text:
            shutil.copytree(made / name, results / name)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh working folder, the current one, on ``sys.path``, with the example game registered."""
    register_example(monkeypatch)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path


# --------------------------------------------------------------------------- which block is what


def test_every_block_is_run_or_skipped_with_a_reason() -> None:
    """Each block is Python, SQL, TOML or commands, or is named in ``SKIPPED``; every rule names a block."""
    used: set[str] = set()
    unknown = []
    kinds: dict[str, int] = {}
    for path in PAGES:
        for block in code_blocks(path):
            kinds[block.lang or "indented or plain"] = kinds.get(block.lang or "indented or plain", 0) + 1
            if (block.page, block.lang) in ELSEWHERE or block.lang in ("python", "py", "sql", "toml"):
                continue
            if is_shell(block):
                for command in command_lines(block.text):
                    used |= {k for k in (*SKIPPED, *XFAIL) if command.startswith(k)}
                    used |= {command} & SUBSTITUTED.keys()
                continue
            hits = {k for k in SKIPPED if block.first.startswith(k)}
            used |= hits
            if not hits:
                unknown.append(f"{block.where} ({block.lang or 'no language'}): {block.first}")
    assert not unknown, f"blocks neither run nor skipped (add a rule or a SKIPPED reason): {unknown}"
    for path in PAGES:
        for block in code_blocks(path):
            used |= {k for k in (*SKIPPED, *FILES) if block.first.startswith(k)}
    stale = set(SKIPPED) | set(SUBSTITUTED) | set(FILES) | set(XFAIL)
    assert not stale - used, f"rules that match no block: {sorted(stale - used)}"
    assert len(PYTHON) >= 8 and SQL and len(TOML) >= 2 and len(SHELL) >= 10, (kinds, len(SHELL))


# --------------------------------------------------------------------------- Python, SQL and TOML blocks


@pytest.mark.parametrize("block", params(PYTHON, lambda b: b.first))
def test_python_block_runs(block: Block, made: Path, here: Path) -> None:
    world(made, here, block.text, studies=True)
    code = compile(block.text, block.where, "exec")
    exec(code, {"__name__": "doc_example"})


@pytest.mark.parametrize("block", params(SQL, lambda b: b.first))
def test_sql_block_runs_in_duckdb(block: Block, made: Path, here: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    from analysis.study.study import get

    world(made, here, block.text, studies=True)
    result = duckdb.connect().sql(block.text)
    rows = result.fetchall()
    assert rows, f"{block.where}: no rows"
    if "game" in result.columns:  # every game the studies played is read
        games = {row[result.columns.index("game")] for row in rows}
        assert games == {g for s in STUDIES for g in get(s).games_needed}, games


@pytest.mark.parametrize("block", params(TOML, lambda b: b.first))
def test_toml_block_is_what_it_shows(block: Block) -> None:
    doc = tomllib.loads(block.text)
    if "study" in doc:  # a study file: it parses, plans its runs, and names only the game's rule switches
        from analysis.study.study import parse
        from sim.games import get_game

        planned = parse(block.text, source=block.where).plan()
        assert planned
        for run in planned:
            switches = {s.name for s in get_game(run.game).rule_switches}
            assert set(run.rules) <= switches, (run.name, run.rules)
    elif "project" in doc:  # a part of pyproject.toml, as it is there
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

        def within(part: Any, whole: Any) -> bool:
            if isinstance(part, dict):
                return isinstance(whole, dict) and all(k in whole and within(part[k], whole[k]) for k in part)
            return bool(part == whole)

        assert within(doc, project), f"{block.where} is not in pyproject.toml"
    else:
        pytest.fail(f"{block.where}: a TOML block with no check here (add one)")


# --------------------------------------------------------------------------- command lines


def small(words: list[str]) -> list[str]:
    """A ``skald`` command at the sizes of these tests (see the module's docstring)."""
    out = list(words)

    def option(name: str, value: Callable[[str | None], object]) -> None:
        if name in out:
            at = out.index(name) + 1
            out[at] = str(value(out[at]))
        else:
            out.extend([name, str(value(None))])

    command = out[1] if len(out) > 1 else ""
    if command == "run":
        option("--games", lambda v: min(int(v), RUN_GAMES) if v else RUN_GAMES)
    elif command == "study" and "--list" not in out:
        option("--games", lambda v: STUDY_GAMES)
    elif command == "sensitivity":
        option("--budget", lambda v: SENSITIVITY_BUDGET)
    if command in ("run", "study", "sensitivity") and "--list" not in out:
        option("--jobs", lambda v: 1)
    return out


def run_command(command: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> str:
    """Run one command line here; its output.  Fails with the output on a nonzero exit."""
    from sim.cli import main

    words = shlex.split(command)
    while words and ENV.match(words[0]):
        name, value = words.pop(0).split("=", 1)
        monkeypatch.setenv(name, value)
        if name == "PYTHONPATH":
            for entry in reversed(value.split(os.pathsep)):
                monkeypatch.syspath_prepend(str((folder / entry).resolve()))
    if words[0] == "skald":
        words = small(words)
        try:
            main(words[1:])
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        out, err = capsys.readouterr()
        assert code == 0, f"`{' '.join(words)}` exited {code}:\n{out[-2000:]}\n{err[-2000:]}"
        return out
    if words[0] == "python" and words[1] == "-c":
        exec(compile(words[2], command, "exec"), {"__name__": "__main__"})
        return capsys.readouterr().out
    pytest.fail(f"no way to run `{command}` here: add it to SKIPPED with a reason, or teach run_command")


@pytest.mark.parametrize("block", params(SHELL, lambda b: b.first))
def test_command_block_runs(
    block: Block, made: Path, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    commands = [SUBSTITUTED.get(c, c) for c in command_lines(block.text)]
    skipped = [f"`{c}`: {rule(c, SKIPPED)}" for c in commands if rule(c, SKIPPED)]
    todo = [c for c in commands if not rule(c, SKIPPED)]
    if not todo:
        pytest.skip("; ".join(skipped))
    for name in ("analysis", "docs", "examples"):  # paths the commands give relative to the repository
        (here / name).symlink_to(ROOT / name, target_is_directory=True)
    for path in PAGES:  # the files the pages show, where the commands look for them
        for other in code_blocks(path):
            file = next((FILES[k] for k in FILES if other.first.startswith(k)), None)
            if file:
                (here / file).parent.mkdir(parents=True, exist_ok=True)
                (here / file).write_text(other.text, encoding="utf-8")
    world(made, here, "\n".join(todo), studies=False)
    for command in todo:
        run_command(command, here, monkeypatch, capsys)

"""Bad input, fuzzed: malformed command lines, study files and data files.

Every malformed input must give exit code 2, one ``error:`` line, no traceback and no output.  Data
files are also mutated leaf by leaf (a value of the wrong type, a key removed): the loaders are strict
(tests/sim/test_data_validation.py), but a few of those are still valid files (a count of 0, another
reference text), so there a run may also succeed; it must never crash or leave half an output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import string
import tempfile
import tomllib
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.games import get_game
from sim.games.greenland.data import KINDS as GREENLAND_KINDS
from sim.specs import builtin

pytestmark = pytest.mark.slow


#: examples per fuzz test (SKALD_FUZZ_EXAMPLES=500 for a longer search)
EXAMPLES = int(os.environ.get("SKALD_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RUN = [
    "run",
    "mainland",
    "--players",
    "2",
    "--games",
    "2",
    "--strategies",
    "random",
    "--jobs",
    "1",
    "--quiet",
]
INT_OPTIONS = ("--players", "--games", "--jobs", "--seed", "--max-decisions", "--chunk-size")
KNOWN_OPTIONS = {
    *INT_OPTIONS,
    "--strategies",
    "--seats",
    "--out",
    "--overwrite",
    "--rule",
    "--data",
    "--quiet",
    "--resume",
    "--on-error",
    "--backend",
    "--scheduler",
    "--gather",
    "--help",
}
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


def invoke(args: list[str]) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exc:
            return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def assert_clean_refusal(code: int, out: str, err: str, folder: Path) -> None:
    assert code == 2, (code, err[-500:])
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    assert not any(folder.iterdir()), sorted(p.name for p in folder.iterdir())


def not_an_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return True
    return False


# --------------------------------------------------------------------------- command lines


def _set(args: list[str], option: str, value: str) -> list[str]:
    args = list(args)
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    return args


bad_int = st.one_of(
    st.tuples(st.sampled_from(INT_OPTIONS), TEXT.filter(not_an_int)),
    st.tuples(st.just("--players"), st.integers().filter(lambda n: not 2 <= n <= 4).map(str)),
    st.tuples(st.just("--games"), st.integers(max_value=0).map(str)),
    st.tuples(st.just("--jobs"), st.just("0")),
    st.tuples(st.just("--seed"), st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63)).map(str)),
    st.tuples(st.sampled_from(["--max-decisions", "--chunk-size"]), st.integers(max_value=0).map(str)),
)
names = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=12)
bad_strategies = (
    st.lists(
        st.text(alphabet=string.ascii_letters + string.digits + ":=_- ", max_size=15), min_size=1, max_size=4
    )
    .filter(
        lambda items: (
            any(item.split(":")[0].strip() not in builtin() for item in items if item.strip())
            or len([i for i in items if i.strip()]) not in (1, 2)
        )
    )
    .map(",".join)
)
switches = {s.name for s in get_game("mainland").rule_switches}
bad_rule = st.one_of(
    names.filter(lambda n: n not in switches).map(lambda n: f"{n}=1"),
    TEXT.filter(lambda t: "=" not in t or not t.partition("=")[0].strip()),
    st.tuples(st.sampled_from(sorted(switches)), TEXT)
    .filter(
        lambda nv: (
            nv[1].strip().lower()
            not in {"true", "1", "yes", "on", "y", "t", "false", "0", "no", "off", "n", "f"}
        )
    )
    .map(lambda nv: f"{nv[0]}={nv[1]}"),
)


@st.composite
def bad_run_args(draw: Callable[..., Any]) -> list[str]:
    kind = draw(
        st.sampled_from(["int", "strategies", "seats", "rule", "game", "option", "data", "enum", "pair"])
    )
    args = list(RUN)
    if kind == "int":
        option, value = draw(bad_int)
        return _set(args, option, value)
    if kind == "strategies":
        return _set(args, "--strategies", draw(bad_strategies))
    if kind == "seats":
        return _set(
            args, "--seats", draw(TEXT.filter(lambda t: t not in ("rotate", "random", "exhaustive", "fixed")))
        )
    if kind == "rule":
        return args + ["--rule", draw(bad_rule)]
    if kind == "game":
        args[1] = draw(TEXT.filter(lambda t: t not in ("mainland", "graenaland", "knarr", "greenland")))
        return args
    if kind == "option":
        return args + ["--" + draw(names.filter(lambda n: "--" + n not in KNOWN_OPTIONS))]
    if kind == "data":
        return args + ["--data", "/no/such/dir/" + draw(names)]
    if kind == "enum":
        option = draw(st.sampled_from(["--on-error", "--backend"]))
        allowed = {"--on-error": ("continue", "stop"), "--backend": ("loky", "dask", "ray")}[option]
        return args + [option, draw(TEXT.filter(lambda t: t not in allowed))]
    return args + ["--scheduler", draw(names)]  # a scheduler without --backend dask ... with loky:
    # (kept last: "pair" adds --backend loky below)


@FUZZ
@given(args=bad_run_args())
def test_malformed_run_arguments(args: list[str]) -> None:
    if "--scheduler" in args:
        args = args + ["--backend", "loky"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        code, out, err = invoke(args + ["--out", str(folder / "out")])
        assert_clean_refusal(code, out, err, folder)


@FUZZ
@given(game=st.one_of(st.integers().map(str), TEXT), extra=st.sampled_from([[], ["--bogus"]]))
def test_malformed_replay_arguments(game: str, extra: list[str], tmp_path_factory) -> None:
    folder = tmp_path_factory.mktemp("replay")
    code, out, err = invoke(["replay", str(folder / "missing"), "--game", game, *extra])
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err


def test_nul_characters_in_arguments_are_refused(tmp_path: Path) -> None:
    code, out, err = invoke([*RUN, "--out", str(tmp_path / "o\x00ut")])
    assert_clean_refusal(code, out, err, tmp_path)


# --------------------------------------------------------------------------- study files


BASE_STUDY: dict[str, Any] = {
    "study": {"name": "fuzzed", "games": 2, "seed": 1, "jobs": 1},
    "runs": [{"game": "mainland", "players": [2], "strategies": ["random", "greedy"]}],
}
missing = object()
not_str = st.one_of(st.integers(), st.booleans(), st.lists(st.integers(), max_size=2))
STUDY_MUTATIONS: list[tuple[tuple[Any, ...], Any]] = [
    (("study",), st.one_of(st.just(missing), not_str, TEXT)),
    (
        ("study", "name"),
        st.one_of(
            st.just(missing),
            not_str,
            st.just(""),
            TEXT.filter(lambda t: not re.match(r"^[A-Za-z0-9][A-Za-z0-9_-]*$", t.strip())),
        ),
    ),
    (
        ("study", "games"),
        st.one_of(st.integers(max_value=0), TEXT, st.booleans(), st.floats(allow_nan=False)),
    ),
    (("study", "seed"), st.one_of(st.integers(max_value=-1), TEXT, st.floats(allow_nan=False))),
    (
        ("study", "seats"),
        st.one_of(
            TEXT.filter(lambda t: t.strip() not in ("rotate", "random", "exhaustive", "fixed")), st.integers()
        ),
    ),
    (("study", "jobs"), st.one_of(st.just(0), TEXT, st.floats(allow_nan=False))),
    (("study", "colour"), TEXT),
    (("runs",), st.one_of(st.just(missing), st.just([]), TEXT, st.integers(), st.just({"game": "mainland"}))),
    (
        ("runs", 0, "game"),
        st.one_of(
            st.just(missing),
            st.integers(),
            TEXT.filter(lambda t: t.strip() not in ("mainland", "graenaland", "knarr", "greenland")),
        ),
    ),
    (
        ("runs", 0, "players"),
        st.one_of(
            st.just(missing),
            st.just([]),
            TEXT,
            st.booleans(),
            st.integers().filter(lambda n: not 2 <= n <= 4),
            st.lists(st.integers().filter(lambda n: not 2 <= n <= 4), min_size=1, max_size=3),
        ),
    ),
    (
        ("runs", 0, "strategies"),
        st.one_of(
            st.just(missing),
            st.just([]),
            TEXT,
            st.lists(st.integers(), min_size=1, max_size=2),
            st.lists(names.filter(lambda n: n not in builtin()), min_size=1, max_size=2),
        ),
    ),
    (("runs", 0, "mixes"), st.just([["random"]])),  # both strategies and mixes
    (
        ("runs", 0, "rules"),
        st.one_of(
            TEXT,
            st.integers(),
            st.dictionaries(names.filter(lambda n: n not in switches), st.integers(), min_size=1, max_size=2),
            st.just({"castle_needs_overlap": "maybe"}),
            st.just({"castle_needs_overlap": [1]}),
        ),
    ),
    (
        ("runs", 0, "variants"),
        st.one_of(
            TEXT,
            st.lists(st.integers(), min_size=1, max_size=2),
            st.just([{"castle_needs_overlap": "maybe"}]),
        ),
    ),
    (("runs", 0, "max_decisions"), st.one_of(st.integers(max_value=0), TEXT)),
    (("runs", 0, "data"), st.one_of(st.just("no-such-data.toml"), st.just(""), st.integers())),
    (
        ("runs", 0, "seats"),
        TEXT.filter(lambda t: t.strip() not in ("rotate", "random", "exhaustive", "fixed")),
    ),
    (("runs", 0, "games"), st.integers(max_value=0)),
    (("runs", 0, "speed"), st.integers()),
    (("extra",), st.dictionaries(names, st.integers(), max_size=2)),
]


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if not isinstance(value, float) or value == value else "nan"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def to_toml(doc: dict[str, Any]) -> str:
    """TOML text for the study documents (top-level keys holding tables, lists of tables or values)."""
    lines: list[str] = []
    for key, value in doc.items():
        if key == "runs" and isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for entry in value:
                lines.append("[[runs]]")
                lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in entry.items()]
        elif isinstance(value, dict):
            lines.append(f"[{json.dumps(key)}]")
            lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()]
    head = [
        f"{json.dumps(k)} = {toml_value(v)}"
        for k, v in doc.items()
        if not isinstance(v, dict)
        and not (k == "runs" and isinstance(v, list) and v and all(isinstance(x, dict) for x in v))
    ]
    return "\n".join(head + lines) + "\n"


@st.composite
def bad_study(draw: Callable[..., Any]) -> str:
    if draw(st.integers(0, 4)) == 0:
        return draw(st.text(max_size=200))
    doc = json.loads(json.dumps(BASE_STUDY))
    path, values = draw(st.sampled_from(STUDY_MUTATIONS))
    value = draw(values)
    target: Any = doc
    for step in path[:-1]:
        target = target[step]
    if value is missing:
        target.pop(path[-1], None)
    else:
        target[path[-1]] = value
    return to_toml(doc)


def test_the_study_base_is_valid() -> None:
    from analysis.study.study import parse

    assert parse(to_toml(BASE_STUDY)).plan()[0].players == 2


@FUZZ
@given(text=bad_study())
def test_malformed_study_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        study = folder / "study.toml"
        study.write_text(text, encoding="utf-8")
        out = folder / "results"
        code, stdout, err = invoke(["study", "--file", str(study), "--out", str(out), "--quiet"])
        study.unlink()
        assert_clean_refusal(code, stdout, err, folder)


# --------------------------------------------------------------------------- data files


DATA = {
    "mainland": (get_game("mainland"), 2, "sim/games/mainland/data/mainland.toml"),
    "graenaland": (get_game("graenaland"), 3, "sim/games/graenaland/data/graenaland.toml"),
    "knarr": (get_game("knarr"), 2, "sim/games/knarr/data/knarr.toml"),
    # a folder of one file per kind; the single-file form is the eight files merged (``data_doc``)
    "greenland": (get_game("greenland"), 2, "sim/games/greenland/data"),
}
#: game -> the kind files of a game whose packaged data is a folder
FOLDER_KINDS = {"greenland": GREENLAND_KINDS}


def merged_kinds(folder: Path, kinds: tuple[str, ...]) -> dict[str, Any]:
    """One document holding every kind file of ``folder`` (their top-level keys must be distinct)."""
    doc: dict[str, Any] = {}
    for kind in kinds:
        part = tomllib.loads((folder / f"{kind}.toml").read_text(encoding="utf-8"))
        clash = sorted(set(part) & set(doc))
        assert not clash, f"{kind}.toml repeats the top-level keys {clash}"
        doc.update(part)
    return doc


def data_doc(game: str) -> dict[str, Any]:
    """The game's packaged data as one document (a folder's kind files merged)."""
    path = Path(DATA[game][2])
    if game in FOLDER_KINDS:
        return merged_kinds(path, FOLDER_KINDS[game])
    return tomllib.loads(path.read_text(encoding="utf-8"))


def data_bytes(game: str) -> bytes:
    """The packaged data as the bytes of one file (a folder's kinds merged, written by ``dump_data``)."""
    if game in FOLDER_KINDS:
        return dump_data(data_doc(game)).encode("utf-8")
    return Path(DATA[game][2]).read_bytes()


def leaves(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in leaves(v, (*path, k))]
    if isinstance(doc, list) and doc and all(isinstance(v, dict) for v in doc):
        return [p for i, v in enumerate(doc) for p in leaves(v, (*path, i))]
    return [path]


def dump_data(doc: dict[str, Any]) -> str:
    """TOML for a data document: nested tables as dotted headers, lists of tables as arrays of tables."""
    lines: list[str] = []

    def emit(table: dict[str, Any], prefix: tuple[str, ...]) -> None:
        simple = {
            k: v
            for k, v in table.items()
            if not isinstance(v, dict)
            and not (isinstance(v, list) and v and all(isinstance(x, dict) for x in v))
        }
        if prefix and simple:
            lines.append("[" + ".".join(json.dumps(str(p)) for p in prefix) + "]")
        lines.extend(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in simple.items())
        for k, v in table.items():
            if isinstance(v, dict):
                emit(v, (*prefix, k))
            elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                for item in v:
                    lines.append("[[" + ".".join(json.dumps(str(p)) for p in (*prefix, k)) + "]]")
                    lines.extend(f"{json.dumps(str(a))} = {toml_value(b)}" for a, b in item.items())

    emit(doc, ())
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", sorted(DATA))
def test_the_data_writer_round_trips(game: str, tmp_path: Path) -> None:
    obj, _, _ = DATA[game]
    doc = data_doc(game)
    assert tomllib.loads(dump_data(doc)) == doc
    (tmp_path / "d.toml").write_text(dump_data(doc))
    obj.load_data(str(tmp_path / "d.toml"))


def run_with_data(game: str, text: str | bytes) -> tuple[int, str, str, Path, tempfile.TemporaryDirectory]:
    _, players, _ = DATA[game]
    tmp = tempfile.TemporaryDirectory()
    folder = Path(tmp.name)
    data = folder / "data.toml"
    data.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    out = folder / "runs" / "out"
    args = [
        "run",
        game,
        "--players",
        str(players),
        "--games",
        "1",
        "--strategies",
        "random",
        "--jobs",
        "1",
        "--quiet",
        "--max-decisions",
        "300",
        "--data",
        str(data),
        "--out",
        str(out),
    ]
    code, stdout, err = invoke(args)
    data.unlink()
    return code, stdout, err, folder, tmp


def required_sections(game: str) -> list[str]:
    """The top-level sections the game's loader cannot do without (found by leaving each one out)."""
    obj = DATA[game][0]
    doc = data_doc(game)
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        for section in doc:
            trial = Path(tmp) / f"{section}.toml"
            trial.write_text(dump_data({k: v for k, v in doc.items() if k != section}))
            try:
                obj.load_data(str(trial))
            except Exception:
                found.append(section)
    return found


@st.composite
def broken_data(draw: Callable[..., Any], game: str, required: list[str]) -> bytes:
    """Files that cannot be valid: not TOML, not UTF-8, or a required section gone or of the wrong kind."""
    doc = data_doc(game)
    kind = draw(st.sampled_from(["bytes", "truncated", "section", "section-type"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "truncated":
        text = data_bytes(game)
        cut = draw(st.integers(0, len(text) - 1))
        keep = text[:cut]
        lost = text[cut:].decode("utf-8", "replace")
        heads = ("\n[{}", "\n[[{}", '\n["{}"', '\n[["{}"')  # bare (packaged) or quoted (dump_data) headers
        assume(any(head.format(section) in lost for head in heads for section in required))
        return keep
    section = draw(st.sampled_from(required))
    if kind == "section":
        del doc[section]
    else:
        doc[section] = draw(st.one_of(st.integers(), TEXT, st.lists(st.integers(), max_size=3)))
    return dump_data(doc).encode("utf-8")


@pytest.mark.parametrize("game", sorted(DATA))
def test_malformed_data_files(game: str) -> None:
    required = required_sections(game)
    assert len(required) >= 3, required

    @FUZZ
    @given(blob=broken_data(game, required))
    def check(blob: bytes) -> None:
        code, out, err, folder, tmp = run_with_data(game, blob)
        with tmp:
            assert_clean_refusal(code, out, err, folder)

    check()


WRONG = st.one_of(
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=6),
    st.dictionaries(names, st.integers(), max_size=2),
    st.lists(st.text(alphabet=string.ascii_letters, max_size=3), max_size=3),
    st.booleans(),
    st.integers(min_value=-3, max_value=0),
)


@pytest.mark.parametrize("game", sorted(DATA))
def test_data_values_of_the_wrong_kind_never_crash(game: str) -> None:
    doc = data_doc(game)
    paths = leaves(doc)

    @FUZZ
    @given(path=st.sampled_from(paths), value=st.one_of(st.just(missing), WRONG))
    def check(path: tuple[Any, ...], value: Any) -> None:
        changed = json.loads(json.dumps(doc))
        target = changed
        for step in path[:-1]:
            target = target[step]
        assume(value is missing or value != target[path[-1]])
        if value is missing:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        code, out, err, folder, tmp = run_with_data(game, dump_data(changed))
        event("refused" if code == 2 else "accepted")
        with tmp:
            assert "Traceback" not in out + err
            if code == 2:
                assert_clean_refusal(code, out, err, folder)
            else:  # a file the loader accepts: the run completes or is refused, never half-written
                assert code == 0, err
                assert (folder / "runs" / "out" / "manifest.json").is_file()
                assert not (folder / "runs" / "out.partial").exists()

    check()


# --------------------------------------------------------------------------- data folders (one file per kind)


def run_with_folder(
    game: str, files: dict[str, bytes]
) -> tuple[int, str, str, Path, tempfile.TemporaryDirectory]:
    """``skald run GAME --data FOLDER`` on a folder holding ``files`` (removed before this returns)."""
    _, players, _ = DATA[game]
    tmp = tempfile.TemporaryDirectory()
    folder = Path(tmp.name)
    data = folder / "data"
    data.mkdir()
    for name, blob in files.items():
        (data / name).write_bytes(blob)
    args = ["run", game, "--players", str(players), "--games", "1", "--strategies", "random", "--jobs", "1"]
    args += ["--quiet", "--max-decisions", "300", "--data", str(data), "--out", str(folder / "runs" / "out")]
    code, stdout, err = invoke(args)
    shutil.rmtree(data)
    return code, stdout, err, folder, tmp


@st.composite
def broken_kind_file(draw: Callable[..., Any], game: str) -> tuple[str, bytes | None]:
    """(kind, its file's bytes or None for a missing file): one kind file that cannot be valid."""
    kind = draw(st.sampled_from(FOLDER_KINDS[game]))
    path = Path(DATA[game][2]) / f"{kind}.toml"
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    how = draw(st.sampled_from(["missing", "bytes", "truncated", "section", "section-type", "unknown"]))
    if how == "missing":
        return kind, None
    if how == "bytes":
        return kind, draw(st.binary(max_size=300))
    if how == "truncated":  # cut before the first header of the file's last top-level key: that key is lost
        text = path.read_bytes()
        last = max(
            min(i for i in (text.find(f"\n[{key}".encode()), text.find(f"\n[[{key}".encode())) if i >= 0)
            for key in doc
        )
        return kind, text[: draw(st.integers(0, last))]
    section = draw(st.sampled_from(sorted(doc)))
    if how == "section":
        del doc[section]
    elif how == "section-type":
        doc[section] = draw(st.one_of(st.integers(), TEXT, st.lists(st.integers(), max_size=3)))
    else:
        doc["bogus_" + draw(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=5))] = 1
    return kind, dump_data(doc).encode("utf-8")


@pytest.mark.parametrize("game", sorted(FOLDER_KINDS))
def test_malformed_or_missing_kind_files_in_a_data_folder(game: str) -> None:
    """--data FOLDER with one kind file broken or missing: exit 2, one line naming that file, no output."""
    packaged = {
        f"{kind}.toml": (Path(DATA[game][2]) / f"{kind}.toml").read_bytes() for kind in FOLDER_KINDS[game]
    }

    @FUZZ
    @given(case=broken_kind_file(game))
    def check(case: tuple[str, bytes | None]) -> None:
        kind, blob = case
        files = dict(packaged)
        if blob is None:
            del files[f"{kind}.toml"]
        else:
            files[f"{kind}.toml"] = blob
        code, out, err, folder, tmp = run_with_folder(game, files)
        with tmp:
            assert_clean_refusal(code, out, err, folder)
        assert f"{kind}.toml" in err, err
        if blob is None:
            assert f"lacks {kind}.toml" in err, err
        else:
            others = [name for name in files if name != f"{kind}.toml" and name in err]
            assert not others, err

    check()

"""Compiled engines: a package's modules built by mypyc from the very Python source the pure-Python engine
runs (one rules text), used where they are built and current, else the source runs.

A package with a compiled engine declares, in its ``__init__.py``, the modules the build compiles and
chooses its engine before any of them is imported::

    from sim.engines import select_engine

    COMPILED_MODULES = ("rules", "view")
    ENGINE = select_engine(__name__, COMPILED_MODULES)

The build (``setup.py``) finds these declarations in the source (``declared``, reading the tuple without
importing), compiles every declared module as one group (so that calls between them stay compiled) and
writes a stamp beside each package (``_compiled.json``: mypyc's shared library and the source digest of
every module of the group).  From then on the declared modules are imported from the compiled extensions,
or, where

* ``SKALD_ENGINE=python`` is set (the pure-Python engine on purpose: a differential test, profiling),
* the extensions were not built (no C compiler: the build said so, and a run says so too),
* or any source of the group changed since the build (an editable install being edited: a one-line
  note says to rebuild),

from their ``.py`` files, through a finder placed ahead of the extension modules.  Records are the same
either way; ``SKALD_ENGINE=compiled`` makes a missing or stale build an error instead of a fallback.

Standard library only: ``setup.py`` imports this module in a build environment that has nothing else.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

#: the environment variable that chooses the engine: ``auto`` (the default), ``python`` or ``compiled``
ENV = "SKALD_ENGINE"
CHOICES = ("auto", "python", "compiled")
#: the name a package's ``__init__.py`` gives the tuple of its compiled modules
DECLARATION = "COMPILED_MODULES"
#: the build stamp beside each package's sources
STAMP = "_compiled.json"
#: the one compiled group (mypyc's shared library is ``<GROUP>__mypyc``)
GROUP = "skald_engine"
#: the reason a package runs its source when the source was asked for
ASKED = f"{ENV}=python"

#: the engine each package runs (``compiled`` or ``python``) and why, once ``select_engine`` has run
ENGINES: dict[str, str] = {}
REASONS: dict[str, str] = {}


class EngineError(RuntimeError):
    """``SKALD_ENGINE`` names no engine, or asks for a compiled one that is not there."""


def digest(path: Path) -> str:
    """The SHA-256 of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def declared(root: Path, packages: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The packages under ``root`` (in the top-level ``packages``) that declare compiled modules, with
    their modules: each ``__init__.py``'s ``COMPILED_MODULES`` tuple of names, read without importing."""
    found: dict[str, tuple[str, ...]] = {}
    for top in packages:
        for init in sorted((root / top).rglob("__init__.py")):
            tree = ast.parse(init.read_text(encoding="utf-8"), str(init))
            for node in tree.body:
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    continue
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id == DECLARATION:
                    package = ".".join(init.parent.relative_to(root).parts)
                    found[package] = tuple(str(m) for m in ast.literal_eval(node.value))
    return found


def source_of(root: Path, module: str) -> Path:
    """The ``.py`` file of a dotted module name under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def write_stamps(root: Path, group: dict[str, tuple[str, ...]]) -> list[Path]:
    """Record, beside each package of the compiled ``group``, mypyc's shared library and the digest of
    every module of the group (a change to any of them makes the whole group stale)."""
    modules = {f"{p}.{m}": digest(source_of(root, f"{p}.{m}")) for p, names in group.items() for m in names}
    text = json.dumps({"shared": f"{GROUP}__mypyc", "modules": modules}, indent=1, sort_keys=True) + "\n"
    written = []
    for package in group:
        path = root.joinpath(*package.split(".")) / STAMP
        tmp = path.with_name(f".{STAMP}.tmp-{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written


def compiled_source(module: str) -> Path | None:
    """The ``.py`` file of an imported module that runs compiled (an extension module beside its source),
    for what compiling drops (docstrings, annotations); None where the module runs from its source."""
    file = getattr(sys.modules.get(module), "__file__", None)
    if not file or str(file).endswith(".py"):
        return None
    path = Path(str(file)).parent / (module.rsplit(".", 1)[-1] + ".py")
    return path if path.is_file() else None


def _built(folder: Path, module: str) -> bool:
    return any((folder / f"{module}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the named modules' ``.py`` files ahead of the compiled extensions beside them."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def compiled_state(package: str, modules: Sequence[str], folder: Path) -> tuple[bool, str]:
    """(whether ``package``'s compiled ``modules`` in ``folder`` are there and current, why not)."""
    if any(not _built(folder, m) for m in modules):
        return False, "not built (no C compiler or mypyc at install time)"
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
        group: dict[str, str] = dict(stamp["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"its build stamp {STAMP} is missing or unreadable"
    if any(f"{package}.{m}" not in group for m in modules):
        return False, f"its build stamp {STAMP} does not list every module it declares"
    if importlib.util.find_spec(str(stamp.get("shared", ""))) is None:
        return False, f"mypyc's shared library {stamp.get('shared')} is not importable"
    root = folder.parents[package.count(".")]  # the folder holding the top-level package
    stale = [m for m, known in group.items() if not _current(source_of(root, m), known)]
    if stale:
        names = ", ".join(m.rsplit(".", 1)[-1] + ".py" for m in stale)
        return False, f"{names} changed since the build (rebuild: pip install -e .)"
    return True, ""


def _current(path: Path, known: str) -> bool:
    try:
        return digest(path) == known
    except OSError:
        return False


def select_engine(package: str, modules: Sequence[str]) -> str:
    """Choose ``package``'s engine (``compiled`` or ``python``) before any of its compiled ``modules`` is
    imported, and return it; where the source runs, those modules are found from their ``.py`` files."""
    choice = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if choice not in CHOICES:
        raise EngineError(f"{ENV}={choice!r} is not an engine (allowed: {', '.join(CHOICES)})")
    folder = Path(str(sys.modules[package].__file__)).parent
    current, why = compiled_state(package, modules, folder)
    if choice == "compiled" and not current:
        raise EngineError(f"{ENV}=compiled, but {package}'s compiled engine is {why}")
    if choice == "python":
        current, why = False, ASKED
    if not current:
        if "changed since the build" in why:
            print(f"skald: {package} runs its pure-Python engine: {why}", file=sys.stderr)
        files = {f"{package}.{m}": folder / f"{m}.py" for m in modules}
        if not any(isinstance(f, SourceFinder) and f.files == files for f in sys.meta_path):
            sys.meta_path.insert(0, SourceFinder(files))
    ENGINES[package] = "compiled" if current else "python"
    REASONS[package] = why
    return ENGINES[package]


def _package_of(obj: object) -> str | None:
    """The package with a compiled engine that ``obj``'s class comes from, if any."""
    module = type(obj).__module__
    return next((p for p in ENGINES if module == p or module.startswith(p + ".")), None)


def engine_for(game: object) -> str:
    """The engine a game object's rules run on: ``compiled`` or ``python``."""
    package = _package_of(game)
    return "python" if package is None else ENGINES[package]


def fallback_note(game: object) -> str | None:
    """The note a run gives where a game has a compiled engine but runs its source without being asked
    to (``SKALD_ENGINE=python`` is asking): why, and that only the speed differs; None otherwise."""
    package = _package_of(game)
    if package is None or ENGINES[package] == "compiled" or REASONS.get(package) == ASKED:
        return None
    name = package.rsplit(".", 1)[-1]
    return f"{name} runs its pure-Python engine ({REASONS.get(package)}): the same records, only slower"

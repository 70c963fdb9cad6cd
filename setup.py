"""The build: everything is declared in ``pyproject.toml``; this file adds the compiled engines.

The modules each package declares in its ``__init__.py`` (``COMPILED_MODULES``: Graenaland's and
Greenland's rules and their scripted strategies) are compiled by mypyc, as one group, from the same Python
source the pure-Python engine runs, so there is one rules text (``sim.engines``).  Where they cannot be
built (no C compiler, no mypyc, or ``SKALD_ENGINE=python`` at build time) the build goes on without them,
with a one-line note, and the pure-Python engine runs with the same records.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT))
from sim.engines import ENV, GROUP, declared, write_stamps  # noqa: E402  (standard library only)

#: the setup commands that build extensions; the others (egg_info, dist_info: the metadata steps of an
#: install) need no compiling, which takes a minute or two
BUILDS = ("build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop")


def note(text: str) -> None:
    print(f"skald: {text}", file=sys.stderr)


def compiled_engines() -> list:
    """The extensions of the compiled engines, or none (with a note saying why)."""
    if not any(command in sys.argv[1:] for command in BUILDS):
        return []
    if os.environ.get(ENV, "auto") == "python":
        note(f"{ENV}=python: the compiled engines are not built; the pure-Python engines run.")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:  # a build without its build requirements (python setup.py ... by hand)
        note(f"mypyc is not available ({exc}); the pure-Python engines run, with the same records.")
        return []
    group = declared(ROOT, ("sim", "strategies", "analysis"))
    paths = [str(Path(*p.split("."), f"{m}.py")) for p, modules in group.items() for m in modules]
    try:
        # the build environment has setuptools and mypy only: third-party types are unknown there
        flags = ["--ignore-missing-imports", "--no-warn-unused-ignores"]
        built = mypycify([*flags, *paths], opt_level="3", group_name=GROUP)
    except (Exception, SystemExit) as exc:  # the type check or the C generation failed (mypy exits)
        note(f"the engines cannot be compiled ({exc}); the pure-Python engines run, with the same records.")
        return []
    for ext in built:
        ext.optional = True  # a compiler error skips it (build_ext says so); the engines fall back
    write_stamps(ROOT, group)
    return built


setup(ext_modules=compiled_engines())

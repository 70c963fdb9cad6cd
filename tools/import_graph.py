"""A package's import graph: its import circles, its function-level imports and its upward imports.

    .venv/bin/python -m tools.import_graph [PACKAGE ...] [--list]

For each package (default: ``analysis``) it prints the modules, the import circles (strongly connected
components of more than one module, every import counted wherever it sits) with their modules, the
function-level imports (``--list`` names each), and the imports from ``sim`` or ``strategies`` into a
layer above them (``sim`` importing ``strategies``, ``analysis`` or ``tools``; ``strategies`` importing
``analysis`` or ``tools``).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

#: the layers from the ground up: a module may import its own layer and those below
LAYERS = ("sim", "strategies", "analysis", "tools")


def modules(package: str, root: Path = Path(".")) -> dict[str, Path]:
    """Every module of ``package`` (a folder under ``root``) by its dotted name."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported(node: ast.AST) -> list[str]:
    """The dotted names an import statement names (a ``from`` import: the module and each name in it)."""
    if isinstance(node, ast.ImportFrom) and node.module:
        return [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return []


def imports(path: Path) -> Iterator[tuple[list[str], bool, int]]:
    """(names, inside a function, line) of every import statement in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner.update(id(sub) for sub in ast.walk(node) if isinstance(sub, ast.Import | ast.ImportFrom))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield imported(node), id(node) in inner, node.lineno


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = counter
                    counter += 1
                    stack.append(step)
                    on.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def upward(layer: str, names: list[str]) -> list[str]:
    """The names an import of a module in ``layer`` takes from a layer above it."""
    if layer not in LAYERS:
        return []
    above = LAYERS[LAYERS.index(layer) + 1 :]
    return sorted({n.split(".")[0] for n in names if n.split(".")[0] in above})


def graph_of(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Which of ``mods`` each of them imports (every import, wherever it sits)."""
    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        for names, _, _ in imports(path):
            graph[name].update(n for n in names if n in mods and n != name)
    return graph


def report(package: str, listing: bool) -> None:
    mods = modules(package)
    graph: dict[str, set[str]] = {name: set() for name in mods}
    inner: Counter[str] = Counter()
    up: list[str] = []
    for name, path in mods.items():
        for names, in_function, line in imports(path):
            graph[name].update(n for n in names if n in mods and n != name)
            if in_function:
                inner[name] += 1
                if listing:
                    print(f"  function-level: {path}:{line} {names[0]}")
            for target in upward(package.split("/")[0], names):
                up.append(f"{path}:{line} imports {target}")
    found = circles(graph)
    counts = f"{len(mods)} modules, {len(found)} import circles, {sum(inner.values())} function-level imports"
    print(f"{package}: {counts}")
    for component in found:
        print(f"  circle of {len(component)}: {', '.join(component)}")
    for line in up:
        print(f"  upward: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", default=["analysis"])
    parser.add_argument("--list", action="store_true", help="name every function-level import")
    args = parser.parse_args(argv)
    for package in args.packages:
        if not Path(package).is_dir():
            print(f"error: no package folder {package!r}", file=sys.stderr)
            return 2
        report(package, args.list)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The largest source files and functions: ``python -m tools.sizes [--limit-file N] [--limit-function N]``.

The project allows no source file over 800 lines and no function over 80, except where a comment on the
``def`` line (or the line above it) says why with ``size:`` (a hot loop kept whole, say).  Tests are
not counted.  Exits 1 when something is over its limit without such a comment, so CI can run it.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys

SKIP = {".venv", "build", "dist", "node_modules", "tests", ".git"}


def sources(root: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in root.glob("**/*.py") if not SKIP.intersection(p.relative_to(root).parts))


def measure(root: pathlib.Path) -> tuple[list[tuple[int, str, bool]], list[tuple[int, str, bool]]]:
    """(lines, file, excused) for every file and (lines, file:line name, excused) for every function."""
    files, functions = [], []
    for path in sources(root):
        text = path.read_text()
        lines = text.splitlines()
        name = str(path.relative_to(root))
        files.append((len(lines), name, any("size:" in line for line in lines[:5])))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                around = " ".join(lines[max(start - 2, 0): node.lineno])
                where = f"{name}:{node.lineno} {node.name}"
                functions.append((node.end_lineno - start + 1, where, "size:" in around))
    return sorted(files, reverse=True), sorted(functions, reverse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".")
    parser.add_argument("--limit-file", type=int, default=800)
    parser.add_argument("--limit-function", type=int, default=80)
    args = parser.parse_args(argv)
    files, functions = measure(pathlib.Path(args.root))
    print(f"largest file: {files[0][0]} lines ({files[0][1]}); largest function: {functions[0][0]} lines "
          f"({functions[0][1]})")
    over = [f for f in files if f[0] > args.limit_file] + [f for f in functions if f[0] > args.limit_function]
    for size, where, excused in over:
        print(f"  {size:5d}  {where}{'  (excused by a size: comment)' if excused else ''}")
    return 1 if any(not excused for _, _, excused in over) else 0


if __name__ == "__main__":
    sys.exit(main())

"""The source layout (``layout.md``): every module of the packages, with the first sentence of its
docstring, read from the files (``ast``, nothing imported) when the site is built, so the page follows
the code wherever a module moves."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from gen_commands import markdown_text
from gen_games import table

#: the packages listed, module by module; each game's package under ``sim/games/`` is one row
PACKAGES = ("sim", "strategies", "analysis", "tools")
SKIPPED = {"__pycache__"}


def first_sentence(path: Path) -> str:
    """The first sentence of a module's docstring, as Markdown (RST's double backquotes made single)."""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except SyntaxError:
        return ""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    end = re.search(r"(?<=[.!?])\s+(?=[A-Z`(*])", paragraph)
    sentence = paragraph[: end.start()] if end else paragraph
    return markdown_text(sentence.replace("``", "`"))


def _folders(root: Path, name: str) -> list[Path]:
    """The package folder and every folder below it that holds modules, games' packages left out."""
    found = [root / name]
    for path in sorted((root / name).rglob("*")):
        parts = path.relative_to(root).parts
        if not path.is_dir() or SKIPPED & set(parts) or parts[:2] == ("sim", "games") and len(parts) > 2:
            continue  # a game's package is one row of sim/games/
        if any(path.glob("*.py")):
            found.append(path)
    return found


def layout_section(root: Path) -> str:
    """One table per folder: each module and what it is."""
    lines: list[str] = []
    for package in PACKAGES:
        for folder in _folders(root, package):
            where = folder.relative_to(root).as_posix()
            lines += [f"## `{where}/`", ""]
            init = folder / "__init__.py"
            about = first_sentence(init) if init.is_file() else ""
            if about:
                lines += [about, ""]
            rows = [
                [f"`{path.name}`", first_sentence(path)]
                for path in sorted(folder.glob("*.py"))
                if path.name != "__init__.py"
            ]
            if where == "sim/games":  # each game's package, by its plug-in's description
                from sim.plugin import registered

                plugins = registered()
                rows += [
                    [f"`{game.name}/`", markdown_text(plugins[game.name].description)]
                    if game.name in plugins
                    else [f"`{game.name}/`", first_sentence(game / "__init__.py")]
                    for game in sorted(folder.iterdir())
                    if (game / "__init__.py").is_file()
                ]
            if rows:
                lines += [*table(["module", "what it is"], rows), ""]
    return "\n".join(lines).rstrip() + "\n"

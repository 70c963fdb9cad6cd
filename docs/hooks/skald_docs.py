"""The MkDocs hook that builds Skald's generated pages, so ``mkdocs build --strict`` alone builds the
whole site: one page per registered game (``games/``), its records (``records/``), its view and options
(``strategy/``), and the navigation naming them; markers in the written pages are filled in
(``<!-- skald:NAME -->``: what exists when the site is built, the command reference, the questions a
finding of ``report.json`` answers, and the parts of the README that a page shows, so that each text is
written once)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for path in (str(HERE), str(ROOT)):
    if path not in sys.path:
        sys.path.insert(0, path)

import gen_commands  # noqa: E402
import gen_findings  # noqa: E402
import gen_games  # noqa: E402
import gen_layout  # noqa: E402
import gen_pictures  # noqa: E402
import gen_play  # noqa: E402
import gen_spaces  # noqa: E402

from sim.plugin import registered  # noqa: E402


def _games() -> list[tuple[str, Any]]:
    return list(registered().items())


def nav() -> list[Any]:
    """The site's navigation: the written pages and one generated page per game in each section."""
    games = _games()
    return [
        {"Getting started": "index.md"},
        {"Commands": "commands.md"},
        {"Running games": "running.md"},
        {"Games": ["games/index.md", *[{p.title: f"games/{n}.md"} for n, p in games]]},
        {"Writing a strategy": ["writing-a-strategy.md", *[{p.title: f"strategy/{n}.md"} for n, p in games]]},
        {"Search strategies": "search.md"},
        {"Records": ["records/index.md", *[{p.title: f"records/{n}.md"} for n, p in games]]},
        {"Studies": "studies.md"},
        {"Reading the report": "report.md"},
        {"Decisions": "decisions.md"},
        {"Pictures and replays": "pictures.md"},
        {"Scaling out": "scaling.md"},
        {"Speed": "speed.md"},
        {"Tuning and sensitivity": "tuning.md"},
        {"Writing a game": "writing-a-game.md"},
        {"PettingZoo environment": "pettingzoo.md"},
        {"Source layout": "layout.md"},
        {"API reference": ["api/game.md", "api/plugin.md", "api/picture.md", "api/strategies.md"]},
    ]


def on_config(config: Any) -> Any:
    config["nav"] = nav()
    return config


def generated_pages() -> dict[str, str]:
    """Every generated page by its path under ``docs/``."""
    pages = {"games/index.md": gen_games.games_index()}
    for name, plugin in _games():
        pages[f"games/{name}.md"] = gen_games.game_page(plugin)
        pages[f"records/{name}.md"] = gen_games.records_page(plugin)
        pages[f"strategy/{name}.md"] = gen_play.strategy_page(plugin)
    return pages | gen_pictures.pictures(_games())


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, text in generated_pages().items():
        files.append(File.generated(config, uri, content=text))
    return files


def readme_part(name: str, page: str = "index.md") -> str:
    """The README's text between ``<!-- docs: NAME ...-->`` and ``<!-- /docs -->``, its links into
    ``docs/`` made relative to ``page`` (a path under ``docs/``)."""
    import posixpath
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"^<!-- docs: {re.escape(name)}\b.*?-->\n(.*?)^<!-- /docs -->", text, re.M | re.S)
    if found is None:
        raise KeyError(f"README.md has no part {name!r} (<!-- docs: {name} --> ... <!-- /docs -->)")
    here = posixpath.dirname(page) or "."
    return re.sub(
        r"\]\(docs/([^)]+)\)", lambda m: "](" + posixpath.relpath(m.group(1), here) + ")", found.group(1)
    ).rstrip()


def marker(name: str, page: str = "index.md") -> str:
    """What replaces ``<!-- skald:NAME -->`` in a written page (``page``: its path under ``docs/``)."""
    import re

    if name.startswith("readme-"):
        return readme_part(name.removeprefix("readme-"), page)
    if name == "commands":
        return gen_commands.commands_section()
    if name == "source-layout":
        return gen_layout.layout_section(ROOT)
    if name == "finding-questions":
        return gen_findings.questions_section()
    if name == "pettingzoo-api":
        if (ROOT / "sim" / "pettingzoo.py").is_file():
            return "## API\n\n::: sim.pettingzoo\n    options:\n      heading_level: 3"
        return (
            '!!! warning "Not yet available"\n    `sim/pettingzoo.py` is being written; this build found no'
            " such module, so its reference is not here yet."
        )
    if name == "pictures":
        return gen_pictures.pictures_section(_games())
    if name == "pettingzoo-spaces":
        return gen_spaces.spaces_section()
    if name == "strategy-links":
        return "\n".join(f"- [{p.title}](strategy/{n}.md): `{n}`" for n, p in _games())
    if name == "tictactoe-readme":
        text = (ROOT / "examples" / "skald-tictactoe" / "README.md").read_text(encoding="utf-8")
        body = text.split("\n", 1)[1]  # its own title line is the page's; its sections go one level down
        return re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", body, flags=re.MULTILINE)
    raise KeyError(f"unknown docs marker {name!r}")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    import re

    return re.sub(r"<!-- skald:([\w-]+) -->", lambda m: marker(m.group(1), page.file.src_uri), markdown)

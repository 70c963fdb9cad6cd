"""The generated pages about each registered game: its rules coverage, rule switches and rulings
(``games/<name>.md``) and its records schema (``records/<name>.md``), all read from the declarations
(``sim.plugin.registered()``, the game object, its ``RULINGS.md``), none copied by hand."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

from sim.plugin import GamePlugin, registered


def cell(text: Any) -> str:
    """A value fit for one Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def plain(text: Any) -> str:
    """Plain text that Markdown must not read as links or emphasis: brackets, stars and angle brackets
    escaped."""
    out = str(text)
    for char in "[]*<>":
        out = out.replace(char, "\\" + char)
    return out


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table's lines."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]


def game_folder(plugin: GamePlugin) -> Path:
    """The folder of the module that holds the game's rules object."""
    module = importlib.import_module(plugin.game.partition(":")[0])
    return Path(module.__file__ or ".").parent


def rulings_text(plugin: GamePlugin) -> str | None:
    """The game's ``RULINGS.md`` with its headings one level down (the page's own title stays the only
    level-1 heading); None where the game has none."""
    path = game_folder(plugin) / "RULINGS.md"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", text, flags=re.MULTILINE)


def coverage_rows(plugin: GamePlugin, game: Any) -> list[list[Any]]:
    """What the game covers, one row per declaration."""
    kinds = getattr(game, "action_kinds", None)
    rows: list[list[Any]] = [
        ["players", f"{game.min_players} to {game.max_players}"],
        ["decision cap", f"{game.default_max_decisions} decisions (then the game is recorded as truncated)"],
        ["actions (turns.kind)", ", ".join(kinds) if kinds else "not declared"],
        ["action columns", ", ".join(f"`{f}`" for f in game.action_fields) or "none"],
        ["score parts (seats columns)", ", ".join(f"`{f}`" for f in game.part_fields) or "none"],
        ["rule switches", ", ".join(f"`{s.name}`" for s in game.rule_switches) or "none"],
        ["component data", f"`{plugin.data}`" if plugin.data else "none"],
        [
            "search (`ismcts`)",
            "yes: declares `determinize`"
            if callable(getattr(game, "determinize", None))
            else "no: does not declare `determinize`",
        ],
        ["state pictures", "yes" if plugin.picture else "no"],
        ["own report sections", "yes" if plugin.sections else "no (the general sections only)"],
        ["studies", ", ".join(f"`{s}`" for s in plugin.studies) or "none"],
    ]
    return rows


def game_page(plugin: GamePlugin) -> str:
    """``games/<name>.md``: coverage, rule switches and rulings of one game."""
    game = plugin.load_game()
    lines = [
        f"# {plugin.title} (`{plugin.name}`)",
        "",
        plain(f"{plugin.description[:1].upper()}{plugin.description[1:]}."),
        "",
        "Generated from the game's declaration (`sim.plugin`, its `Game` object and its `RULINGS.md`).",
        "",
        "## Rules coverage",
        "",
    ]
    lines += table(["what", "declared"], coverage_rows(plugin, game))
    lines += ["", "## Rule switches", ""]
    if game.rule_switches:
        lines += [
            "Flip one with `skald run " + plugin.name + " --rule NAME=VALUE` (or `rules = {...}` in a study"
            " file); `skald rules " + plugin.name + "` prints this table.",
            "",
        ]
        rows = [
            [f"`{s.name}`", f"`{s.default}`", ", ".join(f"`{c}`" for c in s.choices) or "any", plain(s.doc)]
            for s in game.rule_switches
        ]
        lines += table(["switch", "default", "choices", "ruling"], rows)
    else:
        lines.append(f"{plugin.title} has no rule switches.")
    rulings = rulings_text(plugin)
    lines += ["", "## Rulings", ""]
    lines.append(rulings if rulings else f"{plugin.title} has no `RULINGS.md`.")
    lines += [
        "",
        f"Its records: [records of {plugin.title}](../records/{plugin.name}.md); writing a strategy for it:"
        f" [{plugin.title}: view and options](../strategy/{plugin.name}.md).",
        "",
    ]
    return "\n".join(lines)


def games_index() -> str:
    """``games/index.md``: every registered game in one table."""
    rows = []
    for name, plugin in registered().items():
        game = plugin.load_game()
        rows.append(
            [
                f"[{plugin.title}]({name}.md)",
                f"`{name}`",
                plain(plugin.description),
                f"{game.min_players}-{game.max_players}",
                len(game.rule_switches),
            ]
        )
    lines = [
        "# Games",
        "",
        "Every game registered under the `skald.games` entry points (`skald games` lists the same)."
        " Each page below is generated from the game's declaration.",
        "",
    ]
    return "\n".join(lines + table(["game", "name", "what it is", "players", "rule switches"], rows)) + "\n"


def records_page(plugin: GamePlugin) -> str:
    """``records/<name>.md``: what ``skald records NAME --markdown`` prints, under a title."""
    from sim.commands.info import records_markdown

    game = plugin.load_game()
    lines = [
        f"# Records of {plugin.title}",
        "",
        f"What `skald records {plugin.name}` prints, generated by the same code. A run writes three tables"
        " (see [the records](index.md)); in `turns`, an action column a kind does not fill is -1.",
        "",
        records_markdown(game),
    ]
    return "\n".join(lines)

"""The generated pages a strategy author reads (``strategy/<name>.md``): what ``view`` and ``options``
are in each game, from the types (the view's fields with their annotations and comments) and measured on a
real game (the options' type and shape at the first decision, and every option type one random game
offers), and the game's built-in strategies with their parameters (``sim.specs``)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
from gen_games import cell, game_folder, plain, table

from sim.plugin import GamePlugin

#: what each column of an option means where a game's options are rows of an integer array (a layout its
#: types cannot say): Mainland's rows are (kind, hand_index, rotation, row, col), sim/games/mainland/state.py
ARRAY_COLUMNS: dict[str, list[tuple[str, str]]] = {
    "mainland": [
        ("kind", "what the option does: {kinds}"),
        ("hand_index", "the card's position in `view.hand` (0 = first; place and replace), else 0"),
        ("rotation", "quarter turns clockwise, 0 to 3, of the card's 2x2 items as the data file lists them"),
        ("row", "board row of the card's top-left tile (0 = top)"),
        ("col", "board column of the card's top-left tile (0 = left)"),
    ],
}


def _kinds_text(name: str) -> str:
    """The kind codes of a game with array options, from its state module (``KINDS``)."""
    module = __import__(f"sim.games.{name}.state", fromlist=["KINDS"])
    return ", ".join(f"{i} = {k}" for i, k in enumerate(module.KINDS))


def field_notes(cls: type) -> dict[str, str]:
    """Each annotated field of ``cls`` with the comment beside it or the string under it."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    notes: dict[str, str] = {}
    for i, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            line = lines[node.lineno - 1]
            comment = line.split("#", 1)[1].strip() if "#" in line else ""
            after = body[i + 1] if i + 1 < len(body) else None
            if isinstance(after, ast.Expr) and isinstance(getattr(after, "value", None), ast.Constant):
                comment = (comment + " " + str(after.value.value)).strip()
            notes[node.target.id] = comment
    return notes


def type_text(kind: Any) -> str:
    """An annotation as written: a string or forward reference as it is, a class by its name."""
    if isinstance(kind, str):
        return kind
    return getattr(kind, "__forward_arg__", None) or getattr(kind, "__name__", None) or str(kind)


def fields_table(cls: type) -> list[str]:
    """The fields of a NamedTuple or dataclass with their annotations and notes."""
    notes = field_notes(cls)
    annotations: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        annotations.update(getattr(klass, "__annotations__", {}))
    rows = [
        [f"`{name}`", f"`{type_text(kind)}`", plain(notes.get(name, ""))]
        for name, kind in annotations.items()
        if not name.startswith("_")
    ]
    return table(["field", "type", "what it holds"], rows)


def play_random_game(game: Any, players: int, seed: int, look: Callable[[Any, Any, int], None]) -> Any:
    """One game with uniform random choices, calling ``look(view, options, seat)`` at every choice; the
    first decision's (view, options)."""
    rng = np.random.default_rng(seed)
    rules = {switch.name: switch.default for switch in game.rule_switches}
    state = game.new_state(players, rules, game.load_data(None), seed)
    first = None
    for _ in range(game.default_max_decisions):
        if game.is_terminal(state):
            break
        choices = {}
        for seat in game.to_move(state):
            options, view = game.legal_options(state, seat), game.view(state, seat)
            first = first or (view, options)
            look(view, options, seat)
            choices[seat] = options[int(rng.integers(len(options)))]
        game.apply(state, choices)
    return first


def option_types(game: Any, players: int) -> tuple[Any, dict[type, set[str]]]:
    """The first decision's (view, options) and every option type one random game offers, with the kinds
    seen of a type that has a ``kind`` field."""
    seen: dict[type, set[str]] = {}

    def look(view: Any, options: Any, seat: int) -> None:
        for option in options[:50] if not isinstance(options, np.ndarray) else ():
            kinds = seen.setdefault(type(option), set())
            if hasattr(option, "kind"):
                kinds.add(str(option.kind))

    return play_random_game(game, players, 7, look), seen


def options_section(name: str, options: Any, seen: dict[type, set[str]], players: int) -> list[str]:
    """What ``options`` is: measured at the first decision, then its layout or its types."""
    kind = type(options)
    lines = [
        "## `options`",
        "",
        f"Measured at the first decision of a {players}-player game (seed 7): `options` is a"
        f" `{kind.__module__}.{kind.__qualname__}`",
    ]
    if isinstance(options, np.ndarray):
        lines[-1] += (
            f" of shape {options.shape} and dtype `{options.dtype}`: one row per legal option;"
            " return one row (`options[i]`). Its columns:"
        )
        columns = ARRAY_COLUMNS.get(name)
        lines.append("")
        if columns:
            rows = [
                [i, f"`{col}`", text.format(kinds=_kinds_text(name))] for i, (col, text) in enumerate(columns)
            ]
            lines += table(["column", "name", "meaning"], rows)
        else:
            lines.append("The game does not document its columns here.")
        lines += ["", f"The first rows: `{options[:3].tolist()}`.", ""]
        return lines
    lines[-1] += (
        f" of {len(options)} options; its first is `{options[0]!r}`. Return one element of it"
        " (the object itself)."
    )
    lines += ["", "The option types one random game offered:", ""]
    for cls, kinds in sorted(seen.items(), key=lambda item: item[0].__name__):
        lines += [f"### `{cls.__name__}`", ""]
        doc = inspect.getdoc(cls)
        if doc and not doc.startswith(f"{cls.__name__}("):
            lines += ["```text", doc, "```", ""]
        if kinds:
            lines += ["Kinds seen: " + ", ".join(f"`{k}`" for k in sorted(kinds)) + ".", ""]
        lines += fields_table(cls) + [""]
    return lines


def strategies_section(plugin: GamePlugin) -> list[str]:
    """The built-in strategies of the game, as ``skald strategies`` describes them."""
    from sim.specs import builtin_names, parameters, parse_spec
    from sim.strategy import describe

    lines = ["## Built-in strategies", "", f"As `skald strategies {plugin.name}` prints them.", ""]
    for strategy in builtin_names(plugin.name):
        cls = parse_spec(strategy, plugin.name).cls
        lines += [
            f"### `{strategy}`",
            "",
            plain(describe(cls)),
            "",
            f"Class: `{cls.__module__}:{cls.__qualname__}`.",
            "",
        ]
        params = parameters(cls, plugin.name)
        if params:
            rows = [
                [f"`{p.name}`", p.kind, f"`{p.default}`", plain(p.values), plain(p.meaning)] for p in params
            ]
            lines += table(["parameter", "type", "default", "values", "meaning"], rows) + [""]
    return lines


def strategy_page(plugin: GamePlugin) -> str:
    """``strategy/<name>.md``: the view, the options and the built-in strategies of one game."""
    game = plugin.load_game()
    players = max(game.min_players, min(2, game.max_players))
    (first_view, first_options), seen = option_types(game, players)
    view_cls = type(first_view)
    lines = [
        f"# {plugin.title}: `view` and `options`",
        "",
        f"What `choose(view, options)` receives in `{plugin.name}`, generated from the types and measured"
        " on a real game. See [writing a strategy](../writing-a-strategy.md) for the whole picture.",
        "",
        "## `view`",
        "",
        f"A `{view_cls.__module__}.{view_cls.__qualname__}`: only what the deciding seat may see.",
    ]
    doc = inspect.getdoc(view_cls)
    if doc and not doc.startswith(f"{view_cls.__name__}("):
        lines += ["", plain(cell(doc))]
    lines += [""] + fields_table(view_cls) + [""]
    lines += options_section(plugin.name, first_options, seen, players)
    helpers = game_folder(plugin) / "evaluate.py"
    if helpers.is_file():
        module = plugin.game.partition(":")[0].rsplit(".", 1)[0] + ".evaluate"
        lines += [
            "## Look-ahead helpers",
            "",
            f"`{module}` works on a seat's view alone (the built-in strategies use it):",
            "",
            f"::: {module}",
            "    options:",
            "      heading_level: 3",
            "      show_root_heading: false",
            "",
        ]
    lines += strategies_section(plugin)
    return "\n".join(lines)

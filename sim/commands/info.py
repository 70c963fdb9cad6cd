"""``skald games``, ``strategies``, ``rules`` and ``records``: what is registered, what a game's
strategies and rule switches are, and what every column of its records holds."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from sim.commands.base import GameCommand, app, out
from sim.game import capabilities, capability
from sim.games import GAMES, get_game


@app.command("games")
def games_command() -> None:
    """List the registered games (plug-ins of the skald.games entry points) and their player counts."""
    table = Table(title="games")
    table.add_column("game", no_wrap=True)  # names a user types: never cut (the others wrap)
    table.add_column("what it is", overflow="fold")
    table.add_column("players", no_wrap=True)
    table.add_column("rule switches", no_wrap=True)  # one a line
    table.add_column("max decisions", overflow="fold")
    declared = Table(title="capabilities: what each game declares beyond the Game protocol")
    declared.add_column("game", no_wrap=True)
    declared.add_column("capabilities (sim.game.CAPABILITIES)", overflow="fold")
    for name in sorted(GAMES):
        try:
            game = get_game(name)
        except Exception as exc:  # a registered game that cannot be imported yet
            why = f"unavailable: {type(exc).__name__}: {exc}"
            table.add_row(name, GAMES[name].description, "-", "-", why)
            continue
        table.add_row(
            name,
            GAMES[name].description,
            f"{game.min_players}-{game.max_players}",
            ",\n".join(s.name for s in game.rule_switches) or "-",
            str(game.default_max_decisions),
        )
        declared.add_row(name, ", ".join(capabilities(name)) or "none")
    out.print(table)
    out.print(declared)


@app.command("strategies", cls=GameCommand)
def strategies_command(game: Annotated[str, typer.Argument(help="Game name.")]) -> None:
    """The built-in strategies that play GAME: each one's description, and its parameters with their
    defaults and the values they take; then the named specs (strategies/tuned.toml) with what they stand
    for and what they measured."""
    spec = get_game(game)
    print(f"strategies for {spec.name} (or your own class: package.module:Class[:key=value...])")
    for name in strategy_names(spec.name):
        print()
        print("\n".join(strategy_lines(name, spec.name)))
    for line in named_lines(spec.name):
        print(line)


def strategy_names(game: str) -> list[str]:
    """The built-in strategy names that play ``game`` (``sim.specs.builtin_names``)."""
    from sim.specs import builtin_names

    return builtin_names(game)


def strategy_lines(name: str, game: str, width: int = 100) -> list[str]:
    """What ``skald strategies`` prints for one strategy: its name and class, its whole description
    wrapped to ``width``, then one line per parameter (key=default, type, values taken, meaning)."""
    import textwrap

    from sim.specs import parameters, parse_spec
    from sim.strategy import describe

    cls = parse_spec(name, game).cls
    lines = [f"{name}  ({cls.__module__}:{cls.__qualname__})"]
    lines += textwrap.wrap(describe(cls), width - 2, initial_indent="  ", subsequent_indent="  ",
                           break_on_hyphens=False)
    params = parameters(cls, game)
    if not params:
        lines.append("  parameters: none")
        return lines
    lines.append("  parameters (key=default: type, values; meaning):")
    for p in params:
        text = f"{p.name}={p.default}: {p.kind}, {p.values}" + (f"; {p.meaning}" if p.meaning else "")
        lines += textwrap.wrap(text, width - 4, initial_indent="    ", subsequent_indent="        ",
                               break_on_hyphens=False)
    return lines


def named_lines(game: str, width: int = 100) -> list[str]:
    """What ``skald strategies`` prints for the game's named specs: each name, the spec it stands for, and
    its ``measured`` and ``tune`` lines (none when the game has no named spec)."""
    import textwrap

    from sim.specs import named_specs, tuned_file

    named = named_specs(game)
    if not named:
        return []
    lines = ["", f"named specs ({tuned_file().name}; write the name as a strategy):"]
    for item in named.values():
        lines.append(f"{item.name} = {item.spec}")
        for key, text in (("measured", item.measured), ("tune", item.tune)):
            if text:
                wrapped = textwrap.wrap(f"{key}: {text}", width - 2, break_on_hyphens=False)
                lines += ["  " + wrapped[0]] + ["    " + line for line in wrapped[1:]]
    return lines


@app.command("rules", cls=GameCommand)
def rules_command(game: Annotated[str, typer.Argument(help="Game name.")]) -> None:
    """List GAME's rule switches (--rule NAME=VALUE) with defaults, choices and rulings."""
    spec = get_game(game)
    table = Table(title=f"rule switches of {spec.name}", show_lines=True)
    table.add_column("rule", no_wrap=True)  # the name a user types: never cut (the others wrap)
    for name in ("default", "choices", "ruling"):
        table.add_column(name, overflow="fold")
    for switch in spec.rule_switches:
        choices = ", ".join(map(str, switch.choices)) or "any"
        table.add_row(switch.name, str(switch.default), choices, switch.doc)
    if not spec.rule_switches:
        out.print(f"{spec.name} has no rule switches")
        return
    out.print(table)


@app.command("records", cls=GameCommand)
def records_command(
    game: Annotated[str, typer.Argument(help="Game name.")],
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print Markdown tables (for the docs).")
    ] = False,
) -> None:
    """The columns of GAME's records: each action kind with the action columns it fills, and what every
    column of the games, seats and turns tables holds."""
    spec = get_game(game)
    if markdown:
        print(records_markdown(spec), end="")
        return
    for title, header, rows in _record_tables(spec):
        table = Table(title=title)
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        out.print(table, markup=False, highlight=False)


def records_markdown(spec: Any) -> str:
    """``skald records GAME --markdown``: each table of ``_record_tables`` under a level-3 heading."""
    lines = []
    for title, header, rows in _record_tables(spec):
        lines += [f"### {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        lines.append("")
    return "\n".join(lines) + "\n"


def _type_name(kind: Any) -> str:
    """An Arrow type as the README writes it: float64 (not double), list of int64."""
    if hasattr(kind, "value_type"):
        return f"list of {_type_name(kind.value_type)}"
    return "float64" if str(kind) == "double" else str(kind)


def _record_tables(spec: Any) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of each table ``skald records`` prints for the game ``spec``: its action
    kinds, its action columns, then every column of the three tables.  A game that does not declare
    ``action_kinds`` or ``action_docs`` yet is said to, in the rows they would fill."""
    from sim.tables import COLUMN_MEANINGS, games_schema, seats_schema, turns_schema

    name, fields = spec.name, list(spec.action_fields)
    kinds: dict[str, tuple[str, ...]] | None = capability(spec, "action_kinds")
    docs: dict[str, str] | None = capability(spec, "action_docs")
    if kinds is None:
        kind_rows = [["-", f"{name} does not declare its action kinds (action_kinds)"]]
    else:
        kind_rows = [[kind, ", ".join(columns) or "-"] for kind, columns in kinds.items()]
    column_rows = []
    for field in fields:
        if docs is None:
            meaning = f"{name} does not declare its action columns' meanings (action_docs)"
        else:
            meaning = docs.get(field, "(no line in action_docs)")
        users = "?" if kinds is None else ", ".join(k for k, cols in kinds.items() if field in cols) or "-"
        column_rows.append([field, meaning, users])
    every = []
    for table, schema in (
        ("games", games_schema()),
        ("seats", seats_schema(spec.part_fields)),
        ("turns", turns_schema(fields)),
    ):
        for column in schema:
            if table == "turns" and column.name in fields:
                meaning = "an action column (above)"
            elif table == "seats" and column.name in spec.part_fields:
                meaning = f"a {name} score part or play statistic"
            else:
                meaning = COLUMN_MEANINGS[table][column.name]
            every.append([table, column.name, _type_name(column.type), meaning])
    return [
        (f"{name} turns: action kinds (a column a kind does not fill is -1 in its rows)",
         ["kind", "action columns it fills"], kind_rows),
        (f"{name} turns: action columns (int64)", ["column", "meaning", "filled by"], column_rows),
        (f"{name} records: the columns of the games, seats and turns tables",
         ["table", "column", "type", "meaning"], every),
    ]

"""The command reference (``commands.md``): every ``skald`` command with its usage line, its help text
and each argument and option with its default and help, read from the typer app's click objects
(``typer.main.get_command``) when the site is built, none copied by hand."""

from __future__ import annotations

import re
from typing import Any

from gen_games import table

#: an option's help that ends by naming its default: "... (default: the study's)."
DEFAULT_IN_HELP = re.compile(r"\s*\(default: ((?:[^()]|\([^()]*\))*)\)(\.?)\s*$")
#: the commands in the order a user meets them; any other follows in the order the app registers it
ORDER = (
    "run",
    "report",
    "compare",
    "study",
    "replay",
    "games",
    "strategies",
    "rules",
    "records",
    "bench",
    "tune",
    "sensitivity",
)
#: Python type names as the reference writes them in place of a metavar
TYPE_WORDS = {"int": "N", "float": "X", "str": "TEXT", "Path": "PATH", "bool": ""}


def _context(command: Any, name: str, parent: Any = None) -> Any:
    """A click context for ``command`` (typer's own copy of click where it vendors one)."""
    try:
        from typer._click.core import Context
    except ImportError:  # typer that uses click itself
        from click import Context  # type: ignore[no-redef]  # the same class
    return Context(command, info_name=name, parent=parent)


def markdown_text(text: str) -> str:
    """Help text as Markdown: backquoted spans kept as code, and outside them the characters Markdown
    would read as emphasis, links or HTML escaped (a table cell's pipes are ``gen_games.cell``'s)."""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"([\\*_\[\]<>])", r"\\\1", parts[i])
    return "".join(parts)


def _type_word(param: Any) -> str:
    """What follows an option's name: its metavar, else a word for its type (none for a flag)."""
    if getattr(param, "is_flag", False):
        return ""
    if getattr(param, "metavar", None):
        return str(param.metavar)
    bare = getattr(param, "bare_type", None)  # typer's own parameters
    if callable(bare):
        name = str(bare())
    else:  # click's: a ParamType with a name
        name = str(getattr(getattr(param, "type", None), "name", "text"))
    name = name.removeprefix("list[").removesuffix("]")
    return TYPE_WORDS.get(name, name.upper())


def _argument_word(param: Any) -> str:
    """An argument as the usage line writes it: ``GAME``, ``[NAME]``, ``RESULTS...``."""
    word = str(param.metavar or param.name).upper()
    if getattr(param, "nargs", 1) == -1:
        word += "..."
    return word if param.required else f"[{word}]"


def usage(path: str, command: Any, params: list[Any]) -> str:
    """``skald run [OPTIONS] GAME``."""
    arguments = [_argument_word(p) for p in params if p.param_type_name == "argument"]
    if hasattr(command, "list_commands"):  # the group: a command follows
        arguments.append("COMMAND [ARGS]...")
    return " ".join([path, "[OPTIONS]", *arguments])


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) if value else ""
    return f"`{value}`"


def default_and_help(param: Any) -> tuple[str, str]:
    """The default as the table's cell says it, and the help without a closing ``(default: ...)`` that
    the cell now says."""
    text = " ".join((getattr(param, "help", None) or "").split())
    if param.param_type_name == "argument":
        return ("required" if param.required else "optional"), text
    default = param.default
    if param.required:
        return "required", text
    if getattr(param, "is_flag", False):
        if param.secondary_opts:  # --recording/--no-recording
            return _value(param.opts[0] if default else param.secondary_opts[0]), text
        return ("on" if default else "off"), text
    if default is None or default == [] or default == ():
        said = DEFAULT_IN_HELP.search(text)
        if said:
            return markdown_text(said.group(1)), text[: said.start()] + said.group(2)
        return "not set", text
    return _value(default), text


def _names(param: Any) -> str:
    names = ", ".join(f"`{o}`" for o in sorted(param.opts, key=lambda o: (not o.startswith("--"), o)))
    if param.secondary_opts:
        names += " / " + ", ".join(f"`{o}`" for o in param.secondary_opts)
    word = _type_word(param) if param.param_type_name == "option" else ""
    return f"{names} {markdown_text(word)}" if word else names


def command_section(path: str, command: Any, context: Any, level: int = 2) -> list[str]:
    """One command's heading, usage line, help and table of arguments and options."""
    params = [p for p in command.get_params(context) if not getattr(p, "hidden", False)]
    params = [p for p in params if p.name != "help"]
    lines = [f"{'#' * level} `{path}`", "", "```text", usage(path, command, params), "```", ""]
    for paragraph in re.split(r"\n\s*\n", (command.help or "").strip()):
        if paragraph.strip():
            lines += [markdown_text(" ".join(paragraph.split())), ""]
    rows = []
    for param in params:
        if param.param_type_name == "argument":
            name = f"`{_argument_word(param)}`"
        else:
            name = _names(param)
        default, text = default_and_help(param)
        rows.append([name, default, markdown_text(text)])
    if rows:
        lines += [*table(["argument or option", "default", "meaning"], rows), ""]
    return lines


def commands_section() -> str:
    """The reference of every ``skald`` command, in the order ``skald --help`` lists them."""
    import typer.main

    from sim.cli import app

    group = typer.main.get_command(app)
    root = _context(group, "skald")
    lines = command_section("skald", group, root)
    names = list(group.list_commands(root))
    for name in sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), names.index(n))):
        command = group.get_command(root, name)
        if command is None or getattr(command, "hidden", False):
            continue
        lines += command_section(f"skald {name}", command, _context(command, name, root))
    return "\n".join(lines).rstrip() + "\n"

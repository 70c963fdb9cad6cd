"""The generated section of the PettingZoo page: each game's action space and observation layout, read from
its ``spaces`` module (``GamePlugin.spaces``: ``ACTIONS``, ``SHAPE``, ``ACTION_CODEC``, ``LAYOUT`` and the
module's docstring), none copied by hand."""

from __future__ import annotations

from typing import Any

from gen_games import table

from sim.plugin import GamePlugin, registered
from sim.rl.spaces import declares_spaces, load_spaces


def _prose(spaces: Any) -> str:
    """The module docstring without the block and part lists appended to it (they become tables)."""
    text = spaces.__doc__ or ""
    for generated in (getattr(spaces, "ACTION_CODEC", None), spaces.LAYOUT):
        if generated is not None and generated.doc() in text:
            text = text.split(generated.doc())[0]
    return text.strip()


def _action_rows(spaces: Any) -> list[list[Any]]:
    codec = getattr(spaces, "ACTION_CODEC", None)
    if codec is None:
        return []
    return [[f"{start}..{start + b.size - 1}", f"`{b.kind}`", b.size,
             "factored (the option's own place)" if b.index else "bounded (rank among its kind's options)"]
            for start, b in codec.blocks.values()]


def _observation_rows(spaces: Any) -> list[list[Any]]:
    rows, at = [], 0
    for part in spaces.LAYOUT.parts:
        rows.append([f"{at}..{at + part.size - 1}", f"`{part.name}`", part.size, part.doc])
        at += part.size
    return rows


def game_section(plugin: GamePlugin) -> str:
    """One game's subsection: sizes, the module's prose, the action blocks and the observation parts."""
    spaces = load_spaces(plugin)
    lines = [f"### {plugin.title} (`{plugin.name}`)", "",
             f"`Discrete({spaces.ACTIONS})` actions; observation `Box` of shape `{tuple(spaces.SHAPE)}`"
             f" (float32); from `{plugin.spaces}`.", "", _prose(spaces), ""]
    actions = _action_rows(spaces)
    if actions:
        header = ["numbers", "kind", "size", "place in block"]
        lines += ["Action blocks, end to end:", "", *table(header, actions), ""]
    parts = table(["positions", "part", "size", "holds"], _observation_rows(spaces))
    lines += ["Observation layout:", "", *parts]
    return "\n".join(lines)


def spaces_section() -> str:
    """Every game that declares ``spaces``, one subsection each."""
    found = [p for p in registered().values() if declares_spaces(p)]
    return "## Action spaces and observations\n\n" + "\n\n".join(game_section(p) for p in found)

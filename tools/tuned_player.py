"""Package a tune's player by name: write (or update) its entry in ``strategies/tuned.toml`` from a finished
tune's output folder, so that ``skald run GAME -s tuned,...`` plays it and ``skald strategies GAME`` lists it.

    .venv/bin/python -m tools.tuned_player results/tune-graenaland-player [--name tuned]

The entry is ``[GAME.NAME]`` with the winner's ``spec`` (``tune.json``'s ``player.spec``), the ``tune`` file
it came from (``--tune``, default: the file the tune read) and a ``measured`` line: the confirmed win share
with its 95% interval (clustered on deals) against the field, the players, games and seeds, and whether the
interval lies above, below or across parity.  The file is read, the one entry set and the whole written
back through a temporary name and a rename: the other entries are kept (the file's comments are its fixed
header, ``HEADER``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from analysis.report.sections.tune import share_words
from analysis.tune.tomlfile import dumps
from sim.errors import SkaldError
from sim.manifest import write_text_atomic
from sim.specs import NAME_PATTERN, builtin, parse_spec, read_named, tuned_file

HEADER = [
    "Named specs: a strategy spec by name, per game ([GAME.NAME]), found by sim.specs.parse_spec, so that",
    "`skald run GAME -s tuned,greedy` plays the spec and `skald strategies GAME` lists it. Each entry is",
    "the winner of a `skald tune` (`tune`, its file) with what the tune's confirmation measured. Written by",
    "`python -m tools.tuned_player TUNE_FOLDER` (it keeps the other entries; comments are not kept).",
]


def measured_line(doc: dict[str, Any]) -> str:
    """The winner's confirmed win share(s) in words, with the tune's seed and budget."""
    player = doc.get("player")
    if not player:
        raise SkaldError(f"tune {doc.get('tune')!r} has no player (no [tune] player): nothing to package")
    shares = [share_words(s, doc["players"]) for s in player["win_share"]]
    conf = doc["confirmation"]
    where = f"tune seed {doc['seed']}, budget {doc['budget']:,}, confirmation seed {conf['seed']}"
    return "; ".join(shares or ["no win-share objective"]) + f" ({where})"


def entry(doc: dict[str, Any], tune: str | None = None) -> dict[str, str]:
    """The ``[GAME.NAME]`` table of a finished tune's ``tune.json`` document."""
    line = measured_line(doc)  # refuses a tune without a player
    source = tune if tune is not None else str(doc.get("source", "")).strip("'\"")
    return {"spec": doc["player"]["spec"], "tune": source, "measured": line}


def update(path: Path, game: str, name: str, table: dict[str, str]) -> None:
    """Set ``[game.name]`` in the named-spec file at ``path`` (created if absent), keeping every other entry;
    written through a temporary name and a rename."""
    read_named(path)  # a bad file is refused before it is rewritten
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        doc = {}
    doc.setdefault(game, {})[name] = table
    write_text_atomic(dumps(doc, HEADER), path)
    read_named(path)  # and what was written reads back


def package(folder: Path, name: str = "tuned", path: Path | None = None, tune: str | None = None) -> str:
    """Write the tune in ``folder``'s player as ``name`` of its game into ``path`` (default: the packaged
    file); the line saying what was written."""
    try:
        doc = json.loads((folder / "tune.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SkaldError(f"cannot read {str(folder / 'tune.json')!r}: {exc}") from None
    game = doc["game"]
    if name in builtin() or not NAME_PATTERN.match(name):
        raise SkaldError(
            f"--name {name!r}: a name is lower-case letters, digits, - and _, and no built-in strategy's"
            " (e.g. tuned)"
        )
    table = entry(doc, tune)
    parse_spec(table["spec"], game)  # the spec plays the game
    target = path if path is not None else tuned_file()
    update(target, game, name, table)
    return f"{target}: [{game}.{name}] spec = {table['spec']}; measured: {table['measured']}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a finished tune's output folder (holding tune.json)")
    parser.add_argument("--name", default="tuned", help="the spec's name (default: tuned)")
    parser.add_argument("--file", type=Path, default=None, help="the named-spec file (default: packaged)")
    parser.add_argument("--tune", default=None, help="the tune file to record (default: the one it read)")
    args = parser.parse_args(argv)
    try:
        print(package(args.folder, args.name, args.file, args.tune))
    except SkaldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()

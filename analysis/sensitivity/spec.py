"""The sensitivity file (TOML) and its checks: one ``SkaldError`` line naming the key and what is allowed.

[sensitivity]
name = "mainland"               # letters, digits, - and _ (default output folder results/sensitivity-NAME)
game = "mainland"
players = 4
seed = 42                       # the screen's seed: the common seeds of every point, the design, intervals
budget = 3000                   # games in all (--budget overrides it; it sets the trajectories or samples)
games = 40                      # games per point and strategy table, on the same seeds at every point
seats = "rotate"
method = "morris"               # or "sobol" (scipy.stats.sobol_indices), where the budget allows
levels = 4                      # Morris's grid of p levels (even)
spread = 0.5                    # numbers and scaled tables vary +-50% unless a [[values]] table says
values = "reconstructed"        # every value marked reconstructed (default), or "declared": only [[values]]
exclude = ["board.2", "board.3"]  # names (fnmatch patterns) of reconstructed values left out

[[values]]                      # a range or alternatives for a value (found or not), or a rule switch
path = "board.4"                # name = "...", low/high (numbers: bounds; scaled tables: factors)
low = 0.8                       # or values = [...] (a choice: the alternatives, the packaged one first)
high = 1.2                      # or kind = "rule", rule = "NAME" (values, or low/high for a number)

[[objective]]                   # the verdicts measured: as a tune's (analysis.tune.objectives)
kind = "even_seats"
strategies = ["greedy"]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analysis.data.study_file import read_file
from analysis.sensitivity.screen import HEAD_KEYS, METHODS, VALUE_KEYS, Sensitivity
from analysis.sensitivity.select import select
from analysis.tune.check import check_game
from analysis.tune.reader import Reader
from analysis.tune.spec import head_fields, name_and_rules, objectives, read_doc


def parse(text: str, source: str = "<text>", base: Path | None = None) -> Sensitivity:
    """Parse and check a sensitivity file against its game: nothing is written, nothing played."""
    read = Reader(source, "sensitivity file")
    doc = read_doc(read, text, ("values", "objective"))
    head = read.keys(doc.get("sensitivity"), "sensitivity", HEAD_KEYS)
    spec = _head(read, head, text, base or Path.cwd())
    game = check_game(read, spec)
    declared = doc.get("values", [])
    if not isinstance(declared, list):
        raise read.fail("values must be [[values]] tables")
    select(read, spec, game, [read.keys(v, f"values[{i}]", VALUE_KEYS) for i, v in enumerate(declared)])
    if not spec.parameters:
        raise read.fail("varies no value (every reconstructed value is excluded or has no range: see values)")
    objectives(read, doc, spec)
    return spec


def _head(read: Reader, head: dict[str, Any], text: str, base: Path) -> Sensitivity:
    name, rules = name_and_rules(read, head)
    levels = read.int(head.get("levels", 4), "sensitivity.levels", 2, 20)
    if levels % 2:
        raise read.fail(f"sensitivity.levels must be even (Morris's jump is levels/2), not {levels}")
    exclude = head.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(x, str) for x in exclude):
        raise read.fail("sensitivity.exclude must be a list of value names (patterns such as 'cards.*')")
    return Sensitivity(
        **head_fields(read, head, name, rules, text, base, games=True),
        method=read.str(head.get("method", "morris"), "sensitivity.method", METHODS),
        levels=levels,
        spread=read.number(head.get("spread", 0.5), "sensitivity.spread", 0.01, 0.99),
        mode=read.str(
            head.get("values", "reconstructed"), "sensitivity.values", ("reconstructed", "declared")
        ),
        exclude=list(exclude),
    )


def load_file(path: str | Path) -> Sensitivity:
    """Read and check a sensitivity file."""
    return parse(*read_file(path, "sensitivity file"))


"""Every decision against a margin in a results folder's reports, as a Markdown table: what a study
decides at its size, and about how many games per run would decide the rest if the estimates held.

    .venv/bin/python -m tools.decision_table RESULTS [--games]

``RESULTS`` is a folder holding ``report.json`` files (``skald study --all --out RESULTS`` writes one per
study).  One row per decision (``decision`` set): the study, the game, the metric, its groups, the
decision, the widest (1 − 2α) half-width in points, the games it stands on and, undecided, the games
needed.  ``--games`` adds, per game and metric, the budget per run that would decide every undecided
group of it if the estimates held (its games plus the largest games needed).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.present.findings import Finding, read_findings


def decisions(results: Path) -> list[tuple[str, Finding]]:
    """(the study folder's name, the finding) of every decision in the reports under ``results``."""
    found = []
    for path in sorted(results.rglob("report.json")):
        study = path.parent.name
        found += [(study, f) for f in read_findings(path) if f.decision is not None]
    return found


def groups_words(f: Finding) -> str:
    return ", ".join(f"{k} {v}" for k, v in f.groups.items())


def table(found: list[tuple[str, Finding]]) -> str:
    """The decisions as a Markdown table."""
    lines = [
        "| study | game | question | group | decision | half-width (points) | games | more games to decide |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for study, f in found:
        scale = 100.0 if f.unit in ("share", "difference") else 1.0
        half = "-" if f.half_width is None else f"{scale * f.half_width:.1f}"
        needed = "-" if f.games_needed is None else f"{f.games_needed:,}"
        lines.append(
            f"| {study} | {f.game} | {f.metric} | {groups_words(f)} | {f.decision} | {half} | "
            f"{f.games or 0:,} | {needed} |"
        )
    return "\n".join(lines)


def budgets(found: list[tuple[str, Finding]]) -> str:
    """Per game and question: the decided and undecided groups, and the games per run that would decide
    every undecided one if the estimates held (the group's games plus its games needed, the largest)."""
    rows: dict[tuple[str, str], list[Finding]] = {}
    for _, f in found:
        rows.setdefault((f.game, f.metric), []).append(f)
    lines = [
        "| game | question | decided | undecided | games per run to decide all |",
        "|---|---|---|---|---|",
    ]
    for (game, metric), items in sorted(rows.items()):
        open_ = [f for f in items if f.decision == "undecided"]
        need = [(f.games or 0) + f.games_needed for f in open_ if f.games_needed is not None]
        budget = f"about {max(need):,}" if need else ("-" if not open_ else "not estimable")
        lines.append(f"| {game} | {metric} | {len(items) - len(open_)} | {len(open_)} | {budget} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a folder holding report.json files")
    parser.add_argument("--games", action="store_true", help="add the budget that would decide each question")
    args = parser.parse_args(argv)
    if not args.results.is_dir():
        parser.error(f"{args.results} is not a folder")
    found = decisions(args.results)
    if not found:
        parser.error(f"no report.json with a decision under {args.results}")
    print(table(found))
    if args.games:
        print()
        print(budgets(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

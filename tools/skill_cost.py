"""What a search rung would cost in the skill study, at the sizes the study needed to decide:
``python -m tools.skill_cost STUDY_FOLDER --rung learned --search GAME=SPEC@MS [--search ...]``.

The skill study (``skald study skill``) leaves out the search rungs: a search decision costs tens of
milliseconds to over a second, against a few for the learned player.  This reads a finished study folder
and, per game, puts a search spec in the place of one of its rungs (``--rung``, default ``learned``): every
run that rung played (its mirror and its cells, each at the games it played until decided) is priced at the
search's measured milliseconds per decision (``MS``, from ``python -m tools.search_strength``: the
"Choosing a player" page lists them) for the seats the rung held.  A search rung also needs its own mirror
and cells with every other rung; the rung it stands in for played exactly those, so the sum prices a matrix
with the search in that rung's place, assuming the search's questions need the games the rung's did.

The seats a rung held: all of a mirror's; in a cell, one seat where it sat once, the others where it sat
in them (at two players, one).  Its decisions are the run's decisions per seat (the manifest's totals over
games and players) times those seats.  It prints one line per game: the runs, their games, the search's
decisions, CPU hours, and hours on two cores at full use.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from analysis.questions.skill import cells_of


def priced_runs(folder: Path, rung: str) -> dict[str, list[dict[str, Any]]]:
    """By game: each finished run of ``folder`` that ``rung`` played, with its games, its decisions per seat
    and the seats the rung held."""
    found: dict[str, list[dict[str, Any]]] = {}
    for manifest in sorted(folder.glob("*/manifest.json")):
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        config, totals = doc["config"], doc["totals"]
        strategies = [str(s) for s in config["strategies"]]
        cells = cells_of(strategies)
        if not cells or rung not in strategies or not totals["games"]:
            continue
        players = int(config["players"])
        held = strategies.count(rung)
        found.setdefault(config["game"], []).append(
            {
                "run": manifest.parent.name,
                "players": players,
                "games": int(totals["games"]),
                "per_seat": totals["decisions"] / totals["games"] / players,
                "held": held,
            }
        )
    return found


def cost(runs: list[dict[str, Any]], ms: float) -> dict[str, float]:
    """The runs' games, the rung's decisions in them and their cost at ``ms`` a decision."""
    decisions = sum(r["games"] * r["per_seat"] * r["held"] for r in runs)
    cpu_hours = decisions * ms / 1000 / 3600
    return {
        "runs": len(runs),
        "games": sum(r["games"] for r in runs),
        "decisions": decisions,
        "cpu_hours": cpu_hours,
        "two_core_hours": cpu_hours / 2,
    }


def parse_search(text: str) -> tuple[str, str, float]:
    """``GAME=SPEC@MS`` as (game, spec, ms a decision)."""
    try:
        game, rest = text.split("=", 1)
        spec, ms = rest.rsplit("@", 1)
        value = float(ms)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--search {text!r}: give GAME=SPEC@MS, e.g. mainland=ismcts@95"
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"--search {text!r}: the milliseconds a decision must be above 0")
    return game, spec, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a finished skill study's folder (skald study skill --out)")
    parser.add_argument("--rung", default="learned", help="the rung the search stands in for")
    parser.add_argument("--search", type=parse_search, action="append", required=True,
                        help="GAME=SPEC@MS: a search spec and its measured ms a decision")  # fmt: skip
    args = parser.parse_args(argv)
    if not (args.folder / "study.toml").is_file():
        parser.error(f"{args.folder} holds no study (no study.toml)")
    runs = priced_runs(args.folder, args.rung)
    print("| game | search | ms a decision | runs | games | its decisions | CPU hours | hours on 2 cores |")
    print("|---|---|---|---|---|---|---|---|")
    for game, spec, ms in args.search:
        if game not in runs:
            parser.error(f"the study in {args.folder} has no finished {game} run with {args.rung!r} in it")
        c = cost(runs[game], ms)
        print(
            f"| {game} | `{spec}` | {ms:g} | {c['runs']} | {c['games']:,} | {c['decisions']:,.0f} |"
            f" {c['cpu_hours']:.1f} | {c['two_core_hours']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

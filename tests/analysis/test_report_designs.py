"""Every design reports: mirror matches (one strategy in every seat) are the standard seat-advantage test, and
`skald report` takes them; any mix, player count or number of runs works. A section without enough data says
what is missing instead of failing. These tests run the report over a matrix of designs for every game.

For every registered game: a mirror match at the fewest players with random seats, a rotated mirror
match, two strategies in fixed seats, and the most players with random play; each reported alone, then
all together. Every report writes its page and report.json, answers the seat question in the verdicts,
and no section fails (a section short of data says so, and nothing else is "not available")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analysis.report.report import write_report
from sim.cli import _main
from sim.games import GAMES, get_game
from sim.specs import builtin_names

pytestmark = pytest.mark.slow


GAMES_PER_RUN = 4


def designs(game: str) -> dict[str, list[str]]:
    rules = get_game(game)
    lo, hi = rules.min_players, min(rules.max_players, 5)
    best = next(iter(GAMES[game].strategies), "random")  # the game's own first (greedy for Skald's four)
    other = next(n for n in builtin_names(game) if n not in (best, "ismcts"))
    return {
        "mirror-random-seats": ["--players", str(lo), "--strategies", best, "--seats", "random"],
        "mirror-rotated": ["--players", str(min(lo + 1, hi)), "--strategies", best],
        "two-fixed": [
            "--players",
            str(lo),
            "--strategies",
            ",".join([best, other, best, other][:lo]),
            "--seats",
            "fixed",
        ],
        "most-players-random": ["--players", str(hi), "--strategies", "random"],
    }


#: What a section may say when a small run lacks the data it needs (it must say what is missing).
SHORT_OF_DATA = re.compile(r"Not available from these records: (?!.*(Error|Traceback|index|out of bounds))")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_design_of_every_game_reports(game: str, tmp_path: Path) -> None:
    folders = []
    for name, args in designs(game).items():
        out = tmp_path / name
        code = _main(
            ["run", game, *args, "--games", str(GAMES_PER_RUN), "--jobs", "1", "--quiet", "--out", str(out)]
        )
        assert code == 0, f"{game} {name}: the run failed"
        folders.append(out)
    for folder in [*[[f] for f in folders], folders]:
        label = "all designs" if len(folder) > 1 else folder[0].name
        page = write_report(folder, tmp_path / "reports" / label / "report.html")
        html = page.read_text()
        doc = json.loads(page.with_suffix(".json").read_text())
        assert doc["findings"], f"{game} {label}: no findings"
        verdicts = html[html.index('<section id="verdicts">') :].split("</section>", 1)[0]
        seat_verdict = re.search(r'href="#[^"]*">(Seats|Start positions|Picks)[^<]*</a>:([^<]*)', verdicts)
        assert seat_verdict, f"{game} {label}: no seat verdict"
        assert re.search(r"fair within|unfair|undecided", seat_verdict.group(2), re.I), (
            f"{game} {label}: the seat verdict decides nothing: {seat_verdict.group(2)}"
        )
        for said in re.findall(r"Not available from these records: [^<]*", html):
            assert SHORT_OF_DATA.match(said), f"{game} {label}: {said}"

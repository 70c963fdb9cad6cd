"""The machine-readable findings file: beside each report, report.json holds
every finding the page states. Each finding has game, section, metric, groups, estimate, low, high,
p_value, p_adjusted (null where none), test, games and clusters. The HTML is made from it, so the two
cannot disagree. The verdicts come from the findings of report.json; the verdicts'
container has the id verdicts, and each verdict links to its evidence by href="#...".
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from analysis.present.findings import (
    DECISION_FIELDS,
    DIFFERENCE,
    EQUAL_CHANCES,
    FAIRNESS,
    FIELDS,
    QUESTION_FIELDS,
    WIN_RATE,
    Finding,
    document,
    from_frame,
    read_findings,
)
from analysis.report.report import write_report
from analysis.report.verdicts import verdicts
from sim.cli import _main

pytestmark = pytest.mark.slow

#: the fields every finding has
REQUIRED = "game section metric groups estimate low high p_value p_adjusted test games clusters".split()


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("findings")
    for name, args in {
        "mainland": ["mainland", "--players", "3", "--strategies", "greedy,random,greedy"],
        "knarr": ["knarr", "--players", "2", "--strategies", "greedy,random"],
    }.items():
        assert (
            _main(["run", *args, "--games", "12", "--jobs", "1", "--quiet", "--out", str(root / name)]) == 0
        )
    return write_report([root / "mainland", root / "knarr"], root / "out" / "report.html")


def test_report_json_lies_beside_the_page_with_every_field(written: Path) -> None:
    doc = json.loads(written.with_suffix(".json").read_text())
    assert doc["findings"], "a report of two games states some findings"
    for row in doc["findings"]:
        assert set(REQUIRED) <= set(row), f"finding {row.get('id')} lacks {set(REQUIRED) - set(row)}"
        # a finding a verdict rests on says which question it answers (and about what) after its metric;
        # a decision against a margin (``<position> fairness``) adds its own fields after the rest
        fields = list(FIELDS)
        if "question" in row:
            fields[fields.index("metric") + 1 : fields.index("metric") + 1] = QUESTION_FIELDS
        assert list(row) == fields + (list(DECISION_FIELDS) if "decision" in row else [])
    ids = [row["id"] for row in doc["findings"]]
    assert len(ids) == len(set(ids)), "each number is stated once"
    sections = {s["id"] for s in doc["sections"]}
    assert {row["section"] for row in doc["findings"]} <= sections


def test_every_seat_win_rate_on_the_page_is_a_finding(written: Path) -> None:
    """The seat table's win rates and intervals are the findings' numbers, formatted."""
    html = written.read_text()
    for f in read_findings(written.with_suffix(".json")):
        if f.metric == "seat win rate" and f.section == "mainland-seat-balance":
            cell = f"{100 * f.estimate:.1f}%"
            span = f"[{100 * f.low:.1f}, {100 * f.high:.1f}]%"
            assert re.search(re.escape(cell) + r"</td><td>" + re.escape(span), html), (f.id, cell, span)


def test_every_verdict_links_to_a_section_of_the_page(written: Path) -> None:
    html = written.read_text()
    block = html[
        html.index('<section id="verdicts">') : html.index("</section>", html.index('id="verdicts"'))
    ]
    links = re.findall(r'href="#([^"]+)"', block)
    assert links, "the two games' seat tests give verdicts"
    for target in links:
        assert f'id="{target}"' in html, f"verdict links to #{target}, which the page lacks"
    assert "<h3>Mainland</h3>" in block


def test_nan_becomes_null_and_ids_must_be_unique() -> None:
    f = Finding(game="g", section="s", metric="m", groups={"players": 3.0}, estimate=math.nan, games=4.0)
    assert f.estimate is None and f.games == 4 and f.groups == {"players": 3}
    assert json.loads(json.dumps(document([f])))["findings"][0]["estimate"] is None
    with pytest.raises(ValueError, match="share the id"):
        document([f, f])
    minus = Finding(game="g", section="s", metric="m", groups={"vp": -1})
    assert minus.id != Finding(game="g", section="s", metric="m", groups={"vp": 1}).id


def test_a_verdict_says_which_position_differs_and_the_correction() -> None:
    tests = pl.DataFrame(
        {
            "game": ["graenaland"], "players": [3], "variant": ["defaults"], "max_gap": [0.15],
            "p_value": [0.001], "p_adjusted": [0.003], "test": ["Rao-Scott chi-square"], "decided": [180],
            "blocks": [60], "correction": ["Holm"], "family": [4], "detectable_gap": [0.13],
        }
    )  # fmt: skip
    rates = pl.DataFrame(
        {
            "game": ["graenaland"] * 3, "players": [3] * 3, "variant": ["defaults"] * 3, "seat": [0, 1, 2],
            "win_rate": [0.30, 0.29, 0.41], "ci_low": [0.25, 0.24, 0.36], "ci_high": [0.35, 0.34, 0.46],
            "expected": [1 / 3] * 3,
        }
    )  # fmt: skip
    found = from_frame(
        tests, section="seats", metric="seat equal chances", question=EQUAL_CHANCES, subject="seat",
        groups=("players", "variant"), estimate="max_gap", p_value="p_value", p_adjusted="p_adjusted",
        test="test", games="decided", clusters="blocks", correction="correction", family="family",
        detectable="detectable_gap",
    ) + from_frame(
        rates, section="seats", metric="seat win rate", question=WIN_RATE, subject="seat",
        groups=("players", "variant", "seat"), estimate="win_rate", low="ci_low", high="ci_high",
        expected="expected",
    )  # fmt: skip
    (v,) = verdicts(found, [SimpleNamespace(id="seats")])
    assert v.significant and v.href == "#seats"
    assert v.text == (
        "Seat 2 wins 41% [36, 46] against an even 33% (Holm-adjusted p = 0.003 over 4 tests; "
        "180 games in 60 blocks)."
    )
    quiet = [Finding(**{**f.__dict__, "p_adjusted": 0.4, "p_value": 0.2}) for f in found[:1]] + found[1:]
    (v,) = verdicts(quiet)
    # without a decision against a margin (tests/analysis/test_seat_fairness.py) the verdict says only
    # what the test says, and no longer what gap "would not reliably show", which read as "fair"
    assert not v.significant and v.text == (
        "No seat differs from an even 33% beyond chance (Holm-adjusted p = 0.400 over 4 tests; 180 games "
        "in 60 blocks); the most uneven, seat 2, wins 41% [36, 46]."
    )
    decided = Finding(
        game="graenaland", section="seats", metric="seat fairness", question=FAIRNESS, subject="seat",
        groups=dict(found[0].groups), estimate=0.41, low=0.36, high=0.46, p_value=0.2, games=180,
        clusters=60, family=3, unit="share", expected=1 / 3, decision="undecided", margin=0.05,
        position="2", half_width=0.07, games_needed=900,
    )  # fmt: skip
    (v,) = verdicts([*quiet, decided])
    assert not v.significant and v.text.startswith(
        "Undecided at a 5-point margin: seat shares are known to ±7.0 points; about 900 more games"
    )


def test_a_comparison_verdict_names_only_differences_that_survive_the_correction() -> None:
    """A verdict drawn from several tests (which seat, which group, which metric, which card) uses Holm
    or Benjamini-Hochberg, and says which correction, and how many tests it stands on."""
    groups = {"players": 2, "mix": "greedy + random", "base": "defaults", "value": "skali"}
    common = {
        "game": "knarr", "section": "v", "groups": groups, "correction": "Holm", "family": 2,
        "question": DIFFERENCE,
    }  # fmt: skip
    length = Finding(
        metric="game length difference", subject="game length", estimate=-2.55, low=-2.91, high=-2.19,
        p_value=0.001, p_adjusted=0.002, unit="rounds", **common,
    )  # fmt: skip
    gap = Finding(
        metric="largest seat win-rate gap difference", subject="largest seat win-rate gap", estimate=0.05,
        low=-0.1, high=0.2, p_value=0.03, p_adjusted=0.06, unit="difference", **common,
    )  # fmt: skip
    (v,) = verdicts([length, gap], [SimpleNamespace(id="v")])
    assert v.significant and v.href == "#v" and v.heading.startswith("skali against defaults")
    assert v.text == (
        "1 of 2 metrics differ after Holm's correction over 2 metrics: game length -2.55 [-2.91, -2.19] "
        "rounds (Holm-adjusted p = 0.002)."
    )
    (v,) = verdicts([gap], [SimpleNamespace(id="v")])
    assert not v.significant and v.text == "No difference survives Holm's correction over 2 metrics."


def test_verdicts_name_variants_by_their_study_labels(tmp_path: Path) -> None:
    """Study labels ("strict"/"loose") are used instead of castle_needs_overlap=false vs defaults."""
    spec = tmp_path / "tiny.toml"
    spec.write_text(
        '[study]\nname = "tiny"\ntitle = "Tiny"\ngames = 8\nseed = 1\njobs = 1\n\n'
        '[[runs]]\ngame = "knarr"\nplayers = 2\nstrategies = ["collector"]\n'
        'variants = [{ label = "plain", skali = false }, { label = "longhouse", skali = true }]\n'
    )
    assert _main(["study", "--file", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    block = html[html.index('<section id="verdicts">') :].split("</section>", 1)[0]
    assert "Longhouse against plain" in block and "skali=true" not in block

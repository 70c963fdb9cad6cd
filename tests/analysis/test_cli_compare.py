"""`skald compare`, the one-command comparison: `skald compare RUN_A RUN_B [...] [-o FILE]`
(options as `skald report`) writes a report of two rule sets or strategy mixes: every metric's
difference, paired where the runs share seeds, with the verdict first. It is the A/B a designer wants
without writing a study file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sim.cli import _main
from tests.cli_kit import cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("compare")
    specs = {
        "base": ["knarr", "--players", "2", "--strategies", "greedy,collector"],
        "skali": ["knarr", "--players", "2", "--strategies", "greedy,collector", "--rule", "skali=true"],
        "traders": ["knarr", "--players", "2", "--strategies", "trader,collector"],
        "mainland": ["mainland", "--players", "2"],
    }
    for name, args in specs.items():
        assert (
            _main(["run", *args, "--games", "16", "--jobs", "1", "--quiet", "--out", str(root / name)]) == 0
        )
    return {name: root / name for name in specs}


def test_compare_two_rule_sets_puts_the_comparison_first(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "compare", str(runs["base"]), str(runs["skali"]))
    page = runs["base"] / "compare.html"
    assert code == 0 and out.strip() == f"report: {page}"
    html = page.read_text()
    verdicts = html[html.index('<section id="verdicts">') :].split("</section>", 1)[0]
    first = re.search(r'<li[^>]*><a href="#([^"]+)">([^<]+)</a>', verdicts)
    assert first and first.group(1) == "knarr-comparison" and first.group(2).startswith("Skali against base")
    doc = json.loads(page.with_suffix(".json").read_text())
    compared = [f for f in doc["findings"] if f["section"] == "knarr-comparison"]
    assert {f["metric"] for f in compared} >= {
        "game length difference",
        "largest seat win-rate gap difference",
    }
    differences = [f for f in compared if f["metric"].endswith(" difference")]
    assert all(f["p_adjusted"] is not None and f["correction"] == "Holm" for f in differences)
    change = [f for f in compared if f["metric"] == "seat fairness change"]
    assert len(change) == 1 and change[0]["decision"] in ("holds", "changes", "undecided")
    assert change[0]["margin"] == 0.05
    sides = {f["groups"]["side"]: f["decision"] for f in compared if f["metric"] == "seat fairness"}
    assert set(sides) == {change[0]["groups"]["base"], change[0]["groups"]["value"]}
    assert all(f["clusters"] == 8 for f in differences)  # 16 games = 8 rotation blocks a side, paired by seed
    assert change[0]["clusters"] == 16  # the change decision takes the two sides' blocks as independent


def test_compare_strategy_mixes(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "mixes.html"
    assert cli(capsys, "compare", str(runs["base"]), str(runs["traders"]), "-o", str(target))[0] == 0
    assert "traders against base" in target.read_text()


@pytest.mark.parametrize(
    ("which", "message"),
    [
        (["base"], "compare needs two or more runs, found 1"),
        (["base", "mainland"], "compare needs runs of one game, found knarr, mainland"),
    ],
)
def test_compare_refuses_what_it_cannot_compare(
    runs: dict[str, Path], tmp_path: Path, which: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "compare", *[str(runs[w]) for w in which], "-o", str(tmp_path / "x.html"))
    assert code == 2 and err.strip() == f"error: {message}"
    assert not list(tmp_path.iterdir()), "nothing half-written"

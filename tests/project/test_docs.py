"""The documentation: ``mkdocs build --strict`` builds the site with every registered game and
rule switch on its generated pages; the worked example of "Writing a strategy" beats ``random``; every
Python block of that page runs; ``skald strategies GAME`` gives each strategy's whole description in plain
words with its parameters, defaults and values."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_kit import cli

from sim.plugin import registered

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "writing-a-strategy.md"
EXAMPLE = ROOT / "docs" / "examples" / "margin.py"


def python_blocks(path: Path) -> list[str]:
    """The fenced ```python blocks of a Markdown page, in order."""
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None, reason="mkdocs is not installed ([docs] extra)"
)
def test_the_site_builds_strict_and_names_every_game_and_rule_switch(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    index = (site / "games" / "index.html").read_text(encoding="utf-8")
    for name, plugin in registered().items():
        assert f"<code>{name}</code>" in index, name
        page = (site / "games" / name / "index.html").read_text(encoding="utf-8")
        for switch in plugin.load_game().rule_switches:
            assert f"<code>{switch.name}</code>" in page, (name, switch.name)
        for section in ("records", "strategy"):
            assert (site / section / name / "index.html").is_file(), (section, name)
    mainland = (site / "strategy" / "mainland" / "index.html").read_text(encoding="utf-8")
    assert "hand_index" in mainland and "MainlandView" in mainland and "dtype" in mainland
    # a small picture in the docs: each game's picture, drawn at build time
    pictures = (site / "pictures" / "index.html").read_text(encoding="utf-8")
    for name, plugin in registered().items():
        if plugin.picture:
            svg = (site / "pictures" / f"{name}.svg").read_text(encoding="utf-8")
            assert svg.startswith("<svg") and 'class="piece' in svg, name
            assert f"{name}.svg" in pictures, name


def test_the_worked_example_is_the_file_the_page_shows() -> None:
    assert any(block == EXAMPLE.read_text(encoding="utf-8") for block in python_blocks(PAGE))


def test_every_python_block_of_the_strategy_page_runs(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.chdir(ROOT)
    blocks = python_blocks(PAGE)
    assert len(blocks) >= 3
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"{PAGE.name} block {number}", "exec"), {"__name__": f"docs_block_{number}"})
        except Exception as exc:  # name the block that failed
            pytest.fail(f"block {number} of {PAGE.name} raised {type(exc).__name__}: {exc}")
    assert "MainlandView" in capsys.readouterr().out


def test_the_worked_example_beats_random_beyond_a_fair_share(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two players, seats rotated over 60 deals: a fair share is 1/2; the 95% interval's lower end must
    lie above it (measured: 0.92 of 40 games, interval 0.79-0.98)."""
    from analysis.questions.win_rates import strategy_win_rates
    from sim.runner import RunConfig, run

    monkeypatch.syspath_prepend(str(ROOT))
    spec = "docs.examples.margin:MarginStrategy"
    run(
        RunConfig(
            game="mainland",
            players=2,
            games=60,
            strategies=[spec, "random"],
            seats="rotate",
            jobs=1,
            seed=11,
            progress=False,
            out=tmp_path / "run",
        )
    )
    rates = {row["strategy"]: row for row in strategy_win_rates(tmp_path / "run").to_dicts()}
    assert rates[spec]["games"] == 60 and rates[spec]["ci_low"] > 1 / 2, rates[spec]


@pytest.mark.parametrize("game", sorted(registered()))
def test_strategies_prints_whole_plain_descriptions_and_parameters(game: str, capsys) -> None:
    from sim.specs import builtin_names, parameters, parse_spec
    from sim.strategy import describe

    code, out, _ = cli(capsys, "strategies", game)
    assert code == 0
    flat = " ".join(out.split())
    for name in builtin_names(game):
        cls = parse_spec(name, game).cls
        text = describe(cls)
        assert text.endswith(".") and len(text) > 40, (name, text)
        assert "``" not in text and not re.search(r"\.(txt|py|md)\b", text), (name, text)
        assert text in flat, f"{name}: the whole description is not printed"
        for p in parameters(cls, game):  # a game's own search defaults (GamePlugin.search) shown
            assert f"{p.name}={p.default}: {p.kind}, {p.values}" in flat, (name, p)

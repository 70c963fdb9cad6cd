"""Charts a designer can read: each strategy keeps one colour through the whole report, and colours are
unique within a legend (elder and cooperative once shared orange, greedy and planner green). Effect
charts colour by the adjusted test (every rule-variant point was once red, even at p = 1.000)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl
import pytest

from analysis.present import charts


def test_every_built_in_strategy_has_its_own_colour_in_every_chart() -> None:
    names = charts.known_strategies()
    assert {"greedy", "planner", "elder", "cooperative", "collector", "random"} <= set(names)
    everyone = charts.strategy_colours(names)
    assert len(set(everyone.values())) == len(names), "no two strategies share a colour"
    for subset in (["elder", "cooperative"], ["greedy", "planner"], ["random", "greedy", "builder"]):
        assert charts.strategy_colours(subset) == {n: everyone[n] for n in subset}


def test_unknown_names_take_unused_colours() -> None:
    colours = charts.strategy_colours(["greedy", "my.module:Bot", "greedy:depth=2", "other"])
    assert len(set(colours.values())) == 4
    assert colours["greedy"] == charts.strategy_colours(["greedy"])["greedy"]


def test_another_installed_plug_in_moves_no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same records give the same charts whatever else is installed: a game plug-in registered
    before Skald's own, with strategies of its own, leaves every colour as it was (built-in strategies
    and names no game knows)."""
    import dataclasses

    from sim import specs
    from sim.games import GAMES

    names = ["greedy", "elder", "collector", "random", "my.module:Bot", "other"]
    before = charts.strategy_colours(names)
    extra = dataclasses.replace(GAMES["mainland"], name="aaa", game="aaa_plugin.game:GAME")
    monkeypatch.setattr(charts, "GAMES", {"aaa": extra, **GAMES})
    real = specs.builtin_names
    monkeypatch.setattr(specs, "builtin_names", lambda g: ["blocker", "zz"] if g == "aaa" else real(g))
    assert charts.known_strategies()[-2:] == ["blocker", "zz"]
    assert charts.strategy_colours(names) == before


def _point_colours(fig: plt.Figure) -> list[tuple[float, ...]]:
    return [tuple(line.get_color()) for ax in fig.axes for line in ax.lines if line.get_marker() == "o"]


def test_effects_are_red_only_where_the_adjusted_test_rejects() -> None:
    frame = pl.DataFrame(
        {
            "metric": ["balance_gap", "truncated_rate"], "players": [3, 3], "mix": ["a", "a"],
            "diff": [0.05, 0.01], "diff_low": [0.01, -0.02], "diff_high": [0.09, 0.04],
            "p_value": [0.01, 0.04], "p_adjusted": [0.02, 0.08],
        }
    )  # fmt: skip
    fig = charts.effects(frame, {})
    red, grey = tuple(charts.COLORS[3]), tuple(charts.COLORS[7])
    assert sorted(_point_colours(fig)) == sorted([red, grey])
    plt.close(fig)


def test_grouped_means_labels_do_not_collide_and_numbers_sort_by_value() -> None:
    """'No colliding labels (... Knarr: two x labels both "winner minus ...")'."""
    groups = ["winner minus last", "winner's margin", "winning score"]
    frame = pl.DataFrame(
        {
            "players": [p for p in (2, 3, 4) for _ in groups], "spread": groups * 3,
            "series": ["base"] * 9, "mean": [10.0, 9.0, 44.0] * 3, "low": [8.0, 7.0, 42.0] * 3,
            "high": [12.0, 11.0, 46.0] * 3,
        }
    )  # fmt: skip
    fig = charts.grouped_means(frame, "spread", "series", "points", "spreads")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert left.x1 < right.x0, "neighbouring tick labels overlap"
    plt.close(fig)
    assert charts._ordered([-1, -3, 2, 0]) == [-3, -1, 0, 2]

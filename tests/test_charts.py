"""Charts a designer can read (issue 16): "Each strategy keeps one colour through the whole report, and
colours are unique within a legend (today elder and cooperative share orange, greedy and planner
green). Effect charts colour by the adjusted test (today every rule-variant point is red, even at
p = 1.000)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl

from analysis import charts


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

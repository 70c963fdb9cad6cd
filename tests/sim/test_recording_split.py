"""tools/recording_split.py (its account of what recording costs): its parts add up to the
recorded pass's extra time, and the share it prints is the one ``skald bench`` defines."""

from __future__ import annotations

import pytest

from tools import recording_split


@pytest.fixture(scope="module")
def found() -> dict:
    return recording_split.split("mainland", "random", games=3, repeats=2)


def test_parts_are_the_five_named_and_cost_something(found: dict) -> None:
    assert set(found["parts_us"]) == set(recording_split.PARTS)
    assert found["decisions"] > 0 and found["bare_us"] > 0
    for part in ("record", "tables", "parquet"):  # each of these does real work on every chunk
        assert found["parts_us"][part] > 0, part


def test_share_is_one_minus_bare_over_recorded(found: dict) -> None:
    recorded = found["bare_us"] + sum(found["parts_us"].values())
    assert found["recording_cost"] == pytest.approx(1 - found["bare_us"] / recorded)
    assert sum(found["share"].values()) == pytest.approx(found["recording_cost"])


def test_timed_game_hands_back_what_the_game_records() -> None:
    from sim.plan import resolve_game
    from sim.runner import make_plan

    plan, _ = make_plan("mainland", 2, ["random"], seats="fixed", seed=1)
    game = resolve_game(plan.game_ref)
    timed = recording_split.Timed(game)
    state = game.new_state(2, plan.rules, plan.data, 7)
    seat = game.to_move(state)[0]
    option = game.legal_options(state, seat)[0]
    assert timed.record(state, seat, option) == game.record(state, seat, option)
    assert timed.scores(state) == game.scores(state)
    assert timed.calls == {"record": 1, "scores": 1}
    assert timed.name == game.name  # everything else is the game's


def test_bad_arguments_say_how_to_call_it() -> None:
    with pytest.raises(SystemExit, match="usage"):
        recording_split.main([])

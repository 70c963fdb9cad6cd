"""``sim.testing.check_game`` finds each way a game can break the protocol (each assertion carries a
message): broken variants of the toy game (``tests/toy_game.py``)
each fail with a message naming the game and what broke, and the toy game itself passes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sim.errors import IllegalChoice
from sim.game import Result
from sim.testing import ConformanceError, check_game
from tests.toy_game import GAME, BidState, BidView, SecretBid


class Toy(SecretBid):
    """The toy game with the ``copy`` the protocol asks for (the toy leaves it out)."""

    def copy(self, state: BidState) -> BidState:
        return self.from_dict(self.to_dict(state))


TOY = Toy()


def test_a_game_without_a_protocol_method_is_named_with_it() -> None:
    with pytest.raises(
        ConformanceError, match=r"'secretbid': does not follow sim.game.Game: missing \['copy'\]"
    ):
        check_game(GAME, jobs=False)


def test_the_toy_game_passes_and_the_report_names_every_step() -> None:
    report = check_game(TOY, players=(2, 3), jobs=False)
    assert report.game == "secretbid"
    assert report.skipped == {"jobs": "jobs=False", "evaluate": "secretbid declares no evaluate(state, seat)"}
    assert report.checked["playouts"] == 2 * 2  # two seeds at 2 and 3 players
    for step in (
        "declaration",
        "options",
        "illegal",
        "hidden",
        "hidden changed",
        "seeds",
        "snapshot",
        "copy",
    ):
        assert report.checked.get(step, 0) > 0, step


class NoOptionsInRound2(Toy):
    def legal_options(self, state: BidState, seat: int) -> tuple[int, ...]:
        return () if state.round == 2 else super().legal_options(state, seat)


class ShortRecord(Toy):
    def record(self, state: BidState, seat: int, option: Any) -> tuple[str, tuple[int, ...]]:
        return "bid", (int(option),)


class MissingPart(Toy):
    def result(self, state: BidState) -> Result:
        result = super().result(state)
        for parts in result.parts:
            del parts["cards_left"]
        return result


class ChangesBeforeRefusing(Toy):
    def apply(self, state: BidState, choices: dict[int, Any]) -> None:
        state.round += 1
        try:
            super().apply(state, choices)
        except IllegalChoice:
            raise
        state.round -= 1


class AcceptsAnything(Toy):
    def apply(self, state: BidState, choices: dict[int, Any]) -> None:
        legal = {s: c if c in state.hands[s] else state.hands[s][0] for s, c in choices.items()}
        super().apply(state, legal)


class LeakyView(Toy):
    """The view shows every hand (what determinize resamples)."""

    def view(self, state: BidState, seat: int) -> tuple[BidView, tuple[tuple[int, ...], ...]]:
        return super().view(state, seat), tuple(tuple(h) for h in state.hands)


class GlobalRandom(Toy):
    def new_state(self, n_players: int, rules: dict[str, Any], data: Any, seed: int) -> BidState:
        random.random()
        return super().new_state(n_players, rules, data, seed)


class SharedCopy(Toy):
    def copy(self, state: BidState) -> BidState:
        new = super().copy(state)
        new.points = state.points
        return new


class Evaluates(Toy):
    """A cut search playout judged by the seat's share of the points so far."""

    def evaluate(self, state: BidState, seat: int) -> float:
        total = sum(state.points)
        return state.points[seat] / total if total else 1.0 / len(state.points)


class EvaluatesOutOfRange(Toy):
    def evaluate(self, state: BidState, seat: int) -> float:
        return float(sum(state.points) + 2)


def test_a_declared_evaluate_is_probed() -> None:
    report = check_game(Evaluates(), players=(2, 3), jobs=False)
    assert report.checked.get("evaluate", 0) > 0 and "evaluate" not in report.skipped


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (
            NoOptionsInRound2(),
            r"secretbid \(2 players, seed 1\), decision 2: seat 0 is to move but has no options",
        ),
        (ShortRecord(), r"decision 0: record gave 1 fields for 2 action_fields"),
        (MissingPart(), r"seat 0's result parts: missing \['cards_left'\]"),
        (ChangesBeforeRefusing(), r"the refused option .* changed the state"),
        (AcceptsAnything(), r"apply accepted seat 0's option"),
        (LeakyView(), r"determinize for seat \d: the seat's view changed"),
        (GlobalRandom(), r"the game drew from a global random generator"),
        (SharedCopy(), r"copy shares mutable objects with the original: \['points'\]"),
        (EvaluatesOutOfRange(), r"evaluate for seat 0: gave \d+\.0, not in \[0, 1\]"),
    ],
    ids=lambda x: type(x).__name__ if isinstance(x, SecretBid) else "",
)
def test_a_broken_game_fails_with_a_message_naming_what_broke(game: SecretBid, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(game, players=(2, 3), jobs=False)


def test_the_jobs_step_runs_the_game_in_two_worker_processes() -> None:
    report = check_game(TOY, players=2, seeds=(1,))
    assert report.checked["jobs"] == 1 and "jobs" not in report.skipped


def test_every_player_count_is_played_by_default() -> None:
    """The toy deals 4 cards each from 12: at its maximum of 4 players a seat is dealt none."""
    with pytest.raises(
        ConformanceError, match=r"secretbid \(4 players, seed 1\), decision 0: seat 3 .* no options"
    ):
        check_game(TOY, jobs=False)

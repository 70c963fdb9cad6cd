"""``learned``, the one-ply player with a fitted judge (``strategies.learned``), in every game with a packaged
model: it only ever plays legal options, a game with it is a function of its seed, its choices do not depend
on what its seat cannot see, its parameters are checked, and ``ismcts:judge=learned`` judges a cut playout
with the same model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sim.errors import SkaldError
from sim.games import GAMES, get_game
from sim.play import play_game
from sim.rules import resolve
from sim.search import SearchContext, option_key, rewards
from sim.specs import builtin_names, parse_spec
from strategies import value_model
from strategies.ismcts import ISMCTSStrategy
from strategies.learned import LearnedStrategy, pick
from tests.play_kit import seeded_states

OURS = sorted(name for name, plugin in GAMES.items() if plugin.game.startswith("sim.games."))


def _players(name: str) -> int:
    game = get_game(name)
    return min(max(game.min_players, 3), game.max_players) if name != "greenland" else 2


def _legal(game: Any, state: Any, seat: int, choice: Any) -> bool:
    """Whether ``choice`` is one of the seat's options, or (an option written otherwise, as a scripted
    strategy may give it) one the game applies without complaint."""
    if option_key(choice) in {option_key(o) for o in game.legal_options(state, seat)}:
        return True
    trial = game.copy(state)
    movers = game.to_move(trial)
    others = {s: game.legal_options(trial, s)[0] for s in movers if s != seat}
    game.apply(trial, {**others, seat: choice})
    return True


def _play(name: str, seed: int) -> list[str]:
    """One game with ``learned`` in seat 0 and greedy in the others: learned's choices, each checked legal."""
    game = get_game(name)
    players = _players(name)
    specs = [parse_spec("learned", name)] + [parse_spec("greedy", name)] * (players - 1)
    seen: list[str] = []

    def observe(state: Any, choices: Any) -> None:
        if choices and 0 in choices:
            assert _legal(game, state, 0, choices[0])
            choice = choices[0]
            seen.append(repr(choice.tolist() if isinstance(choice, np.ndarray) else choice))

    outcome = play_game(
        game,
        players,
        resolve(game, {}),
        game.load_data(None),
        seed,
        specs,
        game.default_max_decisions,
        observe=observe,
    )
    assert outcome.result is not None and not outcome.truncated
    assert outcome.search[0]["decisions"] > 0  # telemetry: decisions judged
    return seen


def test_learned_plays_every_game_with_a_packaged_model() -> None:
    assert set(LearnedStrategy.games) == set(OURS) == set(value_model.packaged_games())
    for name in OURS:
        assert "learned" in builtin_names(name)
        assert parse_spec("learned", name).cls is LearnedStrategy


@pytest.mark.parametrize("name", OURS)
def test_learned_plays_legal_options_and_the_same_game_for_the_same_seed(name: str) -> None:
    first = _play(name, seed=21)
    assert len(first) > 5
    assert _play(name, seed=21) == first


def _states(name: str, players: int, seed: int, every: int) -> list[Any]:
    """Copies of the states of one seeded random game, every ``every`` decision points."""
    return seeded_states(name, players, seed, every)


def _same(a: Any, b: Any) -> bool:
    """Equality that also holds numpy arrays (snapshots may carry them)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


class Spy(LearnedStrategy):
    """``learned`` keeping a snapshot of every state it judges."""

    def __init__(self, *args: Any, **params: Any) -> None:
        super().__init__(*args, **params)
        self.judged: list[dict[str, Any]] = []

    def _worth(self, game: Any, state: Any, n: int) -> float:
        self.judged.append(game.to_dict(state))
        return super()._worth(game, state, n)


@pytest.mark.parametrize("name", OURS)
def test_learned_judges_and_chooses_the_same_whatever_its_seat_cannot_see(name: str) -> None:
    """The true state and another that differs only in what the seat cannot see (a determinization of it)
    give the same choice, and the same states judged, for the same generator: learned reads its view and
    states drawn from it, never the truth (a player judging the true state would judge other states)."""
    game = get_game(name)
    checked = 0
    for state in _states(name, _players(name), seed=40, every=11):
        movers = game.to_move(state)
        if not movers:
            continue
        seat = movers[checked % len(movers)]
        if len(game.legal_options(state, seat)) < 2:
            continue
        other = game.determinize(state, seat, np.random.default_rng(7))
        picks, judged = [], []
        for truth in (state, other):
            player = Spy(seat, np.random.default_rng(3), samples="2", margin="0")
            player.attach(SearchContext(game, seat, truth))
            choice = player.choose(game.view(truth, seat), game.legal_options(truth, seat))
            picks.append(repr(choice.tolist() if isinstance(choice, np.ndarray) else choice))
            judged.append(player.judged)
        assert picks[0] == picks[1], f"{name}: learned chose by what seat {seat} cannot see"
        if judged[0]:
            assert _same(judged[0], judged[1]), f"{name}: learned judged what seat {seat} cannot see"
            checked += 1
        if checked >= 6:
            break
    assert checked >= 3, f"{name}: too few decisions judged"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("learned:samples=0", "samples must be at least 1"),
        ("learned:width=-1", "width must be at least 0"),
        ("learned:margin=-0.1", "margin must be at least 0"),
        ("learned:follow=-2", "follow must be at least 0"),
        ("learned:reward=score", "reward must be one of win, rank"),
        ("learned:model=/no/such/model.json", "no fitted judge of knarr"),
        ("ismcts:judge=oracle", "judge takes learned or empty"),
    ],
)
def test_bad_parameters_are_refused(spec: str, words: str) -> None:
    with pytest.raises(SkaldError, match=words):
        parse_spec(spec, "knarr")


def test_the_scripted_choice_is_kept_unless_beaten_by_more_than_the_margin() -> None:
    assert pick([0.50, 0.51, 0.49], margin=0.02) == 0
    assert pick([0.50, 0.53, 0.49], margin=0.02) == 1
    assert pick([0.50, 0.53, 0.53], margin=0.0) == 1  # a tie goes to the earlier in the ranking
    assert pick([float("-inf"), 0.1], margin=0.5) == 1  # the scripted choice allowed by no sample


@pytest.mark.parametrize("name", ["knarr", "greenland"])
def test_ismcts_judges_a_cut_playout_with_the_learned_model_only_when_asked(name: str) -> None:
    game = get_game(name)
    players = _players(name)
    state = next(s for s in _states(name, players, seed=5, every=9)[2:] if not game.is_terminal(s))
    model = value_model.load(name)
    assert model is not None
    default = ISMCTSStrategy(0, np.random.default_rng(1))
    assert default.judge == "" and default._rewards(game, state, players) == rewards(
        game, state, players, "score"
    )
    judged = ISMCTSStrategy(0, np.random.default_rng(1), judge="learned", reward="win")
    assert judged._rewards(game, state, players) == pytest.approx(model.utilities(state, players, "win"))
    seat = game.to_move(state)[0]
    search = ISMCTSStrategy(seat, np.random.default_rng(2), judge="learned", depth="3", iterations="6")
    search.attach(SearchContext(game, seat, state))
    options = game.legal_options(state, seat)
    choice = search.choose(game.view(state, seat), options)
    assert option_key(choice) in {option_key(o) for o in options}


@pytest.mark.parametrize("name", ["knarr", "graenaland"])
def test_one_and_two_workers_write_the_same_records(name: str, tmp_path: Any) -> None:
    """A run is a function of its seed and configuration: the learned player (and the tuned one beside
    it) write the same records with one worker and with two."""
    import polars as pl

    from sim.cli import _main

    for jobs in ("1", "2"):
        args = ["run", name, "-p", "4", "-s", "learned,tuned,greedy,random", "-g", "6", "--seed", "5"]
        assert _main([*args, "-j", jobs, "-q", "-o", str(tmp_path / jobs)]) == 0
    for table in ("games", "seats", "turns"):
        one, two = (pl.read_parquet(tmp_path / jobs / table) for jobs in ("1", "2"))
        assert one.height > 0 and one.equals(two), table

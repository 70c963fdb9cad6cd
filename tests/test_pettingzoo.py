"""The PettingZoo AEC environment (issue 22): PettingZoo's own API and seed tests for every game that
declares ``spaces`` at every player count, masks equal to the legal options, observations a function of
the view, a masked-random episode to its end, and the one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import sim.pettingzoo as pz
from sim.errors import SkaldError
from sim.plugin import registered
from sim.rl.spaces import declares_spaces, load_spaces
from tests.play_kit import random_choices

GAMES = [name for name, p in registered().items() if declares_spaces(p)]
_RULES = {name: registered()[name].load_game() for name in GAMES}
CASES = [(name, n) for name in GAMES for n in range(_RULES[name].min_players, _RULES[name].max_players + 1)]


def test_all_four_games_declare_spaces() -> None:
    assert {"mainland", "knarr", "greenland", "graenaland"} <= set(GAMES)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players"), CASES)
def test_api_and_seed(game: str, players: int) -> None:
    api_test(pz.env(game, players=players), num_cycles=8)
    seed_test(lambda: pz.env(game, players=players), num_cycles=8)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_mask_is_exactly_the_legal_options(game: str, players: int) -> None:
    """Over random states: one distinct number per legal option, the mask those numbers, and each number
    decoding back to its own option."""
    env = pz.raw_env(game, players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        seat = int(env.agent_selection.split("_")[1])
        options = env.game.legal_options(env.state, seat)
        mask = env.observe(env.agent_selection)["action_mask"]
        codes = env.spaces.encode(options, env.game.view(env.state, seat))
        assert mask.sum() == len(options) == len(set(codes.tolist()))
        assert set(np.flatnonzero(mask).tolist()) == set(codes.tolist())
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("game", GAMES)
def test_observation_is_a_function_of_the_view(game: str) -> None:
    """Two states differing only in what the seat cannot see (``determinize``) observe alike."""
    g = registered()[game].load_game()
    spaces = load_spaces(registered()[game])
    rng = np.random.default_rng(1)
    state = g.new_state(g.max_players, {}, g.load_data(None), 5)
    for step in range(60):
        if g.is_terminal(state):
            break
        for seat in range(g.max_players):
            other = g.determinize(state, seat, np.random.default_rng(step))
            mine = spaces.observe(g.view(state, seat))
            assert mine.shape == tuple(spaces.SHAPE)
            np.testing.assert_array_equal(mine, spaces.observe(g.view(other, seat)))
        g.apply(state, random_choices(g, state, rng))


@pytest.mark.parametrize("game", GAMES)
def test_random_episode_ends_with_the_games_result(game: str) -> None:
    env = pz.raw_env(game, players=registered()[game].load_game().min_players)
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    result = env.game.result(env.state)
    assert env.game.is_terminal(env.state)
    assert env.result.scores == result.scores and env.result.winners == result.winners
    assert rewards == {f"seat_{s}": (1 / len(result.winners) if s in result.winners else 0.0)
                       for s in range(env.n)}


def test_same_seed_is_the_runners_game() -> None:
    """reset(seed=s) starts base game 0 of `skald run --seed s` (sim.seeding)."""
    from sim.seeding import game_seed, state_seed, streams

    env = pz.raw_env("mainland", players=2)
    env.reset(seed=9)
    g = env.game
    expected = g.new_state(2, env.rules, env.data, state_seed(streams(game_seed(9, 0), 2)[0]))
    assert g.to_dict(env.state) == g.to_dict(expected)


def test_rules_switch_and_truncation() -> None:
    env = pz.raw_env("mainland", players=2, rules={"castle_needs_overlap": "false"}, max_decisions=3)
    assert env.rules["castle_needs_overlap"] is False
    env.reset(seed=1)
    cut = set()
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if truncated:
            cut.add(agent)
        assert not terminated
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.decisions == 3 and cut == set(env.possible_agents)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "chess", "players": 2}, "unknown game 'chess'"),
    ({"game": "mainland", "players": 7}, "mainland is played by 2 to 4 players, not 7"),
    ({"game": "mainland", "players": 2, "rules": {"nope": 1}}, "unknown rule 'nope'"),
])
def test_bad_arguments_are_one_line_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(SkaldError, match=message) as info:
        pz.env(**kwargs)
    assert "\n" not in str(info.value)


def test_example_runs() -> None:
    script = Path(__file__).resolve().parent.parent / "examples" / "pettingzoo_random.py"
    out = subprocess.run([sys.executable, str(script), "1"], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    assert all(f"{name} (" in out for name in GAMES)

"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game that
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
#: the switches that change the option lists and the observation: Knarr's expansions (knarr.md A.7,
#: knarr-skali-expansion.txt), Graenaland's advanced rules (graenaland.txt:257-316)
RULE_CASES = [
    *[("knarr", n, {"skali": True, "artifacts": True, "helmet": "cover"}) for n in (2, 3, 4)],
    *[("graenaland", n, {"custom_start": True, "victory_cards": True, "five_player_offer": True})
      for n in (3, 5)],
]


def test_all_four_games_declare_spaces() -> None:
    assert {"mainland", "knarr", "greenland", "graenaland"} <= set(GAMES)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players"), CASES)
def test_api_and_seed(game: str, players: int) -> None:
    api_test(pz.env(game, players=players), num_cycles=8)
    seed_test(lambda: pz.env(game, players=players), num_cycles=8)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "players", "rules"), RULE_CASES)
def test_api_and_seed_with_rule_switches(game: str, players: int, rules: dict) -> None:
    api_test(pz.env(game, players=players, rules=rules), num_cycles=8)
    seed_test(lambda: pz.env(game, players=players, rules=rules), num_cycles=8)


@pytest.mark.parametrize(("game", "players", "rules"), RULE_CASES)
def test_rule_switch_episode_observes_every_view(game: str, players: int, rules: dict) -> None:
    """A masked-random episode under the switches to its end: every view fits the observation's room
    (Graenaland's victory cards: 5 goals x 3 levels, graenaland.txt:279) and every option list its blocks."""
    env = pz.raw_env(game, players=players, rules=rules)
    env.reset(seed=5)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert obs["observation"].shape == tuple(env.spaces.SHAPE)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.is_terminal(env.state) or env.decisions >= env.max_decisions


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
    script = Path(__file__).resolve().parents[2] / "examples" / "pettingzoo_random.py"
    out = subprocess.run([sys.executable, str(script), "1"], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    assert all(f"{name} (" in out for name in GAMES)


def _bounded_option(game: str) -> tuple[str, object]:
    """One option of a bounded (ranked) block of ``game``, with its block's kind."""
    from sim.games.graenaland.options import Pay
    from sim.games.greenland.state import Option

    return {
        "knarr": ("explore0", ("explore", 0, (), ())),
        "greenland": ("move", Option("move", 0, 1, 0)),
        "graenaland": ("Pay", Pay((1, 0, 0, 0, 0), (), 0)),
    }[game]


@pytest.mark.parametrize("game", ["knarr", "greenland", "graenaland"])
def test_passing_a_measured_bound_is_a_one_line_error(game: str) -> None:
    """More legal options of a ranked kind than its block holds: a one-line SkaldError naming the game,
    the kind and the cap (the caps are measured by tools/option_bounds.py, not proven)."""
    spaces = load_spaces(registered()[game])
    kind, option = _bounded_option(game)
    cap = spaces.ACTION_CODEC.blocks[kind][1].size
    assert spaces.ACTION_CODEC.blocks[kind][1].index is None
    spaces.ACTION_CODEC.encode([option] * cap, None)  # at the cap: still numbered (0..cap-1)
    with pytest.raises(SkaldError) as info:
        spaces.ACTION_CODEC.encode([option] * (cap + 1), None)
    message = str(info.value)
    assert message.startswith(f"{game}: ") and f"{kind!r}" in message and f"more than {cap} " in message
    assert "\n" not in message


def _simultaneous_prefixes(game: str, players: int, seed: int, wanted: int) -> list[list[int]]:
    """Masked-random action sequences from ``reset(seed)`` to each of the first ``wanted`` decision points
    with several movers where the first mover has at least two legal actions."""
    env, rng = pz.raw_env(game, players=players), np.random.default_rng(seed)
    env.reset(seed=seed)
    taken: list[int] = []
    found: list[list[int]] = []
    while len(found) < wanted and not (env.terminations[env.agent_selection]
                                       or env.truncations[env.agent_selection]):
        movers = env.game.to_move(env.state)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        opening = not env._choices
        if opening and len(movers) > 1 and len(legal) > 1:
            found.append(list(taken))
        taken.append(int(rng.choice(legal)))
        env.step(taken[-1])
    return found


def _simultaneous_points(game: str, players: int, wanted: int) -> list[tuple[int, list[int]]]:
    """(seed, prefix) of ``wanted`` such decision points, from as many seeds as it takes (at most 8)."""
    found: list[tuple[int, list[int]]] = []
    for seed in range(7, 15):
        found += [(seed, p) for p in _simultaneous_prefixes(game, players, seed, wanted - len(found))]
        if len(found) == wanted:
            break
    return found


@pytest.mark.parametrize(("game", "players", "wanted"), [("greenland", 3, 2), ("graenaland", 4, 4)])
def test_a_simultaneous_mover_cannot_see_anothers_choice(game: str, players: int, wanted: int) -> None:
    """At a decision point with several seats in ``to_move`` (Greenland's starting farm animal, line 13, and
    the trade ship bids, line 22, ruling G3; Graenaland's compass tiles revealed at the same time,
    graenaland.txt:77, and the votes, line 115), the second mover's observation and mask are the same
    whichever action the first mover took."""
    points = _simultaneous_points(game, players, wanted)
    assert len(points) == wanted
    for seed, prefix in points:
        seen = []
        for pick in (0, -1):  # the first mover's lowest and highest legal action
            env = pz.raw_env(game, players=players)
            env.reset(seed=seed)
            for action in prefix:
                env.step(action)
            first = env.agent_selection
            env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[pick]))
            second = env.agent_selection
            assert second != first and not env.terminations[second]
            seen.append((second, env.observe(second)))
        assert seen[0][0] == seen[1][0]
        np.testing.assert_array_equal(seen[0][1]["observation"], seen[1][1]["observation"])
        np.testing.assert_array_equal(seen[0][1]["action_mask"], seen[1][1]["action_mask"])

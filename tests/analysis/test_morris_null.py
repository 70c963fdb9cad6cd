"""``tools/morris_null.py``: the mu* a no-effect value gets from noise falls as the games a point grow
(about as 1/sqrt(games)), and matches a direct count for one trajectory of two seats and one game."""

from __future__ import annotations

import pytest

from tools.morris_null import null_mu_star

pytestmark = pytest.mark.slow


def test_the_noise_floor_halves_with_four_times_the_games() -> None:
    _, twelve, _ = null_mu_star(3, 12, 18, 4, samples=4000)
    _, forty_eight, _ = null_mu_star(3, 48, 18, 4, samples=4000)
    assert 0.4 < forty_eight / twelve < 0.6


def test_one_game_two_seats_by_hand() -> None:
    """Two seats, one game: the gap is always 0.5, so every elementary effect is 0."""
    assert null_mu_star(2, 1, 5, 4, samples=200) == (0.0, 0.0, 0.0)

"""The Gymnasium environment rallye/KnightRider-v0 (what both games' environments do:
``tests/rl/test_gymnasium.py``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rallye.rl  # noqa: F401  (registers rallye/KnightRider-v0)
from rallye.agents.base import agent_names
from rallye.rl.gym_env import KnightRiderEnv

from ..helpers import run_gym_episode


def test_a_seeded_reset_replays_the_same_game_and_rewards_the_win():
    # random play in a town of one piece (issue #62) needs many turns to catch the villain
    env = gym.make("rallye/KnightRider-v0", illegal="raise", players=3, seat=1, turn_limit=400)
    outcomes = set()
    for seed in range(4):
        a = run_gym_episode(env, seed, np.random.default_rng(seed))
        b = run_gym_episode(env, seed, np.random.default_rng(seed))
        assert a == b
        w = env.unwrapped.state_value.winner
        assert a[0] == (0.0 if w is None else 1.0 if w == 1 else -0.5)
        outcomes.add(w)
    assert len(outcomes) > 1


@pytest.mark.parametrize("bot", [b for b in ("random", "heuristic") if b in agent_names("knightrider")])
def test_rallye_bots_hold_the_other_seats(bot):
    env = KnightRiderEnv(players=3, opponents=bot, turn_limit=15)
    assert env.opponent_names == [bot, bot] and env.others == [1, 2]
    _, steps = run_gym_episode(env, 1, np.random.default_rng(0))  # every step comes back to seat 0
    assert env.state_value.turn > steps // 3  # the bots took their turns in between


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bot"):
        KnightRiderEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat must be"):
        KnightRiderEnv(seat=2)
    with pytest.raises(ValueError, match="illegal must be"):
        gym.make("rallye/KnightRider-v0", illegal="ignore")

"""The Gymnasium environment rallye/Mille-v0 (what both games' environments do:
``tests/rl/test_gymnasium.py``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rallye.rl  # noqa: F401  (registers rallye/Mille-v0)
from rallye.rl.gym_env import MilleEnv
from rallye.rl.wrappers import IllegalActionPenalty

from ..helpers import run_gym_episode


def test_a_seeded_reset_replays_the_same_hand():
    env = gym.make("rallye/Mille-v0", illegal="raise")
    a = run_gym_episode(env, 5, np.random.default_rng(0))
    b = run_gym_episode(env, 5, np.random.default_rng(0))
    assert a == b
    sheet = env.unwrapped.state_value.sheets[0]
    assert a[0] == pytest.approx((sheet.hand_totals[0] - sheet.hand_totals[1]) / 1000.0)


def test_a_penalty_that_keeps_the_episode_going():
    keep = IllegalActionPenalty(MilleEnv(), penalty=-0.5, terminate=False)
    obs, _ = keep.reset(seed=1)
    _, r, term, _, _ = keep.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (r, term) == (-0.5, False)
    keep.step(int(np.flatnonzero(obs["action_mask"])[0]))  # a legal move still works


def test_opponents_and_seat_arguments():
    env = MilleEnv(players=3, opponents="random", seat=1)
    assert env.opponent_names == ["random", "random"] and env.others == [0, 2]
    with pytest.raises(ValueError, match="unknown bot"):
        MilleEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat must be"):
        MilleEnv(seat=2)
    with pytest.raises(ValueError, match="3 opponents named for 1"):
        MilleEnv(opponents="random,random,random")
    with pytest.raises(ValueError, match="illegal must be"):
        gym.make("rallye/Mille-v0", illegal="ignore")


def test_search_opponents_play_whole_budgets_so_a_seed_replays_anywhere():
    """Issue 4's CPU ceiling keeps a person's wait short; an environment is batch play, so
    its search-level opponents play their count budgets (as in tournaments)."""
    env = MilleEnv(opponents="expert")
    assert env.bots[1].cpu_limit is None
    env.reset(seed=3)
    assert env.bots[1].cpu_limit is None and env.bots[1].deals == 160

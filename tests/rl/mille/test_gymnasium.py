"""The Gymnasium environment rallye/Mille-v0."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rallye.rl  # noqa: F401  (registers rallye/Mille-v0)
from rallye.core.errors import IllegalAction
from rallye.rl.gym_env import MilleEnv
from rallye.rl.wrappers import IllegalActionPenalty


def _check(env):
    with warnings.catch_warnings():
        # check_env advises checking the unwrapped env; the penalty wrapper is the point here
        warnings.filterwarnings("ignore", message=".*different from the unwrapped", category=UserWarning)
        check_env(env, skip_render_check=True)


def test_registered_env_passes_check_env():
    assert "rallye/Mille-v0" in gym.registry
    env = gym.make("rallye/Mille-v0")
    assert isinstance(env.unwrapped, MilleEnv)
    _check(env)


def test_check_env_other_configurations():
    _check(gym.make("rallye/Mille-v0", edition="hu", players=3, seat=2, opponents="random"))
    raw = MilleEnv(edition="fxschmid", players=4, episode="match", reward="win")
    _check(IllegalActionPenalty(raw, terminate=False))


def _run(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
        if term or trunc:
            return total, steps


def test_a_seeded_reset_replays_the_same_hand():
    env = gym.make("rallye/Mille-v0", illegal="raise")
    a = _run(env, 5, np.random.default_rng(0))
    b = _run(env, 5, np.random.default_rng(0))
    assert a == b
    sheet = env.unwrapped.state_value.sheets[0]
    assert a[0] == pytest.approx((sheet.hand_totals[0] - sheet.hand_totals[1]) / 1000.0)


def test_illegal_action_policies():
    raw = gym.make("rallye/Mille-v0", illegal="raise")
    obs, _ = raw.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        raw.step(bad)
    env = gym.make("rallye/Mille-v0")  # penalty: refused, episode over, reward -1
    obs, _ = env.reset(seed=1)
    obs2, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs2["observation"], obs["observation"]) and not obs2["action_mask"].any()
    keep = IllegalActionPenalty(MilleEnv(), penalty=-0.5, terminate=False)
    obs, _ = keep.reset(seed=1)
    _, r, term, _, _ = keep.step(bad)
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

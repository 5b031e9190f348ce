"""The Gymnasium environment rallye/KnightRider-v0."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rallye.rl  # noqa: F401  (registers rallye/KnightRider-v0)
from rallye import knightrider as kr
from rallye.agents.base import agent_names
from rallye.core.errors import IllegalAction
from rallye.rl.gym_env import KnightRiderEnv
from rallye.rl.wrappers import IllegalActionPenalty


def _check(env):
    with warnings.catch_warnings():
        # check_env advises checking the unwrapped env; the penalty wrapper is the point here
        warnings.filterwarnings("ignore", message=".*different from the unwrapped", category=UserWarning)
        check_env(env, skip_render_check=True)


def test_registered_env_passes_check_env():
    assert "rallye/KnightRider-v0" in gym.registry
    env = gym.make("rallye/KnightRider-v0", turn_limit=30)
    assert isinstance(env.unwrapped, KnightRiderEnv)
    _check(env)


def test_check_env_other_configurations():
    _check(gym.make("rallye/KnightRider-v0", players=3, seat=2, opponents="random", turn_limit=20))
    raw = KnightRiderEnv(players=4, quick_build=False, turn_limit=5, shuffle_cards=True)
    _check(IllegalActionPenalty(raw, terminate=False))


def _run(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        state = env.unwrapped.state_value
        assert state.current == env.unwrapped.seat
        assert obs["action_mask"].sum() == len(kr.legal_actions(state))
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
        if term or trunc:
            return total, steps


def test_a_seeded_reset_replays_the_same_game_and_rewards_the_win():
    # random play in a town of one piece (issue #62) needs many turns to catch the villain
    env = gym.make("rallye/KnightRider-v0", illegal="raise", players=3, seat=1, turn_limit=400)
    outcomes = set()
    for seed in range(4):
        a = _run(env, seed, np.random.default_rng(seed))
        b = _run(env, seed, np.random.default_rng(seed))
        assert a == b
        w = env.unwrapped.state_value.winner
        assert a[0] == (0.0 if w is None else 1.0 if w == 1 else -0.5)
        outcomes.add(w)
    assert len(outcomes) > 1


@pytest.mark.parametrize("bot", [b for b in ("random", "heuristic") if b in agent_names("knightrider")])
def test_rallye_bots_hold_the_other_seats(bot):
    env = KnightRiderEnv(players=3, opponents=bot, turn_limit=15)
    assert env.opponent_names == [bot, bot] and env.others == [1, 2]
    _, steps = _run(env, 1, np.random.default_rng(0))  # every step comes back to seat 0
    assert env.state_value.turn > steps // 3  # the bots took their turns in between


def test_illegal_action_policies():
    raw = gym.make("rallye/KnightRider-v0", illegal="raise")
    obs, _ = raw.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        raw.step(bad)
    env = gym.make("rallye/KnightRider-v0")  # penalty: refused, episode over, reward -1
    obs, _ = env.reset(seed=1)
    obs2, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs2["observation"], obs["observation"]) and not obs2["action_mask"].any()


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bot"):
        KnightRiderEnv(opponents="nobody")
    with pytest.raises(ValueError, match="seat must be"):
        KnightRiderEnv(seat=2)
    with pytest.raises(ValueError, match="illegal must be"):
        gym.make("rallye/KnightRider-v0", illegal="ignore")

"""rallye.rl.imitation: a bot's recorded decisions are the moves it plays in the
environment, on the environment's observation and mask."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rallye.rl  # noqa: F401  (registers rallye/Mille-v0)
from rallye.rl.imitation import record_mille


def test_shapes_legal_actions_and_results() -> None:
    data = record_mille(["heuristic", "random"], matches=2, seed=4)
    n = len(data["action"])
    assert n > 50
    assert data["obs"].shape == (n, 270) and data["obs"].dtype == np.float32
    assert data["mask"].shape == (n, 70) and data["mask"].dtype == bool
    assert data["mask"][np.arange(n), data["action"]].all()  # every recorded move was legal
    assert set(np.unique(data["seat"])) == {0, 1}
    assert set(np.unique(data["match"])) == {0, 1}
    for m in (0, 1):  # one winner a match: the two seats' results are opposite
        rows = data["match"] == m
        won = {int(s): float(w) for s, w in zip(data["seat"][rows], data["won"][rows], strict=True)}
        assert sorted(won.values()) == [-1.0, 1.0]
    assert np.abs(data["hand_points"]).max() > 0


def test_recorded_seats_and_swap() -> None:
    only0 = record_mille(["heuristic", "random"], matches=2, seed=4, record=[0])
    both = record_mille(["heuristic", "random"], matches=2, seed=4)
    assert (only0["seat"] == 0).all()
    assert np.array_equal(only0["action"], both["action"][both["seat"] == 0])
    swapped = record_mille(["heuristic", "random"], matches=2, seed=4, record=[0], swap=True)
    # match 1 seats the heuristic in seat 1, and its decisions are the ones recorded there
    assert set(swapped["seat"][swapped["match"] == 0]) == {0}
    assert set(swapped["seat"][swapped["match"] == 1]) == {1}
    with pytest.raises(ValueError):
        record_mille(["heuristic", "random"], matches=1, record=[2])


def test_the_environment_sees_the_same_observations_and_moves() -> None:
    """Replaying the recorded moves of seat 0 in ``rallye/Mille-v0`` against the same bot
    gives the same observations and masks (the learner's encoding) and the same match."""
    data = record_mille(["heuristic", "heuristic"], matches=1, seed=11, record=[0])
    env = gym.make("rallye/Mille-v0", episode="match", reward="win", opponents="heuristic", illegal="raise")
    # record_mille seeds the match and the bots as the environment does from its own stream,
    # so reproduce its stream: the game seed first, then the bots' seeds in seat order.
    rng = np.random.default_rng(11)
    game_seed = int(rng.integers(2**63))
    env.reset(seed=0)
    inner = env.unwrapped
    from rallye.agents.base import make_agent

    seeds = [int(rng.integers(2**31)) for _ in range(2)]
    inner.bots = {1: make_agent("mille", "heuristic", seeds[1], exact=True)}
    inner._state = inner._first = inner.adapter.new_state(game_seed)
    inner._to_act = inner.adapter.current_player(inner._state)
    inner._play_others()
    obs, _ = inner._observation()
    total = 0.0
    for k in range(len(data["action"])):
        assert np.array_equal(obs["observation"], data["obs"][k])
        assert np.array_equal(obs["action_mask"].astype(bool), data["mask"][k])
        obs, reward, terminated, _, _ = env.step(int(data["action"][k]))
        total += reward
    assert terminated and total == data["won"][0]

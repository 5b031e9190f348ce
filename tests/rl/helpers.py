"""Helpers the rl tests of both games share."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

# api_test's two advisory warnings about dict observations (PettingZoo exempts its own
# classic games from them by name); everything else it warns about fails the test.
ADVISORY = ("Observation space for each agent probably", "Observation is not a NumPy array")


def api_test_quietly(env: Any, cycles: int) -> None:
    """PettingZoo's ``api_test``, its advisory warnings only let through."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in ADVISORY:
            warnings.filterwarnings("ignore", message=text, category=UserWarning)
        api_test(env, num_cycles=cycles)


def check_gym_env(env: Any) -> None:
    """Gymnasium's ``check_env`` on a (possibly wrapped) environment."""
    with warnings.catch_warnings():
        # check_env advises checking the unwrapped env; the penalty wrapper is the point here
        warnings.filterwarnings("ignore", message=".*different from the unwrapped", category=UserWarning)
        check_env(env, skip_render_check=True)


def play_aec(env: Any, seed: int, rng: np.random.Generator) -> dict[str, float]:
    """One episode of random legal moves in a PettingZoo environment (raw or wrapped):
    each agent's summed rewards. At each step the acting agent's mask holds the game's
    legal actions (its face's)."""
    env.reset(seed=seed)
    raw = env.unwrapped
    face = raw.adapter.face
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(face.legal_actions(raw.state_value))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


def run_gym_episode(env: Any, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    """One episode of random legal moves: ``(the learner's reward, its steps)``. At each
    step the learner is to act and its mask holds the game's legal actions (its face's)."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    raw = env.unwrapped
    face = raw.adapter.face
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        state = raw.state_value
        assert face.current_player(state) == raw.seat
        assert obs["action_mask"].sum() == len(face.legal_actions(state))
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
        if term or trunc:
            return total, steps

"""What the Gymnasium environments of both games do alike (each game's own behaviour:
``tests/rl/mille/test_gymnasium.py``, ``tests/rl/knightrider/test_gymnasium.py``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import rallye.rl  # noqa: F401  (registers the environments)
from rallye.core.errors import IllegalAction
from rallye.rl.gym_env import KnightRiderEnv, MilleEnv, RallyeGymEnv
from rallye.rl.wrappers import IllegalActionPenalty

from .helpers import check_gym_env

GAMES = ("mille", "knightrider")
IDS = {"mille": "rallye/Mille-v0", "knightrider": "rallye/KnightRider-v0"}
CLASSES: dict[str, type[RallyeGymEnv[Any, Any]]] = {"mille": MilleEnv, "knightrider": KnightRiderEnv}
#: each game's registered environment with short episodes
SHORT: dict[str, dict[str, Any]] = {"mille": {}, "knightrider": {"turn_limit": 30}}
#: other configurations: one made by gym.make, one raw under a penalty that keeps the episode
OTHERS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "mille": (
        {"edition": "hu", "players": 3, "seat": 2, "opponents": "random"},
        {"edition": "fxschmid", "players": 4, "episode": "match", "reward": "win"},
    ),
    "knightrider": (
        {"players": 3, "seat": 2, "opponents": "random", "turn_limit": 20},
        {"players": 4, "quick_build": False, "turn_limit": 5, "shuffle_cards": True},
    ),
}


@pytest.mark.parametrize("game", GAMES)
def test_registered_env_passes_check_env(game: str) -> None:
    assert IDS[game] in gym.registry
    env = gym.make(IDS[game], **SHORT[game])
    assert isinstance(env.unwrapped, CLASSES[game])
    check_gym_env(env)


@pytest.mark.parametrize("game", GAMES)
def test_check_env_other_configurations(game: str) -> None:
    made, raw = OTHERS[game]
    check_gym_env(gym.make(IDS[game], **made))
    check_gym_env(IllegalActionPenalty(CLASSES[game](**raw), terminate=False))


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_policies(game: str) -> None:
    raw = gym.make(IDS[game], illegal="raise")
    obs, _ = raw.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        raw.step(bad)
    env = gym.make(IDS[game])  # penalty: refused, episode over, reward -1
    obs, _ = env.reset(seed=1)
    obs2, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs2["observation"], obs["observation"]) and not obs2["action_mask"].any()

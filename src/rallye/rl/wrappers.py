"""Illegal-action policies for the Gymnasium environments, kept out of the environments
themselves (DESIGN habit 15): the raw environment raises the engine's ``IllegalAction``.

:class:`IllegalActionPenalty` refuses an action whose ``action_mask`` entry is 0: the state
is left unchanged, the reward is ``penalty`` and, by default, the episode ends
(``terminate=False`` keeps it running so the agent may try again).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np


class IllegalActionPenalty(gym.Wrapper[dict[str, np.ndarray], Any, dict[str, np.ndarray], Any]):
    def __init__(self, env: gym.Env[dict[str, np.ndarray], Any], penalty: float = -1.0, terminate: bool = True) -> None:
        super().__init__(env)
        self.penalty = float(penalty)
        self.terminate = terminate
        self._last: tuple[dict[str, np.ndarray], dict[str, Any]] | None = None
        self._ended = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._last, self._ended = (obs, info), False
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._last is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        obs, info = self._last
        mask = obs["action_mask"]
        a = int(action)
        if not 0 <= a < len(mask) or not mask[a]:
            self._ended = self.terminate
            new_obs = {k: v.copy() for k, v in obs.items()}
            new_info = {**info, "action_mask": obs["action_mask"].copy(), "illegal_action": True}
            if self.terminate:
                new_obs["action_mask"] = np.zeros_like(mask)
                new_info["action_mask"] = np.zeros_like(mask)
            return new_obs, self.penalty, self.terminate, False, new_info
        obs, reward, terminated, truncated, info = self.env.step(a)
        self._last = (obs, info)
        self._ended = terminated or truncated
        return obs, float(reward), terminated, truncated, info

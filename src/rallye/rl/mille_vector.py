"""Mille Bornes as a Gymnasium ``VectorEnv`` on the batched engine (needs the ``fast`` and
``rl`` extras): :class:`rallye.rl.mille.vector.MilleVector` behind Gymnasium's vector API.

>>> from rallye.rl.mille_vector import MilleVectorEnv
>>> envs = MilleVectorEnv(num_envs=4, edition="hu", players=3, seed=2)
>>> obs, info = envs.reset()
>>> obs["observation"].shape, obs["action_mask"].dtype.name
((4, 270), 'int8')
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.sample_legal())

Observation: ``{"observation": float32 (num_envs, 270), "action_mask": int8 (num_envs, 70)}``
(the single-environment spaces of ``rallye/Mille-v0``); actions: one engine code per
environment. Auto-reset in the same step (``AutoresetMode.SAME_STEP``): where an episode
ended, ``infos["final_obs"]`` holds its last observation (``infos["_final_obs"]`` marks the
rows) and the returned observation is the next episode's first. Episodes never truncate.
Keyword arguments as :class:`~rallye.rl.mille.vector.MilleVector`'s (``edition``, ``players``,
``seat``, ``episode``, ``reward``, ``opponents``, ``seed``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector.utils import batch_space

from rallye.mille.edition import Edition
from rallye.rl.mille.encoding import OBS_HIGH, OBS_LOW, OBS_SIZE
from rallye.rl.mille.vector import MilleVector, Policy

Obs = dict[str, npt.NDArray[Any]]


class MilleVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    metadata: dict[str, Any] = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012 - gymnasium declares it an instance attribute

    def __init__(
        self,
        num_envs: int = 64,
        edition: str | Edition = "wm2006",
        players: int = 2,
        *,
        seat: int = 0,
        episode: str = "match",
        reward: str = "win",
        opponents: Policy | None = None,
        seed: int = 0,
    ) -> None:
        self.vec = MilleVector(
            edition, players, num_envs, seed, seat=seat, episode=episode, reward=reward, opponents=opponents
        )
        self.num_envs = num_envs
        self.single_observation_space = gym.spaces.Dict(
            {
                "observation": gym.spaces.Box(OBS_LOW, OBS_HIGH, (OBS_SIZE,), np.float32),
                "action_mask": gym.spaces.Box(0, 1, (70,), np.int8),
            }
        )
        self.single_action_space = gym.spaces.Discrete(70)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        obs, mask = self.vec.reset(seed)
        return self._obs(obs, mask), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        obs, mask, rewards, dones = self.vec.step(actions)
        infos: dict[str, Any] = {}
        if dones.any():
            infos["final_obs"] = {"observation": self.vec.final_obs.copy(), "action_mask": np.zeros_like(mask, np.int8)}
            infos["_final_obs"] = dones.copy()
        return self._obs(obs, mask), rewards.copy(), dones.copy(), self._truncations.copy(), infos

    def sample_legal(self) -> npt.NDArray[np.int32]:
        """A uniformly random legal action in every environment (the compiled policy)."""
        return self.vec.games.random_actions().copy()

    @staticmethod
    def _obs(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Obs:
        return {"observation": obs.copy(), "action_mask": mask.astype(np.int8)}

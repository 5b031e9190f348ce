"""Mille Bornes vector environments on the batched engine (needs the ``fast`` and ``rl``
extras): one learner seat in each of ``num_envs`` games, the other seats played by the
compiled random policy or by a policy the caller passes in; :class:`MilleVector` as plain
arrays, :class:`MilleVectorEnv` the same behind Gymnasium's ``VectorEnv`` API.

>>> from rallye.rl.mille.vector import MilleVector
>>> env = MilleVector("wm2006", 2, num_envs=8, seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, bool(mask.any(axis=1).all())
((8, 270), (8, 70), True)
>>> obs, mask, rewards, dones = env.step(env.games.random_actions())

Observations are version 1 of :mod:`rallye.rl.mille.encoding` (270 float32), built from the
learner's view only; masks are over the engine's 70 action codes. ``episode`` and ``reward``
mean what they mean for :class:`rallye.rl.mille.adapter.MilleAdapter` (``"match"`` or ``"hand"``;
``"win"`` or ``"score"``), and a new episode is a new match. A game whose episode ended
in a step is reset within that step (the returned observation is the new episode's first):
``final_obs`` then holds the ended episode's last observation, in the rows ``dones`` marks.

``opponents`` is ``None`` (the random policy, compiled: no Python between the learner's
decisions) or a callable ``policy(obs, mask) -> codes`` called with the observations and
masks of the games where another seat is to act (that seat's view) and returning one legal
code for each.

The rewards and the random opponents run compiled inside the batch
(:meth:`~rallye.batch.mille.MilleBatch.learner_rewards`,
:meth:`~rallye.batch.mille.MilleBatch.play_others_random`): numba code is compiled with
the engine it steps. This module holds the episodes around them.

>>> envs = MilleVectorEnv(num_envs=4, edition="hu", players=3, seed=2)
>>> obs, info = envs.reset()
>>> obs["observation"].shape, obs["action_mask"].dtype.name
((4, 270), 'int8')
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.sample_legal())

:class:`MilleVectorEnv`'s observation: ``{"observation": float32 (num_envs, 270),
"action_mask": int8 (num_envs, 70)}`` (the single-environment spaces of
``rallye/Mille-v0``); actions: one engine code per environment. Auto-reset in the same step
(``AutoresetMode.SAME_STEP``): where an episode ended, ``infos["final_obs"]`` holds its last
observation (``infos["_final_obs"]`` marks the rows) and the returned observation is the
next episode's first. Episodes never truncate. Keyword arguments as :class:`MilleVector`'s
(``edition``, ``players``, ``seat``, ``episode``, ``reward``, ``opponents``, ``seed``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector.utils import batch_space

from rallye.batch.mille import MilleBatch
from rallye.mille.edition import Edition
from rallye.rl.mille.encoding import OBS_HIGH, OBS_LOW, OBS_SIZE

#: the opponents' policy: observations and masks of the games where they act -> one code each
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
Obs = dict[str, npt.NDArray[Any]]
_EPISODES = ("match", "hand")
_REWARDS = ("win", "score")


class MilleVector:
    """``num_envs`` games, the learner in seat ``seat`` of each (see the module)."""

    def __init__(
        self,
        edition: str | Edition = "wm2006",
        players: int = 2,
        num_envs: int = 64,
        seed: int = 0,
        *,
        seat: int = 0,
        episode: str = "match",
        reward: str = "win",
        opponents: Policy | None = None,
    ) -> None:
        if episode not in _EPISODES:
            raise ValueError(f"episode must be one of {', '.join(_EPISODES)}, not {episode!r}")
        if reward not in _REWARDS:
            raise ValueError(f"reward must be one of {', '.join(_REWARDS)}, not {reward!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat number 0..{players - 1}, not {seat!r}")
        if opponents is not None and not callable(opponents):
            raise ValueError(f"opponents must be None (random) or a callable policy(obs, mask), not {opponents!r}")
        self.edition, self.players, self.num_envs, self.seat = edition, players, num_envs, seat
        self.episode, self.reward, self.opponents = episode, reward, opponents
        self._hand = episode == "hand"
        self._win = reward == "win"
        self.games = MilleBatch(edition, players, num_envs, seed, auto_reset=False)
        self.final_obs = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self._carry = np.zeros(num_envs, dtype=np.float64)
        #: decisions taken by the other seats since the start (the learner's are the steps)
        self.other_decisions = 0

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """New matches in every game (from ``seed`` if given), played to the learner's turn:
        ``(obs, mask)``."""
        if seed is not None:
            self.games = MilleBatch(self.edition, self.players, self.num_envs, seed, auto_reset=False)
        else:
            self.games.next_matches(np.ones(self.num_envs, np.bool_))
        self._carry[:] = 0.0
        self._settle(self._carry)
        return self.observe(), self.games.legal_mask()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """The learner's action in every game (checked: an illegal one raises and changes
        nothing), then the other seats until the learner is to act again: ``(obs, mask,
        rewards, dones)``; where ``dones``, the game was reset (``final_obs`` holds the
        ended episode's last observation). The arrays are overwritten by the next call."""
        games = self.games
        rewards = self._carry.copy()
        self._carry[:] = 0.0
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        codes = np.asarray(actions)
        if codes.shape == (self.num_envs,) and np.issubdtype(codes.dtype, np.integer) and (codes < 0).any():
            raise ValueError(f"every environment needs an action code 0..69; got {codes[codes < 0][0]}")
        flags = games.step(codes)
        games.learner_rewards(flags, self.seat, self._hand, self._win, rewards, dones)
        self._others(rewards, dones)
        if dones.any():
            self.final_obs[dones] = games.observe(self.seat)[dones]
            games.next_matches(dones)
            self._settle(self._carry)
        return self.observe(), games.legal_mask(), rewards, dones

    def observe(self) -> npt.NDArray[np.float32]:
        """The learner's observation in every game."""
        return self.games.observe(self.seat)

    # -- the other seats -----------------------------------------------------------
    def _settle(self, rewards: npt.NDArray[np.float64]) -> None:
        """Other seats move until the learner is to act everywhere (an episode that ends
        before that is started again; its rewards go to ``rewards``)."""
        while True:
            ended = np.zeros(self.num_envs, dtype=np.bool_)
            self._others(rewards, ended)
            if not ended.any():
                return
            self.games.next_matches(ended)

    def _others(self, rewards: npt.NDArray[np.float64], dones: npt.NDArray[np.bool_]) -> None:
        games = self.games
        if self.opponents is None:
            self.other_decisions += games.play_others_random(self.seat, self._hand, self._win, rewards, dones)
            return
        while True:
            cur = games.current_players()  # (-1 where the match is over)
            need = (cur >= 0) & (cur != self.seat) & ~dones
            if not need.any():
                return
            idx = np.flatnonzero(need)
            obs = games.observe(np.where(need, cur, -1))[idx]
            mask = games.legal_mask()[idx]
            picked = np.asarray(self.opponents(obs, mask))
            if picked.shape != (len(idx),):
                raise ValueError(f"the opponents' policy returned {picked.shape} actions for {len(idx)} games")
            codes = np.full(self.num_envs, -1, dtype=np.int32)
            codes[idx] = picked
            flags = games.step(codes)
            self.other_decisions += len(idx)
            games.learner_rewards(flags, self.seat, self._hand, self._win, rewards, dones)


class MilleVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """:class:`MilleVector` behind Gymnasium's ``VectorEnv`` API (see the module)."""

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

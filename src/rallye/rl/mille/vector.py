"""A vector environment on the batched engine, as plain arrays: one learner seat in each of
``num_envs`` Mille Bornes games, the other seats played by the compiled random policy or by
a policy the caller passes in. :class:`rallye.rl.mille_vector.MilleVectorEnv` is the same as
a Gymnasium ``VectorEnv``.

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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from rallye.batch import _kernels as k
from rallye.batch.mille import MilleBatch
from rallye.mille.edition import Edition

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]
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
        self.final_obs = np.zeros((num_envs, 270), dtype=np.float32)
        self._carry = np.zeros(num_envs, dtype=np.float64)
        #: decisions taken by the other seats since the start (the learner's are the steps)
        self.other_decisions = 0

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """New matches in every game (from ``seed`` if given), played to the learner's turn:
        ``(obs, mask)``."""
        if seed is not None:
            self.games = MilleBatch(self.edition, self.players, self.num_envs, seed, auto_reset=False)
        else:
            k.env_restart(self.games.rows, self.games.config, self.games.seeds, np.ones(self.num_envs, np.bool_))
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
        k.env_rewards(games.rows, games.config, flags, self.seat, self._hand, self._win, rewards, dones)
        self._others(rewards, dones)
        if dones.any():
            self.final_obs[dones] = games.observe(self.seat)[dones]
            k.env_restart(games.rows, games.config, games.seeds, dones)
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
            k.env_restart(self.games.rows, self.games.config, self.games.seeds, ended)

    def _others(self, rewards: npt.NDArray[np.float64], dones: npt.NDArray[np.bool_]) -> None:
        games = self.games
        if self.opponents is None:
            self.other_decisions += k.env_random_others(
                games.rows, games.config, games.seeds, self.seat, self._hand, self._win, rewards, dones
            )
            return
        rows = games.rows
        while True:
            cur = rows[:, k.CUR]
            need = (rows[:, k.PHASE] != k.OVER_PHASE) & (cur != self.seat) & ~dones
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
            k.env_rewards(rows, games.config, flags, self.seat, self._hand, self._win, rewards, dones)

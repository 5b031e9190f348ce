"""The vector environments on the batched engine (``rallye.rl.mille.vector``): episodes,
rewards, resets and opponents, and Gymnasium's vector API. (The batch's observations
themselves: ``tests/batch/test_mille_observe.py``.)"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from rallye.core.errors import IllegalAction
from rallye.mille import editions
from rallye.rl.mille.encoding import field_slice
from rallye.rl.mille.vector import MilleVector, MilleVectorEnv

CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]


def test_vector_env_plays_matches_with_rewards_and_resets() -> None:
    env = MilleVector("wm2006", 2, num_envs=16, seed=5, seat=1)
    obs, mask = env.reset()
    mine = field_slice("phase").start + 2  # "my turn"
    episodes = 0
    for _ in range(3000):
        assert (obs[:, mine] == 1.0).all() and mask.any(axis=1).all()
        obs, mask, rewards, dones = env.step(env.games.random_actions())
        assert set(np.unique(rewards[dones])) <= {-1.0, 1.0} and not rewards[~dones].any()
        if dones.any():
            assert (env.final_obs[dones, mine] == 0.0).all()  # the match is over in its last view
            assert (env.final_obs[dones, field_slice("phase").start] == 0.0).all()
        episodes += int(dones.sum())
    assert episodes >= 16 and env.other_decisions > 0


def test_score_rewards_of_hand_episodes_are_the_hands_points() -> None:
    env = MilleVector("hu", 4, num_envs=8, seed=6, episode="hand", reward="score")
    env.reset()
    got = []
    for _ in range(2000):
        _, _, rewards, dones = env.step(env.games.random_actions())
        got += list(rewards[dones])
        assert not rewards[~dones].any()  # one hand an episode: scored only at its end
    # two sides: the learner's side's points minus the other's, / 1000; never all zero
    assert len(got) >= 8 and any(r != 0 for r in got) and all(abs(r) < 10 for r in got)


def test_opponents_policy_is_called_with_their_views() -> None:
    calls = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mine = field_slice("phase").start + 2
        assert (obs[:, mine] == 1.0).all() and mask.any(axis=1).all()
        calls.append(len(obs))
        return mask.argmax(axis=1)

    env = MilleVector("meilen", 3, num_envs=5, seed=7, opponents=first_legal)
    env.reset()
    for _ in range(300):
        env.step(env.games.random_actions())
    assert calls and env.other_decisions == sum(calls)
    with pytest.raises(ValueError, match="returned"):
        MilleVector("wm2006", 2, num_envs=2, seat=1, opponents=lambda o, m: [0]).reset()
    with pytest.raises(IllegalAction):
        env.step(np.full(5, 69))
    with pytest.raises(ValueError, match=r"action code 0\.\.69"):
        env.step(np.full(5, -1))
    with pytest.raises(ValueError, match="episode"):
        MilleVector(episode="game")
    with pytest.raises(ValueError, match="seat"):
        MilleVector(seat=2)


def test_gymnasium_vector_env_api() -> None:
    envs = MilleVectorEnv(num_envs=6, edition="fxschmid", players=6, seed=3)
    obs, _ = envs.reset(seed=4)
    assert obs in envs.observation_space
    done_seen = False
    for _ in range(800):
        obs, rewards, terms, truncs, infos = envs.step(envs.sample_legal())
        assert obs["observation"].shape == (6, 270) and rewards.shape == terms.shape == truncs.shape == (6,)
        assert not truncs.any()
        if terms.any():
            done_seen = True
            assert (infos["_final_obs"] == terms).all() and infos["final_obs"]["observation"].shape == (6, 270)
    assert done_seen

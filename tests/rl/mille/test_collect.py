"""Self-play collectors (``rallye.rl.mille.collect``): trajectories of legal moves with the
episodes' rewards, the same from the same seeds, and the same on Ray actors as here."""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("numba")

from rallye.rl.mille.collect import Collector, MlpPolicy, collect_all, collectors, sample_masked


def test_rounds_hold_legal_moves_rewards_and_carry_on() -> None:
    policy = MlpPolicy.random(hidden=(16,), seed=2)
    workers = collectors(2, num_envs=8, seed=3, reward="win")
    first, second = (collect_all(workers, policy, steps=400) for _ in range(2))
    for out in first + second:
        assert out["obs"].shape == (400, 8, 270) and out["value"].shape == (400, 8)
        picked = np.take_along_axis(out["mask"], out["actions"][..., None], axis=2)
        assert picked.all()  # every action was legal
        assert set(np.unique(out["rewards"][out["dones"]])) <= {-1.0, 1.0} and not out["rewards"][~out["dones"]].any()
        assert np.isfinite(out["logp"]).all() and (out["logp"] <= 0).all()
    assert sum(int(o["matches"]) for o in first + second) > 0
    # the second round starts where the first stopped
    assert np.array_equal(second[0]["obs"][0], first[0]["last_obs"])
    again = collect_all(collectors(2, num_envs=8, seed=3, reward="win"), policy, steps=400)
    assert all(np.array_equal(a[k], b[k]) for a, b in zip(first, again, strict=True) for k in a)


def test_opponent_policy_and_bad_input() -> None:
    policy = MlpPolicy.random(seed=4)
    out = Collector("hu", 3, num_envs=3, seed=1).collect(policy, 50, opponent=MlpPolicy.random(seed=5))
    assert out["actions"].shape == (50, 3)
    with pytest.raises(ValueError, match="70 logits"):
        MlpPolicy([], (np.zeros((270, 5), np.float32), np.zeros(5, np.float32)))
    with pytest.raises(ValueError, match="backend"):
        collectors(1, backend="spark")
    rng = np.random.default_rng(0)
    mask = np.zeros((500, 70), bool)
    mask[:, [3, 40]] = True
    actions, logp = sample_masked(np.zeros((500, 70)), mask, rng)
    assert set(actions.tolist()) == {3, 40} and np.allclose(logp, np.log(0.5))


@pytest.mark.slow  # Ray's start-up; part of the normal suite
def test_ray_actors_collect_what_local_collectors_do() -> None:
    ray = pytest.importorskip("ray")
    policy = MlpPolicy.random(hidden=(16,), seed=6)
    local = collect_all(collectors(2, num_envs=4, seed=9), policy, steps=60)
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        remote = collectors(2, backend="ray", num_envs=4, seed=9)
        on_ray = collect_all(remote, policy, steps=60)
    finally:
        ray.shutdown()
    assert all(np.array_equal(a[k], b[k]) for a, b in zip(local, on_ray, strict=True) for k in a)

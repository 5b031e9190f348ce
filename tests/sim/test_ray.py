"""The Ray backend on a small local cluster gives exactly the process-pool results."""

from __future__ import annotations

import logging

import pytest

from rallye.sim.tournament import TournamentConfig, play_tournament

ray = pytest.importorskip("ray")


@pytest.mark.slow  # about 8 s (Ray start-up); part of the normal suite
def test_ray_tournament_equals_process_pool() -> None:
    cfg = TournamentConfig(game="mille", bots=("heuristic", "random"), players=2, matches=4, seed=8, bootstrap=20)
    pooled, pooled_results = play_tournament(cfg, backend="process", workers=2)
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        on_ray, ray_results = play_tournament(cfg, backend="ray")
        assert ray.is_initialized()  # a Ray the caller started is left running
    finally:
        ray.shutdown()
    assert on_ray == pooled
    assert ray_results == pooled_results

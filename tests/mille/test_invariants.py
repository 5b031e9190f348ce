"""Conformance: at least 10,000 random hands over every edition and player count, with the
invariants of ``invariants.py`` checked after every step (DESIGN habit 11).

About 850,000 engine steps: the run is split over two worker processes (the suite's
budget is counted on two cores); with one CPU it runs in-process.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from rallye.mille import editions

from .invariants import Stats, play_hands

TOTAL_HANDS = 10_000
CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]
PER_CONFIG = -(-TOTAL_HANDS // len(CONFIGS))


def _run(config: tuple[str, int]) -> Stats:
    key, players = config
    return play_hands(key, players, PER_CONFIG, seed=1)


@pytest.mark.slow
def test_invariants_after_every_step_of_10000_random_hands():
    workers = min(2, os.cpu_count() or 1)
    if workers > 1:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            results = list(pool.map(_run, CONFIGS))
    else:
        results = [_run(c) for c in CONFIGS]
    hands = sum(r.hands for r in results)
    assert hands >= TOTAL_HANDS
    assert {k for k, _ in CONFIGS} == {"wm2006", "hu", "fxschmid", "meilen"}
    # the run reached the rules it is meant to exercise
    assert sum(r.completed for r in results) > 1000
    assert sum(r.extended for r in results) > 100
    assert sum(r.coups for r in results) > 500
    for (key, players), r in zip(CONFIGS, results, strict=True):
        assert r.hands >= PER_CONFIG, (key, players)


def test_invariants_quick_run_in_process():
    """A short in-process run of the same checks (fast feedback; the big run may fork)."""
    for key in ("wm2006", "hu", "fxschmid", "meilen"):
        assert play_hands(key, 3, 20, seed=2).hands >= 20

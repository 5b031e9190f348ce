"""examples/train_mille.py: two tiny training iterations change the policy."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_mille.py"


def _load():
    spec = importlib.util.spec_from_file_location("train_mille", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_iterations_update_the_policy():
    train = _load()
    policy, history = train.train(iterations=2, batch=2, lr=0.05, seed=3, log=False)
    assert len(history) == 2
    assert all(math.isfinite(loss) for _, _, loss in history)
    assert np.abs(policy.w).sum() > 0 and np.abs(policy.b).sum() > 0
    wins, n = train.evaluate(policy, hands=2, seed=1)
    assert n == 2 and 0.0 <= wins <= 2.0
    lo, hi = train.wilson(7, 10)
    assert 0.0 < lo < 0.7 < hi < 1.0

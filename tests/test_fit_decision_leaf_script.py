"""``research/fit_decision_leaf.py``: the rollouts' summaries, the fit of the decision
leaf to the oracle gains, and the choice it is judged by."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load
from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille_heuristic import rank_actions
from rallye.agents.mille_leaf import DECISION_FEATURES


@pytest.fixture(scope="module")
def fit_leaf() -> ModuleType:
    return load("fit_decision_leaf")


def _position(seed: int = 3) -> tuple[mille.MilleState, mille.MilleView, tuple[mille.Action, ...]]:
    """A decision of the heuristic with at least three moves, some steps into a hand."""
    s = mille.new_match("wm2006", 2, seed=seed)
    bot = make_agent("mille", "medium", seed)
    for step in range(200):
        v = mille.view_for(s, s.current)
        legal = mille.legal_from_view(v)
        if step >= 12 and len(legal) >= 3 and v.phase == "play":
            return s, v, legal
        s = mille.apply(s, bot.choose(v, legal))
    raise AssertionError("no position found")


def test_summaries_follow_the_heuristic_order_and_reproduce(fit_leaf: ModuleType) -> None:
    s, v, legal = _position()
    cands = [a for _, a in rank_actions(v, legal)][:3]
    oracle = {a: float(10 * k) for k, a in enumerate(cands)}
    x0, x, est, orc = fit_leaf.summarize(((s, v, legal, oracle), 5, 6, 4))
    assert x0.shape == est.shape == (3,) and x.shape == (3, len(DECISION_FEATURES))
    assert list(orc) == [0.0, 10.0, 20.0]  # the oracle values, the heuristic's move first
    again = fit_leaf.summarize(((s, v, legal, oracle), 5, 6, 4))
    assert all(np.array_equal(a, b) for a, b in zip((x0, x, est, orc), again, strict=True))
    other = fit_leaf.summarize(((s, v, legal, oracle), 6, 6, 4))  # another position index: other shuffles
    assert not np.array_equal(x, other[1])


def test_the_fit_recovers_weights_that_explain_the_oracle(fit_leaf: ModuleType) -> None:
    rng = np.random.default_rng(1)
    n_feat = len(DECISION_FEATURES)
    w_true = rng.normal(0, 30, n_feat)
    summaries = []
    for _ in range(400):
        x = rng.normal(0, 1, (4, n_feat))
        x0 = rng.normal(0, 50, 4)
        summaries.append((x0, x, x0.copy(), x0 + x @ w_true))
    w = fit_leaf.fit(summaries, ridge=1e-9)
    assert np.allclose(w, w_true, atol=1e-6)
    shrunk = fit_leaf.fit(summaries, ridge=100.0)
    assert np.linalg.norm(shrunk) < np.linalg.norm(w)  # the ridge penalty shrinks


def test_the_choice_keeps_the_heuristics_move_unless_one_is_ahead(fit_leaf: ModuleType) -> None:
    n_feat = len(DECISION_FEATURES)
    w = np.zeros(n_feat)
    w[0] = 1.0
    x = np.zeros((3, n_feat))
    x[2, 0] = 5.0  # the fitted leaf prefers the third move
    orc = np.array([0.0, 40.0, 25.0])
    est = np.array([0.0, -1.0, -2.0])  # the hand-set estimate prefers none
    hand_set, fitted = fit_leaf.choice_gains([(np.zeros(3), x, est, orc)], w)
    assert list(hand_set) == [0.0] and list(fitted) == [25.0]


def test_a_file_that_is_no_positions_cache_is_refused_clearly(fit_leaf: ModuleType, tmp_path: Path) -> None:
    junk = tmp_path / "junk.pkl"
    junk.write_text("not a pickle")
    with pytest.raises(SystemExit, match=re.escape("junk.pkl: cannot read a mille_decisions.py cache")):
        fit_leaf.load_cache(str(junk))
    other = tmp_path / "other.pkl"
    other.write_bytes(pickle.dumps({"key": 1}))
    with pytest.raises(SystemExit, match=re.escape("other.pkl: not a mille_decisions.py --cache file")):
        fit_leaf.load_cache(str(other))
    good = tmp_path / "good.pkl"
    good.write_bytes(pickle.dumps({"key": 1, "data": []}))
    assert fit_leaf.load_cache(str(good)) == []

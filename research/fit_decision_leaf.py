"""Fit the decision leaf of the Mille Bornes search (``rallye.agents.mille_leaf``,
``DECISION_WEIGHTS``): a leaf fitted to the *differences between moves*, not to the rest
of a hand.

The search ranks two moves on the same deal by the difference of two leaves; the
rest-of-hand leaf (``research/fit_leaf.py``) predicts the level of a hand twice as well as
the hand-set estimate and ranks moves no better. This script fits the leaf to what ranking
needs. It reads the positions of ``research/mille_decisions.py`` caches (true states,
and for each of the classic heuristic's best candidates its oracle value: the mean margin
of 160 rollouts to the end of the hand on the true hidden cards). For each position, each
candidate is played and followed by the classic heuristic for every seat for
``--horizon`` engine steps, on ``--deals`` reshuffles of the true draw pile (the same for
every candidate). What each candidate reaches is summed up as the mean over the deals of
the banked point margin (or the hand's margin, with the match bonus, where the hand ended)
and of the two sides' difference of :func:`~rallye.agents.mille_leaf.decision_features`.
The weights are a ridge fit of each candidate's oracle gain over the heuristic's move,
less its banked gain, on its feature gain.

Before the fit on every cache, each cache is left out in turn: fitted on the others, it
prints what choosing among the candidates by the fitted leaf gains over the heuristic's
move (the oracle's gain of the move with the best paired mean, the heuristic's move kept
unless one is ahead), against the hand-set estimate (``mille_search._estimate``) on the
same rollouts. This is an idealized choice (true hands, the classic heuristic's
candidates); ``mille_decisions.py`` with ``pimc/.../leaf=decisions`` judges the search.

    PYTHONPATH=src python research/fit_decision_leaf.py /tmp/pos50k.pkl /tmp/pos60k.pkl \\
        /tmp/pos70k.pkl --summaries /tmp/decision_leaf.pkl

The caches are those of ``mille_decisions.py --hands 96 --first-seed 50000``, ``--hands 64
--first-seed 60000`` and ``--hands 64 --first-seed 70000`` (``--cache FILE``). With
``--summaries`` the rollouts are kept (and reused when the file is there). Prints the
``DECISION_WEIGHTS`` literal; deterministic for the same caches.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from mille_decisions import interval

from rallye.agents.mille_leaf import DECISION_FEATURES, banked, decision_features
from rallye.agents.mille_search import _estimate, hand_outcome, heuristic_policy, pile_counts
from rallye.mille.engine import apply, legal_actions

#: per position: the candidates' mean banked (or final) margin, mean feature margin, mean
#: hand-set estimate margin, and oracle value, the heuristic's move first
Summary = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def summarize(job: tuple[Any, int, int, int]) -> Summary:
    """The rollouts of one position's candidates (seeded by its index in its cache)."""
    (state, view, _legal, oracle), index, deals, horizon = job
    cands = list(oracle)  # the classic heuristic's ranking: its move first
    side = view.side
    opp = 1 - side
    rng = random.Random(7_000_000 + index)
    pile = list(state.deck[state.draw_pos :])
    x0 = np.zeros(len(cands))
    x = np.zeros((len(cands), len(DECISION_FEATURES)))
    est = np.zeros(len(cands))
    for _ in range(deals):
        rng.shuffle(pile)
        root = state._replace(deck=state.deck[: state.draw_pos] + tuple(pile))
        start = root.draw_pos
        piles = pile_counts(root.deck, start)
        for k, a in enumerate(cands):
            s = apply(root, a)
            steps = 0
            while s.phase != "over" and not s.sheets and steps < horizon:
                s = apply(s, heuristic_policy(s, legal_actions(s), piles, start))
                steps += 1
            if s.sheets:
                v = hand_outcome(s, side, 0, 1500.0)
                x0[k] += v
                est[k] += v
            else:
                x0[k] += banked(s, side) - banked(s, opp)
                x[k] += np.subtract(decision_features(s, side), decision_features(s, opp))
                est[k] += _estimate(s, side) - _estimate(s, opp)
    return x0 / deals, x / deals, est / deals, np.array([oracle[a] for a in cands])


def fit(summaries: Sequence[Summary], ridge: float) -> np.ndarray:
    """Ridge weights (on standardized features) of the oracle gains less the banked gains."""
    xs, ys = [], []
    for x0, x, _est, orc in summaries:
        for k in range(1, len(orc)):
            xs.append(x[k] - x[0])
            ys.append(orc[k] - orc[0] - (x0[k] - x0[0]))
    a, b = np.array(xs), np.array(ys)
    scale = a.std(0) + 1e-9
    an = a / scale
    w = np.linalg.solve(an.T @ an + ridge * len(b) * 1e-3 * np.eye(a.shape[1]), an.T @ b)
    return w / scale  # type: ignore[no-any-return]


def choice_gains(summaries: Sequence[Summary], w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The oracle gain over the heuristic's move of the move each valuation picks: the
    hand-set estimate's, the fitted leaf's."""
    out = []
    for x0, x, est, orc in summaries:
        row = []
        for v in (est, x0 + x @ w):
            k = int(np.argmax(v - v[0]))
            row.append(orc[k] - orc[0] if v[k] > v[0] else 0.0)
        out.append(row)
    g = np.array(out)
    return g[:, 0], g[:, 1]


def load_cache(path: str) -> list[Any]:
    """The positions of a ``mille_decisions.py --cache`` file, or a clear refusal."""
    try:
        with open(path, "rb") as f:
            cached = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError) as e:
        raise SystemExit(f"{path}: cannot read a mille_decisions.py cache ({e})") from None
    if not isinstance(cached, dict) or not isinstance(cached.get("data"), list):
        raise SystemExit(f"{path}: not a mille_decisions.py --cache file (no position list under 'data')")
    return cached["data"]  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("caches", nargs="+", help="mille_decisions.py --cache files")
    ap.add_argument("--deals", type=int, default=256, help="reshuffles of the draw pile per position")
    ap.add_argument("--horizon", type=int, default=12, help="engine steps after the move (as the search)")
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--summaries", help="file keeping the rollouts' summaries between runs")
    args = ap.parse_args()
    key = (tuple(args.caches), args.deals, args.horizon)
    per_cache: list[list[Summary]] | None = None
    if args.summaries and os.path.exists(args.summaries):
        with open(args.summaries, "rb") as f:
            kept = pickle.load(f)
        if kept["key"] == key:
            per_cache = kept["data"]
    if per_cache is None:
        per_cache = []
        with multiprocessing.Pool(args.workers) as pool:
            for path in args.caches:
                data = load_cache(path)
                jobs = [(d, i, args.deals, args.horizon) for i, d in enumerate(data)]
                per_cache.append(pool.map(summarize, jobs, chunksize=4))
                print(f"{path}: {len(data)} positions rolled out", flush=True)
        if args.summaries:
            with open(args.summaries, "wb") as f:
                pickle.dump({"key": key, "data": per_cache}, f)
    if len(per_cache) > 1:
        print("each cache left out (fitted on the others): oracle gain a decision over the heuristic's move")
        pooled = []
        for i, path in enumerate(args.caches):
            w = fit([s for j, c in enumerate(per_cache) if j != i for s in c], args.ridge)
            hand_set, fitted = choice_gains(per_cache[i], w)
            pooled.append(fitted - hand_set)
            print(
                f"  {path}: {len(hand_set)} positions  hand-set {interval(list(hand_set))}"
                f"  fitted {interval(list(fitted))}  paired {interval(list(fitted - hand_set))}"
            )
        print(f"  pooled paired {interval(list(np.concatenate(pooled)))}")
    w = fit([s for c in per_cache for s in c], args.ridge)
    print("# fmt: off\nDECISION_WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {")
    print('    ("wm2006", 2): (')
    vals = [f"{v:.6g}" for v in w]
    for i in range(0, len(vals), 8):
        print("        " + ", ".join(vals[i : i + 8]) + ",")
    print("    ),\n}\n# fmt: on")


if __name__ == "__main__":
    main()

"""Fit the learned leaf value of the Mille Bornes search (``rallye.agents.mille_leaf``).

For each edition, ``--hands`` 2-player hands are played by the heuristic (fast rollout
policy; in every other hand one side plays the ``fitted`` style, as the expert's own side
does in its rollouts, the other side always the classic one). Every play-phase state is
kept with probability ``--keep``; for each, the two sides' :func:`leaf_features` and the
hand's final points are recorded. The rest of the hand's point difference (final
difference minus the banked difference) is fitted by least squares on the difference of
the features, on 70 % of the hands; the other 30 % report R^2 of the fit and of the
hand-set estimate (``mille_search._estimate``) the search uses by default.

    PYTHONPATH=src python research/fit_leaf.py --hands 40000 --workers 2

Prints the R^2 table, then the ``WEIGHTS`` literal for ``mille_leaf.py``. Deterministic
for a ``--first-seed``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random

import numpy as np

from rallye import mille
from rallye.agents.mille_heuristic import CLASSIC, FITTED
from rallye.agents.mille_leaf import FEATURES, banked, leaf_features
from rallye.agents.mille_search import _estimate, heuristic_policy, pile_counts
from rallye.mille.engine import apply, legal_actions

Row = tuple[int, list[float], float, float]  # hand seed, feature difference, rest of hand, _estimate's rest


def one(job: tuple[str, int, float]) -> list[Row]:
    edition, seed, keep = job
    rng = random.Random(seed)
    s = mille.new_match(edition, 2, seed=seed)
    styles = {0: FITTED if seed % 2 else CLASSIC, 1: CLASSIC}
    start = s.draw_pos
    piles = pile_counts(s.deck, start)
    kept = []
    while s.phase != "over" and not s.sheets:
        if s.phase == "play" and rng.random() < keep:
            kept.append(s)
        s = apply(s, heuristic_policy(s, legal_actions(s), piles, start, styles[s.side_of[s.current]]))
    final = s.sheets[0].hand_totals
    rows = []
    for k in kept:
        f0, f1 = leaf_features(k, 0), leaf_features(k, 1)
        bank = banked(k, 0) - banked(k, 1)
        rows.append(
            (
                seed,
                [a - b for a, b in zip(f0, f1, strict=True)],
                final[0] - final[1] - bank,
                _estimate(k, 0) - _estimate(k, 1) - bank,
            )
        )
    return rows


def r2(y: np.ndarray, pred: np.ndarray) -> float:
    return float(1.0 - np.mean((y - pred) ** 2) / np.var(y))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--editions", default="wm2006,hu,fxschmid,meilen")
    ap.add_argument("--hands", type=int, default=40000, help="hands per edition")
    ap.add_argument("--keep", type=float, default=0.15, help="share of play-phase states kept")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    weights = {}
    print(f"R^2 of the rest of the hand's point difference, 30 % held-out hands ({args.hands} hands per edition)")
    with multiprocessing.Pool(args.workers) as pool:
        for ed in args.editions.split(","):
            jobs = [(ed, args.first_seed + k, args.keep) for k in range(args.hands)]
            rows = [r for rs in pool.map(one, jobs, chunksize=200) for r in rs]
            train = np.array([(r[0] - args.first_seed) < 0.7 * args.hands for r in rows])
            x = np.array([r[1] for r in rows])
            y = np.array([r[2] for r in rows])
            hand_set = np.array([r[3] for r in rows])
            w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
            test = ~train
            print(
                f"{ed:9} {len(rows):7} states  hand-set estimate R^2 {r2(y[test], hand_set[test]):.3f}  "
                f"fitted R^2 {r2(y[test], x[test] @ w):.3f}",
                flush=True,
            )
            weights[ed] = w
    print("# fmt: off\nWEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {")
    for ed, w in weights.items():
        print(f'    ("{ed}", 2): (')
        vals = [f"{v:.4g}" for v in w]
        for i in range(0, len(vals), 8):
            print("        " + ", ".join(vals[i : i + 8]) + ",")
        print("    ),")
    print("}\n# fmt: on")
    assert len(FEATURES) == len(next(iter(weights.values())))


if __name__ == "__main__":
    main()

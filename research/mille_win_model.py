"""Fit and measure the Mille Bornes match-win model of the analysis (issue #61, item 4).

Plays ``--matches`` 2-player matches between heuristic bots (pairs of like strength: a
model that knows nothing of the players' skill is fitted on players of equal skill), takes
every decision's position as the acting player saw it (the model reads public facts only:
:mod:`rallye.analysis.winmodel`) with whether side 0 went on to win, fits the logistic
model's weights on the matches of even seeds and measures it on those of odd seeds: the
predicted chance against the outcome in ten bins, the Brier score (and the 0.25 of always
saying 50 %), the log loss. Then fits on every match and writes the weights with the
measurement (``--out``, by default the file the package ships).

    python research/mille_win_model.py --matches 4000 [--edition wm2006] [--first-seed 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rallye.agents.base import make_agent
from rallye.analysis.winmodel import FEATURES, features
from rallye.games import game_for

PAIRS = (("medium", "medium"), ("fitted", "fitted"), ("easy", "easy"), ("medium", "fitted"), ("fitted", "medium"))
OUT = Path(__file__).resolve().parents[1] / "src" / "rallye" / "analysis" / "data" / "mille_win.json"


def play(edition: str, seed: int) -> tuple[list[list[float]], int, int]:
    """One match: side 0's features at every decision, whether side 0 won (1/0), decisions."""
    game = game_for("mille")
    settings = game.settings({"edition": edition, "players": 2})
    names = PAIRS[seed % len(PAIRS)]
    bots = [make_agent("mille", names[i], seed * 2 + i) for i in range(2)]
    state = game.new(settings, seed)
    rows: list[list[float]] = []
    while not game.is_over(state):
        seat = game.current_player(state)
        assert seat is not None
        view = game.view_for(state, seat)
        rows.append(features(view, 0))
        state = game.apply(state, bots[seat].choose(view, game.legal_actions(state)), seat)
    won = int(0 in state.winners and len(state.winners) == 1)
    return rows, won, len(rows)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression without intercept by Newton's method (a small ridge keeps it finite)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def measure(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict[str, Any]:
    """Calibration in ``bins`` equal bins of predicted chance, Brier score and log loss."""
    rows = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        m = (p >= lo) & ((p < hi) if b < bins - 1 else (p <= hi))
        if m.any():
            rows.append(
                {"bin": [lo, hi], "positions": int(m.sum()), "predicted": float(p[m].mean()), "won": float(y[m].mean())}
            )
    eps = 1e-12
    return {
        "positions": len(y),
        "brier": float(np.mean((p - y) ** 2)),
        "brier_coin": 0.25,
        "log_loss": float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))),
        "bins": rows,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--edition", default="wm2006")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    started = time.process_time()
    xs: list[list[list[float]]] = [[], []]
    ys: list[list[int]] = [[], []]
    wins = 0
    for seed in range(args.first_seed, args.first_seed + args.matches):
        rows, won, _ = play(args.edition, seed)
        xs[seed % 2] += rows
        ys[seed % 2] += [won] * len(rows)
        wins += won
    fit_x, fit_y = np.array(xs[0]), np.array(ys[0], dtype=float)
    test_x, test_y = np.array(xs[1]), np.array(ys[1], dtype=float)
    w_half = fit(fit_x, fit_y)
    held_out = measure(1.0 / (1.0 + np.exp(-(test_x @ w_half))), test_y)
    # the held-out matches' first positions: the start of a match (every bin must be near 50 %)
    w_all = fit(np.vstack([fit_x, test_x]), np.concatenate([fit_y, test_y]))
    out: dict[str, Any] = {
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in w_all],
        "fitted_on": {
            "edition": args.edition,
            "players": 2,
            "matches": args.matches,
            "first_seed": args.first_seed,
            "bots": [list(p) for p in PAIRS],
            "positions": int(len(fit_y) + len(test_y)),
            "side0_won": wins,
        },
        "held_out": {"fitted_on": "even seeds", "measured_on": "odd seeds", **held_out},
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(
        f"{args.matches} matches ({args.edition}, 2 players), {len(fit_y) + len(test_y)} positions, "
        f"{time.process_time() - started:.0f} s CPU; weights written to {args.out}"
    )
    print("weights:", dict(zip(FEATURES, out["weights"], strict=True)))
    print(
        f"held out ({held_out['positions']} positions of the odd seeds' matches): Brier {held_out['brier']:.4f} "
        f"(always 50 %: 0.25), log loss {held_out['log_loss']:.4f}"
    )
    print("| predicted | positions | mean predicted | won |")
    print("|---|---:|---:|---:|")
    for r in held_out["bins"]:
        lo, hi = r["bin"]
        print(f"| {lo:.1f}–{hi:.1f} | {r['positions']} | {r['predicted']:.3f} | {r['won']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

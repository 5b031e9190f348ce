"""Fit and measure the Knight Rider win model of the analysis (issue #61, item 4).

``play`` plays ``--games`` chases at a table of ``--players`` between bots of like strength
(every seat the same level, in turn ``easy``, ``medium``, ``hard``: a model that knows
nothing of the players' skill is fitted on players of equal skill), quick-built towns,
stopped after ``--rounds`` rounds without a winner. At every decision of the chase it reads,
from the acting player's view only, the model's facts of each car
(:func:`rallye.analysis.krwinmodel.car_features`) and the chances the analysis showed
before this model (the look-ahead's softmax ``shares``), and appends one JSON line per game
to ``--data`` (so runs of several table sizes add up, and a run can be stopped).

``fit`` reads those lines, fits the conditional logit (one weight vector for every table
size) on the games of even seeds and measures it per table size on those of odd seeds,
next to the old shares and to always saying 1/players: every car's predicted chance
against whether it won, in ten bins (each with its standard error, a game's positions
counted together), the Brier score and the log loss (games without a winner left out).
Then it fits on every game and writes the weights with the measurement (``--out``, by
default the file the package ships).

    python research/kr_win_model.py play --players 2 --games 2000 --data kr2.jsonl
    python research/kr_win_model.py fit kr2.jsonl kr3.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from mille_win_model import measure as mille_measure  # research/, beside this script

from rallye.agents.base import make_agent
from rallye.agents.knightrider.search import shares
from rallye.analysis.krwinmodel import FEATURES, car_features
from rallye.knightrider.engine import apply, legal_actions, new_game
from rallye.knightrider.sampling import state_from_view
from rallye.knightrider.state import OVER_PHASE, Options
from rallye.knightrider.view import view_for

LEVELS = ("easy", "medium", "hard")
OUT = Path(__file__).resolve().parents[1] / "src" / "rallye" / "analysis" / "data" / "kr_win.json"


def play(players: int, seed: int, rounds: int) -> dict[str, Any]:
    """One chase: at every decision of the chase, the acting seat, the old shares, the
    decided chances (or None) and every car's features; the winner (None: none)."""
    level = LEVELS[seed % len(LEVELS)]
    bots = [make_agent("knightrider", level, seed * 8 + i) for i in range(players)]
    state = new_game(players, seed, Options(quick_build=True, turn_limit=rounds * players))
    positions: list[list[Any]] = []
    while state.phase != OVER_PHASE:
        seat = state.current
        view = view_for(state, seat)
        if view.villain is not None:
            rows, decided = car_features(view)
            old = shares(state_from_view(view))
            positions.append([seat, [round(p, 5) for p in old], decided, [[round(f, 5) for f in r] for r in rows]])
        state = apply(state, bots[seat].choose(view, legal_actions(state)), player=seat)
    return {
        "players": players,
        "seed": seed,
        "level": level,
        "winner": state.winner,
        "turns": state.turn,
        "positions": positions,
    }


def softmax_fit(groups: list[np.ndarray], won: list[np.ndarray], ridge: float = 1e-3) -> np.ndarray:
    """Conditional logit (each position's cars, the winner's index) by Newton's method.

    ``groups``: per table size an array (positions, cars, features) of equal car counts;
    ``won`` is split the same way (a list of index arrays)."""
    k = groups[0].shape[2]
    w = np.zeros(k)
    for _ in range(60):
        grad = ridge * w
        hess = ridge * np.eye(k)
        for x, y in zip(groups, won, strict=True):
            s = x @ w
            s -= s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("pc,pck->pk", p, x)
            chosen = x[np.arange(len(y)), y]
            grad += (mean - chosen).sum(axis=0)
            second = np.einsum("pc,pck,pcl->kl", p, x, x)
            hess += second - mean.T @ mean
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def _scale(data: dict[str, np.ndarray], w: np.ndarray) -> float:
    """The one factor on the scores ``x . w`` that fits ``data``'s winners best."""
    return float(softmax_fit([(data["x"] @ w)[..., None]], [data["xy"]])[0])


def predict(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    s = x @ w
    s -= s.max(axis=1, keepdims=True)
    p: np.ndarray = np.exp(s)
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def measure(p: np.ndarray, y: np.ndarray, games: np.ndarray, fair: float) -> dict[str, Any]:
    """Every car's chance against whether it won (Mille's measure: ten bins, Brier, log
    loss; ``positions`` counts chances), and the Brier and log loss of always saying
    ``fair`` (1/players). Each bin also gets the standard error of its share won with the
    positions of one game counted together (``games``: each row's game): a game's
    positions all share its one outcome, so they are far from independent."""
    n = p.shape[1]
    gid = np.repeat(games, n)
    p, y = p.ravel(), y.ravel()
    out = mille_measure(np.clip(p, 1e-6, 1 - 1e-6), y)
    del out["brier_coin"]
    out["brier"] = float(np.mean((p - y) ** 2))
    out["brier_fair"] = float(np.mean((fair - y) ** 2))
    out["log_loss_fair"] = float(-np.mean(y * np.log(fair) + (1 - y) * np.log(1 - fair)))
    out["games"] = len(set(games.tolist()))
    for row in out["bins"]:
        lo, hi = row["bin"]
        m = (p >= lo) & ((p < hi) if hi < 1.0 else (p <= hi))
        resid = y[m] - row["won"]
        per_game = np.bincount(np.unique(gid[m], return_inverse=True)[1], weights=resid)
        row["won_se"] = float(np.sqrt(np.sum(per_game**2)) / m.sum())
    return out


def load(paths: list[Path]) -> dict[int, list[dict[str, Any]]]:
    games: dict[int, dict[int, dict[str, Any]]] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SystemExit(f"kr_win_model: cannot read {path}: {exc.strerror}") from None
        for line in text.splitlines():
            if line.strip():
                g = json.loads(line)
                games.setdefault(g["players"], {})[g["seed"]] = g
    return {n: [by_seed[s] for s in sorted(by_seed)] for n, by_seed in sorted(games.items())}


def arrays(games: list[dict[str, Any]], n: int) -> dict[str, np.ndarray]:
    """The positions of the decided games: features (undecided positions), the old shares
    and the decided chances, each with the winner and the game (its seed)."""
    x, xy, gx, old, oldy, gold, sure, surey, gsure = [], [], [], [], [], [], [], [], []
    for g in games:
        if g["winner"] is None:
            continue
        onehot = [1.0 if s == g["winner"] else 0.0 for s in range(n)]
        for _seat, sh, decided, rows in g["positions"]:
            old.append(sh)
            oldy.append(onehot)
            gold.append(g["seed"])
            if decided is not None:
                sure.append(decided)
                surey.append(onehot)
                gsure.append(g["seed"])
            else:
                x.append(rows)
                xy.append(g["winner"])
                gx.append(g["seed"])
    return {
        "x": np.array(x, dtype=float).reshape(-1, n, len(FEATURES)),
        "xy": np.array(xy, dtype=int),
        "gx": np.array(gx, dtype=int),
        "old": np.array(old, dtype=float).reshape(-1, n),
        "oldy": np.array(oldy, dtype=float).reshape(-1, n),
        "gold": np.array(gold, dtype=int),
        "sure": np.array(sure, dtype=float).reshape(-1, n),
        "surey": np.array(surey, dtype=float).reshape(-1, n),
        "gsure": np.array(gsure, dtype=int),
    }


def report(title: str, m: dict[str, Any]) -> None:
    print(
        f"{title}: {m['positions']:,} chances of {m['games']:,} games, Brier {m['brier']:.4f}"
        f" (always 1/n: {m['brier_fair']:.4f}), log loss {m['log_loss']:.4f} (always 1/n: {m['log_loss_fair']:.4f})"
    )
    print("| predicted | chances | mean predicted | won (± s.e. by game) |")
    print("|---|---:|---:|---:|")
    for r in m["bins"]:
        lo, hi = r["bin"]
        print(f"| {lo:.1f}–{hi:.1f} | {r['positions']:,} | {r['predicted']:.3f} | {r['won']:.3f} ± {r['won_se']:.3f} |")


def fit_main(args: argparse.Namespace) -> int:
    by_size = load(args.data)
    halves = {n: [arrays([g for g in games if g["seed"] % 2 == r], n) for r in (0, 1)] for n, games in by_size.items()}
    # one weight vector for every table size (the conditional logit takes any number of
    # cars): measured, the larger tables' fewer games fit better pooled than alone, as the
    # cars can use more data, and one scale per table size then sets how sure the model is
    # there (the scores of larger tables need a sharper softmax than two players')
    w_half = softmax_fit([h[0]["x"] for h in halves.values()], [h[0]["xy"] for h in halves.values()])
    scale_half = {n: _scale(h[0], w_half) for n, h in halves.items()}
    every = {n: arrays(games, n) for n, games in by_size.items()}
    w_all = softmax_fit([e["x"] for e in every.values()], [e["xy"] for e in every.values()])
    weights = [round(float(v), 6) for v in w_all]
    scales = {str(n): round(_scale(e, w_all), 6) for n, e in every.items()}
    fitted_on: dict[str, Any] = {}
    held_out: dict[str, Any] = {}
    print("weights:", dict(zip(FEATURES, weights, strict=True)), "scale by players:", scales)
    for n, games in by_size.items():
        test = halves[n][1]
        onehot = np.eye(n)[test["xy"]]
        model_p = np.concatenate([predict(test["x"], w_half * scale_half[n]), test["sure"]])
        model_y = np.concatenate([onehot, test["surey"]])
        fair = 1.0 / n
        new = measure(model_p, model_y, np.concatenate([test["gx"], test["gsure"]]), fair)
        old = measure(test["old"], test["oldy"], test["gold"], fair)
        decided = [g for g in games if g["winner"] is not None]
        fitted_on[str(n)] = {
            "games": len(games),
            "without_winner": len(games) - len(decided),
            "first_seed": min(g["seed"] for g in games),
            "levels": sorted({g["level"] for g in games}),
            "positions": int(len(every[n]["x"]) + len(every[n]["sure"])),
        }
        held_out[str(n)] = {"model": new, "shares_before": old}
        print(f"\n## {n} players: {len(games)} games ({len(games) - len(decided)} without a winner left out)")
        report("held out, the model", new)
        report("held out, the search's shares (before)", old)
    out = {
        "features": list(FEATURES),
        "weights": weights,
        "scale": scales,
        "fitted_on": {"rounds": args.rounds, "build": "quick", "by_players": fitted_on},
        "held_out": {"fitted_on": "even seeds", "measured_on": "odd seeds", "by_players": held_out},
    }
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"\nweights written to {args.out}")
    return 0


def play_main(args: argparse.Namespace) -> int:
    started = time.process_time()
    with args.data.open("a", encoding="utf-8") as fh:
        for seed in range(args.first_seed, args.first_seed + args.games):
            fh.write(json.dumps(play(args.players, seed, args.rounds), separators=(",", ":")) + "\n")
            fh.flush()
            if (seed - args.first_seed + 1) % 50 == 0:
                print(f"{seed - args.first_seed + 1} games, {time.process_time() - started:.0f} s CPU", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play games and append their positions to --data")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--data", type=Path, required=True)
    f = sub.add_parser("fit", help="fit on even seeds, measure on odd seeds, write the weights")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--rounds", type=int, default=100, help="the rounds the games were played to (recorded)")
    f.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    return play_main(args) if args.command == "play" else fit_main(args)


if __name__ == "__main__":
    sys.exit(main())

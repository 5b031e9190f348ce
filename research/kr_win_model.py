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
size, a scale per size) on the games of even seeds, and two calibration curves per size,
isotonic fits of chances to outcomes where the weights had not seen the game (the even
seeds cut in two by ``seed // 2``, each half's chances from weights fitted on the other):
one of every car's chance (:func:`rallye.analysis.krwinmodel.calibrate`), then one of the
leading car's chance after it (:func:`rallye.analysis.krwinmodel.calibrate_leader`). It
measures that model per table size on the games of odd seeds, then the same the other way
round (fitted on odd, measured on even), so every game is measured once by a model that did
not see it; next to it the model without its curves, the model with the first curve alone
(as it was before the leader's curve), the first model (the nine facts alone, no
bends, no curve, as first shipped), the look-ahead's shares and always saying 1/players: every
car's predicted chance against whether it won, in ten bins (each with its standard error,
a game's positions counted together, and how many games the bin holds), the Brier score
and the log loss (games without a winner left out). Then it fits on every game (the curves
from the odd seeds' chances by weights fitted on the even ones and the other way round)
and writes the weights, the curves and the measurement (``--out``, by default the file the
package ships).

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
from rallye.analysis.krwinmodel import BASE_FEATURES, FEATURES, TIE, car_features, expand
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
        row["games"] = len(per_game)
    return out


def isotonic(p: np.ndarray, y: np.ndarray, blocks: int = 400) -> dict[str, list[float]] | None:
    """The calibration curve of chances ``p`` against outcomes ``y`` (both flat): the
    chances cut into ``blocks`` of equal counts, then pooled with their neighbours while a
    block won less often than the one below it (pool-adjacent-violators), each pooled
    block one point (its mean chance, its share won). None without chances."""
    if len(p) == 0:
        return None
    order = np.argsort(p, kind="stable")
    parts = np.array_split(order, min(blocks, len(p)))
    pooled: list[list[float]] = []  # [sum of chances, sum won, count]
    for part in parts:
        pooled.append([float(p[part].sum()), float(y[part].sum()), float(len(part))])
        while len(pooled) > 1 and pooled[-2][1] / pooled[-2][2] >= pooled[-1][1] / pooled[-1][2]:
            top = pooled.pop()
            pooled[-1] = [a + b for a, b in zip(pooled[-1], top, strict=True)]
    return {
        "predicted": [round(sp / c, 5) for sp, _, c in pooled],
        "won": [round(sy / c, 5) for _, sy, c in pooled],
    }


def read_curve(x: np.ndarray, curve: dict[str, list[float]]) -> np.ndarray:
    """:func:`rallye.analysis.krwinmodel.read_curve` at every value of ``x``."""
    out: np.ndarray = np.interp(x, [0.0, *curve["predicted"], 1.0], [0.0, *curve["won"], 1.0])
    return out


def apply_curve(p: np.ndarray, curve: dict[str, list[float]] | None) -> np.ndarray:
    """:func:`rallye.analysis.krwinmodel.calibrate` on every row of ``p`` (positions, cars)."""
    if not curve:
        return p
    q = read_curve(p, curve)
    total = q.sum(axis=1, keepdims=True)
    out: np.ndarray = np.where(total > 0, q / np.where(total > 0, total, 1.0), p)
    return out


def apply_leader(p: np.ndarray, curve: dict[str, list[float]] | None) -> np.ndarray:
    """:func:`rallye.analysis.krwinmodel.calibrate_leader` on every row of ``p``: the
    leading chance through the curve, the others scaled to share what is left."""
    if not curve:
        return p
    top = p.max(axis=1)
    tied = p >= top[:, None] - TIE
    k = tied.sum(axis=1)
    others = np.where(tied, 0.0, p)
    rest, second = others.sum(axis=1), others.max(axis=1)
    some = rest > 0
    floor = np.where(some, second / np.where(some, rest + k * second, 1.0), 0.0)
    lead = np.minimum(np.maximum(read_curve(top, curve), floor), 1.0 / k)
    scale = np.where(some, (1.0 - k * lead) / np.where(some, rest, 1.0), 1.0)
    out: np.ndarray = np.where(some[:, None], np.where(tied, lead[:, None], p * scale[:, None]), p)
    return out


def leaders(p: np.ndarray, won: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The leading chance of every row of ``p`` (positions, cars) and whether that car won
    (``won``: one-hot rows), one pair per car tied for the lead; rows of cars all tied (the
    calibration leaves them alone) left out."""
    top = p.max(axis=1, keepdims=True)
    tied = (p >= top - TIE) & (np.sum(p >= top - TIE, axis=1, keepdims=True) < p.shape[1])
    return np.broadcast_to(top, p.shape)[tied], won[tied]


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
                x.append([expand(r) for r in rows])
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
    print("| predicted | chances (games) | mean predicted | won | 95 % interval (by game) |")
    print("|---|---:|---:|---:|---:|")
    for r in m["bins"]:
        lo, hi = r["bin"]
        a, b = max(0.0, r["won"] - 1.96 * r["won_se"]), min(1.0, r["won"] + 1.96 * r["won_se"])
        print(
            f"| {lo:.1f}–{hi:.1f} | {r['positions']:,} ({r['games']:,}) | {r['predicted']:.3f} | {r['won']:.3f}"
            f" | {a:.3f}–{b:.3f} |"
        )


def fit(data: dict[int, dict[str, np.ndarray]], k: int) -> tuple[np.ndarray, dict[int, float]]:
    """The weights of the first ``k`` terms, fitted on every table size together, and the
    scale per size. (One vector for all: measured, the larger tables' fewer games fit better
    pooled than alone, and a scale per size sets how sure the model is there.)"""
    cut = {n: {"x": d["x"][..., :k], "xy": d["xy"]} for n, d in data.items() if len(d["xy"])}
    w = softmax_fit([d["x"] for d in cut.values()], [d["xy"] for d in cut.values()])
    return w, {n: _scale(d, w) for n, d in cut.items()}


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """The summed log loss of every car's chance ``p`` against whether it won ``y``."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.sum(y * np.log(q) + (1 - y) * np.log(1 - q)))


def leader_gain(parts: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """What the leader's curve gains on chances it was not fitted on: both curves fitted on
    one half's chances (``parts``: two pairs of chances and one-hot winners), the log loss
    of the other half's with every car's curve alone less with both, summed both ways round
    (per chance). Not positive: the leader's curve is left out at that size."""
    if len(parts) < 2 or any(len(p) == 0 for p, _ in parts):
        return 0.0
    gain, count = 0.0, 0
    for (pa, ya), (pb, yb) in ((parts[0], parts[1]), (parts[1], parts[0])):
        each = isotonic(pa.ravel(), ya.ravel())
        lead = isotonic(*leaders(apply_curve(pa, each), ya))
        base = apply_curve(pb, each)
        gain += _log_loss(base, yb) - _log_loss(apply_leader(base, lead), yb)
        count += yb.size
    return gain / count


def curves(
    by_size: dict[int, list[dict[str, Any]]], split: Any
) -> dict[int, tuple[dict[str, list[float]], dict[str, list[float]] | None, float] | None]:
    """The calibration curves per table size from chances the weights did not see: the
    games cut in two by ``split(seed)`` (0 or 1), each half's chances by weights fitted on
    the other half; then :func:`isotonic` on every car's chance against whether it won,
    and on the leading chances after that curve against whether the leader won. The
    leader's curve only where it gains on the half it was not fitted on
    (:func:`leader_gain`, the third of each triple), else None."""
    halves = [
        {n: arrays([g for g in games if split(g["seed"]) == r], n) for n, games in by_size.items()} for r in (0, 1)
    ]
    chances: dict[int, list[np.ndarray]] = {n: [] for n in by_size}
    won: dict[int, list[np.ndarray]] = {n: [] for n in by_size}
    for train, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        if not any(len(d["xy"]) for d in train.values()):
            continue
        w, scale = fit(train, len(FEATURES))
        for n, d in test.items():
            if len(d["xy"]) and n in scale:
                chances[n].append(predict(d["x"], w * scale[n]))
                won[n].append(np.eye(n)[d["xy"]])
    out: dict[int, tuple[dict[str, list[float]], dict[str, list[float]] | None, float] | None] = {}
    for n in by_size:
        p = np.concatenate(chances[n]) if chances[n] else np.zeros((0, n))
        y = np.concatenate(won[n]) if won[n] else np.zeros((0, n))
        each = isotonic(p.ravel(), y.ravel())
        gain = leader_gain(list(zip(chances[n], won[n], strict=True)))
        lead = isotonic(*leaders(apply_curve(p, each), y)) if gain > 0 else None
        out[n] = (each, lead, gain) if each is not None else None
    return out


def fit_main(args: argparse.Namespace) -> int:
    by_size = load(args.data)
    # held out, both ways round: the weights (and the first model's, on the nine facts)
    # fitted on the games of one parity of seed, the curves from that parity's chances by
    # weights fitted on the other half of it (cut by seed // 2); measured on the games of
    # the other parity. Every game is measured once, by a model that never saw it.
    names = ("model", "uncalibrated", "per_car_curve", "first_model", "shares_before")
    parts: dict[int, dict[str, list[list[np.ndarray]]]] = {n: {k: [[], [], []] for k in names} for n in by_size}
    leader_used: dict[int, list[bool]] = {n: [] for n in by_size}
    for parity in (0, 1):
        own = {n: [g for g in games if g["seed"] % 2 == parity] for n, games in by_size.items()}
        train = {n: arrays(games, n) for n, games in own.items()}
        w, scale = fit(train, len(FEATURES))
        w_first, scale_first = fit(train, len(BASE_FEATURES))
        curve = curves(own, lambda seed: (seed // 2) % 2)
        for n, made in curve.items():
            leader_used[n].append(made is not None and made[1] is not None)
        for n, games in by_size.items():
            test = arrays([g for g in games if g["seed"] % 2 != parity], n)
            got = parts[n]
            got["shares_before"][0].append(test["old"])
            got["shares_before"][1].append(test["oldy"])
            got["shares_before"][2].append(test["gold"])
            if n not in scale:
                continue
            raw = predict(test["x"], w * scale[n])
            first = predict(test["x"][..., : len(BASE_FEATURES)], w_first * scale_first[n])
            each, lead, _ = curve[n] or (None, None, 0.0)
            for name, p in (
                ("model", apply_leader(apply_curve(raw, each), lead)),
                ("uncalibrated", raw),
                ("per_car_curve", apply_curve(raw, each)),
                ("first_model", first),
            ):
                got[name][0] += [p, test["sure"]]
                got[name][1] += [np.eye(n)[test["xy"]], test["surey"]]
                got[name][2] += [test["gx"], test["gsure"]]
    # shipped: fitted on every game, the curves from each parity's chances by the other's weights
    every = {n: arrays(games, n) for n, games in by_size.items()}
    w_all, scale_all = fit(every, len(FEATURES))
    curve_all = curves(by_size, lambda seed: seed % 2)
    weights = [round(float(v), 6) for v in w_all]
    scales = {str(n): round(v, 6) for n, v in scale_all.items()}
    fitted_on: dict[str, Any] = {}
    held_out: dict[str, Any] = {}
    print("weights:", dict(zip(FEATURES, weights, strict=True)), "scale by players:", scales)
    titles = {
        "model": "the model, calibrated",
        "uncalibrated": "the model before its calibration curves",
        "per_car_curve": "the model with every car's curve alone (as before the leader's curve)",
        "first_model": "the first model (nine facts, no bends, no curve)",
        "shares_before": "the search's shares (before any model)",
    }
    for n, games in by_size.items():
        decided = [g for g in games if g["winner"] is not None]
        fitted_on[str(n)] = {
            "games": len(games),
            "without_winner": len(games) - len(decided),
            "first_seed": min(g["seed"] for g in games),
            "levels": sorted({g["level"] for g in games}),
            "positions": int(len(every[n]["x"]) + len(every[n]["sure"])),
        }
        print(f"\n## {n} players: {len(games)} games ({len(games) - len(decided)} without a winner left out)")
        held_out[str(n)] = {"leader_curve": leader_used[n]}
        print(f"the leader's curve used (fitted on even seeds, on odd): {leader_used[n]}")
        for name, (ps, ys, gs) in parts[n].items():
            if ps:
                m = measure(np.concatenate(ps), np.concatenate(ys), np.concatenate(gs), 1.0 / n)
                held_out[str(n)][name] = m
                report(f"held out, {titles[name]}", m)
    out = {
        "features": list(FEATURES),
        "weights": weights,
        "scale": scales,
        "calibration": {str(n): c[0] for n, c in curve_all.items() if c is not None},
        "leader_calibration": {str(n): c[1] for n, c in curve_all.items() if c is not None and c[1] is not None},
        "leader_gain": {str(n): round(c[2], 7) for n, c in curve_all.items() if c is not None},
        "fitted_on": {"rounds": args.rounds, "build": "quick", "by_players": fitted_on},
        "held_out": {
            "fitted_on": "the seeds of one parity (curves: each half of them by weights fitted on the other)",
            "measured_on": "the seeds of the other parity, both ways round: every game once",
            "by_players": held_out,
        },
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

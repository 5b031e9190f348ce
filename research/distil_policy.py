"""Fit the ``distilled`` bot's weights to ``expert``'s recorded estimates.

Reads JSON-lines files written by ``research/expert_decisions.py`` (one line per searched
decision of ``expert``: its view, its candidates with the ``fitted`` heuristic's choice
first, and each alternative's paired gain over that choice with its standard error), and
fits the linear model of :mod:`rallye.agents.mille.distilled`: for every measured
alternative, the difference of its features and the default's should predict the gain
the search measured. Weighted least squares (each gain weighted by ``1 / (se^2 + tau^2)``,
gains below ``-clip`` clipped there: how bad a bad move is matters little for choosing),
with a ridge penalty ``lam`` (times the mean weight) towards zero, i.e. towards the
heuristic.

Model selection is by deal: the decisions of the first half of the deals fit, the second
half judge. For each ridge penalty and margin (an alternative is played only when its
predicted gain exceeds the margin) it prints, on the judging half, the mean points a
decision the policy gains over the heuristic's move by the search's own (unbiased, paired)
estimates, with its standard error, and how often it moves away from the heuristic.
Expert's own choice is printed too, for scale: a policy cannot beat the estimates it was
fitted to. Then it fits the chosen setting (the best on the judging half, or ``--lam`` and
``--margin``) on every decision and writes the weights file ``--out``:

    python research/expert_decisions.py --matches 240 --first-seed 400000 --out /tmp/exp.jsonl
    python research/distil_policy.py /tmp/exp.jsonl --out src/rallye/agents/data/distilled_wm2006.json

The weights name the editions they are for (``--editions``, by default those of the
records); on any other edition the ``distilled`` bot plays the heuristic's move.

Not a test: with 27,000 decisions it takes half a minute a setting.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rallye.agents.mille.distilled import FEATURE_VERSION, Weights, context, features
from rallye.agents.mille.heuristic import FITTED, Reading, score_action
from rallye.core.errors import GameError
from rallye.mille.actions import parse_action
from rallye.mille.edition import get_edition
from rallye.mille.view import MilleView


@dataclass(frozen=True)
class Decision:
    edition: str
    deal: int
    feats: list[dict[str, float]]  # per candidate, the default first
    gains: list[float]  # the search's paired gain over the default (0 for it; nan: not measured)
    ses: list[float]
    chosen: int  # the candidate expert played


def load(paths: Sequence[Path]) -> list[Decision]:
    """Every decision in the play phase (the extension decision stays the heuristic's)."""
    out = []
    for path in paths:
        with path.open() as fh:
            for no, line in enumerate(fh, 1):
                try:
                    rec = json.loads(line)
                    view = MilleView.from_json(rec["view"])
                    names = rec["candidates"]
                    cands = [parse_action(c) for c in names]
                    gains_rec = rec["gains"]
                    chosen = names.index(rec["chosen"])
                except (GameError, ValueError, KeyError, TypeError) as e:
                    raise SystemExit(f"{path}:{no}: not a record of expert_decisions.py ({e})") from e
                if view.phase != "play":
                    continue
                r = Reading.of(view, FITTED)
                ctx = context(r)
                base = score_action(r, cands[0])
                gains, ses = [0.0], [0.0]
                for c in names[1:]:
                    g, se = gains_rec.get(c, (math.nan, math.nan))
                    ok = g is not None and se is not None and math.isfinite(g) and math.isfinite(se)
                    gains.append(float(g) if ok else math.nan)
                    ses.append(float(se) if ok else math.nan)
                out.append(
                    Decision(
                        view.edition.key,
                        int(rec["deal"]),
                        [features(r, a, ctx, base) for a in cands],
                        gains,
                        ses,
                        chosen,
                    )
                )
    return out


def fit(decisions: Sequence[Decision], lam: float, clip: float, tau: float) -> dict[str, float]:
    """Weighted ridge regression of the measured gains on the feature differences."""
    index: dict[str, int] = {}
    for d in decisions:
        for f in d.feats:
            for k in f:
                index.setdefault(k, len(index))
    n = len(index)
    ata = np.zeros((n, n))
    atb = np.zeros(n)
    wsum = 0.0
    rows = 0
    for d in decisions:
        base = d.feats[0]
        for j in range(1, len(d.feats)):
            g, se = d.gains[j], d.ses[j]
            if math.isnan(g):
                continue
            x = np.zeros(n)
            for k, v in d.feats[j].items():
                x[index[k]] += v
            for k, v in base.items():
                x[index[k]] -= v
            w = 1.0 / (se * se + tau * tau)
            nz = np.flatnonzero(x)
            xs = x[nz]
            ata[np.ix_(nz, nz)] += w * np.outer(xs, xs)
            atb[nz] += w * max(g, -clip) * xs
            wsum += w
            rows += 1
    if rows == 0:
        raise SystemExit("no measured alternative to fit")
    beta = np.linalg.solve(ata + lam * (wsum / rows) * np.eye(n), atb)
    return {k: float(beta[i]) for k, i in index.items() if beta[i] != 0.0}


def judge(decisions: Sequence[Decision], weights: Weights) -> tuple[float, float, float]:
    """Mean gain a decision of the policy over the heuristic's move (the search's estimates),
    its standard error, and the share of decisions it changes. An unmeasured choice (an
    alternative the search dropped early has a gain on fewer deals; one never measured)
    counts as the heuristic's move: no gain."""
    picks = []
    changed = 0
    for d in decisions:
        best = weights.choice([weights.value(f) for f in d.feats])
        changed += best != 0
        g = d.gains[best]
        picks.append(0.0 if math.isnan(g) else g)
    return mean_se(picks) + (changed / max(1, len(decisions)),)


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), math.inf
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="+", type=Path, help="JSON-lines files of research/expert_decisions.py")
    ap.add_argument("--out", type=Path, help="the weights file written (fitted on every decision)")
    ap.add_argument("--lams", default="10,30,100,300", help="ridge penalties tried")
    ap.add_argument("--margins", default="0,10,20,40", help="margins tried, in points")
    ap.add_argument("--lam", type=float, help="fit this penalty (default: the best on the judging half)")
    ap.add_argument("--margin", type=float, help="with this margin (default: the best on the judging half)")
    ap.add_argument("--clip", type=float, default=100.0, help="gains below -CLIP count as -CLIP")
    ap.add_argument("--tau", type=float, default=20.0, help="added to each gain's standard error in the weights")
    ap.add_argument(
        "--editions",
        help="comma-separated edition keys the weights are for (default: the records' own); "
        "on any other edition the bot plays the heuristic's move",
    )
    args = ap.parse_args(argv)
    try:
        lams = [float(x) for x in args.lams.split(",")]
        margins = [float(x) for x in args.margins.split(",")]
    except ValueError:
        ap.error("--lams and --margins are comma-separated numbers")
    for p in args.records:
        if not p.is_file():
            ap.error(f"no such file: {p}")
    for key in (args.editions or "wm2006").split(","):
        try:
            get_edition(key)
        except GameError as e:
            ap.error(f"--editions: {e}")
    decisions = load(args.records)
    deals = sorted({d.deal for d in decisions})
    if len(deals) < 2:
        ap.error("the records hold fewer than two deals: nothing to judge a fit on")
    first = set(deals[: len(deals) // 2])
    train = [d for d in decisions if d.deal in first]
    test = [d for d in decisions if d.deal not in first]
    print(f"{len(decisions)} decisions of {len(deals)} deals; fitting on {len(train)}, judging on {len(test)}")
    expert = mean_se([0.0 if math.isnan(d.gains[d.chosen]) else d.gains[d.chosen] for d in test])
    print(f"expert's own choices: {expert[0]:+.2f} +- {expert[1]:.2f} points a decision over the heuristic's")
    best: tuple[float, float, float] | None = None
    fits: dict[float, dict[str, float]] = {}  # on the fitting half, by penalty
    for lam in lams:
        fits[lam] = fit(train, lam, args.clip, args.tau)
        for m in margins:
            gain, se, changed = judge(test, Weights(fits[lam], m, {}))
            print(f"lam {lam:6g}  margin {m:4g}: {gain:+.2f} +- {se:.2f} a decision, {changed:.1%} changed")
            if best is None or gain > best[0]:
                best = (gain, lam, m)
    assert best is not None
    lam = args.lam if args.lam is not None else best[1]
    margin = args.margin if args.margin is not None else best[2]
    print(f"chosen: lam {lam:g}, margin {margin:g}")
    if args.out is None:
        return
    w = fit(decisions, lam, args.clip, args.tau)
    held_fit = fits[lam] if lam in fits else fit(train, lam, args.clip, args.tau)
    held = judge(test, Weights(held_fit, margin, {}))
    meta: dict[str, Any] = {
        "fitted_on": [p.name for p in args.records],
        "decisions": len(decisions),
        "deals": len(deals),
        "lam": lam,
        "clip": args.clip,
        "tau": args.tau,
        "held_out_gain": round(held[0], 3),
        "held_out_se": round(held[1], 3),
    }
    editions = args.editions.split(",") if args.editions else sorted({d.edition for d in decisions})
    weights = Weights(w, margin, meta, tuple(editions))
    data = weights.to_json()
    data["weights"] = {k: round(v, 4) for k, v in sorted(data["weights"].items())}
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(w)} weights (feature version {FEATURE_VERSION}) written to {args.out}")


if __name__ == "__main__":
    main()

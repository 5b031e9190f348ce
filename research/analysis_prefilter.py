"""Could the batched engine's random rollouts prefilter the analysis's candidates?

``rallye.batch.MilleBatch`` plays uniformly random moves in compiled code, hundreds of
thousands a second; the analysis (``rallye.analysis``, expert's search) values a move by
rollouts in which every seat plays the heuristic, some 14 000 Python engine steps a
decision. A cheap prefilter would value each candidate by random rollouts first and hand
the search only the best few. This measures whether the random values rank the moves as
the search does: for every decision of ``--matches`` 2-player wm2006 matches (the
benchmark's, ``benchmarks/analysis_speed.py``), each candidate of the analysis is played
on ``--deals`` deals sampled from the view (the same deals for all candidates), each deal
rolled out ``--rollouts`` times at random to the end of the hand in the batch; a move's
value is the hand's points, this side's less the other's (as the search's). Printed: how
often the random values' best move is the analysis's preferred one, and how often the
preferred one is among the random values' best ``m`` (what a prefilter keeping ``m``
candidates would lose), with the share of candidates ``m`` keeps; and the batch's time.

    PYTHONPATH=src python research/analysis_prefilter.py --matches 1
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rallye.agents.mille.sampler import sample_state, unseen_cards
from rallye.analysis.evaluators import MilleEvaluator
from rallye.batch import MilleBatch
from rallye.core.rng import derive_seed
from rallye.games import game_for
from rallye.mille.engine import apply
from rallye.mille.state import MilleState


def _benchmark() -> Any:
    """``benchmarks/analysis_speed.py`` (its matches: ``match_record``), loaded by path."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "analysis_speed.py"
    spec = importlib.util.spec_from_file_location("analysis_speed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_values(
    batch: MilleBatch, states: list[MilleState], side: int, root_sheets: int, rollouts: int
) -> np.ndarray:
    """The hand's points of ``side`` less the other side's after random play to the end of
    the hand, from each state (``rollouts`` times each, averaged)."""
    out = np.zeros(len(states))
    rows: list[int] = []
    for i, s in enumerate(states):
        if len(s.sheets) > root_sheets:  # the move ended the hand: its points are known
            pts = s.sheets[root_sheets].hand_totals
            out[i] = pts[side] - pts[1 - side]
            continue
        for _ in range(rollouts):
            batch.load(len(rows), s)
            rows.append(i)
    if rows:
        sheets, _ = batch.rollouts(to="hand")
        pts = sheets[: len(rows)].sum(axis=2)
        for r, i in enumerate(rows):
            out[i] += (pts[r, side] - pts[r, 1 - side]) / rollouts
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=32)
    ap.add_argument("--rollouts", type=int, default=8)
    ap.add_argument("--bot", default="expert", help="the analysis bot (as rallye analyse --bot)")
    ap.add_argument("--edition", default="wm2006", help="the matches' edition")
    args = ap.parse_args(argv)
    game = game_for("mille")
    tops = (1, 2, 3, 4)
    found = dict.fromkeys(tops, 0)
    kept = dict.fromkeys(tops, 0)
    decisions = candidates = 0
    batch_cpu = analysis_cpu = 0.0
    batch: MilleBatch | None = None
    bench = _benchmark()
    for seed in range(args.seed, args.seed + args.matches):
        lines = bench.match_record(seed, ("medium", "medium"), args.edition)
        rep = game.replay(lines)
        state = rep.initial
        evaluator = MilleEvaluator(args.bot, seed)
        for i, (seat, action) in enumerate(rep.moves):
            view = game.view_for(state, seat)
            legal = game.legal_from_view(view)
            if len(legal) > 1:
                t = time.process_time()
                judged = evaluator.evaluate(view, legal, key=i)
                analysis_cpu += time.process_time() - t
                cands = [c.action for c in judged.candidates]
                if len(cands) > 1:
                    size = args.deals * len(cands) * args.rollouts
                    if batch is None or batch.size < size:
                        batch = MilleBatch(state.edition, state.n_players, size, seed, auto_reset=False)
                    t = time.process_time()
                    rng = random.Random(derive_seed(seed, "prefilter", i))
                    agent = evaluator.agent
                    excl, pool = agent._exclusions(view), unseen_cards(view)
                    deals = [sample_state(view, rng, excl, pool) for _ in range(args.deals)]
                    after = [apply(d, a) for a in cands for d in deals]
                    vals = random_values(batch, after, view.side, len(view.sheets), args.rollouts)
                    means = vals.reshape(len(cands), args.deals).mean(axis=1)
                    batch_cpu += time.process_time() - t
                    order = [cands[j] for j in np.argsort(-means, kind="stable")]
                    decisions += 1
                    candidates += len(cands)
                    for m in tops:
                        found[m] += judged.best in order[:m]
                        kept[m] += min(m, len(cands))
            state = game.apply(state, action, seat)
    print(
        f"{decisions} decisions ({candidates} candidates) of {args.matches} matches from seed {args.seed}; "
        f"{args.deals} deals x {args.rollouts} random rollouts a candidate"
    )
    print("| random values' best m | the analysis's move among them | candidates kept |")
    print("|---:|---:|---:|")
    for m in tops:
        print(f"| {m} | {found[m] / decisions:.1%} | {kept[m] / candidates:.1%} |")
    print(
        f"CPU: the batch's prefilter {batch_cpu / decisions * 1000:.0f} ms a decision (sampling included), "
        f"the analysis {analysis_cpu / decisions * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

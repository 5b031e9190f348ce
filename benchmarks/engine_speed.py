"""Mille Bornes engine speed: random playouts on one core, per edition.

    python benchmarks/engine_speed.py [--seconds 3] [--players 2] [--edition wm2006 ...]
    python benchmarks/engine_speed.py --profile [--top 25]

A *step* is one decision: ``legal_actions(state)``, a uniformly random pick (a seeded
``random.Random``) and ``apply(state, action)``. Whole matches are played from seeds
0, 1, 2, … until the time budget is spent (a match is always finished), then it prints
steps per second, hands per second and the ratio to the goal of 100,000 steps/s.
``--profile`` runs the same loop under cProfile (one edition) and prints the top costs.
This measures the engine alone: no views, no bots.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout

from rallye import mille
from rallye.mille.edition import EDITION_KEYS

GOAL_STEPS_PER_SECOND = 100_000


def playouts(edition: str, players: int, seconds: float, seed: int = 0) -> tuple[int, int, int, float]:
    """Play random matches for about ``seconds``: ``(steps, hands, matches, elapsed)``."""
    rng = random.Random(seed)
    legal_actions, apply, is_over = mille.legal_actions, mille.apply, mille.is_over
    steps = hands = matches = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = mille.new_match(edition, players, seed=seed + matches)
        while not is_over(state):
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            steps += 1
        hands += len(state.sheets)
        matches += 1
        elapsed = time.perf_counter() - start
    return steps, hands, matches, elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per edition (default 3)")
    p.add_argument("--players", type=int, default=2, help="players (default 2)")
    p.add_argument("--edition", action="append", choices=EDITION_KEYS, help="edition(s) to run (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profile", action="store_true", help="profile the playouts and print the top costs")
    p.add_argument("--top", type=int, default=25, help="rows of the profile to print (default 25)")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    eds = args.edition or list(EDITION_KEYS)
    for ed in eds:
        mille.get_edition(ed).sides_for(args.players)  # a clear error for a player count the edition lacks

    if args.profile:
        ed = eds[0]
        prof = cProfile.Profile()
        prof.enable()
        steps, hands, matches, elapsed = playouts(ed, args.players, args.seconds, args.seed)
        prof.disable()
        print(f"{ed}, {args.players} players: {steps} steps, {hands} hands in {elapsed:.2f} s (under the profiler)")
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
            print(f"--- top {args.top} by {order} ---")
            print(out.getvalue().split("\n", 4)[-1].strip("\n"))
        return 0

    print(f"random playouts, {args.players} players, one core, about {args.seconds:g} s per edition")
    print(f"{'edition':<10}{'steps/s':>12}{'hands/s':>10}{'steps/hand':>12}{'matches':>9}{'vs goal':>9}")
    for ed in eds:
        steps, hands, matches, elapsed = playouts(ed, args.players, args.seconds, args.seed)
        sps = steps / elapsed
        print(
            f"{ed:<10}{sps:>12,.0f}{hands / elapsed:>10,.1f}{steps / hands:>12.1f}{matches:>9}"
            f"{sps / GOAL_STEPS_PER_SECOND:>8.2f}x"
        )
    print(f"(goal: {GOAL_STEPS_PER_SECOND:,} steps/s; 'vs goal' is steps/s divided by it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

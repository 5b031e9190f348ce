"""Mille Bornes engine speed: random playouts on one core, per edition and path.

    python benchmarks/engine_speed.py [--seconds 3] [--players 2] [--edition wm2006 ...] [--path both]
    python benchmarks/engine_speed.py --profile [--path playout] [--top 25]

A *step* is one decision: the legal actions, a uniformly random pick (a seeded
``random.Random``) and applying it. Two paths through the same rules:

* ``engine``: ``legal_actions(state)`` and ``apply(state, action)``, a new immutable state
  every step (what records, views and the terminal use);
* ``playout``: :class:`rallye.mille.playout.Playout`, the engine's fast path that applies a
  move in place (what the search's rollouts use; checked step by step against ``apply``).

Whole matches are played from seeds 0, 1, 2, ... until the time budget (CPU time of this
process, so a busy machine shifts the figures less) is spent (a match is always
finished); it prints steps per second, hands per second and the ratio to the goal of
100,000 steps/s. With both paths, each edition's time is split into ``--rounds`` rounds
taken in turn (a round starts both paths on the same matches), and the ratio of the fast
path's rate to the engine's is printed round by round (median and range): the machine's
speed can move more within a minute than the two paths differ. ``--profile`` runs one
path's loop under cProfile (one edition) and prints the top costs. This measures the
engine alone: no views, no bots.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout

from rallye import mille
from rallye.mille.edition import EDITION_KEYS
from rallye.mille.playout import Playout

GOAL_STEPS_PER_SECOND = 100_000


def playouts(
    edition: str, players: int, seconds: float, seed: int = 0, path: str = "engine"
) -> tuple[int, int, int, float]:
    """Play random matches for about ``seconds`` of CPU time on ``path`` (``engine`` or
    ``playout``): ``(steps, hands, matches, elapsed)``. Both paths make the same picks from
    the same seed, so they play the same matches."""
    rng = random.Random(seed)
    legal_actions, apply, is_over = mille.legal_actions, mille.apply, mille.is_over
    steps = hands = matches = 0
    clock = time.process_time
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        state = mille.new_match(edition, players, seed=seed + matches)
        if path == "playout":
            p = Playout(state)
            while p.phase != "over":
                legal = p.legal_actions()
                p.apply(legal[rng.randrange(len(legal))])
                steps += 1
            hands += len(p.sheets)
        else:
            while not is_over(state):
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))])
                steps += 1
            hands += len(state.sheets)
        matches += 1
        elapsed = clock() - start
    return steps, hands, matches, elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per edition (default 3)")
    p.add_argument("--players", type=int, default=2, help="players (default 2)")
    p.add_argument("--edition", action="append", choices=EDITION_KEYS, help="edition(s) to run (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--path",
        choices=("engine", "playout", "both"),
        default="both",
        help="engine (legal_actions/apply), playout (the fast path) or both (default; --profile: playout)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=6,
        help="with both paths: rounds taken in turn, so that the machine's load hits both alike (default 6)",
    )
    p.add_argument("--profile", action="store_true", help="profile the playouts and print the top costs")
    p.add_argument("--top", type=int, default=25, help="rows of the profile to print (default 25)")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    eds = args.edition or list(EDITION_KEYS)
    for ed in eds:
        mille.get_edition(ed).sides_for(args.players)  # a clear error for a player count the edition lacks

    if args.profile:
        ed = eds[0]
        path = "playout" if args.path == "both" else args.path
        prof = cProfile.Profile()
        prof.enable()
        steps, hands, matches, elapsed = playouts(ed, args.players, args.seconds, args.seed, path)
        prof.disable()
        print(
            f"{ed}, {args.players} players, {path} path: {steps} steps, {hands} hands in {elapsed:.2f} s"
            " (under the profiler)"
        )
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
            print(f"--- top {args.top} by {order} ---")
            print(out.getvalue().split("\n", 4)[-1].strip("\n"))
        return 0

    paths = ("engine", "playout") if args.path == "both" else (args.path,)
    rounds = args.rounds
    print(
        f"random playouts, {args.players} players, one core, about {args.seconds:g} s of CPU time per row"
        + (f" in {rounds} rounds taken in turn with the other path" if len(paths) > 1 and rounds > 1 else "")
    )
    print(f"{'edition':<10}{'path':<9}{'steps/s':>12}{'hands/s':>10}{'steps/hand':>12}{'matches':>9}{'vs goal':>9}")
    for ed in eds:
        totals: dict[str, tuple[int, int, int, float]] = {path: (0, 0, 0, 0.0) for path in paths}
        ratios = []
        for r in range(rounds if len(paths) > 1 else 1):
            rates = []
            for path in paths:
                got = playouts(ed, args.players, args.seconds / rounds, args.seed + 100_000 * r, path)
                t = totals[path]
                totals[path] = (t[0] + got[0], t[1] + got[1], t[2] + got[2], t[3] + got[3])
                rates.append(got[0] / got[3])
            if len(rates) == 2:
                ratios.append(rates[1] / rates[0])
        for path in paths:
            steps, hands, matches, elapsed = totals[path]
            sps = steps / elapsed
            print(
                f"{ed:<10}{path:<9}{sps:>12,.0f}{hands / elapsed:>10,.1f}{steps / hands:>12.1f}{matches:>9}"
                f"{sps / GOAL_STEPS_PER_SECOND:>8.2f}x"
            )
        if ratios:
            print(
                f"{'':<10}playout / engine, round by round: median {statistics.median(ratios):.2f}"
                f" (range {min(ratios):.2f}-{max(ratios):.2f})"
            )
    print(f"(goal: {GOAL_STEPS_PER_SECOND:,} steps/s; 'vs goal' is steps/s divided by it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Soak: full random Knight Rider games, played to a capture, invariants after every step.

    python benchmarks/kr_soak.py [--games 2000] [--workers 2] [--no-check]

Prints how many games ended by a capture, how many hit the safety cap (random bots can wall
their own cars in with detours for ever), and the spread of turns. The test suite runs a
capped version of this (tests/knightrider/test_kr_random_games.py); this is the long run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "knightrider")]

SAFETY_CAP = 4000


def one(args: tuple[int, bool]) -> tuple[bool, int, int]:
    from test_kr_random_games import VARIANTS, run  # type: ignore[import-not-found]  # tests/knightrider, on sys.path above

    from rallye.knightrider import Options

    i, check = args
    opts = Options(**{**VARIANTS[i % len(VARIANTS)].to_json(), "turn_limit": SAFETY_CAP})
    s = run(2 + i % 4, 20_000 + i, opts, i, check=check)
    return s.winner is not None, s.turn, s.players


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        results = list(pool.map(one, [(i, not a.no_check) for i in range(a.games)], chunksize=20))
    won = [t for w, t, _ in results if w]
    capped = len(results) - len(won)
    q = statistics.quantiles(won, n=4) if len(won) > 1 else [0, 0, 0]
    print(
        f"{len(results)} full random games (players 2-5, 6 variant sets), invariants "
        f"{'off' if a.no_check else 'checked after every step'}"
    )
    print(f"ended by a capture: {len(won)}; stopped at the {SAFETY_CAP}-turn safety cap: {capped}")
    median = statistics.median(won) if won else 0
    print(f"turns to the capture: median {median}, IQR {q[0]}-{q[2]}, max {max(won, default=0)}")
    print(f"wall time {time.perf_counter() - t0:.0f} s with {a.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())

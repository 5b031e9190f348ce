"""Per-move decision time of the Mille Bornes bots (one core, one process).

Plays 2-player wm2006 hands in which the measured bot sits at seat 0 against the
heuristic, and times every decision of the measured bot: mean, 95th percentile, max.
The time is the process's CPU time (``time.process_time``): what one core spends on the
move, the same on a loaded machine as on a quiet one (the wall clock would count the time
other programs take the core away).

    PYTHONPATH=src python benchmarks/bot_speed.py --bots hard,expert --hands 6

A bot is a level or bot name, or a ``pimc/key=value/...`` spec as ``ladder.py`` takes it
(``cpu_limit=0.45`` gives a spec expert's CPU ceiling), to time a setting before a level
takes it.

Targets (issue): ``hard`` ≤ 0.2 s and ``expert`` ≤ 0.5 s per move. The search levels
stop sampling deals at a ceiling of CPU time under those limits
(``rallye.agents.mille.levels.CPU_LIMITS``); ``capped`` counts the moves where it acted, which a
machine fast enough to spend the whole budget in time never shows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# a bot spec ("pimc/deals=160/...") is read as the strength ladder reads it
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "research"))
from ladder import build

from rallye import mille
from rallye.agents.base import make_agent


def measure(
    name: str,
    hands: int,
    players: int,
    edition: str,
    capped: list[bool] | None = None,
    moves: list[str] | None = None,
    exact: bool = False,
) -> list[float]:
    """CPU seconds of each of the measured bot's moves; ``capped`` (if given) gets, per move,
    whether its search stopped at the CPU ceiling, ``moves`` the move (notation); ``exact``
    plays the levels' whole budgets, without the ceiling."""
    times: list[float] = []
    for seed in range(hands):
        s = mille.new_match(edition, players, seed=seed)
        bots = [
            build(name, seed, exact) if p == 0 else make_agent("mille", "heuristic", seed + p) for p in range(players)
        ]
        while not s.sheets:
            v = mille.view_for(s, s.current)
            legal = mille.legal_from_view(v)
            t = time.process_time()
            a = bots[s.current].choose(v, legal)
            if s.current == 0:
                times.append(time.process_time() - t)
                if capped is not None:
                    capped.append(bool(getattr(bots[0], "last_capped", False)))
                if moves is not None:
                    moves.append(str(a))
            s = mille.apply(s, a)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="easy,medium,hard,expert")
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--edition", default="wm2006")
    args = ap.parse_args()
    print(f"{args.edition}, {args.players} players, {args.hands} hands per bot; seconds per move")
    for name in args.bots.split(","):
        capped: list[bool] = []
        ts = sorted(measure(name, args.hands, args.players, args.edition, capped))
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(
            f"{name:>9}: mean {statistics.mean(ts):.4f}  p95 {p95:.4f}  max {ts[-1]:.4f}  ({len(ts)} moves, "
            f"{sum(capped)} capped)",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Knight Rider bot ladder and decision speed.

Ladder (default): 4-player games, each level against the one below (random < easy <
medium < hard < expert), two seats each, the seating alternated game by game (A B A B /
B A B A; the start player is rolled by the game). Prints per pairing the upper level's
share of the decided games with a 95 % Wilson interval, and the games ended by the turn
limit::

    python research/kr_ladder.py --games 100 [--pairs hard:medium,...] [--workers 2]

Speed: the time per decision of each level on one core (mean, median, 95th percentile
and max), over every decision and over the decisions where the search ran::

    python research/kr_ladder.py --speed [--games 4] [--players 2,4,5]

Everything is seeded (``--seed``); the search levels use no clock (their work is
bounded by their candidate count), so the ladder figures reproduce on any machine (the
times do not). Knight Rider is a game of dice: the levels above the heuristic win by a
few points, so a step of the ladder needs several hundred games to show (``--games``).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rallye.agents.base import make_agent
from rallye.knightrider import Move, Options, PlayKitt, apply, is_over, new_game, view_for, winner
from rallye.knightrider.sampling import legal_from_view

LADDER = ("random", "easy", "medium", "hard", "expert")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play(
    seats: list[str], seed: int, options: Options, timed: str | None = None
) -> tuple[int | None, int, list[tuple[float, bool]]]:
    """One game; returns the winning seat (or None), the turns, and the timed bot's decisions."""
    agents = [make_agent("knightrider", name, seed * 16 + i) for i, name in enumerate(seats)]
    state = new_game(len(seats), seed, options)
    times: list[tuple[float, bool]] = []
    while not is_over(state):
        p = state.current
        view = view_for(state, p)
        legal = legal_from_view(view)
        t = time.perf_counter()
        action = agents[p].choose(view, legal)
        dt = time.perf_counter() - t
        if seats[p] == timed:
            searched = view.phase == "turn" and any(isinstance(a, Move | PlayKitt) for a in legal) and len(legal) > 1
            times.append((dt, searched))
        state = apply(state, action)
    return winner(state), state.turn, times


def _ladder_game(job: tuple[str, str, int, int, int]) -> tuple[str, str, str | None, int]:
    upper, lower, seed, players, limit = job
    if seed % 2 == 0:
        seats = [upper if i % 2 == 0 else lower for i in range(players)]
    else:
        seats = [lower if i % 2 == 0 else upper for i in range(players)]
    w, turns, _ = play(seats, seed, Options(turn_limit=limit))
    return upper, lower, (seats[w] if w is not None else None), turns


def ladder(args: argparse.Namespace) -> None:
    pairs = (
        [tuple(p.split(":")) for p in args.pairs.split(",")]
        if args.pairs
        else [(LADDER[i + 1], LADDER[i]) for i in range(len(LADDER) - 1)]
    )
    jobs = [(u, lo, args.seed + g, args.players, args.turn_limit) for u, lo in pairs for g in range(args.games)]
    t0 = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers) as pool:
            results = pool.map(_ladder_game, jobs, chunksize=1)
    else:
        results = [_ladder_game(j) for j in jobs]
    print(f"{args.players}-player Knight Rider, {args.games} games per pairing, turn limit {args.turn_limit}")
    head = f"{'pairing':<18} {'upper wins':>10} {'lower wins':>10} {'limit':>6}"
    print(head + f" {'upper share':>12} {'95% CI':>16} {'turns':>6}")
    for u, lo in pairs:
        rs = [r for r in results if r[0] == u and r[1] == lo]
        up = sum(1 for r in rs if r[2] == u)
        low = sum(1 for r in rs if r[2] == lo)
        lim = sum(1 for r in rs if r[2] is None)
        a, b = wilson(up, up + low)
        share = up / (up + low) if up + low else float("nan")
        turns = statistics.mean(r[3] for r in rs)
        ci = f"[{a:.3f}, {b:.3f}]"
        print(f"{u + ' vs ' + lo:<18} {up:>10} {low:>10} {lim:>6} {share:>12.3f} {ci:>16} {turns:>6.1f}")
    print(f"({time.perf_counter() - t0:.0f} s)")


def speed(args: argparse.Namespace) -> None:
    levels = args.levels.split(",")
    print("seconds per decision on one core (the other seats: medium)")
    head = f"{'level':<8} {'players':>7} {'decisions':>9} {'mean':>8} {'median':>8} {'p95':>8} {'max':>8}"
    print(head + f"   search decisions: {'n':>5} {'mean':>8} {'max':>8}")
    for level in levels:
        for players in (int(p) for p in args.players_list.split(",")):
            all_t: list[float] = []
            s_t: list[float] = []
            for g in range(args.games):
                seats = ["medium"] * players
                seats[g % players] = level
                _, _, times = play(seats, args.seed + g, Options(turn_limit=args.turn_limit), timed=level)
                all_t += [t for t, _ in times]
                s_t += [t for t, s in times if s]
            all_t.sort()
            p95 = all_t[int(0.95 * (len(all_t) - 1))] if all_t else 0.0
            print(
                f"{level:<8} {players:>7} {len(all_t):>9}"
                f" {statistics.mean(all_t):>8.4f} {statistics.median(all_t):>8.4f}"
                f" {p95:>8.4f} {max(all_t):>8.4f}   {'':>17} {len(s_t):>5}"
                f" {statistics.mean(s_t) if s_t else 0.0:>8.4f} {max(s_t, default=0.0):>8.4f}"
            )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speed", action="store_true", help="measure the time per decision instead")
    ap.add_argument(
        "--games", type=int, default=40, help="games per pairing (ladder) or per level and player count (speed)"
    )
    ap.add_argument("--players", type=int, default=4, help="ladder: players per game (even: two seat groups)")
    ap.add_argument("--players-list", default="2,4,5", help="speed: player counts")
    ap.add_argument("--pairs", default="", help="ladder: UPPER:LOWER,... (default: each level vs the one below)")
    ap.add_argument("--levels", default="hard,expert", help="speed: levels to time")
    ap.add_argument("--turn-limit", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="ladder: processes")
    args = ap.parse_args(argv)
    if args.games < 1 or args.players < 2 or args.players > 5:
        ap.error("--games must be >= 1 and --players 2..5")
    (speed if args.speed else ladder)(args)


if __name__ == "__main__":
    main()

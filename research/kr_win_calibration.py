"""How well Knight Rider's win chances in the analysis are calibrated (issue #61, item 4).

The analysis's graph reads each side's chance to win a Knight Rider game from the
look-ahead search's shares (``rallye.agents.knightrider.search.shares``) of the position a
player's view shows (``KnightRiderEvaluator.wins``). This plays ``--games`` 2-player games
between heuristic bots (``--bots``), reads player 0's chance at every decision from the
acting player's view during the chase, and prints the predicted chance against the outcome
in ten bins and the Brier score (games without a winner are left out).

    python research/kr_win_calibration.py --games 1000 [--bots medium,medium] [--first-seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time

from rallye.agents.base import make_agent
from rallye.analysis.evaluators import KnightRiderEvaluator
from rallye.games import game_for


def play(seed: int, bots: tuple[str, str]) -> tuple[list[float], int | None]:
    """Player 0's chance at every chase decision, and the winner (None: no winner)."""
    game = game_for("knightrider")
    state = game.new(game.settings({"players": 2}), seed)
    players = [make_agent("knightrider", bots[i], seed * 2 + i) for i in range(2)]
    judge = KnightRiderEvaluator()
    chances: list[float] = []
    while not game.is_over(state):
        seat = game.current_player(state)
        assert seat is not None
        view = game.view_for(state, seat)
        if view.villain is not None:
            chances.append(judge.wins(view)[0])
        state = game.apply(state, players[seat].choose(view, game.legal_actions(state)), seat)
    winners = game.outcome(state).winners
    return chances, (winners[0] if len(winners) == 1 else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--bots", default="medium,medium")
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args(argv)
    a, b = args.bots.split(",")
    started = time.process_time()
    pairs: list[tuple[float, int]] = []
    undecided = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        chances, winner = play(seed, (a, b))
        if winner is None:
            undecided += 1
            continue
        pairs += [(p, int(winner == 0)) for p in chances]
    n = len(pairs)
    brier = sum((p - y) ** 2 for p, y in pairs) / max(1, n)
    base = sum(y for _, y in pairs) / max(1, n)
    coin = sum((base - y) ** 2 for _, y in pairs) / max(1, n)
    print(
        f"{args.games} games of {a} against {b} ({undecided} without a winner left out), {n} positions, "
        f"{time.process_time() - started:.0f} s CPU"
    )
    print(f"Brier {brier:.4f} (always the base rate {base:.3f}: {coin:.4f})")
    print("| predicted | positions | mean predicted | won |")
    print("|---|---:|---:|---:|")
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        sel = [(p, y) for p, y in pairs if lo <= p < hi or (k == 9 and p == 1.0)]
        if sel:
            mean_p = sum(p for p, _ in sel) / len(sel)
            won = sum(y for _, y in sel) / len(sel)
            print(f"| {lo:.1f}–{hi:.1f} | {len(sel)} | {mean_p:.3f} | {won:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

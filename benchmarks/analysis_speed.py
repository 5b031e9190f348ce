"""How long the post-game analysis of a whole match takes, and one hint (one core).

Plays ``--matches`` 2-player wm2006 matches to 5000 points between two bots (``--players``
bots, default the heuristic against itself: the record, not its players, is what is
timed), then analyses each record with ``--bot`` (default ``expert``, the analysis bot of
``rallye analyse``) and prints, per match: the moves, the decisions judged, the CPU seconds
of the whole analysis and their ratio to the goal of 60 s (issue #61: a 2-player 5000-point
match, about 200 decisions, in at most 60 s on one core), and the slowest single decision
(a hint is one such call: goal 1 s). CPU time of the process (``time.process_time``), as
``bot_speed.py``: steady on a loaded machine.

    PYTHONPATH=src python benchmarks/analysis_speed.py [--matches 3] [--bot expert] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from rallye.agents.base import make_agent
from rallye.analysis import analyse
from rallye.core.record import Line
from rallye.games import game_for

GOAL_MATCH = 60.0
GOAL_HINT = 1.0


def match_record(seed: int, bots: tuple[str, str], edition: str = "wm2006") -> list[Line]:
    """A 2-player match to 5000 between ``bots``, as its record lines."""
    game = game_for("mille")
    state = game.new(game.settings({"edition": edition, "players": 2}), seed)
    lines = game.record_start(state, {"tool": "benchmarks/analysis_speed.py"})
    players = [make_agent("mille", bots[i], seed * 2 + i, exact=True) for i in range(2)]
    while not game.is_over(state):
        seat = game.current_player(state)
        assert seat is not None
        action = players[seat].choose(game.view_for(state, seat), game.legal_actions(state))
        state = game.record_move(lines, state, seat, action)
    return lines


def time_analysis(lines: list[Line], bot: str, seed: int) -> tuple[float, int, int, float]:
    """(CPU seconds of the whole analysis, moves, decisions, the slowest move's seconds)."""
    marks: list[float] = []

    def progress(done: int, total: int) -> None:
        marks.append(time.process_time())

    start = time.process_time()
    result = analyse(lines, bot=bot, seed=seed, progress=progress)
    spent = time.process_time() - start
    steps = [b - a for a, b in zip([start, *marks], marks, strict=False)]
    return spent, result.moves, len(result.decisions), max(steps, default=0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--bot", default="expert", help="the analysis bot (as rallye analyse --bot)")
    ap.add_argument("--players", default="medium,medium", help="the two bots that play the matches")
    ap.add_argument("--seed", type=int, default=1, help="the first match's seed")
    args = ap.parse_args(argv)
    a, b = args.players.split(",")
    print(f"analysis bot {args.bot}; 2-player wm2006 matches to 5000 of {a} against {b}; CPU seconds (one core)")
    print("| match seed | moves | decisions | analysis s | ratio to 60 s | s a decision | slowest move s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    totals, slowest = [], []
    for seed in range(args.seed, args.seed + args.matches):
        lines = match_record(seed, (a, b))
        spent, moves, decisions, worst = time_analysis(lines, args.bot, seed)
        totals.append(spent)
        slowest.append(worst)
        print(
            f"| {seed} | {moves} | {decisions} | {spent:.1f} | {spent / GOAL_MATCH:.2f} | "
            f"{spent / max(1, decisions):.3f} | {worst:.2f} |"
        )
    print(
        f"mean {statistics.mean(totals):.1f} s a match ({statistics.mean(totals) / GOAL_MATCH:.2f} of the 60 s goal), "
        f"slowest decision {max(slowest):.2f} s ({max(slowest) / GOAL_HINT:.2f} of the 1 s hint goal)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

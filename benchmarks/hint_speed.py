"""How long the coach takes to answer a hint, at its worst (one core).

Plays one game per setting (``--games`` more) between bots and, at every ``--every``-th
decision with more than one legal move, asks the coach (:class:`rallye.analysis.coach.Coach`
with ``--bot``, default ``expert``, as ``rallye play``'s ``hint``) for a hint from the acting
player's view and its earlier views (``decision_views`` of the game's record, as the terminal
and the server give them: the time counts reading them from the record). One coach answers
every hint of a setting, as in a game, so it carries each seat's hand tracker from one hint
to the next; with ``--cold`` each hint gets a new coach, whose tracker follows the hand from
its first decision (the dearest case: a server process whose kept trackers went to other
tables). Prints per setting the hints timed, their mean, 95th percentile and slowest CPU
seconds and the slowest one's ratio to the goal of 1 s (issue #61: a hint answers within 1
s). CPU time of the process (``time.process_time``), as ``analysis_speed.py``: steady on a
loaded machine. The settings: Mille Bornes wm2006 with 2 and 4 players (teams), meilen with
3, Knight Rider with 3 (quick build).

    PYTHONPATH=src python benchmarks/hint_speed.py [--games 1] [--every 1] [--bot expert] [--seed 1] [--cold]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Mapping
from typing import Any

from rallye.agents.base import make_agent
from rallye.analysis import decision_views
from rallye.analysis.coach import Coach
from rallye.games import game_for

GOAL = 1.0

#: (label, game, settings, the bots that play)
SETTINGS: tuple[tuple[str, str, Mapping[str, Any], str], ...] = (
    ("mille wm2006, 2 players", "mille", {"edition": "wm2006", "players": 2}, "medium"),
    ("mille wm2006, 4 players", "mille", {"edition": "wm2006", "players": 4}, "medium"),
    ("mille meilen, 3 players", "mille", {"edition": "meilen", "players": 3}, "medium"),
    ("knightrider, 3 players", "knightrider", {"players": 3, "options": {"quick_build": True}}, "heuristic"),
)


def hint_times(
    key: str,
    settings: Mapping[str, Any],
    seed: int,
    bot: str,
    coach: Coach,
    every: int = 1,
    most: int | None = None,
    cold: bool = False,
) -> list[float]:
    """CPU seconds of the coach's hint (the seat's earlier views read from the record, and
    the hint) at every ``every``-th real decision of one game of ``key`` played by ``bot``
    from ``seed`` (at most ``most`` hints); ``cold``: a new coach like ``coach`` each time."""
    game = game_for(key)
    checked = game.settings(dict(settings))
    state = game.new(checked, seed)
    lines = game.record_start(state)
    players = [make_agent(key, bot, seed * 10 + s, exact=True) for s in range(game.players(checked))]
    times: list[float] = []
    decisions = 0
    while not game.is_over(state) and (most is None or len(times) < most):
        seat = game.current_player(state)
        assert seat is not None
        legal = game.legal_actions(state)
        view = game.view_for(state, seat)
        if len(legal) > 1:
            decisions += 1
            if decisions % every == 0:
                if cold:
                    coach = Coach(coach.game, coach.spec, coach.seed)
                start = time.process_time()
                hint = coach.hint(view, legal, decision_views(game, lines, seat))
                times.append(time.process_time() - start)
                assert hint.best in legal
        state = game.record_move(lines, state, seat, players[seat].choose(view, legal))
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1, help="games per setting")
    ap.add_argument("--every", type=int, default=1, help="time every N-th decision")
    ap.add_argument("--bot", default="expert", help="the coach's analysis bot (as rallye analyse --bot)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    ap.add_argument("--cold", action="store_true", help="a new coach for every hint (no tracker kept)")
    args = ap.parse_args(argv)
    kept = "a new coach each hint" if args.cold else "one coach a game"
    print(f"coach {args.bot}; CPU seconds a hint (one core); every {args.every}. decision; {kept}")
    print("| setting | hints | mean s | 95 % s | slowest s | slowest / 1 s |")
    print("|---|---:|---:|---:|---:|---:|")
    worst = 0.0
    for label, key, settings, bot in SETTINGS:
        coach = Coach(key, args.bot, 0)
        times: list[float] = []
        for seed in range(args.seed, args.seed + args.games):
            times += hint_times(key, settings, seed, bot, coach, args.every, cold=args.cold)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        worst = max(worst, times[-1])
        print(
            f"| {label} | {len(times)} | {statistics.mean(times):.3f} | {p95:.3f} | {times[-1]:.3f} | "
            f"{times[-1] / GOAL:.2f} |"
        )
    print(f"slowest hint {worst:.3f} s: {worst / GOAL:.2f} of the 1 s goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())

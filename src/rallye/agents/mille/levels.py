"""Levels: ``easy``, ``medium``, ``hard``, ``expert`` mapped to a configured bot per game.

Mille Bornes (budgets measured by ``benchmarks/bot_speed.py``; the figures are in
docs/bots.md):

========  =====================================================================
easy      the heuristic with 30 % uniformly random moves
medium    the heuristic
hard      determinized search (``PimcAgent``) over the ``fitted`` heuristic's top 4
          moves and its next 3 discards, 12-step rollouts, a small budget (24 deals,
          1 200 rollout steps a decision), keeping the ``distilled`` bot's pick among
          them unless an alternative is 2 standard errors better
expert    a search over the same candidates with a larger budget (160 deals, 8 400
          steps) and 16-step rollouts, rolling out to the end of the hand once the draw
          pile holds 20 cards or fewer, keeping the ``fitted`` heuristic's move unless
          the alternative with the best paired mean is 1 standard error ahead; in two-
          player games it deals the opponent's hand from a particle filter (1 000
          particles, :class:`~rallye.agents.mille.tracker.HandTracker`) that follows it
          through the hand
========  =====================================================================

Both search levels play each candidate on the same sampled deals and follow it with the
heuristic for every seat (the fitted heuristic for their own side, the classic one for
the others: the opponent model) for 12 engine steps (expert: 16; the extension decision,
and expert's endgame: to the end of the hand), then compare the points on the table. The
sampled deals respect what the coups fourrés prove and weigh down what the others'
discards suggest (a player who discarded while stopped held no cure); expert's, against
one opponent, come from the tracker's particles instead: the hands with which the classic
heuristic would have made each of the opponent's moves so far. See
:class:`rallye.agents.mille.search.PimcAgent`.

Search levels are budgeted by deal and step counts, so they play the same at the same seed on
any machine fast enough to spend the budget within the level's per-move limit, and
tournaments reproduce exactly there. The limit (hard 0.2 s, expert 0.5 s a move on one
core) is kept on slower machines by a ceiling of CPU time (``PimcAgent(cpu_limit=...)``,
:data:`CPU_LIMITS`, a little under each limit to leave room for the deal in progress):
once a decision has used it, no further deal is sampled. CPU time of the thread, not the
wall clock, so a busy machine does not cut the search; only a slow one does, and there the
decisions it cuts depend on the machine. ``IsmctsAgent(time_limit=...)`` (``ismcts``, the
earlier search, still registered) caps by the wall clock instead.

Knight Rider levels are defined in ``rallye.agents.knightrider.levels``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rallye.agents.base import Agent, register
from rallye.agents.mille.heuristic import FITTED, HeuristicAgent
from rallye.agents.mille.search import PimcAgent

EASY_EPSILON = 0.3
#: CPU seconds a decision of each search level may use before it stops sampling deals
#: (the issue's limits: hard 0.2 s, expert 0.5 s a move).
CPU_LIMITS = {"hard": 0.18, "expert": 0.45}
#: expert's rollout length in engine steps and its tracker's particles (docs/bots.md, "Mille
#: Bornes bots": paired against the 12-step expert without the tracker, +4.9 [+0.7, +9.1]
#: points of win rate against the heuristic on 368 games)
EXPERT_HORIZON, EXPERT_TRACK = 16, 1000


def mille_level(level: str, seed: int = 0) -> Agent:
    """The bot behind a Mille Bornes level."""
    if level == "easy":
        return HeuristicAgent(seed, name="easy", epsilon=EASY_EPSILON)
    if level == "medium":
        return HeuristicAgent(seed, name="medium")
    if level == "hard":  # a small budget, from the distilled bot's pick
        return _search(seed, level, deals=24, plies=1200, distilled=True)
    if level == "expert":  # a large one, from fitted's move, the end of the hand in sight late,
        # the opponent's hand followed by the tracker (2 players)
        return _search(
            seed,
            level,
            deals=160,
            plies=8400,
            horizon=EXPERT_HORIZON,
            endgame=20,
            z=1.0,
            min_gain=0.0,
            track=EXPERT_TRACK,
        )
    raise ValueError(f"unknown level {level!r}; levels are easy, medium, hard, expert")


def _search(seed: int, level: str, horizon: int = 12, **budget: Any) -> PimcAgent:
    """A search level: fitted's best 4 moves and its next 3 discards compared on sampled
    deals, ``horizon``-step rollouts with fitted for its own side, under the level's CPU
    ceiling; ``budget``: the rest of :class:`PimcAgent`'s settings."""
    limit = CPU_LIMITS[level]
    return PimcAgent(
        seed, top_k=4, extra_discards=3, horizon=horizon, style=FITTED, cpu_limit=limit, name=level, **budget
    )


def _level_factory(level: str) -> Callable[[int], Agent]:
    return lambda seed: mille_level(level, seed)


for _level in ("easy", "medium", "hard", "expert"):
    register("mille", _level, _level_factory(_level))

"""Knight Rider levels: ``easy``, ``medium``, ``hard``, ``expert``.

========  =====================================================================
easy      the heuristic with 30 % random actions (a random kind, then a random one)
medium    the heuristic (:mod:`rallye.agents.knightrider.heuristic`)
hard      the exact-dice look-ahead over the heuristic's best ``HARD_TOP_K`` movement
          choices, two rounds deep: the chance to hit on the next turn, and after a
          miss the best reachable chance on the turn after (the public forecast)
expert    the same over ``EXPERT_TOP_K`` choices, with the turn after judged from where
          the villain will stand at the next turn (``correlated``), and its own
          detours: after the move it lays the detour that cuts the rivals' chance to
          hit on their next turns the most (never one that cuts it off from a tile);
          the heuristic lays its detours in front of the rival nearest by pips
========  =====================================================================

One round deep (the chance to hit on the next turn only) was measured no stronger than
the heuristic (49.8 % of 1,774 decided games), and three rounds no stronger than two
(51.5 % of 538); the expert's detours are what sets it apart from ``hard`` most.

The search levels (:class:`~rallye.agents.knightrider.search.LookaheadAgent`) are exact arithmetic
over the view: no random numbers and no clock, so they play the same on any machine; the
work per decision is bounded by the number of candidates. ``research/kr_ladder.py``
measures the ladder (``--games``) and the time per decision (``--speed``); docs/bots.md has
the figures.
"""

from __future__ import annotations

from collections.abc import Callable

from rallye.agents.base import Agent, register
from rallye.agents.knightrider.heuristic import HeuristicAgent
from rallye.agents.knightrider.search import LookaheadAgent

EASY_EPSILON = 0.3
HARD_TOP_K = 6
EXPERT_TOP_K = 10


def kr_level(level: str, seed: int = 0) -> Agent:
    """The bot behind a Knight Rider level."""
    if level == "easy":
        return HeuristicAgent(seed, name="easy", epsilon=EASY_EPSILON)
    if level == "medium":
        return HeuristicAgent(seed, name="medium")
    if level == "hard":
        return LookaheadAgent(seed, rounds=2, top_k=HARD_TOP_K, name="hard")
    if level == "expert":
        return LookaheadAgent(seed, rounds=2, correlated=True, top_k=EXPERT_TOP_K, threat_detours=True, name="expert")
    raise ValueError(f"unknown level {level!r}; levels are easy, medium, hard, expert")


def _factory(level: str) -> Callable[[int], Agent]:
    return lambda seed: kr_level(level, seed)


for _level in ("easy", "medium", "hard", "expert"):
    register("knightrider", _level, _factory(_level))

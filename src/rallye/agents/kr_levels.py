"""Knight Rider levels: ``easy``, ``medium``, ``hard``, ``expert``.

========  =====================================================================
easy      the heuristic with 30 % random actions (a random kind, then a random one)
medium    the heuristic
hard      MCTS, a small budget (``HARD_TURNS`` simulated turns a decision)
expert    MCTS, a larger budget (``EXPERT_TURNS``)
========  =====================================================================

The search levels are budgeted by simulated turns (each MCTS iteration plays until the
bot's next turn is over, ``players + 1`` turns, so the iterations are the budget divided
by that), not by the clock: they play the same at the same seed on any machine.
``benchmarks/kr_ladder.py --speed`` measures the time per decision (the README has the
figures); no wall-clock cap is set.
"""

from __future__ import annotations

from collections.abc import Callable

from rallye.agents.base import Agent, register
from rallye.agents.kr_heuristic import HeuristicAgent
from rallye.agents.kr_search import MctsAgent

EASY_EPSILON = 0.3
HARD_TURNS = 150
EXPERT_TURNS = 400


def kr_level(level: str, seed: int = 0) -> Agent:
    """The bot behind a Knight Rider level."""
    if level == "easy":
        return HeuristicAgent(seed, name="easy", epsilon=EASY_EPSILON)
    if level == "medium":
        return HeuristicAgent(seed, name="medium")
    if level == "hard":
        return MctsAgent(seed, turn_budget=HARD_TURNS, name="hard")
    if level == "expert":
        return MctsAgent(seed, turn_budget=EXPERT_TURNS, name="expert")
    raise ValueError(f"unknown level {level!r}; levels are easy, medium, hard, expert")


def _factory(level: str) -> Callable[[int], Agent]:
    return lambda seed: kr_level(level, seed)


for _level in ("easy", "medium", "hard", "expert"):
    register("knightrider", _level, _factory(_level))

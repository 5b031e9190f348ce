"""Levels: ``easy``, ``medium``, ``hard``, ``expert`` mapped to a configured bot per game.

Mille Bornes (budgets measured by ``benchmarks/bot_speed.py``; the figures are in the
README):

========  =====================================================================
easy      the heuristic with 30 % uniformly random moves
medium    the heuristic
hard      determinized search (``PimcAgent``) over the heuristic's top 3 moves, a
          small budget (12 deals, 1 500 rollout steps a decision; under 0.2 s)
expert    the same search over the top 4 moves, a larger budget (40 deals, 4 200
          rollout steps a decision; under 0.5 s)
========  =====================================================================

Both search levels play the heuristic's move unless rollouts to the end of the hand
(the heuristic playing every seat on sampled deals) show an alternative clearly better,
deal by deal; see :class:`rallye.agents.mille_search.PimcAgent`.

Search levels are budgeted by deal and step counts only, so they play the same at the same seed on
any machine and tournaments reproduce exactly (a wall-clock cap would make results depend
on the machine's load). ``IsmctsAgent(time_limit=...)`` is there for callers who prefer a
hard cap to reproducibility (``ismcts``, the earlier search, is still registered).

Knight Rider levels are defined in ``rallye.agents.kr_levels``.
"""

from __future__ import annotations

from collections.abc import Callable

from rallye.agents.base import Agent, register
from rallye.agents.mille_heuristic import HeuristicAgent
from rallye.agents.mille_search import PimcAgent

#: Search budgets of the two search levels: (deals, rollout steps, candidates).
HARD_BUDGET = (12, 1500, 3)
EXPERT_BUDGET = (40, 4200, 4)
EASY_EPSILON = 0.3


def mille_level(level: str, seed: int = 0) -> Agent:
    """The bot behind a Mille Bornes level."""
    if level == "easy":
        return HeuristicAgent(seed, name="easy", epsilon=EASY_EPSILON)
    if level == "medium":
        return HeuristicAgent(seed, name="medium")
    if level in ("hard", "expert"):
        deals, plies, top_k = HARD_BUDGET if level == "hard" else EXPERT_BUDGET
        return PimcAgent(seed, deals=deals, plies=plies, top_k=top_k, name=level)
    raise ValueError(f"unknown level {level!r}; levels are easy, medium, hard, expert")


def _level_factory(level: str) -> Callable[[int], Agent]:
    return lambda seed: mille_level(level, seed)


for _level in ("easy", "medium", "hard", "expert"):
    register("mille", _level, _level_factory(_level))

"""Levels: ``easy``, ``medium``, ``hard``, ``expert`` mapped to a configured bot per game.

Mille Bornes (budgets measured by ``benchmarks/bot_speed.py``; the figures are in the
README):

========  =====================================================================
easy      the heuristic with 30 % uniformly random moves
medium    the heuristic
hard      ISMCTS, a small budget (fast rollouts; well under 0.2 s a move)
expert    ISMCTS, a larger budget (well under 0.5 s a move)
========  =====================================================================

Search levels are budgeted by iterations only, so they play the same at the same seed on
any machine and tournaments reproduce exactly (a wall-clock cap would make results depend
on the machine's load). ``IsmctsAgent(time_limit=...)`` is there for callers who prefer a
hard cap to reproducibility.

Knight Rider levels are defined in ``rallye.agents.kr_levels`` (written separately); this
module imports it when it exists, so they register with the Mille Bornes levels.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from rallye.agents.base import Agent, register
from rallye.agents.mille_heuristic import HeuristicAgent
from rallye.agents.mille_search import IsmctsAgent

#: ISMCTS budgets of the two search levels.
HARD_ITERATIONS = 120
EXPERT_ITERATIONS = 500
EASY_EPSILON = 0.3


def mille_level(level: str, seed: int = 0) -> Agent:
    """The bot behind a Mille Bornes level."""
    if level == "easy":
        return HeuristicAgent(seed, name="easy", epsilon=EASY_EPSILON)
    if level == "medium":
        return HeuristicAgent(seed, name="medium")
    if level == "hard":
        return IsmctsAgent(seed, iterations=HARD_ITERATIONS, name="hard")
    if level == "expert":
        return IsmctsAgent(seed, iterations=EXPERT_ITERATIONS, root_top_k=4, name="expert")
    raise ValueError(f"unknown level {level!r}; levels are easy, medium, hard, expert")


def _level_factory(level: str) -> Callable[[int], Agent]:
    return lambda seed: mille_level(level, seed)


for _level in ("easy", "medium", "hard", "expert"):
    register("mille", _level, _level_factory(_level))


# -- Knight Rider ----------------------------------------------------------------------
# The Knight Rider levels are defined in rallye.agents.kr_levels (written separately), which
# registers them on import. ``base._BUILTIN_MODULES`` loads this module for both games, so
# importing it here is what makes ``make_agent("knightrider", "expert")`` work; while that
# module does not exist, no Knight Rider level is registered.
def _register_knightrider_levels() -> None:
    module = "rallye.agents.kr_levels"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise


_register_knightrider_levels()

"""Post-game analysis (issue #61): each decision of a game judged from the acting
player's view by a search bot, marked, summed up per player, with the graph of each
side's chance to win. :func:`analyse` turns a record into an :class:`Analysis`, whose
``to_json()`` is the contract the replay page, the terminal and the coach read
(docs/analysis.md); :func:`evaluator_for` gives the one-call judge of a live decision.
"""

from __future__ import annotations

from rallye.analysis.analyse import MARKS, Analysis, Decision, DecisionViews, analyse, decision_views, mark
from rallye.analysis.evaluators import BOTS, POINT_MARKS, WIN_MARKS, Analyst, Candidate, Judgement, evaluator_for

__all__ = [
    "BOTS",
    "MARKS",
    "POINT_MARKS",
    "WIN_MARKS",
    "Analysis",
    "Analyst",
    "Candidate",
    "Decision",
    "DecisionViews",
    "Judgement",
    "analyse",
    "decision_views",
    "evaluator_for",
    "mark",
]

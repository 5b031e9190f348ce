"""The points a side has banked in the running hand: the base of the value the Mille Bornes
search gives a rollout stopped before the end of the hand
(:func:`rallye.agents.mille.search._estimate`: these points plus hand-set allowances for
being on the road, held safeties and the trip).

(Two learned leaf values, fitted to the rest of the hand and to the differences between
moves, were tried in its place and retired, no gain shown in matches: docs/bots.md, "Mille
Bornes bots".)
"""

from __future__ import annotations

from rallye.mille.state import MilleState


def banked(state: MilleState, side: int) -> float:
    """The points ``side`` has already scored in this hand: kilometres, safeties, coups."""
    tab = state.tableaus[side]
    sc = state.edition.scoring
    return float(tab.km + sc.safety * len(tab.safeties) + sc.coup_fourre_bonus * len(tab.coups))

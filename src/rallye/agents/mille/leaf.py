"""The points a side has banked in the running hand: the base of the value the Mille Bornes
search gives a rollout stopped before the end of the hand
(:func:`tableau_estimate`: these points plus hand-set allowances for being on the road and
the trip, to which the search adds the held safeties).

(Two learned leaf values, fitted to the rest of the hand and to the differences between
moves, were tried in its place and retired, no gain shown in matches: docs/bots.md, "Mille
Bornes bots".)
"""

from __future__ import annotations

from rallye.mille.cards import BATTLE_HAZARDS
from rallye.mille.edition import Scoring
from rallye.mille.state import MilleState, Tableau


def banked(state: MilleState, side: int) -> float:
    """The points ``side`` has already scored in this hand: kilometres, safeties, coups."""
    return _banked(state.tableaus[side], state.edition.scoring)


def _banked(tab: Tableau, sc: Scoring) -> float:
    return float(tab.km + sc.safety * len(tab.safeties) + sc.coup_fourre_bonus * len(tab.coups))


def tableau_estimate(tab: Tableau, sc: Scoring, target: int) -> float:
    """What a tableau promises in the running hand, from public facts alone: its banked
    points (:func:`banked`), a share of the trip bonus growing with the distance driven, and
    allowances for rolling (+60), stopped by a hazard (-60) and limited (-25). The search's
    leaf adds the held safeties to it; the analysis's win model adds the running total."""
    est = _banked(tab, sc)
    est += 0.6 * (sc.trip + sc.safe_trip * (tab.d200 == 0) * 0.5) * (tab.km / target) ** 2
    if tab.rolling:
        est += 60.0
    elif tab.battle_top in BATTLE_HAZARDS:
        est -= 60.0
    if tab.limited:
        est -= 25.0
    return est

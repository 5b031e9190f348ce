"""The points a side has banked, the base of the Mille Bornes search's leaf value
(``rallye.agents.mille.leaf``)."""

from __future__ import annotations

from rallye import mille
from rallye.agents.mille.heuristic import best_action
from rallye.agents.mille.leaf import banked
from rallye.mille.state import MilleState, Tableau


def _mid_hand(seed: int = 4, players: int = 2, steps: int = 30) -> MilleState:
    s = mille.new_match("wm2006", players, seed=seed)
    for _ in range(steps):
        v = mille.view_for(s, s.current)
        s = mille.apply(s, best_action(v, mille.legal_from_view(v)))
    return s


def test_banked_points_are_kilometres_safeties_and_coups() -> None:
    """Rule model, scoring: a safety scores its points, a coup fourré its bonus on top."""
    s = _mid_hand()
    sc = s.edition.scoring
    tab = Tableau(
        battle=("ROLL",),
        distance=("D100", "D75"),
        safeties=("EXTRA_TANK", "DRIVING_ACE"),
        coups=("DRIVING_ACE",),
        km=175,
    )
    s = s._replace(tableaus=(tab, s.tableaus[1]))
    assert banked(s, 0) == 175 + 2 * sc.safety + sc.coup_fourre_bonus

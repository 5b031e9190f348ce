"""Scoring one hand [core: scoring; table: safety, all four safeties, coup fourré, trip
completed, safe trip, delayed action, shutout, extension, distance in hand].

``score_hand`` returns, per side, the values of :data:`~rallye.mille.edition.SCORE_LINES`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rallye.mille.cards import DISTANCE_KM
from rallye.mille.edition import SCORE_LINES

if TYPE_CHECKING:
    from rallye.mille.state import MilleState

_IDX = {name: i for i, name in enumerate(SCORE_LINES)}


def score_hand(state: MilleState, completed_by: int | None) -> tuple[tuple[int, ...], ...]:
    ed = state.edition
    sc = ed.scoring
    tabs = state.tableaus
    n_sides = len(tabs)
    rows = [[0] * len(SCORE_LINES) for _ in range(n_sides)]
    shut_out = [t.km == 0 for t in tabs]
    empty_at_completion = state.draw_count == 0
    for s, tab in enumerate(tabs):
        r = rows[s]
        r[_IDX["distance"]] = tab.km
        coups = len(tab.coups)
        if sc.coup_fourre_in_place:
            # hu's sheet: a coup fourré is 300 on its own line "in place of" the safety's 100
            r[_IDX["safeties"]] = sc.safety * (len(tab.safeties) - coups)
            r[_IDX["coup_fourre"]] = (sc.safety + sc.coup_fourre_bonus) * coups
        else:
            r[_IDX["safeties"]] = sc.safety * len(tab.safeties)
            r[_IDX["coup_fourre"]] = sc.coup_fourre_bonus * coups
        if len(tab.safeties) == 4:
            r[_IDX["all_four"]] = sc.all_four_bonus
        if ed.subtract_distance_in_hand:
            in_hand = sum(DISTANCE_KM.get(c, 0) for p in state.sides[s] for c in state.hands[p])
            r[_IDX["hand_penalty"]] = -in_hand
        opponents_shut = sum(1 for o in range(n_sides) if o != s and shut_out[o])
        if sc.shutout_to == "placed" and not shut_out[s]:
            r[_IDX["shutout"]] = sc.shutout * opponents_shut
    if completed_by is not None:
        r = rows[completed_by]
        tab = tabs[completed_by]
        r[_IDX["trip"]] = sc.trip
        if tab.d200 == 0:
            r[_IDX["safe_trip"]] = sc.safe_trip
        if empty_at_completion:
            r[_IDX["delayed_action"]] = sc.delayed_action
        if sc.shutout_to == "completer":
            r[_IDX["shutout"]] = sc.shutout * sum(1 for o in range(n_sides) if o != completed_by and shut_out[o])
    elif ed.closest_gets_trip_when_no_completion:
        # meilen: every side tied closest to the target gets the trip points; a side that
        # never drove is not "closest" (if nobody drove, nobody gets them).
        best = max(t.km for t in tabs)
        for s, t in enumerate(tabs):
            if best > 0 and t.km == best:
                rows[s][_IDX["trip"]] = sc.trip
    caller = state.extended_by
    if caller is not None and sc.extension:
        if completed_by is not None and (completed_by == caller or ed.extension.failed_bonus_to == "nobody"):
            # wm2006/hu: the 200 goes to whoever completes the extended trip; fxschmid: to the caller.
            rows[completed_by][_IDX["extension"]] = sc.extension
        elif ed.extension.failed_bonus_to == "opponents":
            # fxschmid: the caller failed, so every placed opponent gets the 200.
            for s in range(n_sides):
                if s != caller and not shut_out[s]:
                    rows[s][_IDX["extension"]] = sc.extension
    return tuple(tuple(r) for r in rows)

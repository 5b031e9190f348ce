"""A learned value for the leaves of the Mille Bornes search's rollouts.

``PimcAgent`` stops most rollouts a dozen engine steps after the move it judges and values
the state reached by what each side would score if the hand ended well for it
(:func:`rallye.agents.mille.search._estimate`: the points on the table plus hand-set
allowances for being on the road, held safeties and the trip). :func:`learned_estimate` is
the alternative, fitted on heuristic play: the points a side has banked (kilometres,
safeties, coups fourrés) plus a linear model of what the rest of the hand adds, from the
full state a rollout reaches (a sampled deal: every hand is known there).

The weights are least-squares fits, one set per edition for two sides, of the rest of the
hand's point *difference* between the two sides (the search compares sides, so only
differences matter) on the difference of the two sides' :func:`leaf_features`, over states
taken from hands the heuristic played against itself. ``benchmarks/fit_leaf.py`` collects
them and prints the weights below; it also prints how much of the variance of the rest of
the hand each value explains (the hand-set allowance against the fit).

:func:`decision_estimate` (``PimcAgent(leaf="decisions")``) is fitted to what the search
needs instead: the *difference between two moves* played on the same deal. Its features add
to those how many of each card the side holds (and that times the share of the draw pile
left), so that which card a discard gave up shows in the leaf; its weights fit the oracle
gains of ``benchmarks/mille_decisions.py`` positions (the value of each candidate move by
rollouts to the end of the hand on the true cards) from the candidates' 12-step rollouts
(``benchmarks/fit_decision_leaf.py``; wm2006, two sides: the positions' edition).
"""

from __future__ import annotations

from collections.abc import Sequence

from rallye.mille.cards import (
    BATTLE_HAZARDS,
    CARD_INDEX,
    CARDS,
    DISTANCE_KM,
    HAZARDS,
    REMEDY_FOR,
    ROLL,
    SAFETIES,
    SAFETY_FOR,
)
from rallye.mille.state import MilleState

#: what each weight multiplies; ``dr`` is the share of the deck still in the draw pile (it
#: is the same for every side, so it only enters multiplied: a difference cancels it)
_BASE = (
    "frac",  # kilometres / the hand's target
    "frac^2",
    "frac^2 if no 200 played",  # the safe-trip bonus
    "rolling",
    "stopped by a hazard",
    "speed limited",
    "safeties held",
    "distance held (capped at what is left to go)",
    "green lights held",
    "hazards the others hold",
    "enough distance held to finish",
    "enough distance held and rolling",
    "distance held and rolling",
    "safeties held x hazards the others hold",
    "cure for the own hazard held",
)
FEATURES: tuple[str, ...] = (_BASE + tuple(f"{b} x dr" for b in _BASE) + tuple(f"{b} x dr^2" for b in _BASE)) + (
    "frac^3",
    "rolling x frac",
    "stopped x frac",
)


def leaf_features(state: MilleState, side: int) -> list[float]:
    """The features of ``side`` in ``state`` (full state: every hand is read), in the order of
    :data:`FEATURES`."""
    tab = state.tableaus[side]
    target = state.target
    fr = tab.km / target
    dr = state.draw_count / len(state.deck)
    hands = state.hands
    own = [c for p in state.sides[side] for c in hands[p]]
    held_saf = 0.0
    held_dist = 0
    held_roll = 0.0
    for c in own:
        if c in SAFETIES:
            held_saf += 1.0
        elif c in DISTANCE_KM:
            held_dist += DISTANCE_KM[c]
        elif c == ROLL:
            held_roll += 1.0
    opp_haz = 0.0
    for o, players in enumerate(state.sides):
        if o != side:
            for p in players:
                for c in hands[p]:
                    if c in HAZARDS:
                        opp_haz += 1.0
    rolling = 1.0 if tab.rolling else 0.0
    top = tab.battle_top
    stopped = 1.0 if top in BATTLE_HAZARDS else 0.0
    cure = 0.0
    if stopped:
        for c in own:
            if REMEDY_FOR.get(c) == top or SAFETY_FOR.get(top) == c:  # type: ignore[arg-type]
                cure = 1.0
                break
    togo = target - tab.km
    hd = min(held_dist, togo) / target
    fin = 1.0 if held_dist >= togo else 0.0
    base = (
        fr,
        fr * fr,
        fr * fr if tab.d200 == 0 else 0.0,
        rolling,
        stopped,
        1.0 if tab.limited else 0.0,
        held_saf,
        hd,
        held_roll,
        opp_haz,
        fin,
        fin * rolling,
        hd * rolling,
        held_saf * opp_haz,
        cure,
    )
    out = list(base)
    dr2 = dr * dr
    out += [b * dr for b in base]
    out += [b * dr2 for b in base]
    out += [fr * fr * fr, rolling * fr, stopped * fr]
    return out


#: the decision leaf's features: :data:`FEATURES`, then how many of each card the side holds,
#: then those counts times the share of the draw pile left
DECISION_FEATURES: tuple[str, ...] = (
    FEATURES + tuple(f"{c} held" for c in CARDS) + tuple(f"{c} held x dr" for c in CARDS)
)


def decision_features(state: MilleState, side: int) -> list[float]:
    """The features of ``side`` in ``state`` in the order of :data:`DECISION_FEATURES`."""
    held = [0.0] * len(CARDS)
    for p in state.sides[side]:
        for c in state.hands[p]:
            held[CARD_INDEX[c]] += 1.0
    dr = state.draw_count / len(state.deck)
    return leaf_features(state, side) + held + [h * dr for h in held]


def banked(state: MilleState, side: int) -> float:
    """The points ``side`` has already scored in this hand: kilometres, safeties, coups."""
    tab = state.tableaus[side]
    sc = state.edition.scoring
    return float(tab.km + sc.safety * len(tab.safeties) + sc.coup_fourre_bonus * len(tab.coups))


def learned_estimate(state: MilleState, side: int, weights: Sequence[float]) -> float:
    """Banked points plus the fitted value of the rest of the hand."""
    return banked(state, side) + sum(w * x for w, x in zip(weights, leaf_features(state, side), strict=True))


def decision_estimate(state: MilleState, side: int, weights: Sequence[float]) -> float:
    """Banked points plus the decision leaf's value of the rest of the hand."""
    return banked(state, side) + sum(w * x for w, x in zip(weights, decision_features(state, side), strict=True))


#: (edition key, number of sides) -> weights in the order of :data:`FEATURES`, printed by
#: ``benchmarks/fit_leaf.py``
# fmt: off
WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {
    ("wm2006", 2): (
        1191, -1835, -1.759, 51.6, -41.36, -276.7, 281.8, 116.3,
        1.99, -19.9, 92.52, 142.6, 159.1, -2.992, 288.9, -55.99,
        1426, 307.9, -75.92, -78.59, -240.9, -431.4, -276.1, -314.3,
        -242.4, -633.3, -3.136, 479.3, 347.7, -44.19, -322.2, -1485,
        -55.16, 307, -148.7, 408.8, 622.8, 18.71, 447.4, 26.12,
        705.2, -98.48, -326.2, -275.6, 92.32, 701.6, 15.85, -73.37,
    ),
    ("hu", 2): (
        1225, -1842, 22.89, 36.05, -54.93, -240.5, 266.9, 219.4,
        14.68, -35.61, 59.82, 64.19, 167.6, -14.38, 231.2, -67.59,
        1069, 332.3, 10.77, -49.54, -331.6, -433.1, -603.1, -343.6,
        -174.7, -498.4, 312, 378.7, 331, 179, -390.8, -1023,
        -136.2, 220, -160.3, 473.4, 603.5, 288.9, 463.1, -33.85,
        578, -401.4, -214.9, -245.8, -105.4, 755, 13.45, -68.35,
    ),
    ("fxschmid", 2): (
        2249, -3436, 11.49, 7.711, -65.09, -284.7, 410.6, -66.97,
        -7.809, -68.82, 109.6, 149.5, 379.5, -88.42, 325.4, -1881,
        3139, 156, 202.9, 168.2, 45.43, -664.9, 464.1, -245,
        -21.55, -712.5, -30.03, -302.6, 701, -223.7, 846.8, -2254,
        277.4, -25.83, -398.9, 45.35, 872.1, -526.8, 378.8, -151.4,
        876.6, -161.1, 529.1, -647.4, 258.3, 1314, 72.14, -34.38,
    ),
    ("meilen", 2): (
        722.6, -912.6, 57.24, 81.8, -91.12, -191.5, 257.8, -1038,
        20.79, 19.67, -87.13, 67.35, 246.8, -87.29, 230.1, -542.2,
        -850, 523.1, 225.7, -100.5, -613.6, -38.21, 804.2, -189.2,
        -590.2, 330, -101.8, 1770, 525.8, 245.1, 403.7, 682.6,
        -243.6, -3.958, 3.124, 868.7, 584.9, -406.4, 213.9, 439.7,
        -49.42, 168.5, -1957, -414.7, -232.2, 561.7, 71.67, 12.26,
    ),
}
# fmt: on

#: (edition key, number of sides) -> weights in the order of :data:`DECISION_FEATURES`,
#: printed by ``benchmarks/fit_decision_leaf.py``
# fmt: off
DECISION_WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {
    ("wm2006", 2): (
        546.544, -1495.73, 270.125, 166.871, -34.074, -251.945, 157.222, 561.581,
        33.0541, -47.4054, 133.866, 252.777, -145.038, -81.1738, 614.982, 1410.01,
        165.719, -663.418, 601.736, -319.338, -327.406, -133.684, -1195.06, -158.526,
        68.3378, -590.978, -727.976, 2266.31, 369.229, 114.074, -1457.75, -746.821,
        808.414, -1274.09, 79.3278, 519.554, -196.109, -28.7012, 125.737, -207.269,
        856.944, 355.313, -1243.2, -103.917, 164.46, 851.547, 248.003, 151.023,
        163.628, 177.631, 75.2013, 70.7207, 8.95195, 33.0541, 92.8843, 65.0439,
        84.2329, 102.011, 96.1168, 11.8645, 69.9397, 12.2175, 95.2659, 472.068,
        116.057, 158.461, 111.543, -326.671, -345.071, -219.257, -220.496, -63.3461,
        -158.526, -257.957, -234.703, -202.685, -66.1917, -213.044, 103.364, -183,
        92.0109, -220.483, -467.5, -117.651, -120.832, -68.3748,
    ),
}
# fmt: on

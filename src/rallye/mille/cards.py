"""Mille Bornes cards: canonical ids, kinds and the relations between them.

Cards of one id are identical, so a card *is* its canonical id (a ``str``). The ids are
those of the rules (``docs/rules/mille-bornes.md``, "The cards").
"""

from __future__ import annotations

from typing import Final

D25: Final = "D25"
D50: Final = "D50"
D75: Final = "D75"
D100: Final = "D100"
D200: Final = "D200"
ROLL: Final = "ROLL"
STOP: Final = "STOP"
SPEED_LIMIT: Final = "SPEED_LIMIT"
END_OF_LIMIT: Final = "END_OF_LIMIT"
OUT_OF_GAS: Final = "OUT_OF_GAS"
GASOLINE: Final = "GASOLINE"
FLAT_TIRE: Final = "FLAT_TIRE"
SPARE_TIRE: Final = "SPARE_TIRE"
ACCIDENT: Final = "ACCIDENT"
REPAIRS: Final = "REPAIRS"
RIGHT_OF_WAY: Final = "RIGHT_OF_WAY"
EXTRA_TANK: Final = "EXTRA_TANK"
PUNCTURE_PROOF: Final = "PUNCTURE_PROOF"
DRIVING_ACE: Final = "DRIVING_ACE"

#: Every card id in a fixed order; this order is the card index used by codes and encoders.
CARDS: Final[tuple[str, ...]] = (
    D25, D50, D75, D100, D200,
    ROLL, STOP, SPEED_LIMIT, END_OF_LIMIT,
    OUT_OF_GAS, GASOLINE, FLAT_TIRE, SPARE_TIRE, ACCIDENT, REPAIRS,
    RIGHT_OF_WAY, EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE,
)  # fmt: skip
CARD_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CARDS)}

DISTANCE_KM: Final[dict[str, int]] = {D25: 25, D50: 50, D75: 75, D100: 100, D200: 200}
DISTANCES: Final = frozenset(DISTANCE_KM)
#: Hazards that go on a battle pile.
BATTLE_HAZARDS: Final = frozenset({STOP, OUT_OF_GAS, FLAT_TIRE, ACCIDENT})
HAZARDS: Final = BATTLE_HAZARDS | {SPEED_LIMIT}
#: Remedy -> the hazard it cures (ROLL is handled apart: it also starts a side).
REMEDY_FOR: Final[dict[str, str]] = {
    GASOLINE: OUT_OF_GAS,
    SPARE_TIRE: FLAT_TIRE,
    REPAIRS: ACCIDENT,
    ROLL: STOP,
    END_OF_LIMIT: SPEED_LIMIT,
}
REMEDIES: Final = frozenset(REMEDY_FOR)
#: Hazard -> the remedy that cures it (STOP -> ROLL, ...).
REMEDY_OF: Final[dict[str, str]] = {h: r for r, h in REMEDY_FOR.items()}
#: Safety -> the hazards it protects against.
SAFETY_AGAINST: Final[dict[str, frozenset[str]]] = {
    RIGHT_OF_WAY: frozenset({STOP, SPEED_LIMIT}),
    EXTRA_TANK: frozenset({OUT_OF_GAS}),
    PUNCTURE_PROOF: frozenset({FLAT_TIRE}),
    DRIVING_ACE: frozenset({ACCIDENT}),
}
SAFETIES: Final = frozenset(SAFETY_AGAINST)
#: Hazard -> the safety that protects against it.
SAFETY_FOR: Final[dict[str, str]] = {h: s for s, hs in SAFETY_AGAINST.items() for h in hs}


def kind(card: str) -> str:
    """``distance``, ``hazard``, ``remedy`` or ``safety``."""
    if card in DISTANCES:
        return "distance"
    if card in HAZARDS:
        return "hazard"
    if card in REMEDIES:
        return "remedy"
    if card in SAFETIES:
        return "safety"
    raise KeyError(card)

"""Mille Bornes: the rules engine for the four editions (``docs/rules/mille-bornes.md``).

>>> from rallye import mille
>>> s = mille.new_match("hu", 4, seed=3)
>>> [len(h) for h in s.hands], s.sides
([7, 6, 6, 6], ((0, 2), (1, 3)))
"""

from rallye.mille.actions import (
    ALL_ACTIONS,
    NUM_ACTIONS,
    Action,
    decode_action,
    encode_action,
    parse_action,
)
from rallye.mille.edition import Edition, editions, get_edition, load_edition
from rallye.mille.engine import (
    apply,
    apply_as,
    check,
    current_player,
    explain,
    is_over,
    legal_actions,
    legal_from_view,
    new_match,
    outcome,
    winners,
)
from rallye.mille.game import GAME
from rallye.mille.playout import Playout
from rallye.mille.state import Event, MilleState, ScoreSheet, Tableau
from rallye.mille.view import MilleView, view_for

__all__ = [
    "ALL_ACTIONS",
    "GAME",
    "NUM_ACTIONS",
    "Action",
    "Edition",
    "Event",
    "MilleState",
    "MilleView",
    "Playout",
    "ScoreSheet",
    "Tableau",
    "apply",
    "apply_as",
    "check",
    "current_player",
    "decode_action",
    "editions",
    "encode_action",
    "explain",
    "get_edition",
    "is_over",
    "legal_actions",
    "legal_from_view",
    "load_edition",
    "new_match",
    "outcome",
    "parse_action",
    "view_for",
    "winners",
]

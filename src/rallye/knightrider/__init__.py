"""Knight Rider (ASS, 1980s): the rules engine.

Pure and standard-library only: immutable states, ``apply(state, action) -> state``,
chance from the :class:`~rallye.core.rng.Rng` in the state, secrets only through
:func:`view_for`. The rules are in ``docs/rules/knight-rider.md``, with the
Resolutions this engine takes where the rulebook is silent; the action notation and the
integer action space in :mod:`rallye.knightrider.actions`.

>>> from rallye.knightrider import new_game, legal_actions, apply, Options, is_over
>>> s = new_game(2, seed=5, options=Options(quick_build=True, turn_limit=50))
>>> while not is_over(s):
...     s = apply(s, legal_actions(s)[0])
>>> is_over(s)
True
"""

from rallye.knightrider.actions import (
    ACTION_SPACE,
    DETOUR_KINDS,
    KITT_KINDS,
    Action,
    End,
    Enter,
    Move,
    Place,
    PlayDetour,
    PlayKitt,
    Recover,
    StartAt,
    encode_action,
    parse_action,
)
from rallye.knightrider.engine import (
    OIL_TABLE,
    RAM_TABLE,
    apply,
    current_player,
    decode_action,
    detour_placements,
    detour_plays,
    is_over,
    legal_actions,
    new_game,
    winner,
    winners,
)
from rallye.knightrider.game import GAME
from rallye.knightrider.names import card_name
from rallye.knightrider.pieces import EscapeCard, Pieces, Tile, load_pieces
from rallye.knightrider.sampling import legal_from_view, sample_state, state_from_view
from rallye.knightrider.state import Car, Event, Options, State
from rallye.knightrider.view import CarView, DetourView, TileView, View, render_grid, view_for

__all__ = [
    "ACTION_SPACE",
    "DETOUR_KINDS",
    "GAME",
    "KITT_KINDS",
    "OIL_TABLE",
    "RAM_TABLE",
    "Action",
    "Car",
    "CarView",
    "DetourView",
    "End",
    "Enter",
    "EscapeCard",
    "Event",
    "Move",
    "Options",
    "Pieces",
    "Place",
    "PlayDetour",
    "PlayKitt",
    "Recover",
    "StartAt",
    "State",
    "Tile",
    "TileView",
    "View",
    "apply",
    "card_name",
    "current_player",
    "decode_action",
    "detour_placements",
    "detour_plays",
    "encode_action",
    "is_over",
    "legal_actions",
    "legal_from_view",
    "load_pieces",
    "new_game",
    "parse_action",
    "render_grid",
    "sample_state",
    "state_from_view",
    "view_for",
    "winner",
    "winners",
]

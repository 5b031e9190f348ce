"""Mille Bornes behind the one game face (:class:`rallye.core.game.Game`).

>>> from rallye.mille import GAME
>>> s = GAME.new(GAME.settings({"edition": "hu", "players": 4}), seed=3)
>>> GAME.current_player(s), GAME.sides({"edition": "hu", "players": 4})
(0, ((0, 2), (1, 3)))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rallye.core.errors import ConfigError
from rallye.core.game import Game, Outcome, Replayed, Settings
from rallye.core.record import Line, Lines, numbered
from rallye.mille import record as mrec
from rallye.mille.actions import NUM_ACTIONS, Action, decode_action, encode_action, parse_action
from rallye.mille.edition import Edition, editions, get_edition
from rallye.mille.engine import apply, apply_as, current_player, is_over, legal_actions, legal_from_view, new_match
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView, view_for


def _edition(settings: Settings) -> Edition:
    """The settings' edition: a key, or (for local tools, never from a client) an
    :class:`Edition` such as a house-rule file's."""
    ed = settings.get("edition", "wm2006")
    return ed if isinstance(ed, Edition) else get_edition(ed)


class MilleGame(Game[MilleState, Action, MilleView]):
    """Mille Bornes, every edition. Settings: ``{"edition": key, "players": n}``."""

    key = "mille"
    title = "Mille Bornes"
    num_actions = NUM_ACTIONS

    def settings(self, raw: Mapping[str, object]) -> dict[str, Any]:
        edition = raw.get("edition", "wm2006")
        players = raw.get("players", 2)
        if not isinstance(edition, str) or len(edition) > 40:
            raise ConfigError("'edition' must be an edition key", rule="table-settings")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("'players' must be a whole number", rule="table-settings")
        wanted = edition.strip().lower()
        found = [e for e in editions() if wanted == e.key or wanted in (a.lower() for a in e.aliases)]
        if not found:  # never get_edition(): it would read a file a client names
            known = ", ".join(e.key for e in editions())
            raise ConfigError(f"unknown edition {edition!r}; a table plays one of {known}", rule="table-settings")
        ed = found[0]
        ed.sides_for(players)  # a ConfigError naming the edition's player counts
        return {"edition": ed.key, "players": players}

    def sides(self, settings: Settings) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(s) for s in _edition(settings).sides_for(self.players(settings)))

    def new(self, settings: Settings, seed: int) -> MilleState:
        return new_match(_edition(settings), self.players(settings), seed)

    def legal_actions(self, state: MilleState) -> Sequence[Action]:
        return legal_actions(state)

    def legal_from_view(self, view: MilleView) -> Sequence[Action]:
        return legal_from_view(view)

    def apply(self, state: MilleState, action: Action, seat: int | None = None) -> MilleState:
        return apply(state, action) if seat is None else apply_as(state, seat, action)

    def view_for(self, state: MilleState, seat: int) -> MilleView:
        return view_for(state, seat)

    def current_player(self, state: MilleState) -> int | None:
        return current_player(state)

    def is_over(self, state: MilleState) -> bool:
        return is_over(state)

    def outcome(self, state: MilleState) -> Outcome:
        return Outcome(sides=state.sides, winners=tuple(state.winners), totals=tuple(state.totals))

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def encode_action(self, action: Action) -> int:
        return encode_action(action)

    def decode_action(self, code: int) -> Action:
        return decode_action(code)

    def record_start(self, state: MilleState, extra: Mapping[str, Any] | None = None) -> list[Line]:
        return mrec.Recorder.start(state, dict(extra) if extra else None).lines

    def record_move(self, lines: list[Line], state: MilleState, seat: int, action: Action) -> MilleState:
        return mrec.Recorder(state, lines).step(seat, action)

    def replay(self, lines: Lines, source: str = "<record>") -> Replayed[MilleState, Action]:
        r = mrec.replay_lines(numbered(lines), source)
        return Replayed(r.initial, r.actions, r.final)


#: Mille Bornes' game face
GAME = MilleGame()

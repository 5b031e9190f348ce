"""Knight Rider behind the one game face (:class:`rallye.core.game.Game`).

>>> from rallye.knightrider import GAME
>>> settings = GAME.settings({"players": 3, "options": {"quick_build": True}})
>>> s = GAME.new(settings, seed=5)
>>> GAME.sides(settings), GAME.is_over(s)
(((0,), (1,), (2,)), False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rallye.core.errors import ConfigError
from rallye.core.game import Game, Outcome, Replayed, Settings
from rallye.core.record import Line, Lines, numbered
from rallye.knightrider import record as krec
from rallye.knightrider.actions import ACTION_SPACE, Action, encode_action, parse_action
from rallye.knightrider.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    apply,
    current_player,
    decode_action,
    is_over,
    legal_actions,
    new_game,
    winners,
)
from rallye.knightrider.sampling import legal_from_view
from rallye.knightrider.state import RULES, Options, State
from rallye.knightrider.view import View, view_for

#: The options a table's settings may set (never a file path: a client names no file).
TABLE_OPTIONS = ("quick_build", "rolled_start", "tour", "deal_spares", "shuffle_cards", "turn_limit")
#: the whole-number options' ranges (``tour``: the rules' 0 to 5 target tiles; ``turn_limit``:
#: chase turns before a draw, or null for none)
TABLE_RANGES = {"tour": (0, 5), "turn_limit": (1, 10_000)}
_FLAGS = ("quick_build", "rolled_start", "deal_spares", "shuffle_cards")


def _options(settings: Settings) -> Options:
    """The settings' options: a JSON object of :class:`Options` fields, or (for local tools)
    an :class:`Options`."""
    opts = settings.get("options")
    if isinstance(opts, Options):
        return opts
    return Options.from_json(dict(opts or {}))


class KnightRiderGame(Game[State, Action, View]):
    """Knight Rider. Settings: ``{"players": n, "options": {...}}`` and, for local tools
    continuing old games, ``"rules"`` (a rules version; default today's)."""

    key = "knightrider"
    title = "Knight Rider"
    num_actions = ACTION_SPACE

    def settings(self, raw: Mapping[str, object]) -> dict[str, Any]:
        players = raw.get("players", 2)
        options = raw.get("options") or {}
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("'players' must be a whole number", rule="table-settings")
        if not isinstance(options, dict):
            raise ConfigError("'options' must be an object", rule="table-settings")
        unknown = sorted(set(options) - set(TABLE_OPTIONS))
        if unknown:
            raise ConfigError(
                f"unknown Knight Rider option(s) {', '.join(map(repr, unknown))}; a table may set"
                f" {', '.join(TABLE_OPTIONS)}",
                rule="table-settings",
            )
        for name in _FLAGS:
            if name in options and not isinstance(options[name], bool):
                raise ConfigError(f"option '{name}' must be true or false", rule="table-settings")
        for name, (lo, hi) in TABLE_RANGES.items():
            v = options.get(name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi):
                # the turn limit's refusal names its rule (Resolution *turn limit*), so a page
                # can say it in its own words next to the field
                rule = "turn-limit" if name == "turn_limit" else "table-settings"
                extra = ", or null for none" if name == "turn_limit" else ""
                said = f"option '{name}' is a whole number from {lo} to {hi}{extra}, not {str(v)[:20]}"
                raise ConfigError(said, rule=rule)
        opts = Options.from_json(dict(options))
        new_game(players, 0, opts)  # the engine's own checks (player count, tour range)
        return {"players": players, "options": {k: v for k, v in opts.to_json().items() if k in TABLE_OPTIONS}}

    def sides(self, settings: Settings) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(self.players(settings)))

    def new(self, settings: Settings, seed: int) -> State:
        rules = settings.get("rules")
        return new_game(self.players(settings), seed, _options(settings), rules=RULES if rules is None else rules)

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal_actions(state)

    def legal_from_view(self, view: View) -> Sequence[Action]:
        return legal_from_view(view) if view.current == view.me else ()

    def apply(self, state: State, action: Action, seat: int | None = None) -> State:
        return apply(state, action, player=seat)

    def view_for(self, state: State, seat: int) -> View:
        return view_for(state, seat)

    def current_player(self, state: State) -> int | None:
        return current_player(state)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def outcome(self, state: State) -> Outcome:
        return Outcome(sides=tuple((s,) for s in range(state.players)), winners=winners(state))

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def encode_action(self, action: Action) -> int:
        return encode_action(action)

    def decode_action(self, code: int) -> Action:
        return decode_action(code)

    def record_start(self, state: State, extra: Mapping[str, Any] | None = None) -> list[Line]:
        return [{**krec.header(state.players, state.seed, state.options, state.rules), **(extra or {})}]

    def record_move(self, lines: list[Line], state: State, seat: int, action: Action) -> State:
        after = apply(state, action, player=seat)
        # a Knight Rider record is its header, then one line per action (the n-th is line n)
        lines.append(krec.action_line(len(lines), state, action, after))
        if is_over(after):
            lines.append(krec.result_line(after))
        return after

    def replay(self, lines: Lines, source: str = "<record>") -> Replayed[State, Action]:
        counted = numbered(lines)
        final = krec.replay(counted, source=source)
        initial = new_game(final.players, final.seed, final.options, rules=final.rules)
        acts = [line for _, line in counted if line.get("type") == "action"]
        moves = tuple((int(line["player"]), parse_action(str(line["action"]))) for line in acts)
        return Replayed(initial, moves, final)


#: Knight Rider's game face
GAME = KnightRiderGame()

__all__ = ["GAME", "MAX_PLAYERS", "MIN_PLAYERS", "TABLE_OPTIONS", "TABLE_RANGES", "KnightRiderGame"]

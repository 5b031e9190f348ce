"""One exception family for every game.

Each class has a stable ``code`` (for servers and bot processes) and every message
names the rule that was broken and the input that broke it, e.g.
``illegal 'play D200' by P1: two 200 km cards already played this hand [rule: two-200s]``.
A rule is never enforced with ``assert``.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error a rallye game raises on bad input."""

    code = "game_error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        # a message quotes its input, which may hold lone surrogates (a file name that is not
        # UTF-8, a "\ud800" in JSON): they are written as escapes, so the message can be printed
        message = message.encode("utf-8", "backslashreplace").decode("utf-8")
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [rule: {rule}]" if rule else message)


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow in this state."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """An action by a player who is not the one to act."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """An action after the game (or match) has ended."""

    code = "game_over"


class InvalidNotation(GameError):
    """Text or an integer code that does not denote any action."""

    code = "invalid_notation"


class ConfigError(GameError):
    """A malformed data file (edition, tile set, escape deck); names file and field."""

    code = "config_error"


class RecordError(GameError):
    """A game record or save file that is broken or does not replay; names the line."""

    code = "record_error"

"""One exception family with stable codes (DESIGN habit 5)."""

from __future__ import annotations

import pytest

from rallye.core import errors
from rallye.core.errors import (
    ConfigError,
    GameError,
    GameOver,
    IllegalAction,
    InvalidNotation,
    NotYourTurn,
    RecordError,
)


def test_every_error_is_a_game_error_with_a_stable_code():
    codes = {
        GameError: "game_error",
        IllegalAction: "illegal_action",
        NotYourTurn: "not_your_turn",
        GameOver: "game_over",
        InvalidNotation: "invalid_notation",
        ConfigError: "config_error",
        RecordError: "record_error",
    }
    for cls, code in codes.items():
        assert issubclass(cls, GameError)
        assert cls.code == code
    assert issubclass(NotYourTurn, IllegalAction) and issubclass(GameOver, IllegalAction)
    assert len(set(codes.values())) == len(codes)


def test_the_error_classes_are_all_listed():
    found = {v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, GameError)}
    assert found == {GameError, IllegalAction, NotYourTurn, GameOver, InvalidNotation, ConfigError, RecordError}


def test_message_names_the_rule():
    err = IllegalAction("illegal 'play D200' by P1: two 200 km cards already played this hand", rule="two-200s")
    assert str(err) == "illegal 'play D200' by P1: two 200 km cards already played this hand [rule: two-200s]"
    assert err.rule == "two-200s" and err.message.startswith("illegal 'play D200'")


def test_message_without_a_rule_is_the_message():
    err = RecordError("save.jsonl: cannot read the record")
    assert str(err) == "save.jsonl: cannot read the record" and err.rule is None


def test_errors_are_catchable_as_the_family():
    with pytest.raises(GameError):
        raise NotYourTurn("x", rule="turn-order")

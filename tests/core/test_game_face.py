"""The one game face (rallye.core.game.Game) is enough to play, record and replay either
game: a generic random-play loop that knows no game, run over both (issue #60)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rallye.core.errors import ConfigError, IllegalAction, RecordError
from rallye.core.game import Game, Outcome
from rallye.games import GAMES, game_for

SETTINGS: dict[str, list[dict[str, Any]]] = {
    "mille": [{"edition": "wm2006", "players": 2}, {"edition": "hu", "players": 4}, {"edition": "meilen"}],
    "knightrider": [{"players": 2, "options": {"quick_build": True, "turn_limit": 40}}, {"players": 4}],
}


def random_game(game: Game[Any, Any, Any], settings: dict[str, Any], seed: int, limit: int = 20_000) -> tuple:
    """Play ``game`` at random through the face alone; returns (record lines, final state, moves)."""
    rng = random.Random(seed)
    state = game.new(settings, seed)
    lines = game.record_start(state, {"tool": "test"})
    moves = 0
    while not game.is_over(state):
        seat = game.current_player(state)
        assert seat is not None
        view = game.view_for(state, seat)
        legal = list(game.legal_actions(state))
        assert list(game.legal_from_view(view)) == legal  # the view alone knows the moves
        for other in range(game.players(settings)):
            if other != seat:
                assert list(game.legal_from_view(game.view_for(state, other))) == []
        action = rng.choice(legal)
        assert game.parse_action(game.format_action(action)) == action
        assert game.decode_action(game.encode_action(action)) == action
        assert 0 <= game.encode_action(action) < game.num_actions
        state = game.record_move(lines, state, seat, action)
        moves += 1
        assert moves < limit
    assert game.current_player(state) is None and list(game.legal_actions(state)) == []
    return lines, state, moves


@pytest.mark.parametrize(("key", "raw"), [(k, s) for k, ss in SETTINGS.items() for s in ss])
def test_a_random_game_through_the_face_alone(key: str, raw: dict[str, Any]) -> None:
    game = game_for(key)
    settings = game.settings(raw)
    lines, final, moves = random_game(game, settings, seed=11)
    out = game.outcome(final)
    assert isinstance(out, Outcome)
    assert out.sides == game.sides(settings)
    assert set(out.winners) <= set(range(len(out.sides)))
    for side, seats in enumerate(out.sides):
        assert all(out.side_of(s) == side for s in seats)
    # the record replays to the same game, move by move
    replayed = game.replay(lines, "test")
    assert replayed.final == final
    assert len(replayed.moves) == moves
    state = replayed.initial
    assert state == game.new(settings, 11)
    for seat, action in replayed.moves:
        state = game.apply(state, action, seat)
    assert state == final


@pytest.mark.parametrize("key", list(GAMES))
def test_the_face_refuses_what_the_rules_refuse(key: str) -> None:
    game = game_for(key)
    settings = game.settings(SETTINGS[key][0])
    state = game.new(settings, 3)
    seat = game.current_player(state)
    assert seat is not None
    other = (seat + 1) % game.players(settings)
    with pytest.raises(IllegalAction):  # out of turn
        game.apply(state, game.legal_actions(state)[0], other)
    with pytest.raises(RecordError):
        game.replay([{"type": "header", "game": "chess"}], "bad")
    with pytest.raises(ConfigError):
        game.settings({"players": 99})
    with pytest.raises(ConfigError):
        game.settings({"players": "two"})


def test_settings_from_a_client_never_name_a_file() -> None:
    with pytest.raises(ConfigError, match="unknown edition"):
        game_for("mille").settings({"edition": "/etc/passwd", "players": 2})
    with pytest.raises(ConfigError, match="unknown Knight Rider option"):
        game_for("knightrider").settings({"players": 2, "options": {"tiles_path": "/etc/passwd"}})
    with pytest.raises(ConfigError, match="'game' must be one of mille, knightrider"):
        game_for("chess")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_refused_record_line_is_named_by_its_line_in_the_file(key: str, tmp_path: Any) -> None:
    """A file's blank lines are skipped but counted: the face's replay keeps read_jsonl's numbers."""
    from rallye.core.record import read_jsonl

    game = game_for(key)
    state = game.new(game.settings(SETTINGS[key][0]), 5)
    lines = game.record_start(state)
    for _ in range(3):
        seat = game.current_player(state)
        assert seat is not None
        state = game.record_move(lines, state, seat, game.legal_actions(state)[0])
    last = len(lines)
    lines[last - 1] = dict(lines[last - 1], action="nonsense")
    path = tmp_path / "game.jsonl"
    text = [json.dumps(line) for line in lines]
    path.write_text("\n".join([*text[:2], "", *text[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=f"line {last + 1}:"):
        game.replay(read_jsonl(path), str(path))

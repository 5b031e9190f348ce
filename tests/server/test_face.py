"""The server's table plays every game through the game face alone (issue #60): a table of
each game, played to its end by a person (answering with the codes of the ``state``
message's legal list) and bots, where the table holds only a stand-in that lets through the
face's names and counts them; its record replays and the table resumes from the database."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rallye.core.game import Game
from rallye.games import GAMES, game_for
from rallye.server.store import Store
from rallye.server.table import Seat, Table

TABLE_PY = Path(__file__).resolve().parents[2] / "src" / "rallye" / "server" / "table.py"
#: the public names of the game face
FACE = {n for n in (*dir(Game), *Game.__annotations__) if not n.startswith("_")}

REQUESTS: dict[str, dict[str, Any]] = {
    "mille": {"edition": "hu", "players": 4},
    "knightrider": {"players": 3, "options": {"turn_limit": 25}},
}


class FaceOnly:
    """A game that shows the table nothing but the face: any other name is an error."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self._game = game
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        if name not in FACE:
            raise AssertionError(f"the table used {name!r}, which is not on the game face")
        self.calls[name] += 1
        return getattr(self._game, name)


@pytest.mark.parametrize("key", list(GAMES))
def test_a_table_plays_each_game_to_its_end_through_the_face(key: str, sqlite_url: str) -> None:
    assert set(REQUESTS) == set(GAMES)
    store = Store(sqlite_url)
    store.upgrade()
    game = game_for(key)
    face = FaceOnly(game)
    settings = game.settings(REQUESTS[key])
    players = game.players(settings)
    seats = [Seat(0, "person", None, "Anna", None)] + [Seat(n, "bot", "easy", None, None) for n in range(1, players)]
    table = Table.open(store, face, settings, seats, None, None, owner="test", owner_url=None)
    token = table.join(0, "Anna")
    assert table.seat_of(token) == 0 and table.status == "playing"
    rng = random.Random(key)
    person_moves = 0
    while not table.over:
        bot = table.bot_to_act()
        if bot is not None:
            move_no, action = table.choose_for(bot)
            table.submit(bot, move_no, action)
            continue
        msg = table.state_for(0)
        assert msg["turn"] == 0 and msg["legal"], msg
        choice = rng.choice(msg["legal"])
        assert game.encode_action(game.parse_action(choice["action"])) == choice["code"]
        table.submit(0, msg["move_no"], choice["code"])
        person_moves += 1
        assert table.move_no < 5_000
    assert person_moves > 0 and table.status == "over" and table.current() is None
    assert {"new", "record_start", "record_move", "is_over", "current_player", "legal_actions"} <= set(face.calls)
    assert {"view_for", "encode_action", "format_action"} <= set(face.calls)

    # the record is the game's own: it replays, move by move, to the table's state
    final = table.match.state
    replayed = game.replay(table.match.lines, "test")
    assert replayed.final == final and len(replayed.moves) == table.move_no
    outcome = game.outcome(final)
    stored = store.load(table.code)
    assert stored is not None and stored.status == "over" and stored.lines == table.match.lines
    assert stored.result is not None and stored.result["winners"] == list(outcome.winners)
    summary = table.summary()
    assert summary["game"] == key and summary["sides"] == [list(s) for s in outcome.sides]
    # and the table resumes from the database in another process the same
    again = Table.restore(store, stored, owner="other")
    assert again.match.state == final and again.move_no == table.move_no and again.summary() == summary
    store.close()


def test_the_table_knows_no_game() -> None:
    """server/table.py imports no game package and names no game: what differs between
    the games is their face (rallye.games) and their JSON (rallye.server.games)."""
    tree = ast.parse(TABLE_PY.read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    packages = {f"rallye.{k}" for k in GAMES}
    assert not [m for m in imported if m in packages or m.startswith(tuple(p + "." for p in packages))]
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not strings & set(GAMES)

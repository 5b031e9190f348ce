"""Issue 65, item 1, at the server: a table's deal comes from a 128-bit seed that no client
is sent while the game runs; a table stored with an old small seed still resumes."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from tests.server.helpers import Player, close_all, create
from tests.test_new_seeds import assert_new_seeds

from rallye.core.record import parse_jsonl
from rallye.mille.record import replay_lines
from rallye.server import table as table_module
from rallye.server.app import create_app
from rallye.server.store import Store
from rallye.server.table import Table


def test_new_tables_deal_from_128_bit_seeds_and_resume(database_url: str) -> None:
    store = Store(database_url)
    store.upgrade()
    seeds = []
    for game in ("mille", "knightrider") * 4:
        table, _, _ = Table.create(store, {"game": game, "players": 2}, owner="me")
        seeds.append(table.match.lines[0]["seed"])
        stored = store.load(table.code)
        assert stored is not None and stored.lines[0]["seed"] == seeds[-1]  # the database keeps it whole
        assert Table.restore(store, stored, owner="me").match.state == table.match.state
    store.close()
    assert_new_seeds(seeds)


def test_a_table_with_an_old_small_seed_still_resumes(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "new_seed", lambda: 12_345)  # as tables were dealt before
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        made = create(c, game="mille", players=2, seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], sit=0)
    with TestClient(create_app(database_url, bot_delay=0)) as c:  # a new process rebuilds it from the record
        try:
            anna = Player(c, made["code"], made["token"])
            st = anna.my_turn()
            anna.send(type="act", move_no=st["move_no"], code=st["legal"][0]["code"])
            anna.until("state", lambda m: m["move_no"] > st["move_no"])
        finally:
            close_all()


def test_no_message_holds_the_seed_until_the_record_after_the_game(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        try:
            made = create(c, game="mille", edition="hu", players=2,
                          seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], sit=0, name="Anna")  # fmt: skip
            code = made["code"]
            anna = Player(c, code, made["token"])
            anna.play_to_end()
            assert anna.state["table"]["status"] == "over"
            record = c.get(f"/api/tables/{code}/record").text
            seed = replay_lines(parse_jsonl(record)).final.seed
            assert seed.bit_length() > 64 and str(seed) in record  # the record, after the game, holds it
            assert anna.texts and not any(str(seed) in t for t in anna.texts)
        finally:
            close_all()

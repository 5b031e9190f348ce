"""Day-two care (docs/hosting.md): ``rallye admin`` (tables, export, prune, backup), the
schema upgrade from the first release's database, ``/healthz`` and ``/metrics``; on a real
database (SQLite, and PostgreSQL where the test says so)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from starlette.testclient import TestClient
from tests.server.helpers import Player, close_all, create

from rallye.cli import main
from rallye.server.admin import table_listing
from rallye.server.app import create_app
from rallye.server.store import Store


def _bot_game_to_the_end(client: TestClient) -> str:
    """A table of two bots (moving at once), played to the end; its code."""
    code: str = create(client, game="mille", edition="wm2006", players=2, seats=[{"kind": "bot", "level": "easy"}] * 2)[
        "code"
    ]
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{code}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)
    return code


def _person_moves(client: TestClient, moves: int) -> tuple[str, str, Player]:
    """A table with a person and a bot, the person having made ``moves`` moves."""
    made = create(client, game="mille", players=2, seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], sit=0)
    me = Player(client, made["code"], made["token"])
    for _ in range(moves):
        st = me.my_turn()
        me.send(type="act", move_no=st["move_no"], action=st["legal"][0]["action"])
        me.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    return made["code"], made["token"], me


def test_admin_lists_exports_prunes_and_backs_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'rallye.db'}"
    with TestClient(create_app(url, bot_delay=0)) as client:
        try:
            over = _bot_game_to_the_end(client)
            playing, _token, me = _person_moves(client, 2)
            server = client.app.state.server  # type: ignore[attr-defined]
            server.store.heartbeat(server.owner, None, server.metrics.started, server.connections())
            listing = {t["code"]: t for t in table_listing(server.store)}
            assert listing[playing]["seats"][0]["connected"] is True  # the person's websocket is open
            assert listing[playing]["seats"][1]["kind"] == "bot"
            assert listing[over]["status"] == "over" and listing[over]["owner_alive"] is True
            me.close()
        finally:
            close_all()
    db = ["--database", url]
    assert main(["admin", "tables", *db]) == 0
    text = capsys.readouterr().out
    assert over in text and playing in text and "over" in text
    assert main(["admin", "tables", "--status", "playing", "--json", *db]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [t["code"] for t in doc["tables"]] == [playing]
    assert doc["processes"] == []  # the server stopped and said so

    # export: the finished game only, as a record rallye replay verifies
    assert main(["admin", "export", str(tmp_path / "out"), *db]) == 0
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == [f"rallye-mille-{over}.jsonl"]
    assert main(["replay", str(files[0])]) == 0
    assert main(["admin", "export", str(tmp_path / "later"), "--since", "2999-01-01", *db]) == 0
    assert list((tmp_path / "later").iterdir()) == []

    # backup: a consistent copy, never over an existing file
    copy = tmp_path / "copy.db"
    assert main(["admin", "backup", str(copy), *db]) == 0
    capsys.readouterr()
    assert main(["admin", "backup", str(copy), *db]) == 2
    assert "exists already" in capsys.readouterr().err

    # prune: says how many without --yes, removes only finished games with it
    assert main(["admin", "prune", "--older-than", "0", *db]) == 0
    assert "1 finished game(s)" in capsys.readouterr().out
    assert len(Store(url).table_rows()) == 2
    assert main(["admin", "prune", "--older-than", "30", "--yes", *db]) == 0
    assert "removed 0" in capsys.readouterr().out
    assert main(["admin", "prune", "--older-than", "0", "--yes", *db]) == 0
    assert "removed 1" in capsys.readouterr().out
    store = Store(url)
    assert [t.code for t in store.table_rows()] == [playing]
    store.close()

    # the backup restores into a new server: the finished game downloads, the unfinished
    # one resumes where it stood and plays on
    with TestClient(create_app(f"sqlite:///{copy}", bot_delay=0)) as client:
        try:
            record = client.get(f"/api/tables/{over}/record")
            assert record.status_code == 200 and record.text == files[0].read_text(encoding="utf-8")
            me = Player(client, playing, _token)
            st = me.my_turn()
            assert st["move_no"] >= 4
            me.send(type="act", move_no=st["move_no"], action=st["legal"][0]["action"])
            me.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        finally:
            close_all()


def test_admin_refuses_bad_arguments_with_a_clear_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--database", f"sqlite:///{tmp_path / 'r.db'}"]
    with pytest.raises(SystemExit) as exc:
        main(["admin", "prune", "--older-than", "soon", *db])
    assert exc.value.code == 2 and "not a number of days" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["admin", "export", str(tmp_path), "--since", "yesterday", *db])
    assert "not a date" in capsys.readouterr().err
    assert main(["admin", "tables", "--database", "mysql://x/y"]) == 2
    assert "rallye admin:" in capsys.readouterr().err


def test_backup_of_postgresql_points_to_pg_dump(database_url: str, tmp_path: Path, capsys: Any) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("the SQLite backup is tested above")
    assert main(["admin", "backup", str(tmp_path / "x.db"), "--database", database_url]) == 2
    assert "pg_dump" in capsys.readouterr().err


def test_a_database_made_by_the_first_migration_keeps_its_games(database_url: str, tmp_path: Path) -> None:
    """The first release's schema (revision 0001) holding an unfinished game is upgraded when
    a server starts on it, and the game resumes: the same player plays on with their token."""
    # a real game, two moves in, made by today's server on a scratch database
    scratch = f"sqlite:///{tmp_path / 'scratch.db'}"
    with TestClient(create_app(scratch, bot_delay=0)) as client:
        try:
            code, token, me = _person_moves(client, 2)
            me.close()
        finally:
            close_all()
    source = Store(scratch)
    game = source.load(code)
    source.close()
    assert game is not None and game.status == "playing"

    # the first release's database, with that game written as it wrote games
    old = Store(database_url)
    cfg = Config()
    cfg.set_main_option("script_location", "rallye.server:migrations")
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    table_id = old.create(
        code=game.code,
        game=game.game,
        settings=game.settings,
        status=game.status,
        turn_timer=game.turn_timer,
        timer_bot=game.timer_bot,
        seat_rows=game.seats,
        lines=game.lines,
        owner="a process long gone",
        owner_url=None,
        lease_until=0.0,
    )
    from sqlalchemy import inspect, text, update

    from rallye.server.store import tables

    with old.engine.begin() as conn:
        conn.execute(update(tables).where(tables.c.id == table_id).values(move_no=game.move_no))
        assert "processes" not in inspect(conn).get_table_names()
    old.close()

    with TestClient(create_app(database_url, bot_delay=0)) as client:
        try:
            me = Player(client, code, token)
            st = me.my_turn()
            assert st["move_no"] >= game.move_no
            me.send(type="act", move_no=st["move_no"], action=st["legal"][0]["action"])
            me.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        finally:
            close_all()
    new = Store(database_url)
    with new.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0004"
        assert {"analyses", "analysis_claims"} <= set(inspect(conn).get_table_names())
    new.close()


def _metric(client: TestClient, name: str) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split(" ")[1])
    raise AssertionError(f"no metric {name}")


def test_healthz_and_metrics(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        try:
            assert client.get("/healthz").json() == {"status": "ok", "database": True, "tables": 0}
            over = _bot_game_to_the_end(client)
            whole_game = client.get(f"/api/tables/{over}").json()["table"]["move_no"]
            _code, _token, me = _person_moves(client, 1)
            text = client.get("/metrics")
            assert text.headers["content-type"].startswith("text/plain; version=0.0.4")
            values = {
                line.split(" ")[0]: float(line.split(" ")[1])
                for line in text.text.splitlines()
                if line and not line.startswith("#")
            }
            assert values["rallye_tables"] == 2 and values["rallye_tables_playing"] == 1
            assert values["rallye_connections"] == 1 and values["rallye_seated_connections"] == 1
            # the bots' whole game and the person's move (the bot may have answered it)
            assert values["rallye_moves_total"] >= whole_game + 1 > 1
            assert values['rallye_commit_seconds_bucket{le="+Inf"}'] == values["rallye_commit_seconds_count"] > 0
            # the bot's answer to the person's move may still wait for a thread: the queue
            # holds at most that one, and drains
            assert values["rallye_bot_queue"] in (0, 1)
            for _ in range(200):
                if _metric(client, "rallye_bot_queue") == 0:
                    break
                time.sleep(0.05)
            assert _metric(client, "rallye_bot_queue") == 0
            for name in values:  # counts only: no table code or name in the metrics
                assert _code not in name
            me.close()

            server = client.app.state.server  # type: ignore[attr-defined]

            def down() -> None:
                raise OSError("the database is gone")

            server.store.ping = down
            r = client.get("/healthz")
            assert r.status_code == 503 and r.json()["database"] is False
        finally:
            close_all()

"""Several ``rallye serve`` processes on one PostgreSQL database behind Debian's nginx with
the project's site file (issue 64, item 2): whole games are played through nginx only; a
process killed with SIGKILL in the middle loses nothing: its tables move to another process
after its lease, and every player reconnects through nginx and plays on."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from tests.proxy_helpers import Nginx, free_port, nginx_or_skip
from tests.server.test_processes import Serve
from websockets.sync.client import connect

from rallye.server.store import Store, tables

LEASE = 3


class Player:
    """A seat's websocket through the proxy, reconnecting as the pages do."""

    def __init__(self, proxy: Nginx, code: str, token: str) -> None:
        self.proxy, self.code, self.token = proxy, code, token
        self.state: dict[str, Any] = {}
        self.reconnects = 0
        self.connect()

    def connect(self, patience: float = 10.0) -> None:
        deadline = time.monotonic() + patience
        while True:
            try:
                self.ws = connect(
                    f"wss://127.0.0.1:{self.proxy.https}/ws/{self.code}",
                    ssl=self.proxy.tls,
                    open_timeout=10,
                    legacy=True,
                )
                self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": self.token}))
                first = json.loads(self.ws.recv(timeout=15))
                if first["type"] == "welcome":
                    self.until("state")
                    return
                assert first["type"] == "error" and first["code"] == "elsewhere", first
            except (OSError, TimeoutError) as exc:  # the connection broke: try again
                last = exc
            else:
                last = None
            self.ws.close()
            assert time.monotonic() < deadline, f"no way back to table {self.code}: {last}"
            time.sleep(0.3)

    def until(self, kind: str, pred: Any = None) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if msg["type"] == "state":
                self.state = msg
            if msg["type"] == kind and (pred is None or pred(msg)):
                return msg

    def play(self, moves: int) -> None:
        """Make ``moves`` moves of this seat (the bot answers in between)."""
        for _ in range(moves):
            st = self.state
            if not st["legal"]:
                st = self.until("state", lambda m: m["legal"] or m["table"]["status"] == "over")
            if st["table"]["status"] == "over":
                return
            self.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
            self.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)


def _post(proxy: Nginx, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        f"{proxy.url}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, context=proxy.tls, timeout=10) as r:
        return json.load(r)


def _owners(db: str, codes: list[str]) -> dict[str, str | None]:
    store = Store(db)
    with store.engine.connect() as conn:
        rows = conn.execute(select(tables.c.code, tables.c.owner).where(tables.c.code.in_(codes))).all()
    store.close()
    return {r.code: r.owner for r in rows}


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str):
    nginx_or_skip()
    db = postgres_url
    ports = [free_port() for _ in range(3)]
    proxy = Nginx(tmp_path / "nginx", ports)
    started: list[Serve] = []
    try:
        for p in ports:
            started.append(Serve(db, p, "--lease", str(LEASE), "--public-url", proxy.url))
        yield db, proxy, started
    finally:
        proxy.stop()
        for s in started:
            s.stop()


def test_games_through_nginx_survive_a_process_killed_in_the_middle(cluster: Any) -> None:
    db, proxy, servers = cluster
    seats = [{"kind": "person"}, {"kind": "bot", "level": "medium"}]
    made = [_post(proxy, "/api/tables", {"game": "mille", "players": 2, "seats": seats, "sit": 0}) for _ in range(8)]
    players = [Player(proxy, m["code"], m["token"]) for m in made]
    for p in players:
        p.play(3)
    codes = [m["code"] for m in made]
    owners = _owners(db, codes)
    by_owner: dict[str | None, list[str]] = {}
    for code, owner in owners.items():
        by_owner.setdefault(owner, []).append(code)
    assert None not in by_owner and len(by_owner) >= 2, f"the tables were not spread: {by_owner}"
    victim_owner = max(by_owner, key=lambda o: len(by_owner[o]))
    victim = next(s for s in servers if victim_owner and victim_owner.endswith(f":{s.port}"))
    moved = set(by_owner[victim_owner])
    seen = {p.code: p.state for p in players}

    victim.kill()
    for p in players:
        if p.code in moved:
            p.ws.close()
            p.connect(patience=LEASE + 20)  # the dead process's lease runs out, another takes the table
            before = seen[p.code]
            assert p.state["move_no"] >= before["move_no"]  # nothing acknowledged is lost
            if p.state["move_no"] == before["move_no"]:
                assert p.state["view"] == before["view"]
        p.play(3)  # every table plays on, moved or not
    after = _owners(db, codes)
    assert all(after[c] not in (None, victim_owner) for c in moved), after


def test_the_lobby_and_the_api_answer_through_nginx(cluster: Any) -> None:
    _db, proxy, _servers = cluster
    with urllib.request.urlopen(f"{proxy.url}/api/info", context=proxy.tls, timeout=10) as r:
        assert json.load(r)["protocol"] == 1
    with urllib.request.urlopen(f"{proxy.url}/", context=proxy.tls, timeout=10) as r:
        assert b"rallye" in r.read()


def test_a_table_is_handed_over_to_the_process_its_players_reach(sqlite_url: str) -> None:
    """Two processes behind one address: the one a table's players reach asks its owner for
    it, and the owner lets it go between two moves; its connections close (to reconnect
    through the proxy). Processes at their own addresses never hand over ('elsewhere')."""
    import asyncio

    from rallye.server.app import Conn, Server
    from rallye.server.table import TableError

    async def scenario() -> None:
        a = Server(sqlite_url, bot_delay=0, owner="a", owner_url="https://club.example")
        b = Server(sqlite_url, bot_delay=0, owner="b", owner_url="https://club.example")
        c = Server(sqlite_url, bot_delay=0, owner="c", owner_url="https://other.example", handoff_wait=0.5)
        for s in (a, b, c):
            await s.start()
        try:
            seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
            table, _, _ = await a.create({"game": "mille", "players": 2, "seats": seats, "sit": 0, "name": "Anna"})
            assert table.status == "playing"
            conn = Conn(ws=None, seat=0, name="Anna")  # type: ignore[arg-type]
            a.conns[table.code] = [conn]
            with pytest.raises(TableError) as refused:  # another address: sent there, no hand-over
                await c.get_table(table.code)
            assert refused.value.code == "elsewhere" and "https://club.example" in refused.value.message
            assert table.code in a.tables
            moved = await b.get_table(table.code)  # the same address: handed over
            assert moved.move_no == table.move_no and table.code in b.tables
            assert table.code not in a.tables and a.conns.get(table.code) is None
            assert conn.queue.get_nowait() is None  # the connection at a is closed
            owner = await b.db(b.store.owner_of, table.code)
            assert owner[0] == "b"
            turn = moved.current()
            legal = moved.game.legal_actions(moved.match.state)
            with pytest.raises(TableError) as stale:  # a move that still reaches a is refused
                await a.act(table, turn, table.move_no, str(legal[0]))
            assert stale.value.code == "elsewhere"
            await b.act(moved, turn, moved.move_no, str(legal[0]))  # and b plays on
            assert moved.move_no == table.move_no + 1
        finally:
            for s in (a, b, c):
                await s.stop()

    asyncio.run(scenario())

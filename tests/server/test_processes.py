"""Real ``rallye serve`` processes (issue 52, items 5 and 12): killed with SIGKILL in the
middle of a game and started again, nothing is lost; two processes on one database never
both accept moves for one table."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tests.server import schema
from websockets.sync.client import connect

from rallye.server.store import Conflict, Store
from rallye.server.table import Table


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    def __init__(self, database: str, port: int, *extra: str) -> None:
        self.port = port
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rallye", "serve", "--no-browser", "--port", str(port), "--database", database,
             "--bot-delay", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        for _ in range(300):
            try:
                self.get("/api/info")
                return
            except OSError:
                if self.proc.poll() is not None:
                    out = self.proc.stdout.read() if self.proc.stdout else ""
                    raise AssertionError(f"rallye serve exited: {out}") from None
                time.sleep(0.1)
        raise AssertionError("rallye serve did not start")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def answer(self, path: str) -> tuple[int, Any]:
        """A GET's status and JSON, an error's too."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
                return int(r.status), json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), json.loads(exc.read())

    def metric(self, name: str) -> float:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10) as r:
            for line in r.read().decode().splitlines():
                if line.startswith(name + " "):
                    return float(line.split(" ")[1])
        raise AssertionError(f"no metric {name}")

    def status(self, path: str, body: Any, headers: dict[str, str]) -> int:
        """The HTTP status of a POST (with extra headers)."""
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", **headers},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stdout:
            self.proc.stdout.close()


class Client:
    def __init__(self, port: int, code: str, token: str | None) -> None:
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=10, legacy=True)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        hello.update({"token": token} if token else {"watch": True})
        self.ws.send(json.dumps(hello))
        self.first = self.recv()
        self.state = self.until("state")

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        schema.check("server", msg)
        return msg

    def until(self, kind: str, pred: Any = None, seconds: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            msg = self.recv()
            if msg["type"] == "state":
                self.state = msg
            if msg["type"] == kind and (pred is None or pred(msg)):
                return msg
        raise AssertionError(f"no {kind} message within {seconds:g} s")

    def my_turn(self) -> dict[str, Any]:
        if self.state["legal"] or self.state["table"]["status"] == "over":
            return self.state
        return self.until("state", lambda m: m["legal"] or m["table"]["status"] == "over")


@pytest.fixture
def servers():
    started: list[Serve] = []
    yield started
    for s in started:
        s.stop()


def test_kill_9_in_the_middle_of_games_loses_nothing(tmp_path: Path, servers: list[Serve]) -> None:
    db = f"sqlite:///{tmp_path / 'rallye.db'}"
    port = _port()
    servers.append(Serve(db, port))
    a = servers[-1]
    mille = a.post("/api/tables", {"game": "mille", "players": 3, "sit": 0, "name": "Anna",
                                   "seats": [{"kind": "person"}, {"kind": "bot", "level": "medium"},
                                             {"kind": "bot", "level": "easy"}]})  # fmt: skip
    # Knight Rider's building phase: no early end of the game to trip the test
    knight = a.post("/api/tables", {"game": "knightrider", "players": 2, "sit": 1, "name": "Bob",
                                    "seats": [{"kind": "bot", "level": "medium"}, {"kind": "person"}]})  # fmt: skip
    anna = Client(port, mille["code"], mille["token"])
    bob = Client(port, knight["code"], knight["token"])
    for _ in range(6):
        for c in (anna, bob):
            st = c.my_turn()
            c.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
            c.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    # one more move each is sent, and the server is killed before it can answer
    seen = {}
    for c, t in ((anna, mille), (bob, knight)):
        st = c.my_turn()
        seen[t["code"]] = st
        c.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
    a.kill()
    servers.append(Serve(db, port))
    for t in (mille, knight):
        again = Client(port, t["code"], t["token"])
        before = seen[t["code"]]
        # the move sent before the kill was committed and told, or neither: never half
        assert again.state["move_no"] >= before["move_no"]
        if again.state["move_no"] == before["move_no"]:
            assert again.state["view"] == before["view"]
        # the bots go on by themselves and the person can play on
        st = again.my_turn()
        again.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
        again.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        again.ws.close()


def test_two_processes_on_one_database_never_both_accept_moves(servers: list[Serve], postgres_url: str) -> None:
    db = postgres_url
    pa, pb = _port(), _port()
    servers.append(Serve(db, pa, "--lease", "2"))
    servers.append(Serve(db, pb, "--lease", "2"))
    a = servers[0]
    made = a.post("/api/tables", {"game": "mille", "players": 2, "sit": 0, "name": "Anna",
                                  "seats": [{"kind": "person"}, {"kind": "bot", "level": "medium"}]})  # fmt: skip
    code = made["code"]
    anna = Client(pa, code, made["token"])
    st = anna.my_turn()
    refused = connect(f"ws://127.0.0.1:{pb}/ws/{code}", open_timeout=10, legacy=True)
    refused.send(json.dumps({"type": "hello", "protocol": 1, "token": made["token"]}))
    assert json.loads(refused.recv(timeout=10))["code"] == "elsewhere"
    refused.close()
    a.kill()
    time.sleep(2.5)  # the dead owner's lease runs out; b may take the table over
    moved = Client(pb, code, made["token"])
    assert moved.state["move_no"] >= st["move_no"]
    st = moved.my_turn()
    moved.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
    moved.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
    moved.ws.close()


def test_the_store_refuses_a_move_from_a_process_that_does_not_own_the_table(database_url: str) -> None:
    store = Store(database_url)
    store.upgrade()
    store.upgrade()  # the migrations run again on an up-to-date database without harm
    request = {"game": "mille", "players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
    table, _, _ = Table.create(store, request, owner="first")
    lines = [{"type": "action", "hand": 0, "player": 0, "action": "discard D25"}]
    with pytest.raises(Conflict):
        store.append(table.id, move_no=0, first_line=2, lines=lines, status="playing", result=None, owner="second")
    assert not store.claim(table.id, "second", None, time.time() + 30)  # first's lease holds
    store.append(table.id, move_no=0, first_line=2, lines=lines, status="playing", result=None, owner="first")
    with pytest.raises(Conflict):  # the same move number twice
        store.append(table.id, move_no=0, first_line=3, lines=lines, status="playing", result=None, owner="first")
    stored = store.load(table.code)
    assert stored is not None and stored.move_no == 1 and stored.lines[-1] == lines[0]
    store.close()


def test_a_process_that_lost_its_table_refuses_the_move_and_lets_the_table_go(sqlite_url: str) -> None:
    """The commit names the owner: once another process holds the table, this one's move is
    refused ('elsewhere') and the table leaves its memory."""
    import asyncio

    from rallye.server.app import Server
    from rallye.server.table import TableError

    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="first")
        await server.start()
        try:
            request = {"game": "mille", "players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
            table, _, _ = await server.create(request)
            table.seats[0].token_hash = "x"
            table.status = "playing"
            with server.store.engine.begin() as conn:  # another process took the table over
                from sqlalchemy import update

                from rallye.server.store import tables

                conn.execute(update(tables).where(tables.c.id == table.id).values(owner="second"))
            turn = table.current()
            legal = table.game.legal_actions(table.match.state)
            with pytest.raises(TableError) as refused:
                await server.act(table, turn, table.move_no, str(legal[0]))
            assert refused.value.code == "elsewhere" and table.code not in server.tables
            assert table.move_no == 0 and len(table.match.lines) == 2  # nothing half-applied
        finally:
            await server.stop()

    asyncio.run(scenario())


def test_serve_trusts_x_forwarded_for_only_from_the_proxies_it_is_told(tmp_path: Path, servers: list[Serve]) -> None:
    """uvicorn alone trusts the header from loopback: 25 spoofed addresses would all pass."""
    spoofed = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in range(25)]
    servers.append(Serve(f"sqlite:///{tmp_path / 'a.db'}", _port(), "--request-rate", "1"))
    codes = [servers[-1].status("/api/tables", {"game": "mille"}, h) for h in spoofed]
    assert codes[:20] == [201] * 20 and codes[-1] == 429
    servers.append(
        Serve(f"sqlite:///{tmp_path / 'b.db'}", _port(), "--request-rate", "1", "--forwarded-allow-ips", "127.0.0.1")
    )
    assert [servers[-1].status("/api/tables", {"game": "mille"}, h) for h in spoofed] == [201] * 25


def test_an_over_long_message_and_an_over_long_frame_get_the_documented_answers(
    tmp_path: Path, servers: list[Serve]
) -> None:
    from websockets.exceptions import ConnectionClosed

    from rallye.server.messages import MAX_FRAME, MAX_MESSAGE

    port = _port()
    servers.append(Serve(f"sqlite:///{tmp_path / 'rallye.db'}", port))
    made = servers[-1].post("/api/tables", {"game": "mille", "players": 2, "sit": 0, "name": "Anna"})
    anna = Client(port, made["code"], made["token"])
    anna.ws.send("x" * (MAX_MESSAGE + 1))  # over the message limit: an error, the connection stays
    assert anna.until("error")["code"] == "too-large"
    anna.ws.send(json.dumps({"type": "ping", "id": 1}))
    assert anna.until("pong")["ref"] == 1
    anna.ws.send("x" * (MAX_FRAME + 1))  # over the frame limit: closed, status 1009
    with pytest.raises(ConnectionClosed) as closed:
        anna.until("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_ws_deflate_compresses_for_clients_that_offer_it(tmp_path: Path, servers: list[Serve]) -> None:
    for flags, offered in (((), False), (("--ws-deflate",), True)):
        port = _port()
        servers.append(Serve(f"sqlite:///{tmp_path / f'{offered}.db'}", port, *flags))
        made = servers[-1].post("/api/tables", {"game": "mille", "players": 2, "sit": 0, "name": "Anna"})
        anna = Client(port, made["code"], made["token"])  # the websockets library offers deflate
        extensions = anna.ws.response.headers.get("Sec-WebSocket-Extensions") or ""
        assert ("permessage-deflate" in extensions) == offered
        st = anna.my_turn()
        anna.ws.send(json.dumps({"type": "act", "move_no": st["move_no"], "code": st["legal"][0]["code"]}))
        anna.until("state", lambda m, n=st["move_no"]: m["move_no"] > n)
        anna.ws.close()


def _finished_game(server: Serve) -> str:
    """A Mille Bornes match of two bots played to its end on ``server``; its code."""
    bots = {"kind": "bot", "level": "easy"}
    code: str = server.post("/api/tables", {"game": "mille", "edition": "hu", "players": 2, "seats": [bots, bots]})[
        "code"
    ]
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{code}")["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return code


def _analysed(server: Serve, path: str, seconds: float = 600) -> Any:
    deadline = time.monotonic() + seconds
    while (answer := server.answer(path))[0] == 202:
        assert time.monotonic() < deadline, f"no analysis within {seconds} s: {answer[1]}"
        time.sleep(0.2)
    assert answer[0] == 200, answer
    return answer[1]


def _analysis_rows(database: str, subject: str) -> list[Any]:
    from sqlalchemy import select

    from rallye.server.store import analyses

    store = Store(database)
    try:
        with store.engine.connect() as conn:
            return list(conn.execute(select(analyses).where(analyses.c.subject == subject)).all())
    finally:
        store.close()


def test_two_processes_asked_for_one_game_make_one_analysis(servers: list[Serve], database_url: str) -> None:
    """Issue 61, item 5: many people opening the same replay cost one analysis, however many
    processes serve them (the analysis is claimed in the database)."""
    for _ in range(2):
        servers.append(Serve(database_url, _port(), "--analysis-bot", "hard/8"))
    a, b = servers
    code = _finished_game(a)
    path = f"/api/tables/{code}/analysis"
    with ThreadPoolExecutor(8) as pool:  # people on both processes open the replay at once
        first = list(pool.map(lambda s: s.answer(path), [a, b] * 4))
    assert {status for status, _ in first} <= {200, 202}, first
    assert all(body["status"] in ("queued", "running") for status, body in first if status == 202)
    one, other = _analysed(a, path), _analysed(b, path)
    assert one == other and one["moves"] > 0
    assert a.metric("rallye_analyses_total") + b.metric("rallye_analyses_total") == 1
    assert len(_analysis_rows(database_url, f"t:{code}")) == 1


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the worker's process from /proc (Linux)")
def test_a_dead_process_s_analysis_is_taken_over(servers: list[Serve], postgres_url: str) -> None:
    """The process that claimed an analysis is killed in the middle of it: the other one told
    its progress from the database meanwhile, takes it over once the dead one's lease ran out,
    and makes it; the dead one's worker stops by itself."""
    for _ in range(2):  # hard: slow enough to be caught in the middle
        servers.append(Serve(postgres_url, _port(), "--analysis-bot", "hard", "--lease", "5"))
    a, b = servers
    code = _finished_game(a)
    path = f"/api/tables/{code}/analysis"
    deadline = time.monotonic() + 300
    while (answer := a.answer(path))[1].get("done", 0) == 0:
        assert answer[0] == 202 and time.monotonic() < deadline, answer
        time.sleep(0.1)
    workers = _children(a.proc.pid)
    assert len(workers) == 1
    status, progress = b.answer(path)
    assert status == 202 and progress["status"] in ("queued", "running"), progress  # as the database says
    assert progress["total"] == answer[1]["total"] and b.metric("rallye_analysis_jobs") == 0
    a.kill()
    analysis = _analysed(b, path)
    assert analysis["moves"] == progress["total"]
    assert b.metric("rallye_analyses_total") == 1
    assert len(_analysis_rows(postgres_url, f"t:{code}")) == 1
    deadline = time.monotonic() + 60
    while _alive(workers[0]):  # the dead server's worker ends at its next progress report (its output closed)
        assert time.monotonic() < deadline, "the dead server's analysis worker went on"
        time.sleep(0.1)
